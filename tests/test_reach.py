"""Which held instances reach a destination: the three ways the engine answers it agree (issue 12).

``assets_between_chains`` no longer builds, for the first destination asked of a chain, the table of
every destination its held instances reach: it tests each instance for that one destination
(``reaches``), builds the table on the second destination (``_reach_table``), and with default flags
only ever looks at listed instances (``held_listed``). All of them must say exactly what
``reachable_chains`` (the definition) says, for every held instance of every routable chain, in both
engines (the reference's bridge kinds, and every kind). The results cache admits an answer on its
second computation, so a sweep's one-off answers are never held.
"""

from __future__ import annotations

from pathlib import Path

import assetroute_core as ar
from assetroute_core._routing import _LRU


def test_reach_tests_and_tables_agree_with_reachable_chains(registry: ar.Registry) -> None:
    for engine in (registry.engine_for(include_other_bridges=False), registry.engine_for(include_other_bridges=True)):
        router = engine.router()
        chains = sorted(engine.routable)
        probes = chains[::7]  # 34 destinations tested per instance; the tables cover all of them
        bad: list[str] = []
        checked = 0
        for chain in chains:
            expect: dict[str, list[ar.Asset]] = {}
            for asset in router.held(chain):
                reachable = router.reachable_chains(asset)
                for target in reachable:
                    expect.setdefault(target, []).append(asset)
                for dest in probes:
                    checked += 1
                    if router.reaches(asset, dest) != (dest in reachable):
                        bad.append(f"reaches({asset.chain_name}:{asset.denom}, {dest})")
            table = router._reach_table(chain, False)
            if {k: list(v) for k, v in table.items()} != expect:
                bad.append(f"table of {chain}")
            listed = router._reach_table(chain, True)
            want = {k: [a for a in v if a.metadata is not None] for k, v in expect.items()}
            if {k: list(v) for k, v in listed.items()} != {k: v for k, v in want.items() if v}:
                bad.append(f"listed table of {chain}")
            if list(router.held_listed(chain)) != [a for a in router.held(chain) if a.metadata is not None]:
                bad.append(f"held_listed of {chain}")
        assert checked > 100_000
        assert not bad, bad[:20]


def test_first_destination_and_table_give_the_same_answers(registry_path: Path) -> None:
    """A fresh registry answers its first destination of a chain by the per-destination test and later
    ones from the table; each answer equals the one a registry that built the table first gives."""
    flags = {"include_no_metadata_assets": True, "include_cw20_assets": True, "include_evm_assets": True,
             "allow_multi_tx": True, "include_svm_assets": True}
    pairs = [("osmosis-1", "cosmoshub-4"), ("osmosis-1", "noble-1"), ("cosmoshub-4", "osmosis-1"),
             ("noble-1", "solana"), ("neutron-1", "osmosis-1")]
    for kw in ({}, flags):
        fresh = ar.load_registry(registry_path)
        warmed = ar.load_registry(registry_path)
        for source, _ in pairs:  # make the warmed registry build every table first
            for dest in ("agoric-3", "juno-1"):
                warmed.assets_between_chains(source, dest, **kw)
        for source, dest in pairs:
            assert fresh.assets_between_chains(source, dest, **kw).to_json() == \
                warmed.assets_between_chains(source, dest, **kw).to_json(), (source, dest, kw)


def test_the_results_cache_admits_an_answer_on_its_second_computation() -> None:
    cache = _LRU(100, max_seen=2)
    cache.put("a", (1, 2))
    assert cache.get("a") is None and cache.weight == 0  # a one-off (a sweep's pair) is not held
    cache.put("a", (1, 2))
    assert cache.get("a") == (1, 2) and cache.weight == 3
    for key in ("b", "c", "d"):  # remembered keys are bounded: "b" is forgotten
        cache.put(key, (0,))
    cache.put("b", (0,))
    assert cache.get("b") is None
    cache.put("d", (0,))
    assert cache.get("d") == (0,)


def test_a_sweep_holds_no_answers(registry_path: Path) -> None:
    fresh = ar.load_registry(registry_path)
    engine = fresh.engine_for(include_other_bridges=False)
    ids = [c.chain_id for c in fresh.chains()][:12]
    for a in ids:
        for b in ids:
            if a != b:
                fresh.assets_between_chains(a, b)
    assert engine.results.weight == 0
    again = fresh.assets_between_chains(ids[0], ids[1])
    assert engine.results.weight == len(again) + 1
    assert fresh.assets_between_chains(ids[0], ids[1]).pairs is again.pairs  # now served from the cache
