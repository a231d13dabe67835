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
# # 02 · Connectivity: the chain graph
#
# Which chains are connected to which, which ones hold the network together, and how many assets can
# actually move between the best-connected chains — in how many transactions?
#
# 1. the **chain graph** (`assetroute_core.network.chain_graph`): routable chains as nodes, usable ICS-20
#    channels and bridge kinds as edges, handed to networkx;
# 2. **degree and centrality**, **components** and the **hubs** whose loss would cut chains off;
# 3. the **matrix of movable assets** between the 20 most connected chains (`assets_between_chains` for every
#    ordered pair);
# 4. how the **`txs_required` distribution** shifts with `allow_multi_tx` and with the overlay's
#    packet-forward-middleware (PFM) assumptions.

# %% tags=["parameters"]
REGISTRY_SOURCE = None  # directory, archive or URL; None: $ASSETROUTE_REGISTRY, else the pinned archive
BASE_URL = None  # e.g. "http://127.0.0.1:8000": run the lookups against that compatible HTTP service

# %%
import html
import json
import sys
import tempfile
from importlib import resources
from pathlib import Path

import networkx as nx
import pandas as pd
import plotly.express as px
from IPython.display import HTML, Markdown, display

try:
    import assetroute_core as ar
except ModuleNotFoundError:  # a checkout without `pip install -e .`: the package is one folder up
    sys.path.insert(0, str(Path.cwd().parent))
    import assetroute_core as ar
from assetroute_core import drawing
from assetroute_core.network import chain_graph, movable_matrix, top_chains, txs_distribution
from assetroute_core.notebook import setup

nb = setup(REGISTRY_SOURCE, base_url=BASE_URL)  # loads the registry, shows its provenance and the lookups' source
registry, lookups, names = nb.registry, nb.lookups, nb.names
display(Markdown("The graph itself is always built from the registry."))

# %% [markdown]
# ## 1. The graph
#
# `chain_graph(registry)` has one node per routable chain (live Cosmos and EVM chains), one **IBC** edge per
# usable ICS-20 channel between two of them (untagged channels count as usable, INACTIVE ones are left out)
# and one **bridge** edge per chain pair and bridge kind found in the registry's traces (Axelar, CCTP,
# Eureka, …). `to_networkx()` gives a `MultiGraph` with every edge; `to_networkx(multigraph=False)` collapses
# parallel edges into one per chain pair, which is what degree, centrality and components are measured on.

# %%
graph = chain_graph(registry)
nodes, edges = graph.to_frames()
multi = graph.to_networkx()
simple = graph.to_networkx(multigraph=False)
edge_kinds = edges.kind.value_counts()
display(Markdown(
    f"**{multi.number_of_nodes()} chains, {multi.number_of_edges()} edges** "
    f"({edge_kinds.get('IBC', 0)} IBC channels, {multi.number_of_edges() - edge_kinds.get('IBC', 0)} bridge edges) "
    f"joining **{simple.number_of_edges()} distinct chain pairs**. "
    f"{int(edges.canonical.sum())} IBC edges are the canonical channel of their pair — the one routes use."
))
fig = px.bar(
    edge_kinds.rename_axis("kind").reset_index(name="edges"), x="kind", y="edges", text_auto=True, log_y=True,
    title="Edges of the chain graph by kind (log scale)",
)
fig.show()

# %% [markdown]
# ## 2. Degree and centrality
#
# A chain's **degree** is the number of distinct chains it shares a channel or a bridge with. **Betweenness**
# is the share of shortest chain-to-chain paths that pass through it: a high value marks a transit hub.
# **Closeness** measures how few hops it needs to reach everything in its component.

# %%
betweenness = nx.betweenness_centrality(simple)
closeness = nx.closeness_centrality(simple)
nodes["betweenness"] = nodes.chain_id.map(betweenness)
nodes["closeness"] = nodes.chain_id.map(closeness)
top20 = top_chains(graph, 20)
centrality = nodes.set_index("chain_id").loc[top20, ["pretty_name", "chain_type", "pfm_enabled", "degree",
                                                     "betweenness", "closeness"]]
centrality.round(3)

# %%
fig = px.histogram(
    nodes, x="degree", color="chain_type", nbins=80, log_y=True,
    title="Degree distribution: a few hubs, a long tail of chains with one or two links",
)
fig.show()

# %%
fig = px.scatter(
    nodes[nodes.degree > 0], x="degree", y="betweenness", color="chain_type", hover_name="pretty_name",
    hover_data=["chain_id"], log_x=True, title="Degree versus betweenness (connected chains)",
)
fig.show()

# %%
share_osmo = betweenness["osmosis-1"]
display(Markdown(
    f"Osmosis is by far the best connected chain (degree {graph.node('osmosis-1').degree}) and lies on "
    f"**{share_osmo:.0%}** of all shortest paths; the Cosmos Hub (degree {graph.node('cosmoshub-4').degree}) "
    f"follows. Top 5 by betweenness: "
    + ", ".join(f"{c} ({v:.2f})" for c, v in sorted(betweenness.items(), key=lambda kv: -kv[1])[:5]) + ". "
    "EVM chains only connect through bridges, so their degree counts bridge kinds, not channels."
))

# %% [markdown]
# ## 3. Components and hubs
#
# A **component** is a set of chains joined by some path. Chains without any usable channel or bridge
# (many young chains have no `_IBC` file yet) are components of their own: nothing can be routed to or from
# them. Without the bridge edges the EVM chains fall off the network entirely.

# %%
components = sorted(nx.connected_components(simple), key=len, reverse=True)
giant = components[0]
isolated = sorted(n for n in simple if simple.degree(n) == 0)
ibc_only = graph.filter(kinds={"IBC"}).to_networkx(multigraph=False)
ibc_components = sorted(nx.connected_components(ibc_only), key=len, reverse=True)
evm_in_giant = sorted(simple.nodes[n]["pretty_name"] for n in giant if simple.nodes[n]["chain_type"] == "evm")
others = [c for c in components[1:] if len(c) > 1]
display(Markdown(
    f"**{len(components)} components**: one giant component of **{len(giant)} chains**, "
    + (f"{len(others)} other components of several chains " if others else "no other component of several chains ")
    + f"and **{len(isolated)} isolated chains**. Counting IBC channels only, the giant component has "
    f"{len(ibc_components[0])} chains: the bridges bring in the {len(evm_in_giant)} EVM chains "
    f"({', '.join(evm_in_giant)})."
))
pd.Series([len(c) for c in components], name="chains").value_counts().rename_axis("component size").to_frame(
    "components"
)

# %% [markdown]
# A **hub** here is an articulation point of the giant component: a chain whose disappearance splits it.
# The bar shows how many chains would be cut off from the rest.

# %%
giant_graph = simple.subgraph(giant).copy()
cut_off = {}
for chain_id in nx.articulation_points(giant_graph):
    rest = giant_graph.copy()
    rest.remove_node(chain_id)
    cut_off[chain_id] = len(giant) - 1 - max(len(c) for c in nx.connected_components(rest))
hubs = pd.Series(cut_off, name="chains cut off").sort_values(ascending=False).rename_axis("chain_id").reset_index()
fig = px.bar(
    hubs.head(15), x="chain_id", y="chains cut off", text_auto=True,
    title="Articulation points: chains that would be cut off if this chain disappeared",
)
fig.show()

# %% [markdown]
# The network below is the giant component and its neighbours (every chain with at least one edge):
# node size grows with degree, Cosmos chains are indigo, EVM chains blue, bridge edges take their kind's
# colour. Hover a chain or an edge for details; drag to explore.

# %%
connected = graph.filter(min_degree=1)
spec = drawing.chain_network_graph(connected, focus="cosmoshub-4")
page = drawing.render_html(spec, height=640)
display(HTML(
    f'<div><iframe srcdoc="{html.escape(page, quote=True)}" style="width:100%;height:660px;border:0"></iframe></div>'
))

# %% [markdown]
# ## 4. What can move between the 20 best-connected chains
#
# For every ordered pair of the 20 chains with the highest degree, `assets_between_chains(source, dest)`
# lists the assets held on the source paired with what each becomes on the destination. The first matrix
# uses the reference API's defaults: both sides must be **listed** (have metadata), no CW20 or EVM assets,
# single-transaction routes only. Assetlists are incomplete, so many real vouchers are missing from it; the
# second matrix adds `include_no_metadata_assets=True`, which counts the derived vouchers too.

# %%
labels = {n.chain_id: n.pretty_name for n in graph.nodes}
listed_matrix = movable_matrix(lookups, top20)
drawing.movable_heatmap(
    listed_matrix, labels=labels, title="Assets movable in one transaction (reference defaults: listed assets only)"
).show()

# %%
all_matrix = movable_matrix(lookups, top20, include_no_metadata_assets=True)
drawing.movable_heatmap(
    all_matrix, labels=labels, title="Assets movable in one transaction, derived vouchers included"
).show()

# %%
exports = all_matrix.sum(axis=1).sort_values(ascending=False)
imports = all_matrix.sum(axis=0).sort_values(ascending=False)
display(Markdown(
    f"With the defaults, **{int(listed_matrix.sum().sum()):,} pairs** move in one transaction across the "
    f"{len(top20) * (len(top20) - 1)} ordered chain pairs; counting derived vouchers, "
    f"**{int(all_matrix.sum().sum()):,}**. Cosmos Hub → Osmosis: {int(listed_matrix.loc['cosmoshub-4', 'osmosis-1'])} "
    f"listed pairs, {int(all_matrix.loc['cosmoshub-4', 'osmosis-1'])} in all. {labels[exports.index[0]]} sends the "
    f"most ({int(exports.iloc[0]):,} pairs) and {labels[imports.index[0]]} receives the most "
    f"({int(imports.iloc[0]):,}): with derived vouchers counted, a chain's totals grow with the number of native "
    "assets on it and on its neighbours. A zero in the first matrix usually means a missing assetlist entry, not a "
    "missing route; the blank diagonal is source = destination."
))

# %% [markdown]
# ## 5. How many transactions?
#
# `txs_required` is 1 plus one for every intermediate chain where the route continues but the transfer cannot
# be passed on in the same transaction: it can when the route arrived there by IBC and that chain runs PFM, or
# arrived by a bridge that forwards onward (Axelar, Eureka). By default only single-transaction pairs are
# returned; `allow_multi_tx=True` adds the rest.

# %%
single = txs_distribution(lookups, top20).assign(setting="allow_multi_tx=False")
multi_tx = txs_distribution(lookups, top20, allow_multi_tx=True).assign(setting="allow_multi_tx=True")
by_flag = pd.concat([single, multi_tx], ignore_index=True)
fig = px.bar(
    by_flag, x="txs_required", y="pairs", color="setting", barmode="group", text_auto=True,
    title="Asset pairs between the top-20 chains by txs_required (listed assets)",
)
fig.update_xaxes(dtick=1)
fig.show()

# %% [markdown]
# ### What if PFM were nowhere — or everywhere?
#
# PFM support is not in the registry: it comes from the overlay shipped with the package, where each entry
# names its source, and an unknown status counts as *no PFM*. To see how much the answer depends on it, the
# registry is loaded twice more with a modified copy of the overlay (`load_registry(source, overlay=path)`):
# once with **every PFM entry set to false**, once with **every routable Cosmos chain set to true**. These
# what-ifs always use the embedded registry, since a remote service carries its own overlay. The counts
# include derived vouchers and allow multi-transaction routes, so every movable pair is counted.

# %%
shipped = json.loads((resources.files("assetroute_core") / "data" / "overlay.json").read_text(encoding="utf-8"))
no_pfm = dict(shipped, pfm=[dict(entry, pfm_enabled=False) for entry in shipped["pfm"]])
listed_pfm = {entry["chain_name"] for entry in shipped["pfm"]}
all_pfm = dict(
    shipped,
    pfm=[dict(entry, pfm_enabled=True) for entry in shipped["pfm"]]
    + [
        {"chain_name": c.chain_name, "pfm_enabled": True, "source": "what-if (notebook 02): PFM assumed everywhere"}
        for c in registry.chains()
        if c.chain_type == "cosmos" and c.chain_name not in listed_pfm
    ],
)
scenarios = {"shipped overlay": registry}
with tempfile.TemporaryDirectory() as tmp:
    for name, overlay in (("no PFM anywhere", no_pfm), ("PFM on every Cosmos chain", all_pfm)):
        path = Path(tmp) / "overlay.json"
        path.write_text(json.dumps(overlay), encoding="utf-8")
        scenarios[name] = ar.load_registry(REGISTRY_SOURCE, overlay=path)

pfm_frames = []
for name, reg in scenarios.items():
    pfm_chains = sum(c.pfm_enabled for c in reg.chains())
    frame = txs_distribution(reg, top20, allow_multi_tx=True, include_no_metadata_assets=True)
    pfm_frames.append(frame.assign(scenario=f"{name} ({pfm_chains} PFM chains)"))
by_pfm = pd.concat(pfm_frames, ignore_index=True)
fig = px.bar(
    by_pfm, x="txs_required", y="share", color="scenario", barmode="group", text_auto=".1%",
    title="Share of asset pairs by txs_required under three PFM assumptions (top-20 chains, all assets)",
)
fig.update_xaxes(dtick=1).update_yaxes(tickformat=".0%")
fig.show()

# %%
one_tx = {row.scenario.split(" (")[0]: row.share for row in by_pfm[by_pfm.txs_required == 1].itertuples()}
display(Markdown(
    "Share of pairs that need a single transaction: "
    + "; ".join(f"**{name}** {share:.1%}" for name, share in one_tx.items()) + ". "
    "Most multi-transaction routes unwind a voucher to its origin and continue from there, so whether the "
    "origin chain forwards the packet decides between one transaction and two. The shipped overlay only marks "
    "chains whose PFM support has a source; the truth for the unmarked ones lies between the two extremes."
))

# %% tags=["headline"]
# Headline numbers as JSON (read back by tests/test_notebooks.py).
headline = {
    "notebook": "02_connectivity",
    "nodes": multi.number_of_nodes(),
    "edges": multi.number_of_edges(),
    "edges_by_kind": {k: int(v) for k, v in edge_kinds.sort_index().items()},
    "chain_pairs": simple.number_of_edges(),
    "components": len(components),
    "giant_component": len(giant),
    "isolated": len(isolated),
    "top20": top20,
    "degrees_top5": {c: graph.node(c).degree for c in top20[:5]},
    "listed_matrix_total": int(listed_matrix.sum().sum()),
    "all_matrix_total": int(all_matrix.sum().sum()),
    "hub_to_osmosis_listed": int(listed_matrix.loc["cosmoshub-4", "osmosis-1"]),
    "hub_to_osmosis_all": int(all_matrix.loc["cosmoshub-4", "osmosis-1"]),
    "txs_multi": {int(r.txs_required): int(r.pairs) for r in multi_tx.itertuples()},
    "txs_by_pfm": {
        name.split(" (")[0]: {int(r.txs_required): int(r.pairs) for r in frame.itertuples()}
        for name, frame in zip(scenarios, pfm_frames, strict=True)
    },
}
print(json.dumps(headline, sort_keys=True))
