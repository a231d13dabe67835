"""What the e2e tests and ``benchmarks/dashboard.py`` share: a ``streamlit run`` process on loopback,
Debian's Chromium, and the page helpers that say when the app is rendered.

No pytest here, so the benchmark can import it (``from tests.e2e.harness import ...``); the
fixtures live in ``conftest.py``, which re-exports these names.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from assetroute_app.frontend import PENDING_PREFIX, RESULTS_GRID, TABLE_PAINTED_JS

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("ASSETROUTE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1440, "height": 1000}
# headless, no usage stats, no file watcher: how every test and benchmark runs Streamlit
STREAMLIT_FLAGS = ("--server.headless", "true", "--browser.gatherUsageStats", "false",
                   "--server.fileWatcherType", "none")
LANDING_HEADING = "Assets between chains"  # the first page of the dashboard (``/`` draws it)
LANDING_BUTTON = "Find assets"


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class StreamlitServer:
    """One ``streamlit run <script>`` process on 127.0.0.1 (the dashboard's ``app.py`` by default).

    ``started`` is taken just before the process is launched; ``healthy`` is the seconds until
    ``/_stcore/health`` answered.
    """

    def __init__(self, registry: Path | str | None, log: Path, *, script: str = "app.py", cwd: Path = REPO) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        if registry is not None:
            env["ASSETROUTE_REGISTRY"] = str(registry)
        env.pop("ASSETROUTE_API_URL", None)
        self.log = log
        self.started = time.perf_counter()
        self._log_file = log.open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", script, "--server.port", str(self.port),
             "--server.address", "127.0.0.1", *STREAMLIT_FLAGS],
            cwd=cwd, env=env, stdout=self._log_file, stderr=subprocess.STDOUT,
        )
        self.healthy = self._wait_healthy()

    def _wait_healthy(self, timeout: float = 60.0) -> float:
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"streamlit exited with {self.proc.returncode}:\n{self.log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=1) as r:
                    if r.read().strip() == b"ok":
                        return time.perf_counter() - self.started
            except OSError:
                pass
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"streamlit did not become healthy in {timeout} s:\n{self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
        self._log_file.close()


# -- page helpers ------------------------------------------------------------------------------------


def wait_for_app(page: Any, timeout: float = 30_000) -> None:
    """Wait until the app is connected, the script has finished and no skeleton is left."""
    page.wait_for_selector("[data-testid='stApp'][data-test-connection-state='CONNECTED']", timeout=timeout)
    page.wait_for_selector("[data-testid='stApp'][data-test-script-state='notRunning']", timeout=timeout)
    page.wait_for_function("document.querySelectorAll('[data-testid=\"stSkeleton\"]').length === 0",
                           timeout=timeout)


def wait_for_landing(page: Any, timeout: float = 60_000) -> None:
    """The dashboard's first page fully rendered: its title and form visible, the script finished."""
    page.get_by_role("heading", name=LANDING_HEADING).wait_for(state="visible", timeout=timeout)
    page.get_by_role("button", name=LANDING_BUTTON).wait_for(state="visible", timeout=timeout)
    wait_for_app(page, timeout=timeout)


def wait_for_results(page: Any, timeout: float = 60_000) -> None:
    """Wait until a result page has drawn its graphs and charts too, and the app has settled.

    A tab's first answer draws its table first, with a caption (``PENDING_PREFIX``) where the graphs
    and charts go, and draws them in the rerun that the table's paint signal starts
    (:func:`assetroute_app.ui.charts_ready`): between the two runs the app is briefly idle, so
    waiting for the app alone can end before they are drawn.  Any other page passes at once.
    """
    page.wait_for_function(
        "(pending) => !(document.querySelector(\"[data-testid='stMain']\")?.innerText || '').includes(pending)",
        arg=PENDING_PREFIX, timeout=timeout)
    wait_for_app(page, timeout=timeout)


def results_grid(page: Any) -> Any:
    """The results table of a page: the first data grid's canvas in the main area."""
    return page.locator(RESULTS_GRID).first


def wait_for_table_painted(page: Any, timeout: float = 60_000) -> None:
    """Wait until the results grid shows its first row: what the user sees as the answer.

    The grid draws its cells on a canvas; its accessible copy of the rows (``tbody tr``, which
    :func:`main_table_rows` reads) is written later, about 0.3 s after the rows are on screen
    in this Chromium, so it is no measure of when the table shows.  Checked on every frame
    (:data:`assetroute_app.frontend.TABLE_PAINTED_JS`: time only a tab's first grid with it).
    """
    page.wait_for_function(TABLE_PAINTED_JS, timeout=timeout, polling="raf")


def main_table_rows(page: Any) -> Any:
    """Rows of the results grid, read from its accessible table."""
    return results_grid(page).locator("tbody tr")


def pick(page: Any, label: str, text: str) -> None:
    """Choose an option of a searchable selectbox by typing part of its label."""
    box = page.get_by_test_id("stSelectbox").filter(has_text=label).first
    box.click()
    page.keyboard.type(text, delay=10)
    page.get_by_role("option").filter(has_text=text).first.click()
