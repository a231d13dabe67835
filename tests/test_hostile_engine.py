"""The engine on hostile registries: bounded links, bounded memo tables, consistent generations.

Issue 13, items 5 and 6. Each damaged registry is built at test time as a copy of the real snapshot
in ``tmp_path`` plus generated files; the load and a bounded series of queries run in a
child process under an address-space limit (``RLIMIT_AS``) and a time limit, and the child's peak
memory is asserted under a stated cap. On the engine before these fixes both cases fail: the CCTP
family made N(N+1)/2 links (2,000 members: 2 M links, seconds per lookup, over a GB), and the memo
tables grew with every query (10k natives on Osmosis: tens of MB per neighbour queried).
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import assetroute_core as ar

REPO = Path(__file__).resolve().parents[1]
USDC = "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"  # Ethereum USDC, the root of Circle's family
ADDRESS_SPACE_LIMIT = 3 * 2**30  # the child is stopped (MemoryError) beyond this
FAMILY_MEMBERS = 2_000
FAMILY_RSS_CAP_MIB = 400  # load + 6 lookups over 2,000 members; was > 1.5 GB with N² links
FAMILY_TIME_CAP_S = 25.0
NATIVES = 10_000
NEIGHBOURS_QUERIED = 8
TEST_MAX_WEIGHT = 300_000  # ≈ 30 MB of tables: a generation lasts 1–2 of these queries
MEMO_RSS_CAP_MIB = 200  # load ≈ 60 MB; before the fix each query added ≈ 27 MB (8 queries: ≈ 280 MB)
MEMO_GROWTH_CAP_MIB = 60  # from the first query to the last (before the fix: ≈ 190 MB)
MEMO_TIME_CAP_S = 40.0


def _farm(snapshot: Path, root: Path, *, replace: dict[str, Any]) -> Path:
    """A copy of *snapshot* (without testnets; real files, since a directory source never follows a
    link out of its root) at *root*, with the files of *replace* written over it."""
    shutil.copytree(snapshot, root, ignore=shutil.ignore_patterns(".git", "testnets"))
    for rel, content in replace.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            path.chmod(0o644)
        path.write_text(content if isinstance(content, str) else json.dumps(content))
    return root


def _run_child(script: str, registry: Path, timeout: float) -> tuple[dict[str, Any], float]:
    """Run *script* in a fresh interpreter under the address-space limit; its last stdout line is JSON."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE_LIMIT, ADDRESS_SPACE_LIMIT))

    env = {**os.environ, "PYTHONPATH": str(REPO), "FARM": str(registry)}
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                          timeout=timeout * 3, preexec_fn=limit, check=False)
    elapsed = time.perf_counter() - started
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1]), elapsed


_PEAK = """
def peak_mib():
    # VmHWM: this process's own peak resident memory (ru_maxrss would include the forking parent's).
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) / 1024
"""

_FAMILY_CHILD = _PEAK + """
import json, os, time
import assetroute_core as ar
t = time.perf_counter()
reg = ar.load_registry(os.environ["FARM"])
load_s = time.perf_counter() - t
cctp = [l for l in reg.bridge_links() if l.kind == "CCTP"]
all_flags = dict(include_no_metadata_assets=True, include_cw20_assets=True, include_evm_assets=True,
                 allow_multi_tx=True)
out = {"load_s": load_s, "cctp_links": len(cctp)}
out["farm_to_noble"] = len(reg.assets_between_chains("usdcfarm-1", "noble-1", **all_flags).pairs)
out["noble_to_farm"] = len(reg.assets_between_chains("noble-1", "usdcfarm-1", **all_flags).pairs)
out["osmosis_to_farm"] = len(reg.assets_between_chains("osmosis-1", "usdcfarm-1", **all_flags).pairs)
out["farm_to_osmosis"] = len(reg.assets_between_chains("usdcfarm-1", "osmosis-1", **all_flags).pairs)
src = reg.assets_from_source("uusdc", "noble-1", allow_multi_tx=True)
out["noble_usdc_on_farm"] = len(src.dest_assets.get("usdcfarm-1", ()))
member = reg.assets_from_source("ufarm0", "usdcfarm-1", allow_multi_tx=True)
out["member_on_noble"] = [a.denom for a in member.dest_assets.get("noble-1", ())]
out["member_on_farm"] = len(member.dest_assets.get("usdcfarm-1", ()))
out["seconds"] = time.perf_counter() - t
out["maxrss_mib"] = peak_mib()
print(json.dumps(out))
"""


def test_cctp_family_links_through_its_root(registry_path: Path, tmp_path: Path) -> None:
    """2,000 listings minted by Circle from Ethereum USDC: linear links, bounded time and memory,
    and still every two members one CCTP hop apart (SPEC §3)."""
    members = [{"base": f"ufarm{i}", "symbol": "USDC", "name": "USDC", "display": "usdc", "type_asset": "sdk.coin",
                "denom_units": [{"denom": f"ufarm{i}", "exponent": 0}, {"denom": "usdc", "exponent": 6}],
                "traces": [{"type": "additional-mintage", "provider": "Circle",
                            "counterparty": {"chain_name": "ethereum", "base_denom": USDC}}]}
               for i in range(FAMILY_MEMBERS)]
    farm = _farm(registry_path, tmp_path / "registry", replace={
        "usdcfarm/chain.json": {"chain_name": "usdcfarm", "chain_id": "usdcfarm-1", "chain_type": "cosmos",
                                "status": "live", "pretty_name": "USDC farm"},
        "usdcfarm/assetlist.json": {"chain_name": "usdcfarm", "assets": members},
    })
    assert (farm / "usdcfarm" / "assetlist.json").stat().st_size > 500_000
    real = sum(1 for link in ar.load_registry(registry_path).bridge_links() if link.kind == "CCTP")
    out, elapsed = _run_child(_FAMILY_CHILD, farm, FAMILY_TIME_CAP_S)
    print(out, f"wall {elapsed:.1f} s")
    assert out["cctp_links"] == real + FAMILY_MEMBERS  # linear: one link per member, to the root
    assert out["noble_usdc_on_farm"] == FAMILY_MEMBERS  # Noble USDC reaches every member in one CCTP hop
    assert "uusdc" in out["member_on_noble"]  # one CCTP hop from any member to Noble USDC
    assert out["member_on_farm"] == FAMILY_MEMBERS - 1  # every other member, not itself
    assert out["farm_to_noble"] >= FAMILY_MEMBERS and out["noble_to_farm"] >= FAMILY_MEMBERS
    assert out["maxrss_mib"] < FAMILY_RSS_CAP_MIB
    assert out["seconds"] < FAMILY_TIME_CAP_S


_MEMO_CHILD = _PEAK.replace("{", "{{").replace("}", "}}") + """
import json, os, time
import assetroute_core as ar
t = time.perf_counter()
reg = ar.load_registry(os.environ["FARM"])
engine = reg.engine
engine.max_weight = {max_weight}
neighbours = [engine.chains[n].chain_id for n in engine.neighbours["osmosis"]][:{count}]
rss = []
for chain_id in neighbours:
    reg.assets_between_chains(chain_id, "osmosis-1", include_no_metadata_assets=True)
    rss.append(peak_mib())
held = len(reg.assets(neighbours[-1]))
print(json.dumps({{"queried": len(neighbours), "held_on_last": held, "generations": getattr(engine, "generations", 1),
                  "weight": getattr(engine, "memo_weight", lambda: 0)(), "rss_mib": rss,
                  "seconds": time.perf_counter() - t}}))
"""


def test_memo_tables_stay_bounded(registry_path: Path, tmp_path: Path) -> None:
    """10k natives on Osmosis: each neighbour then holds 10k derived vouchers, and ``between X →
    osmosis-1`` with unlisted assets shown (default flags never derive them) over a series of
    neighbours kept every one of them before. Now the engine retires a
    generation of memo tables at its cap (here a small one, so that a short series shows it; the
    default cap bounds the same way at ≈ 200 MB of tables), and memory stays flat."""
    osmosis = json.loads((registry_path / "osmosis" / "assetlist.json").read_text())
    osmosis["assets"] += [{"base": f"factory/osmo1farm/t{i}", "symbol": f"T{i}", "name": f"Token {i}",
                           "display": f"t{i}", "type_asset": "sdk.coin",
                           "denom_units": [{"denom": f"factory/osmo1farm/t{i}", "exponent": 0}]}
                          for i in range(NATIVES)]
    farm = _farm(registry_path, tmp_path / "registry", replace={"osmosis/assetlist.json": osmosis})
    script = _MEMO_CHILD.format(count=NEIGHBOURS_QUERIED, max_weight=TEST_MAX_WEIGHT)
    out, elapsed = _run_child(script, farm, MEMO_TIME_CAP_S)
    print(out, f"wall {elapsed:.1f} s")
    rss = out["rss_mib"]
    assert out["queried"] == NEIGHBOURS_QUERIED
    assert out["held_on_last"] > NATIVES  # the 10k derived vouchers are really there
    assert max(rss) < MEMO_RSS_CAP_MIB, rss
    assert rss[-1] - rss[0] < MEMO_GROWTH_CAP_MIB, rss  # flat, not growing with the queries
    assert out["generations"] > 2  # the cap was reached and fresh generations started
    assert out["weight"] < TEST_MAX_WEIGHT + 400_000  # at most one query's own growth past the cap
    assert out["seconds"] < MEMO_TIME_CAP_S


def test_generations_keep_answers_identical_under_concurrency(registry_path: Path) -> None:
    """A tiny cap makes the engine start fresh generations all the time while 8 threads look up:
    every answer equals the one a never-retired engine gives (interning stays correct)."""
    reference = ar.load_registry(registry_path)
    churned = ar.load_registry(registry_path)
    churned.engine.max_weight = 2_000
    all_flags = {"include_no_metadata_assets": True, "include_cw20_assets": True, "include_evm_assets": True,
                 "allow_multi_tx": True}
    pairs = [("osmosis-1", "cosmoshub-4"), ("cosmoshub-4", "osmosis-1"), ("1", "osmosis-1"),
             ("noble-1", "42161"), ("neutron-1", "osmosis-1"), ("osmosis-1", "core-1"),
             ("osmosis-1", "centauri-1"), ("secret-4", "osmosis-1")]
    sources = [("uatom", "cosmoshub-4"), ("uusdc", "noble-1"), ("uosmo", "osmosis-1"),
               (USDC, "1"), ("cw20:secret1fl449muk5yq8dlad7a22nje4p5d2pnsgymhjfd", "secret-4")]

    def answers(reg: ar.Registry, pick: int) -> list[Any]:
        out: list[Any] = []
        for i, (s, d) in enumerate(pairs):
            if (i + pick) % 2 == 0:
                reg.engine.results = type(reg.engine.results)(50_000)  # no cached answers: route every time
            out.append([pair.to_api() for pair in reg.assets_between_chains(s, d, **all_flags).pairs])
        for denom, chain in sources:
            out.append(reg.assets_from_source(denom, chain, allow_multi_tx=True).to_api())
        return out

    expected = answers(reference, 0)
    failures: list[str] = []

    def worker(n: int) -> None:
        for round_ in range(2):
            try:
                got = answers(churned, n + round_)
            except Exception as exc:  # an exception in a thread must fail the test, not only warn
                failures.append(f"thread {n} round {round_}: {exc!r}")
                continue
            if got != expected:
                failures.append(f"thread {n} round {round_}")

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    assert churned.engine.generations > 20
    assert reference.engine.generations == 1
