"""Graph views of routes, reach and the chain network, as plain data.

Each view returns a :class:`~assetroute_core.drawing.GraphSpec`: nodes and edges with labels,
tooltips, colours and (optionally) positions, and a legend.  Nothing here knows a graph
library; :func:`render_html` hands the spec to the one adapter
(:mod:`assetroute_core.drawing._pyvis`) that turns it into a self-contained HTML page, so the
library can be replaced without touching the views.  Imports go one way only:
``_views`` → ``_pyvis`` → ``_spec``.

Labels and tooltips are plain text taken from the registry; the adapter is responsible for
showing them as text, never as markup.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from ._spec import (
    BRIDGE_COLORS,
    CHAIN_TYPE_COLORS,
    OTHER_BRIDGE_COLOR,
    OTHER_CHAIN_COLOR,
    PRIMARY,
    TXS_COLORS,
    UNKNOWN_COLOR,
    GraphEdge,
    GraphNode,
    GraphSpec,
    bridge_color,
    txs_color,
)

if TYPE_CHECKING:
    from .._models import Route
    from .._results import DestAsset, FromSourceResult

__all__ = [
    "chain_network_graph",
    "destination_graph",
    "render_html",
    "route_graph",
]


def render_html(spec: GraphSpec, *, height: int = 480) -> str:
    """A self-contained HTML page showing *spec* (no network access needed to view it)."""
    from ._pyvis import to_html

    return to_html(spec, height=height)


# -- helpers ---------------------------------------------------------------------------------------


def _symbol(asset: Any) -> str:
    m = asset.metadata
    return m.symbol if m is not None else f"{asset.origin_denom} (no metadata)"


def _name(labels: Mapping[str, str] | None, chain_id: str) -> str:
    if labels and chain_id in labels:
        return labels[chain_id]
    return chain_id


def _hop_text(hop: Any) -> str:
    if hop.kind == "IBC":
        text = f"IBC {hop.channel or '?'} → {hop.counterparty_channel or '?'}"
        if hop.operation != "IBC":
            text += f" (part of {hop.operation})"
        return text
    return str(hop.kind)


# -- route -----------------------------------------------------------------------------------------


def route_graph(route: Route, *, labels: Mapping[str, str] | None = None, spacing: float = 180.0) -> GraphSpec:
    """The bridge path of one pair: the chains it crosses, left to right.

    Edges carry the channel (``channel-141 → channel-0``) or the bridge kind and the
    number of the transaction the hop belongs to; a hop that needs a new transaction is
    drawn amber and dashed.  *labels* maps chain-ids to display names.
    """
    nodes: list[GraphNode] = []
    edges: list[GraphEdge] = []
    src = route.source
    nodes.append(GraphNode(
        "n0", _name(labels, src.chain_id),
        title=f"{_name(labels, src.chain_id)} ({src.chain_id})\nstart: {_symbol(src)}\ndenom: {src.denom}",
        color=PRIMARY, size=22, x=0.0, y=0.0,
    ))
    tx = 0
    last = len(route.hops) - 1
    for i, hop in enumerate(route.hops):
        if hop.new_tx or i == 0:
            tx += 1
        restart = hop.new_tx and i > 0
        is_dest = i == last
        nodes.append(GraphNode(
            f"n{i + 1}", _name(labels, hop.to_chain_id),
            title=(f"{_name(labels, hop.to_chain_id)} ({hop.to_chain_id})\n"
                   f"{'arrives as' if is_dest else 'holds'}: {hop.denom}"),
            color=TXS_COLORS[1] if is_dest else "#CBD5E1",
            border_color="#0F172A" if is_dest else None,
            border_width=2 if is_dest else 1,
            size=22 if is_dest else 16, x=spacing * (i + 1), y=0.0,
        ))
        label = f"{_hop_text(hop)}\ntx {tx}" + (" · NEW TX" if restart else "")
        edges.append(GraphEdge(
            f"n{i}", f"n{i + 1}", label=label,
            title=(f"hop {i + 1}: {_hop_text(hop)}\noperation: {hop.operation}\n"
                   f"after the hop: {hop.denom}\n"
                   f"{'needs a new transaction' if restart else 'same transaction' if i else 'first transaction'}"),
            color=TXS_COLORS[2] if restart else bridge_color(hop.operation if hop.kind == "IBC" else hop.kind),
            width=3.0 if restart else 2.0, dashes=restart,
        ))
    legend = (
        (PRIMARY, "source chain"),
        (TXS_COLORS[1], "destination chain"),
        (TXS_COLORS[2], "hop that needs a new transaction (dashed)"),
        (BRIDGE_COLORS["IBC"], "IBC hop in the same transaction"),
    )
    return GraphSpec(tuple(nodes), tuple(edges), legend=legend, font_size=20)


# -- destinations ----------------------------------------------------------------------------------


def _best(items: Iterable[DestAsset]) -> Route | None:
    routes = [d.route for d in items if d.route is not None]
    if not routes:
        return None
    return min(routes, key=lambda r: (r.txs_required, r.operations, len(r.hops)))


def _edge_label(route: Route | None) -> str:
    if route is None:
        return ""
    if len(route.hops) == 1 and route.hops[0].kind == "IBC":
        return route.hops[0].channel or "IBC"
    kinds = " → ".join(route.bridges)
    via = [h.to_chain_id for h in route.hops[:-1]]
    return f"{kinds}\nvia {', '.join(via)}" if via else kinds


def destination_graph(result: FromSourceResult, *, labels: Mapping[str, str] | None = None,
                      source_chain_id: str | None = None, max_assets_in_tooltip: int = 20) -> GraphSpec:
    """Where one asset can go: the source chain in the centre, destination chains around it.

    Edges are labelled with the channel (one IBC hop) or the bridge kinds and the chains
    passed through, coloured by the fewest transactions any asset on that chain needs;
    hovering an edge or node lists the assets.  Works without routes (remote results): the
    edges are then grey and unlabelled, and *source_chain_id* names the centre (a remote
    response does not include the source asset).
    """
    per_chain: dict[str, list[DestAsset]] = {}
    for d in result:
        per_chain.setdefault(d.asset.chain_id, []).append(d)
    source_id = result.source.chain_id if result.source is not None else (source_chain_id or "source")
    local = per_chain.pop(source_id, [])

    def asset_lines(items: list[DestAsset]) -> str:
        lines = []
        for d in items[:max_assets_in_tooltip]:
            extra = ""
            if d.route is not None:
                extra = f"  ({d.route.txs_required} tx, {' → '.join(d.route.bridges)})"
            lines.append(f"• {_symbol(d.asset)} — {d.asset.denom}{extra}")
        if len(items) > max_assets_in_tooltip:
            lines.append(f"… and {len(items) - max_assets_in_tooltip} more")
        return "\n".join(lines)

    src = result.source
    centre_title = f"{_name(labels, source_id)} ({source_id})"
    if src is not None:
        centre_title += f"\nsource asset: {_symbol(src)} — {src.denom}"
    if local:
        centre_title += f"\nalso on this chain ({len(local)}):\n" + asset_lines(local)
    nodes = [GraphNode("src", _name(labels, source_id), title=centre_title, color=PRIMARY, size=30,
                       x=0.0, y=0.0, border_color="#1E1B4B", border_width=3)]
    edges = []
    best = {cid: _best(items) for cid, items in per_chain.items()}
    def fewest(cid: str) -> int:
        route = best[cid]
        return route.txs_required if route is not None else 99

    order = sorted(per_chain, key=lambda c: (fewest(c), c))
    n = len(order)
    # one ring up to 24 chains, then two alternating rings so the picture stays compact
    rings = 1 if n <= 24 else 2
    radius = max(240.0, (n / rings) * 78.0 / (2 * math.pi))
    for i, cid in enumerate(order):
        r = radius * (1.0 if rings == 1 or i % 2 == 0 else 1.33)
        angle = -math.pi / 2 + 2 * math.pi * i / max(n, 1)
        items = per_chain[cid]
        route = best[cid]
        color = txs_color(route.txs_required if route else None)
        nid = f"c{i}"
        nodes.append(GraphNode(
            nid, _name(labels, cid),
            title=f"{_name(labels, cid)} ({cid})\n{len(items)} asset(s):\n" + asset_lines(items),
            color=color, size=min(14 + 3 * math.sqrt(len(items)), 30),
            x=round(r * math.cos(angle), 2), y=round(r * math.sin(angle), 2),
        ))
        edges.append(GraphEdge(
            "src", nid, label=_edge_label(route),
            title=(f"{source_id} → {cid}" + (f" · {_edge_label(route)}" if route else "") + "\n"
                   + (f"fewest transactions: {route.txs_required}\n" if route else "")
                   + asset_lines(items)),
            color=color, width=2.5 if route and route.txs_required == 1 else 2.0,
            dashes=bool(route and route.txs_required > 1),
        ))
    legend: tuple[tuple[str, str], ...] = (
        (PRIMARY, "source chain"), (TXS_COLORS[1], "reachable in 1 transaction"),
              (TXS_COLORS[2], "needs 2 transactions (dashed)"), (TXS_COLORS[3], "needs 3 or more"))
    if not any(best.values()):
        legend = ((PRIMARY, "source chain"), (UNKNOWN_COLOR, "destination (route not known)"))
    font = int(14 * max(1.0, radius * (1.33 if rings == 2 else 1.0) / 330))
    return GraphSpec(tuple(nodes), tuple(edges), legend=legend, edge_labels=n <= 40, font_size=font)


# -- chain network ---------------------------------------------------------------------------------


class _NodeLike(Protocol):
    chain_id: str
    chain_name: str
    pretty_name: str
    chain_type: str
    pfm_enabled: bool
    degree: int


class _EdgeLike(Protocol):
    source: str
    target: str
    kind: str
    channel_source: str | None
    channel_target: str | None
    status: str | None
    preferred: bool | None


class _GraphLike(Protocol):
    nodes: tuple[Any, ...]
    edges: tuple[Any, ...]


def _layout(ids: list[str], pairs: list[tuple[str, str]], scale: float,
            centre: str | None, aspect: float = 1.0) -> dict[str, tuple[float, float]]:
    """Deterministic positions: force-directed (networkx) for connected chains, a grid for the rest.

    *aspect* stretches the picture horizontally (wide canvases); isolated chains go in a
    block to the right.
    """
    if not ids:
        return {}
    linked = {a for pair in pairs for a in pair}
    connected = [c for c in ids if c in linked]
    isolated = [c for c in ids if c not in linked]
    out: dict[str, tuple[float, float]] = {}
    if connected:
        try:
            import networkx as nx

            g = nx.Graph()
            g.add_nodes_from(connected)
            g.add_edges_from(pairs)
            fixed = init = None
            if centre is not None and centre in g:
                init = {n: (math.cos(2 * math.pi * i / len(connected)), math.sin(2 * math.pi * i / len(connected)))
                        for i, n in enumerate(connected)}
                init[centre] = (0.0, 0.0)
                fixed = [centre]
            k = 2.4 / math.sqrt(max(len(connected), 1))
            pos = nx.spring_layout(g, k=k, seed=7, iterations=200, pos=init, fixed=fixed)
            pts = {n: (float(p[0]), float(p[1])) for n, p in pos.items()}
        except ImportError:  # pragma: no cover - networkx is part of the viz/app extras
            n = len(connected)
            pts = {c: (math.cos(2 * math.pi * i / n), math.sin(2 * math.pi * i / n)) for i, c in enumerate(connected)}
        xs = [p[0] for p in pts.values()]
        ys = [p[1] for p in pts.values()]
        cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
        span = max(max(xs) - min(xs), max(ys) - min(ys), 1e-9)
        out = {n: (round((p[0] - cx) / span * scale * aspect, 2), round((p[1] - cy) / span * scale, 2))
               for n, p in pts.items()}
    if isolated:  # chains without an edge: a tidy block to the right of the connected part
        left = (max((x for x, _ in out.values()), default=0.0)) + 220.0
        rows = max(4, math.ceil(scale / 90.0))
        top = -(min(rows, len(isolated)) - 1) * 90.0 / 2
        for i, c in enumerate(isolated):
            out[c] = (round(left + (i // rows) * 150.0, 2), round(top + (i % rows) * 90.0, 2))
    return out


def chain_network_graph(graph: _GraphLike, *, focus: str | None = None, scale: float | None = None,
                        aspect: float = 1.7) -> GraphSpec:
    """The chain graph of the registry: chains sized by degree and coloured by type.

    IBC edges are grey (dashed when not ACTIVE/untagged), bridge edges take their kind's
    colour; hovering shows channels, status and the preferred tag.  *focus* (a chain-id)
    is drawn larger and pinned in the centre; *aspect* widens the layout for wide canvases.
    """
    ids = [n.chain_id for n in graph.nodes]
    known = set(ids)
    pairs = [(e.source, e.target) for e in graph.edges if e.source in known and e.target in known]
    if scale is None:
        scale = max(700.0, 90.0 * math.sqrt(len(ids)))
    pos = _layout(ids, pairs, scale, focus, aspect)
    nodes = []
    for n in graph.nodes:
        x, y = pos.get(n.chain_id, (0.0, 0.0))
        is_focus = n.chain_id == focus
        nodes.append(GraphNode(
            n.chain_id, n.pretty_name or n.chain_name,
            title=(f"{n.pretty_name} ({n.chain_id})\nchain: {n.chain_name} · type: {n.chain_type}\n"
                   f"PFM: {'yes' if n.pfm_enabled else 'no/unknown'} · connections: {n.degree}"),
            color=CHAIN_TYPE_COLORS.get(n.chain_type, OTHER_CHAIN_COLOR),
            size=(10 + 2.2 * math.sqrt(max(n.degree, 0))) * (1.6 if is_focus else 1.0),
            x=x, y=y, border_color="#F59E0B" if is_focus else None, border_width=4 if is_focus else 1,
        ))
    edges = []
    kinds = set()
    for e in graph.edges:
        if e.source not in known or e.target not in known:
            continue
        kinds.add(e.kind)
        if e.kind == "IBC":
            status = e.status or "untagged"
            title = (f"IBC {e.source} {e.channel_source or '?'} ↔ {e.target} {e.channel_target or '?'}\n"
                     f"status: {status}" + (" · preferred" if e.preferred else ""))
            usable = (e.status or "ACTIVE").upper() not in ("INACTIVE", "CLOSED")
            edges.append(GraphEdge(e.source, e.target, title=title, color="#94A3B8" if usable else "#CBD5E1",
                                   width=1.0 + (0.8 if e.preferred else 0.0), dashes=not usable, arrows=False))
        else:
            edges.append(GraphEdge(e.source, e.target, title=f"{e.kind} bridge {e.source} ↔ {e.target}",
                                   color=bridge_color(e.kind), width=2.0, arrows=False))
    legend: list[tuple[str, str]] = [(PRIMARY, "Cosmos chain"), (CHAIN_TYPE_COLORS["evm"], "EVM chain"),
                                     ("#94A3B8", "IBC channel (dashed: inactive/closed)")]
    legend += [(bridge_color(k), f"{k} bridge") for k in sorted(kinds & set(BRIDGE_COLORS) - {"IBC"})]
    if kinds - set(BRIDGE_COLORS):
        legend.append((OTHER_BRIDGE_COLOR, "other bridge kinds"))
    return GraphSpec(tuple(nodes), tuple(edges), legend=tuple(legend), directed=False, edge_labels=False,
                     font_size=int(14 * max(1.0, scale / 800)))
