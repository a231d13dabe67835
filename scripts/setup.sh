#!/usr/bin/env bash
# Set up a fresh machine for assetroute: a virtual environment in .venv with everything
# installed, Debian's Chromium for the browser tests and Debian's Node.js and npm for the SDK
# contract test (when apt-get is usable; the dashboard needs neither: --no-browser).
# Idempotent: a second run only checks. Usage: bash scripts/setup.sh [--no-browser]
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3.11}
command -v "$PY" >/dev/null 2>&1 || PY=python3
"$PY" -c 'import sys; assert sys.version_info >= (3, 11), sys.version' \
  || { echo "setup: Python >= 3.11 is required" >&2; exit 1; }
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv with $("$PY" --version)"
  "$PY" -m venv .venv
fi
stamp=.venv/.installed-$(cat requirements.txt requirements-dev.txt pyproject.toml | sha256sum | cut -c1-16)
if [ ! -f "$stamp" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -r requirements-dev.txt
  .venv/bin/python -m pip install --quiet --no-deps -e .
  touch "$stamp"
fi
if [ "${1:-}" != "--no-browser" ] && [ ! -x /usr/bin/chromium ]; then
  if command -v apt-get >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    echo "setup: installing Debian's chromium for the browser tests"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
  fi
  [ -x /usr/bin/chromium ] || { echo "setup: /usr/bin/chromium is missing; install Debian's chromium" >&2; exit 1; }
fi
if [ "${1:-}" != "--no-browser" ] && { ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; }; then
  if command -v apt-get >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    echo "setup: installing Debian's nodejs and npm for the SDK contract test"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq nodejs npm >/dev/null
  fi
  command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 \
    || { echo "setup: node and npm are missing; install Debian's nodejs and npm" >&2; exit 1; }
fi
echo "setup: ready ($(.venv/bin/python --version))"
