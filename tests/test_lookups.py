"""Spot checks of both lookups over the real snapshot (SPEC.md §4–§5)."""

import itertools
import json

import pytest

import assetroute_core as ar

ATOM_ON_OSMOSIS = "ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2"
OSMO_ON_HUB = "ibc/14F9BC3E44B8A9C1BE1FB08980FAB87034C9905EF17CF2F5008FC085218811CC"
ATOM_ON_NEUTRON = "ibc/C4CFF46FD6DE35CA4CF4CE031E643C8FDC9BA4B99AE598E9B0ED98FE3A2319F9"


def _pair(result, source_denom, dest_denom=None):
    found = [p for p in result if p.asset_on_source.denom == source_denom
             and (dest_denom is None or p.asset_on_dest.denom == dest_denom)]
    assert found, f"no pair for {source_denom} -> {dest_denom}"
    return found[0]


def test_atom_on_osmosis_is_the_canonical_voucher(registry):
    asset = registry.find_asset("osmosis-1", ATOM_ON_OSMOSIS)
    assert asset is not None
    assert (asset.trace, asset.origin_denom, asset.origin_chain_id) == ("transfer/channel-0", "uatom", "cosmoshub-4")
    pair = _pair(registry.assets_between_chains("cosmoshub-4", "osmosis-1"), "uatom")
    assert pair.asset_on_dest.denom == ATOM_ON_OSMOSIS
    assert (pair.txs_required, pair.bridges) == (1, ("IBC",))


def test_osmo_on_the_hub_is_derived_not_listed(registry):
    asset = registry.find_asset("cosmoshub-4", OSMO_ON_HUB)
    assert asset is not None and asset.metadata is None
    assert (asset.origin_denom, asset.origin_chain_id, asset.trace) == ("uosmo", "osmosis-1", "transfer/channel-141")
    assert ar.ibc_denom(asset.trace, asset.origin_denom) == OSMO_ON_HUB
    # Without metadata it only shows when asked for.
    plain = registry.assets_between_chains("osmosis-1", "cosmoshub-4")
    assert all(p.asset_on_dest.denom != OSMO_ON_HUB for p in plain)
    wide = registry.assets_between_chains("osmosis-1", "cosmoshub-4", include_no_metadata_assets=True)
    assert _pair(wide, "uosmo").asset_on_dest.denom == OSMO_ON_HUB


def test_atom_on_osmosis_to_neutron_is_one_tx_through_the_hub(registry):
    result = registry.assets_between_chains("osmosis-1", "neutron-1", include_no_metadata_assets=True)
    pair = _pair(result, ATOM_ON_OSMOSIS, ATOM_ON_NEUTRON)
    assert pair.txs_required == 1
    assert pair.bridges == ("IBC",)
    hops = pair.route.hops
    assert [(h.from_chain_id, h.to_chain_id) for h in hops] == [("osmosis-1", "cosmoshub-4"),
                                                                ("cosmoshub-4", "neutron-1")]
    assert hops[0].denom == "uatom" and hops[0].channel == "channel-0"
    assert [h.new_tx for h in hops] == [True, False]  # the hub forwards (PFM)


def test_atom_on_osmosis_home_is_uatom(registry):
    pair = _pair(registry.assets_between_chains("osmosis-1", "cosmoshub-4"), ATOM_ON_OSMOSIS)
    assert pair.asset_on_dest.denom == "uatom"
    assert pair.asset_on_dest.trace == ""
    assert pair.txs_required == 1


def test_without_pfm_the_forward_needs_a_second_tx(registry_path, tmp_path):
    import json
    from importlib import resources

    overlay = json.loads((resources.files("assetroute_core") / "data" / "overlay.json").read_text())
    for entry in overlay["pfm"]:
        entry["pfm_enabled"] = False
    path = tmp_path / "overlay.json"
    path.write_text(json.dumps(overlay))
    reg = ar.load_registry(registry_path, overlay=path)
    single = reg.assets_between_chains("osmosis-1", "neutron-1", include_no_metadata_assets=True)
    assert all(p.asset_on_source.denom != ATOM_ON_OSMOSIS or p.asset_on_dest.denom != ATOM_ON_NEUTRON
               for p in single)
    multi = reg.assets_between_chains("osmosis-1", "neutron-1", include_no_metadata_assets=True,
                                      allow_multi_tx=True)
    assert _pair(multi, ATOM_ON_OSMOSIS, ATOM_ON_NEUTRON).txs_required == 2


def test_unknown_chains_and_same_chain(registry):
    with pytest.raises(ar.NotFoundError) as err:
        registry.assets_between_chains("cosmoshub-4", "no-such-chain-1")
    assert err.value.to_api() == {"code": 5, "message": "dest chain not found", "details": []}
    assert "no-such-chain-1" in str(err.value)
    with pytest.raises(ar.NotFoundError) as err:
        registry.assets_between_chains("nope", "cosmoshub-4")
    assert err.value.message == "source chain not found"
    with pytest.raises(ar.InvalidArgumentError) as err:
        registry.assets_between_chains("cosmoshub-4", "cosmoshub-4")
    assert err.value.http_status == 400


def test_killed_chain_is_not_routable(registry):
    killed = next(c for c in registry.chains(routable_only=False) if c.status == "killed" and c.chain_id
                  and c.chain_id not in {x.chain_id for x in registry.chains()})
    with pytest.raises(ar.NotFoundError):
        registry.assets_between_chains(killed.chain_id, "osmosis-1")


def test_bad_option_types_are_rejected(registry):
    with pytest.raises(ar.InvalidArgumentError, match="allow_multi_tx"):
        registry.assets_between_chains("cosmoshub-4", "osmosis-1", allow_multi_tx="yes")
    with pytest.raises(ar.InvalidArgumentError, match="group_by"):
        registry.assets_from_source("uatom", "cosmoshub-4", group_by="origin")
    with pytest.raises(ar.InvalidArgumentError, match="recommendation_reason"):
        registry.assets_from_source("uatom", "cosmoshub-4", recommendation_reason="CHEAPEST")


def test_filters_apply_to_both_sides(registry):
    everything = registry.assets_between_chains("osmosis-1", "cosmoshub-4", include_no_metadata_assets=True,
                                                include_cw20_assets=True, include_evm_assets=True,
                                                allow_multi_tx=True)
    default = registry.assets_between_chains("osmosis-1", "cosmoshub-4")
    assert 0 < len(default) < len(everything)
    for p in default:
        for side in (p.asset_on_source, p.asset_on_dest):
            assert side.metadata is not None and not side.is_cw20 and not side.is_evm
        assert p.txs_required == 1
    assert any(p.txs_required > 1 for p in everything)
    assert any(p.asset_on_dest.metadata is None for p in everything)
    # Every default pair is also in the widest answer, with the same route figures.
    wide = {(p.asset_on_source.denom, p.asset_on_dest.denom): p for p in everything}
    for p in default:
        q = wide[(p.asset_on_source.denom, p.asset_on_dest.denom)]
        assert (q.txs_required, q.bridges) == (p.txs_required, p.bridges)


def test_pairs_are_unique_and_ordered(registry):
    result = registry.assets_between_chains("osmosis-1", "cosmoshub-4", include_no_metadata_assets=True,
                                            allow_multi_tx=True)
    keys = [(p.asset_on_source.denom, p.asset_on_dest.denom) for p in result]
    assert len(keys) == len(set(keys))
    order = [(p.asset_on_source.trace != "", p.asset_on_source.origin_chain_id, p.asset_on_source.origin_denom)
             for p in result]
    assert order == sorted(order)
    assert result.pairs[0].asset_on_source.trace == ""


def test_every_route_is_consistent(registry):
    result = registry.assets_between_chains("osmosis-1", "noble-1", include_no_metadata_assets=True,
                                            include_evm_assets=True, include_cw20_assets=True, allow_multi_tx=True)
    assert len(result) > 10
    for p in result:
        hops = p.route.hops
        assert hops[0].from_chain_id == "osmosis-1" and hops[-1].to_chain_id == "noble-1"
        assert hops[-1].denom == p.asset_on_dest.denom
        assert all(a.to_chain_id == b.from_chain_id for a, b in itertools.pairwise(hops))
        assert p.txs_required == sum(h.new_tx for h in hops)
        assert sum(h.kind != "IBC" for h in hops) <= 1  # at most one bridge operation
        merged = [h.operation for i, h in enumerate(hops) if i == 0 or h.operation != hops[i - 1].operation]
        assert tuple(merged) == p.bridges
        if p.asset_on_dest.trace:
            assert ar.ibc_denom(p.asset_on_dest.trace, p.asset_on_dest.origin_denom) == p.asset_on_dest.denom
            assert p.asset_on_dest.trace.count("/") == 1  # canonical: one hop from the origin


def test_ethereum_usdc_reaches_the_hub_over_axelar_in_one_tx(registry):
    result = registry.assets_between_chains("1", "cosmoshub-4", include_evm_assets=True,
                                            include_no_metadata_assets=True)
    pair = _pair(result, "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48",
                 "ibc/932D6003DA334ECBC5B23A071B4287D0A5CC97331197FE9F1C0689BA002A8421")
    assert (pair.txs_required, pair.bridges) == (1, ("AXELAR",))
    assert pair.asset_on_dest.origin_chain_id == "axelar-dojo-1"
    assert [h.operation for h in pair.route.hops] == ["AXELAR", "AXELAR"]


def test_cctp_links_family_members_directly(registry):
    result = registry.assets_from_source("uusdc", "noble-1", allow_multi_tx=True)
    arbitrum = result.dest_assets.get("42161", ())
    usdc = [a for a in arbitrum if a.denom.lower() == "0xaf88d065e77c8cc2239327c5edb3a432268e5831"]
    assert usdc, "Circle USDC on Arbitrum must be reachable from Noble"
    route = next(d.route for d in result if d.asset is usdc[0])
    assert [h.kind for h in route.hops] == ["CCTP"]


def test_evm_addresses_compare_case_insensitively(registry):
    lower = registry.assets_from_source("0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48", "1")
    upper = registry.assets_from_source("0xA0B86991C6218B36C1D19D4A2E9EB0CE3606EB48", "1")
    assert lower.to_api() == upper.to_api()
    assert lower.source.denom == "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"  # the registry's spelling


def test_from_source_errors(registry):
    with pytest.raises(ar.InvalidArgumentError) as err:
        registry.assets_from_source("unoexist", "axelar-dojo-1")
    assert err.value.to_api() == {"code": 3, "message": "Invalid source_asset_denom", "details": []}
    with pytest.raises(ar.InvalidArgumentError) as err:
        registry.assets_from_source("uatom", "nope-1")
    assert err.value.message == "Invalid source_asset_chain_id"


def test_from_source_excludes_itself_and_sorts_keys(registry):
    result = registry.assets_from_source("uatom", "cosmoshub-4")
    keys = list(result.to_api()["dest_assets"])
    assert keys == sorted(keys)
    assert all(not (d.asset.chain_id == "cosmoshub-4" and d.asset.denom == "uatom") for d in result)
    assert result.dest_assets["osmosis-1"][0].denom == ATOM_ON_OSMOSIS


def test_from_a_voucher_reaches_home_and_the_origins_neighbours(registry):
    result = registry.assets_from_source(ATOM_ON_OSMOSIS, "osmosis-1")
    assert [a.denom for a in result.dest_assets["cosmoshub-4"]] == ["uatom"]
    assert ATOM_ON_NEUTRON in [a.denom for a in result.dest_assets["neutron-1"]]


def test_recommendation_reasons(registry):
    base = registry.assets_from_source(ATOM_ON_OSMOSIS, "osmosis-1", recommendation_reason="BASE_TOKEN")
    assert {k: [a.denom for a in v] for k, v in base.dest_assets.items()} == {"cosmoshub-4": ["uatom"]}
    canonical = registry.assets_from_source("uatom", "cosmoshub-4")
    for reason in ("UNKNOWN", "MOST_LIQUID"):
        assert registry.assets_from_source("uatom", "cosmoshub-4", recommendation_reason=reason).to_api() == (
            canonical.to_api())
    direct = registry.assets_from_source(ATOM_ON_OSMOSIS, "osmosis-1", recommendation_reason="DIRECT",
                                         allow_multi_tx=True)
    # DIRECT picks the fewest transfers: from osmosis, one hop to any neighbour even if multi-hop.
    for _chain_id, assets in direct.dest_assets.items():
        assert len(assets) == 1
    multi_hop = [a for a in direct if a.asset.trace.count("/") >= 3]
    assert multi_hop, "DIRECT must be able to return a multi-hop voucher"
    assert all(len(d.route.hops) == 1 for d in multi_hop)


def test_native_only_and_cw20(registry):
    native = registry.assets_from_source(ATOM_ON_OSMOSIS, "osmosis-1", native_only=True)
    assert all(d.asset.trace == "" for d in native)
    assert "cosmoshub-4" in native.dest_assets


def test_group_by_recommended_symbol(registry):
    grouped = registry.assets_from_source("uusdc", "noble-1", group_by="recommended_symbol", allow_multi_tx=True)
    assert grouped.group_by == "recommended_symbol"
    assert "USDC" in grouped.dest_assets
    flat = registry.assets_from_source("uusdc", "noble-1", allow_multi_tx=True)
    assert len(grouped) == len(flat)


def test_swaps_add_tradable_assets_on_the_venue_chain(registry):
    plain = registry.assets_from_source("uatom", "cosmoshub-4")
    swaps = registry.assets_from_source("uatom", "cosmoshub-4", include_swaps=True,
                                        swap_venues=[{"name": "osmosis-poolmanager", "chain_id": "osmosis-1"}])
    assert len(swaps.dest_assets["osmosis-1"]) > len(plain.dest_assets["osmosis-1"])
    assert all(k in swaps.dest_assets for k in plain.dest_assets)
    extra = {a.denom for a in swaps.dest_assets["osmosis-1"]} - {a.denom for a in plain.dest_assets["osmosis-1"]}
    assert "uosmo" in extra
    for key in swaps.dest_assets:
        if key != "osmosis-1":
            assert swaps.dest_assets[key] == plain.dest_assets[key]


def test_results_are_json_with_no_nulls_and_reference_key_order(registry):
    import json

    body = json.loads(registry.assets_between_chains("cosmoshub-4", "osmosis-1").to_json())
    order = ["denom", "chain_id", "origin_denom", "origin_chain_id", "trace", "is_cw20", "is_evm", "is_svm", "symbol",
             "name", "logo_uri", "decimals", "token_contract", "description", "coingecko_id", "recommended_symbol"]
    for pair in body["assets_between_chains"]:
        assert list(pair) == ["asset_on_source", "asset_on_dest", "txs_required", "bridges"]
        for side in (pair["asset_on_source"], pair["asset_on_dest"]):
            keys = list(side)
            assert keys == [k for k in order if k in keys]
            assert None not in side.values()


def test_frames(registry):
    frame = registry.assets_between_chains("cosmoshub-4", "osmosis-1").to_frame()
    assert len(frame) == len(registry.assets_between_chains("cosmoshub-4", "osmosis-1"))
    assert {"source_denom", "dest_denom", "txs_required", "bridges", "path"} <= set(frame.columns)
    from_frame = registry.assets_from_source("uatom", "cosmoshub-4").to_frame()
    assert "osmosis-1" in set(from_frame["chain_id"])


def test_swap_results_are_marked(registry):
    swaps = registry.assets_from_source("uatom", "cosmoshub-4", include_swaps=True,
                                        swap_venues=[{"name": "osmosis-poolmanager", "chain_id": "osmosis-1"}])
    by_denom = {d.asset.denom: d for d in swaps if d.asset.chain_id == "osmosis-1"}
    assert not by_denom["ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2"].via_swap
    osmo = by_denom["uosmo"]
    assert osmo.via_swap and osmo.route.dest.chain_id == "osmosis-1"
    frame = swaps.to_frame()
    assert frame["via_swap"].sum() == sum(d.via_swap for d in swaps) > 0


@pytest.mark.parametrize(
    "body",
    [
        {"assets_between_chains": [{"asset_on_source": {}, "asset_on_dest": {}, "txs_required": "many"}]},
        {"assets_between_chains": [{"txs_required": 1, "bridges": 7}]},
        {"assets_between_chains": ["x"]},
        {"assets_between_chains": {}},
        [],
    ],
)
def test_from_api_rejects_malformed_bodies(body):
    with pytest.raises(ar.RemoteServiceError):
        ar.BetweenChainsResult.from_api(body)


def test_from_api_round_trips(registry):
    result = registry.assets_between_chains("cosmoshub-4", "osmosis-1", include_no_metadata_assets=True)
    again = ar.BetweenChainsResult.from_api(json.loads(result.to_json()))
    assert again.to_json() == result.to_json()
    reach = registry.assets_from_source("uatom", "cosmoshub-4")
    assert ar.FromSourceResult.from_api(json.loads(reach.to_json())).to_json() == reach.to_json()
