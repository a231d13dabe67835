"""Invariants of both lookups over the full snapshot, on a seeded random sample (issue 8, SPEC.md §2–§5).

The sample (``SEED``): 300 random ordered pairs of routable chains plus the 4 chain pairs the issue
names, each asked with three flag sets (all off, all on, one seeded random set); and 200 random source
instances held on routable chains (10 contract tokens, 10 vouchers of them, the rest half listed, half
derived) plus the 2 instances the issue names, each asked with ``allow_multi_tx`` False and True
(``include_cw20_assets`` seeded per instance) with the default ``recommendation_reason``, and with
``DIRECT`` (multi-tx allowed). The two lookups are cross-checked (below) for a few source instances of
every chain pair (one random, one of the all-off answer, up to two of rarer kinds, one held instance
without any pair) under all three flag sets, and for every sampled source instance on a chain it
reaches (each ``allow_multi_tx``) and on one it does not.
Every check collects its violations and fails with the invariant, the exact query and the offending
denoms, so a failure names what to reproduce. The checks are pure functions of the answers.

The invariants (each test names its own):

1. between and from_source agree both ways, with the same ``txs_required``/``bridges`` (mapping below);
   between under flags F is the all-flags answer filtered by F on both sides, one pair per (source, dest);
2. both sides of an IBC-only pair name the same origin (EVM addresses compared case-insensitively);
3. every ``ibc/`` denom is ``ibc/UPPER(HEX(SHA256(trace/origin_denom)))``, by ``assetroute_core.ibc_denom``
   and by hashlib;
4. no multi-hop denom (more than one port/channel pair) is returned unless that chain's assetlist lists
   it or ``DIRECT`` was asked for; an IBC-only route ends native or one hop from a routable origin (a
   stuck unwind is no origin, SPEC §3); derived and routed one-hop vouchers arrive over the canonical
   channel of their token's kind, computed here from the raw ``_IBC`` files;
5. ``txs_required`` and ``Hop.new_tx`` (below), the hops lead from the source to the destination, and a
   hop after a plain IBC arrival needs a new transaction exactly when the chain lacks PFM or the token
   arrived over a ``wasm.`` port;
6. the listed-voucher walk, read from the raw files (``listed_voucher_walk``): every listed one-hop
   voucher over a canonical channel between routable chains is reached from its origin, except the ones
   named in ``EXPLAINED_MISSES`` with their SPEC reason;
7. the answers (JSON of both lookups, on a sample) are the same when every directory listing is read in
   reverse order;
8. answer shapes: identity fields and booleans present and never null, metadata exactly on listed
   instances, between's documented order, from_source's sorted groups without the source itself.

How the two lookups are made comparable (SPEC §4–§5). ``assets_between_chains(S, D, F)`` with flags
``F = (include_no_metadata_assets N, include_cw20_assets C, include_evm_assets E, allow_multi_tx M)``, where ``E``
also sets ``include_svm_assets`` (SVM assets are gated as EVM ones are),
applies every filter to both sides of a pair; ``assets_from_source(a, S, allow_multi_tx=M,
include_cw20_assets=C)`` applies only the CW20 and multi-transaction filters and returns assets
without metadata (identity fields only) and EVM assets unconditionally. So for a source instance
``a`` held on ``S`` that passes ``F`` itself (C or not CW20, E or not EVM, N or listed)::

    {b : (a, b) in between(S, D, F)}  ==  {b in from_source(a, S, M, C)[D] : b passes F's EVM and
                                             metadata filters (E or not EVM, N or listed)}

and both name the same ``txs_required`` and ``bridges`` for each such ``b`` (the best route to one
destination asset is one route, SPEC §3). When ``a`` itself fails ``F``, between has no pair of ``a``.
``native_only``, ``include_swaps`` and non-default ``recommendation_reason`` have no counterpart in
``assets_between_chains`` and are not compared. Where the destination chain is the source chain
(``from_source`` may list other instances there) there is no between query to compare with.

``txs_required`` and ``Hop.new_tx``: ``Hop.new_tx`` is "whether the hop needs a transaction of its own"
(``assetroute_core/_models.py``); the first hop always starts the first transaction, so
``hops[0].new_tx`` is True and ``txs_required == sum(h.new_tx for h in hops) == 1 + #{h in hops[1:]
: h.new_tx}``. ``bridges`` is the hops' ``operation`` with consecutive repeats merged (SPEC §3).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import random
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import assetroute_core as ar

SEED = 20261123
N_CHAIN_PAIRS = 300
N_SOURCE_ASSETS = 200
ASSETS_PER_PAIR = 1  # random source instances cross-checked per chain pair (and one of the all-off answer)
SPECIALS_PER_PAIR = 2  # source instances of special kinds cross-checked per chain pair
DESTS_PER_ASSET = 1  # destination chains cross-checked per (source instance, allow_multi_tx)
CONTRACT_SOURCES = 20  # of the N_SOURCE_ASSETS: contract tokens (CW20, SNIP-20/25) and vouchers of them
ORDER_SAMPLE = 25  # chain pairs and source instances compared between the two loads

# The queries issue 8 names: always part of the sample.
ISSUE_CHAIN_PAIRS = [("osmosis-1", "core-1"), ("neutron-1", "osmosis-1"), ("osmosis-1", "cosmoshub-4"),
                     ("osmosis-1", "centauri-1")]
ISSUE_SOURCES = [("cw20:secret1fl449muk5yq8dlad7a22nje4p5d2pnsgymhjfd", "secret-4"),
                 ("ibc/6B2B19D874851F631FF0AF82C38A20D4B82F438C7A22F41EDA33568345397244", "osmosis-1")]

CONTRACT_TYPES = ("cw20", "snip20", "snip25")  # with base denoms starting "cw20:": contract tokens (SPEC §2)

Flags = tuple[bool, bool, bool, bool]  # (no_metadata N, cw20 C, evm E, multi_tx M)
ALL_OFF: Flags = (False, False, False, False)
ALL_ON: Flags = (True, True, True, True)


def _flag_text(f: Flags) -> str:
    names = ("include_no_metadata_assets", "include_cw20_assets", "include_evm_assets", "allow_multi_tx")
    return ",".join(f"{n}={v}" for n, v in zip(names, f, strict=True))


def _between_text(s: str, d: str, f: Flags) -> str:
    return f"assets_between_chains({s!r} -> {d!r}, {_flag_text(f)})"


def _from_text(denom: str, chain: str, multi: bool, cw20: bool, reason: str | None = None) -> str:
    extra = f", recommendation_reason={reason}" if reason else ""
    return (f"assets_from_source({denom!r} @ {chain!r}, allow_multi_tx={multi}, include_cw20_assets={cw20}"
            f"{extra})")


_EVM_ADDRESS = re.compile(r"^0x[0-9a-fA-F]{40}$")


def _origin(a: dict[str, Any]) -> tuple[str, str]:
    """(origin_chain_id, origin_denom), an EVM address in lowercase: SPEC §2 compares them case-insensitively
    (a voucher's origin_denom is spelled as its listed path spells it, the native as its assetlist does)."""
    denom = a["origin_denom"]
    return a["origin_chain_id"], denom.lower() if _EVM_ADDRESS.match(denom) else denom


def _has_metadata(a: dict[str, Any]) -> bool:
    return "symbol" in a


def _passes(a: dict[str, Any], f: Flags) -> bool:
    """Whether one side of a pair passes between's filters (SPEC §4)."""
    no_meta, cw20, evm, _multi = f
    return ((cw20 or not a["is_cw20"]) and (evm or not (a["is_evm"] or a["is_svm"]))
            and (no_meta or _has_metadata(a)))


def _hop_pairs(trace: str) -> int:
    return len(trace.split("/")) // 2 if trace else 0


# -- the queries, asked once ------------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """One returned (source, destination) with its route, from either lookup."""

    query: str
    source: dict[str, Any]
    dest: dict[str, Any]
    txs_required: int
    bridges: tuple[str, ...]
    route: ar.Route | None  # its hops are built when a check reads them (building all of them is slow)
    dest_chain_id: str
    direct: bool = False  # asked with recommendation_reason DIRECT


@dataclass
class Sample:
    """Every query of the sample and its answers, in the shape the checks read."""

    registry: ar.Registry
    chain_pairs: list[tuple[str, str]] = field(default_factory=list)
    sources: list[tuple[str, str]] = field(default_factory=list)  # (denom, chain_id)
    between: dict[tuple[str, str, Flags], list[Answer]] = field(default_factory=dict)
    from_source: dict[tuple[str, str, bool, bool, str | None], list[Answer] | str] = field(default_factory=dict)
    source_asset: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    cross_checks: list[tuple[str, str, str, Flags]] = field(default_factory=list)  # (denom, S, D, F)
    _distinct: list[Answer] | None = None

    def ask_between(self, s: str, d: str, f: Flags) -> list[Answer]:
        key = (s, d, f)
        if key not in self.between:
            result = self.registry.assets_between_chains(
                s, d, include_no_metadata_assets=f[0], include_cw20_assets=f[1], include_evm_assets=f[2],
                include_svm_assets=f[2],
                allow_multi_tx=f[3])
            text = _between_text(s, d, f)
            answers = []
            for p in result:
                api = p.to_api()
                answers.append(Answer(text, api["asset_on_source"], api["asset_on_dest"], api["txs_required"],
                                      tuple(api["bridges"]), p.route, d))
                self.source_asset.setdefault((p.asset_on_source.denom, s), api["asset_on_source"])
            self.between[key] = answers
        return self.between[key]

    def ask_from(self, denom: str, chain: str, multi: bool, cw20: bool, reason: str | None = None
                 ) -> list[Answer] | str:
        """The answers, or the error message when the lookup refused the query."""
        key = (denom, chain, multi, cw20, reason)
        if key not in self.from_source:
            text = _from_text(denom, chain, multi, cw20, reason)
            try:
                result = self.registry.assets_from_source(denom, chain, allow_multi_tx=multi,
                                                          include_cw20_assets=cw20, recommendation_reason=reason)
            except ar.AssetRouteError as exc:
                self.from_source[key] = f"{type(exc).__name__}: {exc}"
                return self.from_source[key]
            assert result.source is not None
            source_api = result.source.to_api()
            self.source_asset.setdefault((denom, chain), source_api)
            answers = []
            for group, items in result.groups:
                for item in items:
                    route = item.route
                    assert route is not None
                    answers.append(Answer(text, source_api, item.asset.to_api(), route.txs_required,
                                          tuple(route.bridges), route, group, direct=reason == "DIRECT"))
            self.from_source[key] = answers
        return self.from_source[key]

    def answers(self) -> Iterator[Answer]:
        for answers in self.between.values():
            yield from answers
        for value in self.from_source.values():
            if not isinstance(value, str):
                yield from value

    def distinct(self) -> list[Answer]:
        """One answer per (source, destination instance, DIRECT or not)."""
        if self._distinct is None:
            self._distinct = list(_distinct(self.answers()))
        return self._distinct

    def routed(self) -> list[Answer]:
        """The answers whose hops the route check builds (building every route's hops is slow): every answer
        of assets_from_source (multi-transaction ones included), every between answer of a cross-checked source
        instance, and every between answer that crosses a bridge or starts from a multi-hop voucher."""
        checked = {(denom, s, d) for denom, s, d, _f in self.cross_checks}
        out = []
        for a in self.distinct():
            if (a.query.startswith("assets_from_source") or a.bridges != ("IBC",)
                    or _hop_pairs(a.source["trace"]) > 1
                    or (a.source["denom"], a.source["chain_id"], a.dest_chain_id) in checked):
                out.append(a)
        return out


def _random_flags(rng: random.Random) -> Flags:
    return (rng.random() < 0.5, rng.random() < 0.5, rng.random() < 0.5, rng.random() < 0.5)


def build_sample(registry: ar.Registry, seed: int = SEED) -> Sample:
    """Draw the seeded sample and ask every query of it."""
    # Three streams, so the chain pairs and source instances drawn do not depend on the answers of the code
    # under test (only the cross-checked instances, picked among the answers, do).
    rng = random.Random(seed)  # chain pairs and flag sets
    pick = random.Random(seed + 2)  # cross-checked instances and destinations, picked among answers
    src = random.Random(seed + 3)  # source instances
    sample = Sample(registry)
    chain_ids = [c.chain_id for c in registry.chains()]
    pairs = set(ISSUE_CHAIN_PAIRS)
    while len(pairs) < N_CHAIN_PAIRS + len(ISSUE_CHAIN_PAIRS):
        s, d = rng.sample(chain_ids, 2)
        pairs.add((s, d))
    sample.chain_pairs = sorted(pairs)

    # Chain-pair driven: each pair with three flag sets; a few source instances of each answer (and a
    # few held instances with no pair) are compared with assets_from_source in both directions.
    for s, d in sample.chain_pairs:
        flag_sets = (ALL_OFF, ALL_ON, _random_flags(rng))
        answers_of = {f: sample.ask_between(s, d, f) for f in flag_sets}
        wide = answers_of[ALL_ON]
        denoms = sorted({a.source["denom"] for a in wide})
        chosen = set(pick.sample(denoms, min(ASSETS_PER_PAIR, len(denoms))))
        plain = sorted({a.source["denom"] for a in answers_of[ALL_OFF]})
        if plain:
            chosen.add(pick.choice(plain))
        # And one instance of up to SPECIALS_PER_PAIR special kinds present: CW20, EVM, no metadata, multi-tx,
        # bridged, multi-hop source (the rarer kinds first).
        kinds = [sorted({a.source["denom"] for a in wide if test(a)}) for test in (
            lambda a: a.source["is_cw20"], lambda a: a.source["is_evm"], lambda a: a.bridges != ("IBC",),
            lambda a: _hop_pairs(a.source["trace"]) > 1, lambda a: a.txs_required > 1,
            lambda a: not _has_metadata(a.source))]
        for special in [k for k in kinds if k][:SPECIALS_PER_PAIR]:
            chosen.add(pick.choice(special))
        # And one held instance with no pair at all: from_source must not reach the destination either.
        absent = [a.denom for a in registry.assets(s) if a.denom not in set(denoms)]
        chosen.update(pick.sample(absent, min(1, len(absent))))
        for denom in sorted(chosen):
            for f in flag_sets:
                sample.cross_checks.append((denom, s, d, f))

    # Source-asset driven: 200 random held instances, both allow_multi_tx: CONTRACT_SOURCES contract tokens
    # and vouchers of them (rare, and the subject of two of the issue's defects), the rest half listed, half
    # derived.
    sources = list(ISSUE_SOURCES)
    seen = set(sources)
    everywhere = [(a, c) for c in chain_ids for a in registry.assets(c)]
    contracts = sorted((a.denom, c) for a, c in everywhere
                       if not a.trace and (a.is_cw20 or a.type_asset in CONTRACT_TYPES or a.denom.startswith("cw20:")))
    # Vouchers of contract tokens: their way home ends over a wasm. port (SPEC §3: no forward from there).
    contract_vouchers = sorted((a.denom, c) for a, c in everywhere if a.trace and a.origin_denom.startswith("cw20:"))
    for kind in (contracts, contract_vouchers):
        for item in src.sample(kind, min(CONTRACT_SOURCES // 2, len(kind))):
            if item not in seen:
                seen.add(item)
                sources.append(item)
    while len(sources) < N_SOURCE_ASSETS + len(ISSUE_SOURCES):
        chain = src.choice(chain_ids)
        held = registry.assets(chain)
        listed = [a for a in held if a.metadata is not None]
        derived = [a for a in held if a.metadata is None]
        pool = listed if (len(sources) % 2 == 0 and listed) or not derived else derived
        if not pool:
            continue
        asset = src.choice(pool)
        if (asset.denom, chain) not in seen:
            seen.add((asset.denom, chain))
            sources.append((asset.denom, chain))
    sample.sources = sources
    for denom, chain in sources:
        cw20 = pick.random() < 0.5
        for multi in (False, True):
            answers = sample.ask_from(denom, chain, multi, cw20)
            if multi:
                sample.ask_from(denom, chain, multi, cw20, "DIRECT")
            if isinstance(answers, str):
                continue
            reached = sorted({a.dest_chain_id for a in answers} - {chain})
            others = [c for c in chain_ids if c != chain and c not in set(reached)]
            dests = pick.sample(reached, min(DESTS_PER_ASSET, len(reached)))
            if multi:  # and one chain it does not reach: between has no pair of it there either
                dests += pick.sample(others, min(1, len(others)))
            for d in dests:
                sample.cross_checks.append((denom, chain, d, (True, cw20, True, multi)))
    for denom, s, d, f in sample.cross_checks:
        sample.ask_between(s, d, f)
        sample.ask_from(denom, s, f[3], f[1])
    return sample


@pytest.fixture(scope="module")
def sample(registry: ar.Registry) -> Sample:
    return build_sample(registry)


def _fail_on(violations: list[str], what: str) -> None:
    if violations:
        shown = "\n".join(violations[:60])
        more = f"\n… and {len(violations) - 60} more" if len(violations) > 60 else ""
        pytest.fail(f"{len(violations)} violation(s) of: {what}\n{shown}{more}", pytrace=False)


# -- the checks: pure functions of the answers, so a corrupted answer shows they can fail -------------


def check_lookups_agree(sample: Sample) -> list[str]:
    """Invariant 1: between and from_source agree, both ways, under the flag mapping of the docstring."""
    out: list[str] = []
    for denom, s, d, f in sample.cross_checks:
        pairs = [a for a in sample.between[(s, d, f)] if a.source["denom"] == denom]
        fs = sample.from_source[(denom, s, f[3], f[1], None)]
        if isinstance(fs, str):
            if pairs:
                out.append(f"[between ⊆ from_source] {_between_text(s, d, f)} pairs {denom!r} but "
                           f"{_from_text(denom, s, f[3], f[1])} refuses it: {fs}")
            continue
        source = fs[0].source if fs else sample.source_asset.get((denom, s))
        from_side = {a.dest["denom"]: a for a in fs if a.dest_chain_id == d}
        if source is not None and not _passes(source, f):
            if pairs:
                out.append(f"[source filter] {_between_text(s, d, f)} pairs {denom!r}, which fails the flags")
            continue
        between_side = {a.dest["denom"]: a for a in pairs}
        expected = {k: v for k, v in from_side.items() if _passes(v.dest, (f[0], True, f[2], True))}
        for b in sorted(set(between_side) - set(expected)):
            why = "not in from_source" if b not in from_side else "from_source has it, but it fails the flags"
            out.append(f"[between ⊆ from_source] {_between_text(s, d, f)} pair {denom!r} -> {b!r}: {why} "
                       f"({_from_text(denom, s, f[3], f[1])})")
        for b in sorted(set(expected) - set(between_side)):
            out.append(f"[from_source ⊆ between] {_from_text(denom, s, f[3], f[1])} reaches {b!r} on {d!r} "
                       f"(txs {expected[b].txs_required}, {list(expected[b].bridges)}) but "
                       f"{_between_text(s, d, f)} has no pair {denom!r} -> {b!r}")
        for b in sorted(set(between_side) & set(expected)):
            x, y = between_side[b], expected[b]
            if (x.txs_required, x.bridges) != (y.txs_required, y.bridges):
                out.append(f"[same route] {_between_text(s, d, f)} pair {denom!r} -> {b!r}: txs {x.txs_required} "
                           f"{list(x.bridges)} vs from_source txs {y.txs_required} {list(y.bridges)}")
    return out


def check_filters(sample: Sample) -> list[str]:
    """Between with flags F is exactly the all-flags answer filtered by F on both sides (SPEC §4)."""
    out: list[str] = []
    for (s, d, f), answers in sample.between.items():
        if f == ALL_ON:
            continue
        wide = sample.between.get((s, d, ALL_ON))
        if wide is None:
            continue
        got = [(a.source["denom"], a.dest["denom"], a.txs_required) for a in answers]
        want = [(a.source["denom"], a.dest["denom"], a.txs_required) for a in wide
                if _passes(a.source, f) and _passes(a.dest, f) and (f[3] or a.txs_required == 1)]
        if got != want:
            extra, missing = sorted(set(got) - set(want)), sorted(set(want) - set(got))
            out.append(f"[filters] {_between_text(s, d, f)}: not the all-flags answer filtered "
                       f"(extra {extra[:3]}, missing {missing[:3]}{', order differs' if not extra + missing else ''})")
    for (s, d, f), answers in sample.between.items():
        keys = [(a.source["denom"], a.dest["denom"]) for a in answers]
        if len(keys) != len(set(keys)):
            out.append(f"[one pair per (source, dest)] {_between_text(s, d, f)} repeats a pair")
    return out


def _distinct(answers: Iterable[Answer]) -> Iterator[Answer]:
    """One answer per (source, destination instance): the same pair under other flags says nothing new."""
    seen: set[tuple[str, str, str, str, bool]] = set()
    for a in answers:
        key = (a.source["chain_id"], a.source["denom"], a.dest["chain_id"], a.dest["denom"], a.direct)
        if key not in seen:
            seen.add(key)
            yield a


def check_same_origin(answers: Iterable[Answer]) -> list[str]:
    """Invariant 2: both sides of an IBC-only answer name the same origin; a native names itself."""
    out: list[str] = []
    for a in _distinct(answers):
        for side in (a.source, a.dest):
            origin = (side["origin_chain_id"], side["origin_denom"])
            if not side["trace"] and origin != (side["chain_id"], side["denom"]):
                out.append(f"[native is its own origin] {a.query}: {side['denom']!r} on {side['chain_id']!r} has "
                           f"trace '' but origin {side['origin_chain_id']!r} {side['origin_denom']!r}")
        if a.bridges == ("IBC",):
            o1, o2 = _origin(a.source), _origin(a.dest)
            if o1 != o2:
                out.append(f"[IBC-only pair, one origin] {a.query}: {a.source['denom']!r} -> {a.dest['denom']!r}: "
                           f"origin {o1} vs {o2}")
    return out


def _sha(trace: str, base: str) -> str:
    return "ibc/" + hashlib.sha256(f"{trace}/{base}".encode()).hexdigest().upper()


def check_hashes(answers: Iterable[Answer]) -> list[str]:
    """Invariant 3: every ibc/ denom is the hash of its trace and origin denom (and only those are)."""
    out: list[str] = []
    seen: set[tuple[str, str]] = set()
    for a in answers:
        for side in (a.source, a.dest):
            key = (side["chain_id"], side["denom"])
            if key in seen:
                continue
            seen.add(key)
            denom, trace, base = side["denom"], side["trace"], side["origin_denom"]
            if not denom.startswith("ibc/") and not trace:
                continue
            if not trace:
                out.append(f"[ibc/ denom = hash(trace/origin)] {a.query}: {denom!r} on {side['chain_id']!r} "
                           "has no trace")
                continue
            own, lib = _sha(trace, base), ar.ibc_denom(trace, base)
            if denom != own or lib != own:
                out.append(f"[ibc/ denom = hash(trace/origin)] {a.query}: {denom!r} on {side['chain_id']!r}, trace "
                           f"{trace!r}, origin_denom {base!r}: hashlib gives {own}, ibc_denom gives {lib}")
    return out


def check_multi_hop(answers: Iterable[Answer], listed: dict[str, set[str]], names: dict[str, str]) -> list[str]:
    """Invariant 4: a multi-hop denom is returned only when listed on its chain or asked for (DIRECT)."""
    out: list[str] = []
    for a in _distinct(answers):
        if a.direct:
            continue
        side = a.dest
        if _hop_pairs(side["trace"]) > 1 and side["denom"] not in listed.get(names.get(side["chain_id"], ""), ()):
            out.append(f"[no unlisted multi-hop denom] {a.query}: returns {side['denom']!r} on {side['chain_id']!r}, "
                       f"trace {side['trace']!r}, which that chain's assetlist does not list")
    return out


def check_ibc_only_canonical(answers: Iterable[Answer], routable: set[str]) -> list[str]:
    """An IBC-only route unwinds its source to its origin, then takes one hop (SPEC §3): so the origin is a
    routable chain (a stuck unwind is no origin) and the destination is native or a one-hop voucher."""
    out: list[str] = []
    for a in _distinct(answers):
        if a.direct or a.bridges != ("IBC",):
            continue
        if a.source["origin_chain_id"] not in routable:
            out.append(f"[IBC-only route needs a routable origin] {a.query}: {a.source['denom']!r} on "
                       f"{a.source['chain_id']!r} (origin {a.source['origin_chain_id']!r}) reaches {a.dest['denom']!r} "
                       f"on {a.dest_chain_id!r}")
        elif _hop_pairs(a.dest["trace"]) > 1:
            out.append(f"[IBC-only route ends native or one hop from the origin] {a.query}: {a.source['denom']!r} -> "
                       f"{a.dest['denom']!r} on {a.dest_chain_id!r}, trace {a.dest['trace']!r}")
    return out


_IDENTITY = ("denom", "chain_id", "origin_denom", "origin_chain_id", "trace", "is_cw20", "is_evm", "is_svm")


def check_shapes(sample: Sample, listed: dict[str, set[str]], names: dict[str, str]) -> list[str]:
    """SPEC §2, §4–§6 on every answer: identity fields and booleans always present, never null; metadata on
    an instance exactly when its chain's assetlist lists that denom; between's order (natives of the source
    first, then by origin chain); from_source's groups sorted, never the source instance itself."""
    out: list[str] = []
    lowered = {chain: {d.lower() for d in denoms if _EVM_ADDRESS.match(d)} for chain, denoms in listed.items()}
    for a in sample.distinct():
        for side in (a.source, a.dest):
            missing = [k for k in _IDENTITY if k not in side]
            nulls = [k for k, v in side.items() if v is None]
            if missing or nulls:
                out.append(f"[identity fields present, no null] {a.query}: {side.get('denom')!r} on "
                           f"{side.get('chain_id')!r} lacks {missing}, null {nulls}")
                continue
            folder = names.get(side["chain_id"], "")
            denom = side["denom"]
            is_listed = denom in listed.get(folder, ()) or (
                _EVM_ADDRESS.match(denom) is not None and denom.lower() in lowered.get(folder, ()))
            if _has_metadata(side) != is_listed:
                out.append(f"[metadata exactly on listed instances] {a.query}: {denom!r} on {side['chain_id']!r} "
                           f"{'has' if _has_metadata(side) else 'lacks'} metadata; listed: {is_listed}")
    for (s, d, f), answers in sample.between.items():
        keys = [(a.source["trace"] != "", a.source["origin_chain_id"]) for a in answers]
        if keys != sorted(keys):
            i = next(i for i in range(1, len(keys)) if keys[i] < keys[i - 1])
            out.append(f"[between order: natives first, then by origin chain] {_between_text(s, d, f)}: pair {i} "
                       f"({answers[i].source['denom']!r}) comes after {answers[i - 1].source['denom']!r}")
    for (denom, chain, multi, cw20, reason), value in sample.from_source.items():
        if isinstance(value, str):
            continue
        groups = [a.dest_chain_id for a in value]
        if groups != sorted(groups):
            out.append(f"[from_source groups sorted] {_from_text(denom, chain, multi, cw20, reason)}: {groups[:8]}")
        if any(a.dest["chain_id"] == chain and a.dest["denom"] == denom for a in value):
            out.append(f"[from_source excludes its source] {_from_text(denom, chain, multi, cw20, reason)}")
    return out


def _merged(ops: Iterable[str]) -> tuple[str, ...]:
    out: list[str] = []
    for op in ops:
        if not out or out[-1] != op:
            out.append(op)
    return tuple(out)


def check_routes(answers: Iterable[Answer], pfm: dict[str, bool] | None = None,
                 ports: dict[tuple[str, str], str] | None = None) -> list[str]:
    """Invariant 5: txs_required == 1 + #(hops after the first marked new_tx); the hops are the route.

    With *pfm* (chain_id -> runs PFM) and *ports* ((chain_id, channel) -> port), also SPEC §3's rule for a
    hop that follows a plain IBC arrival: it needs a new transaction exactly when the chain it leaves does
    not run PFM or the token arrived there over a ``wasm.`` port (a contract token coming home).
    """
    out: list[str] = []
    for a in _distinct(answers):
        hops = a.route.hops if a.route is not None else None
        what = f"{a.query}: {a.source['denom']!r} -> {a.dest['denom']!r} on {a.dest_chain_id!r}"
        if not hops:
            out.append(f"[route has hops] {what}: no hops")
            continue
        if pfm is not None and ports is not None:
            for prev, hop in itertools.pairwise(hops):
                plain_ibc = prev.kind == prev.operation == hop.kind == hop.operation == "IBC"
                if not plain_ibc or prev.counterparty_channel is None:
                    continue
                into_wasm = ports.get((prev.to_chain_id, prev.counterparty_channel), "").startswith("wasm.")
                expected = into_wasm or not pfm.get(prev.to_chain_id, False)
                if hop.new_tx != expected:
                    out.append(f"[new_tx after an IBC arrival: no PFM or arrived over wasm.] {what}: at "
                               f"{prev.to_chain_id!r} (PFM {pfm.get(prev.to_chain_id, False)}, arrived over "
                               f"{prev.counterparty_channel} {'wasm.' if into_wasm else 'transfer'}) new_tx is "
                               f"{hop.new_tx}")
        if not hops[0].new_tx:
            out.append(f"[first hop starts a tx] {what}: hops[0].new_tx is False")
        counted = 1 + sum(1 for h in hops[1:] if h.new_tx)
        if a.txs_required != counted:
            out.append(f"[txs_required = 1 + new_tx hops after the first] {what}: txs_required {a.txs_required}, "
                       f"new_tx {[h.new_tx for h in hops]}")
        if a.bridges != _merged(h.operation for h in hops):
            out.append(f"[bridges = hops' operations merged] {what}: bridges {list(a.bridges)}, operations "
                       f"{[h.operation for h in hops]}")
        chain_path = [hops[0].from_chain_id] + [h.to_chain_id for h in hops]
        linked = all(x.to_chain_id == y.from_chain_id for x, y in itertools.pairwise(hops))
        if (chain_path[0] != a.source["chain_id"] or chain_path[-1] != a.dest["chain_id"] or not linked
                or hops[-1].denom != a.dest["denom"]):
            out.append(f"[hops lead from source to dest] {what}: path {chain_path}, last denom {hops[-1].denom!r}")
    return out


# -- raw registry, read here with json (independent of the loader) ----------------------------------


@dataclass
class Raw:
    assetlists: dict[str, list[dict[str, Any]]]  # folder -> assets
    channels: list[tuple[str, str, dict[str, Any]]]  # (chain_1, chain_2, channel entry)


def read_raw(root: Path) -> Raw:
    assetlists: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(root.glob("*/assetlist.json")) + sorted(root.glob("_non-cosmos/*/assetlist.json")):
        if path.parent.name.startswith((".", "_")):
            continue
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError):
            continue
        assets = doc.get("assets") if isinstance(doc, dict) else None
        assetlists[path.parent.name] = [a for a in assets or () if isinstance(a, dict)]
    channels = []
    for path in sorted((root / "_IBC").glob("*.json")):
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
            c1, c2 = doc["chain_1"]["chain_name"], doc["chain_2"]["chain_name"]
        except (ValueError, KeyError, TypeError):
            continue
        for ch in doc.get("channels") or ():
            if isinstance(ch, dict):
                channels.append((c1, c2, ch))
    return Raw(assetlists, channels)


@pytest.fixture(scope="module")
def raw(registry_path: Path) -> Raw:
    return read_raw(registry_path)


def _listed(raw: Raw) -> dict[str, set[str]]:
    return {folder: {str(a["base"]) for a in assets if isinstance(a.get("base"), str)}
            for folder, assets in raw.assetlists.items()}


def _names(registry: ar.Registry) -> dict[str, str]:
    """chain_id -> chain_name of the routable chains."""
    return {c.chain_id: c.chain_name for c in registry.chains()}


# -- the tests --------------------------------------------------------------------------------------


def test_sample_is_large_and_varied(sample: Sample) -> None:
    """The sample has the sizes the issue asks for, and holds every kind the checks are about."""
    answers = sample.distinct()
    assert len(sample.chain_pairs) >= 300 and len(sample.sources) >= 200
    assert sum(1 for v in sample.from_source.values() if isinstance(v, str)) == 0, [
        (k, v) for k, v in sample.from_source.items() if isinstance(v, str)][:5]
    kinds = {
        "distinct answers": len(answers),
        "non-empty between": sum(1 for v in sample.between.values() if v),
        "cross-checks": len(sample.cross_checks),
        "multi-tx": sum(1 for a in answers if a.txs_required > 1),
        "over a bridge": sum(1 for a in answers if a.bridges != ("IBC",)),
        "CW20 dest": sum(1 for a in answers if a.dest["is_cw20"]),
        "EVM dest": sum(1 for a in answers if a.dest["is_evm"]),
        "dest without metadata": sum(1 for a in answers if not _has_metadata(a.dest)),
        "multi-hop dest": sum(1 for a in answers if _hop_pairs(a.dest["trace"]) > 1),
        "IBC-only with vouchers on both sides": sum(1 for a in answers if a.bridges == ("IBC",)
                                                    and a.source["trace"] and a.dest["trace"]),
    }
    print(f"code under test: {ar.__file__}; {kinds}")
    assert all(n > 0 for n in kinds.values()), kinds


def test_both_lookups_agree_both_ways(sample: Sample) -> None:
    _fail_on(check_lookups_agree(sample), "every between pair is in from_source of its source, and back")


def test_between_flags_filter_both_sides(sample: Sample) -> None:
    _fail_on(check_filters(sample), "between(F) == between(all flags) filtered by F on both sides")


def test_ibc_only_pairs_name_one_origin(sample: Sample) -> None:
    _fail_on(check_same_origin(sample.distinct()), "both sides of an IBC-only pair name the same origin")


def test_ibc_denoms_are_the_hash_of_their_trace(sample: Sample) -> None:
    _fail_on(check_hashes(sample.distinct()), "ibc/ denom == ibc/UPPER(HEX(SHA256(trace/origin_denom)))")


def test_no_unlisted_multi_hop_denom(sample: Sample, raw: Raw, registry: ar.Registry) -> None:
    _fail_on(check_multi_hop(sample.distinct(), _listed(raw), _names(registry)),
             "no multi-hop denom unless listed or asked for (DIRECT)")


def test_answer_shapes(sample: Sample, raw: Raw, registry: ar.Registry) -> None:
    _fail_on(check_shapes(sample, _listed(raw), _names(registry)),
             "fields present, metadata exactly on listed instances, documented order")


def _ports(raw: Raw, registry: ar.Registry) -> dict[tuple[str, str], str]:
    """(chain_id, channel_id) -> port, from the raw _IBC files."""
    ids = {c.chain_name: c.chain_id for c in registry.chains()}
    return {(ids[e.chain], e.channel): e.port for (chain, _other), ends in _ends(raw).items() if chain in ids
            for e in ends}


def test_txs_required_counts_new_transactions(sample: Sample, raw: Raw, registry: ar.Registry) -> None:
    pfm = {c.chain_id: c.pfm_enabled for c in registry.chains()}
    _fail_on(check_routes(sample.routed(), pfm, _ports(raw, registry)),
             "txs_required == 1 + hops after the first marked new_tx (and new_tx as SPEC §3 says)")


def test_ibc_only_routes_end_at_a_canonical_representation(sample: Sample, registry: ar.Registry) -> None:
    _fail_on(check_ibc_only_canonical(sample.distinct(), set(_names(registry))),
             "an IBC-only route unwinds to a routable origin and ends native or one hop from it")


# -- the listed-voucher walk --------------------------------------------------------------------------

_CHANNEL = re.compile(r"^channel-(\d+)$")

# Listed one-hop vouchers between routable chains that their origin cannot reach, each with the SPEC reason.
# Any other voucher of the walk that is missed fails the test; so does reaching one of these, and so does a
# new voucher falling outside the walk for one of these reasons (they are read from the raw files).
_PATH_NOT_BASE = ("SPEC §3: the registry path spells the base denom with ':' (factory:kujira1…:u…), which is not "
                  "the counterparty's base_denom; the voucher keeps the identity its path gives, whose origin "
                  "denom no kujira asset has, so no source reaches it")
EXPLAINED_MISSES: dict[tuple[str, str], str] = {
    ("osmosis", "ibc/44492EAB24B72E3FB59B9FA619A22337FB74F95D8808FE6BC78CC0E6C18DC2EC"): _PATH_NOT_BASE,  # USK
    ("osmosis", "ibc/51D893F870B7675E507E91DA8DB0B22EA66333207E4F5C0708757F08EE059B0B"): _PATH_NOT_BASE,  # MNTA
    ("osmosis", "ibc/F74225B0AFD2F675AF56E9BE3F235486BCDE5C5E09AA88A97AFD2E052ABFE04C"): _PATH_NOT_BASE,  # NSTK
    ("osmosis", "ibc/86074B8DF625A75C25D52FA6112E3FD5446BA41FE418880C168CA99D10E22F05"): (  # SEIYAN
        "SPEC §2: a contract token (cw20:sei1hrndq…) leaves its chain only over a channel whose far end is a "
        "wasm. port an ibc-cw20 trace of that token names; its only trace names port 'transfer'"),
    ("sei", "ibc/063F4461F7317CFF10F50AB044E44932D22AAD84FA7107082744946E6DB7B7A8"): (  # ASTRO
        "SPEC §3: its path goes over sei channel-177, which no _IBC file has between sei and neutron "
        "(the trace's own channel_id says channel-66); the path gives the identity, so no IBC route reaches it"),
}
# Reasons to fall outside the walk that are facts of the whole registry, not of a few vouchers: counted.
_STRUCTURAL = ("first hop is not a channel-N id", "multi-hop path", "holding or origin chain not routable",
               "voucher of a voucher", "channel INACTIVE or CLOSED", "over another channel than the canonical one")


@dataclass(frozen=True)
class _End:
    chain: str
    channel: str
    port: str
    other: str
    other_channel: str
    other_port: str
    usable: bool
    rank: tuple[int, int, int, int]


def _ends(raw: Raw) -> dict[tuple[str, str], list[_End]]:
    """(chain, counterparty) -> channel ends on chain, from the _IBC files as written."""
    out: dict[tuple[str, str], list[_End]] = {}
    for c1, c2, ch in raw.channels:
        e1, e2, tags = ch.get("chain_1"), ch.get("chain_2"), ch.get("tags") or {}
        if not isinstance(e1, dict) or not isinstance(e2, dict) or not isinstance(tags, dict):
            continue
        m1, m2 = _CHANNEL.match(str(e1.get("channel_id"))), _CHANNEL.match(str(e2.get("channel_id")))
        if m1 is None or m2 is None:
            continue  # wildcard or malformed ids are ignored (SPEC §3)
        usable = tags.get("status") not in ("INACTIVE", "CLOSED")
        rank = (0 if tags.get("preferred") is True else 1, 0 if tags.get("status") == "ACTIVE" else 1,
                int(m1.group(1)), int(m2.group(1)))
        p1, p2 = str(e1.get("port_id")), str(e2.get("port_id"))
        out.setdefault((c1, c2), []).append(
            _End(c1, e1["channel_id"], p1, c2, e2["channel_id"], p2, usable, rank))
        out.setdefault((c2, c1), []).append(
            _End(c2, e2["channel_id"], p2, c1, e1["channel_id"], p1, usable, rank))
    return out


def _cw20_ports(raw: Raw) -> dict[tuple[str, str], set[str]]:
    """(chain, contract token base) -> the wasm. ports that ibc-cw20 traces of that token name."""
    out: dict[tuple[str, str], set[str]] = {}
    for assets in raw.assetlists.values():
        for asset in assets:
            for t in asset.get("traces") or ():
                cp = t.get("counterparty") if isinstance(t, dict) else None
                if t.get("type") == "ibc-cw20" and isinstance(cp, dict) and str(cp.get("port", "")).startswith("wasm."):
                    out.setdefault((str(cp.get("chain_name")), str(cp.get("base_denom"))), set()).add(cp["port"])
    return out


def listed_voucher_walk(raw: Raw, routable: set[str]
                        ) -> tuple[list[tuple[str, str, str, str]], dict[str, list[tuple[str, str]]]]:
    """The listed one-hop vouchers over a canonical channel between routable chains, read from the raw files.

    Returns ((holding chain, voucher denom, origin chain, origin denom), ...) and, per reason, the listed
    vouchers (chain, denom) that fall outside the walk.
    """
    ends, ports = _ends(raw), _cw20_ports(raw)
    natives = {folder: {str(a.get("base")).lower(): a for a in assets} for folder, assets in raw.assetlists.items()}
    walk: list[tuple[str, str, str, str]] = []
    outside: dict[str, list[tuple[str, str]]] = {}
    chain, base = "", ""

    def skip(reason: str) -> None:
        outside.setdefault(reason, []).append((chain, base))

    for chain in sorted(raw.assetlists):
        for asset in raw.assetlists[chain]:
            base, traces = str(asset.get("base")), asset.get("traces") or []
            if not base.startswith("ibc/") or not traces or not isinstance(traces[-1], dict):
                continue
            last = traces[-1]
            # ibc-bridge traces count too where their path is a plain channel of _IBC (Picasso's Ethereum
            # channel); IBC v2 (Eureka) paths name a client id, not a channel-N, and fall outside below.
            if last.get("type") not in ("ibc", "ibc-cw20", "ibc-bridge"):
                continue
            path = str((last.get("chain") or {}).get("path", ""))
            parts = path.split("/")
            if len(parts) < 3 or _CHANNEL.match(parts[1]) is None:
                skip("first hop is not a channel-N id (an IBC v2 client id or malformed)")
                continue
            if len(parts) > 3 and re.match(r"^(channel-\d+|\d{2}-[a-z0-9-]+-\d+)$", parts[3]):
                skip("multi-hop path")
                continue
            port, channel, origin_denom = parts[0], parts[1], "/".join(parts[2:])
            origin = str((last.get("counterparty") or {}).get("chain_name"))
            if chain not in routable or origin not in routable:
                skip("holding or origin chain not routable (SPEC §1)")
                continue
            if origin_denom.startswith("ibc/"):
                skip("voucher of a voucher: its origin lies further (SPEC §2)")
                continue
            listing = natives.get(origin, {}).get(origin_denom.lower())
            if listing is None:
                skip("origin chain does not list the base denom: not a source (SPEC §5)")
                continue
            mine = [e for e in ends.get((chain, origin), []) if e.channel == channel and e.port == port]
            if not mine:
                skip("channel not in _IBC")
                continue
            if not mine[0].usable:
                skip("channel INACTIVE or CLOSED (SPEC §3)")
                continue
            contract = listing.get("type_asset") in CONTRACT_TYPES or str(listing.get("base")).startswith("cw20:")
            wasm = ports.get((origin, str(listing.get("base"))), set())
            candidates = [e for e in ends.get((origin, chain), []) if e.usable and e.other_port == "transfer" and (
                e.port in wasm if contract else e.port == "transfer")]
            if not candidates:
                skip("no usable channel of the token's kind (contract tokens: a wasm. port its traces name)")
                continue
            best = min(candidates, key=lambda e: e.rank)
            if best.other_channel != channel:
                skip("over another channel than the canonical one (SPEC §3)")
                continue
            walk.append((chain, base, origin, str(listing.get("base"))))
    return walk, outside


def check_canonical_vouchers(answers: Iterable[Answer], raw: Raw, names: dict[str, str]) -> list[str]:
    """A one-hop voucher over a channel (not an IBC v2 client id) that is derived (no metadata), or that an
    IBC-only route ends at, arrives over the canonical channel from its origin (SPEC §2–§3), computed here
    from the raw _IBC files: the preferred, then ACTIVE, then lowest-numbered usable transfer↔transfer
    channel; for a contract token, a channel whose far end is a wasm. port that an ibc-cw20 trace of that
    token names (no such channel: no derived voucher at all)."""
    ends, ports = _ends(raw), _cw20_ports(raw)
    contract_bases = {(folder, str(a.get("base"))) for folder, assets in raw.assetlists.items() for a in assets
                      if a.get("type_asset") in CONTRACT_TYPES or str(a.get("base")).startswith("cw20:")}
    memo: dict[tuple[str, str, str], str | None] = {}
    out: list[str] = []
    seen: set[tuple[str, str]] = set()
    for a in _distinct(answers):
        sides = [(a.source, False), (a.dest, a.bridges == ("IBC",) and not a.direct)]
        for side, routed in sides:
            if (side["chain_id"], side["denom"]) in seen or _hop_pairs(side["trace"]) != 1:
                continue
            if _CHANNEL.match(side["trace"].split("/")[1]) is None:
                continue  # over an IBC v2 client (Eureka): a bridge landing, not a voucher of an _IBC channel
            if _has_metadata(side) and not routed:
                continue
            seen.add((side["chain_id"], side["denom"]))
            origin, chain = names.get(side["origin_chain_id"]), names.get(side["chain_id"])
            if origin is None or chain is None:
                continue
            base = side["origin_denom"]
            key = (origin, chain, base)
            if key not in memo:
                contract = (origin, base) in contract_bases or base.startswith("cw20:")
                wasm = ports.get((origin, base), set())
                candidates = [e for e in ends.get((origin, chain), []) if e.usable and e.other_port == "transfer"
                              and (e.port in wasm if contract else e.port == "transfer")]
                memo[key] = min(candidates, key=lambda e: e.rank).other_channel if candidates else None
            channel = side["trace"].split("/")[1]
            if memo[key] != channel:
                why = "derived" if not _has_metadata(side) else "the end of an IBC-only route"
                out.append(f"[one-hop voucher over the canonical channel] {a.query}: {side['denom']!r} on "
                           f"{side['chain_id']!r} ({why}) arrives over {channel}; the canonical channel from "
                           f"{side['origin_chain_id']!r} for {base!r} is {memo[key]}")
    return out


def test_one_hop_vouchers_use_the_canonical_channel(sample: Sample, raw: Raw, registry: ar.Registry) -> None:
    _fail_on(check_canonical_vouchers(sample.distinct(), raw, _names(registry)),
             "derived and routed one-hop vouchers arrive over the canonical channel from their origin")


def test_listed_voucher_walk(raw: Raw, registry: ar.Registry) -> None:
    """Every listed one-hop voucher over a canonical channel between routable chains is reached from its origin."""
    ids = {c.chain_name: c.chain_id for c in registry.chains()}
    walk, outside = listed_voucher_walk(raw, set(ids))
    counts = {reason: len(v) for reason, v in outside.items()}
    print(f"listed-voucher walk: {len(walk)} vouchers; outside the walk: {counts}")
    assert len(walk) > 500, (len(walk), counts)
    unreachable = {item: f"outside the walk: {reason}" for reason, items in outside.items()
                   if not reason.startswith(_STRUCTURAL) for item in items}
    # Those outside the walk for a named reason must not be reached from the asset their trace names either.
    for chain, denom in sorted(unreachable):
        listing = next(a for a in raw.assetlists[chain] if a.get("base") == denom)
        cp = listing["traces"][-1].get("counterparty") or {}
        if cp.get("chain_name") in ids and chain in ids:
            try:
                result = registry.assets_from_source(str(cp.get("base_denom")), ids[cp["chain_name"]],
                                                     allow_multi_tx=True, include_cw20_assets=True)
            except ar.AssetRouteError:
                continue
            if denom in {a.denom for a in result.dest_assets.get(ids[chain], ())}:
                del unreachable[(chain, denom)]
    for chain, denom, origin, origin_denom in walk:
        query = _from_text(origin_denom, ids[origin], True, True)
        try:
            result = registry.assets_from_source(origin_denom, ids[origin], allow_multi_tx=True,
                                                 include_cw20_assets=True)
        except ar.AssetRouteError as exc:
            unreachable[(chain, denom)] = f"{query} refused: {exc}"
            continue
        if denom not in {a.denom for a in result.dest_assets.get(ids[chain], ())}:
            unreachable[(chain, denom)] = f"{query} does not reach it on {ids[chain]!r}"
    violations = [f"[walk: unexplained miss] {chain} {denom}: {why}"
                  for (chain, denom), why in sorted(unreachable.items()) if (chain, denom) not in EXPLAINED_MISSES]
    violations += [f"[walk: an explained miss is reached or gone] {chain} {denom} ({EXPLAINED_MISSES[(chain, denom)]})"
                   for chain, denom in sorted(set(EXPLAINED_MISSES) - set(unreachable))]
    _fail_on(violations, "every listed one-hop voucher over a canonical channel is reached from its origin")


# -- file order ---------------------------------------------------------------------------------------


class _Listing:
    """What ``os.scandir`` returns (an iterator and a context manager), over entries in our order."""

    def __init__(self, entries: list[Any]) -> None:
        self._it = iter(entries)

    def __iter__(self) -> _Listing:
        return self

    def __next__(self) -> Any:
        return next(self._it)

    def __enter__(self) -> _Listing:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def close(self) -> None:
        return None


def load_in_reversed_order(registry_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[ar.Registry, list[str]]:
    """Load the registry while every directory listing (``os.scandir``, ``os.listdir``; pathlib, glob and
    ``os.walk`` use them) comes back in reverse order. Returns the registry and the directories listed."""
    listed: list[str] = []
    real_scandir, real_listdir = os.scandir, os.listdir

    def scandir(path: Any = ".") -> _Listing:
        with real_scandir(path) as it:
            entries = list(it)
        listed.append(os.fsdecode(path) if not isinstance(path, int) else f"fd {path}")
        return _Listing(sorted(entries, key=lambda e: e.name, reverse=True))

    def listdir(path: Any = ".") -> list[Any]:
        listed.append(os.fsdecode(path) if not isinstance(path, int) else f"fd {path}")
        return sorted(real_listdir(path), reverse=True)

    with monkeypatch.context() as m:
        m.setattr(os, "scandir", scandir)
        m.setattr(os, "listdir", listdir)
        registry = ar.load_registry(registry_path)
    return registry, listed


def _answer_json(ask: Any, *args: Any, **kwargs: Any) -> bytes:
    """The JSON a lookup answers, or its refusal (a refusal on one load only is a difference too)."""
    try:
        return bytes(ask(*args, **kwargs).to_json())
    except ar.AssetRouteError as exc:
        return f"refused: {type(exc).__name__}: {exc}".encode()


def test_answers_do_not_depend_on_file_order(sample: Sample, registry: ar.Registry, registry_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The same JSON from a registry read with every directory listing reversed, on a sample of both lookups."""
    other, listed = load_in_reversed_order(registry_path, monkeypatch)
    root = os.path.realpath(os.fsdecode(registry_path)).rstrip("/")  # the loader lists the resolved root
    assert {d.rstrip("/") for d in listed} >= {root, root + "/_IBC"}, f"patched listings not used: {listed[:5]}"
    rng = random.Random(SEED + 1)
    violations = []
    ours_chains, their_chains = registry.chains(), other.chains()
    if [c.to_api() for c in their_chains] != [c.to_api() for c in ours_chains]:
        diff = sorted({(c.chain_id, c.chain_name) for c in ours_chains}
                      ^ {(c.chain_id, c.chain_name) for c in their_chains})
        violations.append(f"[file order] the routable chains differ: {diff[:6]}")
    for s, d in ISSUE_CHAIN_PAIRS + rng.sample(sample.chain_pairs, ORDER_SAMPLE):
        for f in (ALL_OFF, ALL_ON):
            kw = dict(include_no_metadata_assets=f[0], include_cw20_assets=f[1], include_evm_assets=f[2],
                      include_svm_assets=f[2], allow_multi_tx=f[3])
            if (_answer_json(registry.assets_between_chains, s, d, **kw)
                    != _answer_json(other.assets_between_chains, s, d, **kw)):
                violations.append(f"[file order] {_between_text(s, d, f)} answers differently")
    for denom, chain in ISSUE_SOURCES + rng.sample(sample.sources, ORDER_SAMPLE):
        for multi in (False, True):
            for reason in (None, "DIRECT"):
                kw2: dict[str, Any] = dict(allow_multi_tx=multi, include_cw20_assets=True, recommendation_reason=reason)
                if (_answer_json(registry.assets_from_source, denom, chain, **kw2)
                        != _answer_json(other.assets_from_source, denom, chain, **kw2)):
                    query = _from_text(denom, chain, multi, True, reason)
                    violations.append(f"[file order] {query} answers differently")
    _fail_on(violations, "the answers do not depend on the order the registry's files are read in")
