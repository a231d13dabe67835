"""Warm a browser tab, and the server, for the first answer, once the first page is on screen.

Two kinds of work stand between a fresh dashboard and its first answer, and both would slow the
first page down if done while it loads:

* **In the browser.**  Streamlit's front end loads the code of an element the first time one is
  drawn, from chunks of its static folder.  A result page draws a data grid, whose chunk comes
  with Arrow readers (about 1.6 MB, some 0.2 s of the tab's main thread).  The landing page draws
  no grid (the sidebar's tables are drawn when their expanders are opened), so that it shows
  sooner; the grid's chunk, and the runtime of ``st.components.v2`` components (the table's paint
  signal), are imported once the page has settled.  Streamlit's own later import of the same URL
  finds them evaluated.
* **In the server.**  pandas, plotly and pyvis take about a second to import and warm up.  In the
  server process that second holds the interpreter's lock while the first browser fetches the
  page's chunks from the same process: started as the first page was drawn, it made the page
  about 0.2 s slower to show.  So the tab calls ``POST _assetroute/warm-up``
  (:mod:`assetroute_app.serving`) once its page has settled, and the import starts then.

Both are done by one small script (:func:`settled_script`), drawn by the frame of every page with
``st.html``.  The page has *settled* when the script run has finished and no skeleton is left
(checked every 100 ms) and the browser is idle.

Decisions:

* plotly's chunk is not imported ahead: it is 4.7 MB, evaluated in one task of about 0.8 s that
  would freeze the page while the user picks.  The charts wait for the table instead (a tab's
  first answer draws its table alone: :func:`assetroute_app.ui.charts_ready`).
* The chunk file names carry a content hash; they are read from the installed Streamlit's
  static folder (found without importing Streamlit), never written down.  A chunk that is not
  found exactly once is left out: the page then loads it on first use, as without this module.
  ``tests/test_app.py`` checks that the pinned Streamlit has each of them.
* URLs are resolved against the front end's own entry module (``<root>/static/js/index.*.js``),
  so a server under a base URL path works too.
* Once per tab (a flag on ``window``), whatever the number of pages and reruns.  A failed call or
  import costs nothing but the head start: the first answer then loads what it needs itself.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Sequence
from pathlib import Path

__all__ = ["RESULT_CHUNKS", "result_chunks", "settled_script", "streamlit_static_js"]

#: Stems of the Streamlit chunks a result page needs, in the order they are imported: the data grid,
#: then the runtime of ``st.components.v2`` components (the table's paint signal).
RESULT_CHUNKS: tuple[str, ...] = ("DataFrame", "BidiComponent")


def streamlit_static_js() -> Path | None:
    """The folder of the installed Streamlit's front-end chunks, or ``None``."""
    spec = importlib.util.find_spec("streamlit")
    if spec is None or spec.origin is None:
        return None
    folder = Path(spec.origin).parent / "static" / "static" / "js"
    return folder if folder.is_dir() else None


def result_chunks(folder: Path | None = None, stems: Sequence[str] = RESULT_CHUNKS) -> tuple[str, ...]:
    """File names of the chunks named by *stems* (``DataFrame.<hash>.js``), each found exactly once.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> for name in ("DataFrame.ab12.js", "DataFrameX.cd34.js", "PlotlyChart.1.js", "PlotlyChart.2.js"):
    ...     _ = (d / name).write_text("")
    >>> result_chunks(d)
    ('DataFrame.ab12.js',)
    """
    folder = folder if folder is not None else streamlit_static_js()
    if folder is None:
        return ()
    out = []
    for stem in stems:
        found = sorted(p.name for p in folder.glob(f"{stem}.*.js") if p.name.count(".") == 2)
        if len(found) == 1:
            out.append(found[0])
    return tuple(out)


_SCRIPT = """<script>
(() => {
  if (window.__assetrouteSettled) return;
  window.__assetrouteSettled = true;
  const chunks = %s;
  const entry = document.querySelector('script[type="module"][src*="static/js/index."]');
  if (!entry) return;
  const js = new URL(entry.getAttribute("src"), document.baseURI);
  const settled = () => {
    const app = document.querySelector('[data-testid="stApp"]');
    return app && app.getAttribute("data-test-script-state") === "notRunning"
      && !document.querySelector('[data-testid="stSkeleton"]');
  };
  const warm = async () => {
    fetch(new URL(%s, new URL("../../", js)), {method: "POST", keepalive: true}).catch(() => {});
    for (const chunk of chunks) {
      try { await import(new URL(chunk, js).href); } catch (e) { /* loaded on first use instead */ }
    }
  };
  const idle = window.requestIdleCallback || ((f) => setTimeout(f, 50));
  const tick = () => settled() ? idle(warm, {timeout: 500}) : setTimeout(tick, 100);
  setTimeout(tick, 100);
})();
</script>"""


def settled_script(chunks: Sequence[str], warm_up_path: str) -> str:
    """The ``<script>`` that, once the page has settled, posts to *warm_up_path* (relative to the app's
    root URL) and imports *chunks* (file names in the front end's ``static/js/``).

    >>> html = settled_script(["DataFrame.ab12.js"], "_assetroute/warm-up")
    >>> '["DataFrame.ab12.js"]' in html and '"_assetroute/warm-up"' in html
    True
    """
    return _SCRIPT % (json.dumps(list(chunks)), json.dumps(warm_up_path))
