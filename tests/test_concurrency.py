"""One registry shared by 16 threads gives exactly the answers a single caller gets.

A fresh registry (nothing memoised yet, so the threads race to fill every cache of the engine)
answers a shuffled mix of both lookups from 16 threads at once; every ``to_json()`` must equal
the serial answer computed on a second, separately loaded registry. The engine relies on
asset instances being interned (one object per (chain, denom): ``_Unwind.index`` compares by
identity), so every thread must also be handed the very same object for the same instance.
"""

from __future__ import annotations

import itertools
import random
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import assetroute_core as ar

THREADS = 16
ATOM_ON_OSMOSIS = "ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2"
OSMO_ON_HUB = "ibc/14F9BC3E44B8A9C1BE1FB08980FAB87034C9905EF17CF2F5008FC085218811CC"
ETH_USDC = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"
BETWEEN_FLAGS = ("include_no_metadata_assets", "include_cw20_assets", "include_evm_assets", "allow_multi_tx")

# Chain pairs over Cosmos hubs, CW20 chains (juno, terra2), EVM chains (ethereum, arbitrum), bridges.
PAIRS = [
    ("cosmoshub-4", "osmosis-1"), ("osmosis-1", "cosmoshub-4"), ("osmosis-1", "neutron-1"),
    ("neutron-1", "noble-1"), ("noble-1", "osmosis-1"), ("1", "cosmoshub-4"), ("1", "noble-1"),
    ("42161", "osmosis-1"), ("axelar-dojo-1", "1"), ("juno-1", "osmosis-1"), ("phoenix-1", "osmosis-1"),
    ("stride-1", "cosmoshub-4"), ("injective-1", "1"), ("celestia", "osmosis-1"), ("akashnet-2", "juno-1"),
    ("noble-1", "42161"),
]
TERRA_CW20 = "cw20:terra10aa3zdkrc7jwuf8ekl3zq7e7m42vmzqehcmu74e4egc7xkm5kr2s0muyst"
OSMOSIS_VENUE = [{"name": "osmosis-poolmanager", "chain_id": "osmosis-1"}]
# assets_from_source: natives, listed and derived vouchers, CW20, EVM (either case), bridged USDC;
# every option, each value at least once.
FROM_QUERIES: list[tuple[tuple[str, str], dict[str, Any]]] = [
    (("uatom", "cosmoshub-4"), {}),
    (("uatom", "cosmoshub-4"), {"recommendation_reason": "DIRECT", "allow_multi_tx": True}),
    (("uosmo", "osmosis-1"), {"allow_multi_tx": True}),
    (("uosmo", "osmosis-1"), {"include_swaps": True, "swap_venues": OSMOSIS_VENUE}),
    ((ATOM_ON_OSMOSIS, "osmosis-1"), {"recommendation_reason": "BASE_TOKEN"}),
    ((ATOM_ON_OSMOSIS, "osmosis-1"), {"native_only": True, "allow_multi_tx": True}),
    ((OSMO_ON_HUB, "cosmoshub-4"), {"recommendation_reason": "UNKNOWN"}),
    ((OSMO_ON_HUB, "cosmoshub-4"), {"recommendation_reason": "DIRECT", "allow_multi_tx": True}),
    (("uusdc", "noble-1"), {"allow_multi_tx": True, "group_by": "recommended_symbol"}),
    (("uusdc", "noble-1"), {"recommendation_reason": "MOST_LIQUID"}),
    (("uusdc", "axelar-dojo-1"), {"allow_multi_tx": True, "group_by": "chain_id"}),
    (("uusdc", "axelar-dojo-1"), {"recommendation_reason": "MOST_LIQUID", "include_cw20_assets": True}),
    ((ETH_USDC, "1"), {"allow_multi_tx": True}),
    ((ETH_USDC.lower(), "1"), {"include_swaps": True, "allow_multi_tx": True}),
    (("utia", "celestia"), {"include_swaps": True, "swap_venues": [], "native_only": True}),
    ((TERRA_CW20, "phoenix-1"), {"include_cw20_assets": True, "allow_multi_tx": True}),
    ((TERRA_CW20, "phoenix-1"), {"include_cw20_assets": True, "recommendation_reason": "DIRECT"}),
    (("untrn", "neutron-1"), {"include_cw20_assets": True, "include_swaps": True, "allow_multi_tx": True}),
    (("stuatom", "stride-1"), {"allow_multi_tx": True}),
    (("stuatom", "stride-1"), {"recommendation_reason": "DIRECT", "group_by": "recommended_symbol"}),
]
SOURCES = sorted({source for source, _ in FROM_QUERIES})

Query = tuple[str, tuple[Any, ...], dict[str, Any]]


def queries() -> list[Query]:
    """About 50 lookups: every pair with flags cycling through all 16 combinations, sources × options."""
    out: list[Query] = []
    combos = list(itertools.product((False, True), repeat=len(BETWEEN_FLAGS)))
    for i, pair in enumerate(PAIRS):
        for flags in (combos[i % 16], combos[15 - i % 16]):  # a combination and its complement: all 16 occur
            out.append(("between", pair, dict(zip(BETWEEN_FLAGS, flags, strict=True))))
    out += [("from", source, options) for source, options in FROM_QUERIES]
    # Errors must come back the same too.
    out += [("between", ("osmosis-1", "osmosis-1"), {}), ("between", ("nope-1", "osmosis-1"), {}),
            ("from", ("unoexist", "osmosis-1"), {}), ("from", ("uatom", "cosmoshub-4"), {"group_by": "origin"})]
    return out


def ask(reg: ar.Registry, query: Query) -> tuple[bytes, list[ar.Asset]]:
    """The JSON body (or the error) of a query, and every asset object the answer holds."""
    kind, args, options = query
    try:
        if kind == "between":
            result: Any = reg.assets_between_chains(*args, **options)
            assets = [a for p in result.pairs for a in (p.asset_on_source, p.asset_on_dest)]
        else:
            result = reg.assets_from_source(*args, **options)
            assets = [result.source, *(d.asset for d in result)]
    except ar.AssetRouteError as exc:
        return f"{type(exc).__name__}: {exc}".encode(), []
    return result.to_json(), assets


def test_the_query_mix_covers_every_flag_and_option() -> None:
    qs = queries()
    assert 45 <= len(qs) <= 60
    between = {tuple(sorted(o.items())) for k, _, o in qs if k == "between"}
    for flag in BETWEEN_FLAGS:
        assert {dict(o).get(flag, False) for o in between} == {False, True}, flag
    assert len(between) >= 16
    options = [o for k, _, o in qs if k == "from"]
    assert {o.get("recommendation_reason") for o in options} >= {None, "UNKNOWN", "MOST_LIQUID", "BASE_TOKEN", "DIRECT"}
    for key in ("allow_multi_tx", "native_only", "include_swaps", "include_cw20_assets", "group_by", "swap_venues"):
        assert any(key in o for o in options), key


def _run_threads(worker: Callable[[int], Any]) -> list[Any]:
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-4)  # switch threads often: more interleavings inside the engine's caches
    try:
        with ThreadPoolExecutor(max_workers=THREADS) as pool:
            futures = [pool.submit(worker, i) for i in range(THREADS)]
            return [f.result(timeout=120) for f in futures]
    finally:
        sys.setswitchinterval(old)


def test_sixteen_threads_get_the_serial_answers_and_the_same_interned_assets(registry_path: Path) -> None:
    shared = ar.load_registry(registry_path)  # fresh: nothing memoised yet; the threads race to fill it
    serial_registry = ar.load_registry(registry_path)  # a second, separate registry for the expected answers
    qs = queries()
    expected = [ask(serial_registry, q)[0] for q in qs]
    assert sum(not body.startswith(b"{") for body in expected) == 4  # only the four error queries
    assert sum(len(body) > 100 for body in expected) >= 40  # real answers; a few are empty (EVM without the flag)

    start = threading.Barrier(THREADS)

    def worker(seed: int) -> tuple[list[tuple[int, bytes]], dict[tuple[str, str], Any]]:
        order = list(range(len(qs)))
        random.Random(seed).shuffle(order)
        start.wait(timeout=60)
        bodies = []
        seen: dict[tuple[str, str], Any] = {}
        for i in order:
            body, assets = ask(shared, qs[i])
            bodies.append((i, body))
            for asset in assets:
                first = seen.setdefault(asset.key, asset)
                assert first is asset, f"two objects for {asset.key} in one thread"
            for source in SOURCES:  # direct lookups, interleaved with the queries
                found = shared.find_asset(source[1], source[0])
                if found is not None:
                    assert seen.setdefault(found.key, found) is found
        return bodies, seen

    results = _run_threads(worker)

    for bodies, _ in results:
        assert len(bodies) == len(qs)
        for i, body in bodies:
            assert body == expected[i], f"query {qs[i]} differs under concurrency"
    # Interning: each instance is one object, whichever thread created it first.
    reference: dict[tuple[str, str], Any] = {}
    for _, seen in results:
        for key, asset in seen.items():
            assert reference.setdefault(key, asset) is asset, f"{key} is not interned across threads"
    assert len(reference) > 1000
    for key, asset in reference.items():
        chain = shared.engine.chains[key[0]]
        if shared.engine.data.chain_ids.get(chain.chain_id) == key[0]:
            assert shared.find_asset(chain.chain_id, key[1]) in (asset, None)


@pytest.mark.parametrize("query", [("from", ("uatom", "cosmoshub-4"), {"recommendation_reason": "DIRECT"}),
                                   ("between", ("osmosis-1", "neutron-1"), {"include_no_metadata_assets": True})],
                         ids=["from-source", "between"])
def test_one_cold_query_raced_by_sixteen_threads(registry_path: Path, query: Query) -> None:
    """All threads ask the same question at the same moment of a cold registry: one answer, one set of objects."""
    shared = ar.load_registry(registry_path)
    expected, _ = ask(ar.load_registry(registry_path), query)
    start = threading.Barrier(THREADS)

    def worker(_: int) -> tuple[bytes, list[ar.Asset]]:
        start.wait(timeout=60)
        return ask(shared, query)

    results = _run_threads(worker)
    assert all(body == expected for body, _ in results)
    first = results[0][1]
    assert first
    for _, assets in results[1:]:
        assert len(assets) == len(first) and all(a is b for a, b in zip(assets, first, strict=True))
