"""The load script, at small scale: a real service on loopback, a bounded mix, zero errors."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load_module():
    spec = importlib.util.spec_from_file_location("assetroute_load", ROOT / "benchmarks" / "load.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_load_script_small_mixed_run(registry_path):
    load = _load_module()
    requests = int(os.environ.get("ASSETROUTE_LOAD_REQUESTS", "1500"))
    with load.serve(registry=str(registry_path)) as url:
        figures = load.run_sync(load.run_load(url, requests=requests, concurrency=8, mix="mixed", max_seconds=120))
    print("\nload:", json.dumps(figures))
    out = ROOT / "artifacts"
    out.mkdir(exist_ok=True)
    (out / "load-small.json").write_text(json.dumps(figures, indent=2))
    assert figures["errors"] == 0, figures["error_samples"]
    assert figures["requests"] == requests
    assert figures["statuses"].get(404, 0) > 0  # the mix's unknown-chain request is answered 404, not 500
    assert set(figures["statuses"]) <= {200, 404}
    assert figures["throughput_rps"] > 0 and figures["p99_ms"] >= figures["p50_ms"]


def test_load_script_refuses_non_loopback_targets():
    load = _load_module()
    with pytest.raises(SystemExit, match="only loopback"):
        load.run_sync(load.run_load("http://192.0.2.1:8000", requests=1, concurrency=1))


def test_load_script_command_line(registry_path, capsys):
    load = _load_module()
    assert load.main(["--registry", str(registry_path), "--requests", "200", "--concurrency", "4", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["errors"] == 0 and figures["requests"] == 200


def test_load_script_uncached_mix_asks_new_pairs(registry_path):
    """One request in ten is a chain pair the service never answered: all of them are really distinct, and
    every request succeeds."""
    load = _load_module()
    with load.serve(registry=str(registry_path)) as url:
        built = load._with_uncached(url, [(b"hot", 200)], lambda items: [(repr(items).encode(), 200)], 300)
        figures = load.run_sync(load.run_load(url, requests=300, concurrency=4, mix="uncached", max_seconds=120))
    cold = [payload for payload, _ in built if payload != b"hot"]
    assert len(cold) == 300 // load.UNCACHED_EVERY and len(set(cold)) == len(cold)
    assert figures["errors"] == 0, figures["error_samples"]
    assert figures["requests"] == 300 and set(figures["statuses"]) <= {200, 404}
