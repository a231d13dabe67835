"""What-if: the same registry under changed assumptions (PFM, closed channels, forwarding bridges).

Decisions made here:

* A scenario never copies or reloads the registry. The new registry's two engines (the reference's
  bridge kinds, and every kind, which shares the first's indexes: ``Engine.with_bridge_kinds``) are
  built over a :func:`dataclasses.replace` of the same ``RegistryData``: the listings, links, quality report and
  every unchanged chain and channel object are shared. Only the :class:`Chain` objects whose PFM
  changed, the :class:`Channel` objects that close (re-made with status ``CLOSED``, so
  ``Channel.usable`` is false) and the channel-end tables of the chains at their ends are new. The
  engine reads PFM from ``Chain.pfm_enabled``, usability from ``Channel.usable`` and onward
  forwarding from ``overlay.bridge(kind).forwards``; the scenario changes exactly those.
* The overlay of the scenario is the original with ``pfm`` and ``bridges`` updated, so the new
  registry describes itself consistently (``overlay.pfm`` agrees with the chains).
* Chains are named by chain-id (routable chains only); a channel by ``CHAIN_ID:CHANNEL_ID`` (that
  channel, seen from that chain, any port) or ``CHAIN_ID/CHAIN_ID`` (every channel between the two).
  Bridge kinds by name (``AXELAR``, ``EUREKA``, …), as routes report them. Anything unknown is an
  :class:`InvalidArgumentError` naming it, before any work.
* Scenarios compose: ``reg.with_changes(...).with_changes(...)`` applies both, and
  :attr:`WhatIf.base` of each is the registry it was made from.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ._exceptions import InvalidArgumentError
from ._models import Channel, ChannelEnd, Provenance
from ._overlay import Overlay
from ._routing import REFERENCE_BRIDGE_KINDS, Engine

if TYPE_CHECKING:
    from ._registry import Registry

__all__ = ["WhatIf", "apply_changes", "parse_channel_spec"]


@dataclass(frozen=True, slots=True)
class WhatIf:
    """The changed assumptions of a scenario, normalised (chain-ids, channel keys, bridge kinds)."""

    base_fingerprint: str
    pfm: tuple[tuple[str, bool], ...]  # (chain_id, enabled)
    closed_channels: tuple[tuple[str, str, str, str], ...]  # (chain_1_id, channel_1, chain_2_id, channel_2)
    forwarding_bridges: tuple[tuple[str, bool], ...]  # (kind, forwards)

    def describe(self) -> str:
        """One line, e.g. ``pfm cosmoshub-4=off; close osmosis-1:channel-0↔cosmoshub-4:channel-141``."""
        parts = [f"pfm {cid}={'on' if on else 'off'}" for cid, on in self.pfm]
        parts += [f"close {a}:{ca}↔{b}:{cb}" for a, ca, b, cb in self.closed_channels]
        parts += [f"bridge {kind} {'forwards' if on else 'does not forward'}" for kind, on in self.forwarding_bridges]
        return "; ".join(parts) or "no change"

    def to_dict(self) -> dict[str, Any]:
        return {
            "pfm": {cid: on for cid, on in self.pfm},
            "closed_channels": [{"chain_1_id": a, "channel_1": ca, "chain_2_id": b, "channel_2": cb}
                                for a, ca, b, cb in self.closed_channels],
            "forwarding_bridges": {kind: on for kind, on in self.forwarding_bridges},
        }


def parse_channel_spec(spec: object) -> tuple[str, str | None, str | None]:
    """``(chain_id, channel_id, None)`` for ``CHAIN:channel-N``; ``(chain_id, None, other_chain_id)``
    for ``CHAIN/OTHER``; tuples ``(chain_id, channel_id)`` are taken as the first form.

    >>> parse_channel_spec("osmosis-1:channel-0")
    ('osmosis-1', 'channel-0', None)
    >>> parse_channel_spec("osmosis-1/cosmoshub-4")
    ('osmosis-1', None, 'cosmoshub-4')
    """
    if isinstance(spec, tuple) and len(spec) == 2 and all(isinstance(x, str) and x for x in spec):
        return spec[0], spec[1], None
    if isinstance(spec, str):
        chain, sep, channel = spec.strip().rpartition(":")
        if sep and chain and channel:
            return chain, channel, None
        first, sep, second = spec.strip().partition("/")
        if sep and first and second:
            return first, None, second
    raise InvalidArgumentError(
        "a channel to close is CHAIN_ID:CHANNEL_ID (one channel) or CHAIN_ID/CHAIN_ID (every channel between two "
        "chains)", value=spec)


def _chain_name(engine: Engine, chain_id: object, what: str) -> str:
    name = engine.data.chain_ids.get(chain_id) if isinstance(chain_id, str) else None
    if name is None or name not in engine.routable:
        raise InvalidArgumentError(f"unknown chain in {what}: not a routable chain-id", value=chain_id)
    return name


def _bridge_kinds(engine: Engine, overlay: Overlay) -> set[str]:
    kinds = set(overlay.bridges)
    kinds.update(link.kind for link in engine.data.links)
    return kinds


def _normalise_forwarding(spec: Mapping[str, bool] | Iterable[str] | None) -> dict[str, bool]:
    if spec is None:
        return {}
    if isinstance(spec, Mapping):
        out = {}
        for kind, on in spec.items():
            if not isinstance(on, bool):
                raise InvalidArgumentError(f"forwarding_bridges[{kind!r}] must be true or false", value=on)
            out[kind] = on
        return out
    if isinstance(spec, str):
        return {spec: True}
    return dict.fromkeys(spec, True)


def apply_changes(
    registry: Registry,
    *,
    pfm: Mapping[str, bool] | None = None,
    closed_channels: Iterable[str | tuple[str, str]] = (),
    forwarding_bridges: Mapping[str, bool] | Iterable[str] | None = None,
) -> tuple[Provenance, Overlay, tuple[Engine, Engine], WhatIf]:
    """The implementation of :meth:`Registry.with_changes`: the new registry's provenance, overlay,
    engine (over the same data tables) and scenario; the caller builds the :class:`Registry`."""
    engine = registry.engine
    data = engine.data
    overlay = registry.overlay

    # -- validate everything first ------------------------------------------------------------
    if pfm is not None and not isinstance(pfm, Mapping):
        raise InvalidArgumentError("pfm must map chain-ids to true/false", value=pfm)
    pfm_names: dict[str, bool] = {}
    for chain_id, on in (pfm or {}).items():
        name = _chain_name(engine, chain_id, "pfm")
        if not isinstance(on, bool):
            raise InvalidArgumentError(f"pfm[{chain_id!r}] must be true or false", value=on)
        pfm_names[name] = on

    if isinstance(closed_channels, str) or (
            isinstance(closed_channels, tuple) and len(closed_channels) == 2
            and all(isinstance(x, str) for x in closed_channels)):
        closed_channels = [closed_channels]  # type: ignore[list-item]
    closing: dict[int, Channel] = {}
    for spec in closed_channels:
        chain_id, channel_id, other_id = parse_channel_spec(spec)
        name = _chain_name(engine, chain_id, "closed_channels")
        ends = data.ends.get(name, {})
        if channel_id is not None:
            end = ends.get(channel_id)
            if end is None:
                raise InvalidArgumentError(f"no channel {channel_id} on {chain_id} in the registry", value=spec)
            closing[id(end.channel)] = end.channel
        else:
            other = _chain_name(engine, other_id, "closed_channels")
            found = [end.channel for end in ends.values() if end.counterparty_chain == other]
            if not found:
                raise InvalidArgumentError(f"no channel between {chain_id} and {other_id} in the registry",
                                           value=spec)
            for channel in found:
                closing[id(channel)] = channel

    forwarding = _normalise_forwarding(forwarding_bridges)
    known = _bridge_kinds(engine, overlay)
    for kind in forwarding:
        if kind not in known or kind == "IBC":
            raise InvalidArgumentError(f"unknown bridge kind; known kinds: {', '.join(sorted(known - {'IBC'}))}",
                                       value=kind)

    # -- build the scenario over shared data -----------------------------------------------------
    chains = data.chains
    if pfm_names:
        chains = dict(chains)
        for name, on in pfm_names.items():
            chains[name] = dataclasses.replace(chains[name], pfm_enabled=on)

    channels, ends_table = data.channels, data.ends
    closed_keys: list[tuple[str, str, str, str]] = []
    if closing:
        replaced = {key: dataclasses.replace(ch, status="CLOSED") for key, ch in closing.items()}
        channels = [replaced.get(id(ch), ch) for ch in data.channels]
        ends_table = dict(data.ends)
        touched = {c.chain_1 for c in closing.values()} | {c.chain_2 for c in closing.values()}
        for chain in touched:
            old_ends = data.ends.get(chain, {})
            new_ends: dict[str, ChannelEnd] = {}
            for cid, end in old_ends.items():
                new_channel = replaced.get(id(end.channel))
                new_ends[cid] = end if new_channel is None else dataclasses.replace(end, channel=new_channel)
            ends_table[chain] = new_ends
        for ch in replaced.values():
            a = (engine.chain_id(ch.chain_1), ch.channel_1)
            b = (engine.chain_id(ch.chain_2), ch.channel_2)
            (a1, c1), (a2, c2) = sorted((a, b))
            closed_keys.append((a1, c1, a2, c2))

    new_overlay = overlay
    if pfm_names or forwarding:
        pfm_map = dict(overlay.pfm)
        pfm_map.update(pfm_names)
        bridges = dict(overlay.bridges)
        for kind, on in forwarding.items():
            bridges[kind] = dataclasses.replace(overlay.bridge(kind), forwards=on)
        new_overlay = dataclasses.replace(overlay, pfm=MappingProxyType(pfm_map),
                                          bridges=MappingProxyType(bridges))

    new_data = dataclasses.replace(data, chains=chains, channels=channels, ends=ends_table)
    # The scenario's two engines, as a loaded registry has them (_registry._engines): the reference's
    # bridge kinds, and every kind.
    new_engine = Engine(new_data, new_overlay, bridge_kinds=REFERENCE_BRIDGE_KINDS)
    every_bridge = new_engine.with_bridge_kinds(None)

    previous = registry.what_if
    merged_pfm = dict(previous.pfm) if previous else {}
    merged_pfm.update({engine.chain_id(n): on for n, on in pfm_names.items()})
    merged_closed = set(previous.closed_channels) if previous else set()
    merged_closed.update(closed_keys)
    merged_fwd = dict(previous.forwarding_bridges) if previous else {}
    merged_fwd.update(forwarding)
    scenario = WhatIf(
        base_fingerprint=previous.base_fingerprint if previous else registry.provenance.fingerprint,
        pfm=tuple(sorted(merged_pfm.items())),
        closed_channels=tuple(sorted(merged_closed)),
        forwarding_bridges=tuple(sorted(merged_fwd.items())),
    )
    digest = hashlib.sha256(repr(scenario).encode()).hexdigest()[:12]
    root = registry
    while root.base is not None:
        root = root.base
    usable = sum(len(v) for v in new_engine.neighbours.values()) // 2
    counts = tuple((name, usable if name == "usable_transfer_channels" else value)
                   for name, value in root.provenance.counts)
    provenance = dataclasses.replace(
        root.provenance,
        source=f"{root.provenance.source} (what-if: {scenario.describe()})",
        fingerprint=f"{scenario.base_fingerprint}+whatif-{digest}",
        counts=counts,
    )
    return provenance, new_overlay, (new_engine, every_bridge), scenario
