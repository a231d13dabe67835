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
