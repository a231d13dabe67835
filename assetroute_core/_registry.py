"""The loaded registry: one immutable object answering both lookups.

>>> import os
>>> reg = load_registry(os.environ.get("ASSETROUTE_REGISTRY", "../shared/chain-registry"))
>>> reg.chain("cosmoshub-4").chain_name
'cosmoshub'
>>> reg.find_asset("osmosis-1", "ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2").trace
'transfer/channel-0'
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Unpack

from ._catalog import AssetsByChain, Bridge, OriginAssets, Recommendations, RecommendRequest
from ._catalog import assets_by_chain as _assets_by_chain
from ._catalog import bridges as _bridges
from ._catalog import origin_assets as _origin_assets
from ._catalog import recommend_assets as _recommend_assets
from ._data import RegistryData
from ._diff import DiffProgress, RegistryDiff, RegistryMeasures, diff_registries, registry_measures
from ._exceptions import NotFoundError
from ._fetch import ProgressCallback, resolve_source
from ._loader import read_registry
from ._lookups import assets_between_chains as _between
from ._lookups import assets_from_source as _from_source
from ._lookups import resolve_chain
from ._models import Asset, BridgeLink, Chain, Channel, ChannelEnd, Provenance, QualityIssue, SwapVenue
from ._options import BetweenChainsKwargs, BetweenChainsOptions, FromSourceKwargs, FromSourceOptions
from ._overlay import Overlay, load_overlay
from ._results import BetweenChainsResult, FromSourceResult
from ._routing import REFERENCE_BRIDGE_KINDS, Engine
from ._whatif import WhatIf, apply_changes

__all__ = ["Registry", "load_registry"]


@dataclass(frozen=True, eq=False)
class Registry:
    """A loaded chain registry: chains, channels, assets, bridges, and both lookups.

    Immutable and thread-safe: share one instance between every thread and session.
    """

    provenance: Provenance
    quality: tuple[QualityIssue, ...]
    overlay: Overlay
    _engine: Engine = field(repr=False)
    """Routes over the reference API's bridge kinds (the default answers)."""
    _every_bridge: Engine = field(repr=False)
    """Routes over every bridge the registry names (``include_other_bridges``), over the same data."""
    what_if: WhatIf | None = None
    """The changed assumptions when this registry was made by :meth:`with_changes`, else ``None``."""
    base: Registry | None = field(default=None, repr=False)
    """The registry :meth:`with_changes` was called on, else ``None``."""

    # -- lookups ---------------------------------------------------------------------------

    def assets_between_chains(
        self, source_chain_id: str, dest_chain_id: str, **options: Unpack[BetweenChainsKwargs],
    ) -> BetweenChainsResult:
        """Every asset on the source chain paired with what it becomes on the destination.

        The keyword options are those of :class:`~assetroute_core.BetweenChainsOptions`
        (``include_no_metadata_assets``, ``include_cw20_assets``, ``include_evm_assets``,
        ``allow_multi_tx``, and the extension ``include_other_bridges``; all ``False`` by default).

        Raises :class:`~assetroute_core.NotFoundError` for an unknown chain and
        :class:`~assetroute_core.InvalidArgumentError` when both chains are the same or an option
        has a wrong type.
        """
        opts = BetweenChainsOptions.of(options)
        return _between(self.engine_for(include_other_bridges=opts.include_other_bridges), source_chain_id,
                        dest_chain_id, opts)

    def assets_from_source(
        self, source_asset_denom: str, source_asset_chain_id: str, **options: Unpack[FromSourceKwargs],
    ) -> FromSourceResult:
        """Every asset that one asset can become, grouped by destination chain (or symbol).

        The keyword options are those of :class:`~assetroute_core.FromSourceOptions`
        (``allow_multi_tx``, ``recommendation_reason``, ``include_swaps``, ``swap_venues``,
        ``native_only``, ``group_by``, ``include_cw20_assets``, and the extension ``include_other_bridges``).

        Raises :class:`~assetroute_core.InvalidArgumentError` (``Invalid source_asset_chain_id``,
        ``Invalid source_asset_denom``, or a bad option value).
        """
        opts = FromSourceOptions.of(options)
        return _from_source(self.engine_for(include_other_bridges=opts.include_other_bridges), source_asset_denom,
                            source_asset_chain_id, opts)

    # -- browsing --------------------------------------------------------------------------

    def chains(self, *, routable_only: bool = True) -> tuple[Chain, ...]:
        """Chains sorted by chain-id; by default only the routable ones (live Cosmos and EVM)."""
        chains: list[Chain] = list(self._engine.chains.values())
        if routable_only:
            chains = [c for c in chains if c.chain_name in self._engine.routable]
        return tuple(sorted(chains, key=lambda c: (c.chain_id, c.chain_name)))

    def chain(self, chain_id: str) -> Chain:
        """The routable chain with this chain-id; :class:`NotFoundError` otherwise."""
        name = resolve_chain(self._engine, chain_id) if isinstance(chain_id, str) else None
        if name is None:
            raise NotFoundError("chain not found", value=chain_id)
        return self._engine.chains[name]

    def assets(self, chain_id: str) -> tuple[Asset, ...]:
        """Every instance held on a chain: listed ones and derived canonical vouchers."""
        return self._engine.held(self.chain(chain_id).chain_name)

    def find_asset(self, chain_id: str, denom: str) -> Asset | None:
        """The instance with *denom* held on the chain, or ``None``."""
        return self._engine.find(self.chain(chain_id).chain_name, denom)

    def canonical_channel(self, chain_id: str, counterparty_chain_id: str, *, cw20: bool = False) -> ChannelEnd | None:
        """The canonical channel end on a chain towards another (SPEC: preferred, then ACTIVE,
        then lowest number); ``cw20=True`` asks for the CW20-ICS20 (``wasm.`` port) one.

        >>> reg = load_registry(os.environ.get("ASSETROUTE_REGISTRY", "../shared/chain-registry"))
        >>> end = reg.canonical_channel("cosmoshub-4", "osmosis-1")
        >>> end.channel_id, end.counterparty_channel_id
        ('channel-141', 'channel-0')
        """
        a, b = self.chain(chain_id).chain_name, self.chain(counterparty_chain_id).chain_name
        return self._engine.canonical_channel(a, b, cw20=cw20)

    def channels(self) -> tuple[Channel, ...]:
        """Every channel read from ``_IBC`` (all ports, all statuses)."""
        return tuple(self._engine.data.channels)

    def bridge_links(self) -> tuple[BridgeLink, ...]:
        """Bridge links read from traces, plus the CCTP family."""
        return tuple(self._engine.data.links)

    # -- the reference's other read endpoints (assetroute_core._catalog) ----------------------

    def bridges(self) -> tuple[Bridge, ...]:
        """The bridge kinds the default answers route over (``GET /v2/info/bridges``).

        >>> reg = load_registry(os.environ.get("ASSETROUTE_REGISTRY", "../shared/chain-registry"))
        >>> [b.id for b in reg.bridges()]
        ['IBC', 'AXELAR', 'CCTP', 'EUREKA']
        """
        return _bridges(self)

    def swap_venues(self) -> tuple[SwapVenue, ...]:
        """The overlay's swap venues (``GET /v2/fungible/venues``)."""
        return tuple(venue for venue, _chain in self.overlay.swap_venues)

    def assets_by_chain(self, *, chain_ids: Iterable[str] | None = None, native_only: bool = False,
                        include_no_metadata_assets: bool = False, include_cw20_assets: bool = False,
                        include_evm_assets: bool = False, include_svm_assets: bool = False) -> AssetsByChain:
        """The assets of every routable chain, or of *chain_ids*, filtered as ``GET /v2/fungible/assets``
        does (see :mod:`assetroute_core._catalog`). An unknown chain-id is ``Invalid chain_id``.

        >>> reg = load_registry(os.environ.get("ASSETROUTE_REGISTRY", "../shared/chain-registry"))
        >>> hub = reg.assets_by_chain(chain_ids=["cosmoshub-4"], native_only=True)["cosmoshub-4"]
        >>> "uatom" in [a.denom for a in hub], {a.trace for a in hub}
        (True, {''})
        """
        return _assets_by_chain(
            self, chain_ids=chain_ids, native_only=native_only, include_no_metadata_assets=include_no_metadata_assets,
            include_cw20_assets=include_cw20_assets, include_evm_assets=include_evm_assets,
            include_svm_assets=include_svm_assets)

    def origin_assets(self, assets: Iterable[tuple[str, str]]) -> OriginAssets:
        """The IBC origin of each ``(denom, chain_id)`` (``POST /v2/fungible/ibc_origin_assets``); ``None``
        for an entry this registry does not hold.

        >>> reg = load_registry(os.environ.get("ASSETROUTE_REGISTRY", "../shared/chain-registry"))
        >>> osmo = "ibc/14F9BC3E44B8A9C1BE1FB08980FAB87034C9905EF17CF2F5008FC085218811CC"
        >>> found = reg.origin_assets([(osmo, "cosmoshub-4"), ("x", "y")]).origins
        >>> [(a.denom, a.chain_id) if a else None for a in found]
        [('uosmo', 'osmosis-1'), None]
        """
        return _origin_assets(self, assets)

    def recommend_assets(self, requests: Iterable[RecommendRequest]) -> Recommendations:
        """What each source asset is recommended as on its destination chain
        (``POST /v2/fungible/recommend_assets``); each entry answered on its own.

        >>> reg = load_registry(os.environ.get("ASSETROUTE_REGISTRY", "../shared/chain-registry"))
        >>> from assetroute_core import RecommendRequest
        >>> out = reg.recommend_assets([RecommendRequest("uusdc", "axelar-dojo-1", "osmosis-1"),
        ...                             RecommendRequest("uusdc", "axelar-dojo-1", "no-such-chain-1")])
        >>> assets, reason = out.entries[0]
        >>> [a.trace for a in assets], reason, out.entries[1]
        (['transfer/channel-208'], 'MOST_LIQUID', 'no recommendation found')
        """
        return _recommend_assets(self, requests)

    # -- history and what-if -------------------------------------------------------------------

    def diff(self, other: Registry, *, progress: DiffProgress | None = None, **flags: bool) -> RegistryDiff:
        """What changed from this registry to *other*: chains, channels, listings, PFM, overlay, and
        the route level under the flags of :meth:`assets_between_chains` (default: all false).

        Raises :class:`~assetroute_core.InvalidArgumentError` for an unknown or non-boolean flag.
        """
        return diff_registries(self, other, progress=progress, **flags)

    def with_changes(
        self,
        *,
        pfm: Mapping[str, bool] | None = None,
        closed_channels: Iterable[str | tuple[str, str]] = (),
        forwarding_bridges: Mapping[str, bool] | Iterable[str] | None = None,
    ) -> Registry:
        """This registry under changed assumptions, sharing its data (nothing is copied or reloaded).

        ``pfm`` maps chain-ids to PFM on/off; ``closed_channels`` names channels as
        ``CHAIN_ID:CHANNEL_ID`` or every channel between two chains as ``CHAIN_ID/CHAIN_ID``;
        ``forwarding_bridges`` maps bridge kinds to whether they forward onward (a plain list
        means "forwards"). Compare with ``registry.diff(registry.with_changes(...))``.

        >>> reg = load_registry(os.environ.get("ASSETROUTE_REGISTRY", "../shared/chain-registry"))
        >>> off = reg.with_changes(pfm={"cosmoshub-4": False})
        >>> atom = "ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2"
        >>> def txs(r):
        ...     pairs = r.assets_between_chains("osmosis-1", "neutron-1", allow_multi_tx=True)
        ...     return next(p.txs_required for p in pairs if p.asset_on_source.denom == atom)
        >>> txs(reg), txs(off)
        (1, 2)

        Raises :class:`~assetroute_core.InvalidArgumentError` naming an unknown chain, channel or
        bridge kind.
        """
        provenance, overlay, engines, scenario = apply_changes(
            self, pfm=pfm, closed_channels=closed_channels, forwarding_bridges=forwarding_bridges)
        return Registry(provenance, self.quality, overlay, *engines, what_if=scenario, base=self)

    def measures(self, *, progress: DiffProgress | None = None) -> RegistryMeasures:
        """Headline figures (routable chains, listed assets, single-transaction share, largest
        connected group of chains) for a time series of versions."""
        return registry_measures(self, progress=progress)

    @property
    def engine(self) -> Engine:
        """The routing engine of the default answers, over the reference API's bridge kinds (advanced
        use: canonical channels, unwinding, candidate routes)."""
        return self._engine

    def testnets(self) -> Registry | None:
        """Load the registry's testnet world (its ``testnets/`` folder, SPEC §1) as a registry of its own,
        every chain ``is_testnet``; ``None`` when there is none (or this is already the testnet world).

        It never mixes with this registry's answers. Each call loads it anew (~0.2 s): keep the result.

        >>> reg = load_registry(os.environ.get("ASSETROUTE_REGISTRY", "../shared/chain-registry"))
        >>> test = reg.testnets()
        >>> test.chain("osmo-test-5").is_testnet, reg.chain("osmosis-1").is_testnet
        (True, False)
        """
        data = self._engine.data
        if data.testnet:
            return None
        root = os.path.realpath(data.root)
        folder = os.path.realpath(os.path.join(root, "testnets"))
        # the registry's root rule: a testnets/ link that leaves the root is never followed
        if not folder.startswith(root.rstrip(os.sep) + os.sep) or not os.path.isdir(folder):
            return None
        started = time.perf_counter()
        p = self.provenance
        return _build(read_registry(folder, self.overlay, testnet=True), self.overlay, started,
                      f"{p.source} (testnets/)", p.kind, p.commit)

    def engine_for(self, *, include_other_bridges: bool) -> Engine:
        """The engine answering with or without the bridges the reference API does not name."""
        return self._every_bridge if include_other_bridges else self._engine


def _engines(data: RegistryData, overlay: Overlay) -> tuple[Engine, Engine]:
    """The two engines of one registry, over the same data: the reference's bridge kinds, and every kind
    (sharing the first's indexes that no bridge kind changes)."""
    engine = Engine(data, overlay, bridge_kinds=REFERENCE_BRIDGE_KINDS)
    return engine, engine.with_bridge_kinds(None)


def load_registry(
    source: str | os.PathLike[str] | None = None,
    *,
    overlay: str | os.PathLike[str] | Overlay | None = None,
    progress: ProgressCallback | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> Registry:
    """Load a registry from a directory, an archive, a URL, or the default source.

    ``source=None`` uses ``$ASSETROUTE_REGISTRY`` if set, else the pinned GitHub archive of
    cosmos/chain-registry (downloaded once into the user cache). Bad files never abort the
    load; they are listed in ``registry.quality``.
    """
    from pathlib import Path

    started = time.perf_counter()
    resolved = resolve_source(source, progress=progress,
                              cache_dir=Path(cache_dir) if cache_dir is not None else None)
    ov = overlay if isinstance(overlay, Overlay) else load_overlay(overlay)
    return _build(read_registry(resolved.root, ov), ov, started, resolved.source, resolved.kind, resolved.commit)


def _build(data: RegistryData, ov: Overlay, started: float, source: str, kind: str, commit: str | None) -> Registry:
    engine, every_bridge = _engines(data, ov)
    types = Counter(c.chain_type for c in data.chains.values())
    counts = (
        ("files", data.files),
        ("chains", len(data.chains)),
        ("routable_chains", len(engine.routable)),
        ("cosmos_chains", types.get("cosmos", 0)),
        ("evm_chains", types.get("evm", 0)),
        ("channels", len(data.channels)),
        ("usable_transfer_channels", engine.usable_transfer_channels()),
        ("listed_assets", len(data.listed)),
        ("bridge_links", len(data.links)),
        ("quality_issues", len(data.quality)),
    )
    provenance = Provenance(
        source=source,
        kind=kind,
        commit=commit,
        fingerprint=data.fingerprint,
        counts=counts,
        load_seconds=time.perf_counter() - started,
        loaded_at=datetime.now(UTC).isoformat(timespec="seconds"),
        overlay=ov.path,
    )
    return Registry(provenance, tuple(data.quality), ov, engine, every_bridge)
