"""The notebooks in ``notebooks/``: paired with their py:percent twins, public API only, and run end to end.

Every notebook is executed with nbclient over the real registry snapshot (``$ASSETROUTE_REGISTRY``, or
``../shared/chain-registry`` next to the repository; a missing snapshot fails, it is never skipped). The kernel
is a kernelspec written at test time that runs *this* interpreter (``sys.executable``) with the repository on
``PYTHONPATH``, so the notebooks see the package under test, not whatever ``python3`` kernel is installed.

Runtimes go to ``artifacts/notebook-timings.json`` (not asserted). Each notebook ends with a cell tagged
``headline`` that prints its key numbers as JSON; the tests recompute those numbers directly with the core
and compare.
"""

from __future__ import annotations

import json
import os
import re
import socket
import sys
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from importlib import resources
from pathlib import Path
from typing import Any

import jupytext
import nbformat
import networkx as nx
import pytest
import uvicorn
from jupytext.config import load_jupytext_config
from nbclient import NotebookClient

import assetroute_core as ar
from assetroute_core.network import chain_graph, top_chains
from assetroute_core.server import create_app

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"
NAMES = ["01_registry_tour", "02_connectivity", "03_asset_reach", "04_registry_history"]
TIMINGS = REPO / "artifacts" / "notebook-timings.json"
KERNEL = "assetroute-test"


def snapshot_path() -> Path:
    value = os.environ.get("ASSETROUTE_REGISTRY", "").strip()
    return Path(value) if value else REPO.parent / "shared" / "chain-registry"


@pytest.fixture(scope="module")
def snapshot() -> Path:
    path = snapshot_path()
    if not (path / "_IBC").is_dir():
        pytest.fail(f"registry snapshot not found at {path} (set ASSETROUTE_REGISTRY)")
    return path.resolve()


@pytest.fixture(scope="module")
def registry(snapshot: Path) -> ar.Registry:
    return ar.load_registry(snapshot)


@pytest.fixture(scope="module")
def kernel(snapshot: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A kernelspec for this interpreter, found through ``JUPYTER_PATH`` while the module runs."""
    root = tmp_path_factory.mktemp("jupyter")
    spec = root / "kernels" / KERNEL
    spec.mkdir(parents=True)
    pythonpath = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "assetroute tests",
        "language": "python",
        "env": {"PYTHONPATH": pythonpath, "ASSETROUTE_REGISTRY": str(snapshot)},
    }))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("JUPYTER_PATH", os.pathsep.join(p for p in (str(root), os.environ.get("JUPYTER_PATH", "")) if p))
        mp.setenv("ASSETROUTE_REGISTRY", str(snapshot))
        yield KERNEL


def read_ipynb(name: str) -> nbformat.NotebookNode:
    return nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)


def record_timing(name: str, seconds: float) -> None:
    TIMINGS.parent.mkdir(parents=True, exist_ok=True)
    try:
        data = json.loads(TIMINGS.read_text())
    except (OSError, ValueError):
        data = {}
    data[name] = {"seconds": round(seconds, 2), "python": sys.version.split()[0],
                  "registry": str(snapshot_path()), "measured_at": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    TIMINGS.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")


_executed: dict[tuple[str, str | None], nbformat.NotebookNode] = {}


def execute(name: str, kernel: str, *, base_url: str | None = None) -> nbformat.NotebookNode:
    """Run a notebook once per session (its .ipynb as committed) and record the wall time.

    *base_url* is injected into the parameters cell, as papermill would, to run the lookups remotely.
    """
    key = (name, base_url)
    if key not in _executed:
        nb = read_ipynb(name)
        if base_url is not None:
            params = next(c for c in nb.cells if "parameters" in c.metadata.get("tags", []))
            params.source = re.sub(r"^BASE_URL = None", f"BASE_URL = {base_url!r}", params.source, flags=re.M)
        started = time.perf_counter()
        NotebookClient(nb, timeout=600, kernel_name=kernel,
                       resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
        record_timing(name if base_url is None else f"{name} (BASE_URL)", time.perf_counter() - started)
        _executed[key] = nb
    return _executed[key]


def headline(nb: nbformat.NotebookNode) -> dict[str, Any]:
    cells = [c for c in nb.cells if "headline" in c.get("metadata", {}).get("tags", [])]
    assert len(cells) == 1, "exactly one cell tagged 'headline'"
    text = "".join(o.get("text", "") for o in cells[0].outputs if o.output_type == "stream" and o.name == "stdout")
    data: dict[str, Any] = json.loads(text.strip().splitlines()[-1])
    return data


def output_types(nb: nbformat.NotebookNode) -> Counter[str]:
    kinds: Counter[str] = Counter()
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.output_type == "error":
                kinds["error"] += 1
            for mime in out.get("data", {}):
                kinds[mime] += 1
            if "text/html" in out.get("data", {}) and "<iframe srcdoc=" in out["data"]["text/html"]:
                kinds["iframe"] += 1
    return kinds


# -- committed form ---------------------------------------------------------------------------


def test_every_notebook_is_paired() -> None:
    ipynbs = sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb"))
    scripts = sorted(p.stem for p in NOTEBOOKS.glob("*.py") if p.name != "conftest.py")
    assert ipynbs == NAMES
    assert scripts == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_py_and_ipynb_in_sync(name: str) -> None:
    """The .py twin is exactly what jupytext writes for the .ipynb, and vice versa cell by cell."""
    nb = read_ipynb(name)
    assert nb.metadata["jupytext"]["formats"] == "ipynb,py:percent"
    assert nb.metadata["kernelspec"]["name"] == "python3"
    config = load_jupytext_config(str(NOTEBOOKS))
    text = (NOTEBOOKS / f"{name}.py").read_text(encoding="utf-8")
    assert jupytext.writes(nb, fmt="py:percent", config=config) == text, (
        f"notebooks/{name}.py and .ipynb differ: run `jupytext --sync notebooks/{name}.ipynb`")
    twin = jupytext.reads(text, fmt="py:percent")
    assert [(c.cell_type, c.source, c.metadata.get("tags", [])) for c in twin.cells] == [
        (c.cell_type, c.source, c.metadata.get("tags", [])) for c in nb.cells]


@pytest.mark.parametrize("name", NAMES)
def test_committed_without_outputs(name: str) -> None:
    nb = read_ipynb(name)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None


@pytest.mark.parametrize("name", NAMES)
def test_parameters_cell(name: str) -> None:
    nb = read_ipynb(name)
    code = [c for c in nb.cells if c.cell_type == "code"]
    first = code[0]
    assert first.metadata.get("tags") == ["parameters"]
    assert re.search(r"^REGISTRY_SOURCE = None\b", first.source, re.M)
    assert re.search(r"^BASE_URL = None\b", first.source, re.M)
    assert sum("parameters" in c.metadata.get("tags", []) for c in code) == 1


@pytest.mark.parametrize("name", NAMES)
def test_public_api_only(name: str) -> None:
    """No underscore modules of the package, no ``registry.engine``."""
    nb = read_ipynb(name)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert not re.search(r"assetroute_core\._|\bar\._|\.engine\b|\._engine\b", code)
    for module in re.findall(r"from (assetroute_core[\w.]*) import", code):
        assert not any(part.startswith("_") for part in module.split("."))
    assert "import assetroute_core as ar" in code


@pytest.mark.parametrize("name", NAMES)
def test_setup_is_shared(name: str) -> None:
    """The setup is one call of ``assetroute_core.notebook.setup``, not a copied cell."""
    nb = read_ipynb(name)
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    setup_cell = code[1]  # right after the parameters
    assert "from assetroute_core.notebook import setup" in setup_cell
    assert "setup(REGISTRY_SOURCE, base_url=BASE_URL)" in setup_cell
    joined = "\n".join(code)
    # no second copy of the setup (02 loads overlay variants on purpose: load_registry(..., overlay=...))
    assert "load_registry(REGISTRY_SOURCE)" not in joined and "AssetRouteClient(" not in joined


# -- execution --------------------------------------------------------------------------------


def test_registry_tour(kernel: str, registry: ar.Registry) -> None:
    nb = execute("01_registry_tour", kernel)
    kinds = output_types(nb)
    assert kinds["application/vnd.plotly.v1+json"] >= 5 and not kinds["error"]
    h = headline(nb)
    all_chains = registry.chains(routable_only=False)
    assert h["chains"] == len(all_chains)
    assert h["routable_chains"] == len(registry.chains())
    assert h["chains_by_type_status"] == {f"{t}/{s}": n for (t, s), n in
                                          Counter((c.chain_type, c.status) for c in all_chains).items()}
    held = [a for c in registry.chains() for a in registry.assets(c.chain_id)]
    assert h["held_instances"] == len(held)
    assert h["listed_instances"] == sum(a.listed for a in held)
    assert h["derived_instances"] == sum(not a.listed for a in held)
    channels = registry.channels()
    assert h["channels"] == len(channels)
    assert h["channels_by_status"] == {k or "(untagged)": v for k, v in Counter(ch.status for ch in channels).items()}
    assert h["bridge_links_by_kind"] == dict(Counter(link.kind for link in registry.bridge_links()))
    assert h["quality_issues"] == len(registry.quality)
    assert h["hub_to_osmosis_pairs"] == len(registry.assets_between_chains("cosmoshub-4", "osmosis-1"))
    graph = chain_graph(registry)
    assert h["usable_transfer_channels_between_routable"] == sum(e.kind == "IBC" for e in graph.edges)


def test_connectivity(kernel: str, registry: ar.Registry) -> None:
    nb = execute("02_connectivity", kernel)
    kinds = output_types(nb)
    assert kinds["application/vnd.plotly.v1+json"] >= 6 and kinds["iframe"] == 1 and not kinds["error"]
    h = headline(nb)
    graph = chain_graph(registry)
    assert (h["nodes"], h["edges"]) == (len(graph.nodes), len(graph.edges))
    assert h["edges_by_kind"] == dict(Counter(e.kind for e in graph.edges))
    simple = nx.Graph()
    simple.add_nodes_from(c.chain_id for c in registry.chains())
    simple.add_edges_from((e.source, e.target) for e in graph.edges)
    components = sorted((len(c) for c in nx.connected_components(simple)), reverse=True)
    assert h["chain_pairs"] == simple.number_of_edges()
    assert (h["components"], h["giant_component"]) == (len(components), components[0])
    assert h["isolated"] == sum(1 for n in simple if simple.degree(n) == 0)
    top20 = top_chains(graph, 20)
    assert h["top20"] == top20 and h["top20"][:2] == ["osmosis-1", "cosmoshub-4"]

    def pairs(**flags: bool) -> list[ar.AssetPair]:
        return [p for s in top20 for d in top20 if s != d for p in registry.assets_between_chains(s, d, **flags)]

    assert h["listed_matrix_total"] == len(pairs())
    assert h["hub_to_osmosis_listed"] == len(registry.assets_between_chains("cosmoshub-4", "osmosis-1"))
    assert h["hub_to_osmosis_all"] == len(registry.assets_between_chains(
        "cosmoshub-4", "osmosis-1", include_no_metadata_assets=True))
    all_pairs = pairs(include_no_metadata_assets=True, allow_multi_tx=True)
    assert h["all_matrix_total"] == sum(p.txs_required == 1 for p in all_pairs)
    assert h["txs_multi"] == {str(k): v for k, v in Counter(p.txs_required for p in pairs(allow_multi_tx=True)).items()}
    shipped = {str(k): v for k, v in Counter(p.txs_required for p in all_pairs).items()}
    assert h["txs_by_pfm"]["shipped overlay"] == shipped
    # Same pairs under every PFM assumption; fewer single-transaction pairs without PFM, more with it everywhere.
    totals = {name: sum(d.values()) for name, d in h["txs_by_pfm"].items()}
    assert len(set(totals.values())) == 1, totals
    ones = {name: d.get("1", 0) for name, d in h["txs_by_pfm"].items()}
    assert ones["no PFM anywhere"] < ones["shipped overlay"] < ones["PFM on every Cosmos chain"]


def test_asset_reach(kernel: str, registry: ar.Registry) -> None:
    nb = execute("03_asset_reach", kernel)
    kinds = output_types(nb)
    assert kinds["application/vnd.plotly.v1+json"] >= 5 and kinds["iframe"] == 2 and not kinds["error"]
    h = headline(nb)
    assets = {
        "ATOM": ("uatom", "cosmoshub-4"), "OSMO": ("uosmo", "osmosis-1"), "TIA": ("utia", "celestia"),
        "NTRN": ("untrn", "neutron-1"), "USDC (Noble)": ("uusdc", "noble-1"),
        "axlUSDC (Axelar)": ("uusdc", "axelar-dojo-1"),
        "USDC (Ethereum)": ("0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", "1"),
    }
    assert set(h["reach"]) == set(assets)
    for label, (denom, chain_id) in assets.items():
        result = registry.assets_from_source(denom, chain_id, allow_multi_tx=True)
        fewest: dict[str, int] = {}
        for d in result:
            assert d.route is not None
            fewest[d.asset.chain_id] = min(fewest.get(d.asset.chain_id, 99), d.route.txs_required)
        got = h["reach"][label]
        assert got["chains"] == len(result.dest_assets), label
        assert got["instances"] == len(result), label
        assert got["chains_1_tx"] == sum(v == 1 for v in fewest.values()), label
        assert got["txs"] == {str(k): v for k, v in Counter(d.route.txs_required for d in result
                                                              if d.route is not None).items()}, label
        single = registry.assets_from_source(denom, chain_id)
        assert got["chains_1_tx"] == len(single.dest_assets), label
    assert h["reach"]["ATOM"]["chains"] > 50 and h["reach"]["USDC (Ethereum)"]["txs"].get("2", 0) > 0
    families = registry.assets_from_source("0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", "1", allow_multi_tx=True,
                                           group_by="recommended_symbol")
    assert h["usdc_eth_families"] == {k: len(v) for k, v in families.dest_assets.items()}
    assert {"USDC", "USDC.axl"} <= set(h["usdc_eth_families"])


# -- the same notebooks against the HTTP service ------------------------------------------------

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]]


@pytest.fixture(scope="module")
def service(registry: ar.Registry) -> Iterator[tuple[str, Counter[str]]]:
    """The project's HTTP service over the same registry, on a free local port; counts requests per path."""
    app = create_app(registry)
    calls: Counter[str] = Counter()

    async def counting(scope: Scope, receive: Callable[[], Awaitable[Any]],
                       send: Callable[[Any], Awaitable[None]]) -> None:
        if scope["type"] == "http":
            calls[scope["path"]] += 1
        await app(scope, receive, send)

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(counting, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the HTTP service did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}", calls
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
    assert app.state.service.internal_errors == 0


def test_registry_tour_against_the_service(kernel: str, service: tuple[str, Counter[str]]) -> None:
    url, calls = service
    before = calls["/v2/fungible/assets_between_chains"]
    remote = headline(execute("01_registry_tour", kernel, base_url=url))
    assert calls["/v2/fungible/assets_between_chains"] - before == 2
    assert remote == headline(execute("01_registry_tour", kernel))


def test_asset_reach_against_the_service(kernel: str, service: tuple[str, Counter[str]]) -> None:
    """Results read over HTTP carry no routes: counts come from assets_between_chains, and agree."""
    url, calls = service
    before = Counter(calls)
    nb = execute("03_asset_reach", kernel, base_url=url)
    used = Counter(calls)
    used.subtract(before)
    assert used["/v2/fungible/assets_from_source"] >= 10 and used["/v2/fungible/assets_between_chains"] > 100
    markdown = [o["data"]["text/markdown"] for c in nb.cells for o in c.get("outputs", [])
                if "text/markdown" in o.get("data", {})]
    assert any(url in text for text in markdown)
    remote, local = headline(nb), headline(execute("03_asset_reach", kernel))
    assert remote["usdc_eth_families"] == local["usdc_eth_families"]
    for label, got in remote["reach"].items():
        want = local["reach"][label]
        assert (got["chains"], got["instances"]) == (want["chains"], want["instances"]), label
        assert want["unknown_txs"] == 0
        assert sum(got["txs"].values()) + got["unknown_txs"] == got["instances"], label
        assert all(got["txs"].get(k, 0) <= n for k, n in want["txs"].items()), label
        assert got["unknown_txs"] <= 1, label  # only instances on the source chain itself stay unknown


def test_overlay_copy_is_what_the_notebook_modifies() -> None:
    """Notebook 02 rewrites the shipped overlay's pfm section; make sure that section still has that shape."""
    shipped = json.loads((resources.files("assetroute_core") / "data" / "overlay.json").read_text(encoding="utf-8"))
    assert shipped["pfm"] and all({"chain_name", "pfm_enabled", "source"} <= set(e) for e in shipped["pfm"])
