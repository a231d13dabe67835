"""Loading: provenance, the data-quality report, and damage that must not abort a load."""

import json
import shutil

import pytest

import assetroute_core as ar


def _write(root, rel, value):
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(value if isinstance(value, str) else json.dumps(value))


def _chain(name, chain_id, status="live"):
    return {"chain_name": name, "chain_id": chain_id, "chain_type": "cosmos", "status": status,
            "pretty_name": name.title(), "bech32_prefix": name[:4]}


def _asset(base, symbol, **extra):
    return {"base": base, "display": symbol.lower(), "symbol": symbol, "name": symbol, "type_asset": "sdk.coin",
            "denom_units": [{"denom": base, "exponent": 0}, {"denom": symbol.lower(), "exponent": 6}], **extra}


def _ibc(a, b, ca, cb, **tags):
    return {"chain_1": {"chain_name": a}, "chain_2": {"chain_name": b},
            "channels": [{"chain_1": {"channel_id": ca, "port_id": "transfer"},
                          "chain_2": {"channel_id": cb, "port_id": "transfer"},
                          "ordering": "unordered", "version": "ics20-1", "tags": tags}]}


@pytest.fixture
def tiny(tmp_path):
    """A three-chain registry: alpha and beta connected, gamma isolated."""
    root = tmp_path / "reg"
    _write(root, "alpha/chain.json", _chain("alpha", "alpha-1"))
    _write(root, "alpha/assetlist.json", {"chain_name": "alpha", "assets": [_asset("ualpha", "ALPHA")]})
    _write(root, "beta/chain.json", _chain("beta", "beta-1"))
    _write(root, "beta/assetlist.json", {"chain_name": "beta", "assets": [_asset("ubeta", "BETA")]})
    _write(root, "gamma/chain.json", _chain("gamma", "gamma-1"))
    _write(root, "_IBC/alpha-beta.json", _ibc("alpha", "beta", "channel-0", "channel-7", status="ACTIVE",
                                               preferred=True))
    return root


def test_clean_tiny_registry(tiny):
    reg = ar.load_registry(tiny)
    assert reg.quality == ()
    assert [c.chain_id for c in reg.chains()] == ["alpha-1", "beta-1", "gamma-1"]
    result = reg.assets_between_chains("alpha-1", "beta-1", include_no_metadata_assets=True)
    native, voucher = result.pairs  # alpha's own ALPHA, then BETA's derived voucher going home
    assert native.asset_on_dest.trace == "transfer/channel-7"
    assert native.asset_on_dest.denom == ar.ibc_denom("transfer/channel-7", "ualpha")
    assert native.asset_on_dest.metadata is None  # beta does not list it
    assert voucher.asset_on_source.denom == ar.ibc_denom("transfer/channel-0", "ubeta")
    assert (voucher.asset_on_dest.denom, voucher.asset_on_dest.trace) == ("ubeta", "")
    assert len(reg.assets_between_chains("alpha-1", "beta-1")) == 0  # derived vouchers have no metadata
    counts = dict(reg.provenance.counts)
    assert counts["chains"] == 3 and counts["listed_assets"] == 2 and counts["channels"] == 1
    assert len(reg.provenance.fingerprint) == 64
    assert reg.provenance.kind == "directory"


def test_fingerprint_follows_the_data(tiny):
    first = ar.load_registry(tiny).provenance.fingerprint
    assert ar.load_registry(tiny).provenance.fingerprint == first
    _write(tiny, "gamma/assetlist.json", {"chain_name": "gamma", "assets": [_asset("ugamma", "GAMMA")]})
    assert ar.load_registry(tiny).provenance.fingerprint != first


@pytest.mark.parametrize(
    ("rel", "content", "problem"),
    [
        ("delta/chain.json", "{not json", "invalid JSON"),
        ("delta/chain.json", "", "empty file"),
        ("delta/chain.json", "[1, 2]", "not an object"),
        ("_IBC/alpha-zeta.json", _ibc("alpha", "zeta", "channel-1", "channel-2"), "unknown chain 'zeta'"),
        ("_IBC/alpha-gamma.json", _ibc("alpha", "gamma", "*", "channel-2"), "wildcard or malformed channel id"),
        ("delta/chain.json", _chain("delta", "alpha-1", status="killed"), "is shared by"),
        ("gamma/assetlist.json", {"chain_name": "gamma", "assets": [
            _asset("ibc/" + "0" * 64, "FAKE", traces=[{"type": "ibc", "counterparty": {
                "chain_name": "alpha", "base_denom": "ualpha", "channel_id": "channel-0"},
                "chain": {"channel_id": "channel-7", "path": "transfer/channel-7/ualpha"}}])]},
         "does not hash from its path"),
        ("gamma/assetlist.json", {"chain_name": "gamma", "assets": [_asset("ug", "G"), _asset("ug", "G2")]},
         "listed twice"),
        ("gamma/assetlist.json", {"chain_name": "gamma", "assets": [{"base": "ux"}]}, "has no symbol"),
    ],
    ids=["invalid-json", "empty", "not-object", "unknown-chain", "wildcard", "duplicate-chain-id",
         "hash-mismatch", "duplicate-denom", "missing-symbol"],
)
def test_damage_is_reported_and_the_rest_survives(tiny, rel, content, problem):
    clean = ar.load_registry(tiny)
    _write(tiny, rel, content)
    reg = ar.load_registry(tiny)
    hits = [q for q in reg.quality if problem in q.problem]
    assert hits, [q.problem for q in reg.quality]
    assert all(q.file and q.action for q in hits)
    # The valid part is intact: the same answer as the clean registry.
    assert reg.assets_between_chains("alpha-1", "beta-1", include_no_metadata_assets=True).to_api() == (
        clean.assets_between_chains("alpha-1", "beta-1", include_no_metadata_assets=True).to_api())


def test_killed_chain_loses_its_chain_id_to_the_live_one(tiny):
    _write(tiny, "delta/chain.json", _chain("delta", "alpha-1", status="killed"))
    reg = ar.load_registry(tiny)
    assert reg.chain("alpha-1").chain_name == "alpha"


def test_inactive_channel_is_not_routable(tiny):
    _write(tiny, "_IBC/alpha-beta.json", _ibc("alpha", "beta", "channel-0", "channel-7", status="INACTIVE"))
    reg = ar.load_registry(tiny)
    assert len(reg.assets_between_chains("alpha-1", "beta-1", include_no_metadata_assets=True)) == 0


def test_real_snapshot_provenance_and_quirks(registry):
    prov = registry.provenance
    assert prov.commit == "627bbab9c8e56fa1c4581f85f40d6d028e1c26e8"
    counts = dict(prov.counts)
    assert counts["files"] == 1362  # the snapshot's JSON minus its 7 schema files
    assert counts["listed_assets"] == 2518
    problems = " | ".join(q.problem for q in registry.quality)
    # Measured quirks of the snapshot (notes/chain-registry.md §3) are all reported.
    assert "chain_id 'andromeda-1' is shared" in problems
    assert "wildcard or malformed channel id" in problems
    assert "differs from counterparty base_denom" in problems
    assert "is not in _IBC" in problems
    assert registry.chain("andromeda-1").status == "live"


def test_overlay_errors_name_the_problem(tmp_path, tiny):
    bad = tmp_path / "overlay.json"
    bad.write_text(json.dumps({"pfm": [{"chain_name": "alpha", "pfm_enabled": True}]}))
    with pytest.raises(ar.OverlayError, match="has no source"):
        ar.load_registry(tiny, overlay=bad)
    bad.write_text("{")
    with pytest.raises(ar.OverlayError, match="not valid JSON"):
        ar.load_overlay(bad)
    with pytest.raises(ar.OverlayError, match="cannot read overlay"):
        ar.load_overlay(tmp_path / "missing.json")


def test_shipped_overlay_is_sourced():
    overlay = ar.load_overlay()
    assert overlay.bridge("AXELAR").forwards and overlay.bridge("EUREKA").forwards
    assert not overlay.bridge("CCTP").forwards
    assert overlay.evm_chains["arbitrum"].chain_id == "42161"
    assert overlay.pfm["cosmoshub"] is True
    assert overlay.kind_of("Gravity Bridge") == overlay.kind_of("gravity bridge")


def test_sources_that_do_not_exist(tmp_path):
    with pytest.raises(ar.RegistrySourceError, match="missing"):
        ar.load_registry(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ar.RegistrySourceError):
        ar.load_registry(tmp_path / "empty")


def test_archive_source_loads_like_the_directory(tiny, tmp_path):
    archive = shutil.make_archive(str(tmp_path / "reg"), "gztar", root_dir=tiny)
    from_dir = ar.load_registry(tiny)
    from_archive = ar.load_registry(archive, cache_dir=tmp_path / "cache")
    assert from_archive.provenance.kind == "archive"
    assert from_archive.provenance.fingerprint == from_dir.provenance.fingerprint


# -- severities, chain-id ownership and the bounded report -------------------------------------------


def test_quality_issue_keeps_its_positional_shape():
    issue = ar.QualityIssue("f.json", "problem", "action")
    assert (issue.severity, issue.kind) == ("warning", "")
    assert ar.QualityIssue("f.json", "p", "a", "error", "unreadable").severity == "error"


def test_real_killed_namesakes_leave_the_id_to_the_live_chain(registry):
    # notes/chain-registry.md §3.1: four chain-ids shared by a live chain and its killed predecessor.
    for chain_id, live, killed in (("andromeda-1", "andromeda", "andromeda1"),
                                   ("morocco-1", "terpnetwork", "chronicnetwork"),
                                   ("dungeon-1", "dungeon", "dungeon1"),
                                   ("odin-mainnet-freya", "odin", "odin1")):
        assert registry.chain(chain_id).chain_name == live
        hits = [q for q in registry.quality if q.kind == "chain-id-shared" and f"'{chain_id}'" in q.problem]
        assert [(q.file, q.severity, q.action) for q in hits] == [
            (f"{killed}/chain.json", "info", f"'{live}' (live) owns it")]
    # The real snapshot has nothing error-level; a Cosmos chain with an unopposed numeric id keeps it.
    assert not [q for q in registry.quality if q.severity == "error"]
    assert registry.chain("1919").chain_name == "turkchain"
    assert registry.chain("1").chain_name == "ethereum"
    # Eureka (IBC v2) client ids in paths are a known quirk, not a fault: info.
    v2 = [q for q in registry.quality if "08-wasm-" in q.problem]
    assert v2 and all((q.severity, q.kind) == ("info", "ibc-v2-client") for q in v2)


def test_live_chains_claiming_one_id_route_neither_whatever_the_folder_order(tiny):
    for newcomer in ("aaalpha", "zzalpha"):
        _write(tiny, f"{newcomer}/chain.json", _chain(newcomer, "alpha-1"))
        reg = ar.load_registry(tiny)
        with pytest.raises(ar.NotFoundError):
            reg.chain("alpha-1")
        errors = {(q.file, q.kind) for q in reg.quality if q.severity == "error"}
        assert errors == {("alpha/chain.json", "chain-id-conflict"), (f"{newcomer}/chain.json", "chain-id-conflict")}
        shutil.rmtree(tiny / newcomer)


def test_numeric_ids_belong_to_evm_chains(tiny):
    _write(tiny, "_non-cosmos/ethereum/chain.json", {**_chain("ethereum", "1"), "chain_type": "eip155"})
    _write(tiny, "aaevil/chain.json", _chain("aaevil", "1"))
    _write(tiny, "delta/chain.json", _chain("delta", "12345"))  # numeric, but no EVM chain claims it
    reg = ar.load_registry(tiny)
    assert reg.chain("1").chain_name == "ethereum"
    assert reg.chain("12345").chain_name == "delta"
    [refused] = [q for q in reg.quality if q.severity == "error"]
    assert (refused.file, refused.kind) == ("aaevil/chain.json", "numeric-chain-id")
    assert "'ethereum' (evm) claims it" in refused.problem and "'aaevil' (cosmos) is not routed" in refused.action


def test_the_report_is_capped_per_file_and_overall_and_errors_are_never_crowded_out(tiny, monkeypatch):
    from assetroute_core import _data

    monkeypatch.setattr(_data, "MAX_ISSUES_PER_FILE", 5)
    monkeypatch.setattr(_data, "MAX_ISSUES", 30)
    monkeypatch.setattr(_data, "ERROR_RESERVE", 6)
    for i in range(30):  # 30 files x 8 warnings (7 bad entries, and "no chain.json" found first)
        _write(tiny, f"noise{i:02}/assetlist.json", {"chain_name": f"noise{i:02}", "assets": [{"symbol": "X"}] * 7})
    _write(tiny, "zz/chain.json", _chain("zz", "alpha-1"))  # found after 30 warnings: an error-level conflict
    reg = ar.load_registry(tiny)
    data = reg.engine.data
    errors = [q for q in reg.quality if q.severity == "error"]
    assert {q.file for q in errors} == {"alpha/chain.json", "zz/chain.json"}
    listed = [q for q in reg.quality if q.kind != "issues-not-listed"]
    per_file = [q for q in reg.quality if q.kind == "issues-not-listed" and q.file != "(registry)"]
    final = reg.quality[-1]
    # Warnings stop at 24 (30 minus the 6 kept for errors); both errors are listed; summaries fill the rest.
    assert len(listed) == 24 + 2 and len(per_file) == 4 and len(reg.quality) == 30 + 1
    assert (per_file[0].file, per_file[0].problem) == ("noise00/assetlist.json",
                                                       "3 more issue(s) in this file not listed")
    assert (final.file, final.kind, final.severity) == ("(registry)", "issues-not-listed", "warning")
    # Every issue is listed or counted: 240 warnings and 2 errors.
    assert len(listed) + data.quality_dropped == 240 + 2
    assert final.problem == f"{data.quality_dropped - 3 * len(per_file)} more issue(s) not listed"


def test_registry_info_shows_errors_first(tiny, capsys):
    from assetroute_core._cli import main

    _write(tiny, "zz/chain.json", _chain("zz", "alpha-1"))
    _write(tiny, "noise/assetlist.json", {"chain_name": "noise", "assets": [{"symbol": "X"}] * 60})
    assert main(["registry", "info", "--issues", "2", "--registry", str(tiny)]) == 0
    out = capsys.readouterr().out
    assert "data quality: 53 issues (2 errors, 51 warnings), and 11 more counted but not listed" in out
    errors_at, kinds_at, first_at = out.index("errors (2)"), out.index("ISSUES  SEVERITY  KIND"), out.index("first ")
    assert errors_at < kinds_at < first_at
    assert "  zz/chain.json: chain_id 'alpha-1' is claimed by 2 live chains ('alpha' and 'zz')" in out
    assert "2       error     chain-id-conflict" in out and "1       warning   issues-not-listed" in out
    assert main(["registry", "info", "--json", "--registry", str(tiny)]) == 0
    quality = json.loads(capsys.readouterr().out)["quality"]
    assert quality["by_severity"] == {"error": 2, "warning": 51} and quality["dropped"] == 11
    assert [q["severity"] for q in quality["issues"][:3]] == ["error", "error", "warning"]
    assert {q["file"] for q in quality["errors"]} == {"alpha/chain.json", "zz/chain.json"}
