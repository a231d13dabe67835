"""The HTTP service: both lookups of the reference API over one loaded registry (Starlette ASGI app).

Routes::

    POST /v2/fungible/assets_between_chains   (GET with query parameters too: the official SDK sends GET)
    POST /v2/fungible/assets_from_source      (and the reference's v1 alias /v1/fungible/assets_from_source)
    GET  /v2/info/bridges                     {"bridges": [...]}: IBC and the reference's kinds the registry links
    GET  /v2/fungible/venues                  {"venues": [...]}: the overlay's swap venues
    GET  /v2/fungible/assets                  {"chain_to_assets_map": {...}} (chain_ids, native_only, include_*)
    POST /v2/fungible/ibc_origin_assets       {"origin_assets": [...]}: each entry answered on its own
    POST /v2/fungible/recommend_assets        {"recommendation_entries": [...]}: each entry answered on its own
    GET  /v2/info/chains                      {"chains": [...]}: the routable chains, the reference's whole
                                              Chain shape and query (chain_ids, include_evm, include_svm)
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

Where lookups run (one slow query must never stall the others, nor ``/health``):

* Answers are kept in a **response cache** (:class:`_ResponseCache`): the exact status and body bytes per
  validated request (the registry is immutable, so an answer never changes), bounded by bytes
  (``response_cache_bytes``, default 64 MiB; least recently used out first). A cached answer is served on
  the event loop: a dict lookup, far cheaper than a hop to a thread (measured: the hot path stays over
  2,000 requests/s on one worker).
* An answer not in the cache is computed in a **bounded thread pool** (``lookup_threads``, default 4),
  never on the loop. The request waits at most ``lookup_timeout`` seconds (default 10), queueing for a
  thread included; past it the answer is **504** ``{"code":4,"message":"deadline exceeded: …"}``
  (gRPC DEADLINE_EXCEEDED, which grpc-gateway maps to 504). A lookup still queued is dropped; one already
  running cannot be stopped (Python threads cannot be), so it finishes in its thread and its answer goes
  into the cache: the same request asked again is then answered at once.
* Request parsing stays on the loop: bodies are at most ``max_body_bytes`` and parse in microseconds.

Browsers on other origins (CORS):

* The data is public and read-only, so **any origin** may call the service by default
  (``cors_origins=("*",)``; ``serve --cors-origins``): responses carry ``Access-Control-Allow-Origin``,
  and a preflight ``OPTIONS`` (the official SDK always sends ``content-type: application/json``, so
  browsers always preflight) is answered 200 for ``GET``/``POST`` with any request header, cached by the
  browser for ``max-age`` 600 s. No credentials (cookies) are ever allowed: nothing here needs them.
* A preflight the policy refuses (an origin not listed, a method other than GET/POST/OPTIONS) is
  **400** with the error body (code 3) naming what was refused, not Starlette's plain-text line.
* ``cors_origins=()`` turns CORS off: no headers, and ``OPTIONS`` is then a 405 like any other method.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import re
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Hashable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Route

from . import __version__
from ._exceptions import RequestError
from ._json import dumps
from ._models import Chain
from ._openapi import OPENAPI
from ._registry import Registry, load_registry
from ._requests import (
    ChainsQuery,
    PayloadTooLargeError,
    parse_assets_query,
    parse_between_chains,
    parse_between_chains_query,
    parse_chains_query,
    parse_from_source,
    parse_origin_assets,
    parse_recommend_assets,
)

__all__ = [
    "CORS_ENV_VAR",
    "DEFAULT_CORS_ORIGINS",
    "DEFAULT_LOOKUP_THREADS",
    "DEFAULT_LOOKUP_TIMEOUT",
    "DEFAULT_MAX_BODY_BYTES",
    "DEFAULT_RESPONSE_CACHE_BYTES",
    "LOOKUP_THREADS_ENV_VAR",
    "LOOKUP_TIMEOUT_ENV_VAR",
    "MAX_BODY_ENV_VAR",
    "RESPONSE_CACHE_ENV_VAR",
    "Service",
    "app_from_env",
    "create_app",
    "parse_cors_origins",
]

DEFAULT_MAX_BODY_BYTES = 64 * 1024
#: Origins whose browser pages may call the service (``"*"``: any; public, read-only data).
DEFAULT_CORS_ORIGINS: tuple[str, ...] = ("*",)
#: Seconds one request may wait for its lookup (queue included) before a 504.
DEFAULT_LOOKUP_TIMEOUT = 10.0
#: Threads computing answers that are not cached yet.
DEFAULT_LOOKUP_THREADS = 4
#: Bytes of answers kept by the response cache.
DEFAULT_RESPONSE_CACHE_BYTES = 64 * 1024 * 1024
#: Environment variables read by :func:`app_from_env` (used by ``serve --workers N``).
MAX_BODY_ENV_VAR = "ASSETROUTE_MAX_BODY_BYTES"
LOOKUP_TIMEOUT_ENV_VAR = "ASSETROUTE_LOOKUP_TIMEOUT"
LOOKUP_THREADS_ENV_VAR = "ASSETROUTE_LOOKUP_THREADS"
RESPONSE_CACHE_ENV_VAR = "ASSETROUTE_RESPONSE_CACHE_BYTES"
CORS_ENV_VAR = "ASSETROUTE_CORS_ORIGINS"

log = logging.getLogger(__name__)

_NO_VENUES = dumps({"venues": []})
_ORIGIN_RE = re.compile(r"https?://[A-Za-z0-9.\-\[\]:]+")  # scheme://host[:port], no path

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


_ENTRY_OVERHEAD = 256  # bytes counted per cache entry on top of its body and key strings


class _ResponseCache:
    """Thread-safe LRU of ``key -> (status, body)``, bounded by the bytes it holds."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.size = 0
        self._data: OrderedDict[Hashable, tuple[int, bytes, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> tuple[int, bytes] | None:
        with self._lock:
            hit = self._data.get(key)
            if hit is None:
                return None
            self._data.move_to_end(key)
            return hit[0], hit[1]

    def put(self, key: tuple[Any, ...], status: int, body: bytes) -> None:
        weight = len(body) + _ENTRY_OVERHEAD + sum(len(k) for k in key if isinstance(k, str))
        if weight > self.max_bytes // 4:  # one answer never takes most of the cache
            return
        # A compact copy: orjson's bytes keep its working buffer, up to twice their length, and the
        # cache's bound counts the length.
        body = bytes(memoryview(body))
        with self._lock:
            old = self._data.pop(key, None)
            if old is not None:
                self.size -= old[2]
            self._data[key] = (status, body, weight)
            self.size += weight
            while self.size > self.max_bytes:
                _, (_, _, evicted) = self._data.popitem(last=False)
                self.size -= evicted

    def __len__(self) -> int:
        return len(self._data)


class Service:
    """The endpoints over one registry; ``app.state.service`` of :func:`create_app`."""

    def __init__(self, registry: Registry, max_body_bytes: int, *, lookup_timeout: float = DEFAULT_LOOKUP_TIMEOUT,
                 lookup_threads: int = DEFAULT_LOOKUP_THREADS,
                 response_cache_bytes: int = DEFAULT_RESPONSE_CACHE_BYTES) -> None:
        self.registry = registry
        self.max_body_bytes = max_body_bytes
        self.lookup_timeout = lookup_timeout
        self.lookup_threads = lookup_threads
        self.internal_errors = 0
        #: Requests answered 504 because their lookup overran ``lookup_timeout``.
        self.timeouts = 0
        self.cache = _ResponseCache(response_cache_bytes)
        self._pool: ThreadPoolExecutor | None = None  # started on the first uncached lookup
        self._pool_lock = threading.Lock()
        self._testnet_lock = threading.Lock()
        self._testnet_world: tuple[Registry | None] | None = None  # loaded on the first only_testnets request
        self._deadline = dumps({"code": 4, "message": f"deadline exceeded: the lookup did not finish within "
                                                       f"{lookup_timeout:g} s", "details": []})
        self._chain_list = tuple((c, c.to_api()) for c in registry.chains())
        self._chains = {(evm, svm): self._chains_body(ChainsQuery(include_evm=evm, include_svm=svm))
                        for evm in (False, True) for svm in (False, True)}
        self._bridges = dumps({"bridges": [b.to_api() for b in registry.bridges()]})
        self._venues = dumps({"venues": [v.to_api() for v in registry.swap_venues()]})
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

    def _executor(self) -> ThreadPoolExecutor:
        with self._pool_lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.lookup_threads, thread_name_prefix="assetroute-lookup")
            return self._pool

    def _compute(self, key: tuple[Any, ...], lookup: Callable[..., Any], args: dict[str, Any]) -> tuple[int, bytes]:
        """Run one lookup (in a pool thread) and cache its answer, also when nobody waits for it any more."""
        try:
            status, body = 200, lookup(**args).to_json()
        except RequestError as exc:
            status, body = exc.http_status, dumps(exc.to_api())
        self.cache.put(key, status, body)
        return status, body

    async def _answer(self, where: str, lookup: Callable[..., Any], args: dict[str, Any]) -> Response:
        """The cached answer at once, else the lookup off the loop within the time budget."""
        key = (where, *(tuple(v) if isinstance(v, list) else v for v in args.values()))
        hit = self.cache.get(key)
        if hit is not None:
            return _json(hit[1], hit[0])
        future = asyncio.get_running_loop().run_in_executor(self._executor(), self._compute, key, lookup, args)
        try:
            status, body = await asyncio.wait_for(future, self.lookup_timeout)
        except TimeoutError:  # wait_for cancelled the job: dropped if still queued
            self.timeouts += 1
            log.warning("%s: lookup over the %g s budget: %r", where, self.lookup_timeout, args)
            return _json(self._deadline, 504)
        except Exception:
            return self.internal_error(where)
        return _json(body, status)

    def close(self) -> None:
        """Stop the lookup threads (queued lookups are dropped; running ones finish on their own)."""
        with self._pool_lock:
            if self._pool is not None:
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None

    def internal_error(self, where: str) -> Response:
        self.internal_errors += 1
        log.exception("internal error in %s", where)
        return _json(_INTERNAL, 500)

    # -- endpoints -------------------------------------------------------------------------

    async def _read_and_answer(self, request: Request, where: str, lookup: Callable[..., Any],
                               read: Callable[[bytes], Mapping[str, Any]],
                               read_query: Callable[[Any], Mapping[str, Any]] | None = None) -> Response:
        """Validate the request (its body, or its query for a GET where *read_query* is given), then answer
        it through the cache and the budget; every failure to read is the error body, never a 500."""
        try:
            if read_query is not None and request.method != "POST":  # GET (and HEAD)
                args = read_query(request.query_params.multi_items())
            else:
                args = read(await self._body(request))
        except RequestError as exc:
            return _error(exc)
        except ClientDisconnect:
            return _json(_DISCONNECTED, 400)  # nobody is listening any more
        except Exception:
            return self.internal_error(where)
        return await self._answer(where, lookup, dict(args))

    async def assets_between_chains(self, request: Request) -> Response:
        return await self._read_and_answer(request, "assets_between_chains", self.registry.assets_between_chains,
                                           parse_between_chains, parse_between_chains_query)

    async def assets_from_source(self, request: Request) -> Response:
        return await self._read_and_answer(request, "assets_from_source", self.registry.assets_from_source,
                                           parse_from_source)

    def _chains_body(self, query: ChainsQuery, chain_list: tuple[tuple[Chain, dict[str, Any]], ...] | None = None,
                     ) -> bytes:
        wanted = None if query.chain_ids is None else set(query.chain_ids)
        hidden = {t for t, shown in (("evm", query.include_evm), ("svm", query.include_svm)) if not shown}
        return dumps({"chains": [api for c, api in (self._chain_list if chain_list is None else chain_list)
                                 if c.chain_type not in hidden and (wanted is None or c.chain_id in wanted)]})

    def _load_testnets(self) -> Registry | None:
        with self._testnet_lock:
            if self._testnet_world is None:
                self._testnet_world = (self.registry.testnets(),)
            return self._testnet_world[0]

    async def _testnets(self) -> Registry | None:
        """The registry's testnet world (SPEC §1), loaded once, off the loop, on the first request for it."""
        if self._testnet_world is not None:
            return self._testnet_world[0]
        loop = asyncio.get_running_loop()
        return await asyncio.wait_for(loop.run_in_executor(self._executor(), self._load_testnets),
                                      self.lookup_timeout)

    async def chains(self, request: Request) -> Response:
        """``GET /v2/info/chains`` with the reference's query parameters (see :class:`ChainsQuery`)."""
        try:
            query = parse_chains_query(request.query_params.multi_items())
        except RequestError as exc:
            return _error(exc)
        if query.only_testnets:
            try:
                world = await self._testnets()
            except TimeoutError:
                return _json(self._deadline, 504)
            return _json(self._chains_body(query, () if world is None else
                                           tuple((c, c.to_api()) for c in world.chains())))
        if query.chain_ids is None:
            return _json(self._chains[query.include_evm, query.include_svm])
        return _json(self._chains_body(query))

    async def bridges(self, request: Request) -> Response:
        return _json(self._bridges)

    async def venues(self, request: Request) -> Response:
        """``GET /v2/fungible/venues``; the overlay knows no testnet venue, so ``only_testnets=true`` lists none."""
        try:
            query = parse_chains_query(request.query_params.multi_items())  # only only_testnets applies here
        except RequestError as exc:
            return _error(exc)
        return _json(_NO_VENUES) if query.only_testnets else _json(self._venues)

    async def assets(self, request: Request) -> Response:
        """``GET /v2/fungible/assets``: computed off the loop and cached per query, like the lookups."""
        try:
            args = parse_assets_query(request.query_params.multi_items())
        except RequestError as exc:
            return _error(exc)
        if args.pop("only_testnets", False):
            try:
                world = await self._testnets()
            except TimeoutError:
                return _json(self._deadline, 504)
            if world is None:
                return _json(dumps({"chain_to_assets_map": {}}))
            return await self._answer("assets_testnets", world.assets_by_chain, args)
        return await self._answer("assets", self.registry.assets_by_chain, args)

    async def ibc_origin_assets(self, request: Request) -> Response:
        return await self._read_and_answer(request, "ibc_origin_assets", self.registry.origin_assets,
                                           lambda body: {"assets": tuple(parse_origin_assets(body))})

    async def recommend_assets(self, request: Request) -> Response:
        return await self._read_and_answer(request, "recommend_assets", self.registry.recommend_assets,
                                           lambda body: {"requests": tuple(parse_recommend_assets(body))})

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


class _CORS(CORSMiddleware):
    """Starlette's CORS middleware whose refused preflights answer with the service's error body."""

    def preflight_response(self, request_headers: Headers) -> Response:
        response = super().preflight_response(request_headers)
        if response.status_code == 200:
            return response
        reason = bytes(response.body).decode("utf-8", "replace")  # e.g. "Disallowed CORS origin, method"
        origin = request_headers.get("origin", "")[:200]
        method = request_headers.get("access-control-request-method", "")[:40]
        message = f"CORS preflight refused ({reason}): origin {origin!r}, method {method!r}"
        headers = {k: v for k, v in response.headers.items() if k.lower() == "vary"}
        return _json(dumps({"code": 3, "message": message, "details": []}), 400, headers)


def parse_cors_origins(value: str) -> tuple[str, ...]:
    """``serve --cors-origins`` / ``$ASSETROUTE_CORS_ORIGINS``: comma-separated origins, ``*`` for any,
    ``none`` (or nothing) for CORS off.

    >>> parse_cors_origins("https://a.example, https://b.example"), parse_cors_origins("none")
    (('https://a.example', 'https://b.example'), ())
    >>> parse_cors_origins("ftp://x")
    Traceback (most recent call last):
    ...
    ValueError: CORS origin 'ftp://x' is not '*' or an http(s) origin like https://app.example
    """
    items = tuple(dict.fromkeys(o.strip().rstrip("/") for o in value.split(",") if o.strip()))
    if items in ((), ("none",)):
        return ()
    for origin in items:
        if origin != "*" and not _ORIGIN_RE.fullmatch(origin):
            raise ValueError(f"CORS origin {origin!r} is not '*' or an http(s) origin like https://app.example")
    return items


def create_app(
    registry: Registry | str | os.PathLike[str] | None = None,
    *,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    lookup_timeout: float = DEFAULT_LOOKUP_TIMEOUT,
    lookup_threads: int = DEFAULT_LOOKUP_THREADS,
    response_cache_bytes: int = DEFAULT_RESPONSE_CACHE_BYTES,
    cors_origins: tuple[str, ...] | list[str] = DEFAULT_CORS_ORIGINS,
) -> Starlette:
    """The ASGI app over *registry*: a loaded :class:`Registry`, a source for :func:`load_registry`
    (directory, archive, URL), or ``None`` for the default source (``$ASSETROUTE_REGISTRY`` or the
    pinned archive). The registry is loaded once, here.

    *lookup_timeout* is the budget in seconds of one lookup (504 past it), *lookup_threads* the size of
    the pool computing uncached answers, *response_cache_bytes* the bound of the answer cache (0: none),
    *cors_origins* the origins whose browser pages may call it (``("*",)``: any; ``()``: CORS off).
    """
    if max_body_bytes < 1:
        raise ValueError(f"max_body_bytes must be positive, got {max_body_bytes}")
    if not lookup_timeout > 0:
        raise ValueError(f"lookup_timeout must be positive, got {lookup_timeout}")
    if lookup_threads < 1:
        raise ValueError(f"lookup_threads must be positive, got {lookup_threads}")
    if response_cache_bytes < 0:
        raise ValueError(f"response_cache_bytes must not be negative, got {response_cache_bytes}")
    origins = parse_cors_origins(",".join(cors_origins)) if cors_origins else ()
    reg = registry if isinstance(registry, Registry) else load_registry(registry)
    service = Service(reg, max_body_bytes, lookup_timeout=lookup_timeout, lookup_threads=lookup_threads,
                      response_cache_bytes=response_cache_bytes)
    routes = [
        Route("/v2/fungible/assets_between_chains", service.assets_between_chains, methods=["POST", "GET"]),
        Route("/v2/fungible/assets_from_source", service.assets_from_source, methods=["POST"]),
        Route("/v1/fungible/assets_from_source", service.assets_from_source, methods=["POST"]),
        Route("/v2/info/chains", service.chains, methods=["GET"]),
        Route("/v2/info/bridges", service.bridges, methods=["GET"]),
        Route("/v2/fungible/venues", service.venues, methods=["GET"]),
        Route("/v2/fungible/assets", service.assets, methods=["GET"]),
        Route("/v2/fungible/ibc_origin_assets", service.ibc_origin_assets, methods=["POST"]),
        Route("/v2/fungible/recommend_assets", service.recommend_assets, methods=["POST"]),
        Route("/health", service.health, methods=["GET"]),
        Route("/openapi.json", service.openapi, methods=["GET"]),
    ]
    handlers: dict[Any, Any] = {HTTPException: _http_exception, Exception: _unexpected}
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # A long-running service: move the loaded registry (a few hundred thousand objects, acyclic and
        # kept for the process's life) out of the cyclic collector's reach, so that its full passes walk
        # only what requests leave behind (a full pass walked the whole registry: ~20 ms, measured).
        gc.collect()
        gc.freeze()
        yield
        service.close()

    middleware = [Middleware(_CORS, allow_origins=list(origins), allow_methods=["GET", "POST"], allow_headers=["*"],
                             max_age=600)] if origins else []
    app = Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan, middleware=middleware)
    app.router.redirect_slashes = False  # "/path/" is another path (404), as in grpc-gateway
    app.state.service = service
    app.state.registry = reg
    return app


def app_from_env() -> Starlette:
    """App factory for ``uvicorn --factory`` and ``serve --workers N``: registry from the default
    resolution (``$ASSETROUTE_REGISTRY``); body limit, lookup budget (seconds), lookup threads and
    response-cache bytes from ``$ASSETROUTE_MAX_BODY_BYTES``, ``$ASSETROUTE_LOOKUP_TIMEOUT``,
    ``$ASSETROUTE_LOOKUP_THREADS`` and ``$ASSETROUTE_RESPONSE_CACHE_BYTES``, CORS origins from
    ``$ASSETROUTE_CORS_ORIGINS`` (defaults when unset)."""
    def env(name: str, default: Any, kind: Callable[[str], Any]) -> Any:
        value = os.environ.get(name, "").strip()
        return kind(value) if value else default

    return create_app(None, max_body_bytes=env(MAX_BODY_ENV_VAR, DEFAULT_MAX_BODY_BYTES, int),
                      lookup_timeout=env(LOOKUP_TIMEOUT_ENV_VAR, DEFAULT_LOOKUP_TIMEOUT, float),
                      lookup_threads=env(LOOKUP_THREADS_ENV_VAR, DEFAULT_LOOKUP_THREADS, int),
                      response_cache_bytes=env(RESPONSE_CACHE_ENV_VAR, DEFAULT_RESPONSE_CACHE_BYTES, int),
                      cors_origins=env(CORS_ENV_VAR, DEFAULT_CORS_ORIGINS, parse_cors_origins))
