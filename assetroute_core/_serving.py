"""Running the HTTP service on uvicorn, hardened against slow and greedy clients.

uvicorn (0.54, its pure-Python h11 protocol: no httptools here) only times out a connection that stays
idle *after* a response. A client that connects and sends nothing, trickles its request head, or
trickles its body keeps its connection (and a file descriptor) forever, and uvicorn's own answers (the
503 of ``limit_concurrency``, the 400 of a malformed request) are plain text. :class:`GuardedH11Protocol`
subclasses uvicorn's h11 protocol and adds, per connection, one timer at a time:

* **idle** (``timeout_idle``, default 5 s): no byte of a request within this time after the
  connection opened or the previous response ended → closed without a word (uvicorn's keep-alive
  timeout, also armed on a fresh connection);
* **header** (``timeout_header``, default 10 s): the request head (request line and headers) not
  complete within this time after the connection opened or the previous response ended → **408**
  ``{"code":4,"message":"request header not received within 10 s",…}`` and closed (closed silently if
  not one byte came);
* **body** (``timeout_body``, default 30 s): the body not complete within this time after its head →
  **408** ``{"code":4,"message":"request body not received within 30 s",…}``, the app sees a disconnect,
  and the connection is closed.

While the app computes an answer no timer runs: the lookup has its own budget (``--lookup-timeout``,
:mod:`assetroute_core.server`). Also:

* **concurrency** (``limit_concurrency``, default 1,000 per worker): uvicorn's rule (open connections or
  running requests over the limit), but the answer is **503** ``{"code":14,"message":"server busy: …"}``
  (gRPC UNAVAILABLE) with ``Connection: close``;
* **HTTP-level errors** (malformed request line or header, bad ``Content-Length``, bad chunking, a head
  over ``max_header_bytes``) answer in the error shape: 400 ``{"code":3,"message":"invalid HTTP
  request: …"}``, or 431 with code 8 (RESOURCE_EXHAUSTED) for an oversized head (h11's status hint);
* **out of file descriptors**: asyncio logs a traceback for every failed ``accept()`` (the loop retries
  each second per listening socket, and uvicorn workers multiply it); the loop's exception handler here
  turns that into one warning line per 10 s with a count. :func:`raise_fd_limit` lifts the soft limit to
  the hard one at start, and idle connections are shed by the timers above.

Timers cost one ``call_later`` per request phase (a few microseconds); measured throughput is unchanged.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import time
from dataclasses import dataclass
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

from ._json import dumps

__all__ = ["GuardedConfig", "GuardedH11Protocol", "ServeLimits", "raise_fd_limit"]

log = logging.getLogger(__name__)

_RATE_WINDOW = 10.0  # seconds between two warnings about failed accept() calls


@dataclass(frozen=True, kw_only=True)
class ServeLimits:
    """Per-connection time limits (seconds) and the concurrency limit of one worker."""

    timeout_idle: float = 5.0
    timeout_header: float = 10.0
    timeout_body: float = 30.0
    limit_concurrency: int = 1000
    max_header_bytes: int = 16 * 1024

    def __post_init__(self) -> None:
        for name in ("timeout_idle", "timeout_header", "timeout_body"):
            value = getattr(self, name)
            if not value > 0:
                raise ValueError(f"{name} must be positive, got {value}")
        if self.limit_concurrency < 1:
            raise ValueError(f"limit_concurrency must be positive, got {self.limit_concurrency}")
        if self.max_header_bytes < 1024:
            raise ValueError(f"max_header_bytes must be at least 1024, got {self.max_header_bytes}")


class GuardedConfig(uvicorn.Config):
    """A :class:`uvicorn.Config` that serves with :class:`GuardedH11Protocol` under *limits*."""

    def __init__(self, app: Any, *, limits: ServeLimits | None = None, **kwargs: Any) -> None:
        self.limits = limits if limits is not None else ServeLimits()
        kwargs.setdefault("http", GuardedH11Protocol)
        super().__init__(app, timeout_keep_alive=self.limits.timeout_idle,  # type: ignore[arg-type]
                         h11_max_incomplete_event_size=self.limits.max_header_bytes, **kwargs)


def _error_bytes(status: int, reason: str, code: int, message: str) -> bytes:
    """A complete HTTP/1.1 response in the service's error shape, closing the connection."""
    body = dumps({"code": code, "message": message, "details": []})
    head = (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n")
    return head.encode("ascii") + body


class _Connection(h11.Connection):
    """h11's connection, telling the protocol about request heads, ends of bodies and protocol errors."""

    def __init__(self, protocol: GuardedH11Protocol, max_incomplete_event_size: int) -> None:
        super().__init__(h11.SERVER, max_incomplete_event_size=max_incomplete_event_size)
        self.max_incomplete_event_size = max_incomplete_event_size
        self.protocol = protocol
        self.last_error: h11.RemoteProtocolError | None = None

    def next_event(self) -> Any:
        try:
            event = super().next_event()
        except h11.RemoteProtocolError as exc:
            self.last_error = exc
            raise
        if isinstance(event, h11.Request):
            # h11 bounds only a head still arriving; one that came in a single read is measured here
            size = len(event.method) + len(event.target) + sum(len(k) + len(v) + 4 for k, v in event.headers)
            if size > self.max_incomplete_event_size:
                self.last_error = h11.RemoteProtocolError("request header too large", error_status_hint=431)
                raise self.last_error
            self.protocol.head_received()
        elif isinstance(event, h11.EndOfMessage):
            self.protocol.body_received()
        return event


class _AcceptErrorLog:
    """Loop exception handler: failed ``accept()`` calls (out of descriptors) as one line per window."""

    def __init__(self) -> None:
        self.count = 0
        self.window_start = 0.0

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if isinstance(exc, OSError) and exc.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
            self.count += 1
            now = time.monotonic()
            if now - self.window_start >= _RATE_WINDOW:
                log.warning("cannot accept connections: %s (%d time%s in the last %g s); idle connections "
                            "are closed after the idle/header timeouts", exc.strerror, self.count,
                            "" if self.count == 1 else "s", _RATE_WINDOW)
                self.count = 0
                self.window_start = now
            return
        loop.default_exception_handler(context)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with header/body/idle timeouts and error-shaped protocol answers."""

    def __init__(self, config: uvicorn.Config, server_state: ServerState, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.limits: ServeLimits = getattr(config, "limits", None) or ServeLimits()
        self._conn = _Connection(self, self.limits.max_header_bytes)
        self.conn = self._conn
        self.limit_concurrency = None  # answered by _limited_app, in the error shape
        self._inner_app = self.app
        self.app = self._limited_app
        self._timer: asyncio.TimerHandle | None = None
        self._head_bytes = False  # some byte of the next request head arrived
        if not isinstance(self.loop.get_exception_handler(), _AcceptErrorLog):
            self.loop.set_exception_handler(_AcceptErrorLog())

    # -- timers ----------------------------------------------------------------------------

    def _arm(self, seconds: float, callback: Any) -> None:
        self._disarm()
        self._timer = self.loop.call_later(seconds, callback)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _await_head(self) -> None:
        self._head_bytes = False
        self._arm(self.limits.timeout_header, self._header_timeout)
        # the idle timer: uvicorn's keep-alive handler, armed on a fresh connection too
        self._unset_keepalive_if_required()
        self.timeout_keep_alive_task = self.loop.call_later(self.limits.timeout_idle, self.timeout_keep_alive_handler)

    def head_received(self) -> None:
        self._arm(self.limits.timeout_body, self._body_timeout)

    def body_received(self) -> None:
        self._disarm()

    def _close_with(self, data: bytes) -> None:
        if self.transport.is_closing():
            return
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True  # the app sees http.disconnect and its answer is dropped
            self.cycle.message_event.set()
        if data:
            self.transport.write(data)
        self.transport.close()

    def _header_timeout(self) -> None:
        self._timer = None
        if not self._head_bytes:
            self._close_with(b"")
            return
        self._close_with(_error_bytes(408, "Request Timeout", 4, "request header not received within "
                                      f"{self.limits.timeout_header:g} s"))

    def _body_timeout(self) -> None:
        self._timer = None
        started = self.cycle is not None and self.cycle.response_started
        self._close_with(b"" if started else _error_bytes(
            408, "Request Timeout", 4, f"request body not received within {self.limits.timeout_body:g} s"))

    # -- uvicorn's protocol interface ------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        self._head_bytes = True
        super().data_received(data)

    def on_response_complete(self) -> None:
        if not self.transport.is_closing():
            # Before super(): it arms the idle timer and may parse a pipelined request at once (whose
            # head then replaces this timer by the body timer).
            self._head_bytes = False
            self._arm(self.limits.timeout_header, self._header_timeout)
        super().on_response_complete()

    def send_400_response(self, msg: str) -> None:
        self._disarm()
        error = self._conn.last_error
        status = error.error_status_hint if error is not None else 400
        detail = str(error) if error is not None and str(error) else msg
        if status == 431:
            data = _error_bytes(431, "Request Header Fields Too Large", 8,
                                f"request header over {self.limits.max_header_bytes} bytes")
        else:
            data = _error_bytes(400, "Bad Request", 3, f"invalid HTTP request: {detail}")
        response_started = self.cycle is not None and self.cycle.response_started
        self._close_with(b"" if response_started else data)

    async def _limited_app(self, scope: Any, receive: Any, send: Any) -> None:
        limit = self.limits.limit_concurrency
        if len(self.connections) > limit or len(self.tasks) > limit:
            self.logger.debug("concurrency limit of %d reached: 503", limit)
            body = dumps({"code": 14, "message": f"server busy: over {limit} concurrent connections or "
                                                 "requests, try again later", "details": []})
            await send({"type": "http.response.start", "status": 503,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(body)).encode()), (b"connection", b"close"),
                                    (b"retry-after", b"1")]})
            await send({"type": "http.response.body", "body": body})
            return
        await self._inner_app(scope, receive, send)


def raise_fd_limit() -> tuple[int, int] | None:
    """Lift the soft limit on open files to the hard limit; return ``(soft, hard)`` after, or ``None``."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not POSIX
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):  # pragma: no cover - e.g. an infinite hard limit refused
            pass
    return soft, hard
