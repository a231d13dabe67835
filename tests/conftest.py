"""Shared fixtures: the real registry snapshot, loaded once, and one real HTTP server over it.

The snapshot is ``$ASSETROUTE_REGISTRY`` or ``../shared/chain-registry`` next to the repository.
When it is missing the tests FAIL (never skip): they are meaningless without real data.
"""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest
import uvicorn
from starlette.applications import Starlette

from assetroute_core import Registry, load_registry

REPO = Path(__file__).resolve().parents[1]


def snapshot_path() -> Path:
    """Where the registry snapshot is expected."""
    value = os.environ.get("ASSETROUTE_REGISTRY", "").strip()
    return Path(value) if value else REPO.parent / "shared" / "chain-registry"


@pytest.fixture(scope="session")
def registry_path() -> Path:
    """The registry snapshot directory (fails the test when it is missing)."""
    path = snapshot_path()
    if not (path / "cosmoshub" / "chain.json").is_file():
        pytest.fail(f"registry snapshot not found at {path} (set ASSETROUTE_REGISTRY)", pytrace=False)
    return path


@pytest.fixture(scope="session")
def registry(registry_path: Path) -> Registry:
    """The snapshot, loaded once per session."""
    return load_registry(registry_path)


@contextmanager
def serve_in_thread(app: Starlette) -> Iterator[str]:
    """Run *app* on a real uvicorn server on 127.0.0.1 (free port) in a thread; yield its base URL."""
    # proto=IPPROTO_TCP matters: asyncio sets TCP_NODELAY on accepted sockets only when the listening
    # socket says it is TCP; without it every response waits ~40 ms for a delayed ACK.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        for _ in range(500):
            if server.started or not thread.is_alive():
                break
            threading.Event().wait(0.01)
        assert server.started, "uvicorn did not start"
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


@pytest.fixture(scope="session")
def serve_app() -> Callable[[Starlette], AbstractContextManager[str]]:
    """``with serve_app(app) as base_url:`` runs another app on its own real uvicorn server."""
    return serve_in_thread


@pytest.fixture(scope="session")
def live_app(registry: Registry) -> Starlette:
    """The service app over the session registry."""
    from assetroute_core.server import create_app

    return create_app(registry)


@pytest.fixture(scope="session")
def live_server(live_app: Starlette) -> Iterator[str]:
    """Base URL of a real uvicorn server running :func:`live_app` (one per session).

    At the end of the session no request may have reached the 500 catch-all.
    """
    with serve_in_thread(live_app) as url:
        yield url
    assert live_app.state.service.internal_errors == 0, "some input reached the 500 catch-all"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--screenshots", action="store_true", default=False,
                     help="write the e2e screenshots to docs/screenshots/ (default: a temporary folder); "
                          "ASSETROUTE_SCREENSHOTS=1 does the same")
