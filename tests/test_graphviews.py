"""Graph views as data (routes, destinations, the chain network) and the offline pyvis adapter."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from assetroute_core import FromSourceResult, Registry, load_registry
from assetroute_core import drawing as gv
from assetroute_core.drawing._pyvis import to_html
from assetroute_core.network import chain_graph

REPO = Path(__file__).resolve().parents[1]
HOSTILE = REPO / "tests" / "fixtures" / "hostile_registry"
PAYLOADS = ("<script>window.__pwned", "<img src=x onerror", "<svg onload", "</script><script>")


@pytest.fixture(scope="module")
def hostile() -> Registry:
    return load_registry(HOSTILE)


def _usdc_inj_pair(registry: Registry):
    result = registry.assets_between_chains("cosmoshub-4", "osmosis-1", allow_multi_tx=True)
    return next(p for p in result.pairs if p.route is not None and "CCTP" in p.bridges)


# -- route graph -----------------------------------------------------------------------------------


def test_route_graph_follows_the_hops_and_marks_new_transactions(registry: Registry) -> None:
    pair = _usdc_inj_pair(registry)
    route = pair.route
    spec = gv.route_graph(route, labels={"cosmoshub-4": "Cosmos Hub"})
    assert len(spec.nodes) == len(route.hops) + 1
    assert len(spec.edges) == len(route.hops)
    assert spec.nodes[0].label == "Cosmos Hub"
    assert [n.label for n in spec.nodes[1:]] == [h.to_chain_id for h in route.hops]
    assert spec.positioned  # a fixed left-to-right layout
    # every IBC edge names its channel pair; the bridge hop names its kind
    for hop, edge in zip(route.hops, spec.edges, strict=True):
        if hop.kind == "IBC":
            assert f"{hop.channel} → {hop.counterparty_channel}" in edge.label
        else:
            assert hop.kind in edge.label
    restarts = [i for i, h in enumerate(route.hops) if h.new_tx and i > 0]
    assert restarts, "this USDC route needs a second transaction"
    for i, edge in enumerate(spec.edges):
        assert edge.dashes == (i in restarts)
        assert ("NEW TX" in edge.label) == (i in restarts)
        assert (edge.color == gv.TXS_COLORS[2]) == (i in restarts)
    assert f"tx {pair.txs_required}" in spec.edges[-1].label


def test_route_graph_of_a_single_ibc_hop(registry: Registry) -> None:
    pair = next(p for p in registry.assets_between_chains("cosmoshub-4", "osmosis-1").pairs
                if p.asset_on_source.denom == "uatom")
    spec = gv.route_graph(pair.route)
    assert [n.label for n in spec.nodes] == ["cosmoshub-4", "osmosis-1"]
    assert spec.edges[0].label.startswith("IBC channel-141 → channel-0")
    assert not spec.edges[0].dashes


# -- destination graph -----------------------------------------------------------------------------


def test_destination_graph_puts_the_source_in_the_centre(registry: Registry) -> None:
    result = registry.assets_from_source("uusdc", "noble-1", allow_multi_tx=True)
    spec = gv.destination_graph(result)
    centre = spec.node("src")
    assert (centre.x, centre.y) == (0.0, 0.0)
    dest_chains = {d.asset.chain_id for d in result} - {"noble-1"}
    assert len(spec.nodes) == 1 + len(dest_chains)
    assert len(spec.edges) == len(dest_chains)
    assert {e.source for e in spec.edges} == {"src"}
    labels = {n.id: n.label for n in spec.nodes}
    by_chain = {labels[e.target]: e for e in spec.edges}
    # colour = the fewest transactions any asset on that chain needs
    for cid, edge in by_chain.items():
        best = min(d.route.txs_required for d in result if d.asset.chain_id == cid)
        assert edge.color == gv.txs_color(best)
        assert edge.dashes == (best > 1)
    # one IBC hop: the edge is labelled with the channel; bridges name their kinds
    osmo = by_chain["osmosis-1"]
    assert osmo.label == "channel-1"
    arb = by_chain["42161"]
    assert "CCTP" in arb.label
    # hovering lists the assets
    assert "USDC" in arb.title and "0xaf88d065e77c8cC2239327C5EDb3A432268e5831" in arb.title


def test_destination_graph_without_routes_is_grey(registry: Registry) -> None:
    local = registry.assets_from_source("uatom", "cosmoshub-4")
    remote = FromSourceResult.from_api(local.to_api())
    spec = gv.destination_graph(remote, source_chain_id="cosmoshub-4")
    assert spec.node("src").label == "cosmoshub-4"
    assert len(spec.edges) == len(local.dest_assets)
    assert {e.color for e in spec.edges} == {gv.UNKNOWN_COLOR}
    assert {e.label for e in spec.edges} == {""}


# -- chain network ---------------------------------------------------------------------------------


def test_chain_network_graph_mirrors_the_chain_graph(registry: Registry) -> None:
    graph = chain_graph(registry)
    spec = gv.chain_network_graph(graph)
    assert [n.id for n in spec.nodes] == [n.chain_id for n in graph.nodes]
    assert len(spec.edges) == len(graph.edges)
    assert spec.positioned and not spec.directed
    sizes = {n.id: n.size for n in spec.nodes}
    assert sizes["osmosis-1"] > sizes["cosmoshub-4"] > min(sizes.values())
    kinds = {e.kind for e in graph.edges}
    assert "AXELAR" in kinds
    axelar = [e for e in spec.edges if "AXELAR bridge" in e.title]
    assert axelar and {e.color for e in axelar} == {gv.BRIDGE_COLORS["AXELAR"]}


def test_chain_network_graph_focus_and_inactive_channels(registry: Registry) -> None:
    graph = chain_graph(registry, include_inactive=True).neighbourhood("cosmoshub-4")
    spec = gv.chain_network_graph(graph, focus="cosmoshub-4")
    hub = spec.node("cosmoshub-4")
    assert hub.border_width == 4 and hub.size > gv.chain_network_graph(graph).node("cosmoshub-4").size
    inactive = [e for e in spec.edges if "status: INACTIVE" in e.title]
    assert inactive and all(e.dashes for e in inactive)


def test_layout_is_deterministic(registry: Registry) -> None:
    graph = chain_graph(registry)
    assert gv.chain_network_graph(graph) == gv.chain_network_graph(graph)


# -- the pyvis adapter -----------------------------------------------------------------------------


def _remote_refs(page: str) -> list[str]:
    return re.findall(r"""\b(?:src|href)\s*=\s*["']?\s*(?:https?:)?//[^"'\s>]*""", page, flags=re.IGNORECASE)


def test_render_html_is_self_contained_and_writes_nothing(registry: Registry, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    pair = _usdc_inj_pair(registry)
    page = gv.render_html(gv.route_graph(pair.route), height=300)
    assert list(tmp_path.iterdir()) == []  # no lib/ folder, no index.html
    assert page.lstrip().startswith("<html>")
    assert "new vis.Network(" in page and "vis-network" in page  # the library is inlined
    assert _remote_refs(page) == []  # nothing is fetched: bootstrap links removed
    assert "bootstrap" not in page.lower()
    assert 'height: 300px' in page
    assert "popup.innerHTML" not in page
    assert "injective-1" in page


def test_render_html_keeps_registry_text_inert(hostile: Registry) -> None:
    result = hostile.assets_from_source("ualpha", "alpha-1", allow_multi_tx=True)
    labels = {c.chain_id: c.pretty_name for c in hostile.chains()}
    pages = [gv.render_html(gv.destination_graph(result, labels=labels))]
    pair = hostile.assets_between_chains("alpha-1", hostile.chains()[1].chain_id, allow_multi_tx=True,
                                         include_no_metadata_assets=True).pairs[0]
    pages.append(gv.render_html(gv.route_graph(pair.route, labels=labels)))
    pages.append(gv.render_html(gv.chain_network_graph(chain_graph(hostile, include_inactive=True))))
    for page in pages:
        for payload in PAYLOADS:
            assert payload not in page, payload
        assert "javascript:window" not in page.split("<script>", 1)[0]  # nothing in markup before the data
        assert "popup.innerHTML" not in page
        assert _remote_refs(page) == []
    # the text is still there, JSON-escaped for the script block (<, > as \u003c, \u003e)
    assert "\\u003cscript\\u003ewindow.__pwned=1\\u003c/script\\u003e" in pages[0]


def test_href_in_a_tooltip_never_enables_the_html_popup() -> None:
    spec = gv.GraphSpec(nodes=(gv.GraphNode("a", "A", title='<a href="javascript:alert(1)">x</a>'),
                               gv.GraphNode("b", "B")), edges=(gv.GraphEdge("a", "b"),))
    page = to_html(spec)
    assert "popup.innerHTML" not in page
    assert "javascript:alert(1)" in page.replace("\\u003c", "<")  # kept as text (JSON data), not markup
    assert '<a href="javascript' not in page


def test_bad_colours_and_shapes_are_replaced() -> None:
    spec = gv.GraphSpec(nodes=(gv.GraphNode("a", "A", color="red;background:url(x)", shape="image"),), edges=())
    page = to_html(spec)
    assert "url(x)" not in page
    assert '"shape": "dot"' in page


def test_only_the_adapter_imports_pyvis_and_the_core_never_imports_streamlit() -> None:
    core = REPO / "assetroute_core"
    importers = sorted(str(p.relative_to(core)) for p in core.rglob("*.py")
                       if re.search(r"^\s*(from|import) pyvis", p.read_text(), flags=re.MULTILINE))
    assert importers == ["drawing/_pyvis.py"]
    streamlit = sorted(p.name for p in core.rglob("*.py") if re.search(r"^\s*(from|import) streamlit",
                                                                       p.read_text(), flags=re.MULTILINE))
    assert streamlit == []
    code = ("import sys, assetroute_core, assetroute_core.drawing, assetroute_core.drawing._pyvis, "
            "assetroute_core.network, assetroute_app; "
            "assert 'streamlit' not in sys.modules, 'streamlit imported'")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO)


def test_preload_view_libraries_imports_what_result_pages_need():
    import subprocess
    import sys

    code = ("import sys; from assetroute_app import preload_view_libraries; "
            "before = {m for m in ('pandas', 'plotly.express', 'pyvis.network') if m in sys.modules}; "
            "preload_view_libraries(); "
            "print(sorted(before), "
            "sorted(m for m in ('pandas', 'plotly.express', 'pyvis.network') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "[] ['pandas', 'plotly.express', 'pyvis.network']"
