"""Changes: what changed between two versions of the registry, and the headline measures over versions."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import streamlit as st

from assetroute_app import OPTION_LABELS, md_code, md_escape, ui
from assetroute_app.changes import (
    DIFF_FLAGS,
    ChangesQuery,
    Version,
    known_versions,
    measures_figure,
    measures_frame,
    summary_metrics,
)
from assetroute_core import AssetRouteError, Registry, RegistryDiff, RegistryMeasures, load_registry

ui.page_frame()

PAGE = "ch"
UI_KEYS = ("src", "dst")


@st.cache_resource(show_spinner=False)
def _cache() -> dict[str, Any]:
    """Per process: loaded versions (a few, by source), diffs and measures (by fingerprints)."""
    return {"lock": threading.Lock(), "registries": {}, "diffs": {}, "measures": {}}


def _remember(table: dict[Any, Any], key: Any, value: Any, limit: int) -> Any:
    if len(table) >= limit:
        table.pop(next(iter(table)))
    table[key] = value
    return value


def load_version(source: str, status: Any) -> Registry:
    """A registry version, loaded once per process (the dashboard's own registry is reused)."""
    cache = _cache()
    current = ui.get_registry()
    if source in ("", ui.registry_source()):
        return current
    if source in cache["registries"]:
        return cache["registries"][source]  # type: ignore[no-any-return]
    bar = status.progress(0.0, text=f"Loading {source[:80]}…")

    def progress(done: int, total: int | None) -> None:
        if total:
            bar.progress(min(done / total, 1.0), text=f"Downloading {done / 1e6:.1f} of {total / 1e6:.1f} MB")

    reg = load_registry(source, progress=progress)
    bar.progress(1.0, text=f"Loaded {source[:80]}")
    with cache["lock"]:
        return _remember(cache["registries"], source, reg, 6)  # type: ignore[no-any-return]


def compute(kind: str, key: Any, work: Callable[[Callable[[int, int], None]], Any], status: Any, text: str) -> Any:
    cache = _cache()
    table = cache[kind]
    if key in table:
        return table[key]
    bar = status.progress(0.0, text=text)

    def progress(done: int, total: int) -> None:
        bar.progress(done / max(total, 1), text=f"{text} {done}/{total} source chains")

    value = work(progress)
    with cache["lock"]:
        return _remember(table, key, value, 12)


reg = ui.get_registry()
known = known_versions(ui.registry_source())
labels = [v.label for v in known]
by_label: dict[str, Version] = {v.label: v for v in known}


def _seed(q: ChangesQuery) -> None:
    st.session_state["ch_old"] = q.old or (labels[-2] if len(labels) > 1 else labels[0])
    st.session_state["ch_new"] = q.new or labels[-1]
    for name, on in q.flags:
        st.session_state[f"ch_{name}"] = on
    st.session_state["ch_series"] = list(q.series) or labels


st.title("What changed")
st.caption("Compare two versions of the chain registry: chains, channels and listings that came and went, "
           "and the asset pairs of every chain pair that were gained, lost or changed. Pick a version from the "
           "list or type a commit (`cosmos/chain-registry@<40-hex commit>`), an archive URL or a path.")

state = ui.sync_url(PAGE, ChangesQuery.from_params, _seed, ui_keys=UI_KEYS)
ui.show_problems(state["problems"])

with st.form("ch_form"):
    c1, c2 = st.columns(2)
    for col, key, title in ((c1, "ch_old", "Older version"), (c2, "ch_new", "Newer version")):
        value = st.session_state.get(key)
        options = labels + ([value] if value and value not in labels else [])
        col.selectbox(title, options, key=key, accept_new_options=True,
                      help="A listed version, or type a commit `owner/repo@<commit>`, an archive URL or a path.")
    for col, name in ui.flag_grid(DIFF_FLAGS):
        col.checkbox(OPTION_LABELS[name], key=f"ch_{name}", help=f"`{name}` for every lookup compared")
    series_options = labels + [s for s in st.session_state.get("ch_series", []) if s not in labels]
    st.multiselect("Versions in the chart over time", series_options, key="ch_series", accept_new_options=True,
                   help="Each version's measures are computed once per server process.")
    submitted = st.form_submit_button("Compare", type="primary", icon=":material/compare_arrows:")

if submitted:
    q = ChangesQuery(st.session_state["ch_old"], st.session_state["ch_new"],
                     tuple((n, bool(st.session_state[f"ch_{n}"])) for n in DIFF_FLAGS),
                     tuple(st.session_state.get("ch_series") or ()))
    ui.commit_query(PAGE, q, keep=UI_KEYS)

query: ChangesQuery | None = state["active"]
if query is None:
    if not state["problems"]:
        st.info("Choose two versions and press **Compare**. The address bar keeps the request.",
                icon=":material/info:")
    st.stop()

old_source, new_source = query.sources(known)
flags = dict(query.flags)
try:
    with st.status("Comparing the two versions…", expanded=True) as status:
        old = load_version(old_source, status)
        new = load_version(new_source, status)
        diff: RegistryDiff = compute(
            "diffs", (old.provenance.fingerprint, new.provenance.fingerprint, query.flags),
            lambda progress: old.diff(new, progress=progress, **flags), status, "Comparing routes:")
        status.update(label="Compared", state="complete", expanded=False)
except AssetRouteError as exc:
    st.error(f"The comparison failed: {md_escape(exc, limit=600)}", icon=":material/error:")
    st.stop()

named = {v.source: v.label for v in known if v.source}
st.subheader(f"{md_escape(named.get(query.old or '', query.old))} → {md_escape(named.get(query.new or '', query.new))}",
             anchor=False)
st.caption(f"{md_code(old.provenance.source, limit=90)} ({md_escape(old.provenance.commit or 'commit unknown')}) → "
           f"{md_code(new.provenance.source, limit=90)} ({md_escape(new.provenance.commit or 'commit unknown')})"
           f" · flags: {md_escape(', '.join(n for n, on in query.flags if on) or 'default')}")
metrics = summary_metrics(diff)
for row in (list(metrics.items())[:4], list(metrics.items())[4:8], list(metrics.items())[8:]):
    cols = st.columns(4)
    for col, (name, value) in zip(cols, row, strict=False):
        col.metric(name, value)
if diff.is_empty:
    st.success("Nothing changed between these two versions.", icon=":material/check_circle:")

# -- measures over the versions ------------------------------------------------------------------
st.subheader("Over time", anchor=False)
series_labels = list(query.series) or labels
series: list[tuple[str, RegistryMeasures]] = []
try:
    with st.status("Measuring each version…", expanded=False) as status:
        for label in series_labels:
            source = by_label[label].source if label in by_label else label
            version = load_version(source, status)
            m = compute("measures", version.provenance.fingerprint,
                        lambda progress, v=version: v.measures(progress=progress), status, f"Measuring {label}:")
            series.append((label, m))
        status.update(label=f"Measured {len(series)} version(s)", state="complete", expanded=False)
except AssetRouteError as exc:
    st.error(f"A version of the chart could not be loaded: {md_escape(exc, limit=600)}", icon=":material/error:")
    series = []
if series:
    frame = measures_frame(series)
    st.plotly_chart(measures_figure(frame), width="stretch", config={"displayModeBar": False})
    st.caption("Single-transaction share: of all asset pairs between routable chains (multi-transaction routes "
               "included), those needing one transaction. Largest group: routable chains connected by usable "
               "transfer channels.")

# -- per chain -------------------------------------------------------------------------------------
st.subheader("Per chain", anchor=False)
per_chain = diff.to_frame("per_chain")
per_chain = per_chain.assign(moved=per_chain[["gained_out", "lost_out", "changed_out", "gained_in", "lost_in",
                                              "changed_in"]].sum(axis=1))
per_chain = per_chain.sort_values(["moved", "chain_id"], ascending=[False, True]).drop(columns=["moved"])
st.dataframe(per_chain, hide_index=True, width="stretch", height=360)
d1, d2, d3, _ = st.columns([1, 1, 1, 3])
d1.download_button("Per chain CSV", per_chain.to_csv(index=False).encode(), file_name="changes_per_chain.csv",
                   mime="text/csv", icon=":material/download:", on_click="ignore")
d2.download_button("Changed pairs CSV", diff.to_frame("pairs").to_csv(index=False).encode(),
                   file_name="changes_pairs.csv", mime="text/csv", icon=":material/download:", on_click="ignore")
d3.download_button("Whole diff JSON", diff.to_json(), file_name="changes.json", mime="application/json",
                   icon=":material/data_object:", on_click="ignore")

# -- one chain pair --------------------------------------------------------------------------------
st.subheader("One chain pair", anchor=False)
compared = [s.chain_id for s in diff.per_chain]
busiest = sorted({(p.source_chain_id, p.dest_chain_id) for p in diff.pairs},
                 key=lambda k: (-len(diff.pair_changes(*k)), k))
default_src, default_dst = busiest[0] if busiest else (compared[0] if compared else "", compared[-1] if compared
                                                                                     else "")
for key, default in (("src", default_src), ("dst", default_dst)):
    raw = st.query_params.get(key)
    if raw is not None and raw not in compared:
        st.warning(f"Link parameter `{key}` = {md_code(raw)} is not a chain compared here; using "
                   f"{md_code(default)}.", icon=":material/warning:")
        raw = None
    if f"ch_pair_{key}" not in st.session_state:
        st.session_state[f"ch_pair_{key}"] = raw or default
if compared:
    p1, p2 = st.columns(2)
    src = p1.selectbox("Source chain", compared, key="ch_pair_src")
    dst = p2.selectbox("Destination chain", compared, key="ch_pair_dst")
    for key, value in (("src", src), ("dst", dst)):
        if st.query_params.get(key) != value:
            st.query_params[key] = value
    changes = diff.pair_changes(src, dst)
    if src == dst:
        st.info("Pick two different chains.")
    elif not changes:
        st.info(f"No asset pair from {md_code(src)} to {md_code(dst)} changed.", icon=":material/check:")
    else:
        rows = [p.to_dict() for p in changes]
        for r in rows:
            r["changed_fields"] = ", ".join(r["changed_fields"])
            for k in ("old_bridges", "new_bridges"):
                r[k] = "" if r[k] is None else " → ".join(r[k])
        st.dataframe(rows, hide_index=True, width="stretch",
                     column_order=["change", "symbol", "source_denom", "old_dest_denom", "new_dest_denom",
                                   "old_txs_required", "new_txs_required", "old_bridges", "new_bridges",
                                   "changed_fields"])

with st.expander("Chains, channels and listings that changed"):
    t1, t2, t3, t4 = st.tabs(["Chains", "Channels", "Assets", "PFM and overlay"])
    t1.dataframe(diff.to_frame("chains"), hide_index=True, width="stretch")
    t2.dataframe(diff.to_frame("channels"), hide_index=True, width="stretch")
    t3.dataframe(diff.to_frame("assets"), hide_index=True, width="stretch")
    t4.dataframe(diff.to_frame("pfm"), hide_index=True, width="stretch")
    t4.dataframe(diff.to_frame("overlay"), hide_index=True, width="stretch")
