"""What if: the loaded registry under other assumptions (PFM, closed channels, bridge forwarding)."""

from __future__ import annotations

import threading
from typing import Any

import streamlit as st

from assetroute_app import OPTION_LABELS, md_code, md_escape, ui
from assetroute_app.changes import (
    DIFF_FLAGS,
    WhatIfQuery,
    channel_choices,
    heatmap_matrix,
    most_connected,
    whatif_table,
)
from assetroute_core import AssetRouteError, RegistryDiff, RequestError, drawing

ui.page_frame()

PAGE = "wi"
TOP_N = 12


@st.cache_resource(show_spinner=False)
def _cache() -> dict[str, Any]:
    """Per process: scenario diffs and heatmaps, by (registry fingerprint, scenario, flags)."""
    return {"lock": threading.Lock(), "diffs": {}, "heatmaps": {}}


reg = ui.get_registry()
ids, labels, names = ui.chain_index(reg)
pfm_now = sorted(c.chain_id for c in reg.chains() if c.pfm_enabled)
bridge_kinds = sorted({link.kind for link in reg.bridge_links()} | set(reg.overlay.bridges))
forwarding_now = sorted(k for k in bridge_kinds if reg.overlay.bridge(k).forwards)


def _seed(q: WhatIfQuery) -> None:
    changed = dict(q.pfm)
    st.session_state["wi_pfm"] = sorted({c for c in pfm_now if changed.get(c, True)}
                                        | {c for c, on in q.pfm if on})
    st.session_state["wi_close"] = list(q.close)
    fwd = dict(q.fwd)
    st.session_state["wi_fwd"] = sorted({k for k in forwarding_now if fwd.get(k, True)} | {k for k, on in q.fwd if on})
    for name, on in q.flags:
        st.session_state[f"wi_{name}"] = on


st.title("What if")
st.caption("Change the assumptions — which chains run packet-forward middleware, which channels are open, which "
           "bridges forward onward — and see which asset pairs between routable chains gain, lose or change "
           "transactions. The lists start from the overlay's facts; the registry itself is not copied.")

state = ui.sync_url(PAGE, lambda p: WhatIfQuery.from_params(p, reg), _seed)
ui.show_problems(state["problems"])

channel_chain = st.selectbox("Channels of", ids, index=ids.index("osmosis-1") if "osmosis-1" in ids else 0,
                             format_func=lambda c: labels.get(c, c), key="wi_channel_chain",
                             help="Pick a chain to list its usable transfer channels below.")
choices = dict(channel_choices(reg, channel_chain))
with st.form("wi_form"):
    st.multiselect("Chains running PFM", ids, key="wi_pfm", format_func=lambda c: labels.get(c, c),
                   help="Pre-filled from the overlay: remove a chain to turn PFM off, add one to turn it on.")
    current_close = list(st.session_state.get("wi_close", []))
    close_options = sorted(set(choices) | set(current_close))
    st.multiselect("Close channels", close_options, key="wi_close",
                   format_func=lambda s: choices.get(s, s),
                   help="Channels of the chain picked above (and any already closed). A closed channel is "
                        "unusable; another channel may become canonical.")
    st.multiselect("Bridges that forward onward", bridge_kinds, key="wi_fwd",
                   help="Pre-filled from the overlay. A bridge that forwards passes the transfer on in the same "
                        "transaction.")
    for col, name in ui.flag_grid(DIFF_FLAGS):
        col.checkbox(OPTION_LABELS[name], key=f"wi_{name}", help=f"`{name}` for every lookup compared")
    submitted = st.form_submit_button("Compare with the registry", type="primary", icon=":material/science:")

if submitted:
    chosen = set(st.session_state["wi_pfm"])
    pfm = tuple(sorted([(c, False) for c in pfm_now if c not in chosen] + [(c, True) for c in chosen
                                                                            if c not in pfm_now]))
    fwd_chosen = set(st.session_state["wi_fwd"])
    fwd = tuple(sorted([(k, False) for k in forwarding_now if k not in fwd_chosen]
                       + [(k, True) for k in fwd_chosen if k not in forwarding_now]))
    q = WhatIfQuery(pfm, tuple(st.session_state["wi_close"]), fwd,
                    tuple((n, bool(st.session_state[f"wi_{n}"])) for n in DIFF_FLAGS))
    ui.commit_query(PAGE, q)

query: WhatIfQuery | None = state["active"]
if query is None or query.empty:
    if not state["problems"]:
        st.info("Change something above and press **Compare with the registry**. The address bar keeps the "
                "scenario, so the link can be shared.", icon=":material/info:")
    st.stop()

flags = dict(query.flags)
cache = _cache()
key = (reg.provenance.fingerprint, query)
try:
    scenario = reg.with_changes(**query.changes())
    diff: RegistryDiff | None = cache["diffs"].get(key)
    if diff is None:
        with st.status("Comparing the scenario with the registry…", expanded=True) as status:
            bar = status.progress(0.0, text="Routes of the chains the scenario touches…")

            def progress(done: int, total: int) -> None:
                bar.progress(done / max(total, 1), text=f"Source chains {done}/{total}")

            diff = reg.diff(scenario, progress=progress, **flags)
            status.update(label="Compared", state="complete", expanded=False)
        with cache["lock"]:
            if len(cache["diffs"]) >= 16:
                cache["diffs"].pop(next(iter(cache["diffs"])))
            cache["diffs"][key] = diff
except RequestError as exc:
    value = f" ({md_code(exc.value)})" if exc.value is not None else ""
    st.error(f"The scenario was refused: {md_escape(exc.message)}{value}", icon=":material/block:")
    st.stop()
except AssetRouteError as exc:
    st.error(f"The comparison failed: {md_escape(exc, limit=600)}", icon=":material/error:")
    st.stop()

assert scenario.what_if is not None
st.subheader(md_escape(scenario.what_if.describe()), anchor=False)
touched_chains = {p.source_chain_id for p in diff.pairs} | {p.dest_chain_id for p in diff.pairs}
m = st.columns(5)
m[0].metric("Pairs changed", diff.pairs_changed, help="Same pair, other txs_required, bridges or destination denom")
m[1].metric("Pairs gained", diff.pairs_gained)
m[2].metric("Pairs lost", diff.pairs_lost)
m[3].metric("Asset pairs", diff.pairs_new, delta=diff.pairs_new - diff.pairs_old)
m[4].metric("Chains affected", len(touched_chains))

if not diff.pairs:
    st.success("No asset pair between routable chains changes in this scenario.", icon=":material/check_circle:")
else:
    table = whatif_table(diff, names)
    st.dataframe(table, hide_index=True, width="stretch", height=min(38 + 35 * len(table), 420),
                 column_order=["change", "symbol", "source", "dest", "old_txs_required", "new_txs_required",
                               "old_bridges", "new_bridges", "source_denom", "old_dest_denom", "new_dest_denom",
                               "changed_fields"],
                 column_config={"old_txs_required": st.column_config.NumberColumn("Txs before", format="%d"),
                                "new_txs_required": st.column_config.NumberColumn("Txs after", format="%d"),
                                "old_bridges": "Bridges before", "new_bridges": "Bridges after",
                                "source_denom": "Denom on source", "old_dest_denom": "Denom on dest before",
                                "new_dest_denom": "Denom on dest after", "changed_fields": "What changed"})
    c1, c2, _ = st.columns([1, 1, 4])
    c1.download_button("Download CSV", table.to_csv(index=False).encode(), file_name="what_if_pairs.csv",
                       mime="text/csv", icon=":material/download:", on_click="ignore")
    c2.download_button("Download JSON", diff.to_json(), file_name="what_if.json", mime="application/json",
                       icon=":material/data_object:", on_click="ignore")

st.subheader(f"The {TOP_N} most connected chains, before and after", anchor=False)
top = most_connected(reg, TOP_N)
single = {**flags, "allow_multi_tx": False}  # one-transaction pairs: where PFM and forwarding show
hkey = (reg.provenance.fingerprint, query, tuple(top))
pair = cache["heatmaps"].get(hkey)
if pair is None:
    with st.spinner("Counting asset pairs between the most connected chains…"):
        pair = (heatmap_matrix(reg, top, single), heatmap_matrix(scenario, top, single))
    with cache["lock"]:
        if len(cache["heatmaps"]) >= 16:
            cache["heatmaps"].pop(next(iter(cache["heatmaps"])))
        cache["heatmaps"][hkey] = pair
before, after = pair
h1, h2 = st.columns(2)
h1.plotly_chart(drawing.movable_heatmap(before, labels=names, title="Registry"), width="stretch",
                config={"displayModeBar": False})
h2.plotly_chart(drawing.movable_heatmap(after, labels=names, title="What if"), width="stretch",
                config={"displayModeBar": False})
st.caption("Single-transaction asset pairs `assets_between_chains` answers for each ordered pair (the flags "
           "above, without multi-transaction routes).")
