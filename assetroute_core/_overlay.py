"""The overlay: hand-kept, sourced facts the chain registry lacks.

It ships as ``assetroute_core/data/overlay.json``; every entry names its source.
Users pass their own file with ``load_registry(..., overlay=path)``.

>>> ov = load_overlay()
>>> ov.bridge("AXELAR").forwards
True
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ._exceptions import OverlayError
from ._models import SwapVenue

__all__ = ["BridgeKind", "Overlay", "load_overlay", "normalise_kind"]


@dataclass(frozen=True, slots=True)
class BridgeKind:
    """What the overlay knows of one bridge kind."""

    kind: str
    forwards: bool = False
    hub_chain: str | None = None
    absorbs_adjacent_ibc_hop: bool = False


@dataclass(frozen=True, slots=True)
class EvmChainFact:
    chain_name: str
    chain_id: str
    pretty_name: str


def _no_ids() -> Mapping[str, str]:
    return MappingProxyType({})


@dataclass(frozen=True)
class Overlay:
    """Parsed overlay: EVM chain ids, PFM status, bridge kinds, swap venues, symbol suffixes."""

    path: str
    evm_chains: Mapping[str, EvmChainFact]
    pfm: Mapping[str, bool]
    bridges: Mapping[str, BridgeKind]
    provider_kinds: Mapping[str, str]  # provider (lower-case) -> kind
    swap_venues: tuple[tuple[SwapVenue, str], ...]  # (venue, chain_name)
    suffixes: Mapping[str, str]  # provider (lower-case) -> recommended_symbol suffix
    chain_ids: Mapping[str, str] = field(default_factory=_no_ids)  # chain name -> the chain-id the API uses

    def bridge(self, kind: str) -> BridgeKind:
        return self.bridges.get(kind) or BridgeKind(kind)

    def kind_of(self, provider: str) -> str:
        return self.provider_kinds.get(provider.lower()) or normalise_kind(provider)


def normalise_kind(provider: str) -> str:
    """A bridge kind from a provider name: upper case, non-alphanumerics as ``_``.

    >>> normalise_kind("Gravity Bridge")
    'GRAVITY_BRIDGE'
    """
    return re.sub(r"[^A-Z0-9]+", "_", provider.upper()).strip("_") or "UNKNOWN"


def _entries(data: dict[str, Any], section: str, path: str) -> list[dict[str, Any]]:
    items = data.get(section, [])
    if not isinstance(items, list):
        raise OverlayError(f"{path}: section {section!r} must be a list, got {type(items).__name__}")
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise OverlayError(f"{path}: {section}[{i}] must be an object, got {item!r:.80}")
        src = item.get("source")
        if not isinstance(src, str) or not src.strip():
            raise OverlayError(f"{path}: {section}[{i}] ({item!r:.80}) has no source; unsourced facts are left out")
    return items


def _str(item: dict[str, Any], key: str, section: str, path: str) -> str:
    value = item.get(key)
    if not isinstance(value, str) or not value:
        raise OverlayError(f"{path}: {section} entry {item!r:.80} needs a non-empty string {key!r}")
    return value


def load_overlay(path: str | os.PathLike[str] | None = None) -> Overlay:
    """Load and validate an overlay file; ``None`` loads the one shipped with the package."""
    if path is None:
        ref = resources.files("assetroute_core") / "data" / "overlay.json"
        text = ref.read_text(encoding="utf-8")
        label = "assetroute_core/data/overlay.json"
    else:
        label = str(path)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise OverlayError(f"cannot read overlay {label!r}: {exc.strerror or exc}") from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise OverlayError(f"overlay {label!r} is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise OverlayError(f"overlay {label!r} must be a JSON object")

    evm = {}
    for item in _entries(data, "evm_chains", label):
        name = _str(item, "chain_name", "evm_chains", label)
        cid = item.get("chain_id")
        if isinstance(cid, int):
            cid = str(cid)
        if not isinstance(cid, str) or not cid:
            raise OverlayError(f"{label}: evm_chains entry {name!r} needs a chain_id")
        evm[name] = EvmChainFact(name, cid, str(item.get("pretty_name") or name))

    pfm = {}
    for item in _entries(data, "pfm", label):
        name = _str(item, "chain_name", "pfm", label)
        enabled = item.get("pfm_enabled")
        if not isinstance(enabled, bool):
            raise OverlayError(f"{label}: pfm entry {name!r} needs a boolean pfm_enabled")
        pfm[name] = enabled

    bridges: dict[str, BridgeKind] = {}
    provider_kinds: dict[str, str] = {}
    for item in _entries(data, "bridges", label):
        kind = _str(item, "kind", "bridges", label)
        hub = item.get("hub_chain")
        bridges[kind] = BridgeKind(
            kind=kind,
            forwards=bool(item.get("forwards", False)),
            hub_chain=hub if isinstance(hub, str) and hub else None,
            absorbs_adjacent_ibc_hop=bool(item.get("absorbs_adjacent_ibc_hop", False)),
        )
        for provider in item.get("providers") or []:
            if isinstance(provider, str) and provider:
                provider_kinds[provider.lower()] = kind

    venues = []
    for item in _entries(data, "swap_venues", label):
        venue = SwapVenue(
            name=_str(item, "name", "swap_venues", label),
            chain_id=_str(item, "chain_id", "swap_venues", label),
            logo_uri=item.get("logo_uri") if isinstance(item.get("logo_uri"), str) else None,
        )
        venues.append((venue, str(item.get("chain_name") or "")))

    chain_ids = {}
    for item in _entries(data, "chain_ids", label):
        chain_ids[_str(item, "chain_name", "chain_ids", label)] = _str(item, "chain_id", "chain_ids", label)

    suffixes = {}
    for item in _entries(data, "recommended_symbol_suffixes", label):
        suffixes[_str(item, "provider", "recommended_symbol_suffixes", label).lower()] = _str(
            item, "suffix", "recommended_symbol_suffixes", label
        )

    return Overlay(
        path=label,
        evm_chains=MappingProxyType(evm),
        pfm=MappingProxyType(pfm),
        bridges=MappingProxyType(bridges),
        provider_kinds=MappingProxyType(provider_kinds),
        swap_venues=tuple(venues),
        suffixes=MappingProxyType(suffixes),
        chain_ids=MappingProxyType(chain_ids),
    )
