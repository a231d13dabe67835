"""The Streamlit glue of the dashboard: the frame around every page and the helpers pages call.

The only module of :mod:`assetroute_app` that imports :mod:`streamlit` (the package's
``__init__`` does not import it).  Everything testable without a browser lives in the other
modules of the package.

The frame and deep links
    ``app.py`` calls :func:`run_app`: page config, the registry, the shared sidebar and
    ``st.navigation`` over the scripts in ``pages/`` (one list, :data:`PAGES`), then the chosen
    page.  Streamlit also knows ``pages/`` on its own: until some run of a process calls
    ``st.navigation``, a folder named ``pages`` beside the entry point makes Streamlit route a
    URL such as ``/between_chains?…`` straight to ``pages/between_chains.py`` without running
    ``app.py`` (a deep link opened first on a fresh server; every ``AppTest`` run).  So each
    page starts with :func:`page_frame`: inside :func:`run_app` it does nothing; run on its own
    it draws the same frame and declares the same navigation (same ``url_path``, so Streamlit
    resolves the same page, with the link's query string), which also switches the process to
    navigation mode for good.  Only public Streamlit API; no script is executed twice.

    Streamlit serves the default page at ``/`` only (its ``url_path`` is always empty), so a
    page that is the default cannot also answer ``/between_chains``.  The first page of
    :data:`PAGES` is therefore the default, drawn at ``/`` and marked in the navigation there,
    and its script is also a second, hidden page at ``/between_chains`` (a page's identity is
    its ``url_path``, not its file): ``/?…`` and ``/between_chains?…`` links both work, and
    neither sends the browser on.  (Before, ``/`` was a hidden page that did, with
    ``st.switch_page``: a round trip and a second script run, about 0.2 s of the first page's
    cold start.)
"""

from __future__ import annotations

import contextvars
import functools
import os
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import streamlit as st

from assetroute_core import AssetRouteError, Registry, RemoteServiceError, RequestError
from assetroute_core.drawing import GraphSpec, render_html

from .backends import EmbeddedBackend, RemoteBackend, validate_base_url
from .frontend import PAINT_SIGNAL_JS, PENDING_PREFIX, RESULTS_GRID, result_chunks, settled_script
from .state import Problem, params_signature
from .store import LogoHosts, RegistryStore
from .tables import (
    quality_counts,
    quality_csv,
    quality_json,
    quality_rows,
    shown_logos,
    sorted_assets,
    sorted_chains,
)
from .text import asset_label, chain_label, md_code, md_escape

Q = TypeVar("Q")

DEFAULT_REMOTE = os.environ.get("ASSETROUTE_API_URL", "http://127.0.0.1:8000")
QUALITY_SHOWN = 20  # issues shown in the sidebar; the whole report is a download

# (file stem in pages/ = url_path, title, icon); the first is also the default page, at `/`.
PAGES: tuple[tuple[str, str, str], ...] = (
    ("between_chains", "Between chains", ":material/swap_horiz:"),
    ("from_source", "From source", ":material/hub:"),
    ("network", "Network", ":material/lan:"),
    ("changes", "Changes", ":material/history:"),
    ("what_if", "What if", ":material/science:"),
)


# -- the frame ---------------------------------------------------------------------------------------

_in_app: contextvars.ContextVar[bool] = contextvars.ContextVar("assetroute_in_app", default=False)


def _frame() -> Any:
    """Page config, registry, sidebar and navigation; returns the page Streamlit resolved."""
    st.set_page_config(page_title="assetroute · cross-chain token routes", page_icon=":material/route:",
                       layout="wide", initial_sidebar_state="expanded")
    (stem, title, icon), *rest = PAGES
    first = st.Page(f"pages/{stem}.py", title=title, icon=icon, url_path="home", default=True)  # at `/`
    alias = st.Page(f"pages/{stem}.py", title=title, icon=icon, url_path=stem, visibility="hidden")
    pages = [st.Page(f"pages/{stem}.py", title=title, icon=icon, url_path=stem) for stem, title, icon in rest]
    page = st.navigation([first, alias, *pages], position="top")
    sidebar(get_registry())
    return page


def run_app() -> None:
    """The body of ``app.py``: the frame, then the chosen page inside it."""
    page = _frame()
    token = _in_app.set(True)
    try:
        page.run()
    finally:
        _in_app.reset(token)


def page_frame() -> None:
    """First call of every page: draw the frame if Streamlit ran the page without ``app.py``."""
    if not _in_app.get():
        _frame()


# -- registry ----------------------------------------------------------------------------------------


_STORE = RegistryStore()  # one store per process: every session shares the loaded registry


def warm_up() -> None:
    """Load the registry.

    Run in a background thread as the server starts (``app.py``'s lifespan): the first page finds
    the registry loaded (or waits for the load under way).  A failed load is left to the first
    page, which loads again and shows why.  The first page draws no table, so pandas and the
    result pages' libraries are imported later, once it is on screen (:mod:`.serving`): here they
    would compete with the server sending the front end to the first browser.
    """
    import inspect

    try:
        _STORE.get(registry_source())
    except Exception:
        return

    # The first element a Streamlit process draws walks the stack with ``inspect`` (its check for a
    # REPL), which resolves the file of every module loaded so far, once: up to 0.3 s on the first
    # page of a loaded machine.  Fill that cache here instead.
    inspect.getmodule(inspect.currentframe())


def registry_source() -> str | None:
    """``$ASSETROUTE_REGISTRY`` if set; else ``None`` (``load_registry``'s default resolution)."""
    return os.environ.get("ASSETROUTE_REGISTRY") or None


@st.cache_resource(show_spinner=False, max_entries=2)
def _testnet_world(_reg: Registry, fingerprint: str) -> Registry | None:
    """The testnet world of a registry (its ``testnets/``), loaded once per process and shared."""
    return _reg.testnets()


def get_registry() -> Registry:
    """The registry of the world chosen in the sidebar (mainnets, or the registry's testnets, which never
    mix); shared by every session. The first load of the process shows its progress."""
    reg = _mainnet_registry()
    if st.session_state.get("world") != "testnet":
        return reg
    with st.spinner("Loading the testnet world…"):
        test = _testnet_world(reg, reg.provenance.fingerprint)
    if test is None:
        st.warning("This registry has no `testnets/` folder: showing mainnets.", icon=":material/warning:")
        return reg
    return test


def _mainnet_registry() -> Registry:
    store = _STORE
    source = registry_source()
    reg = store.peek(source)
    if reg is not None:
        return reg
    with st.status("Loading the chain registry…", expanded=True) as status:
        st.write(f"Source: {md_code(source or 'default (pinned chain-registry archive)')}")
        bar = st.progress(0.0, text="Resolving the registry source…")

        def progress(done: int, total: int | None) -> None:
            if total:
                bar.progress(min(done / total, 1.0), text=f"Downloading {done / 1e6:.1f} of {total / 1e6:.1f} MB")
            else:
                bar.progress(0.5, text=f"Downloading {done / 1e6:.1f} MB")

        try:
            started = time.perf_counter()
            bar.progress(0.2, text="Reading chains, channels and assetlists…")
            reg = store.get(source, progress=progress)
        except AssetRouteError as exc:
            status.update(label="The chain registry could not be loaded", state="error", expanded=True)
            st.error(f"Loading the registry failed: {md_escape(exc, limit=600)}")
            st.info("Set `ASSETROUTE_REGISTRY` to a chain-registry directory, archive or URL and restart.")
            st.stop()
        bar.progress(1.0, text="Indexed.")
        status.update(label=f"Chain registry loaded in {time.perf_counter() - started:.1f} s",
                      state="complete", expanded=False)
    return reg


@st.cache_resource(show_spinner=False, max_entries=8)
def _chain_index(_reg: Registry, fingerprint: str) -> tuple[list[str], dict[str, str], dict[str, str]]:
    chains = sorted_chains(_reg)
    ids = [c.chain_id for c in chains]
    labels = {c.chain_id: chain_label(c) for c in chains}
    names = {c.chain_id: (c.pretty_name or c.chain_name) for c in chains}
    return ids, labels, names


def chain_index(reg: Registry) -> tuple[list[str], dict[str, str], dict[str, str]]:
    """(chain-ids sorted by pretty name, picker labels, display names) of the routable chains."""
    return _chain_index(reg, reg.provenance.fingerprint)


@st.cache_resource(show_spinner=False, max_entries=64)
def _asset_index(_reg: Registry, fingerprint: str, chain_id: str) -> tuple[list[str], dict[str, str]]:
    assets = sorted_assets(_reg.assets(chain_id))
    return [a.denom for a in assets], {a.denom: asset_label(a) for a in assets}


def asset_index(reg: Registry, chain_id: str) -> tuple[list[str], dict[str, str]]:
    """(denoms in picker order, picker labels) of every asset held on a chain."""
    return _asset_index(reg, reg.provenance.fingerprint, chain_id)


def flag_grid(names: Sequence[str], per_row: int = 3) -> list[tuple[Any, str]]:
    """(column, name) for a grid of checkboxes, *per_row* to a row, so that their labels stay whole."""
    out: list[tuple[Any, str]] = []
    for i in range(0, len(names), per_row):
        out.extend(zip(st.columns(per_row), names[i:i + per_row], strict=False))
    return out


# -- sidebar -----------------------------------------------------------------------------------------


def sidebar(reg: Registry) -> None:
    """Backend switch, registry provenance, counts and the data-quality report."""
    p = reg.provenance
    counts = dict(p.counts)
    with st.sidebar:
        st.radio(
            "Chains", ["mainnet", "testnet"], key="world", horizontal=True,
            format_func=lambda v: "Mainnets" if v == "mainnet" else "Testnets",
            help="The registry's testnets (its `testnets/` folder) are a world of their own: they never mix "
                 "with mainnets in one answer.",
        )
        st.markdown("### Lookup backend")
        st.radio(
            "Answer lookups with", ["embedded", "remote"], key="backend",
            format_func=lambda v: "Embedded registry" if v == "embedded" else "Remote service (HTTP API)",
            help="The embedded registry is the one described below. A remote service is our own "
                 "`python -m assetroute_core serve` or any compatible API.",
        )
        if st.session_state.get("backend") == "remote":
            st.text_input("Service base URL", key="backend_url", value=DEFAULT_REMOTE,
                          help="POST /v2/fungible/assets_between_chains and /assets_from_source are called here.")
            try:
                validate_base_url(st.session_state.get("backend_url", ""))
            except ValueError as exc:
                st.error(md_escape(exc))
            st.caption("Route graphs and reach charts need routes, which the API does not carry: "
                       "they are only drawn with the embedded registry. Chain and asset pickers always "
                       "list the embedded registry.")
        st.divider()
        st.markdown("### Registry")
        commit = (p.commit or "unknown")[:12]
        st.markdown(
            f"**Source** {md_code(p.source, limit=120)} ({md_escape(p.kind)})  \n"
            f"**Commit** {md_code(commit)}  \n"
            f"**Fingerprint** {md_code(p.fingerprint[:16])}  \n"
            f"**Loaded** {md_escape(p.loaded_at)} in {p.load_seconds:.2f} s"
        )
        c1, c2 = st.columns(2)
        c1.metric("Routable chains", counts.get("routable_chains", 0))
        c2.metric("IBC channels", counts.get("usable_transfer_channels", 0), help="usable transfer channels")
        c1.metric("Listed assets", counts.get("listed_assets", 0))
        c2.metric("Bridge links", counts.get("bridge_links", 0))
        counts_box = st.expander("All counts", key="sidebar_counts", on_change="rerun")
        if counts_box.open:  # drawn when opened: the first page draws no data grid (see .frontend)
            counts_box.dataframe({"count": counts}, width="stretch")
        _quality(reg)
        st.caption("Data: Chain Registry, by the cosmos/chain-registry contributors (CC BY 4.0).")
        st.html(_settled_script(), unsafe_allow_javascript=True)


@functools.cache
def _settled_script() -> str:
    """Once a tab's page has settled: start the server's warm-up, load the result pages' front-end code."""
    return settled_script(result_chunks())


def _quality(reg: Registry) -> None:
    """The data-quality report: counts per severity, errors first, the first few rows, a download."""
    issues = reg.quality
    counts = quality_counts(issues)
    box = st.expander(f"Data-quality warnings ({len(issues)})", key="sidebar_quality", on_change="rerun")
    if not box.open:  # drawn when opened, its table too: the first page draws no data grid
        return
    with box:
        if not issues:
            st.write("No problems found.")
            return
        st.caption("Problems found while reading the registry and what the loader did about them.")
        st.markdown("  \n".join(f"**{n}** {s}{'' if n == 1 else 's'}" for s, n in counts.items() if n)
                    or "No problems found.")
        shown = quality_rows(issues, limit=QUALITY_SHOWN)
        if len(issues) > len(shown):
            st.caption(f"The first {len(shown)} of {len(issues)}, most severe first; download the whole report.")
        st.dataframe(
            shown, hide_index=True, width="stretch", height=min(38 + 35 * len(shown), 320),
            column_order=["severity", "file", "problem", "action"],
            column_config={"severity": st.column_config.TextColumn(width="small"),
                           "file": st.column_config.TextColumn(width="small"),
                           "problem": st.column_config.TextColumn(width="large")},
        )
        fingerprint = reg.provenance.fingerprint[:12]
        c1, c2 = st.columns(2)
        c1.download_button("CSV", lambda: quality_csv(issues), file_name=f"quality-{fingerprint}.csv",
                           mime="text/csv", icon=":material/download:", on_click="ignore", key="quality_csv")
        c2.download_button("JSON", lambda: quality_json(issues), file_name=f"quality-{fingerprint}.json",
                           mime="application/json", icon=":material/data_object:", on_click="ignore",
                           key="quality_json")


def backend(reg: Registry) -> EmbeddedBackend | RemoteBackend | None:
    """The backend chosen in the sidebar; ``None`` (with a message) when the URL is invalid. Testnets are
    always answered by the embedded registry: the HTTP lookups answer in the mainnet world."""
    if st.session_state.get("backend") != "remote":
        return EmbeddedBackend(reg)
    if reg.engine.data.testnet:
        st.info("Testnets are answered by the embedded registry (the HTTP lookups answer mainnets).",
                icon=":material/info:")
        return EmbeddedBackend(reg)
    url = st.session_state.get("backend_url", DEFAULT_REMOTE)
    try:
        return _remote(validate_base_url(url))
    except ValueError as exc:
        st.error(f"The remote service URL is not usable: {md_escape(exc)}")
        return None


@st.cache_resource(show_spinner=False, max_entries=4)
def _remote(url: str) -> RemoteBackend:
    return RemoteBackend(url)


# -- URL state ---------------------------------------------------------------------------------------


def url_params() -> dict[str, list[str]]:
    """The current query string, every key with all of its values."""
    return {k: st.query_params.get_all(k) for k in st.query_params}


def write_url(params: dict[str, Any], *, keep: tuple[str, ...] = ()) -> None:
    """Replace the query string (keeping the UI-only keys in *keep*)."""
    current = url_params()
    new: dict[str, Any] = {k: v for k, v in params.items() if v not in (None, "", [])}
    for k in keep:
        if k in current and k not in new:
            new[k] = current[k]
    if params_signature(new) != params_signature(current):
        st.query_params.from_dict(new)


def sync_url(page: str, parse: Callable[[dict[str, list[str]]], tuple[Q, list[Problem]]],
             seed: Callable[[Q], None], *, ui_keys: tuple[str, ...] = ()) -> dict[str, Any]:
    """Keep a page's request and its URL in step.

    When the URL carries a request this session has not applied yet (a shared link, a
    bookmark, back/forward), it is parsed, the widgets are seeded from it and — when it is
    complete and valid — it becomes the active request, so the link reproduces the query.
    An empty URL on a page that already has an active request (coming back from another
    page) restores that request's URL instead.  Returns the page state
    ``{"active": query | None, "problems": [...], "sig": ...}``.
    """
    state: dict[str, Any] = st.session_state.setdefault(f"{page}:url", {"sig": None, "problems": [], "active": None})
    params = url_params()
    request = {k: v for k, v in params.items() if k not in ui_keys}
    if not request and state["active"] is not None:
        write_url(state["active"].to_params(), keep=ui_keys)
        state["sig"] = params_signature(state["active"].to_params())
        return state
    sig = params_signature(request)
    if sig != state["sig"]:
        query, problems = parse(request)
        seed(query)
        state["sig"] = sig
        state["problems"] = problems
        errors = [p for p in problems if p.severity == "error"]
        state["active"] = query if getattr(query, "complete", True) and not errors else None
    return state


def commit_query(page: str, query: Any, *, keep: tuple[str, ...] = ()) -> None:
    """Make *query* the page's active request and write it to the URL."""
    state = st.session_state.setdefault(f"{page}:url", {"sig": None, "problems": [], "active": None})
    params = query.to_params()
    state.update(active=query, problems=[], sig=params_signature(params))
    write_url(params, keep=keep)


def await_query(state: dict[str, Any], backend_obj: object, hint: str) -> Any:
    """The page's active request; without one (or without a usable backend) a hint, and the page stops."""
    if state["active"] is None or backend_obj is None:
        if not state["problems"]:
            st.info(f"{hint} The address bar keeps the request, so the link can be shared.", icon=":material/info:")
        st.stop()
    return state["active"]


def show_problems(problems: list[Problem]) -> None:
    """Explain what was wrong with the link, without a traceback."""
    if not problems:
        return
    lines = "\n".join(f"- {p.markdown()}" for p in problems)
    st.error(f"**This link could not be used as it is.** The values below were ignored; "
             f"fix them in the form and submit again.\n\n{lines}", icon=":material/link_off:")


# -- lookups -----------------------------------------------------------------------------------------


def run_lookup(kind: str, backend_obj: Any, query: Any, call: Callable[[], Any]) -> Any | None:
    """Run (or reuse) a lookup; errors become messages, never tracebacks. ``None`` on error."""
    cache: dict[Any, Any] = st.session_state.setdefault("_lookup_cache", {})
    key = (kind, backend_obj.label, query)
    if key in cache:
        return cache[key]
    try:
        with st.spinner("Looking up routes…"):
            result = call()
    except RequestError as exc:
        value = f" ({md_code(exc.value)})" if exc.value is not None else ""
        st.error(f"The request was refused: {md_escape(exc.message)}{value}", icon=":material/block:")
        return None
    except RemoteServiceError as exc:
        st.error(f"The remote service failed: {md_escape(exc, limit=500)}", icon=":material/cloud_off:")
        return None
    except AssetRouteError as exc:
        st.error(f"The lookup failed: {md_escape(exc, limit=500)}", icon=":material/error:")
        return None
    except Exception as exc:  # a remote backend can fail in many ways; never show a traceback
        st.error(f"The lookup failed unexpectedly: {md_escape(type(exc).__name__)}: {md_escape(exc, limit=400)}",
                 icon=":material/error:")
        return None
    if len(cache) >= 6:
        cache.pop(next(iter(cache)))
    cache[key] = result
    return result


# -- the table first ---------------------------------------------------------------------------------

CHARTS_READY = "charts_ready"  # session key: this tab has drawn charts (it has their front-end code)


@functools.cache
def _paint_signal() -> Any:
    return st.components.v2.component("assetroute.table_painted", js=PAINT_SIGNAL_JS)


def _charts_now() -> None:
    st.session_state[CHARTS_READY] = True


def charts_ready(page: str) -> bool:
    """Whether a result page may draw its graphs and charts in this run; call it after the table.

    The first answer a browser tab shows draws its table alone.  The charts' front-end code
    (plotly's chunk: about 0.8 s of the tab's main thread, in one task) would otherwise be
    evaluated while the table paints, and hold its rows back.  A small component reports when
    the table has painted (two frames after the results grid's canvas appears; see
    :mod:`.frontend`); that reruns the script, and the charts are drawn then.  From then on the
    tab has that code, and its later answers draw table and charts in one run.
    """
    if st.session_state.get(CHARTS_READY):
        return True
    _paint_signal()(key=f"{page}_table_painted", data={"selector": RESULTS_GRID, "timeout_ms": 5000},
                    on_painted_change=_charts_now, height=0)
    return False


def after_table(page: str, draw: Callable[[], None], *, what: str) -> None:
    """Draw a result page's graphs and charts with *draw*, after its table: at once when the tab has drawn
    charts before, else once the table has painted (:func:`charts_ready`), with "Drawing the *what*…"
    meanwhile."""
    if charts_ready(page):
        draw()
    else:
        st.caption(f"{PENDING_PREFIX}{what}…")


def api_response(result: Any, *, name: str, key: str) -> None:
    """The exact JSON body of the lookup *name*, in an expander drawn when opened (the whole answer as a
    JSON tree is heavy to send and to draw, and few open it)."""
    box = st.expander(f"API response (exact JSON of `{name}`)", key=key, on_change="rerun")
    if box.open:
        box.json(result.to_api(), expanded=1)


# -- graphs ------------------------------------------------------------------------------------------


def graph(spec: GraphSpec, *, height: int = 460) -> None:
    """Show a graph view: self-contained HTML (no internet needed) in an iframe."""
    st.iframe(render_html(spec, height=height), height=height + 8)


@st.cache_resource(show_spinner=False)
def _logo_hosts() -> LogoHosts:
    return LogoHosts()


def logos(urls: Any, symbols: Any) -> list[str]:
    """A table's logo column as shown: reachable http(s) logos, else the symbol's initials."""
    return shown_logos(list(urls), list(symbols), _logo_hosts().reachable)


def logo_column(label: str = "") -> Any:
    return st.column_config.ImageColumn(label, width="small",
                                        help="Only http(s) logos are shown; initials stand in for a missing logo")
