"""SPEC §3, reference bridge kinds: by default only routes over the kinds the reference API names; routes
over the registry's other bridges (Gravity Bridge/PEGGY, Wormhole, PolyNetwork, …) only with the extension
``include_other_bridges``, in every interface alike (issue 10). On the real snapshot.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import httpx
import pytest

import assetroute_core as ar
from assetroute_core import REFERENCE_BRIDGE_KINDS, Registry
from assetroute_core._cli import main
from assetroute_core._openapi import OPENAPI
from assetroute_core.client import AssetRouteClient

# Chains where the registry's other bridges land (by the links it names), and two hubs.
CHAINS = ("1", "gravity-bridge-3", "osmosis-1", "injective-1", "cosmoshub-4")
EVERY = {"include_no_metadata_assets": True, "include_cw20_assets": True, "include_evm_assets": True,
         "allow_multi_tx": True}


def other_kinds(registry: Registry) -> set[str]:
    return {link.kind for link in registry.bridge_links()} - REFERENCE_BRIDGE_KINDS


def pairs(registry: Registry, **flags: bool) -> Iterator[tuple[tuple[str, str, str, str], ar.AssetPair]]:
    for a, b in itertools.permutations(CHAINS, 2):
        for p in registry.assets_between_chains(a, b, **EVERY, **flags):
            yield (a, p.asset_on_source.denom, b, p.asset_on_dest.denom), p


def test_the_registry_has_bridges_outside_the_reference(registry: Registry) -> None:
    assert {"PEGGY", "GRAVITY_BRIDGE", "WORMHOLE", "POLYNETWORK"} <= other_kinds(registry)
    assert {"IBC", "AXELAR", "CCTP", "EUREKA"} <= REFERENCE_BRIDGE_KINDS and "PEGGY" not in REFERENCE_BRIDGE_KINDS


def test_default_answers_use_only_the_reference_kinds_and_the_extension_adds_routes(registry: Registry) -> None:
    default = dict(pairs(registry))
    extended = dict(pairs(registry, include_other_bridges=True))
    assert all(set(p.bridges) <= REFERENCE_BRIDGE_KINDS for p in default.values())
    assert any(set(p.bridges) - REFERENCE_BRIDGE_KINDS for p in extended.values())
    # more bridges never lose a pair and never need more transactions
    assert default.keys() <= extended.keys()
    assert all(extended[k].txs_required <= p.txs_required for k, p in default.items())
    only_other = [p for k, p in extended.items() if k not in default]
    assert only_other and all(set(p.bridges) - REFERENCE_BRIDGE_KINDS for p in only_other)


def test_from_source_follows_the_same_rule(registry: Registry) -> None:
    for chain in ("1", "gravity-bridge-3"):
        for asset in registry.assets(chain)[:40]:
            default = registry.assets_from_source(asset.denom, chain, allow_multi_tx=True)
            extended = registry.assets_from_source(asset.denom, chain, allow_multi_tx=True, include_other_bridges=True)
            assert all(set(d.route.bridges) <= REFERENCE_BRIDGE_KINDS for d in default if d.route is not None)
            assert {(d.asset.chain_id, d.asset.denom) for d in default} <= {
                (d.asset.chain_id, d.asset.denom) for d in extended}


def test_what_if_scenarios_keep_both_worlds(registry: Registry) -> None:
    off = registry.with_changes(pfm={"cosmoshub-4": False})
    default = {k for k, _ in pairs(off)}
    extended = {k for k, p in pairs(off, include_other_bridges=True)}
    assert default < extended
    assert off.engine.bridge_kinds == REFERENCE_BRIDGE_KINDS
    assert off.engine_for(include_other_bridges=True).bridge_kinds is None


def test_every_interface_takes_the_extension(registry: Registry, live_server: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    body = {"source_chain_id": "1", "dest_chain_id": "gravity-bridge-3", **EVERY}
    plain = httpx.post(live_server + "/v2/fungible/assets_between_chains", json=body).json()
    extended = httpx.post(live_server + "/v2/fungible/assets_between_chains",
                          json={**body, "includeOtherBridges": True}).json()  # camelCase too
    kinds = {k for p in extended["assets_between_chains"] for k in p["bridges"]}
    assert kinds - REFERENCE_BRIDGE_KINDS
    assert all(set(p["bridges"]) <= REFERENCE_BRIDGE_KINDS for p in plain["assets_between_chains"])
    expected = registry.assets_between_chains("1", "gravity-bridge-3", **EVERY, include_other_bridges=True)
    assert extended == expected.to_api()
    with AssetRouteClient(live_server) as client:
        assert client.assets_between_chains("1", "gravity-bridge-3", **EVERY,
                                            include_other_bridges=True).to_api() == extended
    assert main(["between", "1", "gravity-bridge-3", "--include-no-metadata-assets", "--include-cw20-assets",
                 "--include-evm-assets", "--allow-multi-tx", "--include-other-bridges", "--json",
                 "--base-url", live_server]) == 0
    assert capsys.readouterr().out.encode() == expected.to_json()


def test_openapi_marks_the_extension() -> None:
    schemas = OPENAPI["components"]["schemas"]
    between = schemas["AssetsBetweenChainsRequest"]["properties"]
    assert between["include_other_bridges"]["x-assetroute-extension"] is True
    assert "x-assetroute-extension" not in between["allow_multi_tx"]
    assert schemas["AssetsFromSourceRequest"]["properties"]["include_other_bridges"]["x-assetroute-extension"] is True


def test_the_every_kind_engine_shares_the_indexes_and_answers_as_a_separate_one(registry: Registry) -> None:
    """A registry's second engine (``Engine.with_bridge_kinds``) shares the first's permanent indexes,
    never its links, memo tables or answers, and answers exactly as an engine built on its own."""
    from assetroute_core._lookups import assets_between_chains
    from assetroute_core._routing import Engine

    first = registry.engine_for(include_other_bridges=False)
    every = registry.engine_for(include_other_bridges=True)
    alone = Engine(every.data, every.overlay)
    assert first.bridge_kinds == REFERENCE_BRIDGE_KINDS and every.bridge_kinds is None
    assert every.listed_instances is first.listed_instances and every._canonical is first._canonical
    for own in ("_links", "_families", "_family_of", "_link_keys", "_gen", "results", "_lock"):
        assert getattr(every, own) is not getattr(first, own), own
    assert every._links.keys() > first._links.keys()  # the other kinds' links are its own
    assert (every._links, every._families, every._link_keys) == (alone._links, alone._families, alone._link_keys)
    flags = ar.BetweenChainsOptions(**EVERY, include_svm_assets=True, include_other_bridges=True)
    for a, b in itertools.permutations(CHAINS, 2):
        shared = assets_between_chains(every, a, b, flags)
        separate = assets_between_chains(alone, a, b, flags)
        assert shared.to_json() == separate.to_json(), (a, b)
