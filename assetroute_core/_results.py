"""Typed lookup results: the API response, the route behind every answer, a DataFrame view.

A result made by the embedded registry carries a :class:`Route` for every pair or
destination asset; one read back from a remote service with :meth:`from_api` has the
same API view and frame, with ``route`` set to ``None`` (the API does not carry routes).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson
from orjson import Fragment

from ._exceptions import RemoteServiceError
from ._json import dumps
from ._models import Asset, Metadata, Route

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["AssetPair", "BetweenChainsResult", "DestAsset", "FromSourceResult", "asset_from_api"]

_META_KEYS = ("symbol", "name", "logo_uri", "decimals", "token_contract", "description", "coingecko_id",
              "recommended_symbol")


def asset_from_api(data: Mapping[str, Any]) -> Asset:
    """Rebuild an :class:`Asset` from an API ``Asset`` object (chain names are not known: ids stand in)."""
    try:
        metadata = None
        if any(k in data for k in _META_KEYS):
            metadata = Metadata(
                symbol=str(data.get("symbol") or ""),
                name=str(data.get("name") or ""),
                logo_uri=data.get("logo_uri"),
                decimals=data.get("decimals"),
                token_contract=data.get("token_contract"),
                description=data.get("description"),
                coingecko_id=data.get("coingecko_id"),
                recommended_symbol=data.get("recommended_symbol"),
            )
        asset = Asset(
            chain_name=str(data["chain_id"]),
            chain_id=str(data["chain_id"]),
            denom=str(data["denom"]),
            origin_chain_name=str(data.get("origin_chain_id", "")),
            origin_chain_id=str(data.get("origin_chain_id", "")),
            origin_denom=str(data.get("origin_denom", "")),
            trace=str(data.get("trace", "")),
            is_cw20=bool(data.get("is_cw20", False)),
            is_evm=bool(data.get("is_evm", False)),
            is_svm=bool(data.get("is_svm", False)),
            metadata=metadata,
            wire=tuple(data.items()),  # exactly what the server sent, in its order
        )
    except (KeyError, TypeError, AttributeError, ValueError, orjson.JSONEncodeError) as exc:
        raise RemoteServiceError(f"malformed asset in response: {str(data)[:200]}") from exc
    if not isinstance(data, Mapping):
        raise RemoteServiceError(f"malformed asset in response: {str(data)[:200]}")
    return asset


def _asset_columns(prefix: str, a: Asset) -> dict[str, Any]:
    m = a.metadata
    return {
        f"{prefix}chain_id": a.chain_id,
        f"{prefix}denom": a.denom,
        f"{prefix}symbol": m.symbol if m else None,
        f"{prefix}name": m.name if m else None,
        f"{prefix}logo_uri": m.logo_uri if m else None,
        f"{prefix}recommended_symbol": m.recommended_symbol if m else None,
        f"{prefix}trace": a.trace,
        f"{prefix}origin_chain_id": a.origin_chain_id,
        f"{prefix}origin_denom": a.origin_denom,
        f"{prefix}is_cw20": a.is_cw20,
        f"{prefix}is_evm": a.is_evm,
        f"{prefix}is_svm": a.is_svm,
        f"{prefix}has_metadata": m is not None,
    }


def _route_columns(route: Route | None) -> dict[str, Any]:
    if route is None:
        return {"transfers": None, "path": None}
    path = " → ".join([route.source.chain_id] + [h.to_chain_id for h in route.hops])
    return {"transfers": len(route.hops), "path": path}


@dataclass(frozen=True, slots=True)
class AssetPair:
    """One element of ``assets_between_chains``."""

    asset_on_source: Asset
    asset_on_dest: Asset
    txs_required: int
    bridges: tuple[str, ...]
    route: Route | None = None

    def to_api(self) -> dict[str, Any]:
        return {
            "asset_on_source": self.asset_on_source.to_api(),
            "asset_on_dest": self.asset_on_dest.to_api(),
            "txs_required": self.txs_required,
            "bridges": list(self.bridges),
        }


_set_pair = tuple(getattr(AssetPair, name).__set__ for name in (
    "asset_on_source", "asset_on_dest", "txs_required", "bridges", "route"))


def new_pair(route: Route) -> AssetPair:
    """``AssetPair`` of an engine route (its two ends, ``txs_required`` and bridges), its slots set
    directly as :func:`~assetroute_core._models.new_route` does, for the same reason."""
    pair = object.__new__(AssetPair)
    s0, s1, s2, s3, s4 = _set_pair
    s0(pair, route.source)
    s1(pair, route.dest)
    s2(pair, route.txs_required)
    s3(pair, route.bridges)
    s4(pair, route)
    return pair


@dataclass(frozen=True, slots=True)
class BetweenChainsResult:
    """The answer of ``assets_between_chains``: pairs in the documented order."""

    source_chain_id: str
    dest_chain_id: str
    pairs: tuple[AssetPair, ...]

    def __len__(self) -> int:
        return len(self.pairs)

    def __iter__(self) -> Iterator[AssetPair]:
        return iter(self.pairs)

    def to_api(self) -> dict[str, Any]:
        """The HTTP response body as JSON-ready data (fresh dicts)."""
        return {"assets_between_chains": [p.to_api() for p in self.pairs]}

    def to_json(self) -> bytes:
        """The HTTP response body, byte for byte (each asset's bytes computed once, when it was built)."""
        return dumps({"assets_between_chains": [
            {"asset_on_source": Fragment(p.asset_on_source.to_json()),
             "asset_on_dest": Fragment(p.asset_on_dest.to_json()),
             "txs_required": p.txs_required, "bridges": list(p.bridges)}
            for p in self.pairs]})

    def to_frame(self) -> pd.DataFrame:
        """One row per pair: both assets, txs_required, bridges and the hop path."""
        import pandas as pd

        rows = []
        for p in self.pairs:
            row = _asset_columns("source_", p.asset_on_source)
            row.update(_asset_columns("dest_", p.asset_on_dest))
            row["txs_required"] = p.txs_required
            row["bridges"] = ",".join(p.bridges)
            row.update(_route_columns(p.route))
            rows.append(row)
        columns = list(_asset_columns("source_", _EMPTY)) + list(_asset_columns("dest_", _EMPTY)) + [
            "txs_required", "bridges", "transfers", "path"]
        return pd.DataFrame(rows, columns=columns)

    @classmethod
    def from_api(cls, data: Any, *, source_chain_id: str = "", dest_chain_id: str = "") -> BetweenChainsResult:
        """Read a response body of a compatible service."""
        if not isinstance(data, dict) or not isinstance(data.get("assets_between_chains", []), list):
            raise RemoteServiceError(f"unexpected assets_between_chains response: {str(data)[:200]}")
        pairs = []
        for item in data.get("assets_between_chains", []):
            if not isinstance(item, dict):
                raise RemoteServiceError(f"malformed pair in response: {str(item)[:200]}")
            txs, bridges = item.get("txs_required", 0), item.get("bridges", [])
            if not isinstance(txs, int) or isinstance(txs, bool) or not isinstance(bridges, list):
                raise RemoteServiceError(f"malformed pair in response: {str(item)[:200]}")
            pairs.append(AssetPair(
                asset_from_api(item.get("asset_on_source") or {}),
                asset_from_api(item.get("asset_on_dest") or {}),
                txs,
                tuple(str(b) for b in bridges),
            ))
        return cls(source_chain_id, dest_chain_id, tuple(pairs))


@dataclass(frozen=True, slots=True)
class DestAsset:
    """One asset that the source can become, with its route when computed locally.

    With ``include_swaps``, ``via_swap`` marks assets reached by a swap on a venue's chain:
    ``route`` then leads to the venue chain, where the swap happens.
    """

    asset: Asset
    route: Route | None = None
    via_swap: bool = False


@dataclass(frozen=True, slots=True)
class FromSourceResult:
    """The answer of ``assets_from_source``: destination assets grouped by key (sorted)."""

    source: Asset | None
    group_by: str
    groups: tuple[tuple[str, tuple[DestAsset, ...]], ...]

    @property
    def dest_assets(self) -> dict[str, tuple[Asset, ...]]:
        return {key: tuple(d.asset for d in items) for key, items in self.groups}

    def __len__(self) -> int:
        return sum(len(items) for _, items in self.groups)

    def __iter__(self) -> Iterator[DestAsset]:
        for _, items in self.groups:
            yield from items

    def to_api(self) -> dict[str, Any]:
        """The HTTP response body as JSON-ready data (fresh dicts)."""
        return {"dest_assets": {key: {"assets": [d.asset.to_api() for d in items]} for key, items in self.groups}}

    def to_json(self) -> bytes:
        """The HTTP response body, byte for byte (each asset's bytes computed once, when it was built)."""
        return dumps({"dest_assets": {key: {"assets": [Fragment(d.asset.to_json()) for d in items]}
                                      for key, items in self.groups}})

    def to_frame(self) -> pd.DataFrame:
        """One row per destination asset, with its group key, txs_required and bridges."""
        import pandas as pd

        rows = []
        for key, items in self.groups:
            for d in items:
                row: dict[str, Any] = {"group": key}
                row.update(_asset_columns("", d.asset))
                row["via_swap"] = d.via_swap
                row["txs_required"] = d.route.txs_required if d.route else None
                row["bridges"] = ",".join(d.route.bridges) if d.route else None
                row.update(_route_columns(d.route))
                rows.append(row)
        columns = ["group", *_asset_columns("", _EMPTY), "via_swap", "txs_required", "bridges", "transfers", "path"]
        return pd.DataFrame(rows, columns=columns)

    @classmethod
    def from_api(cls, data: Any, *, group_by: str = "chain_id") -> FromSourceResult:
        """Read a response body of a compatible service."""
        if not isinstance(data, dict) or not isinstance(data.get("dest_assets", {}), dict):
            raise RemoteServiceError(f"unexpected assets_from_source response: {str(data)[:200]}")
        groups = []
        for key in sorted(data.get("dest_assets", {})):
            entry = data["dest_assets"][key]
            assets = entry.get("assets", []) if isinstance(entry, dict) else None
            if not isinstance(assets, list):
                raise RemoteServiceError(f"malformed dest_assets entry {key!r}: {str(entry)[:200]}")
            groups.append((key, tuple(DestAsset(asset_from_api(a)) for a in assets)))
        return cls(None, group_by, tuple(groups))


_EMPTY = Asset(chain_name="", chain_id="", denom="", origin_chain_name="", origin_chain_id="",
                    origin_denom="", trace="", is_cw20=False, is_evm=False)
