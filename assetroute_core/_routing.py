"""The routing engine: held assets, unwinding, canonical representations and routes.

The rules are those of SPEC.md §2–§3, in short:

* an instance unwinds hop by hop along its trace to its origin (IBC hops over usable
  ``_IBC`` channels); where the next hop is not an IBC channel it can only leave by a bridge;
* an origin asset is represented on another chain by its base denom (on the origin) or by
  the one-hop voucher over the canonical channel; multi-hop vouchers are never recommended;
* a route is: unwind, optionally one IBC hop to a bridge's chain, at most one bridge
  operation, unwind the counterpart, one IBC hop to the destination;
* ``txs_required`` is 1 plus one per intermediate chain that cannot pass the transfer on
  (arrived by IBC without PFM, arrived over a ``wasm.`` port, or by a bridge kind that does not
  forward);
* contract tokens (CW20-like: ``type_asset`` cw20/snip20/snip25 or a ``cw20:`` base) leave their
  chain only over channels whose far end is a ``wasm.`` port that an ``ibc-cw20`` trace of that
  very token names; the table token → neighbour → channel is built once, here;
* an unwind that gets stuck part-way (a hop over a known channel that is unusable, or to a chain
  that is not routable) is no origin: such an instance has no IBC route at all;
* a voucher is hashed from its base denom as the listed path that carries it spells it: a derived
  voucher that a listing carries with another spelling of an EVM address *is* that listing.

The bridges an engine routes over are chosen when it is built (``bridge_kinds``): a registry keeps one
engine over the reference API's kinds (:data:`REFERENCE_BRIDGE_KINDS`, the default answers) and one
over every bridge the registry names (``include_other_bridges``), both over the same data. Two engines
rather than a flag through the memo tables: each answer is then the best route *within* its world (a
pair whose best route crosses Gravity Bridge may have a longer one over the reference's kinds).

The engine is built once per registry and is safe to share. Its memo tables hold values that
are pure functions of the immutable data, guarded by locks, in one *generation* (:class:`_Router`)
that is retired for a fresh one once its weight passes a cap, so memory is bounded for any
registry and any sequence of queries; a lookup keeps the generation it started with. The Circle
USDC family is linked through its root (N links) and expanded per destination chain, so its
cost is linear although every two members are one CCTP hop apart.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, NamedTuple

from ._data import ListedAsset, RegistryData, denom_key
from ._ibc import ibc_denom, send_trace
from ._loader import FAMILY_LINK
from ._models import Asset, Chain, ChannelEnd, Hop, Metadata, Route, new_route, new_unlisted_asset
from ._overlay import Overlay

__all__ = ["REFERENCE_BRIDGE_KINDS", "Engine"]

#: The bridge kinds the reference API names (its ``BridgeType``, plus ``CCTP_V2`` of its SDK); IBC is a
#: channel, not a link. Routes over any other registry bridge need ``include_other_bridges`` (SPEC §3).
REFERENCE_BRIDGE_KINDS: frozenset[str] = frozenset({
    "IBC", "AXELAR", "CCTP", "CCTP_V2", "HYPERLANE", "OPINIT", "GO_FAST", "STARGATE", "LAYER_ZERO", "EUREKA"})

_IBC_ONLY = ("IBC",)
_MISSING: Any = object()
# Weight at which the engine starts a fresh generation of memo tables (see Engine.router). A unit is
# about 100 bytes: a derived instance with its API dict weighs 10, a memo entry 1–4, eight index
# slots 1. Sweeping every ordered pair of the full snapshot weighs about 1.1 M (≈ 85 MB measured), so
# 2 M (≈ 200 MB) never retires a generation on real data, and caps the tables on any registry.
DEFAULT_MAX_WEIGHT = 2_000_000
_W_INSTANCE = 10
CONTRACT_TYPES = ("cw20", "snip20", "snip25")
_NO_CHANNELS: dict[str, ChannelEnd] = {}


class _Step(NamedTuple):
    """A hop before transaction flags are known (a named tuple: built for every hop of every route)."""

    from_chain: str
    to_chain: str
    kind: str
    channel: str | None
    counterparty_channel: str | None
    dest: Asset
    into_wasm: bool = False  # arrives over a ``wasm.`` port: never passed on in the same transaction


class _Unwind(NamedTuple):
    stages: tuple[Asset, ...]  # stages[0] is the instance itself, stages[-1] its IBC root
    steps: tuple[_Step, ...]  # steps[i] leads from stages[i] to stages[i + 1]

    @property
    def root(self) -> Asset:
        return self.stages[-1]

    def position(self, asset: Asset) -> int:
        """Position of *asset* among the stages, or -1 (instances are interned: identity is equality)."""
        for i, stage in enumerate(self.stages):
            if stage is asset:
                return i
        return -1


class _LRU:
    """A thread-safe LRU for answers that are pure functions of the immutable data.

    Bounded by total weight (the number of pairs held), not by entries, so a sweep over
    every chain pair cannot pile up millions of routes. An answer is admitted on its second
    computation (the first only records its key, among at most ``max_seen``): a sweep asks each
    pair once, so its answers are never held, neither pushing out the answers a dashboard or a
    notebook asks again, nor keeping thousands of objects alive for the cyclic garbage collector
    to walk again and again (that walking was a quarter of a sweep's time).
    """

    def __init__(self, max_weight: int, *, max_seen: int = 8192) -> None:
        self.max_weight = max_weight
        self.max_seen = max_seen
        self.weight = 0
        self._data: OrderedDict[Hashable, Any] = OrderedDict()
        self._seen: OrderedDict[Hashable, None] = OrderedDict()  # keys computed once, not yet admitted
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any:
        with self._lock:
            value = self._data.get(key)
            if value is not None:
                self._data.move_to_end(key)
            return value

    def put(self, key: Hashable, value: Any) -> None:
        weight = len(value) + 1
        if weight > self.max_weight:
            return
        with self._lock:
            if key not in self._data:
                if key not in self._seen:  # the first computation: remember the key only
                    self._seen[key] = None
                    if len(self._seen) > self.max_seen:
                        self._seen.popitem(last=False)
                    return
                del self._seen[key]
            old = self._data.pop(key, None)
            if old is not None:
                self.weight -= len(old) + 1
            self._data[key] = value
            self.weight += weight
            while self.weight > self.max_weight:
                _, evicted = self._data.popitem(last=False)
                self.weight -= len(evicted) + 1


_Departure = tuple[tuple[_Step, ...], Asset, str, tuple[str, str] | None]


@dataclass(frozen=True, slots=True, eq=False)
class HopRules:
    """What turns a route's steps into hops: the chains with PFM, the overlay's bridge kinds and the
    chain-ids. Immutable data, one per engine; a :class:`~assetroute_core.Route` keeps its steps
    and these rules (never the engine), and builds its :class:`Hop` list only when asked.
    """

    pfm: frozenset[str]
    overlay: Overlay
    chain_ids: Mapping[str, str]  # chain name -> chain-id (a read-only view)

    def flags(self, steps: tuple[_Step, ...]) -> tuple[list[str], list[bool], list[bool]]:
        """Per hop: its operation kind, whether it starts an operation, whether it needs a new tx."""
        ops = [s.kind for s in steps]
        for j, step in enumerate(steps):
            if step.kind == "IBC":
                continue
            info = self.overlay.bridge(step.kind)
            if info.absorbs_adjacent_ibc_hop and info.hub_chain:
                if j > 0 and steps[j - 1].kind == "IBC" and steps[j - 1].to_chain == info.hub_chain == step.from_chain:
                    ops[j - 1] = step.kind
                if (j + 1 < len(steps) and steps[j + 1].kind == "IBC"
                        and steps[j + 1].from_chain == info.hub_chain == step.to_chain):
                    ops[j + 1] = step.kind
        new_ops: list[bool] = []
        new_txs: list[bool] = []
        for j in range(len(steps)):
            # An IBC hop folded into the bridge operation beside it is part of that operation.
            new_op = j == 0 or ops[j] == "IBC" or ops[j] != ops[j - 1]
            if j == 0:
                new_tx = True
            elif steps[j - 1].into_wasm:
                new_tx = True  # a contract token came home over a wasm. port: no PFM there
            elif not new_op:
                new_tx = False
            elif ops[j - 1] == "IBC":
                new_tx = steps[j - 1].to_chain not in self.pfm
            else:
                new_tx = not self.overlay.bridge(ops[j - 1]).forwards
            new_ops.append(new_op)
            new_txs.append(new_tx)
        return ops, new_ops, new_txs

    def hops_of(self, steps: tuple[_Step, ...]) -> tuple[Hop, ...]:
        """The :class:`Hop` list of a route's steps."""
        ops, _new_ops, new_txs = self.flags(steps)
        ids = self.chain_ids
        return tuple(
            Hop(ids.get(step.from_chain, step.from_chain), ids.get(step.to_chain, step.to_chain), step.kind,
                step.channel, step.counterparty_channel, ops[j], step.dest.denom, new_txs[j])
            for j, step in enumerate(steps)
        )


class Engine:
    """Indexes over one :class:`RegistryData`, and the current generation of routing memo tables.

    Everything built here is permanent and bounded by the registry (channels, listed instances,
    contract-token tables, bridge links). Derived instances and memo tables live in a
    :class:`_Router` generation; :meth:`router` hands out the current one and starts a fresh one
    once its weight passes ``max_weight``, so memory stays bounded for any sequence of queries.
    The routing methods here delegate to the current generation (one call, one generation);
    a lookup that makes several calls takes ``router()`` once and uses it throughout.
    """

    def __init__(self, data: RegistryData, overlay: Overlay, *, max_weight: int = DEFAULT_MAX_WEIGHT,
                 bridge_kinds: frozenset[str] | None = None) -> None:
        self._index_registry(data, overlay)
        self._index_links(bridge_kinds)
        self._start(max_weight)

    def with_bridge_kinds(self, bridge_kinds: frozenset[str] | None, *, max_weight: int | None = None) -> Engine:
        """An engine over the same data and overlay that routes over *bridge_kinds* (``None``: every kind).

        It shares this engine's permanent indexes that no bridge kind changes (channels, listed
        instances, contract tokens: all of an engine's construction but its bridge links, about
        25 ms of the full registry's load), and has bridge links, memo tables and answers of its own.
        Sharing is safe: those indexes are complete once built (the memo of recommended symbols is
        filled for every listing then, and any later entry would be the same value), and the memo
        tables that key on the shared instances are per engine.
        """
        other = object.__new__(type(self))
        other.__dict__.update(vars(self))  # then everything of its own is set afresh:
        other._index_links(bridge_kinds)
        other._start(self.max_weight if max_weight is None else max_weight)
        return other

    def _index_registry(self, data: RegistryData, overlay: Overlay) -> None:
        """The indexes no bridge kind changes (shared by :meth:`with_bridge_kinds`)."""
        self.data = data
        self.overlay = overlay
        self.chains: dict[str, Chain] = data.chains
        # Routable: live Cosmos/EVM chains that own their chain-id (a shared id goes to one chain).
        self.routable: frozenset[str] = frozenset(
            n for n, c in data.chains.items() if c.routable and data.chain_ids.get(c.chain_id) == n)
        self._pfm: frozenset[str] = frozenset(n for n, c in data.chains.items() if c.pfm_enabled)
        self.rules = HopRules(self._pfm, overlay, MappingProxyType(
            {n: c.chain_id or n for n, c in data.chains.items()}))
        self._canonical: dict[tuple[str, str], ChannelEnd] = {}
        self._canonical_wasm: dict[tuple[str, str], ChannelEnd] = {}
        self._wasm_ends: dict[tuple[str, str], list[tuple[tuple[int, int, int, int], ChannelEnd]]] = {}
        self._index_channels()
        self.neighbours: dict[str, tuple[str, ...]] = {}
        for (a, b) in self._canonical:
            self.neighbours.setdefault(a, ())
            self.neighbours[a] += (b,)
        self.neighbours = {k: tuple(sorted(v)) for k, v in self.neighbours.items()}
        self._neighbour_sets: dict[str, frozenset[str]] = {k: frozenset(v) for k, v in self.neighbours.items()}

        self.listings: dict[tuple[str, str], ListedAsset] = data.listed
        self.listed_instances: dict[tuple[str, str], Asset] = {}  # permanent: interned for every generation
        self.natives: dict[str, list[Asset]] = {}
        self._rec_memo: dict[tuple[str, str], str] = {}  # deterministic: safe to share
        for key, listed in data.listed.items():
            asset = self._make_listed(listed)
            self.listed_instances[key] = asset
            if not asset.trace:
                self.natives.setdefault(listed.chain_name, []).append(asset)
        for assets in self.natives.values():
            assets.sort(key=lambda a: a.denom)
        # Contract tokens: token key -> neighbour -> the channel end it leaves over (sorted by neighbour).
        self._contract_tables: dict[tuple[str, str], dict[str, ChannelEnd]] = self._index_contract_tokens()
        self._bank_natives: dict[str, list[Asset]] = {
            chain: [a for a in assets if self._contract_table(a) is None] for chain, assets in self.natives.items()}
        self._contract_arrivals: dict[str, list[tuple[Asset, ChannelEnd]]] = {}
        for key, table in sorted(self._contract_tables.items()):
            native = self.listed_instances.get(key)
            if native is None or native.trace:
                continue
            for dest, end in table.items():
                self._contract_arrivals.setdefault(dest, []).append((native, end))
        # Listed vouchers of EVM addresses by (chain, trace, lower-case address): the path's own spelling
        # is what hashes to the listed denom, whatever spelling the route carries.
        self._listed_paths: dict[tuple[str, str, str], Asset] = {}
        for key, listed in data.listed.items():
            if listed.trace and listed.origin_denom[:2] in ("0x", "0X"):
                self._listed_paths.setdefault((listed.chain_name, listed.trace, listed.origin_denom.lower()),
                                              self.listed_instances[key])

        self._listed_by_chain: dict[str, list[Asset]] = {}
        for key, asset in self.listed_instances.items():
            self._listed_by_chain.setdefault(key[0], []).append(asset)

    def _index_links(self, bridge_kinds: frozenset[str] | None) -> None:
        """The bridge links of the kinds this engine routes over (its own, never shared)."""
        #: The bridge kinds this engine routes over; ``None``: every kind the registry names.
        self.bridge_kinds = bridge_kinds
        # Bridge links: pairwise ones as adjacency; a family linked through its root (CCTP) as
        # root -> (members in order, root first; kind) and member -> its families, expanded per
        # destination by the router (every two members are one hop apart, at linear cost).
        self._links: dict[tuple[str, str], list[tuple[str, str, tuple[str, str]]]] = {}
        self._families: dict[tuple[str, str], tuple[list[tuple[str, str]], str]] = {}
        self._family_of: dict[tuple[str, str], list[tuple[str, str]]] = {}
        link_keys: dict[tuple[str, str], None] = {}
        for link in self.data.links:
            if bridge_kinds is not None and link.kind not in bridge_kinds:
                continue
            ka = (link.a[0], denom_key(link.a[1]))
            kb = (link.b[0], denom_key(link.b[1]))
            if ka == kb:
                continue
            link_keys.setdefault(ka)
            link_keys.setdefault(kb)
            if link.file == FAMILY_LINK:
                self._families.setdefault(ka, ([ka], link.kind))[0].append(kb)
                for key in (ka, kb):
                    if ka not in self._family_of.setdefault(key, []):
                        self._family_of[key].append(ka)
                continue
            self._links.setdefault(ka, []).append((link.kind, link.provider, kb))
            self._links.setdefault(kb, []).append((link.kind, link.provider, ka))
        self._link_keys: tuple[tuple[str, str], ...] = tuple(link_keys)

    def _start(self, max_weight: int) -> None:
        """The lock, the first generation of memo tables and the answers' cache (its own, never shared)."""
        self._lock = threading.RLock()
        self.max_weight = max_weight
        self.generations = 1  # how many generations of memo tables this engine has started
        self._gen = _Router(self)
        self.results = _LRU(50_000)  # (source, dest, flags...) -> pairs of assets_between_chains

    # -- indexes -----------------------------------------------------------------------------

    def _index_channels(self) -> None:
        best: dict[tuple[str, str], tuple[tuple[int, int, int, int], ChannelEnd]] = {}
        best_wasm: dict[tuple[str, str], tuple[tuple[int, int, int, int], ChannelEnd]] = {}
        for chain, ends in self.data.ends.items():
            if chain not in self.routable:
                continue
            for end in ends.values():
                ch = end.channel
                if not ch.usable or end.counterparty_chain not in self.routable:
                    continue
                rank = (
                    0 if ch.preferred else 1,
                    0 if ch.status == "ACTIVE" else 1,
                    int(ch.channel_1.rsplit("-", 1)[1]),
                    int(ch.channel_2.rsplit("-", 1)[1]),
                )
                pair = (chain, end.counterparty_chain)
                if end.port == "transfer" and end.counterparty_port == "transfer":
                    table = best
                elif end.port.startswith("wasm.") and end.counterparty_port == "transfer":
                    table = best_wasm
                    self._wasm_ends.setdefault((chain, end.port), []).append((rank, end))
                else:
                    continue
                if pair not in table or rank < table[pair][0]:
                    table[pair] = (rank, end)
        self._canonical = {k: v[1] for k, v in best.items()}
        self._canonical_wasm = {k: v[1] for k, v in best_wasm.items()}

    def _index_contract_tokens(self) -> dict[tuple[str, str], dict[str, ChannelEnd]]:
        """Every contract token native to a chain -> neighbour -> the channel end it leaves over.

        Only ``wasm.`` ports named by an ``ibc-cw20`` trace of that token (anywhere in the registry)
        carry it; among those channels towards one neighbour the usual canonical rank decides.
        """
        ports: dict[tuple[str, str], set[str]] = {}
        for listed in self.data.listed.values():
            for t in listed.traces:
                cp = t.get("counterparty")
                if t.get("type") != "ibc-cw20" or not isinstance(cp, dict):
                    continue
                chain, base, port = cp.get("chain_name"), cp.get("base_denom"), cp.get("port")
                if isinstance(chain, str) and isinstance(base, str) and isinstance(port, str) \
                        and port.startswith("wasm."):
                    ports.setdefault((chain, denom_key(base)), set()).add(port)
        tables: dict[tuple[str, str], dict[str, ChannelEnd]] = {}
        for key, listed in self.data.listed.items():
            if not listed.trace and (listed.type_asset in CONTRACT_TYPES or listed.denom.startswith("cw20:")):
                tables[key] = {}
        for key, names in ports.items():
            if key not in tables and not key[1].startswith("cw20:"):
                continue  # a trace naming a wasm. port for a bank denom: not a contract token
            best: dict[str, tuple[tuple[int, int, int, int], ChannelEnd]] = {}
            for port in names:
                for rank, end in self._wasm_ends.get((key[0], port), ()):
                    current = best.get(end.counterparty_chain)
                    if current is None or rank < current[0]:
                        best[end.counterparty_chain] = (rank, end)
            tables[key] = {dest: best[dest][1] for dest in sorted(best)}
        return tables

    def _contract_table(self, root: Asset) -> dict[str, ChannelEnd] | None:
        """Neighbour -> channel end for a native contract token; ``None`` for a bank coin (or a voucher)."""
        if root.trace:
            return None
        table = self._contract_tables.get((root.chain_name, denom_key(root.denom)))
        if table is None and root.denom.startswith("cw20:"):
            return _NO_CHANNELS
        return table

    def is_contract_token(self, asset: Asset) -> bool:
        """Whether *asset* is a native contract token (CW20, SNIP-20/25, ``cw20:`` base; SPEC §2)."""
        return self._contract_table(asset) is not None

    def channel_for(self, root: Asset, chain: str) -> ChannelEnd | None:
        """The channel end the native *root* leaves over towards *chain* (its canonical one)."""
        table = self._contract_table(root)
        if table is not None:
            return table.get(chain)
        return self._canonical.get((root.chain_name, chain))

    def canonical_channel(self, a: str, b: str, *, cw20: bool = False) -> ChannelEnd | None:
        """The canonical channel end on *a* towards *b*; ``cw20=True``: the best-ranked ``wasm.`` one.

        Routing of contract tokens does not use the ``wasm.`` one: each token has its own channels
        (:meth:`channel_for`); this is the pair-level view that the network pages draw.
        """
        return (self._canonical_wasm if cw20 else self._canonical).get((a, b))

    def usable_transfer_channels(self) -> int:
        """How many chain pairs have a canonical ``transfer``↔``transfer`` channel (each pair once)."""
        return len(self._canonical) // 2

    def chain_id(self, name: str) -> str:
        chain = self.chains.get(name)
        return chain.chain_id if chain is not None and chain.chain_id else name

    def is_evm(self, name: str) -> bool:
        chain = self.chains.get(name)
        return chain is not None and chain.chain_type == "evm"

    def is_svm(self, name: str) -> bool:
        chain = self.chains.get(name)
        return chain is not None and chain.chain_type == "svm"

    def pfm(self, name: str) -> bool:
        chain = self.chains.get(name)
        return chain is not None and chain.pfm_enabled

    # -- assets ------------------------------------------------------------------------------

    def _make_listed(self, listed: ListedAsset) -> Asset:
        m = listed.metadata
        metadata = Metadata(m.symbol, m.name, m.logo_uri, m.decimals, m.token_contract, m.description,
                            m.coingecko_id, self._recommended_symbol(listed, 0))
        return Asset(
            chain_name=listed.chain_name,
            chain_id=self.chain_id(listed.chain_name),
            denom=listed.denom,
            origin_chain_name=listed.origin_chain_name,
            origin_chain_id=self.chain_id(listed.origin_chain_name),
            origin_denom=listed.origin_denom,
            trace=listed.trace,
            is_cw20=listed.type_asset == "cw20",
            is_evm=self.is_evm(listed.chain_name),
            is_svm=self.is_svm(listed.chain_name),
            metadata=metadata,
            type_asset=listed.type_asset,
        )

    def _listing(self, chain: str, denom: str) -> ListedAsset | None:
        return self.listings.get((chain, denom_key(denom)))

    def _recommended_symbol(self, listed: ListedAsset, depth: int) -> str:
        """The documented rule (docs/rules.md): bridged variants get the bridge's suffix."""
        memo_key = (listed.chain_name, listed.denom)
        if memo_key in self._rec_memo:
            return self._rec_memo[memo_key]
        own = listed.metadata.symbol
        result = own
        for t in reversed(listed.traces):
            ttype = t.get("type")
            if ttype in ("ibc", "ibc-cw20"):
                continue
            provider = t.get("provider") if isinstance(t.get("provider"), str) else ""
            cp = t.get("counterparty") if isinstance(t.get("counterparty"), dict) else {}
            cp_listing = None
            if isinstance(cp.get("chain_name"), str) and isinstance(cp.get("base_denom"), str):
                cp_listing = self._listing(cp["chain_name"], cp["base_denom"])
            cp_symbol = cp_listing.metadata.symbol if cp_listing is not None else own
            if ttype in ("bridge", "ibc-bridge"):
                suffix = self.overlay.suffixes.get(provider.lower())
                result = f"{cp_symbol}.{suffix}" if suffix else own
            elif ttype == "additional-mintage" and provider.lower() == "circle":
                result = cp_symbol
            break
        else:
            if listed.trace and depth < 8:
                origin = self._listing(listed.origin_chain_name, listed.origin_denom)
                if origin is not None and origin is not listed:
                    result = self._recommended_symbol(origin, depth + 1)
        self._rec_memo[memo_key] = result
        return result

    def family_symbol(self, asset: Asset) -> str | None:
        """``recommended_symbol`` of the instance, or of the listing of its origin asset."""
        if asset.metadata is not None and asset.metadata.recommended_symbol:
            return asset.metadata.recommended_symbol
        origin = self._listing(asset.origin_chain_name, asset.origin_denom)
        if origin is not None:
            return self._recommended_symbol(origin, 0)
        return None

    # -- the current generation ---------------------------------------------------------------

    def router(self) -> _Router:
        """The current generation of memo tables; a fresh one once the current one passed its cap.

        Callers that make several routing calls for one answer take this once and use it throughout
        (in-flight lookups keep a consistent generation; the old one is freed when they finish).
        """
        gen = self._gen
        if gen.weight > self.max_weight:
            with self._lock:
                if self._gen is gen:
                    self._gen = _Router(self)
                    self.generations += 1
                gen = self._gen
        return gen

    def memo_weight(self) -> int:
        """The weight held by the current generation (instances, stages, departures, index entries)."""
        return self._gen.weight

    def instance(self, chain: str, trace: str, origin_chain: str, origin_denom: str) -> Asset:
        """The instance of an origin asset on *chain* with *trace*: listed if listed, else derived."""
        return self.router().instance(chain, trace, origin_chain, origin_denom)

    def find(self, chain: str, denom: str) -> Asset | None:
        """The instance held on *chain* with *denom* (listed or derived), if any."""
        return self.router().find(chain, denom)

    def held(self, chain: str) -> tuple[Asset, ...]:
        """Every instance held on *chain*: its assetlist plus the derived canonical vouchers."""
        return self.router().held(chain)

    def unwind(self, asset: Asset) -> _Unwind:
        return self.router().unwind(asset)

    def canonical(self, root: Asset, chain: str) -> tuple[Asset, _Step | None] | None:
        """The canonical representation of *root* on *chain*, with the hop that reaches it."""
        return self.router().canonical(root, chain)

    def direct_sends(self, source: Asset) -> dict[str, Route]:
        """For each neighbour, the instance that sending *source* over the canonical channel gives."""
        return self.router().direct_sends(source)

    def routes_to(self, source: Asset, chain: str) -> list[Route]:
        """The best route to each distinct destination denom on *chain*, by destination denom."""
        return self.router().routes_to(source, chain)

    def best_routes(self, source: Asset, chain: str) -> dict[str, Route]:
        """The best route to each distinct destination denom on *chain*."""
        return self.router().best_routes(source, chain)

    def held_reaching(self, chain: str, dest: str, *, listed_only: bool = False) -> tuple[Asset, ...]:
        """The instances held on *chain* (only listed ones if *listed_only*) that reach *dest*, in result order."""
        return self.router().held_reaching(chain, dest, listed_only=listed_only)

    def reachable_chains(self, source: Asset) -> list[str]:
        """Chains where a route from *source* can end."""
        return self.router().reachable_chains(source)

    def reach(self, root: Asset) -> tuple[str, ...]:
        """Chains where *root* has a canonical representation (its own chain first)."""
        if root.trace or root.chain_name not in self.routable:
            return (root.chain_name,)
        table = self._contract_table(root)
        others = self.neighbours.get(root.chain_name, ()) if table is None else tuple(table)
        return (root.chain_name, *others)

    def represented_on(self, root: Asset, chain: str) -> bool:
        """Whether *chain* is in :meth:`reach` of *root*, without building the tuple."""
        if root.chain_name == chain:
            return True
        if root.trace or root.chain_name not in self.routable:
            return False
        table = self._contract_table(root)
        if table is None:
            return chain in self._neighbour_sets.get(root.chain_name, ())
        return chain in table

    # -- bridges -----------------------------------------------------------------------------

    def tradable(self, chain: str, *, include_cw20: bool) -> list[Asset]:
        """Assets tradable on a swap venue's chain: listed, not deprecated, bank coins (CW20 on request)."""
        types = ("sdk.coin", "ics20", "cw20") if include_cw20 else ("sdk.coin", "ics20")
        out = []
        for asset in self._listed_by_chain.get(chain, ()):
            listing = self.listings[(chain, denom_key(asset.denom))]
            if listing.type_asset in types and not listing.deprecated:
                out.append(asset)
        return out

    # -- routes ------------------------------------------------------------------------------


class _Router:
    """One generation of the engine's memo tables, and the routing algorithm over them.

    Derived instances are interned here (one object per (chain, denom) in this generation; listed
    ones are the engine's, permanent), and every table keyed by ``id()`` holds only instances of
    this generation or instances that its own entries keep alive. A lookup takes one generation at
    its start (:meth:`Engine.router`) and uses it to the end, so identity stays equality for it even
    when the engine starts a fresh generation meanwhile. ``weight`` counts what the tables hold
    (instances, stages, departures, index entries) so the engine can retire a generation at its cap.
    """

    def __init__(self, engine: Engine) -> None:
        self.e = engine
        self.routable = engine.routable
        self._ends = engine.data.ends
        self._listed = engine.listed_instances
        self._lock = threading.RLock()
        self.weight = 0
        self._instances: dict[tuple[str, str], Asset] = {}  # derived instances only
        self._held: dict[str, tuple[Asset, ...]] = {}
        self._held_index: dict[str, dict[str, Asset]] = {}
        # Memo tables of the hot path are keyed by id(): instances are interned (one object per
        # (chain, denom)), and every keyed instance stays alive as stages[0] of its _Unwind.
        self._unwinds: dict[int, _Unwind] = {}
        self._departures: dict[int, tuple[_Departure, ...]] = {}
        self._canon_links: dict[tuple[str, str], list[Asset]] | None = None
        # chain -> id(root) -> canonical representation there (per chain: a lookup's loop has one dest)
        self._canon_memo: dict[str, dict[int, tuple[Asset, _Step | None] | None]] = {}
        self._pfm = engine._pfm
        self._rules = engine.rules
        # (chain, listed only) -> dest -> held instances that reach it; and the first dest asked of a chain
        self._by_dest: dict[tuple[str, bool], dict[str, tuple[Asset, ...]]] = {}
        self._first_dest: dict[tuple[str, bool], tuple[str, tuple[Asset, ...]]] = {}
        self._held_listed: dict[str, tuple[Asset, ...]] = {}
        # CCTP-like families: root key -> chain -> members that can end a route on that chain.
        # root -> (chain -> members that can end a route there, every such routable chain): one entry, set
        # at once, so a reader in another thread never sees half of it
        self._family_reach: dict[tuple[str, str], tuple[dict[str, tuple[Asset, ...]], frozenset[str]]] = {}

    # -- assets ------------------------------------------------------------------------------

    def instance(self, chain: str, trace: str, origin_chain: str, origin_denom: str) -> Asset:
        """The instance of an origin asset on *chain* with *trace*: listed if listed, else derived."""
        e = self.e
        if trace and origin_denom[:2] in ("0x", "0X"):
            spelled = e._listed_paths.get((chain, trace, origin_denom.lower()))
            if spelled is not None:
                return spelled
        denom = ibc_denom(trace, origin_denom)
        key = (chain, denom_key(denom))
        found = self._listed.get(key) or self._instances.get(key)
        if found is not None:
            return found
        with self._lock:
            found = self._instances.get(key)
            if found is None:
                origin_listing = e._listing(origin_chain, origin_denom)
                found = new_unlisted_asset(
                    chain, e.chain_id(chain), denom, origin_chain, e.chain_id(origin_chain), origin_denom, trace,
                    False if trace else (origin_listing is not None and origin_listing.type_asset == "cw20"),
                    e.is_evm(chain), e.is_svm(chain), "ics20" if trace else "")
                self._instances[key] = found
                self.weight += _W_INSTANCE
            return found

    def find(self, chain: str, denom: str) -> Asset | None:
        """The instance held on *chain* with *denom* (listed or derived), if any."""
        self.held(chain)
        return self._held_index[chain].get(denom_key(denom))

    def held(self, chain: str) -> tuple[Asset, ...]:
        """Every instance held on *chain*: its assetlist plus the derived canonical vouchers.

        Ordered as results are: natives first, then by origin chain id and denom.
        """
        cached = self._held.get(chain)
        if cached is not None:
            return cached
        e = self.e
        seen: dict[str, Asset] = {a.denom: a for a in e._listed_by_chain.get(chain, ())}
        if chain in self.routable:
            for neighbour in e.neighbours.get(chain, ()):
                end = e._canonical[(neighbour, chain)]
                for native in e._bank_natives.get(neighbour, ()):
                    v = self.instance(chain, f"transfer/{end.counterparty_channel_id}", neighbour, native.denom)
                    seen.setdefault(v.denom, v)
            for native, end in e._contract_arrivals.get(chain, ()):
                v = self.instance(chain, f"transfer/{end.counterparty_channel_id}", native.chain_name, native.denom)
                seen.setdefault(v.denom, v)
        ordered = tuple(sorted(seen.values(), key=_held_order))
        with self._lock:
            if chain not in self._held:
                self._held_index[chain] = {denom_key(a.denom): a for a in ordered}
                self._held[chain] = ordered
                self.weight += 2 * len(ordered) + 1  # the tuple and the index
        return self._held[chain]

    # -- unwinding and canonical representations --------------------------------------------

    def unwind(self, asset: Asset) -> _Unwind:
        key = id(asset)
        cached = self._unwinds.get(key)
        if cached is not None:
            return cached
        ends, routable = self._ends, self.routable
        stages = [asset]
        steps: list[_Step] = []
        current = asset
        while current.trace and len(steps) < 16:
            port, channel, *rest = current.trace.split("/")
            end = ends.get(current.chain_name, {}).get(channel)
            if end is None or end.port != port:
                break  # not an IBC channel (an IBC v2 client, a bridge): only a bridge leaves from here
            if not end.channel.usable or end.counterparty_chain not in routable or current.chain_name not in routable:
                # Stuck part-way: no origin, so no IBC route at all (SPEC §3).
                stages, steps = [asset], []
                break
            nxt = self.instance(end.counterparty_chain, "/".join(rest), current.origin_chain_name, current.origin_denom)
            steps.append(_Step(current.chain_name, nxt.chain_name, "IBC", channel, end.counterparty_channel_id, nxt,
                               end.counterparty_port.startswith("wasm.")))
            stages.append(nxt)
            current = nxt
        result = _Unwind(tuple(stages), tuple(steps))
        self._unwinds[key] = result
        self.weight += 3 + len(stages)
        return result

    def canonical(self, root: Asset, chain: str) -> tuple[Asset, _Step | None] | None:
        """The canonical representation of *root* on *chain*, with the hop that reaches it."""
        memo = self._canon_memo.get(chain)
        if memo is None:
            memo = self._canon_memo.setdefault(chain, {})
        key = id(root)
        found = memo.get(key, _MISSING)
        if found is _MISSING:
            found = memo[key] = self._canonical_uncached(root, chain)
            self.weight += 3
        return found  # type: ignore[no-any-return]

    def _canonical_uncached(self, root: Asset, chain: str) -> tuple[Asset, _Step | None] | None:
        if root.chain_name == chain:
            return root, None
        if root.trace:
            return None  # a bridge-landed voucher: only multi-hop vouchers could go further
        end = self.e.channel_for(root, chain)
        if end is None:
            return None
        dest = self.instance(chain, f"transfer/{end.counterparty_channel_id}", root.chain_name, root.denom)
        return dest, _Step(root.chain_name, chain, "IBC", end.channel_id, end.counterparty_channel_id, dest,
                           end.counterparty_port.startswith("wasm."))

    # -- bridges -----------------------------------------------------------------------------

    def _resolve(self, key: tuple[str, str]) -> Asset | None:
        chain, denom = key
        if chain not in self.routable:
            return None
        found = self._listed.get(key)
        if found is not None:
            return found
        return self.find(chain, denom)

    def _canonical_departures(self) -> dict[tuple[str, str], list[Asset]]:
        """root key -> one-hop canonical vouchers of that root that have bridge links."""
        if self._canon_links is None:
            table: dict[tuple[str, str], list[Asset]] = {}
            for key in self.e._link_keys:
                asset = self._resolve(key)
                if asset is None or not asset.trace:
                    continue
                u = self.unwind(asset)
                if len(u.steps) == 1 and not u.root.trace:
                    canon = self.canonical(u.root, asset.chain_name)
                    if canon is not None and canon[0] is asset:
                        table.setdefault((u.root.chain_name, u.root.denom), []).append(asset)
            with self._lock:
                if self._canon_links is None:
                    self._canon_links = table
                    self.weight += len(self.e._link_keys)
        return self._canon_links

    def _family(self, root: tuple[str, str]) -> tuple[dict[str, tuple[Asset, ...]], frozenset[str]]:
        """For a family linked through its *root*: chain -> members whose routes can end there, in
        family order, and every such chain. Built once per generation: O(members x reach)."""
        found = self._family_reach.get(root)
        if found is not None:
            return found
        lists: dict[str, list[Asset]] = {}
        for key in self.e._families[root][0]:
            member = self._resolve(key)
            if member is None:
                continue
            u = self.unwind(member)
            chains = set(self.e.reach(u.root))
            chains.update(s.chain_name for s in u.stages)
            for chain in chains:
                lists.setdefault(chain, []).append(member)
        table = {chain: tuple(members) for chain, members in lists.items()}
        with self._lock:
            if root not in self._family_reach:
                self._family_reach[root] = (table, frozenset(c for c in table if c in self.routable))
                self.weight += sum(len(v) for v in table.values()) // 8 + len(table) + 1
        return self._family_reach[root]

    def departures(self, asset: Asset) -> tuple[_Departure, ...]:
        """Ways to cross one bridge from *asset*.

        Each is (IBC steps before it then the bridge step, counterpart, kind, None), or for a family
        linked through a hub (CCTP) (IBC steps before it, the member departed from, kind, family
        root): every other member of the family is then a counterpart, resolved per destination.
        """
        key = id(asset)  # a miss below unwinds *asset*, which keeps it (and so its id) alive
        cached = self._departures.get(key)
        if cached is not None:
            return cached
        e = self.e
        u = self.unwind(asset)
        out: list[_Departure] = []
        starts: list[tuple[tuple[_Step, ...], Asset]] = [(u.steps[:i], stage) for i, stage in enumerate(u.stages)]
        root = u.root
        for voucher in self._canonical_departures().get((root.chain_name, root.denom), ()):
            canon = self.canonical(root, voucher.chain_name)
            if canon is not None and canon[1] is not None and u.position(voucher) < 0:
                starts.append(((*u.steps, canon[1]), voucher))
        for prefix, start in starts:
            start_key = (start.chain_name, denom_key(start.denom))
            for kind, _provider, other_key in e._links.get(start_key, ()):
                other = self._resolve(other_key)
                if other is None or (other.chain_name == start.chain_name and other.denom == start.denom):
                    continue
                step = _Step(start.chain_name, other.chain_name, kind, None, None, other)
                out.append(((*prefix, step), other, kind, None))
            for family in e._family_of.get(start_key, ()):
                out.append((prefix, start, e._families[family][1], family))
        result = tuple(out)
        self._departures[key] = result
        self.weight += 2 * len(result) + 1
        return result

    def _counterparts(self, departure: _Departure, chain: str) -> Iterable[tuple[tuple[_Step, ...], Asset]]:
        """(steps up to and including the bridge, counterpart) of a departure; for a family, every
        other member whose routes can end on *chain*."""
        prefix, asset, kind, family = departure
        if family is None:
            yield prefix, asset
            return
        for other in self._family(family)[0].get(chain, ()):
            if other.chain_name == asset.chain_name and other.denom == asset.denom:
                continue
            yield (*prefix, _Step(asset.chain_name, other.chain_name, kind, None, None, other)), other

    def direct_sends(self, source: Asset) -> dict[str, Route]:
        """For each neighbour, the instance that sending *source* over the canonical channel gives."""
        out: dict[str, Route] = {}
        e = self.e
        if source.chain_name not in self.routable:
            return out
        contract = e._contract_table(source)
        ends: Iterable[ChannelEnd]
        if contract is not None:
            ends = contract.values()
        else:
            ends = [end for (a, _b), end in e._canonical.items() if a == source.chain_name]
        for end in ends:
            a, b = end.chain, end.counterparty_chain
            trace = send_trace(source.trace, local_channel=end.channel_id, remote_channel=end.counterparty_channel_id,
                               local_port=end.port, remote_port=end.counterparty_port)
            dest = self.instance(b, trace, source.origin_chain_name, source.origin_denom)
            step = _Step(a, b, "IBC", end.channel_id, end.counterparty_channel_id, dest,
                         end.counterparty_port.startswith("wasm."))
            out[b] = self._route(source, dest, (step,))
        return out

    # -- routes ------------------------------------------------------------------------------

    def _tail(self, u: _Unwind, chain: str, canon_memo: dict[int, tuple[Asset, _Step | None] | None] | None = None,
              ) -> tuple[Asset, tuple[_Step, ...]] | None:
        """From an unwind, the canonical instance on *chain* and the steps to it.

        *canon_memo* is ``_canon_memo[chain]``, passed by a loop over one destination.
        """
        root = u.stages[-1]
        canon = _MISSING if canon_memo is None else canon_memo.get(id(root), _MISSING)
        if canon is _MISSING:
            canon = self.canonical(root, chain)
        if canon is None:
            return None
        target, hop = canon
        i = u.position(target)
        if i >= 0:
            return target, u.steps[:i]
        assert hop is not None
        return target, (*u.steps, hop)

    def candidate_routes(self, source: Asset, chain: str) -> Iterable[Route]:
        """Every route of the model from *source* to a canonical instance on *chain*."""
        u = self.unwind(source)
        tail = self._tail(u, chain)
        if tail is not None and tail[1]:
            yield self._route(source, tail[0], tail[1])
        for departure in self.departures(source):
            for prefix, counterpart in self._counterparts(departure, chain):
                tail2 = self._tail(self.unwind(counterpart), chain)
                if tail2 is None:
                    continue
                dest, steps = tail2
                if dest.chain_name == source.chain_name and dest.denom == source.denom:
                    continue
                yield self._route(source, dest, prefix + steps)

    def routes_to(self, source: Asset, chain: str) -> list[Route]:
        """The best route to each distinct destination denom on *chain*, by destination denom."""
        if not self.departures(source):  # the common case: IBC only, at most one route
            route = self._ibc_route(source, self._unwinds[id(source)], chain)
            return [] if route is None else [route]
        best = self.best_routes(source, chain)
        return [best[denom] for denom in sorted(best)]

    def routes_between(self, chain: str, dest: str, *, cw20: bool, evm: bool, svm: bool,
                       no_metadata: bool) -> Iterator[Route]:
        """The best routes to *dest* of every instance held on *chain*, in result order.

        Only instances that may be sources are routed: CW20, EVM, SVM or unlisted ones when the flag of
        that kind allows them. This is ``routes_to`` over ``held_reaching`` in one loop, the shape of
        every pair of a sweep.
        """
        departures_memo, unwinds = self._departures, self._unwinds
        ibc_route = self._ibc_route
        canon_memo = self._canon_memo.get(dest)
        if canon_memo is None:
            canon_memo = self._canon_memo.setdefault(dest, {})
        every = cw20 and evm and svm  # (unlisted ones are left out by listed_only)
        for asset in self.held_reaching(chain, dest, listed_only=not no_metadata):
            if not every and ((not cw20 and asset.is_cw20) or (not evm and asset.is_evm) or (not svm and asset.is_svm)):
                continue
            key = id(asset)
            departures = departures_memo.get(key)
            if departures is None:
                departures = self.departures(asset)
            if not departures:
                route = ibc_route(asset, unwinds[key], dest, canon_memo)
                if route is not None:
                    yield route
                continue
            best = self.best_routes(asset, dest)
            for denom in sorted(best):
                yield best[denom]

    def _ibc_route(self, source: Asset, u: _Unwind, chain: str,
                   canon_memo: dict[int, tuple[Asset, _Step | None] | None] | None = None) -> Route | None:
        """The one route of an instance that no bridge leaves from: unwind, then the canonical hop
        (``None`` when it is its own canonical instance there, or has none)."""
        tail = self._tail(u, chain, canon_memo)
        if tail is None or not tail[1]:
            return None
        return self._route(source, tail[0], tail[1], ibc_only=True)

    def best_routes(self, source: Asset, chain: str) -> dict[str, Route]:
        """The best route to each distinct destination denom on *chain*."""
        if not self.departures(source):  # the common case: IBC only, at most one route
            route = self._ibc_route(source, self._unwinds[id(source)], chain)
            return {} if route is None else {route.dest.denom: route}
        best: dict[str, Route] = {}
        for route in self.candidate_routes(source, chain):
            current = best.get(route.dest.denom)
            if current is None or _rank(route) < _rank(current):
                best[route.dest.denom] = route
        return best

    def held_listed(self, chain: str) -> tuple[Asset, ...]:
        """The instances of :meth:`held` that *chain*'s assetlist lists (so have metadata), in its order,
        without deriving the unlisted vouchers."""
        cached = self._held_listed.get(chain)
        if cached is None:
            cached = tuple(sorted(self.e._listed_by_chain.get(chain, ()), key=_held_order))
            with self._lock:
                if chain not in self._held_listed:
                    self._held_listed[chain] = cached
                    self.weight += len(cached) // 8 + 1
        return cached

    def held_reaching(self, chain: str, dest: str, *, listed_only: bool = False) -> tuple[Asset, ...]:
        """The instances held on *chain* (only listed ones if *listed_only*) that have a route to *dest*,
        in result order.

        The first destination asked of *chain* is answered by testing each held instance for that
        one destination (:meth:`reaches`: a few set lookups each); a second one builds the table of
        every destination at once (a sweep asks them all, and one pass over the held instances is
        cheaper than a test per pair). Listed-only tables never derive the unlisted vouchers, which
        answers with default flags do not show.
        """
        key = (chain, listed_only)
        table = self._by_dest.get(key)
        if table is not None:
            return table.get(dest, ())
        first = self._first_dest.get(key)
        if first is None:
            held = self.held_listed(chain) if listed_only else self.held(chain)
            found = tuple(a for a in held if self.reaches(a, dest))
            with self._lock:
                if key not in self._first_dest:
                    self._first_dest[key] = (dest, found)
                    self.weight += len(found) // 8 + 1
            return found
        if first[0] == dest:
            return first[1]
        return self._reach_table(chain, listed_only).get(dest, ())

    def _reach_table(self, chain: str, listed_only: bool) -> dict[str, tuple[Asset, ...]]:
        """Destination -> the instances held on *chain* that reach it, in held order."""
        e, routable = self.e, self.routable
        lists: dict[str, list[Asset]] = {}
        for asset in self.held_listed(chain) if listed_only else self.held(chain):
            if self.departures(asset):
                targets: Iterable[str] = self.reachable_chains(asset)
            else:  # IBC only: where its root is represented, and the chains it unwinds through
                u = self.unwind(asset)
                root = u.stages[-1]
                if root.chain_name not in routable:
                    targets = [s.chain_name for s in u.stages if s.chain_name in routable]
                else:
                    targets = e.reach(root)
                    if len(u.stages) > 1:
                        extra = [s.chain_name for s in u.stages
                                 if s.chain_name in routable and not e.represented_on(root, s.chain_name)]
                        if extra:
                            targets = (*targets, *dict.fromkeys(extra))
            for target in targets:
                found = lists.get(target)
                if found is None:
                    lists[target] = [asset]
                else:
                    found.append(asset)
        table = {k: tuple(v) for k, v in lists.items()}
        with self._lock:
            if (chain, listed_only) not in self._by_dest:
                self._by_dest[chain, listed_only] = table
                self.weight += sum(len(v) for v in table.values()) // 8 + len(table) + 1
        return self._by_dest[chain, listed_only]

    def reaches(self, source: Asset, chain: str) -> bool:
        """Whether a route from *source* can end on *chain*: ``chain in reachable_chains(source)``."""
        if chain not in self.routable:
            return False
        e = self.e
        u = self.unwind(source)
        if e.represented_on(u.stages[-1], chain):
            return True
        for stage in u.stages:
            if stage.chain_name == chain:
                return True
        for departure in self.departures(source):
            if departure[3] is not None:
                if chain in self._family(departure[3])[1]:
                    return True
                continue
            u2 = self.unwind(departure[1])
            if e.represented_on(u2.stages[-1], chain):
                return True
            for stage in u2.stages:
                if stage.chain_name == chain:
                    return True
        return False

    def reachable_chains(self, source: Asset) -> list[str]:
        """Chains where a route from *source* can end."""
        e = self.e
        u = self.unwind(source)
        chains: set[str] = set(e.reach(u.root))
        chains.update(s.chain_name for s in u.stages)
        for departure in self.departures(source):
            if departure[3] is not None:
                chains.update(self._family(departure[3])[1])
                continue
            u2 = self.unwind(departure[1])
            chains.update(e.reach(u2.root))
            chains.update(s.chain_name for s in u2.stages)
        return sorted(c for c in chains if c in self.routable)

    def _route(self, source: Asset, dest: Asset, steps: tuple[_Step, ...], *, ibc_only: bool = False) -> Route:
        """The route along *steps* (*ibc_only*: the caller knows every step is an IBC hop)."""
        n = len(steps)
        if ibc_only or all(step.kind == "IBC" for step in steps):
            # Every intermediate chain was reached by IBC, and passes the transfer on only with PFM.
            txs = 1
            if n > 1:
                pfm = self._pfm
                for step in steps[:-1]:
                    if step.to_chain not in pfm or step.into_wasm:
                        txs += 1
            return new_route(source, dest, txs, _IBC_ONLY, n, n, steps, self._rules)
        e = self.e
        ops, new_ops, new_txs = e.rules.flags(steps)
        bridges: list[str] = []
        for op in ops:
            if not bridges or bridges[-1] != op:
                bridges.append(op)
        return new_route(source, dest, sum(new_txs), tuple(bridges), sum(new_ops), n, steps, e.rules)


def _held_order(a: Asset) -> tuple[bool, str, str, str]:
    return (a.trace != "", a.origin_chain_id, a.origin_denom, a.denom)


def _rank(route: Route) -> tuple[int, int, int, tuple[str, ...]]:
    return (route.txs_required, route.operations, len(route.hops), route.bridges)
