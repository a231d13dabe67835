"""The registry store (one load per process) and the background warm-up of view libraries."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from assetroute_core import Registry
    from assetroute_core._fetch import ProgressCallback

__all__ = ["RegistryStore", "preload_view_libraries"]


@dataclass
class RegistryStore:
    """Loads each registry source once per process; thread-safe (one load at a time per store).

    The dashboard keeps one store in ``st.cache_resource`` so every session shares it.
    """

    _loaded: dict[str, Registry] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def peek(self, source: str | None) -> Registry | None:
        """The registry of *source* if already loaded."""
        return self._loaded.get(source or "")

    def get(self, source: str | None, *, progress: ProgressCallback | None = None) -> Registry:
        """Load (once) and return the registry of *source* (``None``: default resolution)."""
        key = source or ""
        with self._lock:
            reg = self._loaded.get(key)
            if reg is None:
                from assetroute_core import load_registry

                reg = load_registry(source or None, progress=progress)
                self._loaded[key] = reg
            return reg


def preload_view_libraries() -> None:
    """Import what the first result page needs (pandas, plotly, pyvis and its templates).

    About a second of imports that a fresh process otherwise pays on the first submit; the
    dashboard runs this in a background thread at start-up, while the browser loads the front end.
    """
    import pandas as pd
    import plotly.express as px
    import plotly.graph_objects as go
    import pyarrow as pa

    from assetroute_core.drawing import GraphEdge, GraphNode, GraphSpec, render_html

    frame = pd.DataFrame({"kind": ["IBC", "CCTP"], "count": [2, 1]})
    pa.Table.from_pandas(frame)  # how Streamlit ships tables to the browser
    px.bar(frame, x="count", y="kind", color="kind", orientation="h").to_json()  # plotly builds validators lazily
    go.Figure(go.Heatmap(z=[[0, 1], [1, 0]])).to_json()
    render_html(GraphSpec((GraphNode("a", "a", x=0, y=0), GraphNode("b", "b", x=1, y=0)), (GraphEdge("a", "b"),)))
