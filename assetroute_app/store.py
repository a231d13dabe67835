"""Process-wide state of the dashboard: the registry store, the logo-host check, the warm-up.

* :class:`RegistryStore` loads each registry source once per process (all sessions share it).
* :class:`LogoHosts` answers "can this host's logos load?" by opening one TCP connection to the
  host (1 s timeout, remembered for ten minutes).  Offline (a demo without internet) every check
  fails fast and the tables show initials instead of broken images.  It is a server-side
  guess: a browser with a different network than the server is not asked.
* :func:`preload_view_libraries` imports the result pages' libraries in the background.
"""


from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from assetroute_core import Registry
    from assetroute_core._fetch import ProgressCallback

__all__ = ["LogoHosts", "RegistryStore", "preload_view_libraries"]


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


def _connects(host: str, port: int, timeout: float) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except (OSError, ValueError, UnicodeError):
        return False


@dataclass
class LogoHosts:
    """Whether logo hosts can be reached, checked once per host and remembered for *ttl* seconds.

    >>> hosts = LogoHosts(probe=lambda host, port, timeout: host == "up.example")
    >>> hosts.reachable("https://up.example/a.png"), hosts.reachable("https://down.example/a.png")
    (True, False)
    >>> hosts.reachable("not a url")
    False
    """

    timeout: float = 1.0
    ttl: float = 600.0
    probe: Callable[[str, int, float], bool] = _connects
    _seen: dict[tuple[str, int], tuple[float, bool]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def reachable(self, url: str) -> bool:
        """True when *url*'s host accepted a connection recently (one check per host per *ttl*)."""
        from urllib.parse import urlsplit

        try:
            parts = urlsplit(url)
            host, port = parts.hostname, parts.port or (443 if parts.scheme == "https" else 80)
        except ValueError:
            return False
        if not host or parts.scheme not in ("http", "https"):
            return False
        key = (host, port)
        with self._lock:
            now = time.monotonic()
            seen = self._seen.get(key)
            if seen is None or now - seen[0] > self.ttl:
                seen = (now, self.probe(host, port, self.timeout))
                self._seen[key] = seen
            return seen[1]


def preload_view_libraries() -> None:
    """Import what the first result page needs (pandas, plotly, pyvis and its templates).

    About a second of imports that a fresh process otherwise pays on the first submit; the
    dashboard runs this in a background thread once the first page of a tab has settled
    (``POST _assetroute/warm-up``, :mod:`assetroute_app.serving`), not before: it would slow that
    page down.
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
