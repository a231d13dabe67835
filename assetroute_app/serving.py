"""The server-start hook of the dashboard: ``app.py``'s ``st.App`` lifespan.

Starts :func:`assetroute_app.ui.warm_up` in a background thread as the server starts and returns at
once (the server does not wait for it): the registry load and the first page's imports overlap the
time the first browser spends loading the front end.  Imports nothing heavy itself.
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

__all__ = ["lifespan"]


def _warm_up() -> None:
    from . import ui

    ui.warm_up()


@asynccontextmanager
async def lifespan(app: Any) -> AsyncIterator[None]:
    """Start the warm-up thread, then serve."""
    threading.Thread(target=_warm_up, name="assetroute-warm-up", daemon=True).start()
    yield
