"""What reading a registry produces, before indexing: :class:`RegistryData`, its :class:`ListedAsset` entries
and the bounded data-quality report.

Decisions made here: every problem found while reading goes through :meth:`RegistryData.issue`, which keeps
the report bounded — :data:`MAX_ISSUES_PER_FILE` per file and severity class, :data:`MAX_ISSUES` in all with
:data:`ERROR_RESERVE` of them kept for errors (warnings cannot crowd them out) — and counts the rest, which
:meth:`RegistryData.close_report` summarises.  The caps are read at call time, so a test may lower them.

>>> data = RegistryData(root="r")
>>> data.issue("a.json", "odd", "ignored"); data.close_report()
>>> [(q.file, q.severity) for q in data.quality]
[('a.json', 'warning')]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from ._models import BridgeLink, Chain, Channel, ChannelEnd, Metadata, QualityIssue

__all__ = ["ERROR_RESERVE", "MAX_ISSUES", "MAX_ISSUES_PER_FILE", "ListedAsset", "RegistryData", "denom_key"]

MAX_ISSUES_PER_FILE = 50  # issues listed per file (per severity class: errors, the rest); then one summary
MAX_ISSUES = 5_000  # issues listed in all, summaries included; then one final summary line
ERROR_RESERVE = 500  # of MAX_ISSUES, kept for error-level issues: warnings cannot crowd them out


def denom_key(denom: str) -> str:
    """Lookup key of a denom: EVM-style ``0x`` addresses compare case-insensitively."""
    return denom.lower() if denom[:2] in ("0x", "0X") else denom


@dataclass(frozen=True, slots=True)
class ListedAsset:
    """One assetlist entry, with the identity its trace path gives."""

    chain_name: str
    denom: str
    origin_chain_name: str
    origin_denom: str
    trace: str
    type_asset: str
    metadata: Metadata
    traces: tuple[dict[str, Any], ...]
    file: str
    deprecated: bool = False
    # The path walk stopped at a hop that is not an ``_IBC`` channel: the origin came from the traces
    # and is followed further once every assetlist is read (:func:`_follow_origins`).
    origin_open: bool = False


@dataclass
class RegistryData:
    """Everything read from disk, before indexing for lookups."""

    root: str
    testnet: bool = False  # the registry's testnets/ world: every chain read is a testnet
    chains: dict[str, Chain] = field(default_factory=dict)
    chain_ids: dict[str, str] = field(default_factory=dict)  # chain_id -> chain_name (live wins)
    channels: list[Channel] = field(default_factory=list)
    ends: dict[str, dict[str, ChannelEnd]] = field(default_factory=dict)  # chain -> channel_id -> end
    listed: dict[tuple[str, str], ListedAsset] = field(default_factory=dict)  # (chain, denom_key)
    links: list[BridgeLink] = field(default_factory=list)
    quality: list[QualityIssue] = field(default_factory=list)
    quality_dropped: int = 0  # issues found but not listed (the report is capped); the summaries say where
    fingerprint: str = ""
    files: int = 0
    _seen: dict[tuple[str, bool], int] = field(default_factory=dict, repr=False)  # (file, is error) -> found
    _dropped: dict[str, list[int]] = field(default_factory=dict, repr=False)  # file -> [errors, others]
    _dropped_overall: list[int] = field(default_factory=lambda: [0, 0], repr=False)  # [errors, others]

    def issue(self, file: str, problem: str, action: str, *,
              severity: Literal["error", "warning", "info"] = "warning", kind: str = "") -> None:
        """Report a problem; past the caps it is only counted (see :meth:`close_report`)."""
        error = severity == "error"
        key = (file, error)
        seen = self._seen[key] = self._seen.get(key, 0) + 1
        if seen > MAX_ISSUES_PER_FILE:
            self._dropped.setdefault(file, [0, 0])[0 if error else 1] += 1
        elif len(self.quality) >= (MAX_ISSUES if error else MAX_ISSUES - ERROR_RESERVE):
            self._dropped_overall[0 if error else 1] += 1
        else:
            self.quality.append(QualityIssue(file, problem, action, severity, kind))
            return
        self.quality_dropped += 1

    def close_report(self) -> None:
        """Summarise what the caps left out: a line per file over its cap, then one for the whole report."""
        for file, (errors, others) in self._dropped.items():
            if len(self.quality) >= MAX_ISSUES:
                self._dropped_overall[0] += errors
                self._dropped_overall[1] += others
                continue
            of_them = f" ({errors} of them errors)" if errors else ""
            self.quality.append(QualityIssue(
                file, f"{errors + others} more issue(s) in this file not listed{of_them}",
                f"counted; the report lists at most {MAX_ISSUES_PER_FILE} per file",
                "error" if errors else "warning", "issues-not-listed"))
        self._dropped.clear()
        errors, others = self._dropped_overall
        if errors + others:
            of_them = f" ({errors} of them errors)" if errors else ""
            self.quality.append(QualityIssue(
                "(registry)", f"{errors + others} more issue(s) not listed{of_them}",
                f"counted; the report lists at most {MAX_ISSUES} issues", "error" if errors else "warning",
                "issues-not-listed"))
            self._dropped_overall = [0, 0]
