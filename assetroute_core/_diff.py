"""What changed between two registries: chains, channels, listings, PFM, overlay, and routes.

Decisions made here:

* **Chains** are matched by ``chain_name`` (the registry folder), so a chain that changed its
  chain-id is the same chain; results name them by chain-id (``chain_name`` where a chain has none).
  *Added*/*removed*: the folder appears/disappears. *Killed*/*revived*: present in both, and its
  status went from ``live`` to ``killed`` or back.
* **Channels** are matched by both ends (chains, channel ids, ports). *Opened*: usable in the new
  registry and absent or unusable in the old; *closed*: the other way round (SPEC §3: untagged and
  ACTIVE channels are usable, INACTIVE and CLOSED are not).
* **Assets** are the assetlist entries, matched by (chain, denom) with EVM addresses compared
  case-insensitively, as everywhere else. Derived vouchers are not listings: their changes show in
  the route level.
* **PFM** changes are per chain present in both; **overlay** changes compare the other overlay
  sections (bridge kinds' forwarding and hub, EVM chain ids, swap venues, symbol suffixes). PFM
  facts come from the overlay too; they are reported once, as PFM changes.
* **Routes**: for every ordered pair of routable chains present in both (matched by chain-id), the
  answer of ``assets_between_chains`` under the given flags, compared by (source denom,
  destination denom). A key only in the new answer is *gained*, only in the old one *lost*; in both
  with a different ``txs_required`` or ``bridges`` it is *changed*. A lost and a gained pair with the
  same source denom and the same destination origin asset (the destination denom changed, e.g. a new
  canonical channel) are merged into one *changed* pair. With default flags a route that went from one
  transaction to two is therefore *lost* (the default answer leaves multi-transaction pairs out);
  with ``allow_multi_tx`` it is *changed*.
* The route level is computed per source asset with the engine's own route machinery (the same
  ``held``/``reachable_chains``/``routes_to`` that the lookup runs, and the same filters), not through
  56,000 lookup calls: one pass over the assets held on each source chain that pass the source filters.
  Only one source chain's rows of each registry are held at a time.
* **What-if diffs are incremental.** When both registries share their data (one made from the other
  by ``with_changes``), only three things can differ: PFM of some chains, the usability of some
  channels, and some bridge kinds' overlay facts. A source asset's routes can then change only if one
  of them involves a changed chain or kind: a stage of its unwind (its root included, whose channels
  give the last hop), a canonical voucher it leaves from by bridge, a bridge link's far chain or kind,
  or a stage of a counterpart's unwind. Only those assets are recomputed, in both registries; chains at
  the ends of a changed channel (whose held assets change) are recomputed whole. The totals start from
  the base registry's per-chain pair counts, kept once per engine and flags. The tests compare this
  with the full comparison for each kind of change.
"""

from __future__ import annotations

import threading
import weakref
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ._data import denom_key
from ._json import dumps
from ._models import Asset, Chain, Channel
from ._options import BETWEEN_CHAINS_OPTIONS
from ._overlay import Overlay
from ._routing import Engine, _Router

if TYPE_CHECKING:
    import pandas as pd

    from ._registry import Registry

__all__ = [
    "FLAG_NAMES",
    "AssetChange",
    "ChainChange",
    "ChainRouteSummary",
    "ChannelChange",
    "OverlayChange",
    "PairChange",
    "PfmChange",
    "RegistryDiff",
    "RegistryMeasures",
    "diff_registries",
    "registry_measures",
]

#: The flags a diff compares routes under: the options of ``assets_between_chains``.
FLAG_NAMES = BETWEEN_CHAINS_OPTIONS
"""The flags of ``assets_between_chains``, which the route-level diff takes too."""

DiffProgress = Callable[[int, int], None]
"""Called as ``progress(source_chains_done, source_chains_total)`` during the route-level diff."""


# -- result types ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChainChange:
    """A chain added, removed, killed or revived."""

    chain_id: str
    chain_name: str
    change: str  # "added", "removed", "killed", "revived"


@dataclass(frozen=True, slots=True)
class ChannelChange:
    """A channel opened or closed; ``chain_*_id`` are chain-ids (names where a chain has none)."""

    chain_1_id: str
    chain_2_id: str
    channel_1: str
    channel_2: str
    port_1: str
    port_2: str
    change: str  # "opened", "closed"
    old_status: str | None  # None: the channel was absent; "untagged" when it had no status
    new_status: str | None


@dataclass(frozen=True, slots=True)
class AssetChange:
    """An assetlist entry listed or delisted."""

    chain_id: str
    denom: str
    symbol: str
    change: str  # "listed", "delisted"


@dataclass(frozen=True, slots=True)
class PfmChange:
    """A chain (present in both) whose packet-forward status changed."""

    chain_id: str
    old: bool
    new: bool


@dataclass(frozen=True, slots=True)
class OverlayChange:
    """One changed overlay fact (values shown as short text; ``None`` when absent)."""

    section: str
    key: str
    old: str | None
    new: str | None


@dataclass(frozen=True, slots=True)
class PairChange:
    """One asset pair of one ordered chain pair that was gained, lost or changed.

    ``old_*`` are ``None`` for a gained pair and ``new_*`` for a lost one.
    """

    source_chain_id: str
    dest_chain_id: str
    source_denom: str
    symbol: str
    change: str  # "gained", "lost", "changed"
    old_dest_denom: str | None
    new_dest_denom: str | None
    old_txs_required: int | None
    new_txs_required: int | None
    old_bridges: tuple[str, ...] | None
    new_bridges: tuple[str, ...] | None

    @property
    def changed_fields(self) -> tuple[str, ...]:
        """For a changed pair, which of ``txs_required``, ``bridges``, ``dest_denom`` differ."""
        if self.change != "changed":
            return ()
        out = []
        if self.old_txs_required != self.new_txs_required:
            out.append("txs_required")
        if self.old_bridges != self.new_bridges:
            out.append("bridges")
        if self.old_dest_denom != self.new_dest_denom:
            out.append("dest_denom")
        return tuple(out)

    def to_dict(self) -> dict[str, Any]:
        return {
            "source_chain_id": self.source_chain_id,
            "dest_chain_id": self.dest_chain_id,
            "source_denom": self.source_denom,
            "symbol": self.symbol,
            "change": self.change,
            "changed_fields": list(self.changed_fields),
            "old_dest_denom": self.old_dest_denom,
            "new_dest_denom": self.new_dest_denom,
            "old_txs_required": self.old_txs_required,
            "new_txs_required": self.new_txs_required,
            "old_bridges": None if self.old_bridges is None else list(self.old_bridges),
            "new_bridges": None if self.new_bridges is None else list(self.new_bridges),
        }


@dataclass(frozen=True, slots=True)
class ChainRouteSummary:
    """Route-level change of one chain: pairs where it is the source (``_out``) or destination (``_in``)."""

    chain_id: str
    pairs_old_out: int
    pairs_new_out: int
    gained_out: int
    lost_out: int
    changed_out: int
    gained_in: int
    lost_in: int
    changed_in: int

    @property
    def net(self) -> int:
        """Pairs gained minus pairs lost, both directions."""
        return self.gained_out + self.gained_in - self.lost_out - self.lost_in

    def to_dict(self) -> dict[str, Any]:
        return {
            "chain_id": self.chain_id,
            "pairs_old_out": self.pairs_old_out,
            "pairs_new_out": self.pairs_new_out,
            "gained_out": self.gained_out,
            "lost_out": self.lost_out,
            "changed_out": self.changed_out,
            "gained_in": self.gained_in,
            "lost_in": self.lost_in,
            "changed_in": self.changed_in,
            "net": self.net,
        }


def _label(registry: Registry) -> dict[str, Any]:
    p = registry.provenance
    return {"source": p.source, "kind": p.kind, "commit": p.commit, "fingerprint": p.fingerprint}


@dataclass(frozen=True)
class RegistryDiff:
    """What changed from ``old`` to ``new`` (see the module docs for every rule).

    Empty (:attr:`is_empty`) when nothing at all changed.
    """

    old: dict[str, Any]
    new: dict[str, Any]
    flags: dict[str, bool]
    chains: tuple[ChainChange, ...]
    channels: tuple[ChannelChange, ...]
    assets: tuple[AssetChange, ...]
    pfm: tuple[PfmChange, ...]
    overlay: tuple[OverlayChange, ...]
    pairs: tuple[PairChange, ...]
    per_chain: tuple[ChainRouteSummary, ...]
    chains_compared: int
    chain_pairs_compared: int
    pairs_old: int
    pairs_new: int
    _counts: Counter[str] = field(default_factory=Counter, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._counts.update(p.change for p in self.pairs)

    # -- figures --------------------------------------------------------------------------------

    def _names(self, items: Iterable[ChainChange], change: str) -> tuple[str, ...]:
        return tuple(c.chain_id for c in items if c.change == change)

    @property
    def chains_added(self) -> tuple[str, ...]:
        return self._names(self.chains, "added")

    @property
    def chains_removed(self) -> tuple[str, ...]:
        return self._names(self.chains, "removed")

    @property
    def chains_killed(self) -> tuple[str, ...]:
        return self._names(self.chains, "killed")

    @property
    def chains_revived(self) -> tuple[str, ...]:
        return self._names(self.chains, "revived")

    @property
    def pairs_gained(self) -> int:
        return self._counts["gained"]

    @property
    def pairs_lost(self) -> int:
        return self._counts["lost"]

    @property
    def pairs_changed(self) -> int:
        return self._counts["changed"]

    @property
    def is_empty(self) -> bool:
        """Nothing changed: no chain, channel, listing, PFM, overlay or route difference."""
        return not (self.chains or self.channels or self.assets or self.pfm or self.overlay or self.pairs)

    def pair_changes(self, source_chain_id: str, dest_chain_id: str) -> tuple[PairChange, ...]:
        """The changed asset pairs of one ordered chain pair."""
        return tuple(p for p in self.pairs
                     if p.source_chain_id == source_chain_id and p.dest_chain_id == dest_chain_id)

    # -- views ----------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``chains`` (chain-id lists), ``channels``/``assets`` (counts and items),
        ``pfm``, ``overlay``, and ``routes`` (totals, ``per_chain`` rows and the changed ``pairs``)."""
        count = Counter(c.change for c in self.channels)
        listed = Counter(a.change for a in self.assets)
        return {
            "old": self.old,
            "new": self.new,
            "flags": self.flags,
            "empty": self.is_empty,
            "chains": {"added": list(self.chains_added), "removed": list(self.chains_removed),
                       "killed": list(self.chains_killed), "revived": list(self.chains_revived)},
            "channels": {"opened": count["opened"], "closed": count["closed"],
                         "items": [_channel_dict(c) for c in self.channels]},
            "assets": {"listed": listed["listed"], "delisted": listed["delisted"],
                       "items": [{"chain_id": a.chain_id, "denom": a.denom, "symbol": a.symbol, "change": a.change}
                                 for a in self.assets]},
            "pfm": [{"chain_id": p.chain_id, "old": p.old, "new": p.new} for p in self.pfm],
            "overlay": [{"section": o.section, "key": o.key, "old": o.old, "new": o.new} for o in self.overlay],
            "routes": {
                "chains_compared": self.chains_compared,
                "chain_pairs_compared": self.chain_pairs_compared,
                "pairs_old": self.pairs_old,
                "pairs_new": self.pairs_new,
                "pairs_gained": self.pairs_gained,
                "pairs_lost": self.pairs_lost,
                "pairs_changed": self.pairs_changed,
                "per_chain": [s.to_dict() for s in self.per_chain],
                "pairs": [p.to_dict() for p in self.pairs],
            },
        }

    def to_json(self) -> bytes:
        """:meth:`to_dict` as compact JSON bytes."""
        return dumps(self.to_dict())

    def to_frame(self, view: str = "pairs") -> pd.DataFrame:
        """A table of one part: ``pairs`` (default), ``per_chain``, ``chains``, ``channels``,
        ``assets``, ``pfm`` or ``overlay``; one row per item, columns as in :meth:`to_dict`."""
        import pandas as pd

        rows: list[dict[str, Any]]
        if view == "pairs":
            rows = [p.to_dict() for p in self.pairs]
            for row in rows:
                row["changed_fields"] = ",".join(row["changed_fields"])
                for key in ("old_bridges", "new_bridges"):
                    row[key] = None if row[key] is None else ",".join(row[key])
            columns = list(PairChange.to_dict(_EMPTY_PAIR))
        elif view == "per_chain":
            rows = [s.to_dict() for s in self.per_chain]
            columns = list(ChainRouteSummary.to_dict(_EMPTY_SUMMARY))
        elif view == "chains":
            rows = [{"chain_id": c.chain_id, "chain_name": c.chain_name, "change": c.change} for c in self.chains]
            columns = ["chain_id", "chain_name", "change"]
        elif view == "channels":
            rows = [_channel_dict(c) for c in self.channels]
            columns = list(ChannelChange.__slots__)
        elif view == "assets":
            rows = [{"chain_id": a.chain_id, "denom": a.denom, "symbol": a.symbol, "change": a.change}
                    for a in self.assets]
            columns = ["chain_id", "denom", "symbol", "change"]
        elif view == "pfm":
            rows = [{"chain_id": p.chain_id, "old": p.old, "new": p.new} for p in self.pfm]
            columns = ["chain_id", "old", "new"]
        elif view == "overlay":
            rows = [{"section": o.section, "key": o.key, "old": o.old, "new": o.new} for o in self.overlay]
            columns = ["section", "key", "old", "new"]
        else:
            from ._exceptions import InvalidArgumentError

            raise InvalidArgumentError(
                "unknown view: use pairs, per_chain, chains, channels, assets, pfm or overlay", value=view)
        return pd.DataFrame(rows, columns=columns)


_EMPTY_PAIR = PairChange("", "", "", "", "", None, None, None, None, None, None)
_EMPTY_SUMMARY = ChainRouteSummary("", 0, 0, 0, 0, 0, 0, 0, 0)


def _channel_dict(c: ChannelChange) -> dict[str, Any]:
    return {name: getattr(c, name) for name in ChannelChange.__slots__}


# -- the structural parts ------------------------------------------------------------------------


def _chain_label(chain: Chain) -> str:
    return chain.chain_id or chain.chain_name


def _chain_changes(old: Mapping[str, Chain], new: Mapping[str, Chain]) -> tuple[ChainChange, ...]:
    out: list[ChainChange] = []
    for name in sorted(new.keys() - old.keys()):
        out.append(ChainChange(_chain_label(new[name]), name, "added"))
    for name in sorted(old.keys() - new.keys()):
        out.append(ChainChange(_chain_label(old[name]), name, "removed"))
    for name in sorted(old.keys() & new.keys()):
        before, after = old[name].status, new[name].status
        if before != "killed" and after == "killed":
            out.append(ChainChange(_chain_label(new[name]), name, "killed"))
        elif before == "killed" and after != "killed":
            out.append(ChainChange(_chain_label(new[name]), name, "revived"))
    return tuple(sorted(out, key=lambda c: (c.change, c.chain_id, c.chain_name)))


def _channel_key(c: Channel) -> tuple[str, str, str, str, str, str]:
    one = (c.chain_1, c.channel_1, c.port_1)
    two = (c.chain_2, c.channel_2, c.port_2)
    a, b = sorted((one, two))
    return (a[0], b[0], a[1], b[1], a[2], b[2])


def _channel_changes(old: Engine, new: Engine) -> tuple[ChannelChange, ...]:
    before = {_channel_key(c): c for c in old.data.channels}
    after = {_channel_key(c): c for c in new.data.channels}

    def cid(engine: Engine, name: str) -> str:
        return engine.chain_id(name)

    out: list[ChannelChange] = []
    for key in sorted(before.keys() | after.keys()):
        b, a = before.get(key), after.get(key)
        was, now = b is not None and b.usable, a is not None and a.usable
        if was == now:
            continue
        engine = new if a is not None else old
        out.append(ChannelChange(cid(engine, key[0]), cid(engine, key[1]), key[2], key[3], key[4], key[5],
                                 "opened" if now else "closed",
                                 None if b is None else (b.status or "untagged"),
                                 None if a is None else (a.status or "untagged")))
    return tuple(out)


def _asset_changes(old: Engine, new: Engine) -> tuple[AssetChange, ...]:
    out: list[AssetChange] = []
    for key in sorted(new.listings.keys() - old.listings.keys()):
        listed = new.listings[key]
        out.append(AssetChange(new.chain_id(listed.chain_name), listed.denom, listed.metadata.symbol, "listed"))
    for key in sorted(old.listings.keys() - new.listings.keys()):
        listed = old.listings[key]
        out.append(AssetChange(old.chain_id(listed.chain_name), listed.denom, listed.metadata.symbol, "delisted"))
    return tuple(out)


def _pfm_changes(old: Engine, new: Engine) -> tuple[PfmChange, ...]:
    out = []
    for name in sorted(old.chains.keys() & new.chains.keys()):
        a, b = old.chains[name], new.chains[name]
        if a.pfm_enabled != b.pfm_enabled:
            out.append(PfmChange(_chain_label(b), a.pfm_enabled, b.pfm_enabled))
    return tuple(out)


def _overlay_facts(ov: Overlay) -> dict[tuple[str, str], str]:
    facts: dict[tuple[str, str], str] = {}
    for kind, info in ov.bridges.items():
        facts[("bridges", kind)] = (f"forwards={info.forwards} hub={info.hub_chain} "
                                    f"absorbs_adjacent_ibc_hop={info.absorbs_adjacent_ibc_hop}")
    for name, fact in ov.evm_chains.items():
        facts[("evm_chains", name)] = f"{fact.chain_id} ({fact.pretty_name})"
    for venue, chain_name in ov.swap_venues:
        facts[("swap_venues", venue.name)] = f"{venue.chain_id} ({chain_name})"
    for provider, suffix in ov.suffixes.items():
        facts[("recommended_symbol_suffixes", provider)] = suffix
    for provider, kind in ov.provider_kinds.items():
        facts[("bridge_providers", provider)] = kind
    return facts


def _overlay_changes(old: Overlay, new: Overlay) -> tuple[OverlayChange, ...]:
    if old is new:
        return ()
    a, b = _overlay_facts(old), _overlay_facts(new)
    return tuple(OverlayChange(section, key, a.get((section, key)), b.get((section, key)))
                 for section, key in sorted(a.keys() | b.keys()) if a.get((section, key)) != b.get((section, key)))


# -- the route level -----------------------------------------------------------------------------

_Row = tuple[int, tuple[str, ...], str, str, str]  # txs, bridges, dest origin chain id, origin denom, symbol
_Rows = dict[str, dict[tuple[str, str], _Row]]  # dest chain id -> (source denom, dest denom) -> row


def _symbol(asset: Asset) -> str:
    return asset.metadata.symbol if asset.metadata is not None else ""


def _sources(r: _Router, source: str, no_meta: bool) -> Iterable[Asset]:
    # Without include_no_metadata_assets only listed instances can be sources: skip deriving the
    # chain's vouchers, as the lookup does.
    return r.held(source) if no_meta else r.held_listed(source)


def _asset_rows(r: _Router, asset: Asset, source: str, dests: Mapping[str, str], flags: Mapping[str, bool],
                out: _Rows) -> int:
    """Add the pairs of one source instance to *out*; return how many."""
    no_meta, cw20 = flags["include_no_metadata_assets"], flags["include_cw20_assets"]
    evm, multi, svm = flags["include_evm_assets"], flags["allow_multi_tx"], flags["include_svm_assets"]
    if ((asset.is_cw20 and not cw20) or (asset.is_evm and not evm) or (asset.is_svm and not svm)
            or (asset.metadata is None and not no_meta)):
        return 0
    added = 0
    symbol = _symbol(asset)
    for dest in r.reachable_chains(asset):
        dest_id = dests.get(dest)
        if dest_id is None or dest == source:
            continue
        table = out.get(dest_id)
        for route in r.routes_to(asset, dest):
            d = route.dest
            if ((route.txs_required > 1 and not multi) or (d.is_cw20 and not cw20) or (d.is_evm and not evm)
                    or (d.is_svm and not svm) or (d.metadata is None and not no_meta)):
                continue
            if table is None:
                table = out[dest_id] = {}
            table[(asset.denom, d.denom)] = (route.txs_required, route.bridges, d.origin_chain_id,
                                             d.origin_denom, symbol)
            added += 1
    return added


def route_rows(engine: Engine, source: str, dests: Mapping[str, str], flags: Mapping[str, bool]) -> _Rows:
    """Every pair that ``assets_between_chains(source, d, **flags)`` answers, for each chain ``d`` of
    *dests* (chain name → chain-id), keyed as the diff compares them.

    The same iteration and filters as the lookup (``_lookups.assets_between_chains``), per source asset
    instead of per chain pair.  One generation of the engine's memo tables serves the whole call.
    """
    out: _Rows = {}
    r = engine.router()
    for asset in _sources(r, source, flags["include_no_metadata_assets"]):
        _asset_rows(r, asset, source, dests, flags, out)
    return out


# -- what-if: only the sources a scenario can touch ---------------------------------------------


@dataclass(frozen=True)
class _Scenario:
    chains: frozenset[str]  # chain names whose PFM changed or that end a changed channel
    endpoints: frozenset[str]  # chain names at the ends of a changed channel (their held sets change)
    kinds: frozenset[str]  # bridge kinds whose overlay facts changed


def _scenario(e0: Engine, e1: Engine) -> _Scenario | None:
    """What differs between two engines over the same registry data (one made by ``with_changes``
    from the other, or both from one registry); ``None`` when they do not share their data."""
    d0, d1 = e0.data, e1.data
    if not (d0.listed is d1.listed and d0.links is d1.links and d0.chain_ids is d1.chain_ids
            and e0.bridge_kinds == e1.bridge_kinds
            and e0.routable == e1.routable and d0.chains.keys() == d1.chains.keys()
            and len(d0.channels) == len(d1.channels)):
        return None
    o0, o1 = e0.overlay, e1.overlay
    if (o0.evm_chains != o1.evm_chains or o0.suffixes != o1.suffixes or o0.provider_kinds != o1.provider_kinds
            or o0.swap_venues != o1.swap_venues):
        return None
    pfm = {n for n, c in d0.chains.items() if c.pfm_enabled != d1.chains[n].pfm_enabled}
    endpoints: set[str] = set()
    for c0, c1 in zip(d0.channels, d1.channels, strict=True):
        if c0 is not c1 and c0 != c1:
            if (c0.chain_1, c0.chain_2, c0.channel_1, c0.channel_2) != (c1.chain_1, c1.chain_2, c1.channel_1,
                                                                          c1.channel_2):
                return None
            endpoints.update((c0.chain_1, c0.chain_2))
    kinds = {k for k in o0.bridges.keys() | o1.bridges.keys() if o0.bridge(k) != o1.bridge(k)}
    return _Scenario(frozenset(pfm | endpoints), frozenset(endpoints), frozenset(kinds))


def _touches(r: _Router, asset: Asset, scenario: _Scenario) -> bool:
    """Whether any route the engine could build from *asset* passes a changed chain or bridge kind.

    Every chain and kind a route of the model can involve: the stages of the asset's unwind (its
    root included, whose canonical channels and neighbours give the last hop), the canonical
    vouchers a bridge leaves from, each bridge link's far chain (resolved or not) and kind, every
    member of a family linked through its root (CCTP), and the stages of each counterpart's unwind.
    Over-approximating is safe (the asset is only redone in full); missing a chain is not.
    """
    e = r.e
    chains, kinds = scenario.chains, scenario.kinds
    u = r.unwind(asset)
    starts: list[Asset] = list(u.stages)
    root = u.root
    starts.extend(r._canonical_departures().get((root.chain_name, root.denom), ()))
    for start in starts:
        if start.chain_name in chains:
            return True
        key = (start.chain_name, denom_key(start.denom))
        for kind, _provider, far in e._links.get(key, ()):
            if kind in kinds or far[0] in chains:
                return True
        for family in e._family_of.get(key, ()):
            members, kind = e._families[family]
            if kind in kinds or any(m[0] in chains for m in members):
                return True
    for _prefix, counterpart, bridge_kind, hub in r.departures(asset):
        if bridge_kind in kinds:
            return True
        others: list[Asset] = [counterpart]
        if hub is not None:
            others = [m for m in (r._resolve(k) for k in e._families[hub][0]) if m is not None]
        for other in others:
            if any(stage.chain_name in chains for stage in r.unwind(other).stages):
                return True
    return False


def _compare(source_id: str, dest_id: str, old: dict[tuple[str, str], _Row],
             new: dict[tuple[str, str], _Row]) -> list[PairChange]:
    if old == new:
        return []
    lost = {k: v for k, v in old.items() if k not in new}
    gained = {k: v for k, v in new.items() if k not in old}
    out: list[PairChange] = []
    for key in old.keys() & new.keys():
        a, b = old[key], new[key]
        if a[:2] != b[:2]:
            out.append(PairChange(source_id, dest_id, key[0], b[4] or a[4], "changed", key[1], key[1],
                                  a[0], b[0], a[1], b[1]))
    # A lost and a gained pair of the same source denom and destination origin: the denom changed.
    by_origin: dict[tuple[str, str, str], list[tuple[str, str]]] = {}
    for key in sorted(gained):
        row = gained[key]
        by_origin.setdefault((denom_key(key[0]), row[2], row[3]), []).append(key)
    for key in sorted(lost):
        row = lost[key]
        candidates = by_origin.get((denom_key(key[0]), row[2], row[3]))
        if candidates:
            gkey = candidates.pop(0)
            grow = gained.pop(gkey)
            del lost[key]
            out.append(PairChange(source_id, dest_id, key[0], grow[4] or row[4], "changed", key[1], gkey[1],
                                  row[0], grow[0], row[1], grow[1]))
    for key, row in lost.items():
        out.append(PairChange(source_id, dest_id, key[0], row[4], "lost", key[1], None, row[0], None, row[1], None))
    for key, row in gained.items():
        out.append(PairChange(source_id, dest_id, key[0], row[4], "gained", None, key[1], None, row[0], None, row[1]))
    return out


_COUNTS: weakref.WeakKeyDictionary[Engine, dict[tuple[bool, ...], dict[str, int]]] = weakref.WeakKeyDictionary()
_COUNTS_LOCK = threading.Lock()


def _pair_counts(engine: Engine, dests: Mapping[str, str], flags: Mapping[str, bool]) -> dict[str, int]:
    """Pairs answered per source chain name (every routable chain as destination), kept per engine
    and flags: a what-if diff needs the base's totals once, not per scenario."""
    key = tuple(flags[name] for name in FLAG_NAMES)
    with _COUNTS_LOCK:
        cached = _COUNTS.get(engine, {}).get(key)
    if cached is not None and set(dests) == set(engine.routable):
        return cached
    counts = {}
    for name in dests:
        counts[name] = sum(len(v) for v in route_rows(engine, name, dests, flags).values())
    if set(dests) == set(engine.routable):
        with _COUNTS_LOCK:
            _COUNTS.setdefault(engine, {})[key] = counts
    return counts


def _routable_ids(engine: Engine) -> dict[str, str]:
    """chain-id -> chain name of the routable chains."""
    return {engine.chains[name].chain_id: name for name in engine.routable}


def _check_flags(flags: Mapping[str, object]) -> dict[str, bool]:
    from ._exceptions import InvalidArgumentError

    out = {}
    for name in FLAG_NAMES:
        value = flags.get(name, False)
        if not isinstance(value, bool):
            raise InvalidArgumentError(f"invalid value for bool field {name}", value=value)
        out[name] = value
    unknown = sorted(set(flags) - set(FLAG_NAMES))
    if unknown:
        raise InvalidArgumentError(f"unknown flag {unknown[0]!r}; the flags are {', '.join(FLAG_NAMES)}",
                                   value=unknown[0])
    return out


def diff_registries(old: Registry, new: Registry, *, progress: DiffProgress | None = None,
                    **flags: bool) -> RegistryDiff:
    """Everything that changed from *old* to *new*; the route level under *flags* (those of
    ``assets_between_chains``; all ``False`` by default)."""
    for name, value in (("old", old), ("new", new)):
        # A Registry is what holds an engine (checked so, not by class: _registry imports this module).
        if not isinstance(getattr(value, "engine", None), Engine):
            from ._exceptions import InvalidArgumentError

            raise InvalidArgumentError(f"{name} must be a loaded Registry, got {type(value).__name__}",
                                       value=repr(value)[:80])
    checked = _check_flags(flags)
    every_kind = checked["include_other_bridges"]
    e0, e1 = old.engine_for(include_other_bridges=every_kind), new.engine_for(include_other_bridges=every_kind)
    ids0, ids1 = _routable_ids(e0), _routable_ids(e1)
    common = sorted(ids0.keys() & ids1.keys())
    dests0 = {ids0[c]: c for c in common}
    dests1 = {ids1[c]: c for c in common}
    pairs: list[PairChange] = []
    pairs_old = pairs_new = 0
    per_out: dict[str, list[int]] = {c: [0, 0] for c in common}  # pairs old, pairs new
    total = len(common)
    scenario = _scenario(e0, e1)
    base_counts = _pair_counts(e0, dests0, checked) if scenario is not None else {}
    no_meta = checked["include_no_metadata_assets"]
    for done, source_id in enumerate(common):
        name0, name1 = ids0[source_id], ids1[source_id]
        if scenario is None or name0 in scenario.endpoints:
            rows0 = route_rows(e0, name0, dests0, checked)
            rows1 = route_rows(e1, name1, dests1, checked)
            n0 = sum(len(v) for v in rows0.values())
            n1 = sum(len(v) for v in rows1.values())
        else:
            # Same data, same held set: only the sources whose routes can pass a change are redone.
            rows0, rows1 = {}, {}
            n0 = n1 = base_counts[name0]
            r0, r1 = e0.router(), e1.router()
            for asset in _sources(r0, name0, no_meta):
                if _touches(r0, asset, scenario):
                    other = r1.find(asset.chain_name, asset.denom)  # the same instance in the other engine
                    removed = _asset_rows(r0, asset, name0, dests0, checked, rows0)
                    added = 0 if other is None else _asset_rows(r1, other, name1, dests1, checked, rows1)
                    n1 += added - removed
        per_out[source_id] = [n0, n1]
        pairs_old += n0
        pairs_new += n1
        for dest_id in sorted(rows0.keys() | rows1.keys()):
            pairs.extend(_compare(source_id, dest_id, rows0.get(dest_id, {}), rows1.get(dest_id, {})))
        if progress is not None:
            progress(done + 1, total)
    pairs.sort(key=lambda p: (p.source_chain_id, p.dest_chain_id, p.change, p.source_denom,
                              p.new_dest_denom or p.old_dest_denom or ""))
    out_counts: dict[tuple[str, str], int] = Counter((p.source_chain_id, p.change) for p in pairs)
    in_counts: dict[tuple[str, str], int] = Counter((p.dest_chain_id, p.change) for p in pairs)
    per_chain = tuple(
        ChainRouteSummary(c, per_out[c][0], per_out[c][1],
                          out_counts.get((c, "gained"), 0), out_counts.get((c, "lost"), 0),
                          out_counts.get((c, "changed"), 0), in_counts.get((c, "gained"), 0),
                          in_counts.get((c, "lost"), 0), in_counts.get((c, "changed"), 0))
        for c in common)
    return RegistryDiff(
        old=_label(old), new=_label(new), flags=checked,
        chains=_chain_changes(e0.chains, e1.chains),
        channels=_channel_changes(e0, e1),
        assets=_asset_changes(e0, e1),
        pfm=_pfm_changes(e0, e1),
        overlay=_overlay_changes(old.overlay, new.overlay),
        pairs=tuple(pairs), per_chain=per_chain,
        chains_compared=len(common), chain_pairs_compared=len(common) * (len(common) - 1),
        pairs_old=pairs_old, pairs_new=pairs_new,
    )


# -- measures of one version -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RegistryMeasures:
    """Headline figures of one registry version (for a time series of versions).

    ``asset_pairs`` counts the pairs of every ordered pair of routable chains with default flags
    except ``allow_multi_tx``; ``single_tx_share`` is the share of those needing one transaction;
    ``largest_group`` is the number of chains in the largest set of routable chains connected by
    usable transfer channels.
    """

    source: str
    commit: str | None
    routable_chains: int
    listed_assets: int
    usable_transfer_channels: int
    asset_pairs: int
    single_tx_pairs: int
    largest_group: int

    @property
    def single_tx_share(self) -> float:
        return self.single_tx_pairs / self.asset_pairs if self.asset_pairs else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "commit": self.commit, "routable_chains": self.routable_chains,
                "listed_assets": self.listed_assets, "usable_transfer_channels": self.usable_transfer_channels,
                "asset_pairs": self.asset_pairs, "single_tx_pairs": self.single_tx_pairs,
                "single_tx_share": round(self.single_tx_share, 6), "largest_group": self.largest_group}


def _largest_group(engine: Engine) -> int:
    seen: set[str] = set()
    best = 0
    for start in sorted(engine.routable):
        if start in seen:
            continue
        seen.add(start)
        stack, size = [start], 0
        while stack:
            node = stack.pop()
            size += 1
            for other in engine.neighbours.get(node, ()):
                if other not in seen:
                    seen.add(other)
                    stack.append(other)
        best = max(best, size)
    return best


def registry_measures(registry: Registry, *, progress: DiffProgress | None = None) -> RegistryMeasures:
    """The :class:`RegistryMeasures` of one registry (one pass over every routable source chain)."""
    engine = registry.engine
    ids = _routable_ids(engine)
    dests = {name: cid for cid, name in ids.items()}
    flags = dict.fromkeys(FLAG_NAMES, False)
    flags["allow_multi_tx"] = True
    pairs = single = 0
    names = sorted(ids.values())
    for done, name in enumerate(names):
        for table in route_rows(engine, name, dests, flags).values():
            pairs += len(table)
            single += sum(1 for row in table.values() if row[0] == 1)
        if progress is not None:
            progress(done + 1, len(names))
    p = registry.provenance
    channels = sum(len(v) for v in engine.neighbours.values()) // 2
    return RegistryMeasures(p.source, p.commit, len(engine.routable), len(engine.listings), channels,
                            pairs, single, _largest_group(engine))
