"""Drive every page of the real dashboard in a real headless Chromium.

Fill the forms, submit, see the table rows and the graph iframe, follow a shareable link,
save a screenshot of each page (``docs/screenshots/`` when asked: ``--screenshots`` or
``ASSETROUTE_SCREENSHOTS=1``; a temporary folder otherwise), open deep links on a fresh server, measure timings
(``artifacts/e2e-timings.json``), and check that the hostile registry fixture renders inertly.
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from assetroute_app.frontend import WARM_UP_PATH
from assetroute_core import Registry, load_registry

from .conftest import (
    HOSTILE,
    REPO,
    StreamlitServer,
    main_table_rows,
    pick,
    results_grid,
    settle,
    wait_for_app,
    wait_for_results,
    wait_for_table_painted,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def tick(page: Any, label: str) -> None:
    page.get_by_test_id("stCheckbox").filter(has_text=label).first.locator("label").click()


def graph_frame(page: Any, index: int = 0) -> Any:
    """The graph iframe's document (a Playwright ``Frame``)."""
    element = page.locator("[data-testid='stMain'] iframe[data-testid='stIFrame']").nth(index)
    element.wait_for(state="visible")
    frame = element.element_handle().content_frame()
    frame.wait_for_load_state()
    return frame


def assert_graph_drawn(page: Any, index: int = 0) -> None:
    inner = graph_frame(page, index)
    inner.locator("#mynetwork canvas").wait_for(state="attached", timeout=15_000)
    assert inner.locator("#mynetwork canvas").count() == 1
    assert inner.evaluate("typeof vis !== 'undefined' && typeof network !== 'undefined'")


def query(page: Any) -> dict[str, list[str]]:
    return parse_qs(urlsplit(page.url).query)


def submit_and_time(page: Any, button: str) -> float:
    """Click a submit button; seconds until the results grid shows its first row (then wait for its accessible
    rows, and for the graphs and charts, which a tab's first answer draws once its table has painted)."""
    started = time.perf_counter()
    page.get_by_role("button", name=button).click()
    wait_for_table_painted(page, timeout=30_000)
    elapsed = time.perf_counter() - started
    main_table_rows(page).first.wait_for(state="attached", timeout=30_000)
    wait_for_results(page)
    return round(elapsed, 3)


# -- pages over the real registry --------------------------------------------------------------------


def test_between_chains(app_server: str, new_page: Any, registry: Registry, timings: dict[str, Any],
                         shoot: Any) -> None:
    page = new_page()
    page.goto(app_server + "/")
    settle(page)
    # the settled page asked the server to warm up (POST /_assetroute/warm-up, 204) and loaded the grid's code
    page.wait_for_function("(path) => performance.getEntriesByType('resource').some("
                           "e => e.name.endsWith('/' + path) && e.responseStatus === 204)",
                           arg=WARM_UP_PATH, timeout=15_000)
    page.wait_for_function("() => performance.getEntriesByType('resource').some("
                           "e => /\\/DataFrame\\.[^/]*\\.js$/.test(e.name))", timeout=15_000)
    assert page.get_by_test_id("stDataFrame").count() == 0  # the first page itself draws no grid
    pick(page, "Source chain", "Cosmos Hub")
    pick(page, "Destination chain", "Osmosis")
    tick(page, "Multi-transaction routes")
    elapsed = submit_and_time(page, "Find assets")
    timings.setdefault("submit_to_table", {"goal_s": 0.8})["between_chains_s"] = elapsed

    expected = registry.assets_between_chains("cosmoshub-4", "osmosis-1", allow_multi_tx=True)
    rows = main_table_rows(page)
    assert rows.count() == len(expected.pairs)
    assert "uatom" in " ".join(rows.all_inner_texts())
    assert query(page) == {"source_chain_id": ["cosmoshub-4"], "dest_chain_id": ["osmosis-1"],
                           "allow_multi_tx": ["true"]}
    metric = page.get_by_test_id("stMetric").filter(has_text="Pairs").first
    assert metric.get_by_test_id("stMetricValue").inner_text() == str(len(expected.pairs))
    assert_graph_drawn(page)

    # select the multi-transaction USDC row: its bridge path is drawn and the link remembers it
    row = next(i for i, p in enumerate(expected.pairs) if "CCTP" in p.bridges)
    canvas = results_grid(page)
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    page.mouse.click(box["x"] + 18, box["y"] + 35 * (row + 1) + 17)  # the row's selection cell
    page.wait_for_function(f"location.search.includes('pair={row}')", timeout=15_000)
    wait_for_app(page)
    inner = graph_frame(page)
    html = inner.locator("html").inner_html()
    for hop in expected.pairs[row].route.hops:
        assert hop.to_chain_id in html
    shared = page.url
    shoot(page, "between_chains", height=1750)

    # follow the shareable link in a fresh browser context
    other = new_page()
    started = time.perf_counter()
    other.goto(shared)
    main_table_rows(other).first.wait_for(state="attached", timeout=30_000)
    timings["shared_link_to_table_s"] = round(time.perf_counter() - started, 3)
    wait_for_app(other)
    assert main_table_rows(other).count() == len(expected.pairs)
    assert query(other)["pair"] == [str(row)]
    assert "CCTP" in graph_frame(other).locator("html").inner_html()


def test_from_source(app_server: str, new_page: Any, registry: Registry, timings: dict[str, Any],
                     shoot: Any) -> None:
    page = new_page()
    page.goto(app_server + "/from_source")
    settle(page)
    pick(page, "Source chain", "Noble")
    wait_for_app(page)
    pick(page, "Source asset", "USDC — USDC · uusdc")
    wait_for_app(page)
    tick(page, "Multi-transaction routes")
    elapsed = submit_and_time(page, "Find destinations")
    timings.setdefault("submit_to_table", {"goal_s": 0.8})["from_source_s"] = elapsed

    expected = registry.assets_from_source("uusdc", "noble-1", allow_multi_tx=True)
    assert query(page) == {"source_asset_chain_id": ["noble-1"], "source_asset_denom": ["uusdc"],
                           "allow_multi_tx": ["true"]}
    rows = main_table_rows(page)
    assert rows.count() > 0
    assert results_grid(page).locator("table").get_attribute("aria-rowcount") == str(len(expected) + 1)
    assert_graph_drawn(page)
    assert "Arbitrum One (42161)" in graph_frame(page).locator("html").inner_html()
    assert page.locator("[data-testid='stMain'] .js-plotly-plot").count() == 2
    shoot(page, "from_source", height=1900)

    # a shared link with the other request fields
    other = new_page()
    other.goto(app_server + "/from_source?source_asset_chain_id=cosmoshub-4&source_asset_denom=uatom"
               "&recommendation_reason=DIRECT&group_by=recommended_symbol&include_swaps=true"
               "&swap_venues=osmosis-poolmanager")
    main_table_rows(other).first.wait_for(state="attached", timeout=30_000)
    wait_for_app(other)
    venue = next(v for v, _ in registry.overlay.swap_venues if v.name == "osmosis-poolmanager")
    direct = registry.assets_from_source("uatom", "cosmoshub-4", recommendation_reason="DIRECT", include_swaps=True,
                                         swap_venues=[venue], group_by="recommended_symbol")
    assert results_grid(other).locator("table").get_attribute("aria-rowcount") == str(len(direct) + 1)


def test_network(app_server: str, new_page: Any, timings: dict[str, Any], shoot: Any) -> None:
    page = new_page()
    page.goto(app_server + "/network")
    settle(page)
    assert_graph_drawn(page)
    assert page.locator("[data-testid='stMain'] .js-plotly-plot").count() == 1
    shoot(page, "network", height=1900)
    pick(page, "Neighbourhood of", "Cosmos Hub")
    started = time.perf_counter()
    page.get_by_role("button", name="Apply").click()
    page.wait_for_function("location.search.includes('focus=cosmoshub-4')", timeout=15_000)
    wait_for_app(page)
    timings["network_apply_s"] = round(time.perf_counter() - started, 3)
    assert_graph_drawn(page)
    shown = page.get_by_test_id("stMetric").filter(has_text="Chains shown").get_by_test_id("stMetricValue")
    assert 1 < int(shown.inner_text()) < 237


def test_bad_link_shows_a_message(app_server: str, new_page: Any) -> None:
    page = new_page()
    page.goto(app_server + "/?source_chain_id=atlantis-1&dest_chain_id=osmosis-1&allow_multi_tx=perhaps")
    settle(page)
    alert = page.get_by_test_id("stAlertContentError")
    assert "This link could not be used" in alert.inner_text()
    assert "atlantis-1" in alert.inner_text() and "perhaps" in alert.inner_text()
    assert page.get_by_test_id("stException").count() == 0
    page.goto(app_server + "/from_source?source_asset_chain_id=cosmoshub-4&source_asset_denom=ufake")
    settle(page)
    assert "ufake" in page.get_by_test_id("stAlertContentError").inner_text()
    assert page.get_by_test_id("stException").count() == 0
    # a row number no int() accepts (issue 13): the table, a warning, no traceback
    page.goto(app_server + "/between_chains?source_chain_id=cosmoshub-4&dest_chain_id=osmosis-1&pair=%C2%B2")
    main_table_rows(page).first.wait_for(state="attached", timeout=30_000)
    settle(page)
    warning = page.get_by_test_id("stAlertContentWarning").first.inner_text()
    assert "pair" in warning and "²" in warning
    assert page.get_by_test_id("stException").count() == 0


def test_deep_links_on_a_fresh_server(registry_path: Any, new_page: Any, registry: Registry, shoot: Any) -> None:
    """The first request a new server sees is a deep link: the page opens inside app.py's frame.

    Streamlit routes a fresh process by the ``pages/`` folder until ``st.navigation`` runs; the
    page must still get the top navigation, the sidebar and the link's query (no "page not found").
    """
    server = StreamlitServer(registry_path, REPO / "artifacts" / "streamlit-deep-link.log")
    try:
        expected = registry.assets_between_chains("cosmoshub-4", "osmosis-1", allow_multi_tx=True)
        row = next(i for i, p in enumerate(expected.pairs) if "CCTP" in p.bridges)
        page = new_page()
        page.goto(server.url + f"/between_chains?source_chain_id=cosmoshub-4&dest_chain_id=osmosis-1"
                               f"&allow_multi_tx=true&pair={row}")
        main_table_rows(page).first.wait_for(state="attached", timeout=60_000)
        settle(page)
        assert main_table_rows(page).count() == len(expected.pairs)
        assert query(page)["pair"] == [str(row)]
        assert "CCTP" in graph_frame(page).locator("html").inner_html()
        # the frame of app.py: top navigation with exactly our pages, the shared sidebar
        assert page.get_by_test_id("stSidebarNav").count() == 0
        for title in ("Between chains", "From source", "Network"):
            assert page.get_by_role("link", name=title).count() >= 1, title
        sidebar = page.get_by_test_id("stSidebar").inner_text()
        assert "Lookup backend" in sidebar and "Registry" in sidebar
        assert page.get_by_text("Page not found").count() == 0
        assert page.get_by_test_id("stException").count() == 0
        shoot(page, "deep_link_fresh_server", height=1400)

        # a second deep link, to another page, in a new session of the same server
        other = new_page()
        other.goto(server.url + "/from_source?source_asset_chain_id=noble-1&source_asset_denom=uusdc")
        main_table_rows(other).first.wait_for(state="attached", timeout=30_000)
        settle(other)
        assert other.get_by_role("heading", name="Where can this asset go?").count() == 1
        assert results_grid(other).locator("table").get_attribute("aria-rowcount") == str(
            len(registry.assets_from_source("uusdc", "noble-1")) + 1)
        # and the navigation moves between pages of the frame
        other.get_by_role("link", name="Network").first.click()
        other.get_by_role("heading", name="Chain network").wait_for(state="visible", timeout=30_000)
        settle(other)
        assert other.get_by_test_id("stException").count() == 0
    finally:
        server.stop()


# -- the hostile registry ------------------------------------------------------------------------


def _frames_are_inert(page: Any) -> None:
    for frame in page.frames:
        assert frame.evaluate("window.__pwned") is None, f"script ran in {frame.url}"
        assert frame.evaluate("window.__dialogs || 0") == 0
        for selector in ("a[href^='javascript:' i]", "[href^='javascript:' i]", "[src^='javascript:' i]",
                         "img[onerror]", "[onerror]", "svg[onload]", "img[src='x']"):
            assert frame.locator(selector).count() == 0, (selector, frame.url)
    assert page.dialogs == []


def _hover_graphs(page: Any) -> None:
    """Hover the graphs' centres so vis-network builds tooltips from registry text."""
    frames = page.locator("[data-testid='stMain'] iframe[data-testid='stIFrame']")
    for i in range(frames.count()):
        box = frames.nth(i).bounding_box()
        if box:
            for dx, dy in ((0.5, 0.5), (0.3, 0.5), (0.7, 0.5), (0.5, 0.3)):
                page.mouse.move(box["x"] + box["width"] * dx, box["y"] + box["height"] * dy)
                page.wait_for_timeout(150)


def test_hostile_registry_is_inert(hostile_server: str, new_page: Any, shoot: Any) -> None:
    hostile = load_registry(HOSTILE)
    ids = [c.chain_id for c in hostile.chains()]
    page = new_page()
    page.goto(hostile_server + "/")
    settle(page)
    # drive the form with the hostile chains
    pick(page, "Source chain", "Alpha")
    pick(page, "Destination chain", "Beta")
    tick(page, "Multi-transaction routes")
    tick(page, "Assets without metadata")
    page.get_by_role("button", name="Find assets").click()
    main_table_rows(page).first.wait_for(state="attached", timeout=30_000)
    settle(page)
    assert query(page)["dest_chain_id"] == [ids[1]]
    assert "ALP<script>" in " ".join(main_table_rows(page).all_inner_texts())  # shown as text
    _hover_graphs(page)
    page.get_by_text("API response").click()
    page.get_by_text("Data-quality warnings").click()
    settle(page)
    _frames_are_inert(page)
    shoot(page, "hostile_registry", height=1500)

    links = [
        "/from_source?source_asset_chain_id=alpha-1&source_asset_denom=ualpha&allow_multi_tx=true",
        "/from_source?source_asset_chain_id=alpha-1&source_asset_denom=uhref&allow_multi_tx=true",
        "/network?include_inactive=true",
        "/network?" + urlencode({"focus": ids[1]}),
        "/?" + urlencode({"source_chain_id": ids[1], "dest_chain_id": "gamma-1", "allow_multi_tx": "true"}),
        "/?source_chain_id=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&dest_chain_id=alpha-1",
    ]
    for link in links:
        page.goto(hostile_server + link)
        settle(page)
        _hover_graphs(page)
        _frames_are_inert(page)
        assert page.get_by_test_id("stException").count() == 0
