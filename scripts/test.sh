#!/usr/bin/env bash
# Set up (if needed) and run the whole test suite against the registry snapshot.
# Usage: bash scripts/test.sh [pytest args...]
set -euo pipefail
cd "$(dirname "$0")/.."
export ASSETROUTE_REGISTRY=${ASSETROUTE_REGISTRY:-$(cd .. && pwd)/shared/chain-registry}
if [ ! -f "$ASSETROUTE_REGISTRY/SNAPSHOT.md" ] || [ ! -d "$ASSETROUTE_REGISTRY/_IBC" ]; then
  echo "test: the registry snapshot is missing at $ASSETROUTE_REGISTRY" >&2
  echo "test: put ../shared/chain-registry beside the repository or set ASSETROUTE_REGISTRY" >&2
  exit 1
fi
bash scripts/setup.sh
.venv/bin/ruff check .
.venv/bin/mypy
exec .venv/bin/python -m pytest "$@"
