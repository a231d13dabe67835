"""The command line: ``main([...])`` in process (capsys) and once as a real ``python -m`` subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from assetroute_core import Registry
from assetroute_core._cli import issue_kind, main, quality_summary, shorten

REPO = Path(__file__).resolve().parents[1]
ATOM_ON_OSMOSIS = "ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2"
COMMIT = "627bbab9c8e56fa1c4581f85f40d6d028e1c26e8"


@pytest.fixture
def reg(registry_path: Path) -> list[str]:
    return ["--registry", str(registry_path)]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def server_body(live_server: str, path: str, body: dict[str, object]) -> bytes:
    r = httpx.post(live_server + path, json=body)
    assert r.status_code == 200
    return r.content


# -- tables ----------------------------------------------------------------------------------


def test_between_table(capsys: pytest.CaptureFixture[str], reg: list[str]) -> None:
    code, out, err = run(capsys, "between", "cosmoshub-4", "osmosis-1", *reg)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "cosmoshub-4 → osmosis-1: 9 pairs"
    assert lines[1].split() == ["SYMBOL", "SOURCE", "DENOM", "DEST", "DENOM", "DEST", "CHAIN", "DEST", "TRACE",
                                "TXS", "BRIDGES"]
    atom = [line.split() for line in lines if " uatom " in line]
    assert atom == [["ATOM", "uatom", shorten(ATOM_ON_OSMOSIS), "osmosis-1", "transfer/channel-0", "1", "IBC"]]
    assert shorten(ATOM_ON_OSMOSIS) == "ibc/27394FB09…22B25F41E5EB2"
    # aligned: every column starts at the same offset on every row
    starts = {line.index("osmosis-1") for line in lines[2:]}
    assert len(starts) == 1 and lines[1].index("DEST CHAIN") in starts


def test_between_flags_change_the_answer(capsys: pytest.CaptureFixture[str], reg: list[str]) -> None:
    _, narrow, _ = run(capsys, "between", "osmosis-1", "cosmoshub-4", *reg)
    _, wide, _ = run(capsys, "between", "osmosis-1", "cosmoshub-4", "--include-no-metadata-assets",
                     "--include-cw20-assets", "--include-evm-assets", "--allow-multi-tx", *reg)
    assert len(wide.splitlines()) > len(narrow.splitlines())


def test_from_source_table(capsys: pytest.CaptureFixture[str], reg: list[str]) -> None:
    code, out, _ = run(capsys, "from-source", "uusdc", "axelar-dojo-1", *reg)
    assert code == 0
    assert out.splitlines()[0].startswith("uusdc on axelar-dojo-1: ")
    assert out.splitlines()[1].split() == ["CHAIN", "SYMBOL", "DENOM", "TRACE", "TXS", "BRIDGES"]
    agoric = [line.split() for line in out.splitlines() if line.startswith("agoric-3 ")]
    assert agoric == [["agoric-3", "-", shorten("ibc/295548A78785A1007F232DE286149A6FF512F180AF5657780FC89C009E2C348F"),
                       "transfer/channel-9", "1", "IBC"]]


def test_from_source_options(capsys: pytest.CaptureFixture[str], reg: list[str], registry: Registry) -> None:
    code, out, _ = run(capsys, "from-source", "uusdc", "axelar-dojo-1", "--group-by", "recommended_symbol",
                       "--recommendation-reason", "2", "--allow-multi-tx", *reg)
    assert code == 0
    assert out.splitlines()[1].split()[0] == "GROUP"
    expected = registry.assets_from_source("uusdc", "axelar-dojo-1", group_by="recommended_symbol",
                                           recommendation_reason="MOST_LIQUID", allow_multi_tx=True)
    assert f": {len(expected)} assets in {len(expected.groups)} groups (by recommended_symbol)" in out.splitlines()[0]

    code, out, _ = run(capsys, "from-source", "uatom", "cosmoshub-4", "--include-swaps",
                       "--swap-venue", "osmosis-poolmanager:osmosis-1", "--json", *reg)
    assert code == 0
    expected_json = registry.assets_from_source("uatom", "cosmoshub-4", include_swaps=True,
                                                swap_venues=[{"name": "osmosis-poolmanager", "chain_id": "osmosis-1"}])
    assert out == expected_json.to_json().decode()


def test_chains_table(capsys: pytest.CaptureFixture[str], reg: list[str], registry: Registry) -> None:
    code, out, _ = run(capsys, "chains", *reg)
    assert code == 0
    assert out.splitlines()[0] == f"{len(registry.chains())} chains"
    hub = next(line.split()[:3] for line in out.splitlines() if line.startswith("cosmoshub-4 "))
    assert hub == ["cosmoshub-4", "cosmoshub", "cosmos"]


# -- --json is the HTTP body, byte for byte --------------------------------------------------


@pytest.mark.parametrize(("argv", "path", "body"), [
    (["between", "cosmoshub-4", "osmosis-1"], "/v2/fungible/assets_between_chains",
     {"source_chain_id": "cosmoshub-4", "dest_chain_id": "osmosis-1"}),
    (["between", "osmosis-1", "neutron-1", "--allow-multi-tx", "--include-cw20-assets"],
     "/v2/fungible/assets_between_chains",
     {"source_chain_id": "osmosis-1", "dest_chain_id": "neutron-1", "allow_multi_tx": True,
      "include_cw20_assets": True}),
    (["from-source", "uusdc", "axelar-dojo-1"], "/v2/fungible/assets_from_source",
     {"source_asset_denom": "uusdc", "source_asset_chain_id": "axelar-dojo-1"}),
    (["from-source", "uatom", "cosmoshub-4", "--recommendation-reason", "DIRECT", "--native-only"],
     "/v2/fungible/assets_from_source",
     {"source_asset_denom": "uatom", "source_asset_chain_id": "cosmoshub-4", "recommendation_reason": "DIRECT",
      "native_only": True}),
])
def test_json_output_is_the_server_body(capsysbinary: pytest.CaptureFixture[bytes], reg: list[str],
                                        live_server: str, argv: list[str], path: str,
                                        body: dict[str, object]) -> None:
    expected = server_body(live_server, path, body)
    for source in (reg, ["--base-url", live_server]):  # local registry and the HTTP service
        assert main([*argv, "--json", *source]) == 0
        out, err = capsysbinary.readouterr()
        assert out == expected  # exactly the body: no trailing newline, nothing else
        assert err == b""


def test_chains_json_is_the_server_body(capsysbinary: pytest.CaptureFixture[bytes], reg: list[str],
                                        live_server: str) -> None:
    expected = httpx.get(live_server + "/v2/info/chains?include_evm=true&include_svm=true").content
    for source in (reg, ["--base-url", live_server]):
        assert main(["chains", "--json", *source]) == 0
        assert capsysbinary.readouterr().out == expected


# -- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("argv", "message"), [
    (["between", "cosmoshub-4", "no-such-chain-1"], "error: dest chain not found: 'no-such-chain-1'"),
    (["between", "nope", "osmosis-1"], "error: source chain not found: 'nope'"),
    (["between", "osmosis-1", "osmosis-1"], "error: source and dest chain must differ"),
    (["from-source", "ufoo", "cosmoshub-4"], "error: Invalid source_asset_denom: 'ufoo'"),
    (["from-source", "uatom", "x-1"], "error: Invalid source_asset_chain_id: 'x-1'"),
    (["from-source", "uatom", "cosmoshub-4", "--recommendation-reason", "CHEAPEST"],
     'error: invalid value for enum field --recommendation-reason: "CHEAPEST"'),
    (["from-source", "uatom", "cosmoshub-4", "--group-by", "origin"], "error: invalid group_by"),
])
def test_bad_input_exits_2_with_a_message(capsys: pytest.CaptureFixture[str], reg: list[str], argv: list[str],
                                          message: str) -> None:
    code, out, err = run(capsys, *argv, *reg)
    assert code == 2
    assert out == ""
    assert message in err and err.count("\n") == 1


def test_bad_input_through_the_service_exits_2_with_the_server_message(capsys: pytest.CaptureFixture[str],
                                                                        live_server: str) -> None:
    code, out, err = run(capsys, "between", "cosmoshub-4", "no-such-chain-1", "--base-url", live_server, "--json")
    assert (code, out) == (2, "")
    assert err.endswith("error: dest chain not found\n")


@pytest.mark.parametrize("argv", [
    [], ["between"], ["between", "a"], ["nonsense"], ["registry"], ["from-source", "u", "c", "--swap-venue", "bad"],
    ["between", "a", "b", "--registry", "x", "--base-url", "http://x"], ["serve", "--port", "eighty"],
])
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert "usage:" in err


def test_other_failures_exit_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "between", "cosmoshub-4", "osmosis-1", "--registry", str(tmp_path / "missing"))
    assert code == 1 and "does not exist" in err
    code, _, err = run(capsys, "between", "cosmoshub-4", "osmosis-1", "--base-url", "http://127.0.0.1:9")
    assert code == 1 and "ConnectError" in err
    code, _, err = run(capsys, "chains", "--base-url", "ftp://x")
    assert code == 2 and "base_url must be an http:// or https:// URL" in err


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "between" in out and "from-source" in out and "serve" in out


# -- registry info ---------------------------------------------------------------------------


def test_registry_info(capsys: pytest.CaptureFixture[str], reg: list[str], registry: Registry) -> None:
    code, out, _ = run(capsys, "registry", "info", "--issues", "3", *reg)
    assert code == 0
    assert f"commit       {COMMIT}" in out
    counts = dict(registry.provenance.counts)
    assert counts["routable_chains"] == len(registry.chains())
    for name in ("chains", "routable_chains", "channels", "listed_assets", "quality_issues"):
        assert f"  {name} " in out and str(counts[name]) in out.split(f"  {name} ", 1)[1].split("\n", 1)[0]
    assert f"data quality: {len(registry.quality)} issues" in out
    assert "first 3:" in out
    first = registry.quality[0]
    assert f"  {first.file}: {first.problem} → {first.action}" in out


def test_registry_info_json(capsysbinary: pytest.CaptureFixture[bytes], reg: list[str], registry: Registry) -> None:
    assert main(["registry", "info", "--json", *reg]) == 0
    info = json.loads(capsysbinary.readouterr().out)
    assert info["provenance"]["commit"] == COMMIT
    assert info["provenance"]["counts"] == dict(registry.provenance.counts)
    quality = info["quality"]
    assert quality["total"] == len(registry.quality) > 0
    assert sum(quality["by_kind"].values()) == quality["total"]
    assert len(quality["issues"]) == 10
    assert quality == quality_summary(registry.quality)


def test_issue_kinds_group_similar_problems(registry: Registry) -> None:
    kinds = {issue_kind(q.problem) for q in registry.quality}
    assert len(kinds) < len({q.problem for q in registry.quality}) / 3
    assert "assetlist without chain.json and no overlay chain id" in kinds
    assert issue_kind("unreadable: [Errno 13] Permission denied") == "unreadable"


# -- a real subprocess -----------------------------------------------------------------------


def test_subprocess(registry_path: Path, live_server: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO), "ASSETROUTE_REGISTRY": str(registry_path)}
    ok = subprocess.run([sys.executable, "-m", "assetroute_core", "between", "cosmoshub-4", "osmosis-1", "--json"],
                        cwd=REPO, env=env, capture_output=True, timeout=60)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout == server_body(live_server, "/v2/fungible/assets_between_chains",
                                    {"source_chain_id": "cosmoshub-4", "dest_chain_id": "osmosis-1"})
    assert ok.stderr == b""

    bad = subprocess.run([sys.executable, "-m", "assetroute_core", "from-source", "ufoo", "cosmoshub-4"],
                         cwd=REPO, env=env, capture_output=True, timeout=60)
    assert bad.returncode == 2
    assert bad.stdout == b""
    assert bad.stderr == b"python -m assetroute_core: error: Invalid source_asset_denom: 'ufoo'\n"
