"""The server side of the dashboard's start: ``app.py``'s ``st.App`` lifespan and its one route.

* :func:`lifespan` starts :func:`assetroute_app.ui.warm_up` (the registry load) in a background
  thread as the server starts and returns at once: the load overlaps the time the first browser
  spends loading the front end.
* ``POST /_assetroute/warm-up`` (:func:`routes`) starts importing the result pages' libraries
  (pandas, plotly, pyvis: about a second, :func:`assetroute_app.store.preload_view_libraries`),
  once per process.  A tab calls it when its first page has settled (:mod:`assetroute_app.frontend`):
  started earlier, that second holds the interpreter's lock while the same process serves the
  first page's front-end code, and the page shows later.  It takes no input and answers 204.
  It is matched under any prefix (``/<server.baseUrlPath>/_assetroute/warm-up``), so that building
  the app reads no configuration: ``app.py`` is imported before Streamlit has found the app's own
  ``.streamlit/config.toml``.

Imports nothing heavy itself.
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .frontend import WARM_UP_PATH

__all__ = ["lifespan", "routes", "start_view_warm_up"]

_lock = threading.Lock()
_view_warm_up: threading.Thread | None = None


def _warm_up() -> None:
    from . import ui

    ui.warm_up()


@asynccontextmanager
async def lifespan(app: Any) -> AsyncIterator[None]:
    """Start the registry load in a background thread, then serve."""
    threading.Thread(target=_warm_up, name="assetroute-warm-up", daemon=True).start()
    yield


def start_view_warm_up() -> bool:
    """Import the result pages' libraries in a background thread, once per process; ``True`` if this
    call started it."""
    global _view_warm_up
    with _lock:
        if _view_warm_up is not None:
            return False
        from .store import preload_view_libraries

        _view_warm_up = threading.Thread(target=preload_view_libraries, name="assetroute-view-warm-up", daemon=True)
        _view_warm_up.start()
        return True


async def _warm_up_endpoint(request: Request) -> Response:
    start_view_warm_up()
    return Response(status_code=204)


def routes() -> list[Route]:
    """The dashboard's own routes, matched under any base URL path.

    >>> [r.path for r in routes()]
    ['/{base:path}_assetroute/warm-up']
    >>> bool(routes()[0].path_regex.match("/dash/_assetroute/warm-up"))
    True
    """
    return [Route(f"/{{base:path}}{WARM_UP_PATH}", _warm_up_endpoint, methods=["POST"])]
