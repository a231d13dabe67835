"""Plotly figures shared by the dashboard and the notebooks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assetroute_core import FromSourceResult, Registry, drawing, load_registry
from assetroute_core.network import chain_graph, movable_matrix, top_chains

HOSTILE = Path(__file__).resolve().parent / "fixtures" / "hostile_registry"


def _bars(fig) -> dict[str, dict]:
    return {trace.name: trace for trace in fig.data}


def test_pairs_summary_counts_every_pair(registry: Registry) -> None:
    result = registry.assets_between_chains("cosmoshub-4", "osmosis-1", allow_multi_tx=True)
    fig = drawing.pairs_summary(result)
    assert sum(sum(trace.x) for trace in fig.data) == len(result.pairs)
    assert {trace.name for trace in fig.data} == {f"{t} tx" for t in {p.txs_required for p in result.pairs}}
    paths = {" → ".join(p.bridges) for p in result.pairs}
    assert set(fig.data[0].y) == paths
    assert fig.layout.barmode == "stack"


def test_pairs_summary_of_an_empty_result(registry: Registry) -> None:
    result = registry.assets_between_chains("cosmoshub-4", "osmosis-1")
    empty = type(result)(result.source_chain_id, result.dest_chain_id, ())
    fig = drawing.pairs_summary(empty)
    assert len(fig.data) == 0 and fig.layout.annotations[0].text == "no pairs"


def test_reach_figures_count_destination_chains(registry: Registry) -> None:
    result = registry.assets_from_source("uusdc", "noble-1", allow_multi_tx=True)
    chains = {d.asset.chain_id for d in result} - {"noble-1"}

    by_bridge = drawing.reach_by_bridge(result)
    bar = by_bridge.data[0]
    assert sum(bar.x) == len(chains)
    assert {"IBC", "CCTP"} <= set(bar.y)
    assert sum(bar.customdata) == sum(1 for d in result if d.asset.chain_id != "noble-1")

    by_txs = drawing.reach_by_txs(result)
    traces = _bars(by_txs)
    assert sum(traces["destination chains"].y) == len(chains)
    assert sum(traces["destination assets"].y) == sum(1 for d in result if d.asset.chain_id != "noble-1")
    assert list(traces["destination chains"].x) == ["1 tx", "2 tx"]


def test_reach_figures_need_routes(registry: Registry) -> None:
    remote = FromSourceResult.from_api(registry.assets_from_source("uatom", "cosmoshub-4").to_api())
    with pytest.raises(ValueError, match="no routes"):
        drawing.reach_by_bridge(remote)
    with pytest.raises(ValueError, match="no routes"):
        drawing.reach_by_txs(remote)


def test_movable_heatmap_shows_the_matrix(registry: Registry) -> None:
    ids = top_chains(chain_graph(registry), 4)
    matrix = movable_matrix(registry, ids)
    names = {c.chain_id: c.pretty_name for c in registry.chains()}
    fig = drawing.movable_heatmap(matrix, labels=names)
    heat = fig.data[0]
    assert list(heat.y) == [names[i] for i in ids] and list(heat.x) == [names[i] for i in ids]
    for i, row in enumerate(heat.z):
        for j, value in enumerate(row):
            expected = matrix.iloc[i, j]
            assert (value is None) if i == j else value == expected
    assert heat.text[0][1] == str(int(matrix.iloc[0, 1]))


def test_heatmap_labels_stay_unique() -> None:
    import pandas as pd

    matrix = pd.DataFrame([[None, 1.0], [2.0, None]], index=["a-1", "b-1"], columns=["a-1", "b-1"], dtype=float)
    fig = drawing.movable_heatmap(matrix, labels={"a-1": "Same", "b-1": "Same"})
    assert list(fig.data[0].x) == ["Same (a-1)", "Same (b-1)"]


def test_registry_text_is_escaped_in_figures() -> None:
    hostile = load_registry(HOSTILE)
    ids = [c.chain_id for c in hostile.chains()]
    names = {c.chain_id: c.pretty_name for c in hostile.chains()}
    figs = [
        drawing.movable_heatmap(movable_matrix(hostile, ids, allow_multi_tx=True), labels=names),
        drawing.pairs_summary(hostile.assets_between_chains(ids[0], ids[1], allow_multi_tx=True,
                                                            include_no_metadata_assets=True)),
        drawing.reach_by_txs(hostile.assets_from_source("ualpha", "alpha-1", allow_multi_tx=True)),
    ]
    for fig in figs:
        text = json.dumps(fig.to_plotly_json(), default=str)
        assert "<script" not in text and "<img" not in text, text[:500]
    heat = figs[0].data[0]
    assert any("&lt;script&gt;" in str(y) for y in heat.y)  # shown as text by plotly


def test_escape() -> None:
    assert drawing.escape_label('<a href="javascript:x">&</a>') == '&lt;a href="javascript:x"&gt;&amp;&lt;/a&gt;'
