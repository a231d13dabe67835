"""Network: the chain graph of the registry and how many assets move between the best-connected chains."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from assetroute_app import NETWORK_STATUSES, NetworkQuery, md_code, md_escape, ui
from assetroute_core import Registry, drawing
from assetroute_core.network import ChainGraph, chain_graph, movable_matrix, top_chains

ui.page_frame()

PAGE = "net"

reg = ui.get_registry()
ids, labels, names = ui.chain_index(reg)
backend = ui.backend(reg)


@st.cache_resource(show_spinner=False, max_entries=8)
def _graph(_reg: Registry, fingerprint: str, include_inactive: bool, include_bridges: bool) -> ChainGraph:
    return chain_graph(_reg, include_inactive=include_inactive, include_bridges=include_bridges)


@st.cache_data(show_spinner=False, max_entries=16)
def _matrix(_backend: Any, backend_label: str, fingerprint: str, chain_ids: tuple[str, ...],
            allow_multi_tx: bool) -> pd.DataFrame:
    return movable_matrix(_backend, list(chain_ids), allow_multi_tx=allow_multi_tx)


full = _graph(reg, reg.provenance.fingerprint, True, True)
chain_types = sorted({n.chain_type for n in full.nodes})
max_degree = max((n.degree for n in full.nodes), default=1)


def _seed(q: NetworkQuery) -> None:
    st.session_state.update({
        "net_types": list(q.chain_types), "net_statuses": list(q.statuses),
        "net_min_degree": min(q.min_degree, max_degree), "net_focus": q.focus or "", "net_depth": q.depth,
        "net_inactive": q.include_inactive, "net_bridges": q.include_bridges, "net_top_n": q.top_n,
        "net_multi": q.allow_multi_tx,
    })


st.title("Chain network")
st.caption("Routable chains of the registry joined by their IBC transfer channels and bridges. Filter the graph, "
           "focus on one chain's neighbourhood, and compare how many assets can move between the most "
           "connected chains.")

state = ui.sync_url(PAGE, lambda p: NetworkQuery.from_params(p, set(ids), chain_types=chain_types,
                                                               statuses=NETWORK_STATUSES), _seed)
ui.show_problems(state["problems"])

with st.form("net_form"):
    a1, a2, a3 = st.columns([2, 2, 3])
    a1.multiselect("Chain types", chain_types, key="net_types", placeholder="All types")
    a2.multiselect("Channel status", list(NETWORK_STATUSES), key="net_statuses", placeholder="Any status",
                   help="IBC channels with these registry tags (UNTAGGED: no tag). INACTIVE/CLOSED channels "
                        "only exist when inactive channels are included.")
    a3.slider("Minimum connections (degree)", 0, max_degree, key="net_min_degree",
              help="Hide chains connected to fewer distinct chains.")
    b1, b2, b3, b4 = st.columns([3, 1, 2, 2])
    b1.selectbox("Neighbourhood of", ["", *ids], key="net_focus",
                 format_func=lambda c: "All chains" if c == "" else labels.get(c, c),
                 help="Show only the chains within the chosen number of hops of this chain.")
    b2.number_input("Hops", 1, 4, key="net_depth")
    b3.checkbox("Include inactive channels", key="net_inactive")
    b4.checkbox("Include bridges", key="net_bridges")
    c1, c2, _ = st.columns([3, 2, 3])
    c1.slider("Heatmap: most connected chains", 2, 40, key="net_top_n")
    c2.checkbox("Heatmap: multi-transaction routes", key="net_multi")
    submitted = st.form_submit_button("Apply", type="primary", icon=":material/filter_alt:")

if submitted:
    q = NetworkQuery(
        chain_types=tuple(st.session_state["net_types"]), statuses=tuple(st.session_state["net_statuses"]),
        min_degree=int(st.session_state["net_min_degree"]), focus=st.session_state["net_focus"] or None,
        depth=int(st.session_state["net_depth"]), include_inactive=bool(st.session_state["net_inactive"]),
        include_bridges=bool(st.session_state["net_bridges"]), top_n=int(st.session_state["net_top_n"]),
        allow_multi_tx=bool(st.session_state["net_multi"]),
    )
    ui.commit_query(PAGE, q)

query: NetworkQuery = state["active"] or NetworkQuery()
base = _graph(reg, reg.provenance.fingerprint, query.include_inactive, query.include_bridges)
shown = base.filter(chain_types=set(query.chain_types) or None, statuses=set(query.statuses) or None,
                    min_degree=query.min_degree)
if query.focus:
    if query.focus in shown:
        shown = shown.neighbourhood(query.focus, depth=query.depth)
    else:
        st.warning(f"{md_escape(names.get(query.focus, query.focus))} ({md_code(query.focus)}) is hidden by the "
                   "filters above, so its neighbourhood cannot be shown; the whole filtered graph is drawn.",
                   icon=":material/filter_alt_off:")

ibc = sum(1 for e in shown.edges if e.kind == "IBC")
m = st.columns(4)
m[0].metric("Chains shown", len(shown.nodes), help=f"of {len(full.nodes)} routable chains")
m[1].metric("IBC channels", ibc)
m[2].metric("Bridge connections", len(shown.edges) - ibc, help="aggregated per chain pair and bridge kind")
busiest = top_chains(shown, 1)
m[3].metric("Most connected", names.get(busiest[0], busiest[0]) if busiest else "—",
            help="chain with the most distinct neighbours in this view")

if not shown.nodes:
    st.warning("No chain matches these filters.", icon=":material/search_off:")
else:
    ui.graph(drawing.chain_network_graph(shown, focus=query.focus), height=620)
    st.caption("Drag to pan, scroll to zoom, hover a chain or a connection for details. "
               "Node size grows with the number of connected chains; chains without any connection "
               "are lined up on the right.")

st.subheader("Assets that can move between the most connected chains", anchor=False)
if backend is None:
    st.stop()
top = top_chains(full if not query.focus else shown, query.top_n)
if len(top) < 2:
    st.info("The heatmap needs at least two chains.", icon=":material/info:")
    st.stop()
st.caption(f"Number of asset pairs `assets_between_chains` returns for each ordered pair of the {len(top)} chains "
           f"with the most connections{' in this neighbourhood' if query.focus else ''} "
           f"({'multi-transaction routes included' if query.allow_multi_tx else 'single-transaction routes'}; "
           f"answered by the {md_escape(backend.label)}).")
try:
    with st.spinner("Running the lookups for every pair of chains…"):
        matrix = _matrix(backend, backend.label, reg.provenance.fingerprint, tuple(top), query.allow_multi_tx)
except Exception as exc:  # a remote backend may fail; never show a traceback
    st.error(f"The heatmap lookups failed: {md_escape(type(exc).__name__)}: {md_escape(exc, limit=400)}",
             icon=":material/error:")
    st.stop()
st.plotly_chart(drawing.movable_heatmap(matrix, labels=names, title=None), width="stretch",
                config={"displayModeBar": False})
with st.expander("Matrix as a table"):
    st.dataframe(matrix, width="stretch")
