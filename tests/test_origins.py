"""Origins followed to the end, stuck unwinds and EVM spellings (SPEC.md §2–§3, issue 8 defects 3–5).

Expected values come from the registry's listings (what each chain lists, and what its traces'
counterparties list in turn) and from the ICS-20 hash, never from our own output.
"""

import hashlib
import json

ALL_FLAGS = {"include_no_metadata_assets": True, "include_cw20_assets": True, "include_evm_assets": True,
             "allow_multi_tx": True}

PAXG_OSMOSIS = "ibc/0EF5630576C66968EF0787868CF09FD866FAD131BC148D24A148358A85F0EB62"
PAXG_HUB = "ibc/09E95F57939E344EE36109AC41780B8A51F1FE0548A5203C5957674FF64C0F26"
NIL_NOLUS = "ibc/56AD715B6EBE187ACE16DA331CCFFE41655B42373FBE4A43748DEE16A95EE895"
XION_NOLUS = "ibc/B8E95841C22213AC4E3EF000CB9D1D3B06FFAA1784FCE1169C6E92982BCC89B4"
DOT_OSMOSIS = "ibc/6B2B19D874851F631FF0AF82C38A20D4B82F438C7A22F41EDA33568345397244"
DOT_COMPOSABLE = "ibc/3CC19CEC7E5A3E90E78A5A9ECC5A0E2F8F826A375CF1E096F4515CF09DA3E366"
PEPE_OSMOSIS = "ibc/5B5BFCC8A9F0D554A4245117F7798E85BE25B6C73DBFA2D6F369BD9DD6CACC6D"
PEPE_COMPOSABLE = "ibc/6367C5AF2E2477FB13DD0C8CB0027FEDDF5AE947EE84C69FB75003E604E29D05"


def _listing(registry_path, chain, denom):
    for asset in json.loads((registry_path / chain / "assetlist.json").read_text())["assets"]:
        if asset["base"] == denom:
            return asset
    raise AssertionError(f"{denom} not listed on {chain}")


def _origin_by_listings(registry_path, chain, denom):
    """Follow the last trace's counterparty while it is an ibc/ voucher listed there (SPEC §2)."""
    for _ in range(8):
        cp = _listing(registry_path, chain, denom)["traces"][-1]["counterparty"]
        chain, denom = cp["chain_name"], cp["base_denom"]
        if not denom.startswith("ibc/"):
            return chain
    raise AssertionError("too deep")


def _pairs(registry, source, dest, **flags):
    return {(p.asset_on_source.denom, p.asset_on_dest.denom): p
            for p in registry.assets_between_chains(source, dest, **flags).pairs}


def test_paxg_names_the_same_origin_on_both_sides(registry, registry_path):
    """Issue 8, 3: the PAXG pair osmosis → cosmoshub names origin 1 (Ethereum) on both sides."""
    assert _origin_by_listings(registry_path, "osmosis", PAXG_OSMOSIS) == "ethereum"
    ethereum_id = json.loads((registry_path / "_non-cosmos" / "ethereum" / "chain.json").read_text())["chain_id"]
    assert ethereum_id == "1"
    for flags in ({}, ALL_FLAGS):
        pair = _pairs(registry, "osmosis-1", "cosmoshub-4", **flags)[(PAXG_OSMOSIS, PAXG_HUB)]
        assert pair.bridges == ("IBC",) and pair.txs_required == 1
        assert pair.asset_on_source.origin_chain_id == pair.asset_on_dest.origin_chain_id == "1"
        assert pair.asset_on_source.origin_denom == pair.asset_on_dest.origin_denom


def test_nolus_vouchers_name_their_real_origin(registry, registry_path):
    """Issue 8, 3: the nolus NIL and XION vouchers come from nillion and xion, not from osmosis."""
    for denom, origin in ((NIL_NOLUS, "nillion"), (XION_NOLUS, "xion")):
        assert _origin_by_listings(registry_path, "nolus", denom) == origin
        asset = registry.find_asset("pirin-1", denom)
        assert asset is not None and asset.listed
        assert asset.origin_chain_id == _chain_id(registry_path, origin)
        assert asset.origin_chain_id != "osmosis-1"


def _chain_id(registry_path, name):
    return json.loads((registry_path / name / "chain.json").read_text())["chain_id"]


def test_a_stuck_unwind_is_not_an_origin(registry, registry_path):
    """Issue 8, 4: DOT on osmosis unwinds through composable to picasso, which is killed: no IBC route."""
    assert json.loads((registry_path / "_non-cosmos" / "picasso" / "chain.json").read_text())["status"] == "killed"
    dot = registry.find_asset("osmosis-1", DOT_OSMOSIS)
    assert dot is not None and dot.trace.count("/") == 5  # three hops: osmosis ← composable ← picasso ← polkadot
    for flags in ({}, {"allow_multi_tx": True}, {"allow_multi_tx": True, "recommendation_reason": "BASE_TOKEN"}):
        result = registry.assets_from_source(DOT_OSMOSIS, "osmosis-1", **flags)
        assert DOT_COMPOSABLE not in [a.denom for a in result.dest_assets.get("centauri-1", ())]
        assert not any(a.origin_denom == dot.origin_denom for assets in result.dest_assets.values() for a in assets)
    assert not [k for k in _pairs(registry, "osmosis-1", "centauri-1", **ALL_FLAGS) if DOT_OSMOSIS in k]


def test_evm_voucher_hashes_with_the_paths_own_spelling(registry, registry_path):
    """Issue 8, 5: the listed PEPE voucher on centauri is matched; 1 tx from osmosis, nothing invented."""
    listing = _listing(registry_path, "composable", PEPE_COMPOSABLE)
    path = listing["traces"][-1]["chain"]["path"]
    assert "ibc/" + hashlib.sha256(path.encode()).hexdigest().upper() == PEPE_COMPOSABLE
    registry_spelling = listing["traces"][-1]["counterparty"]["base_denom"]
    assert registry_spelling != path.split("/")[-1]  # the registry's mixed case vs the path's lower case
    invented = "ibc/" + hashlib.sha256(f"transfer/channel-52/{registry_spelling}".encode()).hexdigest().upper()
    assert invented.startswith("ibc/C7D82BA3")
    pair = _pairs(registry, "osmosis-1", "centauri-1")[(PEPE_OSMOSIS, PEPE_COMPOSABLE)]
    assert pair.txs_required == 1 and pair.bridges == ("IBC",)
    for flags in ({}, ALL_FLAGS):
        assert not [k for k in _pairs(registry, "osmosis-1", "centauri-1", **flags) if invented in k]
    # From Ethereum's own PEPE (registry spelling), composable's canonical voucher is the listed one.
    result = registry.assets_from_source(registry_spelling, "1", allow_multi_tx=True)
    assert [a.denom for a in result.dest_assets["centauri-1"] if not a.origin_denom.startswith("pepe")] == [
        PEPE_COMPOSABLE]
    # Input compares case-insensitively; output keeps the registry's spelling.
    assert registry.find_asset("1", registry_spelling.lower()).denom == registry_spelling
