"""Between chains: every asset on one chain paired with what it becomes on another."""

from __future__ import annotations

import hashlib

import streamlit as st

from assetroute_app import (
    BETWEEN_FLAGS,
    OPTION_HELP,
    OPTION_LABELS,
    BetweenQuery,
    between_summary,
    between_table,
    md_code,
    md_escape,
    order_by_symbol,
    parse_order,
    parse_pair,
    ui,
)
from assetroute_core import BetweenChainsOptions, drawing

ui.page_frame()

PAGE = "bc"
UI_KEYS = ("pair", "order")

reg = ui.get_registry()
ids, labels, names = ui.chain_index(reg)
backend = ui.backend(reg)


def _default(preferred: str, fallback: int) -> str | None:
    if preferred in ids:
        return preferred
    return ids[fallback] if len(ids) > fallback else (ids[0] if ids else None)


def _seed(q: BetweenQuery) -> None:
    st.session_state["bc_source"] = q.source_chain_id or _default("cosmoshub-4", 0)
    st.session_state["bc_dest"] = q.dest_chain_id or _default("osmosis-1", 1)
    for name in BETWEEN_FLAGS:
        st.session_state[f"bc_{name}"] = getattr(q.options, name)


st.title("Assets between chains")
st.caption("Every asset held on the source chain, paired with what it becomes on the destination chain — "
           "the `assets_between_chains` lookup. Pick two chains, choose which assets count, and submit.")

state = ui.sync_url(PAGE, lambda p: BetweenQuery.from_params(p, set(ids)), _seed, ui_keys=UI_KEYS)
# After a switch between mainnets and testnets the picked chains belong to the other world: pick again.
if st.session_state.get("bc_source") not in ids:
    st.session_state["bc_source"] = _default("cosmoshub-4", 0)
if st.session_state.get("bc_dest") not in ids:
    st.session_state["bc_dest"] = _default("osmosis-1", 1)
ui.show_problems(state["problems"])
url_order, order_problem = parse_order(st.query_params.get("order"))
if order_problem is not None:
    st.warning(order_problem.markdown(), icon=":material/warning:")

with st.form("bc_form"):
    c1, c2 = st.columns(2)
    c1.selectbox("Source chain", ids, key="bc_source", format_func=lambda c: labels.get(c, c),
                 placeholder="Search by name or chain-id", help="Type to search by pretty name or chain-id.")
    c2.selectbox("Destination chain", ids, key="bc_dest", format_func=lambda c: labels.get(c, c),
                 placeholder="Search by name or chain-id", help="Type to search by pretty name or chain-id.")
    for col, name in ui.flag_grid(BETWEEN_FLAGS):
        col.checkbox(OPTION_LABELS[name], key=f"bc_{name}", help=f"{OPTION_HELP[name]} (`{name}`)")
    submitted = st.form_submit_button("Find assets", type="primary", icon=":material/search:")

if submitted:
    q = BetweenQuery(st.session_state["bc_source"], st.session_state["bc_dest"],
                     BetweenChainsOptions(**{n: bool(st.session_state[f"bc_{n}"]) for n in BETWEEN_FLAGS}))
    if q.source_chain_id == q.dest_chain_id:
        st.warning("Source and destination must be different chains.", icon=":material/warning:")
        state["active"] = None
    else:
        ui.commit_query(PAGE, q, keep=("order",))

query: BetweenQuery = ui.await_query(state, backend, "Choose a source and a destination chain, then press "
                                                      "**Find assets**.")

result = ui.run_lookup(
    "between", backend, query,
    lambda: backend.assets_between_chains(query.source_chain_id, query.dest_chain_id, **query.lookup_kwargs()),
)
if result is None:
    st.stop()

src_name = names.get(query.source_chain_id, query.source_chain_id)
dst_name = names.get(query.dest_chain_id, query.dest_chain_id)
summary = between_summary(result)
st.subheader(f"{md_escape(src_name)} → {md_escape(dst_name)}", anchor=False)
st.caption(f"{md_code(query.source_chain_id)} → {md_code(query.dest_chain_id)} · answered by the "
           f"{md_escape(backend.label)}")

m = st.columns(5)
m[0].metric("Pairs", summary["pairs"])
m[1].metric("Source assets", summary["source_assets"])
m[2].metric("1 transaction", summary["single_tx"])
m[3].metric("2+ transactions", summary["multi_tx"])
m[4].metric("Cross a bridge", summary["via_bridge"], help="Pairs whose route uses a non-IBC bridge")

if not result.pairs:
    st.warning("No asset on the source chain reaches the destination with these options. "
               "Try allowing multi-transaction routes or assets without metadata.", icon=":material/search_off:")
    st.stop()

table = between_table(result)
for col in ("symbol", "recommended_symbol", "dest_symbol"):
    table[col] = table[col].astype(object).where(table[col].notna(), "")  # blank, not "None"
table["source_logo"] = ui.logos(table["source_logo"],
                                table["symbol"].where(table["symbol"] != "", table["source_denom"]))
table["dest_logo"] = ui.logos(table["dest_logo"],
                              table["dest_symbol"].where(table["dest_symbol"] != "", table["dest_denom"]))
order = st.segmented_control("Rows", ["api", "symbol"], key="bc_order", required=True,
                             default=url_order,
                             format_func=lambda v: "API order" if v == "api" else "Grouped by recommended symbol")
if order == "symbol":
    table = order_by_symbol(table)
if (st.query_params.get("order") or "api") != order:
    if order == "symbol":
        st.query_params["order"] = "symbol"
    elif "order" in st.query_params:
        del st.query_params["order"]

pair_index, pair_problem = parse_pair(st.query_params.get("pair"), len(result.pairs))
if pair_problem is not None:
    st.warning(pair_problem.markdown(), icon=":material/warning:")
default_rows = [int(table.index[table["#"] == pair_index][0])] if pair_index is not None else []
table_key = "bc_table_" + hashlib.sha1(repr((query, backend.label, order)).encode()).hexdigest()[:12]

event = st.dataframe(
    table, hide_index=True, width="stretch", height=min(38 + 35 * len(table), 460),
    on_select="rerun", selection_mode="single-row", key=table_key,
    selection_default={"selection": {"rows": default_rows}},
    column_order=["source_logo", "symbol", "recommended_symbol", "txs_required", "bridges", "source_denom",
                  "dest_logo", "dest_symbol", "dest_denom", "dest_trace", "origin_chain_id", "origin_denom",
                  "source_trace"],
    column_config={
        "source_logo": ui.logo_column(""),
        "symbol": st.column_config.TextColumn("Symbol"),
        "recommended_symbol": st.column_config.TextColumn("Recommended symbol"),
        "source_denom": st.column_config.TextColumn("Denom on source", width="medium"),
        "source_trace": st.column_config.TextColumn("Trace on source"),
        "dest_logo": ui.logo_column(""),
        "dest_symbol": st.column_config.TextColumn("Symbol on dest"),
        "dest_denom": st.column_config.TextColumn("Denom on destination", width="medium"),
        "dest_trace": st.column_config.TextColumn("Trace on destination"),
        "origin_chain_id": st.column_config.TextColumn("Origin chain"),
        "origin_denom": st.column_config.TextColumn("Origin denom"),
        "txs_required": st.column_config.NumberColumn("Txs", help="txs_required", format="%d"),
        "bridges": st.column_config.TextColumn("Bridges", width="medium"),
    },
)
st.caption("Select a row to see its bridge path below. Click a column header to sort.")

rows = list(event.selection.rows) if event is not None else []
if rows:
    selected = int(table.iloc[rows[0]]["#"])
    if selected != pair_index:
        st.query_params["pair"] = str(selected)
else:  # nothing selected (the URL's pair, if valid, is the table's default selection)
    selected = None
    if "pair" in st.query_params and pair_index is not None:
        del st.query_params["pair"]


def _path_and_chart() -> None:
    path_col, chart_col = st.columns([3, 2], gap="large")
    with path_col:
        st.subheader("Bridge path", anchor=False)
        shown = selected if selected is not None else 0
        pair = result.pairs[shown]
        src_meta = pair.asset_on_source.metadata
        sym = src_meta.symbol if src_meta else pair.asset_on_source.denom
        hint = "" if selected is not None else "  \n*First row shown — select a row in the table to change it.*"
        st.markdown(f"**{md_escape(sym)}** · {pair.txs_required} transaction(s) · "
                    f"{md_escape(' → '.join(pair.bridges))}  \n"
                    f"{md_code(pair.asset_on_source.denom, limit=70)} → {md_code(pair.asset_on_dest.denom, limit=70)}"
                    + hint)
        if pair.route is None:
            st.info("Route graphs are only available with the embedded registry: the HTTP API returns the pairs "
                    "(`txs_required`, `bridges`) but not the hops behind them.", icon=":material/info:")
        else:
            ui.graph(drawing.route_graph(pair.route, labels=names), height=230)
            st.dataframe(
                [{"hop": i + 1, "from": h.from_chain_id, "to": h.to_chain_id, "kind": h.kind,
                  "channel": h.channel or "", "counterparty": h.counterparty_channel or "",
                  "operation": h.operation, "new tx": "yes" if h.new_tx and i else ("first" if i == 0 else "no")}
                 for i, h in enumerate(pair.route.hops)],
                hide_index=True, width="stretch",
            )
    with chart_col:
        st.subheader("Pairs by bridge path", anchor=False)
        st.caption("How many pairs each bridge path carries, split by transactions needed.")
        st.plotly_chart(drawing.pairs_summary(result, title=None, height=260),
                        width="stretch", config={"displayModeBar": False})


# Drawn after the table; a tab's first answer draws them once the table has painted (ui.after_table).
ui.after_table(PAGE, _path_and_chart, what="bridge path and the chart")

ui.api_response(result, name="assets_between_chains", key="bc_api")
d1, d2, _ = st.columns([1, 1, 4])
base = f"assets_between_{query.source_chain_id}_{query.dest_chain_id}"
safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in base)[:120]
d1.download_button("Download CSV", between_table(result).drop(columns=["source_logo", "dest_logo"])
                   .to_csv(index=False).encode(), file_name=f"{safe}.csv", mime="text/csv",
                   icon=":material/download:", on_click="ignore")
d2.download_button("Download JSON", result.to_json(), file_name=f"{safe}.json", mime="application/json",
                   icon=":material/data_object:", on_click="ignore")
