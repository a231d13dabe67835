"""The command line: ``python -m assetroute_core`` (installed as ``assetroute``).

::

    between SRC DEST [--include-no-metadata-assets] [--include-cw20-assets] [--include-evm-assets]
                     [--allow-multi-tx] [--include-other-bridges] [--json] [--registry SOURCE | --base-url URL]
    from-source DENOM CHAIN [--allow-multi-tx] [--recommendation-reason R] [--include-swaps]
                     [--swap-venue NAME:CHAIN_ID ...] [--native-only] [--group-by G]
                     [--include-cw20-assets] [--include-other-bridges] [--json] [--registry SOURCE | --base-url URL]
    chains [--json] [--registry SOURCE | --base-url URL]
    bridges | venues [--json]                      (the same sources)
    assets [--chain-id ID ...] [--native-only] [--include-...-assets] [--json]
    origin DENOM CHAIN_ID [DENOM CHAIN_ID ...] [--json]
    recommend DENOM CHAIN_ID DEST_CHAIN_ID [...] [--reason R] [--json]
    registry info [--json] [--issues N] [--registry SOURCE]
    serve [--host H] [--port P] [--registry SOURCE] [--workers N] [--log-level L]
          [--max-body-bytes N] [--no-access-log] [--lookup-timeout S] [--lookup-threads N]
          [--response-cache-bytes N] [--timeout-idle S] [--timeout-header S] [--timeout-body S]
          [--limit-concurrency N] [--max-header-bytes N] [--cors-origins ORIGINS]
    diff OLD NEW [--include-no-metadata-assets] [--include-cw20-assets] [--include-evm-assets]
                 [--allow-multi-tx] [--pairs N] [--json]
    what-if [--pfm CHAIN=on|off ...] [--close-channel CHAIN:CHANNEL|CHAIN/CHAIN ...]
            [--bridge-forwards KIND=on|off ...] [flags as for diff] [--pairs N] [--json] [--registry SOURCE]

``diff`` and ``what-if`` print what changed (see :mod:`assetroute_core._diff`); their ``--json`` is
:meth:`RegistryDiff.to_json` (plus the scenario for ``what-if``). OLD and NEW are registry sources
as for ``--registry``: a directory, an archive, a URL, or ``cosmos/chain-registry@<commit>``.

Lookups run on a registry loaded here (``--registry``; default: ``$ASSETROUTE_REGISTRY``, else the
pinned archive) or on a compatible service (``--base-url``).

``--json`` writes exactly the HTTP response body of the same request, byte for byte, and nothing
else: no trailing newline, so ``between A B --json`` and ``curl`` of the same request give identical
files. Human output is an aligned table; long denoms are shortened in the middle.

Errors go to stderr as one line, never a traceback. Exit codes: 0 success; 2 bad input (what the
service answers with a 4xx, and command-line usage errors); 1 any other failure (registry cannot be
loaded, service unreachable or answering nonsense).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ._exceptions import AssetRouteError, RequestError
from ._json import dumps
from ._models import QualityIssue, SwapVenue
from ._options import (
    BETWEEN_CHAINS_OPTIONS,
    FROM_SOURCE_OPTIONS,
    GROUP_BY_VALUES,
    RECOMMENDATION_REASONS,
    BetweenChainsOptions,
    FromSourceOptions,
    SupportsLookups,
    option_fields,
)
from ._requests import parse_recommendation_reason
from ._results import BetweenChainsResult, FromSourceResult

__all__ = ["build_parser", "issue_kind", "main", "shorten"]

DENOM_WIDTH = 27
DEFAULT_ISSUES = 10
_T = TypeVar("_T")


# -- formatting ------------------------------------------------------------------------------


def shorten(text: str, width: int = DENOM_WIDTH) -> str:
    """Shorten *text* in the middle to at most *width* characters.

    >>> shorten("ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2")
    'ibc/27394FB09…22B25F41E5EB2'
    >>> shorten("uatom")
    'uatom'
    """
    if len(text) <= width:
        return text
    head = (width - 1) // 2
    tail = width - 1 - head
    return text[:head] + "…" + text[-tail:]


def table(headers: Sequence[str] | None, rows: Sequence[Sequence[str]]) -> str:
    """An aligned plain-text table (two spaces between columns); ``headers=None`` for none.

    >>> print(table(["A", "BB"], [["xxx", "y"]]))
    A    BB
    xxx  y
    """
    lines = ([list(headers)] if headers is not None else []) + [list(r) for r in rows]
    widths = [0] * max((len(line) for line in lines), default=0)
    for line in lines:
        for i, cell in enumerate(line):
            widths[i] = max(widths[i], len(cell))
    return "\n".join("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(line)).rstrip() for line in lines)


def issue_kind(problem: str) -> str:
    """The kind of a data-quality problem: its text with the specific values masked.

    >>> issue_kind("chain_id 'dungeon-1' is shared by 'dungeon' and 'dungeon1'")
    "chain_id '…' is shared by '…' and '…'"
    >>> issue_kind("ibc/88386AC4: channel 08-wasm-1369 of 'cosmoshub' in path 'transfer/channel-0/x' is not in _IBC")
    "channel … of '…' in path '…' is not in _IBC"
    >>> issue_kind("invalid JSON: Expecting value: line 1 column 1 (char 0)")
    'invalid JSON'
    """
    for prefix in ("invalid JSON", "unreadable"):
        if problem.startswith(prefix + ":"):
            return prefix
    text = re.sub(r"^\S+: ", "", problem)  # "<denom>: …"
    text = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", text)
    text = re.sub(r"\[\d+\]", "[…]", text)
    text = re.sub(r"\b(channel|08-wasm)-\d+\b", "…", text)
    return text


def _symbol(*assets: Any) -> str:
    for asset in assets:
        if asset.metadata is not None and asset.metadata.symbol:
            return str(asset.metadata.symbol)
    return "-"


def _trace(trace: str) -> str:
    return trace or "(native)"


def _write_bytes(data: bytes) -> None:
    sys.stdout.flush()
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is not None:
        buffer.write(data)
        buffer.flush()
    else:  # a text-only stream
        sys.stdout.write(data.decode("utf-8"))
        sys.stdout.flush()


def _print_between(result: BetweenChainsResult) -> None:
    n = len(result)
    print(f"{result.source_chain_id} → {result.dest_chain_id}: {n} pair{'s' if n != 1 else ''}")
    if not n:
        print("(none)")
        return
    rows = [[_symbol(p.asset_on_source, p.asset_on_dest), shorten(p.asset_on_source.denom),
             shorten(p.asset_on_dest.denom), p.asset_on_dest.chain_id, _trace(p.asset_on_dest.trace),
             str(p.txs_required), ",".join(p.bridges) or "-"] for p in result.pairs]
    print(table(["SYMBOL", "SOURCE DENOM", "DEST DENOM", "DEST CHAIN", "DEST TRACE", "TXS", "BRIDGES"], rows))


def _print_from_source(result: FromSourceResult, denom: str, chain_id: str) -> None:
    n = len(result)
    print(f"{denom} on {chain_id}: {n} asset{'s' if n != 1 else ''} in {len(result.groups)} "
          f"group{'s' if len(result.groups) != 1 else ''} (by {result.group_by})")
    if not n:
        print("(none)")
        return
    by_chain = result.group_by == "chain_id"
    rows = []
    for key, items in result.groups:
        for d in items:
            row = [] if by_chain else [key]
            row += [d.asset.chain_id, _symbol(d.asset), shorten(d.asset.denom), _trace(d.asset.trace),
                    str(d.route.txs_required) if d.route else "-",
                    (",".join(d.route.bridges) or "-") if d.route else "-"]
            rows.append(row)
    headers = ([] if by_chain else ["GROUP"]) + ["CHAIN", "SYMBOL", "DENOM", "TRACE", "TXS", "BRIDGES"]
    print(table(headers, rows))


# -- commands --------------------------------------------------------------------------------


def _lookups(args: argparse.Namespace) -> SupportsLookups:
    if getattr(args, "base_url", None):
        from .client import AssetRouteClient

        return AssetRouteClient(args.base_url)
    from ._registry import load_registry

    return load_registry(args.registry)


def _close(backend: object) -> None:
    close = getattr(backend, "close", None)
    if callable(close):
        close()


def _cmd_between(args: argparse.Namespace) -> int:
    backend = _lookups(args)
    try:
        result = backend.assets_between_chains(
            args.source_chain_id, args.dest_chain_id,
            **{name: getattr(args, name) for name in BETWEEN_CHAINS_OPTIONS})  # type: ignore[misc]
    finally:
        _close(backend)
    if args.json:
        _write_bytes(result.to_json())
    else:
        _print_between(result)
    return 0


def _cmd_from_source(args: argparse.Namespace) -> int:
    reason = parse_recommendation_reason(args.recommendation_reason, "--recommendation-reason",
                                         text_numbers=True)
    backend = _lookups(args)
    try:
        options = {name: getattr(args, name) for name in FROM_SOURCE_OPTIONS}
        result = backend.assets_from_source(args.source_asset_denom, args.source_asset_chain_id,
                                            **{**options, "recommendation_reason": reason})
    finally:
        _close(backend)
    if args.json:
        _write_bytes(result.to_json())
    else:
        _print_from_source(result, args.source_asset_denom, args.source_asset_chain_id)
    return 0


def _cmd_chains(args: argparse.Namespace) -> int:
    chains = _ask(args, lambda backend: backend.chains())
    if args.json:
        _write_bytes(dumps({"chains": [c.to_api() for c in chains]}))
        return 0
    print(f"{len(chains)} chain{'s' if len(chains) != 1 else ''}")
    rows = [[c.chain_id, c.chain_name, c.chain_type, "yes" if c.pfm_enabled else "no", c.pretty_name]
            for c in chains]
    print(table(["CHAIN ID", "NAME", "TYPE", "PFM", "PRETTY NAME"], rows))
    return 0


def _ask(args: argparse.Namespace, call: Callable[[Any], _T]) -> _T:
    """Run *call* on the command's backend (a Registry, or a client for ``--base-url``: both have the same
    methods), closing it afterwards."""
    backend = _lookups(args)
    try:
        return call(backend)
    finally:
        _close(backend)


def _cmd_bridges(args: argparse.Namespace) -> int:
    bridges = _ask(args, lambda backend: backend.bridges())
    if args.json:
        _write_bytes(dumps({"bridges": [b.to_api() for b in bridges]}))
        return 0
    print(table(["ID", "NAME"], [[b.id, b.name] for b in bridges]))
    return 0


def _cmd_venues(args: argparse.Namespace) -> int:
    venues = _ask(args, lambda backend: backend.swap_venues())
    if args.json:
        _write_bytes(dumps({"venues": [v.to_api() for v in venues]}))
        return 0
    print(table(["NAME", "CHAIN ID", "LOGO"], [[v.name, v.chain_id, v.logo_uri or ""] for v in venues]))
    return 0


ASSETS_FLAGS = ("native_only", "include_no_metadata_assets", "include_cw20_assets", "include_evm_assets",
                "include_svm_assets")


def _cmd_assets(args: argparse.Namespace) -> int:
    result = _ask(args, lambda backend: backend.assets_by_chain(
        chain_ids=args.chain_id or None, **{name: getattr(args, name) for name in ASSETS_FLAGS}))
    if args.json:
        _write_bytes(result.to_json())
        return 0
    print(f"{len(result)} asset{'s' if len(result) != 1 else ''} on {len(result.chain_to_assets)} chain(s)")
    rows = [[chain_id, a.metadata.symbol if a.metadata else "", a.denom, a.trace or "(native)"]
            for chain_id, assets in result.chain_to_assets for a in assets]
    print(table(["CHAIN ID", "SYMBOL", "DENOM", "TRACE"], rows))
    return 0


def _cmd_origin(args: argparse.Namespace) -> int:
    if len(args.pairs) % 2:
        raise _UsageError("origin takes DENOM CHAIN_ID pairs; got an odd number of values")
    pairs = list(zip(args.pairs[::2], args.pairs[1::2], strict=True))
    result = _ask(args, lambda backend: backend.origin_assets(pairs))
    if args.json:
        _write_bytes(result.to_json())
        return 0
    rows = [[chain_id, denom, f"{o.denom} on {o.chain_id}" if o is not None else "(not found)"]
            for (denom, chain_id), o in zip(pairs, result.origins, strict=True)]
    print(table(["CHAIN ID", "DENOM", "ORIGIN"], rows))
    return 0


def _cmd_recommend(args: argparse.Namespace) -> int:
    from ._catalog import RecommendRequest

    reason = parse_recommendation_reason(args.reason, "--reason", text_numbers=True) if args.reason else None
    requests = [RecommendRequest(args.source_asset_denom, args.source_asset_chain_id, dest, reason)  # type: ignore[arg-type]
                for dest in args.dest_chain_ids]
    result = _ask(args, lambda backend: backend.recommend_assets(requests))
    if args.json:
        _write_bytes(result.to_json())
        return 0
    rows = []
    for dest, entry in zip(args.dest_chain_ids, result.entries, strict=True):
        if isinstance(entry, str):
            rows.append([dest, "", f"({entry})", ""])
        else:
            rows += [[dest, a.metadata.symbol if a.metadata else "", a.denom, entry[1]] for a in entry[0]]
    print(table(["DEST CHAIN ID", "SYMBOL", "DENOM", "REASON"], rows))
    return 0


SEVERITIES = ("error", "warning", "info")


def quality_summary(issues: Sequence[QualityIssue], first: int = DEFAULT_ISSUES, *, dropped: int = 0) -> dict[str, Any]:
    """The data-quality report in brief, errors first.

    ``{"total", "dropped", "by_severity": {severity: count}, "by_kind": {kind: count} (most frequent first),
    "errors": [every error-level issue], "issues": [the first N issues, error-level ones first]}``. A kind is
    the issue's own ``kind``, else its problem text with the specific values masked (:func:`issue_kind`);
    ``dropped`` is how many issues the loader counted but did not list (the report is capped).
    """
    kinds = Counter(q.kind or issue_kind(q.problem) for q in issues)
    severities: Counter[str] = Counter(q.severity for q in issues)
    ordered = sorted(issues, key=lambda q: q.severity != "error")  # stable: load order otherwise

    def row(q: QualityIssue) -> dict[str, str]:
        return {"file": q.file, "problem": q.problem, "action": q.action, "severity": q.severity, "kind": q.kind}

    return {
        "total": len(issues),
        "dropped": dropped,
        "by_severity": {s: severities[s] for s in SEVERITIES if severities[s]},
        "by_kind": dict(sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))),
        "errors": [row(q) for q in ordered if q.severity == "error"],
        "issues": [row(q) for q in ordered[:max(first, 0)]],
    }


def _cmd_registry_info(args: argparse.Namespace) -> int:
    from ._registry import load_registry

    registry = load_registry(args.registry)
    prov = registry.provenance.to_dict()
    summary = quality_summary(registry.quality, args.issues, dropped=registry.engine.data.quality_dropped)
    if args.json:
        _write_bytes(dumps({"provenance": prov, "quality": summary}))
        return 0
    print(table(None, [
        ["source", f"{prov['source']} ({prov['kind']})"],
        ["commit", prov["commit"] or "(unknown)"],
        ["fingerprint", prov["fingerprint"]],
        ["loaded at", f"{prov['loaded_at']} in {prov['load_seconds']:.2f} s"],
        ["overlay", prov["overlay"]],
    ]))
    print()
    print("counts:")
    print(table(None, [["  " + name, str(value)] for name, value in prov["counts"].items()]))
    print()
    by_severity = ", ".join(f"{n} {s}{'s' if n != 1 and s != 'info' else ''}"
                            for s, n in summary["by_severity"].items())
    print(f"data quality: {summary['total']} issue{'s' if summary['total'] != 1 else ''}"
          + (f" ({by_severity})" if by_severity else "")
          + (f", and {summary['dropped']} more counted but not listed" if summary["dropped"] else ""))
    if summary["errors"]:
        print()
        print(f"errors ({len(summary['errors'])}), to act on first:")
        for issue in summary["errors"]:
            print(f"  {issue['file']}: {issue['problem']} → {issue['action']}")
    if summary["by_kind"]:
        print()
        rows = Counter((q.severity, q.kind or issue_kind(q.problem)) for q in registry.quality)
        print(table(["ISSUES", "SEVERITY", "KIND"], [
            [str(n), severity, kind] for (severity, kind), n in
            sorted(rows.items(), key=lambda kv: (SEVERITIES.index(kv[0][0]), -kv[1], kv[0][1]))]))
    rest = [q for q in registry.quality if q.severity != "error"][:max(args.issues, 0)]
    if rest:
        print()
        print(f"first {len(rest)}{' others' if summary['errors'] else ''}:")
        for q in rest:
            print(f"  {q.file}: {q.problem} → {q.action}")
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    from ._registry import load_registry
    from ._serving import GuardedConfig, ServeLimits, raise_fd_limit
    from .server import (
        CORS_ENV_VAR,
        LOOKUP_THREADS_ENV_VAR,
        LOOKUP_TIMEOUT_ENV_VAR,
        MAX_BODY_ENV_VAR,
        RESPONSE_CACHE_ENV_VAR,
        create_app,
        parse_cors_origins,
    )

    for name in ("max_body_bytes", "workers", "lookup_threads", "limit_concurrency"):
        if getattr(args, name) < 1:
            raise _UsageError(f"--{name.replace('_', '-')} must be positive, got {getattr(args, name)}")
    for name in ("timeout_idle", "timeout_header", "timeout_body", "lookup_timeout"):
        if not getattr(args, name) > 0:  # also refuses nan
            raise _UsageError(f"--{name.replace('_', '-')} must be a positive number of seconds, "
                              f"got {getattr(args, name)}")
    if args.response_cache_bytes < 0:
        raise _UsageError(f"--response-cache-bytes must not be negative, got {args.response_cache_bytes}")
    if args.max_header_bytes < 1024:
        raise _UsageError(f"--max-header-bytes must be at least 1024, got {args.max_header_bytes}")
    try:
        cors_origins = parse_cors_origins(args.cors_origins)
    except ValueError as exc:
        raise _UsageError(f"--cors-origins: {exc}") from None
    limits = ServeLimits(timeout_idle=args.timeout_idle, timeout_header=args.timeout_header,
                         timeout_body=args.timeout_body, limit_concurrency=args.limit_concurrency,
                         max_header_bytes=args.max_header_bytes)
    registry = load_registry(args.registry)  # fail here, before binding, on a bad source
    raise_fd_limit()
    options: dict[str, Any] = {"host": args.host, "port": args.port, "log_level": args.log_level,
                               "access_log": not args.no_access_log, "limits": limits}
    if args.workers > 1:
        # Each worker process loads the registry itself, from the same (now cached) source.
        if args.registry is not None:
            os.environ["ASSETROUTE_REGISTRY"] = os.fspath(args.registry)
        os.environ[MAX_BODY_ENV_VAR] = str(args.max_body_bytes)
        os.environ[LOOKUP_TIMEOUT_ENV_VAR] = repr(args.lookup_timeout)
        os.environ[LOOKUP_THREADS_ENV_VAR] = str(args.lookup_threads)
        os.environ[RESPONSE_CACHE_ENV_VAR] = str(args.response_cache_bytes)
        os.environ[CORS_ENV_VAR] = ",".join(cors_origins) or "none"
        _run_workers(GuardedConfig("assetroute_core.server:app_from_env", factory=True, workers=args.workers,
                                   **options))
    else:
        import uvicorn

        app = create_app(registry, max_body_bytes=args.max_body_bytes, lookup_timeout=args.lookup_timeout,
                         lookup_threads=args.lookup_threads, response_cache_bytes=args.response_cache_bytes,
                         cors_origins=cors_origins)
        server = uvicorn.Server(GuardedConfig(app, **options))
        server.run()
        if not server.started:
            return 1  # uvicorn logged why (e.g. the port is taken)
    return 0


def _run_workers(config: Any) -> None:
    """``uvicorn.run(..., workers=N)``, with a listening socket that says it is TCP.

    uvicorn binds with ``socket.socket(family)`` (proto 0); asyncio then skips TCP_NODELAY on every
    accepted connection, and each kept-alive response waits ~40 ms for a delayed ACK (measured: 316
    instead of ~2,500 requests/s). Re-wrapping the descriptor lets the kernel report IPPROTO_TCP.
    """
    import socket

    from uvicorn.supervisors import Multiprocess

    sock = config.bind_socket()
    if sock.family in (socket.AF_INET, socket.AF_INET6):
        sock = socket.socket(fileno=sock.detach())  # family, type and proto read back from the descriptor
        sock.set_inheritable(True)
    with contextlib.suppress(KeyboardInterrupt):
        Multiprocess(config, sockets=[sock]).run()


class _UsageError(Exception):
    """A command-line value that argparse cannot check itself (exit code 2)."""


_DIFF_FLAGS = BETWEEN_CHAINS_OPTIONS  # a diff compares assets_between_chains answers


def _on_off(text: str, option: str) -> tuple[str, bool]:
    name, sep, value = text.rpartition("=")
    state = {"on": True, "off": False, "true": True, "false": False, "yes": True, "no": False}.get(value.lower())
    if not sep or not name or state is None:
        raise _UsageError(f"{option} expects NAME=on|off, got {text!r}")
    return name, state


def _diff_progress(label: str) -> Any:
    """A progress line on stderr when it is a terminal, else nothing."""
    if not sys.stderr.isatty():
        return None

    def report(done: int, total: int) -> None:
        end = "\n" if done == total else ""
        print(f"\r{label}: {done}/{total} source chains", end=end, file=sys.stderr, flush=True)

    return report


def _print_diff(diff: Any, pairs_shown: int) -> None:
    data = diff.to_dict()
    print(f"old: {data['old']['source']}" + (f" @ {data['old']['commit']}" if data["old"]["commit"] else ""))
    print(f"new: {data['new']['source']}" + (f" @ {data['new']['commit']}" if data["new"]["commit"] else ""))
    flags = [name for name, on in data["flags"].items() if on]
    print(f"flags: {', '.join(flags) or 'default'}")
    if diff.is_empty:
        print("no change")
        return
    chains = data["chains"]
    rows = [[kind, str(len(chains[kind])), ", ".join(chains[kind][:12]) + (" …" if len(chains[kind]) > 12 else "")]
            for kind in ("added", "removed", "killed", "revived")]
    rows.append(["channels opened", str(data["channels"]["opened"]), ""])
    rows.append(["channels closed", str(data["channels"]["closed"]), ""])
    rows.append(["assets listed", str(data["assets"]["listed"]), ""])
    rows.append(["assets delisted", str(data["assets"]["delisted"]), ""])
    rows.append(["pfm changes", str(len(data["pfm"])),
                 ", ".join(f"{p['chain_id']} {'on' if p['new'] else 'off'}" for p in data["pfm"][:12])])
    rows.append(["overlay changes", str(len(data["overlay"])), ""])
    print(table(None, rows))
    r = data["routes"]
    print()
    print(f"routes over {r['chain_pairs_compared']} ordered chain pairs ({r['chains_compared']} chains in both): "
          f"{r['pairs_old']} → {r['pairs_new']} asset pairs; gained {r['pairs_gained']}, lost {r['pairs_lost']}, "
          f"changed {r['pairs_changed']}")
    moved = [s for s in r["per_chain"] if s["gained_out"] or s["lost_out"] or s["changed_out"]
             or s["gained_in"] or s["lost_in"] or s["changed_in"]]
    moved.sort(key=lambda s: (-(s["gained_out"] + s["lost_out"] + s["changed_out"] + s["gained_in"]
                                + s["lost_in"] + s["changed_in"]), s["chain_id"]))
    if moved:
        print(table(["CHAIN", "OUT +", "OUT -", "OUT ~", "IN +", "IN -", "IN ~"],
                    [[s["chain_id"], *(str(s[k]) for k in ("gained_out", "lost_out", "changed_out", "gained_in",
                                                          "lost_in", "changed_in"))] for s in moved[:25]]))
    if pairs_shown > 0 and diff.pairs:
        print()
        print(f"first {min(pairs_shown, len(diff.pairs))} of {len(diff.pairs)} changed pairs:")
        rows = []
        for p in diff.pairs[:pairs_shown]:
            before = "" if p.old_txs_required is None else f"{p.old_txs_required} tx {'+'.join(p.old_bridges or ())}"
            after = "" if p.new_txs_required is None else f"{p.new_txs_required} tx {'+'.join(p.new_bridges or ())}"
            rows.append([p.change, p.source_chain_id, p.dest_chain_id, p.symbol or "?", shorten(p.source_denom),
                         before, after])
        print(table(["CHANGE", "SOURCE", "DEST", "SYMBOL", "DENOM", "BEFORE", "AFTER"], rows))


def _cmd_diff(args: argparse.Namespace) -> int:
    from ._registry import load_registry

    if args.pairs < 0:
        raise _UsageError(f"--pairs must be 0 or more, got {args.pairs}")
    old = load_registry(args.old)
    new = load_registry(args.new)
    flags = {name: getattr(args, name) for name in _DIFF_FLAGS}
    diff = old.diff(new, progress=_diff_progress("diff"), **flags)
    if args.json:
        _write_bytes(diff.to_json())
    else:
        _print_diff(diff, args.pairs)
    return 0


def _cmd_what_if(args: argparse.Namespace) -> int:
    from ._registry import load_registry

    if args.pairs < 0:
        raise _UsageError(f"--pairs must be 0 or more, got {args.pairs}")
    pfm = dict(_on_off(text, "--pfm") for text in args.pfm)
    forwarding = dict(_on_off(text, "--bridge-forwards") for text in args.bridge_forwards)
    if not (pfm or args.close_channel or forwarding):
        raise _UsageError("what-if needs at least one change: --pfm, --close-channel or --bridge-forwards")
    registry = load_registry(args.registry)
    scenario = registry.with_changes(pfm=pfm, closed_channels=args.close_channel, forwarding_bridges=forwarding)
    flags = {name: getattr(args, name) for name in _DIFF_FLAGS}
    diff = registry.diff(scenario, progress=_diff_progress("what-if"), **flags)
    assert scenario.what_if is not None
    if args.json:
        body = diff.to_dict()
        body["scenario"] = scenario.what_if.to_dict()
        _write_bytes(dumps(body))
    else:
        print(f"scenario: {scenario.what_if.describe()}")
        _print_diff(diff, args.pairs)
    return 0


def _add_diff_flags(parser: argparse.ArgumentParser) -> None:
    _add_options(parser, BetweenChainsOptions)
    parser.add_argument("--pairs", type=int, default=20, metavar="N",
                        help="how many changed asset pairs to list in the text output (default 20)")
    parser.add_argument("--json", action="store_true", help="print the whole diff as JSON (no trailing newline)")


# -- parser ----------------------------------------------------------------------------------


def _venue_arg(text: str) -> SwapVenue:
    name, sep, chain_id = text.partition(":")
    if not sep or not name or not chain_id:
        raise argparse.ArgumentTypeError(f"expected NAME:CHAIN_ID, got {text!r}")
    return SwapVenue(name, chain_id)


def _add_options(parser: argparse.ArgumentParser,
                 options: type[BetweenChainsOptions] | type[FromSourceOptions]) -> None:
    """One command-line option per lookup option, named after its field (``--allow-multi-tx``)."""
    for f in option_fields(options):
        flag, kind, doc = "--" + f.name.replace("_", "-"), f.metadata["kind"], f.metadata["doc"]
        if kind == "bool":
            parser.add_argument(flag, action="store_true", dest=f.name, help=doc)
        elif kind == "reason":
            parser.add_argument(flag, metavar="R", dest=f.name, default=None,
                                help=f"{', '.join(RECOMMENDATION_REASONS)} (or 0-{len(RECOMMENDATION_REASONS) - 1})")
        elif kind == "group_by":
            parser.add_argument(flag, metavar="G", dest=f.name, default=None,
                                help=f"{GROUP_BY_VALUES[0]} (default) or {', '.join(GROUP_BY_VALUES[1:])}")
        elif kind == "venues":
            parser.add_argument("--swap-venue", metavar="NAME:CHAIN_ID", action="append", type=_venue_arg,
                                default=[], dest=f.name,
                                help="a swap venue for --include-swaps (repeatable; default: every known venue)")
        else:  # pragma: no cover - every kind of option is handled above
            raise ValueError(kind)


def _add_source(parser: argparse.ArgumentParser, *, remote: bool = True) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--registry", metavar="SOURCE", default=None,
                       help="registry directory, archive or URL (default: $ASSETROUTE_REGISTRY, "
                            "else the pinned cosmos/chain-registry archive)")
    if remote:
        group.add_argument("--base-url", metavar="URL", default=None,
                           help="ask a compatible HTTP service instead of loading a registry")


def _add_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true",
                        help="print exactly the HTTP response body (no trailing newline)")


def build_parser(prog: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of :func:`main`."""
    parser = argparse.ArgumentParser(
        prog=prog, description="Which tokens can move between chains of the Cosmos chain registry, "
                               "and what they become on arrival.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def lookup_command(name: str, func: Callable[[argparse.Namespace], int], help: str) -> argparse.ArgumentParser:
        """A command that asks a registry or a service (``--registry`` / ``--base-url``), with ``--json``."""
        p = sub.add_parser(name, help=help)
        _add_json(p)
        _add_source(p)
        p.set_defaults(func=func)
        return p

    p = lookup_command("between", _cmd_between, "assets of one chain paired with what they become on another")
    p.add_argument("source_chain_id", metavar="SRC")
    p.add_argument("dest_chain_id", metavar="DEST")
    _add_options(p, BetweenChainsOptions)

    p = lookup_command("from-source", _cmd_from_source, "every asset one asset can become, per chain")
    p.add_argument("source_asset_denom", metavar="DENOM")
    p.add_argument("source_asset_chain_id", metavar="CHAIN")
    _add_options(p, FromSourceOptions)

    lookup_command("chains", _cmd_chains, "the routable chains")
    lookup_command("bridges", _cmd_bridges, "the bridge kinds the default answers route over")
    lookup_command("venues", _cmd_venues, "the overlay's swap venues")

    p = lookup_command("assets", _cmd_assets, "the assets of every routable chain (or of --chain-id ...)")
    p.add_argument("--chain-id", action="append", metavar="CHAIN_ID", help="only this chain (repeatable)")
    for name in ASSETS_FLAGS:
        p.add_argument("--" + name.replace("_", "-"), dest=name, action="store_true")

    p = lookup_command("origin", _cmd_origin, "the IBC origin of each DENOM CHAIN_ID pair")
    p.add_argument("pairs", nargs="+", metavar="DENOM CHAIN_ID")

    p = lookup_command("recommend", _cmd_recommend, "what one asset is recommended as on each destination chain")
    p.add_argument("source_asset_denom", metavar="DENOM")
    p.add_argument("source_asset_chain_id", metavar="CHAIN_ID")
    p.add_argument("dest_chain_ids", nargs="+", metavar="DEST_CHAIN_ID")
    p.add_argument("--reason", metavar="R", help="UNKNOWN, BASE_TOKEN, MOST_LIQUID (default) or DIRECT, or 0-3")

    p = sub.add_parser("registry", help="about the loaded registry")
    reg_sub = p.add_subparsers(dest="registry_command", metavar="COMMAND", required=True)
    info = reg_sub.add_parser("info", help="provenance, counts and data-quality summary")
    info.add_argument("--issues", type=int, default=DEFAULT_ISSUES, metavar="N",
                      help=f"how many data-quality issues to list (default {DEFAULT_ISSUES})")
    _add_json(info)
    _add_source(info, remote=False)
    info.set_defaults(func=_cmd_registry_info)

    p = sub.add_parser("serve", help="run the HTTP service (uvicorn)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--log-level", default="info",
                   choices=["critical", "error", "warning", "info", "debug", "trace"])
    p.add_argument("--max-body-bytes", type=int, default=64 * 1024, metavar="N",
                   help="largest accepted request body (default 65536); larger ones get 413")
    p.add_argument("--no-access-log", action="store_true", help="do not log every request")
    p.add_argument("--lookup-timeout", type=float, default=10.0, metavar="S",
                   help="time budget of one lookup, waiting for a thread included (default 10); "
                        "past it: 504 with gRPC code 4 (DEADLINE_EXCEEDED)")
    p.add_argument("--lookup-threads", type=int, default=4, metavar="N",
                   help="threads computing answers that are not cached yet, per worker (default 4)")
    p.add_argument("--response-cache-bytes", type=int, default=64 * 1024 * 1024, metavar="N",
                   help="bytes of answers kept per worker (default 67108864; 0: no cache)")
    p.add_argument("--timeout-idle", type=float, default=5.0, metavar="S",
                   help="close a connection with no request started within S seconds of opening or of "
                        "the previous response (default 5)")
    p.add_argument("--timeout-header", type=float, default=10.0, metavar="S",
                   help="a request head must be complete within S seconds of the connection opening or "
                        "the previous response, else 408 and close (default 10)")
    p.add_argument("--timeout-body", type=float, default=30.0, metavar="S",
                   help="a request body must be complete within S seconds of its head, else 408 and "
                        "close (default 30)")
    p.add_argument("--limit-concurrency", type=int, default=1000, metavar="N",
                   help="open connections or running requests per worker over which requests get 503 "
                        "with gRPC code 14 (default 1000)")
    p.add_argument("--cors-origins", default="*", metavar="ORIGINS",
                   help="comma-separated origins whose browser pages may call the service, '*' for any "
                        "(default: the data is public and read-only), 'none' for no CORS headers")
    p.add_argument("--max-header-bytes", type=int, default=16 * 1024, metavar="N",
                   help="largest request head (request line and headers); larger: 431 (default 16384)")
    _add_source(p, remote=False)
    p.set_defaults(func=_cmd_serve)

    p = sub.add_parser("diff", help="what changed between two registries (chains, channels, assets, routes)")
    p.add_argument("old", metavar="OLD", help="registry source: directory, archive, URL or owner/repo@<commit>")
    p.add_argument("new", metavar="NEW", help="registry source, as OLD")
    _add_diff_flags(p)
    p.set_defaults(func=_cmd_diff)

    p = sub.add_parser("what-if", help="what would change under other PFM, channel or bridge assumptions")
    p.add_argument("--pfm", metavar="CHAIN=on|off", action="append", default=[],
                   help="turn packet forwarding on or off on a chain (repeatable)")
    p.add_argument("--close-channel", metavar="CHAIN:CHANNEL", action="append", default=[],
                   help="close a channel (CHAIN_ID:channel-N) or every channel between two chains "
                        "(CHAIN_ID/CHAIN_ID) (repeatable)")
    p.add_argument("--bridge-forwards", metavar="KIND=on|off", action="append", default=[],
                   help="whether a bridge kind forwards onward in the same transaction (repeatable)")
    _add_diff_flags(p)
    _add_source(p, remote=False)
    p.set_defaults(func=_cmd_what_if)
    return parser


def _prog() -> str:
    return "python -m assetroute_core" if sys.argv[0].endswith("__main__.py") else "assetroute"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 ok, 2 bad input, 1 other failure)."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if callable(reconfigure):
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="replace")
    prog = _prog()
    parser = build_parser(prog)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # usage error (2) or --help (0)
        return exc.code if isinstance(exc.code, int) else 2
    try:
        code: int = args.func(args)
        return code
    except (RequestError, _UsageError) as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    except AssetRouteError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): make the final flush at exit quiet
        with contextlib.suppress(OSError, ValueError, AttributeError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except SystemExit as exc:  # uvicorn exits this way when it cannot bind
        return exc.code if isinstance(exc.code, int) else 1
    except Exception as exc:
        print(f"{prog}: error: unexpected {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
