"""From source: every asset one asset can become, by destination chain."""

from __future__ import annotations

import streamlit as st

from assetroute_app import (
    FROM_SOURCE_FLAGS,
    OPTION_HELP,
    OPTION_LABELS,
    FromSourceQuery,
    default_asset,
    from_source_summary,
    from_source_table,
    group_label,
    md_code,
    md_escape,
    ui,
)
from assetroute_core import GROUP_BY_VALUES, RECOMMENDATION_REASONS, drawing

ui.page_frame()

PAGE = "fs"
REASON_LABELS = {
    "": "Default (canonical representation)",
    "UNKNOWN": "UNKNOWN — canonical representation",
    "MOST_LIQUID": "MOST_LIQUID — canonical (liquidity is not known)",
    "BASE_TOKEN": "BASE_TOKEN — only the origin chain's base asset",
    "DIRECT": "DIRECT — fewest transfers, even multi-hop denoms",
}
GROUP_LABELS = {"chain_id": "Destination chain (chain_id)", "recommended_symbol": "Recommended symbol"}

reg = ui.get_registry()
ids, labels, names = ui.chain_index(reg)
backend = ui.backend(reg)
venues = {v.name: v for v, _ in reg.overlay.swap_venues}


def _default_denom(chain: str | None) -> str | None:
    if not chain:
        return None
    asset = default_asset(reg.assets(chain), reg.chain(chain))
    return asset.denom if asset is not None else None


def _chain_changed() -> None:
    st.session_state["fs_denom"] = _default_denom(st.session_state.get("fs_chain"))


def _seed(q: FromSourceQuery) -> None:
    chain = q.source_asset_chain_id or ("cosmoshub-4" if "cosmoshub-4" in ids else (ids[0] if ids else None))
    st.session_state["fs_chain"] = chain
    st.session_state["fs_denom"] = q.source_asset_denom or _default_denom(chain)
    for name in FROM_SOURCE_FLAGS:
        st.session_state[f"fs_{name}"] = getattr(q, name)
    st.session_state["fs_reason"] = q.recommendation_reason or ""
    st.session_state["fs_group_by"] = q.group_by
    st.session_state["fs_venues"] = list(q.swap_venues)


st.title("Where can this asset go?")
st.caption("Every asset that one asset can become on other chains, grouped by destination — the "
           "`assets_from_source` lookup. Pick a chain, then one of the assets it holds (listed in its "
           "assetlist or derived vouchers), set the options and submit.")

state = ui.sync_url(PAGE, lambda p: FromSourceQuery.from_params(p, reg), _seed)
if st.session_state.get("fs_chain") not in ids:  # a switch between mainnets and testnets: pick again
    st.session_state["fs_chain"] = "cosmoshub-4" if "cosmoshub-4" in ids else (ids[0] if ids else None)
    st.session_state["fs_denom"] = _default_denom(st.session_state["fs_chain"])
ui.show_problems(state["problems"])

c1, c2 = st.columns([2, 3])
chain = c1.selectbox("Source chain", ids, key="fs_chain", format_func=lambda c: labels.get(c, c),
                     on_change=_chain_changed,
                     placeholder="Search by name or chain-id", help="Type to search by pretty name or chain-id.")
denoms, asset_labels = ui.asset_index(reg, chain) if chain else ([], {})
c2.selectbox(f"Source asset ({len(denoms)} held on this chain)", denoms, key="fs_denom",
             format_func=lambda d: asset_labels.get(d, d), placeholder="Search by symbol, name or denom",
             help="Listed assets first, then derived IBC vouchers without metadata. Type to search.")

with st.form("fs_form"):
    switches = [n for n in FROM_SOURCE_FLAGS if n != "include_swaps"]  # include_swaps sits by the venues
    for col, name in zip(st.columns(len(switches)), switches, strict=True):
        col.checkbox(OPTION_LABELS[name], key=f"fs_{name}", help=f"{OPTION_HELP[name]} (`{name}`)")
    r1, r2 = st.columns(2)
    r1.selectbox("Recommendation reason", ["", *RECOMMENDATION_REASONS], key="fs_reason",
                 format_func=lambda v: REASON_LABELS.get(v, v), help="`recommendation_reason`")
    r2.radio("Group results by", list(GROUP_BY_VALUES), key="fs_group_by", horizontal=True,
             format_func=lambda v: GROUP_LABELS.get(v, v), help="`group_by`")
    s1, s2 = st.columns([1, 3])
    s1.checkbox("Include swaps", key="fs_include_swaps",
                help="`include_swaps`: add the assets tradable on each swap venue's chain the source reaches")
    s2.multiselect("Swap venues (empty = every venue of the overlay)", list(venues), key="fs_venues",
                   format_func=lambda n: f"{n} · {venues[n].chain_id}", help="`swap_venues`; used with Include swaps")
    submitted = st.form_submit_button("Find destinations", type="primary", icon=":material/search:")

if submitted:
    q = FromSourceQuery(
        source_asset_chain_id=st.session_state["fs_chain"], source_asset_denom=st.session_state["fs_denom"],
        allow_multi_tx=bool(st.session_state["fs_allow_multi_tx"]),
        recommendation_reason=st.session_state["fs_reason"] or None,
        include_swaps=bool(st.session_state["fs_include_swaps"]),
        swap_venues=tuple(st.session_state["fs_venues"]) if st.session_state["fs_include_swaps"] else (),
        native_only=bool(st.session_state["fs_native_only"]), group_by=st.session_state["fs_group_by"],
        include_cw20_assets=bool(st.session_state["fs_include_cw20_assets"]),
        include_other_bridges=bool(st.session_state["fs_include_other_bridges"]),
    )
    if not q.complete:
        st.warning("Pick a source chain and an asset.", icon=":material/warning:")
    else:
        ui.commit_query(PAGE, q)

query: FromSourceQuery = ui.await_query(state, backend, "Choose a chain and an asset, then press "
                                                         "**Find destinations**.")

result = ui.run_lookup(
    "from_source", backend, query,
    lambda: backend.assets_from_source(query.source_asset_denom, query.source_asset_chain_id,
                                       **query.lookup_kwargs(venues)),
)
if result is None:
    st.stop()

source_asset = reg.find_asset(query.source_asset_chain_id, query.source_asset_denom)
sym = (source_asset.metadata.symbol if source_asset is not None and source_asset.metadata
       else query.source_asset_denom)
chain_name = names.get(query.source_asset_chain_id, query.source_asset_chain_id)
st.subheader(f"{md_escape(sym)} from {md_escape(chain_name)}", anchor=False)
st.caption(f"{md_code(query.source_asset_denom, limit=90)} on {md_code(query.source_asset_chain_id)} · answered by "
           f"the {md_escape(backend.label)}")

summary = from_source_summary(result)
m = st.columns(4)
m[0].metric("Destination chains", summary["chains"])
m[1].metric("Destination assets", summary["assets"])
if backend.has_routes:
    m[2].metric("Chains in 1 transaction", summary["one_tx_chains"])
    m[3].metric("Chains needing 2+ transactions", summary["multi_tx_chains"])
else:
    m[2].metric("Groups", summary["groups"])

if not len(result):
    st.warning("This asset reaches no other chain with these options. Try allowing multi-transaction routes "
               "or another recommendation reason.", icon=":material/search_off:")
    st.stop()

# The visuals sit above the table but are drawn after it: the table (the answer) shows first
# and the heavier graph and charts fill in above it (on a tab's first answer, once it has painted).
visual = st.container()
group_title = "destination chain" if result.group_by == "chain_id" else "recommended symbol"
st.markdown(f"**Destination assets** — grouped by {group_title}")
table = from_source_table(result, routes=backend.has_routes)
config = {
    "group": st.column_config.TextColumn("Group", help=f"dest_assets key ({result.group_by})"),
    "logo": ui.logo_column(""),
    "symbol": st.column_config.TextColumn("Symbol"),
    "name": st.column_config.TextColumn("Name"),
    "recommended_symbol": st.column_config.TextColumn("Recommended symbol"),
    "chain_id": st.column_config.TextColumn("Chain"),
    "denom": st.column_config.TextColumn("Denom", width="medium"),
    "trace": st.column_config.TextColumn("Trace"),
    "origin_chain_id": st.column_config.TextColumn("Origin chain"),
    "origin_denom": st.column_config.TextColumn("Origin denom"),
    "is_cw20": st.column_config.CheckboxColumn("CW20"),
    "is_evm": st.column_config.CheckboxColumn("EVM"),
    "txs_required": st.column_config.NumberColumn("Txs", format="%d", help="from the route (embedded only)"),
    "bridges": st.column_config.TextColumn("Bridges"),
    "path": st.column_config.TextColumn("Path", width="medium"),
}
display = table.copy()
if result.group_by == "chain_id":  # chains named as on the pickers: pretty name · chain-id
    display["group"] = display["group"].map(lambda cid: group_label(cid, names))
display["logo"] = ui.logos(display["logo"], display["symbol"].where(display["symbol"].notna(), display["denom"]))
for col in ("symbol", "name", "recommended_symbol", "bridges", "path"):
    if col in display.columns:
        display[col] = display[col].astype(object).where(display[col].notna(), "")
if "txs_required" in display.columns:
    display["txs_required"] = display["txs_required"].astype("Int64")
hidden = {"chain_id"} if result.group_by == "chain_id" else set()
order = ["group", "logo", "symbol", "name", "recommended_symbol", "chain_id", "txs_required", "bridges", "denom",
         "trace", "origin_chain_id", "origin_denom", "path", "is_cw20", "is_evm"]
st.dataframe(display, hide_index=True, width="stretch", key="fs_table", height=min(38 + 35 * len(table), 520),
             column_config=config, column_order=[c for c in order if c in table.columns and c not in hidden])


def _graph_and_charts() -> None:
    left, right = st.columns([3, 2], gap="medium")
    with left:
        st.markdown("**Destination graph** — hover a chain or an edge to see the assets")
        spec = drawing.destination_graph(result, labels=names, source_chain_id=query.source_asset_chain_id)
        ui.graph(spec, height=520)
        if not backend.has_routes:
            st.caption("Channels, bridges and transaction counts come from routes, which only the embedded "
                       "registry computes; the remote API returns the assets alone.")
    with right:
        if backend.has_routes:
            st.plotly_chart(drawing.reach_by_bridge(result, height=250), width="stretch",
                            config={"displayModeBar": False})
            st.plotly_chart(drawing.reach_by_txs(result, height=250), width="stretch", config={"displayModeBar": False})
        else:
            st.info("Reach charts need routes and are only drawn with the embedded registry.", icon=":material/info:")


with visual:  # a tab's first answer draws them once the table has painted (ui.after_table)
    ui.after_table(PAGE, _graph_and_charts, what="destination graph and the reach charts")

ui.api_response(result, name="assets_from_source", key="fs_api")
d1, d2, _ = st.columns([1, 1, 4])
base = f"assets_from_{query.source_asset_chain_id}_{query.source_asset_denom}"
safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in base)[:120]
d1.download_button("Download CSV", table.drop(columns=["logo"]).to_csv(index=False).encode(),
                   file_name=f"{safe}.csv", mime="text/csv", icon=":material/download:", on_click="ignore")
d2.download_button("Download JSON", result.to_json(), file_name=f"{safe}.json", mime="application/json",
                   icon=":material/data_object:", on_click="ignore")
