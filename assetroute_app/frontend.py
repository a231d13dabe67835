"""The dashboard's browser side: the scripts it runs in a tab, and the page parts they look for.

One place for the JavaScript the dashboard sends and for the selectors and texts that the app, the
end-to-end tests and the dashboard benchmark all rely on.  No Streamlit import: :mod:`.ui` draws
these with ``st.html`` and ``st.components.v2``; :mod:`.serving` answers the route.

Two kinds of work stand between a fresh dashboard and its first answer, and both would slow the
first page down if done while it loads:

* **In the browser.**  Streamlit's front end loads the code of an element the first time one is
  drawn, from chunks of its static folder.  A result page draws a data grid, whose chunk comes
  with Arrow readers (about 1.6 MB, some 0.2 s of the tab's main thread).  The first page draws
  no grid (the sidebar's tables and the API responses are drawn when their expanders are opened),
  so that it shows sooner; the grid's chunk, and the runtime of ``st.components.v2`` components
  (the paint signal below), are imported once the page has settled.  Streamlit's own later import
  of the same URL finds them evaluated.
* **In the server.**  pandas, plotly and pyvis take about a second to import and warm up.  In the
  server process that second holds the interpreter's lock while the first browser fetches the
  page's chunks from the same process: started as the first page was drawn, it made the page
  about 0.2 s slower to show.  So the tab calls ``POST _assetroute/warm-up`` once its page has
  settled, and the import starts then.

Both are done by :func:`settled_script`, drawn by the frame of every page.  The page has
*settled* when the script run has finished and no skeleton is left (checked every 100 ms) and
the browser is idle.

Then the first answer: its table is drawn alone, and :data:`PAINT_SIGNAL_JS` (a component
mounted where the graphs and charts go, with :data:`PENDING_PREFIX` in a caption) reports two
frames after the results grid's canvas appears; the rerun it starts draws them.

Decisions:

* plotly's chunk is not imported ahead: it is 4.7 MB, evaluated in one task of about 0.8 s that
  would freeze the page while the user picks.  The charts wait for the table instead.
* The grid draws its rows on its canvas in the frame it appears; its accessible copy of the rows
  (``tbody tr`` in the DOM) is written about 0.3 s later in Chromium 156, so the canvas is the
  signal, and the benchmark's measure (:data:`TABLE_PAINTED_JS`).
* The chunk file names carry a content hash; they are read from the installed Streamlit's
  static folder (found without importing Streamlit), never written down.  A chunk that is not
  found exactly once is left out: the page then loads it on first use, as without this module.
  ``tests/test_app.py`` checks that the pinned Streamlit has each of them.
* URLs are resolved against the front end's own entry module (``<root>/static/js/index.*.js``),
  else against the page, so a server under a base URL path works too.
* Once per tab (a flag on ``window``), whatever the number of pages and reruns.  A failed call or
  import costs nothing but the head start: the first answer then loads what it needs itself.
* ``settled`` reads the ``data-test-script-state`` attribute of Streamlit's app element, which
  the end-to-end tests read too: a Streamlit that drops it fails them, rather than silently
  losing the head start.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Sequence
from pathlib import Path

__all__ = [
    "PAINT_SIGNAL_JS",
    "PENDING_PREFIX",
    "RESULTS_GRID",
    "RESULT_CHUNKS",
    "TABLE_PAINTED_JS",
    "WARM_UP_PATH",
    "result_chunks",
    "settled_script",
    "streamlit_static_js",
]

#: The route a settled tab posts to, relative to the app's root URL (:mod:`.serving`).
WARM_UP_PATH = "_assetroute/warm-up"

#: Stems of the Streamlit chunks a result page needs, in the order they are imported: the data grid,
#: then the runtime of ``st.components.v2`` components (the paint signal).
RESULT_CHUNKS: tuple[str, ...] = ("DataFrame", "BidiComponent")

#: The results grid's canvas: the main area's first data grid.
RESULTS_GRID = "[data-testid='stMain'] [data-testid='stDataFrame'] canvas[data-testid='data-grid-canvas']"

#: How the caption that stands where a first answer's graphs and charts will go begins.
PENDING_PREFIX = "Drawing the "


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


_SETTLED = """<script>
(() => {
  if (window.__assetrouteSettled) return;
  window.__assetrouteSettled = true;
  const chunks = %s;
  const entry = document.querySelector('script[type="module"][src*="static/js/index."]');
  const js = entry ? new URL(entry.getAttribute("src"), document.baseURI) : null;
  const root = js ? new URL("../../", js) : new URL(".", document.baseURI);
  const settled = () => {
    const app = document.querySelector('[data-testid="stApp"]');
    return app && app.getAttribute("data-test-script-state") === "notRunning"
      && !document.querySelector('[data-testid="stSkeleton"]');
  };
  const warm = async () => {
    fetch(new URL(%s, root), {method: "POST", keepalive: true}).catch(() => {});
    if (!js) return;
    for (const chunk of chunks) {
      try { await import(new URL(chunk, js).href); } catch (e) { /* loaded on first use instead */ }
    }
  };
  const idle = window.requestIdleCallback || ((f) => setTimeout(f, 50));
  const tick = () => settled() ? idle(warm, {timeout: 500}) : setTimeout(tick, 100);
  setTimeout(tick, 100);
})();
</script>"""


def settled_script(chunks: Sequence[str], warm_up_path: str = WARM_UP_PATH) -> str:
    """The ``<script>`` that, once the page has settled, posts to *warm_up_path* (relative to the app's
    root URL) and imports *chunks* (file names in the front end's ``static/js/``).

    >>> html = settled_script(["DataFrame.ab12.js"])
    >>> '["DataFrame.ab12.js"]' in html and '"_assetroute/warm-up"' in html
    True
    """
    return _SETTLED % (json.dumps(list(chunks)), json.dumps(warm_up_path))


#: The paint signal (an ``st.components.v2`` component's script): triggers ``painted`` two frames after
#: ``data.selector`` matches, or at once after ``data.timeout_ms`` (animation frames do not run in a
#: hidden tab, so the timeout does not wait for one).
PAINT_SIGNAL_JS = """
export default function ({ data, setTriggerValue }) {
  let stopped = false;
  const started = performance.now();
  const report = () => { if (!stopped) setTriggerValue("painted", true); };
  const poll = () => {
    if (stopped) return;
    if (document.querySelector(data.selector)) {
      requestAnimationFrame(() => requestAnimationFrame(report));
    } else if (performance.now() - started > data.timeout_ms) {
      report();
    } else {
      setTimeout(poll, 30);
    }
  };
  poll();
  return () => { stopped = true; };
}
"""

#: For tests and benchmarks (Playwright ``wait_for_function``): true once the results grid has drawn
#: its first data row on its canvas (ink below the header), or has drawn an image from another
#: origin (a logo), which forbids reading its pixels: then it counts as painted, so time only a tab's
#: first grid with it (a later answer may find the earlier, already tainted canvas).
TABLE_PAINTED_JS = """() => {
  const canvas = document.querySelector(RESULTS_GRID);
  if (!canvas || !canvas.width) return false;
  const ratio = window.devicePixelRatio || 1;
  let pixels;
  try {
    const width = Math.min(canvas.width, Math.round(600 * ratio));
    pixels = canvas.getContext("2d").getImageData(0, Math.round(40 * ratio), width, Math.round(20 * ratio)).data;
  } catch (e) { return true; }
  let ink = 0;
  for (let i = 0; i < pixels.length; i += 4) if (pixels[i + 3] > 0 && (pixels[i] < 200 || pixels[i + 1] < 200)) ink++;
  return ink > 50;
}""".replace("RESULTS_GRID", json.dumps(RESULTS_GRID))
