"""The Changes and What if pages in a real headless Chromium against a real ``streamlit run``.

Links carry the request; the figures shown are checked against the core's own diff of the same
versions, and a bad version must show one error and no result.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import assetroute_core as ar

from .conftest import wait_for_app

_SNAPSHOT = os.environ.get("ASSETROUTE_REGISTRY", "").strip() or str(
    Path(__file__).resolve().parents[3] / "shared" / "chain-registry")
HISTORY = Path(os.environ.get("ASSETROUTE_HISTORY", "").strip() or Path(_SNAPSHOT).parent / "registry-history")


def metric(page: Any, label: str) -> str:
    box = page.get_by_test_id("stMetric").filter(has_text=label).first
    return str(box.get_by_test_id("stMetricValue").inner_text())


def test_what_if_link_in_the_browser(app_server: str, new_page: Any, registry: ar.Registry) -> None:
    page = new_page()
    page.goto(app_server + "/what_if?" + urlencode({"pfm": "cosmoshub-4:off"}))
    page.get_by_test_id("stMetric").filter(has_text="Pairs changed").wait_for(timeout=120_000)
    wait_for_app(page, timeout=120_000)
    expected = registry.diff(registry.with_changes(pfm={"cosmoshub-4": False}), allow_multi_tx=True)
    assert metric(page, "Pairs changed") == str(expected.pairs_changed)
    assert page.locator("[data-testid='stMain'] .js-plotly-plot").count() == 2
    assert page.get_by_test_id("stException").count() == 0
    assert "pfm=cosmoshub-4%3Aoff" in page.url or "pfm=cosmoshub-4:off" in page.url


def test_changes_link_and_bad_commit_in_the_browser(app_server: str, new_page: Any) -> None:
    old = str(sorted(HISTORY.glob("chain-registry-045be2e5e5b3*.tar.gz"))[0])
    new = str(sorted(HISTORY.glob("chain-registry-32d07e5cff6d*.tar.gz"))[0])
    expected = ar.load_registry(old).diff(ar.load_registry(new))
    page = new_page()
    page.goto(app_server + "/changes?" + urlencode([("old", old), ("new", new), ("series", old), ("series", new)]))
    page.get_by_test_id("stMetric").filter(has_text="Pairs gained").wait_for(timeout=180_000)
    wait_for_app(page, timeout=180_000)
    assert metric(page, "Chains added") == str(len(expected.chains_added))
    assert metric(page, "Pairs gained") == str(expected.pairs_gained)
    assert page.get_by_test_id("stException").count() == 0

    page.goto(app_server + "/changes?" + urlencode({"old": "cosmos/chain-registry@32d07e5", "new": new}))
    page.get_by_test_id("stAlertContentError").wait_for(timeout=60_000)
    wait_for_app(page, timeout=60_000)
    assert "not a full commit" in page.get_by_test_id("stAlertContentError").inner_text()
    assert page.locator("[data-testid='stMain'] [data-testid='stMetric']").count() == 0
