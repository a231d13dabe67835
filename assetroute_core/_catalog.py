"""The reference API's other read endpoints, over one registry: its bridges, its swap venues, the assets
of many chains at once, and the IBC origin of given instances.

    GET  /v2/info/bridges                 {"bridges": [{"id", "name"}]}                       bridges()
    GET  /v2/fungible/venues              {"venues": [SwapVenue]}                              swap_venues()
    GET  /v2/fungible/assets              {"chain_to_assets_map": {chain_id: {"assets": [...]}}} assets_by_chain()
    POST /v2/fungible/ibc_origin_assets   {"origin_assets": [{"asset"?, "asset_found"}]}       origin_assets()
    POST /v2/fungible/recommend_assets    {"recommendation_entries": [{"recommendations", "error"?}]}
                                                                                               recommend_assets()

Decisions made here:

* **Bridges** are the kinds the default answers route over: ``IBC`` and the reference's kinds the registry
  links (:data:`~assetroute_core.REFERENCE_BRIDGE_KINDS`), named as the reference spells them. No
  ``logo_uri``: the registry has none for bridges, and a URL is never guessed.
* **Venues** are the overlay's (each sourced there), with the logo the overlay gives.
* **Assets** of a chain are the instances it holds (listed first, then derived canonical vouchers, as
  :meth:`Registry.assets` orders them), filtered as the reference filters them: ``native_only`` (empty
  trace), ``include_no_metadata_assets``, ``include_cw20_assets``, ``include_evm_assets``,
  ``include_svm_assets``. Chains with no asset left are left out of the map; keys are sorted. An unknown
  or unroutable chain-id in ``chain_ids`` is 400 ``Invalid chain_id`` (the reference's message).
* **Origin assets** are answered entry by entry, never failing the batch: the origin instance (the origin
  denom on the origin chain, with the metadata that chain lists) and ``asset_found: true``, or
  ``asset_found: false`` for a chain or denom this registry does not hold. An entry without a string
  ``denom`` and ``chain_id`` is the reference's 400 ``Must supply denom and chain_id``; at most
  :data:`MAX_ORIGIN_ASSETS` entries per request.
* **Recommendations** are ``assets_from_source`` per request, kept to its destination chain: the
  instances recommended there under the request's ``reason`` (absent: ``MOST_LIQUID``, whose documented
  stand-in is the canonical representation, SPEC §5), each reported with that reason. Each entry is
  answered on its own: an unknown source or a destination it does not reach is that entry's ``error``
  (``no recommendation found``, or the lookup's own message), never a failed batch. An entry without a
  source asset is the reference's 400 ``Must supply source_asset``; at most :data:`MAX_RECOMMEND_REQUESTS`
  entries per request.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson

from ._exceptions import InvalidArgumentError, RequestError
from ._models import Asset
from ._options import RECOMMENDATION_REASONS, RecommendationReason

if TYPE_CHECKING:
    from ._registry import Registry

__all__ = [
    "BRIDGE_NAMES",
    "MAX_ORIGIN_ASSETS",
    "MAX_ORIGIN_CHAIN_ID",
    "MAX_ORIGIN_DENOM",
    "MAX_RECOMMEND_REQUESTS",
    "AssetsByChain",
    "Bridge",
    "OriginAssets",
    "RecommendRequest",
    "Recommendations",
    "assets_by_chain",
    "bridges",
    "origin_assets",
    "recommend_assets",
]

#: Display names of the reference's bridge kinds, as its own ``/v2/info/bridges`` spells them.
BRIDGE_NAMES: Mapping[str, str] = {
    "IBC": "IBC", "AXELAR": "Axelar", "CCTP": "CCTP", "CCTP_V2": "CCTP V2", "HYPERLANE": "Hyperlane",
    "OPINIT": "OPinit", "GO_FAST": "Go Fast", "STARGATE": "Stargate", "LAYER_ZERO": "LayerZero", "EUREKA": "Eureka",
}
#: Entries answered by one ``ibc_origin_assets`` request.
MAX_ORIGIN_ASSETS = 64
#: Longest ``denom`` and ``chain_id`` of a batch entry on the wire (the loader's own limits for the
#: registry); the request parser (``_requests``) enforces them.
MAX_ORIGIN_DENOM, MAX_ORIGIN_CHAIN_ID = 512, 128


@dataclass(frozen=True, slots=True)
class Bridge:
    """A bridge kind as ``GET /v2/info/bridges`` lists it."""

    id: str
    name: str

    def to_api(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name}


def bridges(registry: Registry) -> tuple[Bridge, ...]:
    """IBC and the reference's bridge kinds the registry links, in the reference's order."""
    linked = {link.kind for link in registry.bridge_links()}
    return tuple(Bridge(kind, name) for kind, name in BRIDGE_NAMES.items() if kind == "IBC" or kind in linked)


@dataclass(frozen=True, slots=True)
class AssetsByChain:
    """The answer of ``GET /v2/fungible/assets``: chain-id → the assets kept for it (keys sorted)."""

    chain_to_assets: tuple[tuple[str, tuple[Asset, ...]], ...]

    def __getitem__(self, chain_id: str) -> tuple[Asset, ...]:
        return dict(self.chain_to_assets)[chain_id]

    def __len__(self) -> int:
        return sum(len(assets) for _, assets in self.chain_to_assets)

    def to_api(self) -> dict[str, Any]:
        return {"chain_to_assets_map": {k: {"assets": [a.to_api() for a in v]} for k, v in self.chain_to_assets}}

    def to_json(self) -> bytes:
        return orjson.dumps({"chain_to_assets_map": {
            k: {"assets": [orjson.Fragment(a.to_json()) for a in v]} for k, v in self.chain_to_assets}})


def assets_by_chain(
    registry: Registry, *, chain_ids: Iterable[str] | None = None, native_only: bool = False,
    include_no_metadata_assets: bool = False, include_cw20_assets: bool = False, include_evm_assets: bool = False,
    include_svm_assets: bool = False,
) -> AssetsByChain:
    """The assets of every routable chain (or of *chain_ids*), filtered as the reference does."""
    for name, value in (("native_only", native_only), ("include_no_metadata_assets", include_no_metadata_assets),
                        ("include_cw20_assets", include_cw20_assets), ("include_evm_assets", include_evm_assets),
                        ("include_svm_assets", include_svm_assets)):
        if not isinstance(value, bool):
            raise InvalidArgumentError(f"invalid value for bool field {name}", value=value)
    routable = {c.chain_id for c in registry.chains()}
    if chain_ids is None:
        wanted = sorted(routable)
    else:
        wanted = sorted(set(chain_ids))
        for chain_id in wanted:
            if chain_id not in routable:
                raise InvalidArgumentError("Invalid chain_id", value=chain_id)
    out = []
    for chain_id in wanted:
        kept = tuple(a for a in registry.assets(chain_id)
                     if not (native_only and a.trace) and (include_no_metadata_assets or a.metadata is not None)
                     and (include_cw20_assets or not a.is_cw20) and (include_evm_assets or not a.is_evm)
                     and (include_svm_assets or not a.is_svm))
        if kept:
            out.append((chain_id, kept))
    return AssetsByChain(tuple(out))


@dataclass(frozen=True, slots=True)
class OriginAssets:
    """The answer of ``POST /v2/fungible/ibc_origin_assets``: per entry, its origin or ``None``."""

    origins: tuple[Asset | None, ...]

    def to_api(self) -> dict[str, Any]:
        return {"origin_assets": [{"asset": a.to_api(), "asset_found": True} if a is not None
                                  else {"asset_found": False} for a in self.origins]}

    def to_json(self) -> bytes:
        return orjson.dumps({"origin_assets": [
            {"asset": orjson.Fragment(a.to_json()), "asset_found": True} if a is not None else {"asset_found": False}
            for a in self.origins]})


def origin_assets(registry: Registry, assets: Iterable[tuple[str, str]]) -> OriginAssets:
    """The IBC origin of each ``(denom, chain_id)``; ``None`` where the registry does not hold it."""
    entries = list(assets)
    if len(entries) > MAX_ORIGIN_ASSETS:
        raise InvalidArgumentError(f"too many assets: {len(entries)} (at most {MAX_ORIGIN_ASSETS} per request)")
    routable = {c.chain_id for c in registry.chains()}
    out: list[Asset | None] = []
    for denom, chain_id in entries:
        if not isinstance(denom, str) or not isinstance(chain_id, str) or not denom or not chain_id:
            raise InvalidArgumentError("Must supply denom and chain_id")
        held = registry.find_asset(chain_id, denom) if chain_id in routable else None
        origin = None
        if held is not None and held.origin_chain_id in routable:
            origin = registry.find_asset(held.origin_chain_id, held.origin_denom)
        out.append(origin)
    return OriginAssets(tuple(out))


#: Entries answered by one ``recommend_assets`` request.
MAX_RECOMMEND_REQUESTS = 64


@dataclass(frozen=True, slots=True)
class RecommendRequest:
    """One entry of ``recommend_assets``: a source asset, a destination chain and an optional reason."""

    source_asset_denom: str
    source_asset_chain_id: str
    dest_chain_id: str
    reason: RecommendationReason | None = None


@dataclass(frozen=True, slots=True)
class Recommendations:
    """The answer of ``POST /v2/fungible/recommend_assets``: per entry, (assets, reason) or an error."""

    entries: tuple[tuple[tuple[Asset, ...], str] | str, ...]  # a str alone is that entry's error message

    def to_api(self) -> dict[str, Any]:
        return orjson.loads(self.to_json())  # type: ignore[no-any-return]

    def to_json(self) -> bytes:
        out: list[dict[str, Any]] = []
        for entry in self.entries:
            if isinstance(entry, str):
                out.append({"recommendations": [], "error": {"message": entry}})
            else:
                assets, reason = entry
                out.append({"recommendations": [{"asset": orjson.Fragment(a.to_json()), "reason": reason}
                                                for a in assets]})
        return orjson.dumps({"recommendation_entries": out})


def recommend_assets(registry: Registry, requests: Iterable[RecommendRequest]) -> Recommendations:
    """What each source asset is recommended as on its destination chain (see the module docstring)."""
    entries = list(requests)
    if len(entries) > MAX_RECOMMEND_REQUESTS:
        raise InvalidArgumentError(
            f"too many requests: {len(entries)} (at most {MAX_RECOMMEND_REQUESTS} per request)")
    out: list[tuple[tuple[Asset, ...], str] | str] = []
    for req in entries:
        if req.reason is not None and req.reason not in RECOMMENDATION_REASONS:
            raise InvalidArgumentError(f"invalid reason; allowed: {', '.join(RECOMMENDATION_REASONS)}",
                                       value=req.reason)
        reason = req.reason or "MOST_LIQUID"
        try:
            result = registry.assets_from_source(req.source_asset_denom, req.source_asset_chain_id,
                                                 recommendation_reason=reason)
        except RequestError as exc:
            out.append(exc.message)
            continue
        assets = tuple(d.asset for key, group in result.groups if key == req.dest_chain_id for d in group)
        out.append((assets, reason) if assets else "no recommendation found")
    return Recommendations(tuple(out))
