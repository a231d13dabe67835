"""Plotly figures of lookup results, shared by the dashboard pages and the notebooks.

Every function takes a result (or a matrix) and keyword-only options and returns a
:class:`plotly.graph_objects.Figure`.  Registry text (chain-ids, symbols, bridge kinds) is
escaped before it reaches plotly, whose labels understand a little HTML (``<b>``, ``<br>``,
``<a href>``): ``<script>`` in a symbol is shown as text, never interpreted.

* :func:`pairs_summary` – pairs of ``assets_between_chains`` by bridge path and ``txs_required``;
* :func:`reach_by_bridge` – destination chains of ``assets_from_source`` by bridge kind;
* :func:`reach_by_txs` – destination chains and assets by ``txs_required``;
* :func:`movable_heatmap` – a source × destination matrix of pair counts
  (:func:`assetroute_core.network.movable_matrix`).

Colours come from :mod:`assetroute_core.drawing._spec`, shared with the graph views.

The route-based figures need results computed by the embedded registry (results read from
a remote service carry no routes); they raise :class:`ValueError` otherwise.
"""

from __future__ import annotations

import html
import math
from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ._spec import PRIMARY, bridge_color, txs_color

if TYPE_CHECKING:
    import pandas as pd
    import plotly.graph_objects as go

    from .._results import BetweenChainsResult, DestAsset, FromSourceResult

__all__ = ["escape_label", "movable_heatmap", "pairs_summary", "reach_by_bridge", "reach_by_txs"]

_FONT = "Source Sans 3, Source Sans Pro, system-ui, sans-serif"


def escape_label(text: object) -> str:
    """Text for a plotly label: ``<``, ``>`` and ``&`` escaped (plotly shows them as typed).

    >>> escape_label("<b>ATOM</b> & co")
    '&lt;b&gt;ATOM&lt;/b&gt; &amp; co'
    """
    return html.escape(str(text), quote=False)


def _layout(fig: go.Figure, *, title: str | None, height: int) -> go.Figure:
    fig.update_layout(
        title={"text": escape_label(title), "x": 0, "xanchor": "left", "font": {"size": 15}} if title else None,
        height=height,
        margin={"l": 8, "r": 8, "t": 40 if title else 10, "b": 8},
        font={"family": _FONT, "size": 13},
        template="plotly_white",
        legend={"orientation": "h", "yanchor": "top", "y": -0.22, "xanchor": "left", "x": 0},
        bargap=0.25,
    )
    return fig


def _label_margin(labels: list[str]) -> int:
    """Left margin (px) that fits the longest category label."""
    return min(20 + 7 * max((len(str(x)) for x in labels), default=0), 320)


def _txs_bucket(txs: int) -> str:
    return f"{txs} tx" if txs < 3 else "3+ tx"


def _require_routes(items: list[DestAsset]) -> None:
    if items and all(d.route is None for d in items):
        raise ValueError("this result carries no routes (it was read from a remote service); "
                         "reach figures need results from the embedded registry")


def pairs_summary(result: BetweenChainsResult, *, title: str | None = "Pairs by bridge path",
                  height: int = 300) -> go.Figure:
    """Horizontal stacked bars: how many pairs use each bridge path, split by ``txs_required``.

    Uses only API fields (``bridges``, ``txs_required``), so it works for every backend.
    """
    import plotly.graph_objects as go

    counts: Counter[tuple[str, int]] = Counter((" → ".join(p.bridges) or "—", p.txs_required) for p in result.pairs)
    paths = sorted({k[0] for k in counts}, key=lambda s: (-sum(v for (p, _), v in counts.items() if p == s), s))
    fig = go.Figure()
    for txs in sorted({k[1] for k in counts}):
        xs = [counts.get((path, txs), 0) for path in paths]
        fig.add_bar(
            y=[escape_label(p) for p in paths], x=xs, orientation="h", name=_txs_bucket(txs),
            marker_color=txs_color(txs), text=[str(x) if x else "" for x in xs], textposition="inside",
            hovertemplate="%{y}<br>%{x} pair(s), " + escape_label(_txs_bucket(txs)) + "<extra></extra>",
        )
    fig.update_layout(barmode="stack", yaxis={"autorange": "reversed", "title": None, "automargin": True},
                      xaxis={"title": "pairs"})
    if not counts:
        fig.add_annotation(text="no pairs", showarrow=False, x=0.5, y=0.5, xref="paper", yref="paper")
    _layout(fig, title=title, height=max(height, 90 + 34 * len(paths)))
    fig.update_layout(margin={"l": _label_margin(paths)})
    return fig


def _best_per_chain(result: FromSourceResult) -> dict[str, tuple[Any, int]]:
    """chain-id → (best route, number of assets on that chain)."""
    out: dict[str, tuple[Any, int]] = {}
    source = result.source.chain_id if result.source is not None else None
    per: dict[str, list[DestAsset]] = {}
    for d in result:
        if d.asset.chain_id != source:
            per.setdefault(d.asset.chain_id, []).append(d)
    for cid, items in per.items():
        routes = [d.route for d in items if d.route is not None]
        best = min(routes, key=lambda r: (r.txs_required, r.operations, len(r.hops))) if routes else None
        out[cid] = (best, len(items))
    return out


def _kind(route: Any) -> str:
    bridges = [b for b in route.bridges if b != "IBC"]
    return bridges[0] if bridges else "IBC"


def reach_by_bridge(result: FromSourceResult, *, title: str | None = "Destinations by bridge kind",
                    height: int = 300) -> go.Figure:
    """Bars: destination chains (and their assets) by the bridge kind of the best route.

    A chain reached over IBC only counts as ``IBC``; one whose best route crosses Axelar
    as ``AXELAR``, and so on.  Raises :class:`ValueError` for a result without routes.
    """
    import plotly.graph_objects as go

    _require_routes(list(result))
    chains: Counter[str] = Counter()
    assets: Counter[str] = Counter()
    for best, n in _best_per_chain(result).values():
        if best is None:
            continue
        kind = _kind(best)
        chains[kind] += 1
        assets[kind] += n
    kinds = sorted(chains, key=lambda k: (-chains[k], k))
    fig = go.Figure(go.Bar(
        x=[chains[k] for k in kinds], y=[escape_label(k) for k in kinds], orientation="h",
        marker_color=[bridge_color(k) if k != "IBC" else PRIMARY for k in kinds],
        text=[str(chains[k]) for k in kinds], textposition="auto",
        customdata=[assets[k] for k in kinds],
        hovertemplate="%{y}: %{x} chain(s), %{customdata} asset(s)<extra></extra>",
        name="destination chains",
    ))
    fig.update_layout(yaxis={"autorange": "reversed", "title": None, "automargin": True},
                      xaxis={"title": "destination chains"},
                      showlegend=False)
    if not kinds:
        fig.add_annotation(text="no destinations", showarrow=False, x=0.5, y=0.5, xref="paper", yref="paper")
    _layout(fig, title=title, height=max(height, 90 + 40 * len(kinds)))
    fig.update_layout(margin={"l": _label_margin(kinds)})
    return fig


def reach_by_txs(result: FromSourceResult, *, title: str | None = "Destinations by transactions needed",
                 height: int = 300) -> go.Figure:
    """Grouped bars: destination chains and destination assets by ``txs_required``.

    A chain counts under the fewest transactions any of its assets needs; each asset under
    its own route's count.  Raises :class:`ValueError` for a result without routes.
    """
    import plotly.graph_objects as go

    items = list(result)
    _require_routes(items)
    source = result.source.chain_id if result.source is not None else None
    chain_counts: Counter[int] = Counter(best.txs_required for best, _ in _best_per_chain(result).values()
                                         if best is not None)
    asset_counts: Counter[int] = Counter(d.route.txs_required for d in items
                                         if d.route is not None and d.asset.chain_id != source)
    keys = sorted(set(chain_counts) | set(asset_counts))
    labels = [_txs_bucket(k) if k < 3 else f"{k} tx" for k in keys]
    fig = go.Figure()
    fig.add_bar(x=labels, y=[chain_counts.get(k, 0) for k in keys], name="destination chains",
                marker_color=[txs_color(k) for k in keys], text=[str(chain_counts.get(k, 0)) for k in keys],
                textposition="auto", hovertemplate="%{x}: %{y} chain(s)<extra></extra>")
    fig.add_bar(x=labels, y=[asset_counts.get(k, 0) for k in keys], name="destination assets",
                marker_color=[txs_color(k) for k in keys], marker_pattern_shape="/", opacity=0.55,
                text=[str(asset_counts.get(k, 0)) for k in keys], textposition="auto",
                hovertemplate="%{x}: %{y} asset(s)<extra></extra>")
    fig.update_layout(barmode="group", xaxis={"title": None, "type": "category"}, yaxis={"title": "count"})
    if not keys:
        fig.add_annotation(text="no destinations", showarrow=False, x=0.5, y=0.5, xref="paper", yref="paper")
    return _layout(fig, title=title, height=height)


def movable_heatmap(matrix: pd.DataFrame, *, labels: Mapping[str, str] | None = None,
                    title: str | None = "Assets that can move between the most connected chains",
                    height: int | None = None) -> go.Figure:
    """Heatmap of a source × destination matrix of pair counts (NaN diagonal left blank).

    *labels* maps chain-ids to display names for the axes; hovering names both chain-ids.
    """
    import plotly.graph_objects as go

    rows = [str(i) for i in matrix.index]
    cols = [str(c) for c in matrix.columns]

    shown = {cid: (labels.get(cid, cid) if labels else cid) for cid in {*rows, *cols}}
    clashes = {v for v in shown.values() if list(shown.values()).count(v) > 1}

    def name(cid: str) -> str:  # display names must stay unique: plotly merges equal categories
        text = shown[cid]
        return escape_label(f"{text} ({cid})" if text in clashes and text != cid else text)

    z = [[None if (v is None or (isinstance(v, float) and math.isnan(v))) else float(v) for v in row]
         for row in matrix.to_numpy().tolist()]
    text = [["" if v is None else f"{int(v)}" for v in row] for row in z]
    hover = [[f"{escape_label(r)} → {escape_label(c)}" for c in cols] for r in rows]
    fig = go.Figure(go.Heatmap(
        z=z, x=[name(c) for c in cols], y=[name(r) for r in rows], text=text, texttemplate="%{text}",
        customdata=hover, hovertemplate="%{customdata}<br>%{z} pair(s)<extra></extra>",
        colorscale=[[0, "#F1F5F9"], [0.35, "#A5B4FC"], [1, PRIMARY]], xgap=2, ygap=2,
        colorbar={"title": {"text": "pairs"}, "thickness": 12},
    ))
    fig.update_layout(xaxis={"title": "destination", "side": "bottom", "tickangle": -35},
                      yaxis={"title": "source", "autorange": "reversed"})
    size = len(rows)
    return _layout(fig, title=title, height=height or max(360, 140 + 34 * size))

