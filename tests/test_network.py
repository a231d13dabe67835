"""Tests of :mod:`assetroute_core.network` over the real registry snapshot.

The snapshot comes from ``$ASSETROUTE_REGISTRY`` or ``../shared/chain-registry`` next to the
repository; a missing snapshot fails the tests (it is never skipped). Expected values are
recomputed here from the public registry API (channels, bridge links, lookups), not copied
from the module under test.
"""

from __future__ import annotations

import math
import os
from collections import Counter
from pathlib import Path

import networkx as nx
import pytest

import assetroute_core as ar
from assetroute_core.network import (
    ChainEdge,
    ChainGraph,
    ChainNode,
    chain_graph,
    movable_matrix,
    top_chains,
    txs_distribution,
)

REPO = Path(__file__).resolve().parents[1]


def snapshot_path() -> Path:
    value = os.environ.get("ASSETROUTE_REGISTRY", "").strip()
    return Path(value) if value else REPO.parent / "shared" / "chain-registry"


@pytest.fixture(scope="module")
def registry() -> ar.Registry:
    path = snapshot_path()
    if not (path / "_IBC").is_dir():
        pytest.fail(f"registry snapshot not found at {path} (set ASSETROUTE_REGISTRY)")
    return ar.load_registry(path)


@pytest.fixture(scope="module")
def graph(registry: ar.Registry) -> ChainGraph:
    return chain_graph(registry)


def neighbours(g: ChainGraph) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {n.chain_id: set() for n in g.nodes}
    for e in g.edges:
        out[e.source].add(e.target)
        out[e.target].add(e.source)
    return out


def assert_consistent(g: ChainGraph) -> None:
    ids = [n.chain_id for n in g.nodes]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    for e in g.edges:
        assert e.source in ids and e.target in ids and e.source < e.target
    adj = neighbours(g)
    for n in g.nodes:
        assert n.degree == len(adj[n.chain_id]), n.chain_id


# -- the graph ------------------------------------------------------------------------------


def test_cosmoshub_osmosis_channel(graph: ChainGraph) -> None:
    edges = [e for e in graph.edges if (e.source, e.target) == ("cosmoshub-4", "osmosis-1") and e.is_ibc]
    assert len(edges) == 1
    e = edges[0]
    assert (e.channel_source, e.channel_target) == ("channel-141", "channel-0")
    assert (e.port_source, e.port_target) == ("transfer", "transfer")
    assert e.status == "ACTIVE" and e.preferred is True and e.canonical is True
    assert e.key == "IBC:channel-141/channel-0"


def test_nodes_are_the_routable_chains(registry: ar.Registry, graph: ChainGraph) -> None:
    chains = registry.chains()
    assert [n.chain_id for n in graph.nodes] == [c.chain_id for c in chains]
    by_id = {c.chain_id: c for c in chains}
    for n in graph.nodes:
        c = by_id[n.chain_id]
        assert (n.chain_name, n.pretty_name, n.chain_type, n.pfm_enabled, n.logo_uri) == (
            c.chain_name, c.pretty_name, c.chain_type, c.pfm_enabled, c.logo_uri)
    assert {n.chain_type for n in graph.nodes} == {"cosmos", "evm", "svm"}
    assert graph.node("1").chain_name == "ethereum"
    assert "bitcoin" not in {n.chain_name for n in graph.nodes}
    # killed chains are not nodes, so their channels are not edges
    killed = {c.chain_name for c in registry.chains(routable_only=False) if c.status == "killed"}
    assert killed and not killed & {n.chain_name for n in graph.nodes}


def test_degrees_consistent_with_edges(graph: ChainGraph) -> None:
    assert_consistent(graph)
    simple = graph.to_networkx(multigraph=False)
    assert dict(simple.degree()) == {n.chain_id: n.degree for n in graph.nodes}
    isolated = [n for n in graph.nodes if n.degree == 0]
    assert 40 < len(isolated) < len(graph.nodes) // 2  # 53 live cosmos chains have no _IBC file


def test_ibc_edges_are_the_usable_transfer_channels(registry: ar.Registry, graph: ChainGraph) -> None:
    names = {c.chain_name: c.chain_id for c in registry.chains()}

    def ics20(p1: str, p2: str) -> bool:
        return (p1, p2) == ("transfer", "transfer") or sorted((p1.split(".")[0], p2.split(".")[0])) == [
            "transfer", "wasm"]

    expected = Counter()
    for ch in registry.channels():
        if ch.chain_1 in names and ch.chain_2 in names and ics20(ch.port_1, ch.port_2) and ch.usable:
            a, b = names[ch.chain_1], names[ch.chain_2]
            ends = {a: ch.channel_1, b: ch.channel_2}
            lo, hi = sorted((a, b))
            expected[(lo, hi, ends[lo], ends[hi], ch.status)] += 1
    got = Counter((e.source, e.target, e.channel_source, e.channel_target, e.status)
                  for e in graph.edges if e.is_ibc)
    assert got == expected
    assert len(got) > 600
    assert all(e.status not in ("INACTIVE", "CLOSED") for e in graph.edges)


def test_canonical_channel_follows_the_spec_rule(graph: ChainGraph) -> None:
    """Exactly one canonical transfer channel per chain pair: preferred, then ACTIVE, then lowest number."""
    groups: dict[tuple[str, str], list[ChainEdge]] = {}
    for e in graph.edges:
        if e.is_ibc and (e.port_source, e.port_target) == ("transfer", "transfer"):
            groups.setdefault((e.source, e.target), []).append(e)

    def rank(e: ChainEdge) -> tuple[int, int, int]:
        assert e.channel_source is not None
        return (0 if e.preferred else 1, 0 if e.status == "ACTIVE" else 1, int(e.channel_source.split("-")[1]))

    multi = 0
    for pair, edges in groups.items():
        canonical = [e for e in edges if e.canonical]
        assert len(canonical) == 1, pair
        assert canonical[0] == min(edges, key=rank), pair
        multi += len(edges) > 1
    assert multi >= 1  # cosmoshub-sentinel has two transfer channels


def test_canonical_channel_is_what_routing_uses(registry: ar.Registry, graph: ChainGraph) -> None:
    """ATOM arrives on every IBC neighbour of the Hub over the canonical channel's far end."""
    dest = registry.assets_from_source("uatom", "cosmoshub-4").dest_assets
    checked = 0
    for e in graph.edges_of("cosmoshub-4"):
        if not (e.is_ibc and e.canonical and e.port_source == e.port_target == "transfer"):
            continue
        other, far = (e.target, e.channel_target) if e.source == "cosmoshub-4" else (e.source, e.channel_source)
        traces = {a.trace for a in dest.get(other, ()) if a.origin_denom == "uatom"}
        assert f"transfer/{far}" in traces, other
        checked += 1
    assert checked > 50


def test_include_inactive(registry: ar.Registry, graph: ChainGraph) -> None:
    everything = chain_graph(registry, include_inactive=True)
    extra = Counter(everything.edges) - Counter(graph.edges)
    assert extra and all(e.status == "INACTIVE" and not e.canonical for e in extra)
    assert not Counter(graph.edges) - Counter(everything.edges)
    names = {c.chain_name for c in registry.chains()}
    inactive = [ch for ch in registry.channels() if ch.status == "INACTIVE" and ch.chain_1 in names
                and ch.chain_2 in names and "transfer" in (ch.port_1, ch.port_2)]
    assert sum(extra.values()) == len(inactive)
    assert_consistent(everything)


def test_bridge_edges_aggregate_bridge_links(registry: ar.Registry, graph: ChainGraph) -> None:
    names = {c.chain_name: c.chain_id for c in registry.chains()}
    expected: Counter[tuple[str, str, str]] = Counter()
    for link in registry.bridge_links():
        a, b = names.get(link.a[0]), names.get(link.b[0])
        if a is not None and b is not None and a != b:
            lo, hi = sorted((a, b))
            expected[(lo, hi, link.kind)] += 1
    bridges = {(e.source, e.target, e.kind): e for e in graph.edges if not e.is_ibc}
    assert {k: e.asset_links for k, e in bridges.items()} == dict(expected)
    for e in bridges.values():
        assert (e.channel_source, e.channel_target, e.status, e.preferred, e.canonical) == (
            None, None, None, None, False)
    assert ("1", "axelar-dojo-1", "AXELAR") in bridges
    assert ("1", "noble-1", "CCTP") in bridges  # Circle's family: ethereum USDC <-> noble USDC
    assert ("1", "cosmoshub-4", "EUREKA") in bridges
    ibc_only = chain_graph(registry, include_bridges=False)
    assert ibc_only.edges == tuple(e for e in graph.edges if e.is_ibc)
    assert_consistent(ibc_only)


# -- slices ---------------------------------------------------------------------------------


def test_neighbourhood(graph: ChainGraph) -> None:
    adj = neighbours(graph)
    assert [n.chain_id for n in graph.neighbourhood("cosmoshub-4", depth=0).nodes] == ["cosmoshub-4"]
    one = graph.neighbourhood("cosmoshub-4")
    assert {n.chain_id for n in one.nodes} == adj["cosmoshub-4"] | {"cosmoshub-4"}
    inside = {n.chain_id for n in one.nodes}
    assert one.edges == tuple(e for e in graph.edges if e.source in inside and e.target in inside)
    assert one.node("cosmoshub-4").degree == graph.node("cosmoshub-4").degree
    assert_consistent(one)
    two = graph.neighbourhood("cosmoshub-4", depth=2)
    expected = set(inside)
    for c in inside:
        expected |= adj[c]
    assert {n.chain_id for n in two.nodes} == expected
    lonely = next(n.chain_id for n in graph.nodes if n.degree == 0)
    assert len(graph.neighbourhood(lonely, depth=3)) == 1
    with pytest.raises(ar.NotFoundError):
        graph.neighbourhood("no-such-chain-1")
    with pytest.raises(ValueError):
        graph.neighbourhood("cosmoshub-4", depth=-1)


def test_filter(graph: ChainGraph) -> None:
    evm = graph.filter(chain_types={"evm"})
    assert evm.nodes and all(n.chain_type == "evm" for n in evm.nodes)
    assert evm.edges and all(not e.is_ibc for e in evm.edges)
    assert {e.kind for e in evm.edges} >= {"CCTP"}
    assert_consistent(evm)

    active = graph.filter(statuses={"ACTIVE"})
    assert active.edges == tuple(e for e in graph.edges if e.status == "ACTIVE" or not e.is_ibc)
    assert any(not e.is_ibc for e in active.edges)  # a channel condition leaves bridges alone
    untagged = graph.filter(statuses={"UNTAGGED"})
    assert untagged.edges == graph.filter(statuses={None}).edges
    assert {e.status for e in untagged.edges if e.is_ibc} == {None}
    assert graph.filter(statuses={"ACTIVE", "UNTAGGED"}).edges == graph.edges

    assert graph.filter(kinds={"IBC"}).edges == tuple(e for e in graph.edges if e.is_ibc)

    connected = graph.filter(min_degree=1)
    assert {n.chain_id for n in connected.nodes} == {n.chain_id for n in graph.nodes if n.degree >= 1}
    assert connected.edges == graph.edges
    hubs = graph.filter(min_degree=30)
    assert {n.chain_id for n in hubs.nodes} == {n.chain_id for n in graph.nodes if n.degree >= 30}
    assert_consistent(hubs)
    assert graph.filter() == graph
    with pytest.raises(TypeError):
        graph.filter(chain_types="cosmos")
    with pytest.raises(ValueError):
        graph.filter(min_degree=-1)


def test_exports(graph: ChainGraph) -> None:
    nodes, edges = graph.to_frames()
    assert len(nodes) == len(graph.nodes) and len(edges) == len(graph.edges)
    assert nodes.set_index("chain_id").loc["osmosis-1", "degree"] == graph.node("osmosis-1").degree
    assert set(edges["kind"]) == {e.kind for e in graph.edges}
    multi = graph.to_networkx()
    assert isinstance(multi, nx.MultiGraph)
    assert multi.number_of_nodes() == len(graph.nodes) and multi.number_of_edges() == len(graph.edges)
    data = multi.get_edge_data("cosmoshub-4", "osmosis-1")
    assert data["IBC:channel-141/channel-0"]["preferred"] is True
    assert multi.nodes["osmosis-1"]["chain_name"] == "osmosis"
    simple = graph.to_networkx(multigraph=False)
    assert type(simple) is nx.Graph
    assert sum(d["weight"] for _, _, d in simple.edges(data=True)) == len(graph.edges)
    hub_eth = simple.edges["1", "cosmoshub-4"]
    assert "EUREKA" in hub_eth["bridge_kinds"]


def test_top_chains(graph: ChainGraph) -> None:
    top = top_chains(graph, 20)
    assert len(top) == 20 and top[0] == "osmosis-1" and top[1] == "cosmoshub-4"
    ranked = sorted(graph.nodes, key=lambda n: (-n.degree, n.chain_id))
    assert top == [n.chain_id for n in ranked[:20]]
    degrees = [graph.node(c).degree for c in top]
    assert degrees == sorted(degrees, reverse=True)
    assert top_chains(graph, 0) == []
    assert len(top_chains(graph, 10_000)) == len(graph.nodes)
    tie = ChainGraph.build([ChainNode(c, c, c, "cosmos", True, None, 0) for c in ("b", "a", "c")],
                           [ChainEdge("a", "b", "IBC", "channel-0", "channel-0", None, None)])
    assert top_chains(tie, 3) == ["a", "b", "c"]
    with pytest.raises(ValueError):
        top_chains(graph, -1)


# -- lookups over chain pairs ---------------------------------------------------------------


PAIRS_CHAINS = ["cosmoshub-4", "osmosis-1", "noble-1", "1", "axelar-dojo-1"]


@pytest.mark.parametrize("flags", [
    {},
    {"allow_multi_tx": True},
    {"include_no_metadata_assets": True, "include_evm_assets": True, "include_cw20_assets": True},
])
def test_movable_matrix_matches_direct_lookups(registry: ar.Registry, flags: dict[str, bool]) -> None:
    m = movable_matrix(registry, PAIRS_CHAINS, **flags)
    assert list(m.index) == PAIRS_CHAINS and list(m.columns) == PAIRS_CHAINS
    for s in PAIRS_CHAINS:
        for d in PAIRS_CHAINS:
            if s == d:
                assert math.isnan(m.loc[s, d])
            else:
                assert m.loc[s, d] == len(registry.assets_between_chains(s, d, **flags)), (s, d)
    assert m.loc["cosmoshub-4", "osmosis-1"] > 0


def test_movable_matrix_flags_matter(registry: ar.Registry) -> None:
    plain = movable_matrix(registry, ["cosmoshub-4", "osmosis-1"])
    wide = movable_matrix(registry, ["cosmoshub-4", "osmosis-1"], include_no_metadata_assets=True)
    assert wide.loc["cosmoshub-4", "osmosis-1"] > plain.loc["cosmoshub-4", "osmosis-1"]


def test_txs_distribution(registry: ar.Registry, graph: ChainGraph) -> None:
    ids = top_chains(graph, 8)
    single = txs_distribution(registry, ids)
    assert list(single["txs_required"]) == [1]
    multi = txs_distribution(registry, ids, allow_multi_tx=True)
    expected: Counter[int] = Counter()
    for s in ids:
        for d in ids:
            if s != d:
                expected.update(p.txs_required for p in registry.assets_between_chains(s, d, allow_multi_tx=True))
    assert dict(zip(multi["txs_required"], multi["pairs"], strict=True)) == dict(expected)
    assert max(expected) > 1
    assert abs(multi["share"].sum() - 1.0) < 1e-9
    assert int(single["pairs"].iloc[0]) == expected[1]
    assert list(multi.columns) == ["txs_required", "pairs", "share"]


def test_pair_helpers_use_only_the_lookup_protocol(registry: ar.Registry) -> None:
    """Any object with ``assets_between_chains`` (e.g. the HTTP client) works; calls are in order."""
    calls: list[tuple[str, str, bool]] = []

    class Recorder:
        def assets_between_chains(self, source_chain_id: str, dest_chain_id: str, *,
                                  include_no_metadata_assets: bool = False, include_cw20_assets: bool = False,
                                  include_evm_assets: bool = False,
                                  allow_multi_tx: bool = False) -> ar.BetweenChainsResult:
            calls.append((source_chain_id, dest_chain_id, allow_multi_tx))
            return registry.assets_between_chains(
                source_chain_id, dest_chain_id, include_no_metadata_assets=include_no_metadata_assets,
                include_cw20_assets=include_cw20_assets, include_evm_assets=include_evm_assets,
                allow_multi_tx=allow_multi_tx)

    m = movable_matrix(Recorder(), ["osmosis-1", "cosmoshub-4", "noble-1"], allow_multi_tx=True)
    assert calls == [("osmosis-1", "cosmoshub-4", True), ("osmosis-1", "noble-1", True),
                     ("cosmoshub-4", "osmosis-1", True), ("cosmoshub-4", "noble-1", True),
                     ("noble-1", "osmosis-1", True), ("noble-1", "cosmoshub-4", True)]
    assert m.shape == (3, 3)
    with pytest.raises(ValueError):
        movable_matrix(registry, ["osmosis-1", "osmosis-1"])
    with pytest.raises(TypeError):
        txs_distribution(registry, "osmosis-1")
    with pytest.raises(ar.NotFoundError):
        movable_matrix(registry, ["osmosis-1", "no-such-chain-1"])
    empty = txs_distribution(registry, [])
    assert empty.empty and list(empty.columns) == ["txs_required", "pairs", "share"]
