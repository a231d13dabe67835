"""The one exception hierarchy of assetroute.

Every error the package raises on purpose is an :class:`AssetRouteError`;
messages name the offending value::

    AssetRouteError
    ├── RegistrySourceError        a registry source cannot be resolved or read
    │   ├── FetchError             download failed: HTTP status, timeout, stall, size cap, truncation
    │   └── UnsafeArchiveError     an archive member is unsafe (``..``, absolute, link, too many, too big)
    ├── OverlayError               the overlay file is malformed
    ├── RequestError               a lookup request is invalid (has ``code``, ``http_status``, ``message``)
    │   ├── InvalidArgumentError   400, gRPC code 3 (INVALID_ARGUMENT)
    │   │   └── PayloadTooLargeError  413, gRPC code 8 (RESOURCE_EXHAUSTED): body over the size limit
    │   ├── NotFoundError          404, gRPC code 5 (NOT_FOUND)
    │   └── MethodNotAllowedError  405, gRPC code 12 (UNIMPLEMENTED)
    └── RemoteServiceError         a remote compatible service failed or answered nonsense

``RequestError`` keeps the reference API's exact ``message`` (``"dest chain not found"``)
and the offending ``value`` apart: ``str(error)`` names both, the API body carries the message.
It mirrors the reference API's error body
``{"code": <gRPC code>, "message": "...", "details": []}``: :meth:`RequestError.to_api`
returns exactly that, so the HTTP service, the client and the CLI speak the same errors.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "AssetRouteError",
    "FetchError",
    "InvalidArgumentError",
    "MethodNotAllowedError",
    "NotFoundError",
    "OverlayError",
    "PayloadTooLargeError",
    "RegistrySourceError",
    "RemoteServiceError",
    "RequestError",
    "UnsafeArchiveError",
]


class AssetRouteError(Exception):
    """Base class of every error assetroute raises on purpose."""


class RegistrySourceError(AssetRouteError):
    """A registry source (directory, archive, URL) cannot be resolved or read."""


class FetchError(RegistrySourceError):
    """Downloading a registry archive failed (HTTP error, timeout, size cap, truncation)."""


class UnsafeArchiveError(RegistrySourceError):
    """A registry archive holds an unsafe or oversized member and was refused."""


class OverlayError(AssetRouteError):
    """An overlay file is malformed (not JSON, wrong shape, a fact without a source)."""


class RequestError(AssetRouteError):
    """A lookup request is invalid; carries the API's gRPC ``code`` and HTTP status."""

    code: int = 2
    http_status: int = 500

    def __init__(self, message: str, *, value: object = None) -> None:
        super().__init__(message if value is None else f"{message}: {value!r}")
        self.message = message
        self.value = value

    def to_api(self) -> dict[str, Any]:
        """The reference API's error body: ``{"code", "message", "details"}``."""
        return {"code": self.code, "message": self.message, "details": []}


class InvalidArgumentError(RequestError):
    """400, gRPC code 3: malformed JSON, wrong types, missing fields, bad values."""

    code = 3
    http_status = 400


class PayloadTooLargeError(InvalidArgumentError):
    """413, gRPC code 8 (RESOURCE_EXHAUSTED): the request body is over the server's size limit.

    gRPC itself answers an oversized message with RESOURCE_EXHAUSTED; HTTP's status for it is 413.
    """

    code = 8
    http_status = 413


class NotFoundError(RequestError):
    """404, gRPC code 5: an unknown chain (``source chain not found``/``dest chain not found``)."""

    code = 5
    http_status = 404


class MethodNotAllowedError(RequestError):
    """405, gRPC code 12: a known path called with the wrong HTTP method."""

    code = 12
    http_status = 405


class RemoteServiceError(AssetRouteError):
    """A remote compatible service could not be reached or answered something unexpected."""
