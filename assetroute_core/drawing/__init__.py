"""Drawing: graph views and plotly figures of lookup results (the optional ``viz`` extra).

Kept apart from the engine the way networkx keeps ``networkx.drawing`` apart from its
algorithms: the loader, routing and lookups never import this package, and this package
only reads their public results.  It needs ``plotly``, ``pyvis`` and ``networkx``
(``pip install assetroute[viz]``), each imported when first used.

Modules (imports go one way: ``_views`` → ``_pyvis`` → ``_spec`` ← ``_figures``)

``_spec``
    :class:`GraphSpec` and its nodes and edges, and the palette shared by graphs and figures.
``_views``
    :func:`route_graph`, :func:`destination_graph`, :func:`chain_network_graph` (graphs as
    data) and :func:`render_html` (a spec as a self-contained, offline HTML page).
``_pyvis``
    The one adapter to pyvis; replace it to change the graph library.
``_figures``
    :func:`pairs_summary`, :func:`reach_by_bridge`, :func:`reach_by_txs`,
    :func:`movable_heatmap` (plotly figures) and :func:`escape_label`.

>>> from assetroute_core.drawing import GraphEdge, GraphNode, GraphSpec, txs_color
>>> GraphSpec((GraphNode("a", "A"),), (GraphEdge("a", "a"),)).positioned, txs_color(1)
(False, '#16A34A')
"""

from ._figures import escape_label, movable_heatmap, pairs_summary, reach_by_bridge, reach_by_txs
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
from ._views import chain_network_graph, destination_graph, render_html, route_graph

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
    "chain_network_graph",
    "destination_graph",
    "escape_label",
    "movable_heatmap",
    "pairs_summary",
    "reach_by_bridge",
    "reach_by_txs",
    "render_html",
    "route_graph",
    "txs_color",
]
