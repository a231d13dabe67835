"""The chain graph: routable chains as nodes, IBC channels and bridges as edges.

This is the export behind the dashboard's Network page and the notebooks. Build it once
from a loaded registry, then slice it (:meth:`ChainGraph.neighbourhood`,
:meth:`ChainGraph.filter`), hand it to networkx (:meth:`ChainGraph.to_networkx`) or to
pandas (:meth:`ChainGraph.to_frames`)::

    >>> import os, assetroute_core as ar
    >>> from assetroute_core.network import chain_graph, top_chains
    >>> reg = ar.load_registry(os.environ.get("ASSETROUTE_REGISTRY", "../shared/chain-registry"))
    >>> graph = chain_graph(reg)
    >>> top_chains(graph, 3)
    ['osmosis-1', 'cosmoshub-4', 'axelar-dojo-1']
    >>> edge = next(e for e in graph.edges
    ...             if {e.source, e.target} == {"cosmoshub-4", "osmosis-1"} and e.kind == "IBC")
    >>> edge.channel_source, edge.channel_target, edge.status, edge.preferred, edge.canonical
    ('channel-141', 'channel-0', 'ACTIVE', True, True)

Two helpers summarise the lookups over a set of chains: :func:`movable_matrix` (how many
asset pairs ``assets_between_chains`` returns for every ordered pair of chains) and
:func:`txs_distribution` (how those pairs split by ``txs_required``). Both accept anything
with the registry's ``assets_between_chains`` signature, so they also run against a remote
compatible service through the client.

What the graph contains
-----------------------
* **Nodes**: the routable chains (``registry.chains()``: live Cosmos and EVM chains that own
  their chain-id), including chains with no edge at all (degree 0).
* **IBC edges**: one per ICS-20 channel of ``_IBC`` between two routable chains: ``transfer``
  on both ends, or ``transfer`` against a CW20-ICS20 ``wasm.`` port (``port_source`` /
  ``port_target`` tell them apart). Only usable channels (untagged or not INACTIVE/CLOSED)
  unless ``include_inactive=True``. ``canonical`` marks the channel the router uses between the
  two chains (SPEC §3: preferred, then ACTIVE, then the lowest channel number).
* **Bridge edges**: the registry's bridge links (``registry.bridge_links()``: bridge and
  ibc-bridge traces, and Circle's CCTP family) aggregated per (chain pair, kind); ``asset_links``
  counts the asset pairs the kind links between the two chains. Links to chains that are not
  routable (bitcoin, forex, killed chains, ...) are left out.
* Edges are undirected: ``source`` is the smaller chain-id of the two and ``channel_source`` /
  ``port_source`` belong to it.
* ``degree`` of a node is the number of distinct chains it shares at least one edge with **in
  that graph**; every slice recomputes it.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, fields
from typing import TYPE_CHECKING, Any, Unpack

from ._exceptions import NotFoundError
from ._options import BetweenChainsKwargs, BetweenChainsOptions, SupportsLookups
from ._results import BetweenChainsResult

if TYPE_CHECKING:
    import networkx as nx
    import pandas as pd

    from ._registry import Registry

__all__ = [
    "IBC",
    "UNTAGGED",
    "ChainEdge",
    "ChainGraph",
    "ChainNode",
    "chain_graph",
    "movable_matrix",
    "top_chains",
    "txs_distribution",
]

IBC = "IBC"
"""The ``kind`` of an IBC channel edge; every other kind is a bridge kind (``AXELAR``, ``CCTP``, ...)."""

UNTAGGED = "UNTAGGED"
"""Stands for an untagged channel (``status`` ``None``) in :meth:`ChainGraph.filter`'s *statuses*."""

_UNUSABLE = ("INACTIVE", "CLOSED")


@dataclass(frozen=True, slots=True)
class ChainNode:
    """A routable chain of the graph.

    ``degree`` is the number of distinct chains this one shares an edge with in its graph.
    """

    chain_id: str
    chain_name: str
    pretty_name: str
    chain_type: str
    pfm_enabled: bool
    logo_uri: str | None
    degree: int


@dataclass(frozen=True, slots=True)
class ChainEdge:
    """A connection between two chains: an IBC channel or an aggregated bridge kind.

    ``source`` is the smaller chain-id of the two (edges are undirected). For IBC edges
    ``channel_source``/``channel_target`` and ``port_source``/``port_target`` are the channel
    ends on ``source`` and ``target``, ``status`` is the registry's tag (``ACTIVE``,
    ``INACTIVE``, ``CLOSED``, ``PENDING``, or ``None`` when untagged) and ``preferred`` the
    registry's ``preferred`` tag (``None`` when untagged); ``canonical`` marks the channel that
    routing uses between the two chains. Bridge edges have ``None`` in all channel fields,
    ``canonical=False``, and ``asset_links`` counts the registry bridge links aggregated into
    the edge.
    """

    source: str
    target: str
    kind: str
    channel_source: str | None
    channel_target: str | None
    status: str | None
    preferred: bool | None
    port_source: str | None = None
    port_target: str | None = None
    canonical: bool = False
    asset_links: int = 0

    @property
    def is_ibc(self) -> bool:
        """Whether this edge is an IBC channel (else a bridge kind)."""
        return self.kind == IBC

    @property
    def key(self) -> str:
        """The edge's key among the parallel edges of its chain pair (also the networkx key).

        ``"IBC:channel-141/channel-0"`` for a channel (source end first), the kind for a bridge.
        """
        if self.kind == IBC:
            return f"{IBC}:{self.channel_source}/{self.channel_target}"
        return self.kind


_NODE_COLUMNS = tuple(f.name for f in fields(ChainNode))
_EDGE_COLUMNS = tuple(f.name for f in fields(ChainEdge))


def _with_degrees(nodes: Iterable[ChainNode], edges: Sequence[ChainEdge]) -> tuple[ChainNode, ...]:
    """Nodes with ``degree`` recomputed from *edges* (distinct neighbours), sorted by chain-id."""
    neighbours: dict[str, set[str]] = {}
    for e in edges:
        neighbours.setdefault(e.source, set()).add(e.target)
        neighbours.setdefault(e.target, set()).add(e.source)
    out = []
    for n in nodes:
        degree = len(neighbours.get(n.chain_id, ()))
        out.append(n if n.degree == degree else ChainNode(
            n.chain_id, n.chain_name, n.pretty_name, n.chain_type, n.pfm_enabled, n.logo_uri, degree))
    return tuple(sorted(out, key=lambda n: n.chain_id))


def _sorted_edges(edges: Iterable[ChainEdge]) -> tuple[ChainEdge, ...]:
    return tuple(sorted(edges, key=lambda e: (e.source, e.target, e.kind != IBC, e.kind, e.key)))


@dataclass(frozen=True)
class ChainGraph:
    """An immutable chain graph: nodes sorted by chain-id, edges by (source, target, kind).

    Build one with :func:`chain_graph`, or by hand (degrees are taken as given; use
    :meth:`build` to compute them)::

        >>> g = ChainGraph.build(
        ...     [ChainNode("a-1", "a", "A", "cosmos", True, None, 0),
        ...      ChainNode("b-1", "b", "B", "cosmos", False, None, 0),
        ...      ChainNode("c-1", "c", "C", "evm", False, None, 0)],
        ...     [ChainEdge("a-1", "b-1", "IBC", "channel-0", "channel-3", "ACTIVE", True),
        ...      ChainEdge("b-1", "c-1", "AXELAR", None, None, None, None, asset_links=2)])
        >>> [(n.chain_id, n.degree) for n in g.nodes]
        [('a-1', 1), ('b-1', 2), ('c-1', 1)]
        >>> len(g), g.node("b-1").chain_name
        (3, 'b')
    """

    nodes: tuple[ChainNode, ...]
    edges: tuple[ChainEdge, ...]

    @classmethod
    def build(cls, nodes: Iterable[ChainNode], edges: Iterable[ChainEdge]) -> ChainGraph:
        """A graph of *nodes* and the *edges* between them, with degrees computed and order fixed.

        Edges touching a chain that is not among the nodes are dropped.
        """
        node_list = list(nodes)
        ids = {n.chain_id for n in node_list}
        if len(ids) != len(node_list):
            dup = sorted(k for k, v in Counter(n.chain_id for n in node_list).items() if v > 1)
            raise ValueError(f"duplicate chain_id among nodes: {dup}")
        kept = _sorted_edges(e for e in edges if e.source in ids and e.target in ids)
        return cls(_with_degrees(node_list, kept), kept)

    # -- access ------------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.nodes)

    def __iter__(self) -> Iterator[ChainNode]:
        return iter(self.nodes)

    def __contains__(self, chain_id: object) -> bool:
        return any(n.chain_id == chain_id for n in self.nodes)

    def node(self, chain_id: str) -> ChainNode:
        """The node with this chain-id; :class:`~assetroute_core.NotFoundError` if it is not in the graph."""
        for n in self.nodes:
            if n.chain_id == chain_id:
                return n
        raise NotFoundError("chain not in graph", value=chain_id)

    def edges_of(self, chain_id: str) -> tuple[ChainEdge, ...]:
        """Every edge with *chain_id* at either end.

        >>> g = ChainGraph.build([ChainNode("a-1", "a", "A", "cosmos", True, None, 0),
        ...                       ChainNode("b-1", "b", "B", "cosmos", True, None, 0)],
        ...                      [ChainEdge("a-1", "b-1", "IBC", "channel-0", "channel-9", None, None)])
        >>> [e.key for e in g.edges_of("b-1")]
        ['IBC:channel-0/channel-9']
        """
        self.node(chain_id)
        return tuple(e for e in self.edges if chain_id in (e.source, e.target))

    # -- slices ------------------------------------------------------------------------------

    def neighbourhood(self, chain_id: str, *, depth: int = 1) -> ChainGraph:
        """The chains within *depth* edges of *chain_id*, with every edge among them.

        ``depth=0`` is the chain alone. Degrees are recomputed inside the slice.

        >>> g = ChainGraph.build(
        ...     [ChainNode(c, c, c, "cosmos", True, None, 0) for c in ("a", "b", "c", "d")],
        ...     [ChainEdge("a", "b", "IBC", "channel-0", "channel-0", "ACTIVE", True),
        ...      ChainEdge("b", "c", "IBC", "channel-1", "channel-0", "ACTIVE", True),
        ...      ChainEdge("c", "d", "IBC", "channel-1", "channel-0", "ACTIVE", True)])
        >>> [n.chain_id for n in g.neighbourhood("b").nodes]
        ['a', 'b', 'c']
        >>> [n.chain_id for n in g.neighbourhood("a", depth=2).nodes]
        ['a', 'b', 'c']
        """
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
            raise ValueError(f"depth must be a non-negative int, got {depth!r}")
        self.node(chain_id)
        adjacency: dict[str, set[str]] = {}
        for e in self.edges:
            adjacency.setdefault(e.source, set()).add(e.target)
            adjacency.setdefault(e.target, set()).add(e.source)
        distance = {chain_id: 0}
        queue = deque([chain_id])
        while queue:
            current = queue.popleft()
            if distance[current] == depth:
                continue
            for other in sorted(adjacency.get(current, ())):
                if other not in distance:
                    distance[other] = distance[current] + 1
                    queue.append(other)
        return ChainGraph.build((n for n in self.nodes if n.chain_id in distance), self.edges)

    def filter(
        self,
        *,
        chain_types: Collection[str] | None = None,
        statuses: Collection[str | None] | None = None,
        kinds: Collection[str] | None = None,
        min_degree: int = 0,
    ) -> ChainGraph:
        """A sub-graph: keep chains of *chain_types*, IBC edges whose channel status is in
        *statuses*, edges whose kind is in *kinds*, then drop chains with fewer than *min_degree*
        neighbours.

        ``None`` means "no condition". *statuses* is a channel condition, so it applies to IBC
        edges only (bridge edges have no channel status; drop them with *kinds* or
        ``chain_graph(..., include_bridges=False)``); an untagged channel matches ``None`` or
        ``"UNTAGGED"``. *kinds* names edge kinds (``"IBC"``, ``"AXELAR"``, ...). ``min_degree`` is
        a single pass on the degrees after the edge conditions (not a k-core: use
        ``networkx.k_core`` on :meth:`to_networkx` for that); degrees are recomputed afterwards.

        >>> g = ChainGraph.build(
        ...     [ChainNode("a", "a", "A", "cosmos", True, None, 0), ChainNode("b", "b", "B", "cosmos", True, None, 0),
        ...      ChainNode("e", "e", "E", "evm", False, None, 0)],
        ...     [ChainEdge("a", "b", "IBC", "channel-0", "channel-0", "INACTIVE", None),
        ...      ChainEdge("a", "e", "AXELAR", None, None, None, None, asset_links=1)])
        >>> [(n.chain_id, n.degree) for n in g.filter(chain_types={"cosmos"}).nodes]
        [('a', 1), ('b', 1)]
        >>> [n.chain_id for n in g.filter(statuses={"ACTIVE", "UNTAGGED"}, min_degree=1).nodes]
        ['a', 'e']
        >>> [e.kind for e in g.filter(kinds={"IBC"}).edges]
        ['IBC']
        """
        if isinstance(min_degree, bool) or not isinstance(min_degree, int) or min_degree < 0:
            raise ValueError(f"min_degree must be a non-negative int, got {min_degree!r}")
        type_set = None if chain_types is None else _as_set(chain_types, "chain_types")
        status_set = None
        if statuses is not None:
            status_set = _as_set(statuses, "statuses")
            if UNTAGGED in status_set:
                status_set |= {None}
        kind_set = None if kinds is None else _as_set(kinds, "kinds")
        nodes = [n for n in self.nodes if type_set is None or n.chain_type in type_set]
        edges = [e for e in self.edges
                 if (status_set is None or not e.is_ibc or e.status in status_set)
                 and (kind_set is None or e.kind in kind_set)]
        graph = ChainGraph.build(nodes, edges)
        if min_degree:
            graph = ChainGraph.build((n for n in graph.nodes if n.degree >= min_degree), graph.edges)
        return graph

    # -- exports -----------------------------------------------------------------------------

    def to_networkx(self, *, multigraph: bool = True) -> nx.MultiGraph | nx.Graph:
        """The graph as networkx (imported here, so networkx is only needed when you call this).

        ``multigraph=True`` (default): a :class:`networkx.MultiGraph` with one edge per
        :class:`ChainEdge`, keyed by :attr:`ChainEdge.key`, carrying every edge field except
        ``source``/``target`` as attributes. ``multigraph=False``: a :class:`networkx.Graph` with
        one edge per chain pair, for centrality and path measures; its attributes are ``kinds``
        (sorted tuple of edge kinds), ``ibc_channels`` (number of IBC edges), ``bridge_kinds``
        (sorted tuple of the bridge kinds) and ``weight`` (number of parallel edges).
        Nodes are chain-ids with every :class:`ChainNode` field except ``chain_id`` as attributes.

        >>> g = ChainGraph.build([ChainNode("a", "a", "A", "cosmos", True, None, 0),
        ...                       ChainNode("b", "b", "B", "evm", False, None, 0)],
        ...                      [ChainEdge("a", "b", "IBC", "channel-0", "channel-2", "ACTIVE", True),
        ...                       ChainEdge("a", "b", "CCTP", None, None, None, None, asset_links=1)])
        >>> m = g.to_networkx()
        >>> sorted(m.edges(keys=True))
        [('a', 'b', 'CCTP'), ('a', 'b', 'IBC:channel-0/channel-2')]
        >>> g.to_networkx(multigraph=False).edges["a", "b"]["kinds"]
        ('CCTP', 'IBC')
        """
        import networkx as nx

        out: nx.MultiGraph | nx.Graph = nx.MultiGraph() if multigraph else nx.Graph()
        for n in self.nodes:
            attrs = asdict(n)
            del attrs["chain_id"]
            out.add_node(n.chain_id, **attrs)
        if multigraph:
            for e in self.edges:
                attrs = asdict(e)
                del attrs["source"], attrs["target"]
                out.add_edge(e.source, e.target, key=e.key, **attrs)
            return out
        pairs: dict[tuple[str, str], list[ChainEdge]] = {}
        for e in self.edges:
            pairs.setdefault((e.source, e.target), []).append(e)
        for (a, b), group in pairs.items():
            kinds = sorted({e.kind for e in group})
            out.add_edge(a, b, kinds=tuple(kinds), ibc_channels=sum(e.is_ibc for e in group),
                         bridge_kinds=tuple(k for k in kinds if k != IBC), weight=len(group))
        return out

    def to_frames(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        """``(nodes, edges)`` as DataFrames, one row per :class:`ChainNode` / :class:`ChainEdge`,
        columns named after their fields (present even when a frame is empty).

        >>> nodes, edges = ChainGraph.build([ChainNode("a", "a", "A", "cosmos", True, None, 0)], []).to_frames()
        >>> list(nodes.columns)
        ['chain_id', 'chain_name', 'pretty_name', 'chain_type', 'pfm_enabled', 'logo_uri', 'degree']
        >>> len(edges), list(edges.columns)[:4]
        (0, ['source', 'target', 'kind', 'channel_source'])
        """
        import pandas as pd

        nodes = pd.DataFrame([asdict(n) for n in self.nodes], columns=list(_NODE_COLUMNS))
        edges = pd.DataFrame([asdict(e) for e in self.edges], columns=list(_EDGE_COLUMNS))
        return nodes, edges


def _as_set(values: Collection[Any], name: str) -> frozenset[Any]:
    if isinstance(values, str):
        raise TypeError(f"{name} must be a collection of values, not the string {values!r}")
    return frozenset(values)


# -- building -----------------------------------------------------------------------------------


def chain_graph(registry: Registry, *, include_inactive: bool = False, include_bridges: bool = True) -> ChainGraph:
    """The chain graph of a loaded registry (see the module docstring for what it contains).

    ``include_inactive=True`` adds the INACTIVE/CLOSED transfer channels between routable chains
    (their ``status`` says so; they never count as canonical). ``include_bridges=False`` leaves
    only IBC edges.

    >>> import os, assetroute_core as ar
    >>> reg = ar.load_registry(os.environ.get("ASSETROUTE_REGISTRY", "../shared/chain-registry"))
    >>> usable, everything = chain_graph(reg), chain_graph(reg, include_inactive=True)
    >>> sorted({e.status for e in everything.edges if e.is_ibc} - {e.status for e in usable.edges}, key=str)
    ['INACTIVE']
    >>> {e.kind for e in chain_graph(reg, include_bridges=False).edges}
    {'IBC'}
    """
    chains = registry.chains()
    by_name = {c.chain_name: c for c in chains}
    edges: list[ChainEdge] = []

    for ch in registry.channels():
        if ch.chain_1 not in by_name or ch.chain_2 not in by_name or ch.chain_1 == ch.chain_2:
            continue
        if not _is_ics20(ch.port_1, ch.port_2):
            continue
        usable = ch.status not in _UNUSABLE
        if not usable and not include_inactive:
            continue
        c1, c2 = by_name[ch.chain_1], by_name[ch.chain_2]
        canonical = False
        if usable:
            # The router's canonical channel from chain_1 towards chain_2; a CW20 channel is
            # canonical for the CW20 natives of its ``wasm.`` side.
            wasm_side = 1 if ch.port_1.startswith("wasm.") else 2 if ch.port_2.startswith("wasm.") else 0
            if wasm_side:
                a, b = (ch.chain_1, ch.chain_2) if wasm_side == 1 else (ch.chain_2, ch.chain_1)
                end = registry.canonical_channel(by_name[a].chain_id, by_name[b].chain_id, cw20=True)
                own = ch.channel_1 if wasm_side == 1 else ch.channel_2
            else:
                end = registry.canonical_channel(c1.chain_id, c2.chain_id)
                own = ch.channel_1
            canonical = end is not None and end.channel_id == own
        side_1 = (c1.chain_id, ch.channel_1, ch.port_1)
        side_2 = (c2.chain_id, ch.channel_2, ch.port_2)
        src, dst = (side_1, side_2) if side_1[0] <= side_2[0] else (side_2, side_1)
        edges.append(ChainEdge(
            source=src[0], target=dst[0], kind=IBC, channel_source=src[1], channel_target=dst[1],
            status=ch.status, preferred=ch.preferred, port_source=src[2], port_target=dst[2],
            canonical=canonical,
        ))

    if include_bridges:
        counts: Counter[tuple[str, str, str]] = Counter()
        for link in registry.bridge_links():
            ca, cb = by_name.get(link.a[0]), by_name.get(link.b[0])
            if ca is None or cb is None or ca.chain_id == cb.chain_id:
                continue
            lo, hi = sorted((ca.chain_id, cb.chain_id))
            counts[(lo, hi, link.kind)] += 1
        for (lo, hi, kind), n in counts.items():
            edges.append(ChainEdge(lo, hi, kind, None, None, None, None, asset_links=n))

    nodes = [ChainNode(c.chain_id, c.chain_name, c.pretty_name, c.chain_type, c.pfm_enabled, c.logo_uri, 0)
             for c in chains]
    return ChainGraph.build(nodes, edges)


def _is_ics20(p1: str, p2: str) -> bool:
    """ICS-20 capable port pair: transfer on both ends, or transfer against a CW20-ICS20 ``wasm.`` port."""
    return (p1 == "transfer" and (p2 == "transfer" or p2.startswith("wasm."))) or (
        p2 == "transfer" and p1.startswith("wasm."))


def top_chains(graph: ChainGraph, n: int) -> list[str]:
    """The chain-ids of the *n* nodes with the highest degree; ties broken by chain-id.

    >>> g = ChainGraph.build(
    ...     [ChainNode(c, c, c, "cosmos", True, None, 0) for c in ("z", "y", "x")],
    ...     [ChainEdge("x", "z", "IBC", "channel-0", "channel-0", None, None),
    ...      ChainEdge("y", "z", "IBC", "channel-1", "channel-1", None, None)])
    >>> top_chains(g, 2)
    ['z', 'x']
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"n must be a non-negative int, got {n!r}")
    ranked = sorted(graph.nodes, key=lambda node: (-node.degree, node.chain_id))
    return [node.chain_id for node in ranked[:n]]


# -- lookups over many chain pairs --------------------------------------------------------------


def _check_ids(chain_ids: Sequence[str]) -> list[str]:
    if isinstance(chain_ids, str):
        raise TypeError("chain_ids must be a sequence of chain-ids, not a string")
    ids = list(chain_ids)
    dup = sorted(k for k, v in Counter(ids).items() if v > 1)
    if dup:
        raise ValueError(f"duplicate chain-ids: {dup}")
    return ids


def _ordered_pairs(
    lookups: SupportsLookups, ids: list[str], options: BetweenChainsKwargs,
) -> Iterator[tuple[str, str, BetweenChainsResult]]:
    for source in ids:
        for dest in ids:
            if source != dest:
                yield source, dest, lookups.assets_between_chains(source, dest, **options)


def movable_matrix(
    lookups: SupportsLookups, chain_ids: Sequence[str], **options: Unpack[BetweenChainsKwargs],
) -> pd.DataFrame:
    """How many asset pairs ``assets_between_chains`` returns for every ordered pair of chains.

    Rows are source chain-ids, columns destination chain-ids, both in the order given; the
    diagonal (source equals destination, a 400 for the lookup) is NaN, so the frame is float.
    The keyword options are passed to every lookup unchanged. Unknown chain-ids raise the
    lookup's :class:`~assetroute_core.NotFoundError`.

    >>> import os, assetroute_core as ar
    >>> reg = ar.load_registry(os.environ.get("ASSETROUTE_REGISTRY", "../shared/chain-registry"))
    >>> m = movable_matrix(reg, ["cosmoshub-4", "osmosis-1"])
    >>> int(m.loc["cosmoshub-4", "osmosis-1"]) == len(reg.assets_between_chains("cosmoshub-4", "osmosis-1"))
    True
    >>> bool(m.isna().values.diagonal().all())
    True
    """
    import pandas as pd

    BetweenChainsOptions.of(options)  # a bad option fails here, before any lookup
    ids = _check_ids(chain_ids)
    frame = pd.DataFrame(float("nan"), index=pd.Index(ids, name="source"),
                         columns=pd.Index(ids, name="dest"), dtype="float64")
    for source, dest, result in _ordered_pairs(lookups, ids, options):
        frame.loc[source, dest] = float(len(result))
    return frame


def txs_distribution(
    lookups: SupportsLookups, chain_ids: Sequence[str], **options: Unpack[BetweenChainsKwargs],
) -> pd.DataFrame:
    """How the asset pairs of every ordered pair of *chain_ids* split by ``txs_required``.

    One row per ``txs_required`` value that occurs, ascending, with columns ``txs_required``,
    ``pairs`` (number of asset pairs) and ``share`` (fraction of all pairs). Compare
    ``allow_multi_tx=False`` (only single-transaction pairs are returned) with ``True``, or the
    same call on registries loaded with different overlays (PFM assumptions).

    >>> import os, assetroute_core as ar
    >>> reg = ar.load_registry(os.environ.get("ASSETROUTE_REGISTRY", "../shared/chain-registry"))
    >>> d = txs_distribution(reg, ["cosmoshub-4", "osmosis-1", "noble-1"], allow_multi_tx=True)
    >>> list(d.columns), round(float(d["share"].sum()), 9)
    (['txs_required', 'pairs', 'share'], 1.0)
    """
    import pandas as pd

    BetweenChainsOptions.of(options)  # a bad option fails here, before any lookup
    counts: Counter[int] = Counter()
    for _source, _dest, result in _ordered_pairs(lookups, _check_ids(chain_ids), options):
        counts.update(p.txs_required for p in result)
    total = sum(counts.values())
    rows = [{"txs_required": k, "pairs": counts[k], "share": counts[k] / total} for k in sorted(counts)]
    return pd.DataFrame(rows, columns=["txs_required", "pairs", "share"]).astype(
        {"txs_required": "int64", "pairs": "int64", "share": "float64"})
