"""The reference's official JavaScript SDK, ``@skip-go/client``, against our service on loopback (issue 10).

The SDK is installed with npm at a pinned version into a cache outside the repository (with ``protobufjs``,
which 1.6.1 imports without declaring it), once per machine; ``sdk_contract.mjs`` calls every read-only SDK
function and reports what came back; this test judges the report. It is part of CI: when npm or its registry
cannot be reached the test fails saying so, it is never skipped.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import platformdirs
import pytest

SDK_VERSION = "1.6.1"
PACKAGES = (f"@skip-go/client@{SDK_VERSION}", "protobufjs@8.8.1")
SCRIPT = Path(__file__).with_name("sdk_contract.mjs")


def sdk_dir() -> Path:
    """Where the SDK is installed: ``$ASSETROUTE_SDK_DIR``, else the user cache (never the repository)."""
    base = os.environ.get("ASSETROUTE_SDK_DIR")
    return Path(base) if base else Path(platformdirs.user_cache_dir("assetroute")) / f"skip-go-client-{SDK_VERSION}"


def install_sdk() -> Path:
    where = sdk_dir()
    installed = where / "node_modules" / "@skip-go" / "client" / "package.json"
    if installed.is_file() and json.loads(installed.read_text()).get("version") == SDK_VERSION:
        return where
    for tool in ("node", "npm"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} not found: install Debian's nodejs and npm (bash scripts/setup.sh does)",
                        pytrace=False)
    where.mkdir(parents=True, exist_ok=True)
    (where / "package.json").write_text('{"private": true}\n')
    run = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error",
                          *PACKAGES], cwd=where, capture_output=True, text=True, timeout=600)
    if run.returncode != 0 or not installed.is_file():
        pytest.fail(f"npm could not install {' '.join(PACKAGES)} from the npm registry (exit {run.returncode}):\n"
                    f"{run.stderr[-2000:]}", pytrace=False)
    return where


@pytest.fixture(scope="module")
def report(live_server: str) -> dict[str, Any]:
    where = install_sdk()
    script = where / SCRIPT.name
    shutil.copyfile(SCRIPT, script)  # ES modules resolve packages from the script's own folder
    run = subprocess.run(["node", str(script)], cwd=where, capture_output=True, text=True, timeout=300,
                         env={**os.environ, "ASSETROUTE_API_URL": live_server})
    assert run.returncode == 0, run.stderr[-3000:]
    out: dict[str, Any] = json.loads(run.stdout)
    return out


def test_every_read_only_call_succeeds_with_no_required_field_missing(report: dict[str, Any]) -> None:
    failed = {name: r for name, r in report.items() if not r["ok"] and not name.startswith("unknown")}
    assert failed == {}
    for name in ("chains", "chains_testnets", "assets", "ibc_origin_assets", "between"):
        assert report[name]["missing"] == [], name


def test_chains_and_their_filters(report: dict[str, Any]) -> None:
    assert report["chains"]["count"] > 200 and set(report["chains"]["types"]) >= {"cosmos", "evm"}
    assert report["chains"]["testnets"] == 0  # mainnets and testnets never mix
    assert report["chains_two"]["ids"] == ["cosmoshub-4", "osmosis-1"]
    assert report["chains_testnets"]["count"] > 100 and report["chains_testnets"]["all_testnets"] is True


def test_fee_helpers_are_defined(report: dict[str, Any]) -> None:
    assert report["fee_osmosis-1"]["denom"] == "uosmo" and report["fee_osmosis-1"]["gas"] is not None
    assert report["fee_cosmoshub-4"]["denom"] == "uatom" and report["fee_cosmoshub-4"]["gas"] is not None
    assert report["gas_osmosis-1"]["defined"] and report["gas_cosmoshub-4"]["defined"]


def test_the_other_read_endpoints(report: dict[str, Any]) -> None:
    assert report["assets"]["chains"] == ["cosmoshub-4", "osmosis-1"] and report["assets"]["count"] > 100
    assert report["assets_all"]["chains"] > 100
    assert report["bridges"]["ids"][0] == "IBC" and "AXELAR" in report["bridges"]["ids"]
    assert report["venues"]["count"] > 0
    assert report["ibc_origin_assets"]["entries"] == [[True, "uosmo", "osmosis-1"], [False, None, None]]
    assert report["between"]["count"] > 0 and report["from_source"]["chains"] > 10
    assert report["recommend_assets"]["entries"] == [
        ["ibc/D189335C6E4A68B513C10AB227BF1C1D38C746766278BA3EEB4FB14124F1D858", "MOST_LIQUID", None],
        [None, None, "no recommendation found"]]


def test_errors_keep_the_reference_shape(report: dict[str, Any]) -> None:
    assert report["unknown_chain"] == {"ok": False, "error": "dest chain not found", "code": 5}
    assert report["unknown_denom"] == {"ok": False, "error": "Invalid source_asset_denom", "code": 3}
