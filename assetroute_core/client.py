"""A synchronous client for assetroute's HTTP service and for any compatible service (the reference API).

The methods have the same names, signatures and options as :class:`~assetroute_core.Registry`, and
return the same result types (read back with ``from_api``; their ``route`` is ``None`` because the API
does not carry routes). Only non-default options are sent, as the official SDK does, so a request that
uses no option looks like ``{"source_chain_id": …, "dest_chain_id": …}`` to any server.

Errors surface as the package's exceptions, with the server's own message:

=====================================  =============================================
HTTP answer                            exception
=====================================  =============================================
400, 413, 415, 422                     :class:`~assetroute_core.InvalidArgumentError`
                                       (413: ``PayloadTooLargeError``, a subclass)
404                                    :class:`~assetroute_core.NotFoundError`
405, 501                               :class:`~assetroute_core.MethodNotAllowedError`
any other status (5xx, 429, 401, …)    :class:`~assetroute_core.RemoteServiceError`
transport failure, non-JSON or         :class:`~assetroute_core.RemoteServiceError`
malformed body
=====================================  =============================================

>>> with AssetRouteClient("https://api.skip.build") as client:   # no request is sent here
...     client.base_url
'https://api.skip.build'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import TracebackType
from typing import Any, TypeVar, Unpack
from urllib.parse import urlencode

import httpx
import orjson

from . import __version__
from ._catalog import AssetsByChain, Bridge, OriginAssets, Recommendations, RecommendRequest
from ._exceptions import (
    InvalidArgumentError,
    MethodNotAllowedError,
    NotFoundError,
    PayloadTooLargeError,
    RemoteServiceError,
    RequestError,
)
from ._models import Chain, FeeAsset, SwapVenue
from ._options import (
    BetweenChainsKwargs,
    BetweenChainsOptions,
    FromSourceKwargs,
    FromSourceOptions,
    unchecked_changes,
)
from ._results import BetweenChainsResult, FromSourceResult, asset_from_api

__all__ = ["AssetRouteClient"]

_STATUS_ERRORS: dict[int, type[RequestError]] = {
    400: InvalidArgumentError,
    413: PayloadTooLargeError,
    415: InvalidArgumentError,
    422: InvalidArgumentError,
    404: NotFoundError,
    405: MethodNotAllowedError,
    501: MethodNotAllowedError,
}
_SHOWN = 200  # characters of an unexpected body quoted in an error
_T = TypeVar("_T")


def _venue(venue: SwapVenue | Mapping[str, object]) -> dict[str, object]:
    if isinstance(venue, SwapVenue):
        out: dict[str, object] = {"name": venue.name, "chain_id": venue.chain_id}
        if venue.logo_uri is not None:
            out["logo_uri"] = venue.logo_uri
        return out
    if isinstance(venue, Mapping):
        return dict(venue)
    raise InvalidArgumentError("swap_venues items must be SwapVenue objects or mappings", value=venue)


class AssetRouteClient:
    """Talk to a service at *base_url* (``http://127.0.0.1:8000``, ``https://api.skip.build``).

    *transport* is passed to :class:`httpx.Client` (tests, proxies, retries); *headers* are sent with
    every request (e.g. ``{"authorization": "<api key>"}`` for the reference service).
    """

    def __init__(
        self,
        base_url: str,
        *,
        timeout: float = 30.0,
        transport: httpx.BaseTransport | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        try:
            url = httpx.URL(base_url)
        except (httpx.InvalidURL, TypeError) as exc:
            raise InvalidArgumentError("invalid base_url", value=base_url) from exc
        if url.scheme not in ("http", "https") or not url.host:
            raise InvalidArgumentError("base_url must be an http:// or https:// URL", value=base_url)
        self.base_url = str(base_url).rstrip("/")
        all_headers = {"accept": "application/json", "user-agent": f"assetroute/{__version__}"}
        all_headers.update(headers or {})
        self._http = httpx.Client(base_url=self.base_url, timeout=timeout, transport=transport,
                                  headers=all_headers)

    def __repr__(self) -> str:
        return f"AssetRouteClient({self.base_url!r})"

    # -- lifecycle ---------------------------------------------------------------------------

    def close(self) -> None:
        """Close the connection pool."""
        self._http.close()

    def __enter__(self) -> AssetRouteClient:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    # -- lookups -----------------------------------------------------------------------------

    def assets_between_chains(
        self, source_chain_id: str, dest_chain_id: str, **options: Unpack[BetweenChainsKwargs],
    ) -> BetweenChainsResult:
        """``POST /v2/fungible/assets_between_chains``; see :meth:`Registry.assets_between_chains`.

        Option values are sent as given and judged by the service (its message is the error's).
        """
        body: dict[str, Any] = {"source_chain_id": source_chain_id, "dest_chain_id": dest_chain_id,
                                **unchecked_changes(BetweenChainsOptions, options)}
        data = self._request("POST", "/v2/fungible/assets_between_chains", body)
        return self._read(lambda: BetweenChainsResult.from_api(
            data, source_chain_id=source_chain_id, dest_chain_id=dest_chain_id))

    def assets_from_source(
        self, source_asset_denom: str, source_asset_chain_id: str, **options: Unpack[FromSourceKwargs],
    ) -> FromSourceResult:
        """``POST /v2/fungible/assets_from_source``; see :meth:`Registry.assets_from_source`.

        Option values are sent as given and judged by the service (its message is the error's).
        """
        body: dict[str, Any] = {"source_asset_denom": source_asset_denom,
                                "source_asset_chain_id": source_asset_chain_id,
                                **unchecked_changes(FromSourceOptions, options)}
        venues = body.get("swap_venues")
        if venues:
            body["swap_venues"] = [_venue(v) for v in venues]
        else:
            body.pop("swap_venues", None)
        group_by = options.get("group_by") or "chain_id"
        data = self._request("POST", "/v2/fungible/assets_from_source", body)
        return self._read(lambda: FromSourceResult.from_api(data, group_by=str(group_by)))

    def chains(self) -> tuple[Chain, ...]:
        """``GET /v2/info/chains``: every chain the service routes between (EVM and SVM included), as
        :class:`Chain` objects; :meth:`Chain.to_api` gives each back exactly as the service sent it."""
        data = self._request("GET", "/v2/info/chains?include_evm=true&include_svm=true", None)
        items = data.get("chains") if isinstance(data, dict) else None
        if not isinstance(items, list):
            raise RemoteServiceError(f"unexpected chains response: {str(data)[:_SHOWN]}")
        return tuple(self._read(lambda: [_chain(item) for item in items]))

    def bridges(self) -> tuple[Bridge, ...]:
        """``GET /v2/info/bridges``; see :meth:`Registry.bridges`."""
        data = self._request("GET", "/v2/info/bridges", None)
        return self._read(lambda: tuple(Bridge(str(b["id"]), str(b["name"])) for b in data["bridges"]))

    def swap_venues(self) -> tuple[SwapVenue, ...]:
        """``GET /v2/fungible/venues``; see :meth:`Registry.swap_venues`."""
        data = self._request("GET", "/v2/fungible/venues", None)
        return self._read(lambda: tuple(SwapVenue(str(v["name"]), str(v["chain_id"]), v.get("logo_uri"))
                                        for v in data["venues"]))

    def assets_by_chain(self, *, chain_ids: Iterable[str] | None = None, native_only: bool = False,
                        include_no_metadata_assets: bool = False, include_cw20_assets: bool = False,
                        include_evm_assets: bool = False, include_svm_assets: bool = False) -> AssetsByChain:
        """``GET /v2/fungible/assets``; see :meth:`Registry.assets_by_chain`."""
        query: list[tuple[str, str]] = [("chain_ids", c) for c in (chain_ids or ())]
        for name, value in (("native_only", native_only), ("include_no_metadata_assets", include_no_metadata_assets),
                            ("include_cw20_assets", include_cw20_assets), ("include_evm_assets", include_evm_assets),
                            ("include_svm_assets", include_svm_assets)):
            if value:
                query.append((name, "true" if value is True else str(value)))
        data = self._request("GET", "/v2/fungible/assets" + (f"?{urlencode(query)}" if query else ""), None)
        return self._read(lambda: AssetsByChain(tuple(
            (str(k), tuple(asset_from_api(a) for a in v["assets"])) for k, v in data["chain_to_assets_map"].items())))

    def origin_assets(self, assets: Iterable[tuple[str, str]]) -> OriginAssets:
        """``POST /v2/fungible/ibc_origin_assets``; see :meth:`Registry.origin_assets`."""
        body = {"assets": [{"denom": denom, "chain_id": chain_id} for denom, chain_id in assets]}
        data = self._request("POST", "/v2/fungible/ibc_origin_assets", body)
        return self._read(lambda: OriginAssets(tuple(
            asset_from_api(e["asset"]) if e.get("asset_found") else None for e in data["origin_assets"])))

    def recommend_assets(self, requests: Iterable[RecommendRequest]) -> Recommendations:
        """``POST /v2/fungible/recommend_assets``; see :meth:`Registry.recommend_assets`."""
        body = {"requests": [{"source_asset_denom": r.source_asset_denom,
                              "source_asset_chain_id": r.source_asset_chain_id, "dest_chain_id": r.dest_chain_id,
                              **({"reason": r.reason} if r.reason else {})} for r in requests]}
        data = self._request("POST", "/v2/fungible/recommend_assets", body)

        def read(entry: Any) -> tuple[tuple[Any, ...], str] | str:
            if entry.get("error"):
                return str(entry["error"]["message"])
            recs = entry.get("recommendations") or []
            return (tuple(asset_from_api(r["asset"]) for r in recs), str(recs[0]["reason"]) if recs else "")

        return self._read(lambda: Recommendations(tuple(read(e) for e in data["recommendation_entries"])))

    # -- plumbing ----------------------------------------------------------------------------

    def _request(self, method: str, path: str, body: dict[str, Any] | None) -> Any:
        url = self.base_url + path
        if self._http.is_closed:
            raise RemoteServiceError(f"{self!r} is closed")
        try:
            content = orjson.dumps(body) if body is not None else None
        except (TypeError, orjson.JSONEncodeError) as exc:
            raise InvalidArgumentError(f"request cannot be encoded as JSON: {exc}") from None
        try:
            response = self._http.request(
                method, path, content=content,
                headers={"content-type": "application/json"} if content is not None else None)
            raw = response.content
        except httpx.HTTPError as exc:
            raise RemoteServiceError(f"{method} {url} failed: {type(exc).__name__}: {exc}") from exc
        status = response.status_code
        try:
            data = orjson.loads(raw)
        except orjson.JSONDecodeError:
            data = None
            if 200 <= status < 300:
                raise RemoteServiceError(
                    f"{method} {url}: HTTP {status} with a non-JSON body: {raw[:_SHOWN]!r}") from None
        if 200 <= status < 300:
            return data
        message = data.get("message") if isinstance(data, dict) else None
        if not isinstance(message, str):
            raise RemoteServiceError(f"{method} {url}: HTTP {status} with an unexpected body: {raw[:_SHOWN]!r}")
        error = _STATUS_ERRORS.get(status)
        if error is None:
            raise RemoteServiceError(f"{method} {url}: HTTP {status}: {message}")
        raise error(message)

    @staticmethod
    def _read(build: Callable[[], _T]) -> _T:
        """Run a ``from_api`` reader; any shape it cannot read is the server's fault."""
        try:
            return build()
        except RemoteServiceError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise RemoteServiceError(f"malformed response: {type(exc).__name__}: {exc}") from None


def _chain(item: object) -> Chain:
    if not isinstance(item, dict) or not isinstance(item.get("chain_id"), str):
        raise RemoteServiceError(f"malformed chain in response: {str(item)[:_SHOWN]}")
    chain_id = item["chain_id"]
    name = item.get("chain_name")
    name = name if isinstance(name, str) and name else chain_id
    pretty = item.get("pretty_name")
    logo = item.get("logo_uri")
    prefix = item.get("bech32_prefix")
    fee_assets = []
    for fee in item.get("fee_assets") or ():
        if not isinstance(fee, dict) or not isinstance(fee.get("denom"), str):
            raise RemoteServiceError(f"malformed fee asset in response: {str(fee)[:_SHOWN]}")
        gas = fee.get("gas_price")
        prices = tuple(gas.get(k) for k in ("low", "average", "high")) if isinstance(gas, dict) else ()
        fee_assets.append(FeeAsset(fee["denom"], (str(prices[0]), str(prices[1]), str(prices[2]))
                                   if len(prices) == 3 and all(isinstance(p, str) for p in prices) else None))
    return Chain(
        chain_name=name,
        chain_id=chain_id,
        pretty_name=pretty if isinstance(pretty, str) else name,
        chain_type=str(item.get("chain_type") or "cosmos"),
        status="live",
        pfm_enabled=item.get("pfm_enabled") is True,
        logo_uri=logo if isinstance(logo, str) and logo else None,
        bech32_prefix=prefix if isinstance(prefix, str) and prefix else None,
        fee_assets=tuple(fee_assets),
        is_testnet=item.get("is_testnet") is True,
        wire=orjson.dumps(item),
    )
