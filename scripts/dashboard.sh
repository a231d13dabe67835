#!/usr/bin/env bash
# Set up (if needed) and open the dashboard on http://localhost:8501
# Usage: bash scripts/dashboard.sh [streamlit args...]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${ASSETROUTE_REGISTRY:-}" ] && [ -d ../shared/chain-registry ]; then
  export ASSETROUTE_REGISTRY=$(cd ../shared/chain-registry && pwd)
fi
bash scripts/setup.sh --no-browser
exec .venv/bin/streamlit run app.py --browser.gatherUsageStats false "$@"
