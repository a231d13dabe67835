"""The public surface and the layering of the packages, checked from their source.

* Each public module's ``__all__`` is exactly the list below, in the order ruff's RUF022 keeps
  (constants, classes, then functions; alphabetical within each), every name exists and none is
  private — as httpx's ``test_exported_members``: a name added or removed must be a decision,
  made here too.
* The import graph of ``assetroute_core`` and ``assetroute_app`` (parsed with :mod:`ast`, imports
  under ``if TYPE_CHECKING:`` left out since they never run) has no cycle, and the engine modules
  reach nothing of the presentation, not even through other modules of the package.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("assetroute_core", "assetroute_app")

PUBLIC_API = {
    "assetroute_core": [
        "BETWEEN_CHAINS_OPTIONS", "FROM_SOURCE_OPTIONS", "GROUP_BY_VALUES", "PINNED_ARCHIVE_URL", "PINNED_COMMIT",
        "RECOMMENDATION_REASONS", "REFERENCE_BRIDGE_KINDS",
        "Asset", "AssetChange", "AssetPair", "AssetRouteError", "AssetsByChain", "BetweenChainsKwargs",
        "BetweenChainsOptions",
        "BetweenChainsResult", "Bridge", "BridgeLink", "Chain",
        "ChainChange", "ChainRouteSummary", "Channel", "ChannelChange", "ChannelEnd", "DestAsset", "FeeAsset",
        "FetchError",
        "FromSourceKwargs", "FromSourceOptions",
        "FromSourceResult", "GroupBy", "Hop", "InvalidArgumentError", "Metadata", "MethodNotAllowedError",
        "NotFoundError", "OptionKind", "OriginAssets",
        "Overlay", "OverlayChange", "OverlayError", "PairChange", "PayloadTooLargeError", "PfmChange", "Provenance",
        "QualityIssue", "RecommendRequest", "RecommendationReason", "Recommendations", "Registry", "RegistryDiff",
        "RegistryMeasures",
        "RegistrySourceError", "RemoteServiceError",
        "RequestError", "ResolvedSource", "Route", "SupportsLookups", "SwapVenue", "UnsafeArchiveError", "WhatIf",
        "ibc_denom", "load_overlay", "load_registry", "option_fields", "resolve_source", "unchecked_changes",
    ],
    "assetroute_core.client": ["AssetRouteClient"],
    "assetroute_core.server": [
        "CORS_ENV_VAR", "DEFAULT_CORS_ORIGINS", "DEFAULT_LOOKUP_THREADS", "DEFAULT_LOOKUP_TIMEOUT",
        "DEFAULT_MAX_BODY_BYTES", "DEFAULT_RESPONSE_CACHE_BYTES",
        "LOOKUP_THREADS_ENV_VAR", "LOOKUP_TIMEOUT_ENV_VAR", "MAX_BODY_ENV_VAR", "RESPONSE_CACHE_ENV_VAR",
        "Service", "app_from_env", "create_app", "parse_cors_origins",
    ],
    "assetroute_core.network": [
        "IBC", "UNTAGGED", "ChainEdge", "ChainGraph", "ChainNode",
        "chain_graph", "movable_matrix", "top_chains", "txs_distribution",
    ],
    "assetroute_core.notebook": ["NotebookSession", "setup"],
    "assetroute_core.drawing": [
        "BRIDGE_COLORS", "CHAIN_TYPE_COLORS", "OTHER_BRIDGE_COLOR", "OTHER_CHAIN_COLOR", "PRIMARY", "TXS_COLORS",
        "UNKNOWN_COLOR",
        "GraphEdge", "GraphNode", "GraphSpec",
        "bridge_color", "chain_network_graph", "destination_graph", "escape_label", "movable_heatmap",
        "pairs_summary", "reach_by_bridge", "reach_by_txs", "render_html", "route_graph", "txs_color",
    ],
    "assetroute_app": [
        "BETWEEN_COLUMNS", "BETWEEN_FLAGS", "DEFAULT_TOP_N", "FROM_SOURCE_COLUMNS", "FROM_SOURCE_FLAGS",
        "NETWORK_STATUSES", "OPTION_HELP", "OPTION_LABELS", "ORDERS", "ROUTE_COLUMNS",
        "Backend", "BetweenQuery", "EmbeddedBackend", "FromSourceQuery", "LogoHosts", "NetworkQuery", "Problem",
        "RegistryStore", "RemoteBackend",
        "asset_label", "between_summary", "between_table", "chain_label", "default_asset", "from_source_summary",
        "from_source_table", "group_label", "initials_logo", "md_code", "md_escape", "order_by_symbol",
        "params_signature", "parse_flag", "parse_order", "parse_pair", "preload_view_libraries", "quality_counts",
        "quality_csv", "quality_json", "quality_rows", "safe_logo", "shown_logos", "sorted_assets", "sorted_chains",
        "validate_base_url",
    ],
}

ENGINE = ("_loader", "_routing", "_lookups", "_options", "_results", "_registry", "_ibc", "_models", "_overlay",
          "_data", "_files", "_values", "_catalog", "_archive", "_fetch", "_diff", "_whatif")
PRESENTATION = ("streamlit", "plotly", "pyvis", "networkx", "IPython", "assetroute_core.drawing", "assetroute_app")


def _ruf022_key(name: str) -> tuple[int, str]:
    kind = 0 if name.isupper() else 1 if name[:1].isupper() else 2
    return kind, name


@pytest.mark.parametrize("module", sorted(PUBLIC_API))
def test_exported_members(module: str) -> None:
    mod = importlib.import_module(module)
    exported = list(mod.__all__)
    assert exported == PUBLIC_API[module], f"{module}.__all__ changed: update PUBLIC_API if that is intended"
    assert exported == sorted(exported, key=_ruf022_key)
    assert len(set(exported)) == len(exported)
    for name in exported:
        assert not name.startswith("_"), name
        assert hasattr(mod, name), f"{module}.{name} is exported but does not exist"


# -- the import graph --------------------------------------------------------------------------------


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(path: Path) -> set[str]:
    """Every module (and ``module.name``) *path* imports at run time, relative imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    skipped = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and _is_type_checking(node.test)
               for n in ast.walk(node)}
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            found.add(target)
            found |= {f"{target}.{alias.name}" for alias in node.names}
    return found


def _graph() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(edges between our modules, every import of each module)."""
    files = {_module_name(p): p for pkg in PACKAGES for p in (REPO / pkg).rglob("*.py")}
    raw = {m: _imports(p) for m, p in files.items()}
    edges = {m: {i for i in found if i in files and i != m} for m, found in raw.items()}
    return edges, raw


def _cycle(edges: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for n in sorted(edges[m]):
            if state.get(n) == 1:
                return [*stack[stack.index(n):], n]
            if n not in state and (found := visit(n)):
                return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(edges):
        if m not in state and (found := visit(m)):
            return found
    return None


def test_import_graph_has_no_cycle() -> None:
    edges, _ = _graph()
    assert "assetroute_core.drawing._views" in edges and "assetroute_app.ui" in edges  # the walk saw them
    assert _cycle(edges) is None, " → ".join(_cycle(edges) or [])
    # the check itself finds a cycle when there is one
    assert _cycle({**edges, "assetroute_core.drawing._spec": {"assetroute_core.drawing._views"}}) is not None


def test_engine_reaches_no_presentation() -> None:
    edges, raw = _graph()
    for engine in ENGINE:
        start = f"assetroute_core.{engine}"
        assert start in edges, start
        seen, todo = {start}, [start]
        while todo:  # everything the engine module imports, directly or through our other modules
            for n in edges[todo.pop()]:
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        bad = sorted(f"{m} imports {i}" for m in seen for i in raw[m]
                     if any(i == p or i.startswith(p + ".") for p in PRESENTATION))
        assert bad == [], bad


def test_core_package_does_not_import_the_app_or_drawing_at_import_time() -> None:
    import subprocess
    import sys

    code = ("import sys, assetroute_core, assetroute_core.client, assetroute_core.server, assetroute_core.network; "
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('streamlit', 'plotly', 'pyvis', "
            "'assetroute_app') or m.startswith('assetroute_core.drawing')); print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_app_package_imports_its_modules_on_first_use() -> None:
    """``assetroute_app``'s names are loaded on first use (PEP 562): ``app.py`` imports ``.serving`` to
    build the server, and that must not import the engine, Streamlit or pandas before the server answers."""
    import subprocess
    import sys

    import assetroute_app

    assert set(assetroute_app._SOURCES) == set(assetroute_app.__all__)
    for name, module in assetroute_app._SOURCES.items():
        assert getattr(assetroute_app, name) is getattr(importlib.import_module(f"assetroute_app.{module}"), name)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        assetroute_app.nothing  # noqa: B018
    code = ("import sys, assetroute_app.serving; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('assetroute_app', 'assetroute_core', 'streamlit', 'pandas')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO)
    loaded = ["assetroute_app", "assetroute_app.frontend", "assetroute_app.serving"]
    assert out.stdout.strip() == str(loaded), out.stdout
