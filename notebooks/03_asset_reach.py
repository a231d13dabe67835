# ---
# jupyter:
#   jupytext:
#     cell_metadata_filter: tags,-all
#     formats: ipynb,py:percent
#     notebook_metadata_filter: kernelspec,jupytext,-jupytext.text_representation.jupytext_version
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 03 · Asset reach: where can a token go?
#
# `assets_from_source(denom, chain_id)` answers: starting from one asset, which instances can it become on
# which chains, over which bridges, in how many transactions? This notebook asks it for a few well-known
# assets — ATOM, OSMO, TIA, NTRN and the USDC family (Noble's native USDC, Axelar's axlUSDC and Circle's USDC
# on Ethereum) — and compares the answers:
#
# 1. how far each asset reaches, in one transaction and when multi-transaction routes are allowed;
# 2. through which bridges;
# 3. the **variant families** of USDC, grouped by `recommended_symbol`;
# 4. a picture of one asset's destinations and of one multi-hop route.

# %% tags=["parameters"]
REGISTRY_SOURCE = None  # directory, archive or URL; None: $ASSETROUTE_REGISTRY, else the pinned archive
BASE_URL = None  # e.g. "http://127.0.0.1:8000": run the lookups against that compatible HTTP service

# %%
import html
import json
import sys
from pathlib import Path

import pandas as pd
import plotly.express as px
from IPython.display import HTML, Markdown, display

try:
    import assetroute_core as ar
except ModuleNotFoundError:  # a checkout without `pip install -e .`: the package is one folder up
    sys.path.insert(0, str(Path.cwd().parent))
    import assetroute_core as ar
from assetroute_core import drawing
from assetroute_core.notebook import setup

nb = setup(REGISTRY_SOURCE, base_url=BASE_URL)  # loads the registry, shows its provenance and the lookups' source
registry, lookups, names = nb.registry, nb.lookups, nb.names

ASSETS = [  # (label, denom, chain_id)
    ("ATOM", "uatom", "cosmoshub-4"),
    ("OSMO", "uosmo", "osmosis-1"),
    ("TIA", "utia", "celestia"),
    ("NTRN", "untrn", "neutron-1"),
    ("USDC (Noble)", "uusdc", "noble-1"),
    ("axlUSDC (Axelar)", "uusdc", "axelar-dojo-1"),
    ("USDC (Ethereum)", "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", "1"),
]

# %% [markdown]
# ## 1. How far does each asset reach?
#
# Each destination instance is the asset's **canonical representation** on a chain: the origin's base denom,
# or the one-hop voucher over the canonical channel from the origin — across a bridge, the counterpart and
# its canonical representations. A result computed by the embedded registry carries the route behind every
# destination; one read from an HTTP service does not (the API carries no routes), so there the transaction
# count and bridges of each destination are read from `assets_between_chains`, which does carry them.

# %%
ALL_ASSETS = {"include_no_metadata_assets": True, "include_cw20_assets": True, "include_evm_assets": True,
              "include_svm_assets": True}


def same_denom(a: str, b: str) -> bool:
    return a.lower() == b.lower() if a[:2].lower() == "0x" else a == b


def reach_frame(result: ar.FromSourceResult, denom: str, chain_id: str) -> pd.DataFrame:
    """One row per destination instance, with txs_required and bridges (from routes, or looked up).

    Looked up, an instance on the source chain itself stays unknown: assets_between_chains needs two chains.
    """
    frame = result.to_frame()
    missing = frame.txs_required.isna()
    for dest_chain in sorted(frame.loc[missing, "chain_id"].unique()):
        if dest_chain == chain_id:
            continue
        pairs = lookups.assets_between_chains(chain_id, dest_chain, allow_multi_tx=True, **ALL_ASSETS)
        found = {p.asset_on_dest.denom: p for p in pairs if same_denom(p.asset_on_source.denom, denom)}
        for i in frame.index[missing & (frame.chain_id == dest_chain)]:
            pair = found.get(frame.at[i, "denom"])
            if pair is not None:
                frame.at[i, "txs_required"] = pair.txs_required
                frame.at[i, "bridges"] = ",".join(pair.bridges)
    return frame


results = {}
frames = []
for label, denom, chain_id in ASSETS:
    results[label] = lookups.assets_from_source(denom, chain_id, allow_multi_tx=True)
    frame = reach_frame(results[label], denom, chain_id).assign(asset=label)
    frames.append(frame)
reach = pd.concat(frames, ignore_index=True)
reach["txs_required"] = reach.txs_required.astype("Int64")
reach["bridge_kinds"] = reach.bridges.fillna("").map(
    lambda b: ",".join(k for k in dict.fromkeys(b.split(",")) if k and k != "IBC") or "IBC only"
)

# The fewest transactions any instance on a chain needs, per asset and destination chain.
per_chain = reach.groupby(["asset", "chain_id"]).agg(
    fewest_txs=("txs_required", "min"), instances=("denom", "size"),
    bridge_kinds=("bridge_kinds", lambda s: s.sort_values().iloc[0]),
).reset_index()
summary = (
    per_chain.groupby("asset").agg(
        chains=("chain_id", "size"),
        chains_1_tx=("fewest_txs", lambda s: int((s == 1).sum())),
        instances=("instances", "sum"),
    )
    .join(reach.groupby("asset").agg(max_txs=("txs_required", "max"),
                                     bridges=("bridge_kinds", lambda s: ", ".join(sorted(set(s) - {"IBC only"})))))
    .loc[[label for label, _, _ in ASSETS]]
)
unknown = reach[reach.txs_required.isna()]
if len(unknown):
    display(Markdown(
        f"*{len(unknown)} destination instance(s) have no transaction count: they sit on their source chain, "
        "where `assets_between_chains` cannot be asked (source and destination must differ).*"
    ))
summary

# %%
fig = px.bar(
    per_chain.assign(fewest_txs=per_chain.fewest_txs.astype(str) + " tx"), y="asset", color="fewest_txs",
    orientation="h", title="Destination chains per asset, by the fewest transactions needed",
    category_orders={"asset": [label for label, _, _ in ASSETS], "fewest_txs": ["1 tx", "2 tx", "3 tx", "4 tx"]},
    color_discrete_map={f"{k} tx": v for k, v in drawing.TXS_COLORS.items()},
    labels={"count": "destination chains", "fewest_txs": "transactions"},
)
fig.show()

# %%
fig = px.bar(
    per_chain, y="asset", color="bridge_kinds", orientation="h",
    title="Destination chains per asset, by the bridges on the way (IBC only = plain IBC)",
    category_orders={"asset": [label for label, _, _ in ASSETS]},
    color_discrete_map={"IBC only": "#64748B", **{k: drawing.bridge_color(k) for k in drawing.BRIDGE_COLORS}},
    labels={"bridge_kinds": "bridges"},
)
fig.show()

# %%
one_tx = {label: int(summary.loc[label, "chains_1_tx"]) for label, _, _ in ASSETS}
noble = per_chain[per_chain.asset == "USDC (Noble)"]
noble_later = noble[noble.fewest_txs > 1]
eth_bridges = reach[reach.asset == "USDC (Ethereum)"].bridges.dropna()
eth_kinds = sorted({k for b in eth_bridges for k in b.split(",")} - {"IBC"})
display(Markdown(
    "Native staking tokens reach exactly their chain's IBC neighbours over canonical channels, in one "
    "transaction: "
    + ", ".join(f"**{label}** {one_tx[label]} chains" for label in ("ATOM", "OSMO", "TIA", "NTRN")) + ". "
    f"USDC is different: from Noble it reaches **{len(noble)} chains**, {one_tx['USDC (Noble)']} of them in one "
    f"transaction; {len(noble_later)} more are reached only by a CCTP mint on another chain followed by an IBC "
    "hop, which takes a second transaction because the overlay has no source saying that a CCTP mint is forwarded "
    f"onward. From Ethereum, Circle's USDC reaches **{int(summary.loc['USDC (Ethereum)', 'chains'])} chains** "
    f"through {len(eth_kinds)} bridge kinds ({', '.join(eth_kinds)}) — and each bridge yields a different variant "
    "(section 3)."
))

# %% [markdown]
# ## 2. One asset in detail: Circle's USDC from Ethereum
#
# The two figures below come from `assetroute_core.drawing` and use the routes of the embedded registry:
# destination chains by the bridge kind of the best route, and chains and instances by transactions needed.

# %%
usdc_eth = results["USDC (Ethereum)"]
if any(d.route is not None for d in usdc_eth):
    drawing.reach_by_bridge(usdc_eth, title="USDC from Ethereum: destination chains by bridge").show()
    drawing.reach_by_txs(usdc_eth, title="USDC from Ethereum: destinations by transactions needed").show()
else:
    display(Markdown("*These figures need routes; results read from an HTTP service carry none.*"))

# %%
eth_frame = reach[reach.asset == "USDC (Ethereum)"]
(
    eth_frame.groupby(["bridges", "txs_required"]).agg(chains=("chain_id", "nunique"), instances=("denom", "size"))
    .reset_index().sort_values(["txs_required", "chains"], ascending=[True, False])
)

# %% [markdown]
# ## 3. Variant families: `group_by="recommended_symbol"`
#
# A bridged USDC is a different asset from Circle's own: `recommended_symbol` tells the variants apart
# (`USDC` for Circle's, `USDC.axl` for Axelar's, `USDC.grv` for Gravity Bridge's, `USDC.wh` for Wormhole's …),
# and `group_by="recommended_symbol"` groups the destinations by it instead of by chain. Instances that carry
# no metadata of their own take the family of their origin asset.

# %%
family_rows = []
for label, denom, chain_id in ASSETS[4:]:
    grouped = lookups.assets_from_source(denom, chain_id, allow_multi_tx=True, group_by="recommended_symbol")
    for symbol, items in grouped.dest_assets.items():
        family_rows.append({"source": label, "recommended_symbol": symbol, "instances": len(items),
                            "chains": len({a.chain_id for a in items})})
families = pd.DataFrame(family_rows)
fig = px.bar(
    families, x="recommended_symbol", y="instances", color="source", barmode="group", text_auto=True,
    hover_data=["chains"], title="Where the USDC family ends up, by recommended_symbol",
)
fig.show()
families.pivot_table(index="recommended_symbol", columns="source", values="instances", aggfunc="sum",
                     fill_value=0).astype(int)

# %%
eth_families = families[families.source == "USDC (Ethereum)"].set_index("recommended_symbol")
axl_plain = lookups.assets_from_source(
    "uusdc", "axelar-dojo-1", allow_multi_tx=True, group_by="recommended_symbol"
).dest_assets.get("USDC", ())
display(Markdown(
    f"From Ethereum, USDC becomes **{len(eth_families)} variants**: "
    + ", ".join(f"`{s}` on {int(r.chains)} chain(s)" for s, r in eth_families.sort_values(
        "instances", ascending=False).iterrows())
    + ". From Noble it stays plain `USDC` (Circle's own, moved by IBC or CCTP). Axelar's `uusdc` is `USDC.axl` "
    "wherever it goes, except where Axelar releases the Ethereum original: plain `USDC` on "
    + (", ".join(sorted({names.get(a.chain_id, a.chain_id) for a in axl_plain})) or "no chain") + "."
))

# %% [markdown]
# ## 4. Pictures
#
# Where Noble's USDC can go (`assetroute_core.drawing.destination_graph`): Noble in the centre,
# destinations around it coloured by the fewest transactions (green 1, amber 2), edges labelled with the
# channel or the bridges. Hover a chain for its instances.

# %%
def show_graph(spec: drawing.GraphSpec, height: int) -> None:
    page = drawing.render_html(spec, height=height)
    display(HTML(
        f'<div><iframe srcdoc="{html.escape(page, quote=True)}" '
        f'style="width:100%;height:{height + 20}px;border:0"></iframe></div>'
    ))


show_graph(drawing.destination_graph(results["USDC (Noble)"], labels=names), 620)

# %% [markdown]
# And one route in full: Circle's USDC from Ethereum to Osmosis's canonical Noble USDC — a CCTP mint on
# Noble, then an IBC hop (`route_graph`). The table lists the hops as the route carries them.

# %%
osmosis_usdc = next(
    (d for d in usdc_eth if d.asset.chain_id == "osmosis-1" and d.route is not None
     and d.asset.origin_chain_id == "noble-1"),
    None,
)
if osmosis_usdc is not None:
    route = osmosis_usdc.route
    show_graph(drawing.route_graph(route, labels=names), 260)
    display(pd.DataFrame([h.to_api() for h in route.hops]))
    display(Markdown(f"`txs_required` = **{route.txs_required}**, bridges: **{' → '.join(route.bridges)}**."))
else:
    display(Markdown("*No route to show (results read from an HTTP service carry none).*"))

# %% tags=["headline"]
# Headline numbers as JSON (read back by tests/test_notebooks.py).
headline = {
    "notebook": "03_asset_reach",
    "reach": {
        label: {
            "chains": int(summary.loc[label, "chains"]),
            "chains_1_tx": int(summary.loc[label, "chains_1_tx"]),
            "instances": int(summary.loc[label, "instances"]),
            "txs": {int(k): int(v) for k, v in reach[reach.asset == label].txs_required.value_counts().items()},
            "unknown_txs": int(reach[reach.asset == label].txs_required.isna().sum()),
        }
        for label, _, _ in ASSETS
    },
    "usdc_eth_families": {s: int(r.instances) for s, r in eth_families.iterrows()},
}
print(json.dumps(headline, sort_keys=True))
