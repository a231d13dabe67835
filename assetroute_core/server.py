"""The HTTP service: both lookups of the reference API over one loaded registry (Starlette ASGI app).

Routes::

    POST /v2/fungible/assets_between_chains   (GET with query parameters too: the official SDK sends GET)
    POST /v2/fungible/assets_from_source      (and the reference's v1 alias /v1/fungible/assets_from_source)
    GET  /v2/info/chains                      {"chains": [...]} for the routable chains
    GET  /health                              {"status": "ok", ...provenance of the registry}
    GET  /openapi.json                        the OpenAPI 3.1 document (:mod:`._openapi`)

Behaviour decided here (the reference leaves it open or SPEC allows a choice):

* Every error is ``{"code": <gRPC code>, "message": "...", "details": []}``. Invalid input is 400 (code 3),
  an unknown chain in ``assets_between_chains`` 404 (code 5), an unknown path 404 ``Not Found``.
* A known path with the wrong method is **405** (code 12) with an ``Allow`` header. The reference's
  grpc-gateway says 501 for the same body; 405 is the HTTP status that means it.
* A request body over ``max_body_bytes`` (default 64 KiB) is **413** with gRPC code **8**
  (RESOURCE_EXHAUSTED, what gRPC answers for an oversized message). The limit is enforced on the
  ``Content-Length`` header *and* while reading the stream, so chunked bodies are capped too.
* The body is read as JSON **whatever the Content-Type** (like grpc-gateway's fallback marshaler, and the
  official SDK even sends ``content-type: application/json`` on GET); no 415.
* An unexpected exception becomes 500 ``{"code":2,"message":"internal server error","details":[]}``
  (logged with its traceback, never sent); :attr:`Service.internal_errors` counts them, tests keep it 0.

Lookups run directly on the event loop: they are pure, in-memory and cached per request key, and a
cached answer costs microseconds, less than a hop to a thread pool.
"""

from __future__ import annotations

import logging
import os
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Route

from . import __version__
from ._exceptions import RequestError
from ._json import dumps
from ._openapi import OPENAPI
from ._registry import Registry, load_registry
from ._requests import (
    PayloadTooLargeError,
    parse_between_chains,
    parse_between_chains_query,
    parse_from_source,
)

__all__ = ["DEFAULT_MAX_BODY_BYTES", "MAX_BODY_ENV_VAR", "Service", "app_from_env", "create_app"]

DEFAULT_MAX_BODY_BYTES = 64 * 1024
#: Environment variable read by :func:`app_from_env` (used by ``serve --workers N``).
MAX_BODY_ENV_VAR = "ASSETROUTE_MAX_BODY_BYTES"

log = logging.getLogger(__name__)

_JSON = "application/json"
_NOT_FOUND = dumps({"code": 5, "message": "Not Found", "details": []})
_METHOD_NOT_ALLOWED = dumps({"code": 12, "message": "Method Not Allowed", "details": []})
_INTERNAL = dumps({"code": 2, "message": "internal server error", "details": []})
_DISCONNECTED = dumps({"code": 1, "message": "client disconnected", "details": []})
_HTTP_TO_GRPC = {400: 3, 401: 16, 403: 7, 404: 5, 405: 12, 409: 10, 413: 8, 429: 8, 501: 12, 503: 14, 504: 4}


def _json(body: bytes, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(body, status_code=status, media_type=_JSON, headers=headers)


def _error(exc: RequestError) -> Response:
    return _json(dumps(exc.to_api()), exc.http_status)


class Service:
    """The endpoints over one registry; ``app.state.service`` of :func:`create_app`."""

    def __init__(self, registry: Registry, max_body_bytes: int) -> None:
        self.registry = registry
        self.max_body_bytes = max_body_bytes
        self.internal_errors = 0
        self._chains = dumps({"chains": [c.to_api() for c in registry.chains()]})
        self._health = dumps({"status": "ok", "version": __version__, **registry.provenance.to_dict()})
        self._openapi = dumps(OPENAPI)

    # -- helpers ---------------------------------------------------------------------------

    async def _body(self, request: Request) -> bytes:
        limit = self.max_body_bytes
        length = request.headers.get("content-length", "")
        if length.isdigit() and int(length) > limit:
            raise PayloadTooLargeError(f"request body too large: limit is {limit} bytes")
        chunks: list[bytes] = []
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise PayloadTooLargeError(f"request body too large: limit is {limit} bytes")
            chunks.append(chunk)
        return b"".join(chunks)

    def internal_error(self, where: str) -> Response:
        self.internal_errors += 1
        log.exception("internal error in %s", where)
        return _json(_INTERNAL, 500)

    # -- endpoints -------------------------------------------------------------------------

    async def assets_between_chains(self, request: Request) -> Response:
        try:
            if request.method == "POST":
                args = parse_between_chains(await self._body(request))
            else:  # GET (and HEAD)
                args = parse_between_chains_query(request.query_params.multi_items())
            return _json(self.registry.assets_between_chains(**args).to_json())
        except RequestError as exc:
            return _error(exc)
        except ClientDisconnect:
            return _json(_DISCONNECTED, 400)  # nobody is listening any more
        except Exception:
            return self.internal_error("assets_between_chains")

    async def assets_from_source(self, request: Request) -> Response:
        try:
            args = parse_from_source(await self._body(request))
            return _json(self.registry.assets_from_source(**args).to_json())
        except RequestError as exc:
            return _error(exc)
        except ClientDisconnect:
            return _json(_DISCONNECTED, 400)
        except Exception:
            return self.internal_error("assets_from_source")

    async def chains(self, request: Request) -> Response:
        return _json(self._chains)

    async def health(self, request: Request) -> Response:
        return _json(self._health)

    async def openapi(self, request: Request) -> Response:
        return _json(self._openapi)


async def _http_exception(request: Request, exc: Exception) -> Response:
    """Routing errors (unknown path, wrong method) in the reference's error shape."""
    if not isinstance(exc, HTTPException):  # pragma: no cover - Starlette only routes HTTPException here
        return await _unexpected(request, exc)
    if exc.status_code == 404:
        return _json(_NOT_FOUND, 404)
    if exc.status_code == 405:
        return _json(_METHOD_NOT_ALLOWED, 405, dict(exc.headers or {}))
    code = _HTTP_TO_GRPC.get(exc.status_code, 2)
    return _json(dumps({"code": code, "message": str(exc.detail), "details": []}), exc.status_code)


async def _unexpected(request: Request, exc: Exception) -> Response:
    """Last resort for an exception outside the endpoints (the endpoints catch their own)."""
    service = getattr(request.app.state, "service", None)
    if isinstance(service, Service):
        service.internal_errors += 1
    log.error("internal error: %r", exc)
    return _json(_INTERNAL, 500)


def create_app(
    registry: Registry | str | os.PathLike[str] | None = None,
    *,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
) -> Starlette:
    """The ASGI app over *registry*: a loaded :class:`Registry`, a source for :func:`load_registry`
    (directory, archive, URL), or ``None`` for the default source (``$ASSETROUTE_REGISTRY`` or the
    pinned archive). The registry is loaded once, here.
    """
    if max_body_bytes < 1:
        raise ValueError(f"max_body_bytes must be positive, got {max_body_bytes}")
    reg = registry if isinstance(registry, Registry) else load_registry(registry)
    service = Service(reg, max_body_bytes)
    routes = [
        Route("/v2/fungible/assets_between_chains", service.assets_between_chains, methods=["POST", "GET"]),
        Route("/v2/fungible/assets_from_source", service.assets_from_source, methods=["POST"]),
        Route("/v1/fungible/assets_from_source", service.assets_from_source, methods=["POST"]),
        Route("/v2/info/chains", service.chains, methods=["GET"]),
        Route("/health", service.health, methods=["GET"]),
        Route("/openapi.json", service.openapi, methods=["GET"]),
    ]
    handlers: dict[Any, Any] = {HTTPException: _http_exception, Exception: _unexpected}
    app = Starlette(routes=routes, exception_handlers=handlers)
    app.router.redirect_slashes = False  # "/path/" is another path (404), as in grpc-gateway
    app.state.service = service
    app.state.registry = reg
    return app


def app_from_env() -> Starlette:
    """App factory for ``uvicorn --factory`` and ``serve --workers N``: registry from the default
    resolution (``$ASSETROUTE_REGISTRY``), body limit from ``$ASSETROUTE_MAX_BODY_BYTES``."""
    limit = os.environ.get(MAX_BODY_ENV_VAR, "").strip()
    return create_app(None, max_body_bytes=int(limit) if limit else DEFAULT_MAX_BODY_BYTES)
