"""Graphs as plain data, and the palette every view and figure shares.

:class:`GraphSpec` (nodes, edges, a legend, layout hints) is what the views of
:mod:`assetroute_core.drawing._views` build and what the one renderer
(:mod:`assetroute_core.drawing._pyvis`) draws; the colours live here so that the graph
views and the plotly figures (:mod:`assetroute_core.drawing._figures`) agree without
importing each other.  This module imports nothing else of the package: it is the bottom
of the drawing layer, so the layer has no import cycle.

>>> spec = GraphSpec(nodes=(GraphNode("a", "A"), GraphNode("b", "B")), edges=(GraphEdge("a", "b", "IBC"),))
>>> [n.id for n in spec.nodes], spec.edges[0].label
(['a', 'b'], 'IBC')
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "BRIDGE_COLORS",
    "CHAIN_TYPE_COLORS",
    "OTHER_BRIDGE_COLOR",
    "OTHER_CHAIN_COLOR",
    "PRIMARY",
    "TXS_COLORS",
    "UNKNOWN_COLOR",
    "GraphEdge",
    "GraphNode",
    "GraphSpec",
    "bridge_color",
    "txs_color",
]

# -- palette (shared by the graph views and the figures) --------------------------------------------

PRIMARY = "#4F46E5"
TXS_COLORS = {1: "#16A34A", 2: "#F59E0B", 3: "#DC2626"}
UNKNOWN_COLOR = "#94A3B8"
BRIDGE_COLORS = {"IBC": "#64748B", "AXELAR": "#F97316", "CCTP": "#0EA5E9", "EUREKA": "#E11D48"}
OTHER_BRIDGE_COLOR = "#A855F7"
CHAIN_TYPE_COLORS = {"cosmos": PRIMARY, "evm": "#0EA5E9"}
OTHER_CHAIN_COLOR = "#94A3B8"


def txs_color(txs: int | None) -> str:
    """Colour for a transaction count: green 1, amber 2, red 3 or more, grey unknown.

    >>> txs_color(1), txs_color(5), txs_color(None)
    ('#16A34A', '#DC2626', '#94A3B8')
    """
    if txs is None:
        return UNKNOWN_COLOR
    return TXS_COLORS.get(txs, TXS_COLORS[3]) if txs >= 1 else UNKNOWN_COLOR


def bridge_color(kind: str) -> str:
    """Colour of a bridge kind (IBC grey, AXELAR orange, CCTP blue, EUREKA red, others violet)."""
    return BRIDGE_COLORS.get(kind, OTHER_BRIDGE_COLOR)


# -- the spec --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GraphNode:
    """A node: ``id`` is internal; ``label`` and ``title`` (tooltip) are shown as plain text."""

    id: str
    label: str
    title: str = ""
    color: str = PRIMARY
    size: float = 16.0
    shape: str = "dot"
    x: float | None = None
    y: float | None = None
    border_color: str | None = None
    border_width: int = 1


@dataclass(frozen=True, slots=True)
class GraphEdge:
    """An edge between two node ids; ``label`` and ``title`` are shown as plain text."""

    source: str
    target: str
    label: str = ""
    title: str = ""
    color: str = UNKNOWN_COLOR
    width: float = 1.5
    dashes: bool = False
    arrows: bool = True


@dataclass(frozen=True, slots=True)
class GraphSpec:
    """A graph as data: nodes, edges, a legend of ``(colour, meaning)`` and layout hints.

    When every node has ``x``/``y`` the renderer keeps the layout fixed (no physics).
    """

    nodes: tuple[GraphNode, ...]
    edges: tuple[GraphEdge, ...]
    legend: tuple[tuple[str, str], ...] = ()
    directed: bool = True
    edge_labels: bool = True
    font_size: int = 14

    @property
    def positioned(self) -> bool:
        return bool(self.nodes) and all(n.x is not None and n.y is not None for n in self.nodes)

    def node(self, node_id: str) -> GraphNode:
        for n in self.nodes:
            if n.id == node_id:
                return n
        raise KeyError(node_id)
