"""Measure assetroute on the full registry snapshot and print the figures (JSON with --json).

    ASSETROUTE_REGISTRY=../shared/chain-registry python benchmarks/bench.py

Measures, in one run:
  * the machine's speed on the day: a fixed pure-Python workload (none of assetroute's code), timed at
    the start and at the end of the run, so that absolute figures of different days can be read
    against each other (figures scale with it; the ratios below do not need it);
  * registry load (cold process-level: parse + index), goal <= 1.0 s, and memory;
  * assets_between_chains osmosis-1 -> cosmoshub-4 with every include flag and allow_multi_tx:
    the first (uncached) call in a fresh process after the load (median of three processes, and its
    ratio to serialising the response; issue 12's goal <= 10x), then p50 of repeated calls, against
    the time to serialise that response to JSON bytes measured in the same run (goals: p50 <= 2 ms
    and <= 3x serialise);
  * a sweep of every ordered pair of routable chains, default flags (issue 12's goal <= 2 s) and every
    flag of the reference's request (goal <= 12 s), on a fresh registry so nothing is cached, with the
    process's peak RSS;
  * HTTP on loopback, one uvicorn worker, cosmoshub-4 -> osmosis-1 at 16 connections
    (goal >= 800 requests/s, no errors); both lookups with one request in ten a chain pair never asked
    before (goal >= 2,000 requests/s); GET /v2/info/chains and GET /v2/fungible/assets (every
    chain) the same way (goal >= 500 requests/s);
  * the dashboard in headless Chromium (benchmarks/dashboard.py; alone with --dashboard, left out with
    --skip-dashboard): cold start against a bare Streamlit app, first and warm submit per lookup page;
  * registry history (in its own fresh process): the route-level diff of two full registries (the
    2026-05-20 archive of ../shared/registry-history against the snapshot) with default flags, goal
    <= 2.5x one default-flag sweep measured in the same process; a what-if (PFM off on cosmoshub-4,
    compared with the original) goal <= 1.5x that sweep; with the memory each adds.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from figures import print_figures  # noqa: E402

import assetroute_core as ar  # noqa: E402

# Every flag of the reference's request (include_other_bridges is our extension, and a choice of engine).
ALL_FLAGS = {"include_no_metadata_assets": True, "include_cw20_assets": True, "include_evm_assets": True,
             "include_svm_assets": True, "allow_multi_tx": True}


def _calibration_workload() -> int:
    """The engine's kind of work without its code: tuple keys, dict lookups, string splits, SHA-256 and
    small frozen objects. Never change it: its figures are only comparable with themselves."""
    import hashlib
    from dataclasses import dataclass

    @dataclass(frozen=True, slots=True)
    class Item:
        chain: str
        denom: str
        trace: str

    table: dict[tuple[str, str], Item] = {}
    for i in range(40_000):
        chain, denom = f"chain-{i % 240}", f"transfer/channel-{i % 97}/u{i}"
        table[(chain, denom)] = Item(chain, denom.rsplit("/", 1)[-1], denom.partition("/")[2])
    total = 0
    for chain, denom in list(table):
        found = table.get((chain, denom))
        if found is not None and found.trace:
            total += len(hashlib.sha256(f"{found.trace}/{found.denom}".encode()).hexdigest()) + len(chain)
    return total


def calibrate(rounds: int = 5) -> float:
    """Milliseconds of :func:`_calibration_workload`, best of *rounds* (about 0.1 s each here)."""
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        _calibration_workload()
        times.append(time.perf_counter() - started)
    return round(min(times) * 1000, 1)


def _source() -> str:
    return os.environ.get("ASSETROUTE_REGISTRY") or str(ROOT.parent / "shared" / "chain-registry")


def bench_load(source: str, repeats: int = 5) -> dict[str, object]:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        ar.load_registry(source)
        times.append(time.perf_counter() - started)
    tracemalloc.start()
    reg = ar.load_registry(source)
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {"load_s_min": round(min(times), 4), "load_s_median": round(statistics.median(times), 4),
            "load_traced_mib": round(current / 2**20, 1), "load_peak_mib": round(peak / 2**20, 1),
            "counts": dict(reg.provenance.counts), "goal_s": 1.0}


def bench_lookup(source: str, repeats: int = 200) -> dict[str, object]:
    reg = ar.load_registry(source)
    started = time.perf_counter()
    result = reg.assets_between_chains("osmosis-1", "cosmoshub-4", **ALL_FLAGS)
    cold = time.perf_counter() - started
    lookups, dumps = [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        result = reg.assets_between_chains("osmosis-1", "cosmoshub-4", **ALL_FLAGS)
        t1 = time.perf_counter()
        body = result.to_json()
        t2 = time.perf_counter()
        lookups.append(t1 - t0)
        dumps.append(t2 - t1)
    p50, dump50 = statistics.median(lookups), statistics.median(dumps)
    return {"pairs": len(result), "response_bytes": len(body), "first_call_ms": round(cold * 1000, 3),
            "p50_ms": round(p50 * 1000, 4), "p99_ms": round(sorted(lookups)[int(repeats * 0.99) - 1] * 1000, 4),
            "serialise_p50_ms": round(dump50 * 1000, 4), "ratio_to_serialise": round(p50 / dump50, 3),
            "goal_p50_ms": 2.0, "goal_ratio": 3.0}


def bench_sweep(source: str, flags: dict[str, bool]) -> dict[str, object]:
    reg = ar.load_registry(source)  # fresh: nothing cached
    chain_ids = [c.chain_id for c in reg.chains()]
    started = time.perf_counter()
    pairs = calls = 0
    for a in chain_ids:
        for b in chain_ids:
            if a != b:
                pairs += len(reg.assets_between_chains(a, b, **flags))
                calls += 1
    elapsed = time.perf_counter() - started
    return {"flags": "all" if flags else "default", "chains": len(chain_ids), "ordered_pairs": calls,
            "asset_pairs": pairs, "seconds": round(elapsed, 2), "goal_s": 12.0 if flags else 2.0,
            "max_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}


def _history_archive(source: str) -> str | None:
    folder = Path(os.environ.get("ASSETROUTE_HISTORY", "") or Path(source).parent / "registry-history")
    found = sorted(folder.glob("chain-registry-32d07e5cff6d*.tar.gz")) or sorted(folder.glob("*.tar.gz"))
    return str(found[-1]) if found else None


def bench_history(source: str) -> dict[str, object]:
    """Diff and what-if against one default-flag sweep, each on freshly loaded registries."""
    old_source = _history_archive(source)
    if old_source is None:
        return {"skipped": "no registry-history archive next to the snapshot"}

    def rss() -> float:
        return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)

    sweep_reg = ar.load_registry(source)
    chain_ids = [c.chain_id for c in sweep_reg.chains()]
    started = time.perf_counter()
    for a in chain_ids:
        for b in chain_ids:
            if a != b:
                sweep_reg.assets_between_chains(a, b)
    sweep_s = time.perf_counter() - started
    del sweep_reg
    rss_before = rss()

    old, new = ar.load_registry(old_source), ar.load_registry(source)
    started = time.perf_counter()
    diff = old.diff(new)
    diff_s = time.perf_counter() - started
    rss_diff = rss()
    del old, new

    base = ar.load_registry(source)
    started = time.perf_counter()
    scenario = base.with_changes(pfm={"cosmoshub-4": False})
    whatif = base.diff(scenario)
    whatif_s = time.perf_counter() - started
    rss_whatif = rss()
    del base, scenario
    # Memory of one what-if on its own (traced, so timed separately): a fresh base, then the scenario.
    base = ar.load_registry(source)
    tracemalloc.start()
    base.diff(base.with_changes(pfm={"cosmoshub-4": False}))
    _current, whatif_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "old": old_source, "new": source,
        "sweep_default_s": round(sweep_s, 2),
        "diff_s": round(diff_s, 2), "diff_ratio": round(diff_s / sweep_s, 3), "goal_diff_ratio": 2.5,
        "diff_pairs": {"gained": diff.pairs_gained, "lost": diff.pairs_lost, "changed": diff.pairs_changed,
                       "chains_added": len(diff.chains_added)},
        "whatif_s": round(whatif_s, 2), "whatif_ratio": round(whatif_s / sweep_s, 3), "goal_whatif_ratio": 1.5,
        "whatif_pairs_lost": whatif.pairs_lost,
        "whatif_traced_peak_mib": round(whatif_peak / 2**20, 1),
        "max_rss_after_sweep_mib": rss_before, "max_rss_after_diff_mib": rss_diff,
        "max_rss_after_whatif_mib": rss_whatif,
    }


def bench_http(source: str, requests: int, concurrency: int) -> dict[str, object]:
    from load import run_load, run_sync, serve

    with serve(registry=source, workers=1) as url:
        figures = run_sync(run_load(url, requests=requests, concurrency=concurrency, mix="between"))
    figures["goal_rps"] = 800
    return figures


def bench_http_uncached(source: str, requests: int, concurrency: int) -> dict[str, object]:
    """Both lookups over HTTP with one request in ten a chain pair never asked before (issue 12: >= 2,000
    requests/s, one worker), on a fresh service."""
    from load import UNCACHED_EVERY, run_load, run_sync, serve

    with serve(registry=source, workers=1) as url:
        figures = run_sync(run_load(url, requests=requests, concurrency=concurrency, mix="uncached"))
    out = {k: figures[k] for k in ("requests", "throughput_rps", "p50_ms", "p99_ms", "errors")}
    out["uncached_share"] = 1 / UNCACHED_EVERY
    out["goal_rps"] = 2000
    return out


def bench_http_info(source: str, requests: int, concurrency: int) -> dict[str, object]:
    """GET /v2/info/chains and GET /v2/fungible/assets (every chain), one worker (issue 10: >= 500 req/s)."""
    from load import run_load, run_sync, serve

    out: dict[str, object] = {}
    with serve(registry=source, workers=1) as url:
        for mix in ("info_chains", "info_assets"):
            figures = run_sync(run_load(url, requests=requests, concurrency=concurrency, mix=mix))
            out[mix] = {k: figures[k] for k in ("requests", "throughput_rps", "p50_ms", "p99_ms", "errors")}
    out["goal_rps"] = 500
    return out


def _dashboard(source: str) -> dict[str, object]:
    """The dashboard's figures (benchmarks/dashboard.py); a failure (no Chromium...) is reported, not raised."""
    try:
        from dashboard import bench_dashboard

        return bench_dashboard(source)
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--skip-sweep-all", action="store_true", help="only sweep with default flags")
    parser.add_argument("--skip-http", action="store_true")
    parser.add_argument("--only-history", action="store_true", help="only the registry-history figures")
    parser.add_argument("--http-requests", type=int, default=20000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--dashboard", action="store_true", help="only the dashboard figures (benchmarks/dashboard.py)")
    parser.add_argument("--skip-dashboard", action="store_true")
    args = parser.parse_args(argv)
    source = _source()
    figures: dict[str, object] = {"source": source, "python": sys.version.split()[0], "cpus": os.cpu_count(),
                                  "calibration_ms": {"start": calibrate()}}
    if args.only_history or args.dashboard:
        if args.dashboard:
            figures["dashboard"] = _dashboard(source)
        else:
            with multiprocessing.get_context("spawn").Pool(1, maxtasksperchild=1) as pool:
                figures["history"] = pool.apply(bench_history, (source,))
        figures["calibration_ms"]["end"] = calibrate()  # type: ignore[index]
        print_figures(figures, as_json=args.json)
        return 0
    figures["load"] = bench_load(source)
    # The lookup and each sweep run in a fresh process: a fresh registry, and no garbage of the stages
    # before it (the load stage leaves six registries to the collector, whose pass would land in the
    # "first call"). The first call is the median of three fresh processes.
    with multiprocessing.get_context("spawn").Pool(1, maxtasksperchild=1) as pool:
        runs = [pool.apply(bench_lookup, (source,)) for _ in range(3)]
        lookup = dict(runs[0])
        firsts = [float(r["first_call_ms"]) for r in runs]  # type: ignore[arg-type]
        lookup["first_call_ms"] = statistics.median(firsts)
        lookup["first_call_ms_runs"] = firsts
        lookup["first_call_to_serialise"] = round(statistics.median(firsts) / float(lookup["serialise_p50_ms"]), 1)  # type: ignore[arg-type]
        figures["lookup_osmosis_to_hub_all_flags"] = lookup
        figures["sweep_default"] = pool.apply(bench_sweep, (source, {}))
        if not args.skip_sweep_all:
            figures["sweep_all_flags"] = pool.apply(bench_sweep, (source, ALL_FLAGS))
        figures["history"] = pool.apply(bench_history, (source,))
    if not args.skip_http:
        figures["http_hub_to_osmosis"] = bench_http(source, args.http_requests, args.concurrency)
        figures["http_mixed_uncached"] = bench_http_uncached(source, args.http_requests, args.concurrency)
        figures["http_info"] = bench_http_info(source, args.http_requests // 4, args.concurrency)
    if not args.skip_dashboard:
        figures["dashboard"] = _dashboard(source)
    figures["calibration_ms"]["end"] = calibrate()  # type: ignore[index]
    print_figures(figures, as_json=args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
