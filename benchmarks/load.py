"""Drive a running (or self-started) assetroute HTTP service with a bounded request mix.

    python benchmarks/load.py --requests 20000 --concurrency 32            # starts the service itself
    python benchmarks/load.py --url http://127.0.0.1:8000 --requests 2000  # against a running one

Only loopback targets are allowed. The client is a minimal asyncio HTTP/1.1 keep-alive client
(one connection per worker) so that the load generator costs far less CPU than the server;
it reports throughput, p50/p99 latency and every error (non-200 status, bad body, socket error).
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import ipaddress
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

BETWEEN = "/v2/fungible/assets_between_chains"
FROM_SOURCE = "/v2/fungible/assets_from_source"

# The default mix: the benchmark query plus a spread of both lookups.
MIXES: dict[str, list[tuple[str, dict[str, object] | None]]] = {
    "between": [(BETWEEN, {"source_chain_id": "cosmoshub-4", "dest_chain_id": "osmosis-1"})],
    "mixed": [
        (BETWEEN, {"source_chain_id": "cosmoshub-4", "dest_chain_id": "osmosis-1"}),
        (BETWEEN, {"source_chain_id": "osmosis-1", "dest_chain_id": "neutron-1", "allow_multi_tx": True}),
        (BETWEEN, {"source_chain_id": "1", "dest_chain_id": "cosmoshub-4", "include_evm_assets": True,
                   "include_no_metadata_assets": True}),
        (FROM_SOURCE, {"source_asset_denom": "uatom", "source_asset_chain_id": "cosmoshub-4"}),
        (FROM_SOURCE, {"source_asset_denom": "uusdc", "source_asset_chain_id": "noble-1", "allow_multi_tx": True}),
        (FROM_SOURCE, {"source_asset_denom": "uosmo", "source_asset_chain_id": "osmosis-1",
                       "group_by": "recommended_symbol"}),
        (BETWEEN, {"source_chain_id": "cosmoshub-4", "dest_chain_id": "no-such-chain-1"}),  # expected 404
    ],
}
# The reference's read endpoints the SDK calls most (GET, no body): every chain, and every chain's assets.
MIXES["info_chains"] = [("/v2/info/chains", None)]
# "uncached": the "mixed" requests with one in ten a chain pair never asked before (built at run time).
MIXES["uncached"] = []
MIXES["info_assets"] = [("/v2/fungible/assets", None)]
# "heavy": 126 distinct requests (every ordered pair of 8 busy chains with multi-tx routes and every flag,
# both lookups with swaps and symbol grouping), so the service keeps computing and evicting, not only
# answering from its cache.
_BUSY = ["cosmoshub-4", "osmosis-1", "neutron-1", "noble-1", "axelar-dojo-1", "juno-1", "stride-1", "1"]
MIXES["heavy"] = [
    (BETWEEN, {"source_chain_id": a, "dest_chain_id": b, "allow_multi_tx": True, "include_evm_assets": True,
               "include_cw20_assets": True, "include_no_metadata_assets": flag})
    for a in _BUSY for b in _BUSY if a != b for flag in (False, True)
] + [
    (FROM_SOURCE, {"source_asset_denom": denom, "source_asset_chain_id": chain, "allow_multi_tx": True,
                   "include_swaps": True, "group_by": group, "include_cw20_assets": True})
    for denom, chain in (("uatom", "cosmoshub-4"), ("uosmo", "osmosis-1"), ("uusdc", "noble-1"),
                         ("untrn", "neutron-1"), ("uaxl", "axelar-dojo-1"), ("ujuno", "juno-1"),
                         ("ustrd", "stride-1"))
    for group in ("chain_id", "recommended_symbol")
]


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)


def _check_loopback(host: str) -> None:
    try:
        addr = ipaddress.ip_address(socket.gethostbyname(host))
    except (OSError, ValueError) as exc:
        raise SystemExit(f"cannot resolve {host!r}: {exc}") from None
    if not addr.is_loopback:
        raise SystemExit(f"refusing to load-test {host!r} ({addr}): only loopback targets are allowed")


def _request_bytes(host: str, port: int, path: str, body: dict[str, object] | None) -> bytes:
    if body is None:  # a GET
        return f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: keep-alive\r\n\r\n".encode()
    data = json.dumps(body).encode()
    head = (f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\nConnection: keep-alive\r\n\r\n")
    return head.encode() + data


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)}
    if "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    elif headers.get("transfer-encoding") == "chunked":
        chunks = []
        while True:
            size = int((await reader.readuntil(b"\r\n")).strip(), 16)
            chunk = await reader.readexactly(size + 2)
            if size == 0:
                break
            chunks.append(chunk[:-2])
        body = b"".join(chunks)
    else:
        raise ValueError("response without length")
    return status, body


async def _worker(host: str, port: int, requests: list[tuple[bytes, int]], counter: list[int], stats: Stats,
                  deadline: float) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    try:
        while time.perf_counter() < deadline:
            i = counter[0]
            if i >= counter[1]:
                return
            counter[0] += 1
            payload, expected = requests[i % len(requests)]
            started = time.perf_counter()
            try:
                writer.write(payload)
                status, body = await _read_response(reader)
                stats.statuses[status] = stats.statuses.get(status, 0) + 1
                if status != expected:
                    stats.errors.append(f"status {status}: {body[:120]!r}")
                elif not body.startswith(b"{"):
                    stats.errors.append(f"non-JSON body: {body[:120]!r}")
            except (OSError, ValueError, asyncio.IncompleteReadError) as exc:
                stats.errors.append(f"{type(exc).__name__}: {exc}")
                writer.close()
                reader, writer = await asyncio.open_connection(host, port)
                continue
            stats.latencies.append(time.perf_counter() - started)
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()


async def run_load(url: str, *, requests: int, concurrency: int, mix: str = "between",
                   max_seconds: float = 300.0, warmup: int = 200) -> dict[str, object]:
    """Send *requests* requests at *concurrency* connections; return the figures."""
    parsed = urllib.parse.urlsplit(url)
    host, port = parsed.hostname or "127.0.0.1", parsed.port or 80
    _check_loopback(host)
    def prepare(items: list[tuple[str, dict[str, object] | None]]) -> list[tuple[bytes, int]]:
        return [(_request_bytes(host, port, path, body),
                 404 if body is not None and body.get("dest_chain_id") == "no-such-chain-1" else 200)
                for path, body in items]

    prepared = warm = prepare(MIXES["mixed" if mix == "uncached" else mix])
    if mix == "uncached":
        # Every UNCACHED_EVERY-th request is a chain pair asked for the first time (seeded, never
        # repeated, half of them with every flag), so neither the response cache nor the engine's
        # results cache has it; the others are the "mixed" requests (warmed first, like a live service).
        prepared = _with_uncached(url, prepared, prepare, requests)
    # Warm up (fills caches, JIT-free but page cache and result cache), not counted.
    await asyncio.gather(*(_worker(host, port, warm, [0, warmup], Stats(), time.perf_counter() + 30)
                           for _ in range(min(concurrency, 4))))
    stats = Stats()
    counter = [0, requests]
    started = time.perf_counter()
    await asyncio.gather(*(_worker(host, port, prepared, counter, stats, started + max_seconds)
                           for _ in range(concurrency)))
    elapsed = time.perf_counter() - started
    lat = sorted(stats.latencies)
    done = len(lat)
    return {
        "url": url,
        "mix": mix,
        "concurrency": concurrency,
        "requests": done,
        "seconds": round(elapsed, 3),
        "throughput_rps": round(done / elapsed, 1) if elapsed else 0.0,
        "p50_ms": round(statistics.median(lat) * 1000, 3) if lat else None,
        "p99_ms": round(lat[min(done - 1, int(done * 0.99))] * 1000, 3) if lat else None,
        "errors": len(stats.errors),
        "error_samples": stats.errors[:5],
        "statuses": stats.statuses,
    }


UNCACHED_EVERY = 10


def _with_uncached(url: str, hot: list[tuple[bytes, int]], prepare: Any, requests: int) -> list[tuple[bytes, int]]:
    import random

    import httpx

    chains = [c["chain_id"] for c in httpx.get(f"{url}/v2/info/chains", timeout=30).json()["chains"]]
    pairs = [(a, b) for a in chains for b in chains if a != b]
    random.Random(12).shuffle(pairs)
    every = {"include_no_metadata_assets": True, "include_cw20_assets": True, "include_evm_assets": True,
             "include_svm_assets": True, "allow_multi_tx": True}
    out: list[tuple[bytes, int]] = []
    cold = iter(pairs)
    for i in range(requests):
        if i % UNCACHED_EVERY == UNCACHED_EVERY - 1:
            a, b = next(cold)
            body: dict[str, object] = {"source_chain_id": a, "dest_chain_id": b, **(every if i % 20 == 19 else {})}
            out.extend(prepare([(BETWEEN, body)]))
        else:
            out.append(hot[i % len(hot)])
    return out


def run_sync(coro: Any) -> Any:
    """Run *coro* to completion, in a fresh thread if this thread already runs an event loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serve(*, registry: str | None = None, workers: int = 1):
    """Start ``python -m assetroute_core serve`` on a free loopback port; yield its base URL."""
    port = _free_port()
    cmd = [sys.executable, "-m", "assetroute_core", "serve", "--host", "127.0.0.1", "--port", str(port),
           "--workers", str(workers), "--log-level", "warning"]
    if registry:
        cmd += ["--registry", registry]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 60
        while time.time() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"server exited with {proc.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                time.sleep(0.1)
        else:
            raise RuntimeError("server did not start within 60 s")
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="base URL of a running service on loopback (default: start one)")
    parser.add_argument("--registry", help="registry source for the self-started service")
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--mix", choices=sorted(MIXES), default="mixed")
    parser.add_argument("--max-seconds", type=float, default=300.0)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.requests <= 0 or args.concurrency <= 0:
        parser.error("--requests and --concurrency must be positive")

    def go(url: str) -> dict[str, object]:
        return run_sync(run_load(url, requests=args.requests, concurrency=args.concurrency, mix=args.mix,
                                 max_seconds=args.max_seconds))

    if args.url:
        figures = go(args.url)
    else:
        with serve(registry=args.registry) as url:
            figures = go(url)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:>14}: {value}")
    return 0 if figures["errors"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
