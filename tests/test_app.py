"""The Streamlit dashboard, driven in-process with ``streamlit.testing.v1.AppTest``.

Every page is run against the real registry snapshot: forms are filled with real chains and
assets and submitted, and the rendered results are compared with the lookups themselves.
Bad links must produce a message, never an exception.  The URL-state, escaping and table
helpers of :mod:`assetroute_app` are tested directly at the end.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from assetroute_app import (
    FROM_SOURCE_COLUMNS,
    BetweenQuery,
    FromSourceQuery,
    NetworkQuery,
    between_table,
    md_code,
    md_escape,
    order_by_symbol,
    safe_logo,
    serving,
    validate_base_url,
)
from assetroute_app.frontend import RESULT_CHUNKS, WARM_UP_PATH, result_chunks
from assetroute_app.ui import CHARTS_READY
from assetroute_core import BetweenChainsOptions, Registry, load_registry
from assetroute_core.network import chain_graph

REPO = Path(__file__).resolve().parents[1]
APP = str(REPO / "app.py")
HOSTILE = REPO / "tests" / "fixtures" / "hostile_registry"
PAGES = {"between": "pages/between_chains.py", "from_source": "pages/from_source.py", "network": "pages/network.py"}

MakeApp = Callable[..., AppTest]


@pytest.fixture
def make_app(registry_path: Path, monkeypatch: pytest.MonkeyPatch) -> MakeApp:
    """``make_app(page, **query_params)`` → an AppTest that has run once on that page."""

    def make(page: str = "between", *, registry: Path | None = None, run: bool = True, charts: bool = True,
             **params: str | list[str]) -> AppTest:
        """*charts*: the tab has already drawn charts, so an answer draws them in the same run (no browser
        here reports the table painted; see ``test_first_answer_draws_its_table_before_the_charts``)."""
        monkeypatch.setenv("ASSETROUTE_REGISTRY", str(registry or registry_path))
        at = AppTest.from_file(APP, default_timeout=90)
        if charts:
            at.session_state[CHARTS_READY] = True
        for key, value in params.items():
            at.query_params[key] = value
        at.switch_page(PAGES[page])
        return at.run() if run else at

    return make


def no_exception(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.main.metric}


def messages(at: AppTest, kind: str = "error") -> list[str]:
    return [m.value for m in getattr(at.main, kind)]


def table(at: AppTest, prefix: str) -> pd.DataFrame:
    """The results table of a page: ``bc_table…`` (keyed, selectable) or ``fs_table`` (found by its columns)."""
    if prefix == "fs_table":
        found = [d for d in at.main.dataframe if {"group", "denom", "origin_denom"} <= set(d.value.columns)]
    else:
        found = [d for d in at.main.dataframe if d.key and d.key.startswith(prefix)]
    assert len(found) == 1, [d.key for d in at.main.dataframe]
    return found[0].value


def iframes(at: AppTest) -> list[str]:
    return [e.proto.srcdoc for e in at.main.get("iframe")]


def submit(at: AppTest, form: str, label: str) -> AppTest:
    return at.button(key=f"FormSubmitter:{form}-{label}").click().run()


# -- shell -------------------------------------------------------------------------------------------


def test_sidebar_shows_provenance_counts_and_quality(make_app: MakeApp, registry: Registry) -> None:
    at = make_app()
    no_exception(at)
    side = "\n".join(m.value for m in at.sidebar.markdown)
    p = registry.provenance
    assert p.commit and p.commit[:12] in side
    assert p.fingerprint[:16] in side
    assert "directory" in side
    counts = {m.label: m.value for m in at.sidebar.metric}
    assert counts["Routable chains"] == str(dict(p.counts)["routable_chains"])
    labels = [e.label for e in at.sidebar.expander]
    assert f"Data-quality warnings ({len(registry.quality)})" in labels
    # the expanders draw their tables when opened: the landing page has no data grid at all
    assert not at.sidebar.dataframe and not at.main.dataframe
    at.session_state["sidebar_quality"] = True  # what opening it in a browser sets
    at.session_state["sidebar_counts"] = True
    at.run()
    assert {"count"} in [set(d.value.columns) for d in at.sidebar.dataframe]
    quality = next(d.value for d in at.sidebar.dataframe if {"severity", "file", "problem", "action"} <= set(
        d.value.columns))
    # only the first QUALITY_SHOWN issues reach the page, most severe first; the rest is a download
    assert len(quality) == min(len(registry.quality), 20) and len(registry.quality) > 20
    severity = [getattr(q, "severity", "warning") for q in registry.quality]
    rank = {"error": 0, "warning": 1, "info": 2}
    first = min(range(len(severity)), key=lambda i: (rank[severity[i]], i))
    assert quality.iloc[0]["file"] == registry.quality[first].file
    assert list(quality["severity"]) == sorted(quality["severity"], key=rank.__getitem__)
    side_text = "\n".join(m.value for m in at.sidebar.markdown)
    for level in ("error", "warning", "info"):
        n = severity.count(level)
        assert (f"**{n}** {level}" in side_text) == (n > 0)
    downloads = {b.label for b in at.sidebar.get("download_button")}
    assert {"CSV", "JSON"} <= downloads, downloads
    assert [r.label for r in at.sidebar.radio] == ["Chains", "Answer lookups with"]  # world, then backend


def test_root_draws_the_first_page_in_place(registry_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            registry: Registry) -> None:
    """``/`` (an old ``/?…`` link too) draws Between chains itself: no hop to ``/between_chains``."""
    monkeypatch.setenv("ASSETROUTE_REGISTRY", str(registry_path))
    at = AppTest.from_file(APP, default_timeout=90)
    at.session_state[CHARTS_READY] = True
    at.query_params["source_chain_id"] = "cosmoshub-4"
    at.query_params["dest_chain_id"] = "osmosis-1"
    at.run()
    no_exception(at)
    assert at.main.title[0].value == "Assets between chains"
    assert len(table(at, "bc_table")) == len(registry.assets_between_chains("cosmoshub-4", "osmosis-1"))
    assert dict(at.query_params) == {"source_chain_id": "cosmoshub-4", "dest_chain_id": "osmosis-1"}
    assert "Routable chains" in {m.label for m in at.sidebar.metric}  # the frame is drawn once, in place


def test_navigation_lists_the_three_pages(make_app: MakeApp) -> None:
    for page, title in (("between", "Assets between chains"), ("from_source", "Where can this asset go?"),
                        ("network", "Chain network")):
        at = make_app(page)
        no_exception(at)
        assert at.main.title[0].value == title


# -- Between chains ----------------------------------------------------------------------------------


def test_between_chains_form(make_app: MakeApp, registry: Registry) -> None:
    at = make_app()
    assert "press **Find assets**" in messages(at, "info")[0]
    at.selectbox(key="bc_source").set_value("cosmoshub-4")
    at.selectbox(key="bc_dest").set_value("osmosis-1")
    at.checkbox(key="bc_allow_multi_tx").check()
    submit(at, "bc_form", "Find assets")
    no_exception(at)
    expected = registry.assets_between_chains("cosmoshub-4", "osmosis-1", allow_multi_tx=True)
    m = metrics(at)
    assert m["Pairs"] == str(len(expected.pairs))
    assert m["1 transaction"] == str(sum(p.txs_required == 1 for p in expected.pairs))
    assert m["2+ transactions"] == str(sum(p.txs_required > 1 for p in expected.pairs))
    rows = table(at, "bc_table")
    assert list(rows["source_denom"]) == [p.asset_on_source.denom for p in expected.pairs]
    assert list(rows["dest_denom"]) == [p.asset_on_dest.denom for p in expected.pairs]
    assert list(rows["txs_required"]) == [p.txs_required for p in expected.pairs]
    assert "uatom" in set(rows["source_denom"])
    # the URL now reproduces the request
    assert dict(at.query_params) == {"source_chain_id": "cosmoshub-4", "dest_chain_id": "osmosis-1",
                                     "allow_multi_tx": "true"}
    # exact API response (drawn when its expander is opened) and downloads
    assert not at.main.json
    at.session_state["bc_api"] = True
    at.run()
    assert json.loads(at.main.json[0].value) == json.loads(expected.to_json())
    assert [b.label for b in at.main.get("download_button")] == ["Download CSV", "Download JSON"]
    # the bridge path of the first row is drawn, with its channel
    graphs = iframes(at)
    assert len(graphs) == 1 and "new vis.Network(" in graphs[0]
    first = expected.pairs[0].route.hops[0]
    assert first.channel in graphs[0]
    assert len(at.main.get("plotly_chart")) == 1


def test_between_chains_link_reproduces_the_query(make_app: MakeApp, registry: Registry) -> None:
    expected = registry.assets_between_chains("cosmoshub-4", "osmosis-1", allow_multi_tx=True)
    pair = next(i for i, p in enumerate(expected.pairs) if "CCTP" in p.bridges)
    at = make_app(source_chain_id="cosmoshub-4", dest_chain_id="osmosis-1", allow_multi_tx="true", pair=str(pair))
    no_exception(at)
    assert not messages(at)
    # the widgets show the link's request and the results are there without submitting
    assert at.selectbox(key="bc_source").value == "cosmoshub-4"
    assert at.selectbox(key="bc_dest").value == "osmosis-1"
    assert at.checkbox(key="bc_allow_multi_tx").value is True
    assert len(table(at, "bc_table")) == len(expected.pairs)
    # the selected pair's bridge path: every hop of its route is in the graph
    graph = iframes(at)[0]
    for hop in expected.pairs[pair].route.hops:
        assert hop.to_chain_id in graph
    assert "CCTP" in graph and "NEW TX" in graph
    assert any(expected.pairs[pair].asset_on_dest.denom in m for m in (x.value for x in at.main.markdown))


@pytest.mark.parametrize(("page", "params", "plots", "pending"), [
    ("between", {"source_chain_id": "cosmoshub-4", "dest_chain_id": "osmosis-1"}, 1,
     "Drawing the bridge path and the chart…"),
    ("from_source", {"source_asset_chain_id": "noble-1", "source_asset_denom": "uusdc"}, 2,
     "Drawing the destination graph and the reach charts…"),
])
def test_first_answer_draws_its_table_before_the_charts(make_app: MakeApp, page: str, params: dict[str, str],
                                                        plots: int, pending: str) -> None:
    at = make_app(page, charts=False, **params)  # a fresh tab: its first answer
    no_exception(at)
    assert len(table(at, "bc_table" if page == "between" else "fs_table")) > 0
    assert not at.main.get("plotly_chart") and not iframes(at)
    assert pending in [c.value for c in at.main.caption]
    signals = at.main.get("bidi_component")
    assert len(signals) == 1
    assert "data-grid-canvas" in str(signals[0].proto)  # it waits for the results grid's rows
    at.session_state[CHARTS_READY] = True  # what the signal's callback sets once the table has painted
    at.run()
    no_exception(at)
    assert len(at.main.get("plotly_chart")) == plots and len(iframes(at)) == 1
    assert not at.main.get("bidi_component")
    assert not any(c.value.startswith("Drawing the") for c in at.main.caption)


def test_settled_page_warms_up_the_tab_and_the_server(make_app: MakeApp) -> None:
    chunks = result_chunks()
    assert [c.split(".")[0] for c in chunks] == list(RESULT_CHUNKS)  # each found exactly once
    assert not any(c.startswith("PlotlyChart") for c in chunks)  # 0.8 s in one task: never ahead of a click
    at = make_app()
    scripts = [h.proto.body for h in at.sidebar.get("html")]
    assert len(scripts) == 1 and "<script>" in scripts[0]
    for needle in (*chunks, WARM_UP_PATH):
        assert f'"{needle}"' in scripts[0]
    # the route the script posts to: 204, and the import of the result pages' libraries starts once
    import asyncio

    import httpx
    from starlette.applications import Starlette

    async def request(method: str, path: str) -> int:
        transport = httpx.ASGITransport(app=Starlette(routes=serving.routes()))
        async with httpx.AsyncClient(transport=transport, base_url="http://dashboard") as client:
            return (await client.request(method, path)).status_code

    def call(method: str, path: str = "/" + WARM_UP_PATH) -> int:
        return asyncio.run(request(method, path))

    assert call("POST") == 204
    assert serving.start_view_warm_up() is False  # already started, by the request above or earlier
    assert call("POST", "/behind/a/proxy/" + WARM_UP_PATH) == 204  # under server.baseUrlPath
    assert call("GET") == 405
    assert call("POST", "/_assetroute/other") == 404


def test_between_chains_grouped_by_symbol(make_app: MakeApp, registry: Registry) -> None:
    at = make_app(source_chain_id="osmosis-1", dest_chain_id="cosmoshub-4", order="symbol")
    no_exception(at)
    rows = table(at, "bc_table")
    expected = order_by_symbol(between_table(registry.assets_between_chains("osmosis-1", "cosmoshub-4")))
    assert list(rows["#"]) == list(expected["#"])
    symbols = [s for s in rows["recommended_symbol"] if s]
    assert symbols == sorted(symbols, key=str.casefold)


@pytest.mark.parametrize(("params", "needle"), [
    ({"source_chain_id": "no-such-chain-1", "dest_chain_id": "osmosis-1"}, "`no-such-chain-1`"),
    ({"source_chain_id": "cosmoshub-4", "dest_chain_id": "osmosis-1", "allow_multi_tx": "maybe"}, "`maybe`"),
    ({"source_chain_id": "cosmoshub-4", "dest_chain_id": "cosmoshub-4"}, "must differ"),
    ({"source_chain_id": "<script>alert(1)</script>", "dest_chain_id": "osmosis-1"}, "`<script>alert(1)</script>`"),
])
def test_between_chains_bad_link_shows_a_message(make_app: MakeApp, params: dict[str, str], needle: str) -> None:
    at = make_app(**params)
    no_exception(at)
    errors = messages(at)
    assert len(errors) == 1 and "This link could not be used" in errors[0] and needle in errors[0]
    assert not [d for d in at.main.dataframe if d.key and d.key.startswith("bc_table")]


def test_between_chains_stale_pair_is_a_warning(make_app: MakeApp) -> None:
    at = make_app(source_chain_id="cosmoshub-4", dest_chain_id="osmosis-1", pair="999")
    no_exception(at)
    assert any("`999`" in w for w in messages(at, "warning"))
    assert len(table(at, "bc_table")) > 0


# -- From source ---------------------------------------------------------------------------------


def test_from_source_form(make_app: MakeApp, registry: Registry) -> None:
    at = make_app("from_source")
    no_exception(at)
    at.selectbox(key="fs_chain").set_value("noble-1").run()  # the asset picker follows the chain
    denoms = at.selectbox(key="fs_denom").options
    assert len(denoms) == len(registry.assets("noble-1"))
    at.selectbox(key="fs_denom").set_value("uusdc")
    at.checkbox(key="fs_allow_multi_tx").check()
    submit(at, "fs_form", "Find destinations")
    no_exception(at)
    expected = registry.assets_from_source("uusdc", "noble-1", allow_multi_tx=True)
    chains = {d.asset.chain_id for d in expected}
    m = metrics(at)
    assert m["Destination assets"] == str(len(expected))
    assert m["Destination chains"] == str(len(chains))
    rows = table(at, "fs_table")
    assert list(rows["denom"]) == [d.asset.denom for d in expected]
    # group labels name chains as the pickers do: pretty name with the chain-id beside it
    pickers = at.selectbox(key="fs_chain")
    assert list(rows["group"]) == [pickers.format_func(k) for k, items in expected.groups for _ in items]
    assert rows["group"][0].endswith(f" · {expected.groups[0][0]}")
    assert set(rows["bridges"]) >= {"IBC", "CCTP"}
    graph = iframes(at)[0]
    assert "42161" in graph and "channel-1" in graph
    assert len(at.main.get("plotly_chart")) == 2
    assert dict(at.query_params) == {"source_asset_chain_id": "noble-1", "source_asset_denom": "uusdc",
                                     "allow_multi_tx": "true"}


def test_from_source_every_request_field(make_app: MakeApp, registry: Registry) -> None:
    at = make_app("from_source")
    at.selectbox(key="fs_chain").set_value("cosmoshub-4").run()
    at.selectbox(key="fs_denom").set_value("uatom")
    at.checkbox(key="fs_allow_multi_tx").check()
    at.checkbox(key="fs_native_only").uncheck()
    at.checkbox(key="fs_include_cw20_assets").check()
    at.selectbox(key="fs_reason").set_value("DIRECT")
    at.radio(key="fs_group_by").set_value("recommended_symbol")
    at.checkbox(key="fs_include_swaps").check()
    at.multiselect(key="fs_venues").set_value(["osmosis-poolmanager"])
    submit(at, "fs_form", "Find destinations")
    no_exception(at)
    venue = next(v for v, _ in registry.overlay.swap_venues if v.name == "osmosis-poolmanager")
    expected = registry.assets_from_source("uatom", "cosmoshub-4", allow_multi_tx=True, recommendation_reason="DIRECT",
                                           include_swaps=True, swap_venues=[venue], group_by="recommended_symbol",
                                           include_cw20_assets=True)
    rows = table(at, "fs_table")
    assert list(rows["denom"]) == [d.asset.denom for d in expected]
    assert list(rows["group"]) == [k for k, items in expected.groups for _ in items]
    assert len(rows) > len(registry.assets_from_source("uatom", "cosmoshub-4", allow_multi_tx=True))  # swaps add
    assert dict(at.query_params) == {
        "source_asset_chain_id": "cosmoshub-4", "source_asset_denom": "uatom", "allow_multi_tx": "true",
        "include_swaps": "true", "include_cw20_assets": "true", "recommendation_reason": "DIRECT",
        "swap_venues": "osmosis-poolmanager", "group_by": "recommended_symbol"}


def test_from_source_link_with_native_only(make_app: MakeApp, registry: Registry) -> None:
    at = make_app("from_source", source_asset_chain_id="osmosis-1", source_asset_denom="uosmo",
                  native_only="true", recommendation_reason="BASE_TOKEN")
    no_exception(at)
    expected = registry.assets_from_source("uosmo", "osmosis-1", native_only=True, recommendation_reason="BASE_TOKEN")
    assert metrics(at)["Destination assets"] == str(len(expected))
    assert at.selectbox(key="fs_reason").value == "BASE_TOKEN"
    assert at.checkbox(key="fs_native_only").value is True


def test_from_source_evm_denom_is_case_insensitive(make_app: MakeApp) -> None:
    at = make_app("from_source", source_asset_chain_id="42161",
                  source_asset_denom="0xAF88D065E77C8CC2239327C5EDB3A432268E5831")
    no_exception(at)
    assert not messages(at)
    assert at.selectbox(key="fs_denom").value == "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"
    assert int(metrics(at)["Destination assets"]) > 0


@pytest.mark.parametrize(("params", "needle"), [
    ({"source_asset_chain_id": "cosmoshub-4", "source_asset_denom": "ufoo"}, "`ufoo`"),
    ({"source_asset_chain_id": "atlantis-9", "source_asset_denom": "uatom"}, "`atlantis-9`"),
    ({"source_asset_chain_id": "cosmoshub-4", "source_asset_denom": "uatom", "recommendation_reason": "CHEAPEST"},
     "`CHEAPEST`"),
    ({"source_asset_chain_id": "cosmoshub-4", "source_asset_denom": "uatom", "group_by": "colour"}, "`colour`"),
    ({"source_asset_chain_id": "cosmoshub-4", "source_asset_denom": "uatom", "include_swaps": "true",
      "swap_venues": "nowhere-dex"}, "`nowhere-dex`"),
    ({"source_asset_chain_id": "cosmoshub-4", "source_asset_denom": "uatom", "native_only": "2"}, "`2`"),
])
def test_from_source_bad_link_shows_a_message(make_app: MakeApp, params: dict[str, str], needle: str) -> None:
    at = make_app("from_source", **params)
    no_exception(at)
    errors = messages(at)
    assert len(errors) == 1 and needle in errors[0], errors
    assert not [d for d in at.main.dataframe if "origin_denom" in d.value.columns]


# -- Network -----------------------------------------------------------------------------------------


def test_network_page_and_filters(make_app: MakeApp, registry: Registry) -> None:
    at = make_app("network")
    no_exception(at)
    full = chain_graph(registry)
    assert metrics(at)["Chains shown"] == str(len(full.nodes))
    assert metrics(at)["Most connected"] == "Osmosis"
    assert len(iframes(at)) == 1 and "new vis.Network(" in iframes(at)[0]
    heat = at.main.get("plotly_chart")
    assert len(heat) == 1
    at.multiselect(key="net_types").set_value(["cosmos"])
    at.multiselect(key="net_statuses").set_value(["ACTIVE"])
    at.slider(key="net_min_degree").set_value(3)
    at.selectbox(key="net_focus").set_value("cosmoshub-4")
    at.number_input(key="net_depth").set_value(1)
    at.slider(key="net_top_n").set_value(5)
    submit(at, "net_form", "Apply")
    no_exception(at)
    expected = full.filter(chain_types={"cosmos"}, statuses={"ACTIVE"}, min_degree=3).neighbourhood("cosmoshub-4")
    assert metrics(at)["Chains shown"] == str(len(expected.nodes))
    assert metrics(at)["IBC channels"] == str(sum(e.kind == "IBC" for e in expected.edges))
    assert dict(at.query_params) == {"chain_types": "cosmos", "statuses": "ACTIVE", "min_degree": "3",
                                     "focus": "cosmoshub-4", "top_n": "5"}
    matrix = next(d.value for d in at.main.dataframe if d.value.shape == (5, 5))
    assert "cosmoshub-4" in matrix.index


def test_network_link_and_bad_values(make_app: MakeApp) -> None:
    at = make_app("network", focus="osmosis-1", depth="2", include_bridges="false", top_n="3")
    no_exception(at)
    assert not messages(at)
    assert at.selectbox(key="net_focus").value == "osmosis-1"
    assert at.checkbox(key="net_bridges").value is False
    bad = make_app("network", focus="mars-1", min_degree="lots", chain_types="quantum", top_n="999")
    no_exception(bad)
    errors = messages(bad)
    assert len(errors) == 1
    for needle in ("`mars-1`", "`lots`", "`quantum`", "`999`"):
        assert needle in errors[0]
    assert len(iframes(bad)) == 1  # the unfiltered graph is still drawn


# -- backends ----------------------------------------------------------------------------------------


def _remote(at: AppTest, url: str) -> AppTest:
    at.radio(key="backend").set_value("remote").run()
    return at.text_input(key="backend_url").set_value(url).run()


def test_remote_backend_gives_the_same_tables(make_app: MakeApp, live_server: str) -> None:
    query = {"source_chain_id": "cosmoshub-4", "dest_chain_id": "osmosis-1", "allow_multi_tx": "true"}
    embedded = make_app(**query)
    remote = _remote(make_app(**query), live_server)
    no_exception(remote)
    assert not messages(remote)
    pd.testing.assert_frame_equal(table(remote, "bc_table"), table(embedded, "bc_table"))
    for run in (remote, embedded):
        run.session_state["bc_api"] = True
        run.run()
    assert remote.main.json[0].value == embedded.main.json[0].value
    assert any("only available with the embedded registry" in m for m in messages(remote, "info"))
    assert iframes(remote) == []  # no route graph without routes

    fs = {"source_asset_chain_id": "noble-1", "source_asset_denom": "uusdc", "allow_multi_tx": "true"}
    embedded = make_app("from_source", **fs)
    remote = _remote(make_app("from_source", **fs), live_server)
    no_exception(remote)
    api_columns = [c for c in FROM_SOURCE_COLUMNS if c in table(remote, "fs_table").columns]
    pd.testing.assert_frame_equal(table(remote, "fs_table")[api_columns], table(embedded, "fs_table")[api_columns])
    assert "txs_required" not in table(remote, "fs_table").columns
    assert any("only drawn with the embedded registry" in m for m in messages(remote, "info"))
    assert len(iframes(remote)) == 1  # the destination graph still shows where the asset goes


def test_unreachable_remote_backend_is_a_message(make_app: MakeApp) -> None:
    at = _remote(make_app(source_chain_id="cosmoshub-4", dest_chain_id="osmosis-1"), "http://127.0.0.1:9")
    no_exception(at)
    assert any("failed" in m for m in messages(at))
    bad = _remote(make_app(), "javascript:alert(1)")
    no_exception(bad)
    assert any("must start with" in m for m in (e.value for e in bad.sidebar.error))


# -- hostile registry --------------------------------------------------------------------------------

_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)


def _live_markup(body: str) -> list[str]:
    """Markup that markdown would interpret: unescaped ``<`` or link syntax outside code spans."""
    text = _CODE_SPAN.sub("", body)
    return re.findall(r"(?<!\\)<[a-zA-Z/!]|(?<!\\)\]\((?!\s)", text)


def _all_text(at: AppTest) -> list[str]:
    out: list[str] = []
    for kind in ("markdown", "caption", "error", "warning", "info", "success", "title", "header", "subheader"):
        out.extend(e.value for e in getattr(at, kind))
    out.extend(m.label for m in at.metric)
    return out


def test_hostile_registry_renders_as_text(make_app: MakeApp) -> None:
    hostile = load_registry(HOSTILE)
    ids = [c.chain_id for c in hostile.chains()]
    runs = [
        make_app(registry=HOSTILE, source_chain_id=ids[0], dest_chain_id=ids[1], allow_multi_tx="true",
                 include_no_metadata_assets="true"),
        make_app("from_source", registry=HOSTILE, source_asset_chain_id="alpha-1", source_asset_denom="ualpha",
                 allow_multi_tx="true"),
        make_app("from_source", registry=HOSTILE, source_asset_chain_id="alpha-1", source_asset_denom="uhref",
                 allow_multi_tx="true"),
        make_app("network", registry=HOSTILE, include_inactive="true", focus=ids[1]),
        make_app(registry=HOSTILE, source_chain_id="<img src=x onerror=alert(1)>", dest_chain_id=ids[1]),
    ]
    for at in runs:
        no_exception(at)
        for body in _all_text(at):
            assert _live_markup(body) == [], body
        for html in iframes(at):
            assert "<script>window.__pwned" not in html and "<img src=x onerror" not in html
    between = table(runs[0], "bc_table")
    # javascript:/data: logos are dropped: each cell is a plain http(s) logo or our initials badge
    from assetroute_app import initials_logo

    for logo, symbol, denom in zip(between["source_logo"], between["symbol"], between["source_denom"], strict=True):
        assert logo == initials_logo(symbol or denom) or (safe_logo(logo) == logo and logo.startswith("http")), logo
        if logo.startswith("data:"):
            svg = base64.b64decode(logo.split(",", 1)[1]).decode()
            assert re.fullmatch(r"[A-Z0-9?]{1,3}", re.search(r">([^<>]*)</text>", svg).group(1)), svg
    assert any("<script>" in str(s) for s in between["symbol"])  # the text itself is kept, as data
    assert runs[4].main.error  # the hostile chain-id in the link is reported, as code


# -- dashboard helpers (no Streamlit) ----------------------------------------------------------------


def test_between_query_round_trip() -> None:
    ids = {"cosmoshub-4", "osmosis-1"}
    q = BetweenQuery("cosmoshub-4", "osmosis-1", BetweenChainsOptions(allow_multi_tx=True, include_cw20_assets=True))
    params = q.to_params()
    assert params == {"source_chain_id": "cosmoshub-4", "dest_chain_id": "osmosis-1",
                      "include_cw20_assets": "true", "allow_multi_tx": "true"}
    assert BetweenQuery.from_params(params, ids) == (q, [])
    parsed, problems = BetweenQuery.from_params({"source_chain_id": ["osmosis-1", "cosmoshub-4"],
                                                 "allow_multi_tx": "YES", "include_evm_assets": "0"}, ids)
    assert parsed == BetweenQuery("cosmoshub-4", None, BetweenChainsOptions(allow_multi_tx=True)) and problems == []
    assert not parsed.complete


def test_query_problems_name_parameter_and_value(registry: Registry) -> None:
    _, problems = FromSourceQuery.from_params({"source_asset_denom": "uatom"}, registry)
    assert [p.param for p in problems] == ["source_asset_denom"]
    q, problems = FromSourceQuery.from_params({"source_asset_chain_id": "cosmoshub-4", "source_asset_denom": "uatom",
                                               "swap_venues": "osmosis-poolmanager,nowhere",
                                               "include_swaps": "true"}, registry)
    assert q.swap_venues == ("osmosis-poolmanager",) and [p.value for p in problems] == ["nowhere"]
    assert problems[0].markdown().startswith("Link parameter `swap_venues` = `nowhere`")
    q, problems = NetworkQuery.from_params({"depth": "0", "top_n": "7", "statuses": ["ACTIVE", "UNTAGGED"]},
                                           {"a-1"}, statuses=("ACTIVE", "UNTAGGED"))
    assert q.top_n == 7 and q.depth == 1 and q.statuses == ("ACTIVE", "UNTAGGED") and problems[0].param == "depth"
    assert NetworkQuery.from_params(q.to_params(), {"a-1"}, statuses=("ACTIVE", "UNTAGGED"))[0] == q


def test_escaping_helpers() -> None:
    assert safe_logo("https://raw.githubusercontent.com/x/y.png") == "https://raw.githubusercontent.com/x/y.png"
    for bad in ("javascript:alert(1)", "JAVASCRIPT:alert(1)", "data:image/svg+xml,<svg onload=x>", "//evil/x.png",
                'https://x/"onerror="a', "ftp://x/y.png", None, 42):
        assert safe_logo(bad) is None, bad
    assert md_escape("[x](javascript:y) <b>*$1$*</b> :red[a]") == (
        "\\[x\\]\\(javascript\\:y\\) \\<b\\>\\*\\$1\\$\\*\\</b\\> \\:red\\[a\\]")
    assert md_code("x``y") == "``` x``y ```"
    with pytest.raises(ValueError):
        validate_base_url("javascript:alert(1)")
    with pytest.raises(ValueError):
        validate_base_url("http://user:pw@host")


def test_between_table_uses_api_fields_only(registry: Registry) -> None:
    result = registry.assets_between_chains("cosmoshub-4", "osmosis-1")
    from assetroute_core import BetweenChainsResult

    remote = BetweenChainsResult.from_api(result.to_api())
    pd.testing.assert_frame_equal(between_table(result), between_table(remote))


def test_quality_report_helpers_order_cap_and_export() -> None:
    from dataclasses import dataclass

    from assetroute_app import quality_counts, quality_csv, quality_json, quality_rows
    from assetroute_core import QualityIssue

    @dataclass(frozen=True)
    class Graded:  # the loader's issue with the severity/kind fields it is gaining
        file: str
        problem: str
        action: str
        severity: str
        kind: str = ""

    issues = [QualityIssue("a.json", "p0", "skipped"),  # no severity field: counted as a warning
              *(Graded(f"f{i}.json", f"p{i}", "kept", s, "k") for i, s in
                enumerate(["info", "error", "warning", "error", "bogus"] * 10, start=1))]
    counts = quality_counts(issues)
    assert counts == {"error": 20, "warning": 21, "info": 10}  # an unknown severity counts as a warning
    rows = quality_rows(issues, limit=25)
    assert len(rows) == 25
    assert [r["severity"] for r in rows[:20]] == ["error"] * 20
    assert [r["file"] for r in rows[:3]] == ["f2.json", "f4.json", "f7.json"]  # report order within a severity
    assert rows[20]["file"] == "a.json" and rows[20]["kind"] == ""
    assert quality_rows(issues, limit=0) == []
    text = quality_csv(issues).decode()
    assert text.splitlines()[0] == "severity,kind,file,problem,action"
    assert len(text.splitlines()) == len(issues) + 1
    data = json.loads(quality_json(issues))
    assert len(data) == len(issues) and data[0] == {"severity": "warning", "kind": "", "file": "a.json",
                                                    "problem": "p0", "action": "skipped"}


# -- every link value is untrusted (issue 13, item 10) -----------------------------------------------

NASTY = ["²", "9" * 5000, "-1", "１２", "nul\x00byte", "<b>x</b>`"]
PAGE_PARAMS = {
    "between": ["source_chain_id", "dest_chain_id", "include_no_metadata_assets", "include_cw20_assets",
                "include_evm_assets", "allow_multi_tx", "order"],
    "from_source": ["source_asset_chain_id", "allow_multi_tx", "include_swaps", "native_only", "include_cw20_assets",
                    "recommendation_reason", "group_by", "swap_venues"],
    "network": ["chain_types", "statuses", "min_degree", "focus", "depth", "include_inactive", "include_bridges",
                "allow_multi_tx", "top_n"],
}


def _link_messages(at: AppTest) -> str:
    return "\n".join(messages(at, "error") + messages(at, "warning"))


@pytest.mark.parametrize("value", NASTY, ids=["superscript", "5000-digits", "negative", "fullwidth", "nul", "markup"])
def test_every_link_value_is_untrusted(make_app: MakeApp, registry: Registry, value: str) -> None:
    """Each query parameter of each page, set to a hostile value: a message naming it, never an exception."""
    for page, params in PAGE_PARAMS.items():
        at = make_app(page, **dict.fromkeys(params, value))
        no_exception(at)
        text = _link_messages(at)
        for param in params:
            assert f"`{param}`" in text, (page, param, text[:300])
    # the denom is checked against a valid chain
    at = make_app("from_source", source_asset_chain_id="cosmoshub-4", source_asset_denom=value)
    no_exception(at)
    assert "`source_asset_denom`" in _link_messages(at)
    # the UI-only keys of a valid result: the table is shown, no row selected, a warning names each key
    at = make_app(source_chain_id="cosmoshub-4", dest_chain_id="osmosis-1", pair=value, order=value)
    no_exception(at)
    warnings = "\n".join(messages(at, "warning"))
    assert "`pair`" in warnings and "`order`" in warnings and not messages(at, "error")
    pairs = len(registry.assets_between_chains("cosmoshub-4", "osmosis-1").pairs)
    assert len(table(at, "bc_table")) == pairs
    assert f"0 to {pairs - 1}" in warnings
    assert "First row shown" in "\n".join(m.value for m in at.main.markdown)


def test_parse_pair_and_order_never_raise() -> None:
    from assetroute_app import parse_order, parse_pair

    assert parse_pair("3", 4) == (3, None)
    for raw in (*NASTY, "4", "", " ", "+", "0x1", "1_000", "٣"):
        row, problem = parse_pair(raw, 4)
        assert row is None and problem is not None and problem.param == "pair" and problem.value == raw
        assert problem.severity == "warning"
    assert parse_pair("0", 0)[1] is not None  # an empty result has no row
    assert parse_order("symbol") == ("symbol", None) and parse_order("api") == ("api", None)
    for raw in NASTY:
        order, problem = parse_order(raw)
        assert order == "api" and problem is not None and problem.param == "order"


def test_logo_hosts_check_real_sockets_once_per_host() -> None:
    """A listening loopback port is reachable, a closed one is not; each host is probed once per ttl."""
    import socket

    from assetroute_app import LogoHosts, initials_logo, shown_logos

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    open_port = listener.getsockname()[1]
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    closed_port = closed.getsockname()[1]
    closed.close()  # nothing listens there now
    try:
        hosts = LogoHosts(timeout=1.0)
        up, down = f"http://127.0.0.1:{open_port}/a.png", f"http://127.0.0.1:{closed_port}/a.png"
        assert hosts.reachable(up) and not hosts.reachable(down)
        assert shown_logos([up, down, "javascript:alert(1)", None], ["ATOM", "OSMO", "X", "<b>"], hosts.reachable) == [
            up, initials_logo("OSMO"), initials_logo("X"), initials_logo("<b>")]
        assert initials_logo("<b>") == initials_logo("B")  # only letters and digits reach the badge
        calls: list[str] = []
        counted = LogoHosts(probe=lambda host, port, timeout: calls.append(f"{host}:{port}") or True)
        for _ in range(3):
            assert counted.reachable(up) and counted.reachable("https://example.org/x.png")
        assert calls == [f"127.0.0.1:{open_port}", "example.org:443"]
    finally:
        listener.close()


def test_the_testnet_world_is_a_switch_away(make_app: MakeApp, registry: Registry) -> None:
    """Issue 10: the dashboard can switch to the registry's testnets, a world of its own (SPEC §1)."""
    testnets = registry.testnets()
    assert testnets is not None
    pair = next((a.chain_id, b.chain_id) for a in testnets.chains() for b in testnets.chains()
                if a.chain_id < b.chain_id and len(testnets.assets_between_chains(a.chain_id, b.chain_id)) > 0)
    at = make_app(run=False)
    at.session_state["world"] = "testnet"
    at.run()
    no_exception(at)
    options = set(at.selectbox(key="bc_source").options)
    labels = {c.chain_id: c for c in testnets.chains()}
    assert "osmosis-1" not in " ".join(options)  # mainnets never mix in
    assert any("osmo-test-5" in o for o in options) and len(options) == len(labels)
    at.selectbox(key="bc_source").set_value(pair[0])
    at.selectbox(key="bc_dest").set_value(pair[1])
    submit(at, "bc_form", "Find assets")
    no_exception(at)
    expected = testnets.assets_between_chains(*pair)
    assert list(table(at, "bc_table")["dest_denom"]) == [p.asset_on_dest.denom for p in expected.pairs]
    assert "(testnets/)" in " ".join(m.value for m in at.sidebar.markdown)


def test_switching_worlds_picks_chains_of_the_new_world(make_app: MakeApp, registry: Registry) -> None:
    testnets = registry.testnets()
    assert testnets is not None
    ids = {c.chain_id for c in testnets.chains()}
    at = make_app()  # mainnets first: cosmoshub-4 -> osmosis-1 are picked
    assert (at.selectbox(key="bc_source").value, at.selectbox(key="bc_dest").value) == ("cosmoshub-4", "osmosis-1")
    at.session_state["world"] = "testnet"
    at.run()
    no_exception(at)
    source, dest = at.selectbox(key="bc_source").value, at.selectbox(key="bc_dest").value
    assert source in ids and dest in ids and source != dest
    fs = make_app("from_source", run=False)
    fs.session_state["world"] = "testnet"
    fs.session_state["fs_chain"] = "cosmoshub-4"  # left over from mainnets
    fs.run()
    no_exception(fs)
    chain = fs.selectbox(key="fs_chain").value
    assert chain in ids and fs.selectbox(key="fs_denom").value in {a.denom for a in testnets.assets(chain)}
