"""Public values are truly immutable, and carry data rather than the engine.

One loaded registry is shared by every session and thread, so nothing it hands out may change
after it is built: no mutable container in a field, no cache filled in later, no reference back to
the engine that made it.
"""

from __future__ import annotations

import ast
import dataclasses
import gc
import tracemalloc
from pathlib import Path

import orjson
import pytest

from assetroute_core import Asset, Registry, Route
from assetroute_core._routing import Engine, HopRules

REPO = Path(__file__).resolve().parents[1]
ATOM_ON_OSMOSIS = "ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2"


def _no_mutable_fields(value: object) -> None:
    for f in dataclasses.fields(value):  # type: ignore[arg-type]
        held = getattr(value, f.name)
        assert not isinstance(held, (dict, list, set, bytearray)), f"{type(value).__name__}.{f.name}"


def test_an_asset_built_directly_serialises_like_the_engines(registry: Registry) -> None:
    listed = registry.find_asset("osmosis-1", ATOM_ON_OSMOSIS)
    assert listed is not None and listed.metadata is not None
    copy = Asset(**{f.name: getattr(listed, f.name) for f in dataclasses.fields(Asset) if f.init})
    assert copy == listed and copy.to_api() == listed.to_api() and copy.to_json() == listed.to_json()
    assert copy.to_api()["symbol"] == listed.metadata.symbol
    renamed = dataclasses.replace(listed, denom="ibc/OTHER")
    assert renamed.to_api()["denom"] == "ibc/OTHER" and b'"ibc/OTHER"' in renamed.to_json()
    assert listed.to_api()["denom"] == ATOM_ON_OSMOSIS  # the original is untouched


def test_to_api_gives_fresh_dicts(registry: Registry) -> None:
    asset = registry.find_asset("osmosis-1", ATOM_ON_OSMOSIS)
    assert asset is not None
    first = asset.to_api()
    first["denom"] = "changed"
    assert asset.to_api()["denom"] == ATOM_ON_OSMOSIS
    result = registry.assets_between_chains("osmosis-1", "cosmoshub-4")
    body = result.to_api()
    body["assets_between_chains"][0]["asset_on_source"]["denom"] = "changed"
    assert result.to_api() != body and b'"changed"' not in result.to_json()


def test_values_have_no_mutable_fields_and_frozen_setters(registry: Registry) -> None:
    result = registry.assets_between_chains("osmosis-1", "cosmoshub-4", allow_multi_tx=True)
    pair = next(p for p in result if p.route is not None and len(p.route.hops) > 1)
    assert pair.route is not None
    for value in (pair, pair.asset_on_source, pair.asset_on_dest, pair.route, *pair.route.hops, result):
        _no_mutable_fields(value)
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, dataclasses.fields(value)[0].name, None)


def test_a_route_keeps_rules_not_the_engine(registry: Registry) -> None:
    result = registry.assets_between_chains("osmosis-1", "cosmoshub-4", allow_multi_tx=True)
    routes = [p.route for p in result if p.route is not None]
    assert routes
    for route in routes:
        assert isinstance(route, Route) and isinstance(route.rules, HopRules)
        assert not any(isinstance(r, Engine) for r in gc.get_referents(route))
        assert not any(isinstance(r, Engine) for r in gc.get_referents(route.rules))
        hops = route.hops
        assert hops[0].from_chain_id == "osmosis-1" and hops[-1].to_chain_id == "cosmoshub-4"
        assert sum(h.new_tx for h in hops) == route.txs_required
    with pytest.raises(TypeError):
        route.rules.chain_ids["osmosis"] = "x"  # type: ignore[index]  # a read-only view


def test_registry_reads_no_private_table_of_the_engine() -> None:
    tree = ast.parse((REPO / "assetroute_core" / "_registry.py").read_text())
    private = [node.attr for node in ast.walk(tree)
               if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
               and isinstance(node.value, (ast.Name, ast.Attribute))
               and (getattr(node.value, "id", None) == "engine" or getattr(node.value, "attr", None) == "_engine")]
    assert private == []


def test_the_cached_json_of_an_asset_is_compact() -> None:
    """The JSON an Asset keeps is a compact copy: orjson's own bytes keep a ~4 KiB buffer each, which
    doubled the memory of a registry sweep (found by benchmarks/bench.py, fixed in _models.Asset)."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        assets = [Asset(chain_name="c", chain_id="c-1", denom=f"u{i}", origin_chain_name="c", origin_chain_id="c-1",
                        origin_denom=f"u{i}", trace="", is_cw20=False, is_evm=False) for i in range(2000)]
        per_asset = (tracemalloc.get_traced_memory()[0] - before) / len(assets)
    finally:
        tracemalloc.stop()
    assert per_asset < 1024, f"{per_asset:.0f} bytes per asset"
    assert all(a.to_json() == orjson.dumps(a.to_api()) for a in assets[:10])


def test_the_engines_fast_constructors_build_the_same_frozen_values(registry: Registry) -> None:
    """``new_route``, ``new_pair`` and ``new_unlisted_asset`` set slots directly (a sweep builds
    millions); they must give exactly what the dataclass constructors give, field by field, and stay
    frozen."""
    from assetroute_core._models import new_route
    from assetroute_core._results import AssetPair, new_pair

    names = [f.name for f in dataclasses.fields(Route)]
    values = [object() for _ in names]
    fast, slow = new_route(*values), Route(*values)  # type: ignore[arg-type]
    assert [getattr(fast, n) for n in names] == [getattr(slow, n) for n in names] == values
    result = registry.assets_between_chains("osmosis-1", "cosmoshub-4", allow_multi_tx=True,
                                            include_no_metadata_assets=True)
    for pair in result.pairs[:50]:
        assert pair.route is not None
        assert pair == AssetPair(pair.route.source, pair.route.dest, pair.route.txs_required, pair.route.bridges,
                                 pair.route) == new_pair(pair.route)
    from assetroute_core._models import new_unlisted_asset

    derived = [p.asset_on_source for p in result.pairs if p.asset_on_source.metadata is None][:50]
    assert derived
    for asset in derived:
        kw = {f.name: getattr(asset, f.name) for f in dataclasses.fields(Asset) if f.init}
        assert kw.pop("metadata") is None and kw.pop("wire") is None
        built = new_unlisted_asset(**kw)
        assert built == asset == Asset(**kw) and built.to_json() == asset.to_json() == Asset(**kw).to_json()
    for value in (fast, new_pair(result.pairs[0].route), derived[0]):  # type: ignore[arg-type]
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, dataclasses.fields(value)[0].name, 9)  # type: ignore[arg-type]
