"""Tables and counts the pages show, built from lookup results alone (API fields first).

Also the picker order of chains and assets, and the data-quality report as the sidebar shows
it: the most severe issues first, only the first few on the page, the whole report as a
download.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .text import initials_logo, safe_logo

if TYPE_CHECKING:
    import pandas as pd

    from assetroute_core import Asset, BetweenChainsResult, Chain, FromSourceResult, QualityIssue, Registry

__all__ = [
    "BETWEEN_COLUMNS",
    "FROM_SOURCE_COLUMNS",
    "ROUTE_COLUMNS",
    "between_summary",
    "between_table",
    "default_asset",
    "from_source_summary",
    "from_source_table",
    "order_by_symbol",
    "quality_counts",
    "quality_csv",
    "quality_json",
    "quality_rows",
    "shown_logos",
    "sorted_assets",
    "sorted_chains",
]


def sorted_chains(registry: Registry) -> list[Chain]:
    """Routable chains ordered by pretty name (then chain-id)."""
    return sorted(registry.chains(), key=lambda c: ((c.pretty_name or c.chain_name).casefold(), c.chain_id))


def sorted_assets(assets: Sequence[Asset]) -> list[Asset]:
    """Listed assets first (natives first, by symbol), then derived vouchers."""
    def key(a: Asset) -> tuple[int, int, str, str]:
        listed = 0 if a.metadata is not None else 1
        native = 0 if not a.trace else 1
        sym = (a.metadata.symbol if a.metadata else a.origin_denom).casefold()
        return (listed, native, sym, a.denom)

    return sorted(assets, key=key)


def default_asset(assets: Sequence[Asset], chain: Chain) -> Asset | None:
    """A sensible first pick for a chain: its native listed asset named like the chain, else the first.

    >>> default_asset([], None) is None
    True
    """
    ordered = sorted_assets(assets)
    if not ordered:
        return None
    names = [n for n in {chain.chain_name.casefold(), (chain.pretty_name or "").casefold()} if n]
    natives = [a for a in ordered if a.metadata is not None and not a.trace and not a.is_cw20]
    def sym(a: Asset) -> str:
        return a.metadata.symbol.casefold() if a.metadata else ""

    tests: tuple[Callable[[Asset], bool], ...] = (
        lambda a: "/" not in a.denom and bool(sym(a)) and any(sym(a) in n for n in names),
        lambda a: a.denom.casefold() in ("u" + sym(a), "a" + sym(a)),
        lambda a: bool(sym(a)) and any(sym(a) in n for n in names),
    )
    for test in tests:
        for a in natives:
            if test(a):
                return a
    plain_natives = [a for a in natives if "/" not in a.denom]
    if plain_natives:
        return plain_natives[0]
    return ordered[0]


# -- tables ----------------------------------------------------------------------------------------

BETWEEN_COLUMNS = [
    "#", "source_logo", "symbol", "recommended_symbol", "source_denom", "source_trace",
    "dest_logo", "dest_symbol", "dest_denom", "dest_trace", "origin_chain_id", "origin_denom",
    "txs_required", "bridges",
]


def between_table(result: BetweenChainsResult) -> pd.DataFrame:
    """The Between chains table: one row per pair, API fields only (same for every backend).

    ``#`` is the pair's position in the API response; logos are kept only when http(s).
    """
    import pandas as pd

    rows = []
    for i, p in enumerate(result.pairs):
        s, d = p.asset_on_source, p.asset_on_dest
        sm, dm = s.metadata, d.metadata
        rows.append({
            "#": i,
            "source_logo": safe_logo(sm.logo_uri) if sm else None,
            "symbol": sm.symbol if sm else None,
            "recommended_symbol": (sm.recommended_symbol if sm else None) or (dm.recommended_symbol if dm else None),
            "source_denom": s.denom,
            "source_trace": s.trace,
            "dest_logo": safe_logo(dm.logo_uri) if dm else None,
            "dest_symbol": dm.symbol if dm else None,
            "dest_denom": d.denom,
            "dest_trace": d.trace,
            "origin_chain_id": d.origin_chain_id,
            "origin_denom": d.origin_denom,
            "txs_required": p.txs_required,
            "bridges": " → ".join(p.bridges),
        })
    return pd.DataFrame(rows, columns=BETWEEN_COLUMNS)


def order_by_symbol(frame: pd.DataFrame, column: str = "recommended_symbol") -> pd.DataFrame:
    """Rows grouped by recommended symbol (stable; rows without one last)."""
    key = frame[column].fillna("").astype(str)
    order = sorted(range(len(frame)), key=lambda i: (key.iloc[i] == "", key.iloc[i].casefold(), i))
    return frame.iloc[order].reset_index(drop=True)


FROM_SOURCE_COLUMNS = [
    "group", "logo", "symbol", "name", "recommended_symbol", "chain_id", "denom", "trace",
    "origin_chain_id", "origin_denom", "is_cw20", "is_evm", "is_svm",
]
ROUTE_COLUMNS = ["txs_required", "bridges", "path"]


def from_source_table(result: FromSourceResult, *, routes: bool = True) -> pd.DataFrame:
    """The From source table: one row per destination asset, in ``dest_assets`` order.

    API columns come first and are identical for every backend; with ``routes=True`` and
    a result that carries routes, ``txs_required``, ``bridges`` and ``path`` follow.
    """
    import pandas as pd

    rows = []
    with_routes = routes and any(d.route is not None for d in result)
    for key, items in result.groups:
        for d in items:
            a, m = d.asset, d.asset.metadata
            row: dict[str, Any] = {
                "group": key,
                "logo": safe_logo(m.logo_uri) if m else None,
                "symbol": m.symbol if m else None,
                "name": m.name if m else None,
                "recommended_symbol": m.recommended_symbol if m else None,
                "chain_id": a.chain_id,
                "denom": a.denom,
                "trace": a.trace,
                "origin_chain_id": a.origin_chain_id,
                "origin_denom": a.origin_denom,
                "is_cw20": a.is_cw20,
                "is_evm": a.is_evm,
                "is_svm": a.is_svm,
            }
            if with_routes:
                r = d.route
                row["txs_required"] = r.txs_required if r else None
                row["bridges"] = " → ".join(r.bridges) if r else None
                row["path"] = " → ".join([r.source.chain_id] + [h.to_chain_id for h in r.hops]) if r else None
            rows.append(row)
    columns = FROM_SOURCE_COLUMNS + (ROUTE_COLUMNS if with_routes else [])
    return pd.DataFrame(rows, columns=columns)


# -- summaries -------------------------------------------------------------------------------------


def between_summary(result: BetweenChainsResult) -> dict[str, Any]:
    """Counts for the metric row: pairs, source assets, by txs_required, by bridge path."""
    by_txs = Counter(p.txs_required for p in result.pairs)
    by_bridges = Counter(" → ".join(p.bridges) for p in result.pairs)
    return {
        "pairs": len(result.pairs),
        "source_assets": len({p.asset_on_source.denom for p in result.pairs}),
        "by_txs": dict(sorted(by_txs.items())),
        "by_bridges": dict(by_bridges.most_common()),
        "single_tx": by_txs.get(1, 0),
        "multi_tx": sum(n for t, n in by_txs.items() if t > 1),
        "via_bridge": sum(1 for p in result.pairs if any(b != "IBC" for b in p.bridges)),
    }


def from_source_summary(result: FromSourceResult) -> dict[str, Any]:
    """Counts for the metric row: destination chains and assets, by minimal txs_required."""
    chains: dict[str, int | None] = {}
    for d in result:
        txs = d.route.txs_required if d.route else None
        cid = d.asset.chain_id
        prev = chains.get(cid, -1)
        if prev == -1 or (txs is not None and (prev is None or txs < prev)):
            chains[cid] = txs
    known = [t for t in chains.values() if t is not None]
    return {
        "assets": len(result),
        "chains": len(chains),
        "groups": len(result.groups),
        "one_tx_chains": sum(1 for t in known if t == 1),
        "multi_tx_chains": sum(1 for t in known if t > 1),
        "routes_known": bool(known) or not len(result),
    }


# -- logos ------------------------------------------------------------------------------------------


def shown_logos(urls: Sequence[object], symbols: Sequence[object], reachable: Callable[[str], bool]) -> list[str]:
    """The logo to show per row: the URL when it is safe and its host *reachable*, else initials.

    >>> shown_logos(["https://a.example/x.png", None], ["ATOM", "OSMO"], lambda url: True)[0]
    'https://a.example/x.png'
    >>> shown_logos(["https://a.example/x.png"], ["ATOM"], lambda url: False)[0].startswith("data:image/svg+xml")
    True
    """
    out = []
    for url, symbol in zip(urls, symbols, strict=True):
        safe = safe_logo(url)
        out.append(safe if safe is not None and reachable(safe) else initials_logo(symbol))
    return out


# -- data-quality report ---------------------------------------------------------------------------

SEVERITIES = ("error", "warning", "info")


def _severity(issue: QualityIssue) -> str:
    value = getattr(issue, "severity", "warning")
    return value if value in SEVERITIES else "warning"


def quality_counts(issues: Sequence[QualityIssue]) -> dict[str, int]:
    """How many issues of each severity, most severe first (every severity listed).

    >>> quality_counts([])
    {'error': 0, 'warning': 0, 'info': 0}
    """
    counts = Counter(_severity(q) for q in issues)
    return {s: counts.get(s, 0) for s in SEVERITIES}


def _row(q: QualityIssue) -> dict[str, str]:
    return {"severity": _severity(q), "kind": str(getattr(q, "kind", "") or ""), "file": q.file,
            "problem": q.problem, "action": q.action}


def quality_rows(issues: Sequence[QualityIssue], *, limit: int = 20) -> list[dict[str, str]]:
    """The first *limit* issues, errors first (the report's order kept within a severity)."""
    rank = {s: i for i, s in enumerate(SEVERITIES)}
    ordered = sorted(range(len(issues)), key=lambda i: (rank[_severity(issues[i])], i))
    return [_row(issues[i]) for i in ordered[: max(limit, 0)]]


def quality_csv(issues: Sequence[QualityIssue]) -> bytes:
    """The whole report as CSV (severity, kind, file, problem, action), in the report's order."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=["severity", "kind", "file", "problem", "action"])
    writer.writeheader()
    writer.writerows(_row(q) for q in issues)
    return out.getvalue().encode()


def quality_json(issues: Sequence[QualityIssue]) -> bytes:
    """The whole report as a JSON array of objects, in the report's order."""
    import json

    return json.dumps([_row(q) for q in issues], ensure_ascii=False, indent=1).encode()
