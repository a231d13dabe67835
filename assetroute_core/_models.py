"""Frozen domain objects: chains, channels, assets, bridge links, hops and routes.

Every object here is immutable, so one loaded :class:`~assetroute_core.Registry`
can be shared by every thread, session and request without copying.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

import orjson

__all__ = [
    "Asset",
    "BridgeLink",
    "Chain",
    "Channel",
    "ChannelEnd",
    "FeeAsset",
    "Hop",
    "Metadata",
    "Provenance",
    "QualityIssue",
    "Route",
    "SwapVenue",
]


@dataclass(frozen=True, slots=True)
class FeeAsset:
    """A token a chain takes for fees (chain.json ``fees.fee_tokens``), as ``GET /v2/info/chains`` lists it.

    ``gas_price`` is ``(low, average, high)`` as decimal text, kept only when the registry gives all three
    (the reference's ``GasPriceInfo`` needs all three); ``None`` otherwise, never guessed.

    >>> FeeAsset("uatom", ("0.005", "0.025", "0.03")).to_api()
    {'denom': 'uatom', 'gas_price': {'low': '0.005', 'average': '0.025', 'high': '0.03'}}
    """

    denom: str
    gas_price: tuple[str, str, str] | None = None

    def to_api(self) -> dict[str, Any]:
        out: dict[str, Any] = {"denom": self.denom}
        if self.gas_price is not None:
            low, average, high = self.gas_price
            out["gas_price"] = {"low": low, "average": average, "high": high}
        return out


@dataclass(frozen=True, slots=True)
class Chain:
    """One chain of the registry, keyed by ``chain_name`` inside and ``chain_id`` at the API."""

    chain_name: str
    chain_id: str
    pretty_name: str
    chain_type: str  # "cosmos", "evm", "svm" (Solana), or other namespaces (not routable)
    status: str  # "live", "killed", "upcoming"
    pfm_enabled: bool
    logo_uri: str | None = None
    bech32_prefix: str | None = None
    file: str = ""
    fee_assets: tuple[FeeAsset, ...] = ()
    is_testnet: bool = False
    wire: bytes | None = field(default=None, compare=False, repr=False, hash=False)
    """The chain's JSON exactly as a remote service sent it, for a chain a client read back (bytes, so
    the value stays immutable); ``None`` for the registry's own chains."""

    @property
    def routable(self) -> bool:
        """Live Cosmos, EVM and SVM chains with a chain-id are routable."""
        return self.status == "live" and self.chain_type in ("cosmos", "evm", "svm") and bool(self.chain_id)

    def to_api(self) -> dict[str, Any]:
        """The chain as ``GET /v2/info/chains`` lists it: the whole ``Chain`` of the reference (and of its
        SDK's types), in the reference's field order.

        What the registry does not say is ``false`` (module support, hooks, memo, autopilot), never
        guessed; ``cosmos_pfm`` is the sourced PFM fact the routes use; ``bech32_prefix`` is ``""`` where
        a chain has none (EVM); ``logo_uri`` is omitted when there is none. A chain read back by a client
        gives exactly what its service sent.
        """
        if self.wire is not None:
            wire: dict[str, Any] = orjson.loads(self.wire)
            return wire
        out: dict[str, Any] = {
            "chain_name": self.chain_name,
            "chain_id": self.chain_id,
            "pfm_enabled": self.pfm_enabled,
            "cosmos_module_support": {"authz": False, "feegrant": False},
            "supports_memo": False,
        }
        if self.logo_uri:
            out["logo_uri"] = self.logo_uri
        out["bech32_prefix"] = self.bech32_prefix or ""
        out["fee_assets"] = [f.to_api() for f in self.fee_assets]
        out["chain_type"] = self.chain_type
        out["ibc_capabilities"] = {"cosmos_pfm": self.pfm_enabled, "cosmos_ibc_hooks": False, "cosmos_memo": False,
                                   "cosmos_autopilot": False}
        out["is_testnet"] = self.is_testnet
        out["pretty_name"] = self.pretty_name
        return out


@dataclass(frozen=True, slots=True)
class Channel:
    """One IBC channel of an ``_IBC`` file, between ``chain_1`` and ``chain_2`` (chain names)."""

    chain_1: str
    chain_2: str
    channel_1: str
    channel_2: str
    port_1: str
    port_2: str
    status: str | None  # ACTIVE, INACTIVE, CLOSED, PENDING or None when untagged
    preferred: bool | None
    version: str
    file: str

    @property
    def usable(self) -> bool:
        """Untagged or active channels are usable; INACTIVE and CLOSED are not."""
        return self.status not in ("INACTIVE", "CLOSED")


@dataclass(frozen=True, slots=True)
class ChannelEnd:
    """A channel as seen from one of its chains."""

    chain: str
    channel_id: str
    port: str
    counterparty_chain: str
    counterparty_channel_id: str
    counterparty_port: str
    channel: Channel


@dataclass(frozen=True, slots=True)
class Metadata:
    """What the chain's assetlist says about a listed (chain, denom)."""

    symbol: str
    name: str
    logo_uri: str | None = None
    decimals: int | None = None
    token_contract: str | None = None
    description: str | None = None
    coingecko_id: str | None = None
    recommended_symbol: str | None = None


@dataclass(frozen=True, slots=True)
class Asset:
    """An asset instance: a denom held on a chain, with its IBC identity.

    ``origin_*`` name the chain where it is native in the IBC sense; ``trace`` is
    the ICS-20 path on the holding chain (``""`` for a native asset).  ``metadata``
    is set only when the chain's assetlist lists this exact denom.

    Truly immutable: the API form (:meth:`to_api`, :meth:`to_json`) is computed from the fields
    when the object is built, so an ``Asset`` made directly serialises like one the engine made,
    and one instance can be shared by every thread.

    >>> a = Asset(chain_name="cosmoshub", chain_id="cosmoshub-4", denom="uatom", origin_chain_name="cosmoshub",
    ...           origin_chain_id="cosmoshub-4", origin_denom="uatom", trace="", is_cw20=False, is_evm=False)
    >>> a.to_json()
    b'{"denom":"uatom","chain_id":"cosmoshub-4","origin_denom":"uatom","origin_chain_id":"cosmoshub-4","trace":"","is_cw20":false,"is_evm":false,"is_svm":false}'
    """

    chain_name: str
    chain_id: str
    denom: str
    origin_chain_name: str
    origin_chain_id: str
    origin_denom: str
    trace: str
    is_cw20: bool
    is_evm: bool
    is_svm: bool = False
    metadata: Metadata | None = None
    type_asset: str = ""
    wire: tuple[tuple[str, Any], ...] | None = field(default=None, compare=False, repr=False, hash=False)
    """The API object exactly as a remote service sent it (its keys, in its order), for an asset a
    client read back; ``None`` for the registry's own assets."""
    _json: bytes = field(init=False, compare=False, repr=False, hash=False)

    def __post_init__(self) -> None:
        # A cache of the API form, derived from the frozen fields while the object is being built. Copied
        # into a compact bytes object: orjson's own result keeps its ~4 KiB working buffer allocated, which
        # for the ~10^5 instances of a sweep was most of the process's memory.
        object.__setattr__(self, "_json", bytes(memoryview(orjson.dumps(self.to_api()))))

    @property
    def key(self) -> tuple[str, str]:
        """``(chain_name, denom)``: the identity of an instance."""
        return (self.chain_name, self.denom)

    @property
    def listed(self) -> bool:
        return self.metadata is not None

    @property
    def is_native(self) -> bool:
        return not self.trace

    def to_api(self) -> dict[str, Any]:
        """The asset as the API returns it (a fresh dict; metadata keys only when present)."""
        return dict(self.wire) if self.wire is not None else asset_api(self)

    def to_json(self) -> bytes:
        """:meth:`to_api` as the service's JSON bytes (computed once, when the asset was built)."""
        return self._json


_set_asset = tuple(getattr(Asset, name).__set__ for name in (
    "chain_name", "chain_id", "denom", "origin_chain_name", "origin_chain_id", "origin_denom", "trace",
    "is_cw20", "is_evm", "is_svm", "metadata", "type_asset", "wire", "_json"))


def new_unlisted_asset(chain_name: str, chain_id: str, denom: str, origin_chain_name: str, origin_chain_id: str,
                       origin_denom: str, trace: str, is_cw20: bool, is_evm: bool, is_svm: bool,
                       type_asset: str) -> Asset:
    """``Asset(...)`` without metadata, for the engine's derived instances: the same frozen object with
    its API form computed the same way, its slots set directly (see :func:`new_route`)."""
    asset = object.__new__(Asset)
    s = _set_asset
    s[0](asset, chain_name)
    s[1](asset, chain_id)
    s[2](asset, denom)
    s[3](asset, origin_chain_name)
    s[4](asset, origin_chain_id)
    s[5](asset, origin_denom)
    s[6](asset, trace)
    s[7](asset, is_cw20)
    s[8](asset, is_evm)
    s[9](asset, is_svm)
    s[10](asset, None)
    s[11](asset, type_asset)
    s[12](asset, None)
    s[13](asset, bytes(memoryview(orjson.dumps(asset_api(asset)))))
    return asset


def asset_api(a: Asset) -> dict[str, Any]:
    """Build the API dict of *a* in the reference API's field order."""
    out: dict[str, Any] = {
        "denom": a.denom,
        "chain_id": a.chain_id,
        "origin_denom": a.origin_denom,
        "origin_chain_id": a.origin_chain_id,
        "trace": a.trace,
        "is_cw20": a.is_cw20,
        "is_evm": a.is_evm,
        "is_svm": a.is_svm,
    }
    m = a.metadata
    if m is not None:
        out["symbol"] = m.symbol
        out["name"] = m.name
        if m.logo_uri is not None:
            out["logo_uri"] = m.logo_uri
        if m.decimals is not None:
            out["decimals"] = m.decimals
        if m.token_contract is not None:
            out["token_contract"] = m.token_contract
        if m.description is not None:
            out["description"] = m.description
        if m.coingecko_id is not None:
            out["coingecko_id"] = m.coingecko_id
        if m.recommended_symbol is not None:
            out["recommended_symbol"] = m.recommended_symbol
    return out


@dataclass(frozen=True, slots=True)
class BridgeLink:
    """A non-IBC connection between two counterpart instances (either direction)."""

    kind: str  # AXELAR, EUREKA, CCTP, ...
    provider: str
    a: tuple[str, str]  # (chain_name, denom) as written in the registry
    b: tuple[str, str]
    file: str = ""


@dataclass(frozen=True, slots=True)
class Hop:
    """One step of a route.

    ``kind`` is ``"IBC"`` or a bridge kind; ``channel`` the channel id on ``from_chain_id``
    for an IBC hop; ``operation`` the kind of the operation the hop belongs to (an IBC hop
    folded into an Axelar transfer has kind ``IBC`` and operation ``AXELAR``); ``denom``
    the denom held on ``to_chain_id`` after the hop; ``new_tx`` whether the hop needs
    a transaction of its own.
    """

    from_chain_id: str
    to_chain_id: str
    kind: str
    channel: str | None
    counterparty_channel: str | None
    operation: str
    denom: str
    new_tx: bool

    def to_api(self) -> dict[str, Any]:
        return {
            "from_chain_id": self.from_chain_id,
            "to_chain_id": self.to_chain_id,
            "kind": self.kind,
            "channel": self.channel,
            "counterparty_channel": self.counterparty_channel,
            "operation": self.operation,
            "denom": self.denom,
            "new_tx": self.new_tx,
        }


class HopBuilder(Protocol):
    """Builds the hops of a route from its steps (the engine's immutable ``HopRules``)."""

    def hops_of(self, steps: Any) -> tuple[Hop, ...]: ...


@dataclass(frozen=True, slots=True, eq=False)
class Route:
    """How a source instance becomes a destination instance.

    ``transfers`` counts hops, ``operations`` counts the route's operations (an IBC hop
    folded into an Axelar transfer is part of that operation). The :class:`Hop` list is
    built when asked for (sweeps over every pair need only the figures) from the route's own
    data: its ``steps`` and the immutable ``rules`` of the registry it came from (PFM, bridge
    kinds, chain-ids), never the engine.
    """

    source: Asset
    dest: Asset
    txs_required: int
    bridges: tuple[str, ...]
    operations: int
    transfers: int
    steps: Any = field(repr=False)
    rules: HopBuilder = field(repr=False)

    @property
    def hops(self) -> tuple[Hop, ...]:
        return self.rules.hops_of(self.steps)

    def to_api(self) -> dict[str, Any]:
        return {
            "txs_required": self.txs_required,
            "bridges": list(self.bridges),
            "operations": self.operations,
            "hops": [h.to_api() for h in self.hops],
        }


_new = object.__new__
_set_route = tuple(getattr(Route, name).__set__ for name in (
    "source", "dest", "txs_required", "bridges", "operations", "transfers", "steps", "rules"))


def new_route(source: Asset, dest: Asset, txs_required: int, bridges: tuple[str, ...], operations: int,
              transfers: int, steps: Any, rules: HopBuilder) -> Route:
    """``Route(...)`` for the engine's loops: the same frozen object, its slots set directly.

    A frozen dataclass's ``__init__`` goes through ``object.__setattr__`` for every field, which is
    about three times the cost of setting the slot; a sweep builds three million routes. The fields
    are in declaration order (``tests/test_immutability.py`` holds the two together).
    """
    route = _new(Route)
    s0, s1, s2, s3, s4, s5, s6, s7 = _set_route
    s0(route, source)
    s1(route, dest)
    s2(route, txs_required)
    s3(route, bridges)
    s4(route, operations)
    s5(route, transfers)
    s6(route, steps)
    s7(route, rules)
    return route


@dataclass(frozen=True, slots=True)
class SwapVenue:
    """A swap venue of the overlay (or of a request): ``{name, chain_id, logo_uri?}``."""

    name: str
    chain_id: str
    logo_uri: str | None = None

    def to_api(self) -> dict[str, str]:
        """The venue as ``GET /v2/fungible/venues`` lists it (``logo_uri`` only when known)."""
        out = {"name": self.name, "chain_id": self.chain_id}
        if self.logo_uri:
            out["logo_uri"] = self.logo_uri
        return out


@dataclass(frozen=True, slots=True)
class QualityIssue:
    """One entry of the data-quality report: which file, what is wrong, what was done.

    ``severity``: ``"error"`` when the registry cannot be trusted as it stands and something was
    refused (a chain-id claimed by two live chains, a link leaving the registry, an unreadable
    entry), ``"warning"`` for data repaired or skipped, ``"info"`` for known, legitimate quirks
    (a killed chain sharing its id with the live one, an IBC v2 client in a path). ``kind``: a short,
    stable, machine-readable name of the problem (``"chain-id-conflict"``, ``"unreadable"``, …);
    ``""`` where none was given.
    """

    file: str
    problem: str
    action: str
    severity: Literal["error", "warning", "info"] = "warning"
    kind: str = ""


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where a loaded registry came from and what it holds."""

    source: str
    kind: str
    commit: str | None
    fingerprint: str
    counts: tuple[tuple[str, int], ...]
    load_seconds: float
    loaded_at: str
    overlay: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "kind": self.kind,
            "commit": self.commit,
            "fingerprint": self.fingerprint,
            "counts": dict(self.counts),
            "load_seconds": round(self.load_seconds, 4),
            "loaded_at": self.loaded_at,
            "overlay": self.overlay,
        }
