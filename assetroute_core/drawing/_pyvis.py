"""The one adapter between :class:`~assetroute_core.drawing.GraphSpec` and pyvis.

:func:`to_html` builds a pyvis ``Network`` with ``cdn_resources="in_line"`` and returns
``generate_html()`` post-processed so that the page is self-contained and inert:

* vis-network's JS is inlined by pyvis (its large stylesheet is replaced by the few rules the
  network needs, so a page is about 0.5 MB); the remote Bootstrap ``<link>``/``<script>``
  the pyvis template always adds are removed, so nothing is fetched when the page is shown;
* nothing is written to disk (no ``lib/`` folder in the working directory);
* labels are drawn on the canvas and tooltips are set with ``innerText`` by vis-network, so
  registry text stays text; node/edge data is embedded with Jinja's ``tojson`` (``<``, ``>``,
  ``&`` and ``'`` escaped), and pyvis's HTML popup (used when a tooltip contains ``href``)
  is never enabled — the check at the end refuses to return such a page.

To replace pyvis, reimplement :func:`to_html`; nothing else imports it.
"""

from __future__ import annotations

import html
import re
from functools import lru_cache
from typing import Any

from ._spec import GraphSpec

__all__ = ["to_html"]

_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]+")
_COLOR = re.compile(r"^#[0-9A-Fa-f]{3,8}$")
_REMOTE_TAGS = re.compile(
    r"<link\b[^>]*\bhref\s*=\s*[\"']?https?://[^>]*>|<script\b[^>]*\bsrc\s*=\s*[\"']?https?://[^>]*>\s*</script>",
    re.IGNORECASE | re.DOTALL,
)
_EMPTY_HEADING = re.compile(r"<center>\s*<h1>\s*</h1>\s*</center>", re.IGNORECASE)
# vis-network's 220 kB stylesheet styles widgets we never show (navigation buttons, configurator,
# timeline); the few rules the network needs are in _STYLE.
_VIS_CSS = re.compile(r"<style>(?:(?!</style>).)*?vis-navigation(?:(?!</style>).)*</style>", re.DOTALL)
_REMOTE_REF = re.compile(r"\b(?:src|href)\s*=\s*[\"']?\s*(?:https?:)?//", re.IGNORECASE)

_STYLE = """
<style>
  html, body { margin: 0; padding: 0; background: #ffffff; overflow: hidden;
               font-family: "Source Sans 3", "Source Sans Pro", system-ui, -apple-system, "Segoe UI", sans-serif; }
  .card { border: 0 !important; }
  #mynetwork { border: 0 !important; float: none !important; }
  div.vis-network { position: relative; overflow: hidden; outline: none; }
  div.vis-network canvas { outline: none; }
  div.vis-tooltip { position: absolute; visibility: hidden; pointer-events: none; z-index: 5;
                    font-family: inherit; font-size: 13px; line-height: 1.35; white-space: pre-line;
                    max-width: 460px; padding: 8px 10px; color: #0f172a; background: #ffffff;
                    border: 1px solid #cbd5e1; border-radius: 6px; box-shadow: 0 4px 14px rgba(15,23,42,.15); }
  #ar-legend { position: absolute; bottom: 6px; left: 8px; right: 8px; z-index: 5; display: flex; flex-wrap: wrap;
               gap: 2px 14px; pointer-events: none; font-size: 12px; color: #475569; }
  #ar-legend div { display: flex; align-items: center; gap: 5px; line-height: 1.5;
                   background: rgba(255,255,255,.85); border-radius: 4px; padding: 0 3px; }
  #ar-legend span.sw { display: inline-block; width: 11px; height: 11px; border-radius: 50%; }
</style>
"""


def _text(value: object, limit: int) -> str:
    """Plain text for a label/tooltip: control characters removed, length capped.

    ``href`` is broken with a word joiner so pyvis never switches to its innerHTML popup.
    """
    s = _CONTROL.sub(" ", str(value))
    if len(s) > limit:
        s = s[: limit - 1] + "…"
    return s.replace("href", "hre\u2060f").replace("HREF", "HRE\u2060F")


def _color(value: str | None, default: str) -> str:
    return value if isinstance(value, str) and _COLOR.match(value) else default


def _legend(spec: GraphSpec) -> str:
    if not spec.legend:
        return ""
    rows = "".join(
        f'<div><span class="sw" style="background:{_color(c, "#94A3B8")}"></span>{html.escape(_text(t, 80))}</div>'
        for c, t in spec.legend
    )
    return f'<div id="ar-legend">{rows}</div>'


def _options(spec: GraphSpec) -> dict[str, Any]:
    positioned = spec.positioned
    return {
        "physics": {"enabled": not positioned, "stabilization": {"iterations": 200, "fit": True},
                    "barnesHut": {"gravitationalConstant": -9000, "springLength": 140}},
        "layout": {"improvedLayout": len(spec.nodes) < 120},
        "interaction": {"hover": True, "tooltipDelay": 80, "navigationButtons": False, "keyboard": False,
                        "multiselect": False, "hideEdgesOnDrag": len(spec.edges) > 300},
        "nodes": {"font": {"size": spec.font_size, "color": "#0F172A", "strokeWidth": 3, "strokeColor": "#ffffff",
                           "face": "Source Sans 3, Source Sans Pro, system-ui, sans-serif"}},
        "edges": {"smooth": False, "selectionWidth": 1.5,
                  "font": {"size": max(11, int(spec.font_size * 0.8)), "color": "#334155", "strokeWidth": 4,
                           "strokeColor": "#ffffff",
                           "align": "middle", "face": "Source Sans 3, Source Sans Pro, system-ui, sans-serif"}},
    }


@lru_cache(maxsize=24)
def to_html(spec: GraphSpec, *, height: int = 480) -> str:
    """Self-contained, offline HTML of *spec* (about 0.5 MB: vis-network is inlined)."""
    from pyvis.network import Network

    net = Network(height=f"{int(height)}px", width="100%", directed=spec.directed, cdn_resources="in_line",
                  bgcolor="#ffffff")
    for n in spec.nodes:
        color = _color(n.color, "#4F46E5")
        opts: dict[str, Any] = {
            "title": _text(n.title, 2500) if n.title else None,
            "size": float(n.size),
            "borderWidth": int(n.border_width),
            "color": {"background": color, "border": _color(n.border_color, color),
                      "highlight": {"background": color, "border": "#0F172A"},
                      "hover": {"background": color, "border": "#0F172A"}},
        }
        if n.x is not None and n.y is not None:
            opts["x"], opts["y"] = float(n.x), float(n.y)
        if opts["title"] is None:
            del opts["title"]
        net.add_node(str(n.id), label=_text(n.label, 60) or " ", shape=n.shape if n.shape in ("dot", "box",
                     "ellipse", "diamond", "square", "triangle", "star") else "dot", **opts)
    for e in spec.edges:
        color = _color(e.color, "#94A3B8")
        eopts: dict[str, Any] = {
            "color": {"color": color, "highlight": color, "hover": color},
            "width": float(e.width),
            "dashes": bool(e.dashes),
            "arrows": "to" if (e.arrows and spec.directed) else "",
        }
        if e.label and spec.edge_labels:
            eopts["label"] = _text(e.label, 120)
        if e.title:
            eopts["title"] = _text(e.title, 2500)
        net.add_edge(str(e.source), str(e.target), **eopts)
    net.options = _options(spec)
    page = net.generate_html()
    page = _REMOTE_TAGS.sub("", page)
    page = _VIS_CSS.sub("", page, count=1)
    page = _EMPTY_HEADING.sub("", page)
    page = page.replace("</head>", _STYLE + "</head>", 1)
    # fit the view, then zoom out a little so labels at the edges are not cut off
    fit = ("<script>(function () { if (typeof network === 'undefined') return;"
           " function arFit() { network.fit({animation: false});"
           " network.moveTo({scale: network.getScale() * 0.88, animation: false}); }"
           " network.once('afterDrawing', arFit);"
           " network.on('resize', function () { setTimeout(arFit, 0); }); })();</script>")
    page = page.replace("</body>", _legend(spec) + fit + "</body>", 1)
    if "popup.innerHTML" in page:  # pyvis's HTML tooltip mode must never be active
        raise RuntimeError("pyvis produced an HTML tooltip page; refusing to render registry text as HTML")
    if _REMOTE_REF.search(page):
        raise RuntimeError("graph page still references a remote resource")
    return page

