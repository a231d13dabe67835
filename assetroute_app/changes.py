"""What the "Changes" and "What if" pages need that is not Streamlit: versions, link state, tables, figures.

Decisions made here:

* **Known versions** are the archives of the registry-history folder (``$ASSETROUTE_HISTORY``, else
  ``registry-history`` next to the dashboard's registry directory), labelled by the commit date its
  README gives, plus the dashboard's own registry (labelled by its date there too, else "current").
  Any other source (a commit ``cosmos/chain-registry@<commit>``, an archive URL, a path) is typed in
  and used as it is.
* Links carry the request: ``old``, ``new`` and ``series`` (versions, repeatable) and the four lookup
  flags for Changes; ``pfm`` (``CHAIN:on|off``), ``close`` (channel specs) and ``fwd``
  (``KIND:on|off``) and the flags for What if (``allow_multi_tx`` defaults on there, so a pair that
  needs one more transaction shows as *changed* rather than *lost*). Bad values become
  :class:`Problem` messages, never exceptions.
* Figures use plotly (imported when drawn); nothing here imports Streamlit.
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assetroute_core import BETWEEN_CHAINS_OPTIONS, InvalidArgumentError, Registry, RegistryDiff, RegistryMeasures
from assetroute_core._whatif import parse_channel_spec

from .state import Params, Problem, last_param, parse_flags

if TYPE_CHECKING:
    import pandas as pd
    import plotly.graph_objects as go

__all__ = [
    "DIFF_FLAGS",
    "HISTORY_ENV_VAR",
    "ChangesQuery",
    "Version",
    "WhatIfQuery",
    "heatmap_matrix",
    "known_versions",
    "measures_figure",
    "measures_frame",
    "most_connected",
    "summary_metrics",
    "whatif_table",
]

HISTORY_ENV_VAR = "ASSETROUTE_HISTORY"
DIFF_FLAGS = BETWEEN_CHAINS_OPTIONS
_ROW = re.compile(r"^\|\s*`([^`]+)`[^|]*\|\s*`([0-9a-f]{40})`\s*\|\s*(\d{4}-\d{2}-\d{2})\s*\|")
_ON = {"on": True, "true": True, "1": True, "yes": True, "off": False, "false": False, "0": False, "no": False}


@dataclass(frozen=True, slots=True)
class Version:
    """One registry version offered by name."""

    label: str  # "2026-05-20 · 32d07e5c"
    source: str  # what load_registry takes
    commit: str | None = None
    date: str | None = None


def known_versions(current_source: str | None) -> list[Version]:
    """The shared history archives (oldest first) and the dashboard's own registry last."""
    folder_env = os.environ.get(HISTORY_ENV_VAR, "").strip()
    current = Path(current_source) if current_source and not re.match(r"^\w+://", current_source) else None
    folder = Path(folder_env) if folder_env else (current.parent / "registry-history" if current else None)
    dates: dict[str, tuple[str, str]] = {}  # file name -> (commit, date)
    out: list[Version] = []
    if folder is not None and folder.is_dir():
        readme = folder / "README.md"
        try:
            text = readme.read_text(encoding="utf-8")
        except OSError:
            text = ""
        for line in text.splitlines():
            m = _ROW.match(line.strip())
            if m:
                dates[Path(m.group(1)).name] = (m.group(2), m.group(3))
        archives = sorted(folder.glob("*.tar.gz"), key=lambda p: (dates.get(p.name, ("", "9999"))[1], p.name))
        for path in archives:
            commit, date = dates.get(path.name, (None, None))
            label = f"{date} · {commit[:8]}" if date and commit else path.name
            out.append(Version(label, str(path), commit, date))
    if current_source is not None or not out:
        name = Path(current_source).name if current and current_source else ""
        commit, date = dates.get(name, (None, None))
        label = f"{date} · {commit[:8]} (current)" if date and commit else "current registry"
        out.append(Version(label, current_source or "", commit, date))
    return out


def _source_of(value: str, known: Sequence[Version]) -> str:
    for v in known:
        if value == v.label:
            return v.source
    return value


def _all(params: Params, name: str) -> list[str]:
    """Every value of *name*, each kept whole (channel and PFM specs are never comma-split, unlike
    :func:`assetroute_app.state`'s lists)."""
    value = params.get(name)
    if value is None:
        return []
    return [value] if isinstance(value, str) else [str(v) for v in value]


# -- Changes -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChangesQuery:
    """The Changes page's request: two versions (labels or sources), flags, and the series to chart."""

    old: str | None
    new: str | None
    flags: tuple[tuple[str, bool], ...] = tuple((n, False) for n in DIFF_FLAGS)
    series: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        return bool(self.old and self.new)

    def sources(self, known: Sequence[Version]) -> tuple[str, str]:
        assert self.old is not None and self.new is not None
        return _source_of(self.old, known), _source_of(self.new, known)

    def to_params(self) -> dict[str, str | list[str]]:
        out: dict[str, str | list[str]] = {}
        if self.old:
            out["old"] = self.old
        if self.new:
            out["new"] = self.new
        for name, on in self.flags:
            if on:
                out[name] = "true"
        if self.series:
            out["series"] = list(self.series)
        return out

    @classmethod
    def from_params(cls, params: Params) -> tuple[ChangesQuery, list[Problem]]:
        problems: list[Problem] = []
        old, new = last_param(params, "old"), last_param(params, "new")
        for name, value in (("old", old), ("new", new)):
            if value is not None and (not value.strip() or len(value) > 2000 or "\x00" in value):
                problems.append(Problem(name, value[:80], "not a registry version or source"))
        flags = {**dict.fromkeys(DIFF_FLAGS, False), **parse_flags(params, DIFF_FLAGS, problems, severity="warning")}
        series = tuple(dict.fromkeys(s for s in _all(params, "series") if s.strip()))[:12]
        return cls(old or None, new or None, tuple(flags.items()), series), problems


def summary_metrics(diff: RegistryDiff) -> dict[str, int]:
    """The headline counts of a diff, in display order."""
    d = diff.to_dict()
    return {
        "Chains added": len(d["chains"]["added"]),
        "Chains removed": len(d["chains"]["removed"]),
        "Chains killed": len(d["chains"]["killed"]),
        "Chains revived": len(d["chains"]["revived"]),
        "Channels opened": d["channels"]["opened"],
        "Channels closed": d["channels"]["closed"],
        "Assets listed": d["assets"]["listed"],
        "Assets delisted": d["assets"]["delisted"],
        "Pairs gained": diff.pairs_gained,
        "Pairs lost": diff.pairs_lost,
        "Pairs changed": diff.pairs_changed,
    }


MEASURES = (
    ("routable_chains", "Routable chains"),
    ("listed_assets", "Listed assets"),
    ("single_tx_share", "Single-transaction share"),
    ("largest_group", "Largest connected group of chains"),
)


def measures_frame(series: Sequence[tuple[str, RegistryMeasures]]) -> pd.DataFrame:
    """One row per version (in the order given): its label and every measure."""
    import pandas as pd

    rows = []
    for label, m in series:
        row: dict[str, Any] = {"version": label}
        row.update(m.to_dict())
        rows.append(row)
    return pd.DataFrame(rows, columns=["version", "source", "commit", "routable_chains", "listed_assets",
                                       "usable_transfer_channels", "asset_pairs", "single_tx_pairs",
                                       "single_tx_share", "largest_group"])


def measures_figure(frame: pd.DataFrame, *, height: int = 640) -> go.Figure:
    """Four small line charts, one per measure, over the versions of *frame*."""
    from plotly.subplots import make_subplots

    from assetroute_core.drawing import PRIMARY
    from assetroute_core.drawing import escape_label as escape

    fig = make_subplots(rows=2, cols=2, subplot_titles=[escape(t) for _k, t in MEASURES],
                        horizontal_spacing=0.1, vertical_spacing=0.34)
    x = [escape(v) for v in frame["version"]]
    for i, (key, title) in enumerate(MEASURES):
        y = list(frame[key])
        text = [f"{v:.1%}" for v in y] if key == "single_tx_share" else [str(int(v)) for v in y]
        fig.add_scatter(x=x, y=y, mode="lines+markers+text", text=text, textposition="top center",
                        line={"color": PRIMARY}, name=escape(title), showlegend=False, cliponaxis=False,
                        hovertemplate="%{x}<br>%{text}<extra></extra>", row=i // 2 + 1, col=i % 2 + 1)
        if key == "single_tx_share":
            fig.update_yaxes(tickformat=".0%", row=i // 2 + 1, col=i % 2 + 1)
    fig.update_xaxes(type="category", tickangle=-20)
    fig.update_layout(height=height, margin={"l": 40, "r": 30, "t": 60, "b": 40})
    return fig


# -- What if -------------------------------------------------------------------------------------


def _on_off(raw: str) -> tuple[str, bool] | None:
    name, sep, value = raw.rpartition(":")
    state = _ON.get(value.strip().lower())
    if not sep or not name.strip() or state is None:
        return None
    return name.strip(), state


@dataclass(frozen=True, slots=True)
class WhatIfQuery:
    """The What if page's request: PFM toggles, closed channels, bridge forwarding, flags."""

    pfm: tuple[tuple[str, bool], ...] = ()
    close: tuple[str, ...] = ()
    fwd: tuple[tuple[str, bool], ...] = ()
    flags: tuple[tuple[str, bool], ...] = field(
        default=tuple((n, n == "allow_multi_tx") for n in DIFF_FLAGS))

    @property
    def complete(self) -> bool:
        return True

    @property
    def empty(self) -> bool:
        return not (self.pfm or self.close or self.fwd)

    def changes(self) -> dict[str, Any]:
        """Keyword arguments of :meth:`Registry.with_changes`."""
        return {"pfm": dict(self.pfm), "closed_channels": list(self.close), "forwarding_bridges": dict(self.fwd)}

    def to_params(self) -> dict[str, str | list[str]]:
        out: dict[str, str | list[str]] = {}
        if self.pfm:
            out["pfm"] = [f"{c}:{'on' if on else 'off'}" for c, on in self.pfm]
        if self.close:
            out["close"] = list(self.close)
        if self.fwd:
            out["fwd"] = [f"{k}:{'on' if on else 'off'}" for k, on in self.fwd]
        for name, on in self.flags:
            if on != (name == "allow_multi_tx"):
                out[name] = "true" if on else "false"
        return out

    @classmethod
    def from_params(cls, params: Params, registry: Registry) -> tuple[WhatIfQuery, list[Problem]]:
        problems: list[Problem] = []
        ids = {c.chain_id: c for c in registry.chains()}
        pfm: dict[str, bool] = {}
        for raw in _all(params, "pfm"):
            parsed = _on_off(raw)
            if parsed is None:
                problems.append(Problem("pfm", raw[:80], "expected CHAIN_ID:on or CHAIN_ID:off"))
            elif parsed[0] not in ids:
                problems.append(Problem("pfm", raw[:80], "not a routable chain-id"))
            elif ids[parsed[0]].pfm_enabled != parsed[1]:
                pfm[parsed[0]] = parsed[1]
        close: list[str] = []
        for raw in _all(params, "close"):
            try:
                registry.with_changes(closed_channels=[raw]) if raw not in close else None
            except InvalidArgumentError as exc:
                problems.append(Problem("close", raw[:80], exc.message))
                continue
            close.append(raw)
        fwd: dict[str, bool] = {}
        for raw in _all(params, "fwd"):
            parsed = _on_off(raw)
            if parsed is None:
                problems.append(Problem("fwd", raw[:80], "expected KIND:on or KIND:off"))
                continue
            try:
                registry.with_changes(forwarding_bridges={parsed[0]: parsed[1]})
            except InvalidArgumentError as exc:
                problems.append(Problem("fwd", raw[:80], exc.message))
                continue
            if registry.overlay.bridge(parsed[0]).forwards != parsed[1]:
                fwd[parsed[0]] = parsed[1]
        flags = {**{n: n == "allow_multi_tx" for n in DIFF_FLAGS},
                 **parse_flags(params, DIFF_FLAGS, problems, severity="warning")}
        query = cls(tuple(sorted(pfm.items())), tuple(close), tuple(sorted(fwd.items())), tuple(flags.items()))
        return query, problems


def channel_choices(registry: Registry, chain_id: str) -> list[tuple[str, str]]:
    """``(spec, label)`` for every usable transfer channel of a chain: the canonical one per counterparty first."""
    engine = registry.engine
    name = registry.chain(chain_id).chain_name
    out = []
    ends = engine.data.ends.get(name, {})
    for cid in sorted(ends, key=lambda c: (int(c.rsplit("-", 1)[1]) if c.rsplit("-", 1)[-1].isdigit() else 0, c)):
        end = ends[cid]
        if not end.channel.usable or end.counterparty_chain not in engine.routable:
            continue
        canonical = engine.canonical_channel(name, end.counterparty_chain)
        star = " (canonical)" if canonical is not None and canonical.channel_id == cid else ""
        other = engine.chain_id(end.counterparty_chain)
        out.append((f"{chain_id}:{cid}", f"{cid} → {other} {end.counterparty_channel_id} [{end.port}]{star}"))
    return out


def parse_close(spec: str) -> tuple[str, str | None, str | None]:
    """A channel spec as the scenario reads it (see :func:`assetroute_core._whatif.parse_channel_spec`)."""
    return parse_channel_spec(spec)


def most_connected(registry: Registry, n: int = 12) -> list[str]:
    """Chain-ids of the *n* routable chains with the most usable transfer channels (ties by chain-id)."""
    engine = registry.engine
    ranked = sorted(engine.routable, key=lambda name: (-len(engine.neighbours.get(name, ())),
                                                       engine.chain_id(name)))
    return [engine.chain_id(name) for name in ranked[:n]]


def heatmap_matrix(registry: Registry, chain_ids: Sequence[str], flags: Mapping[str, bool]) -> pd.DataFrame:
    """Asset pairs of every ordered pair of *chain_ids* (the network page's matrix)."""
    from assetroute_core.network import movable_matrix

    return movable_matrix(registry, list(chain_ids), **dict(flags))


def whatif_table(diff: RegistryDiff, labels: Mapping[str, str] | None = None) -> pd.DataFrame:
    """The changed pairs, readable: symbol, chains, before/after transactions and bridges."""
    frame = diff.to_frame("pairs")
    if labels:
        frame.insert(1, "source", [labels.get(c, c) for c in frame["source_chain_id"]])
        frame.insert(3, "dest", [labels.get(c, c) for c in frame["dest_chain_id"]])
    return frame


def chains_in(diff: RegistryDiff, ids: Collection[str]) -> list[str]:
    """The chain-ids of *ids* that the diff compared, in the given order."""
    compared = {s.chain_id for s in diff.per_chain}
    return [c for c in ids if c in compared]
