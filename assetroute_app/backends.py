"""Backends: who answers a page's lookups.

:class:`EmbeddedBackend` answers from the loaded registry (results carry routes);
:class:`RemoteBackend` asks a compatible HTTP service through
:class:`assetroute_core.client.AssetRouteClient` (results carry no routes).  The pages only
see the :class:`Backend` protocol.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, Unpack
from urllib.parse import urlsplit

from assetroute_core import AssetRouteError, BetweenChainsKwargs, FromSourceKwargs, SupportsLookups

if TYPE_CHECKING:
    from assetroute_core import BetweenChainsResult, Chain, FromSourceResult, Registry

__all__ = ["Backend", "EmbeddedBackend", "RemoteBackend", "validate_base_url"]


class Backend(SupportsLookups, Protocol):
    """What a page needs from a backend: the lookups of :class:`~assetroute_core.SupportsLookups`
    and whether results carry routes."""

    label: str
    has_routes: bool


@dataclass(frozen=True)
class EmbeddedBackend:
    """Answers from the loaded registry; results carry a route per pair / destination."""

    registry: Registry
    label: str = "embedded registry"
    has_routes: bool = True

    def assets_between_chains(self, source_chain_id: str, dest_chain_id: str,
                              **options: Unpack[BetweenChainsKwargs]) -> BetweenChainsResult:
        return self.registry.assets_between_chains(source_chain_id, dest_chain_id, **options)

    def assets_from_source(self, source_asset_denom: str, source_asset_chain_id: str,
                           **options: Unpack[FromSourceKwargs]) -> FromSourceResult:
        return self.registry.assets_from_source(source_asset_denom, source_asset_chain_id, **options)

    def chains(self) -> tuple[Chain, ...]:
        return self.registry.chains()


def validate_base_url(url: str) -> str:
    """A remote service base URL: ``http(s)://host[:port][/prefix]``; raises ``ValueError``.

    >>> validate_base_url(" http://127.0.0.1:8000/ ")
    'http://127.0.0.1:8000'
    """
    url = (url or "").strip().rstrip("/")
    try:
        parts = urlsplit(url)
    except ValueError as exc:
        raise ValueError(f"not a URL: {exc}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("the service URL must start with http:// or https:// and name a host")
    if parts.query or parts.fragment or parts.username or parts.password:
        raise ValueError("the service URL must not carry credentials, a query or a fragment")
    return url


@dataclass
class RemoteBackend:
    """Asks a compatible HTTP service; results carry no routes (the API has none)."""

    base_url: str
    label: str = "remote service"
    has_routes: bool = False
    _client: Any = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.base_url = validate_base_url(self.base_url)
        self.label = f"remote service {self.base_url}"

    @property
    def client(self) -> Any:
        if self._client is None:
            try:
                from assetroute_core.client import AssetRouteClient
            except ImportError as exc:  # the client module is optional in this build
                raise AssetRouteError(f"the HTTP client is not available: {exc}") from None
            self._client = AssetRouteClient(self.base_url)
        return self._client

    def assets_between_chains(self, source_chain_id: str, dest_chain_id: str,
                              **options: Unpack[BetweenChainsKwargs]) -> BetweenChainsResult:
        result: BetweenChainsResult = self.client.assets_between_chains(source_chain_id, dest_chain_id, **options)
        return result

    def assets_from_source(self, source_asset_denom: str, source_asset_chain_id: str,
                           **options: Unpack[FromSourceKwargs]) -> FromSourceResult:
        result: FromSourceResult = self.client.assets_from_source(source_asset_denom, source_asset_chain_id,
                                                                   **options)
        return result

    def chains(self) -> tuple[Chain, ...]:
        result: tuple[Chain, ...] = self.client.chains()
        return result
