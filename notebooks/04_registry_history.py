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
# # 04 · Registry history: what changed, and what if
#
# The chain registry changes every week. This notebook loads it at four points in time — three earlier commits
# kept as GitHub archives in `registry-history/`, and the current snapshot — and asks:
#
# 1. how the headline measures moved: routable chains, listed assets, the share of asset pairs that need a
#    single transaction, and the size of the largest group of chains connected by transfer channels;
# 2. which chains grew or lost the most reach (asset pairs gained or lost, as source or destination) over the
#    whole period;
# 3. one what-if: **which single chain, by turning on packet-forward middleware (PFM), would turn the most asset
#    pairs into one transaction?**
#
# Any commit can be added with `ar.load_registry("cosmos/chain-registry@<40-hex commit>")` (downloaded once).

# %% tags=["parameters"]
REGISTRY_SOURCE = None  # directory, archive or URL; None: $ASSETROUTE_REGISTRY, else the pinned archive
BASE_URL = None  # unused here: diffs and what-ifs need the embedded registry, not a remote service
HISTORY_DIR = None  # folder of earlier archives; None: $ASSETROUTE_HISTORY, else registry-history next to the registry
CANDIDATES = 25  # how many of the most connected chains without PFM the what-if tries

# %%
import json
import os
import sys
from pathlib import Path

import pandas as pd
import plotly.express as px
from IPython.display import Markdown, display

try:
    import assetroute_core as ar
except ModuleNotFoundError:  # a checkout without `pip install -e .`: the package is one folder up
    sys.path.insert(0, str(Path.cwd().parent))
    import assetroute_core as ar
from assetroute_app.changes import known_versions, measures_figure, measures_frame, most_connected
from assetroute_core.notebook import setup

nb = setup(REGISTRY_SOURCE, base_url=BASE_URL)  # the current registry, its provenance shown
if HISTORY_DIR:
    os.environ["ASSETROUTE_HISTORY"] = str(HISTORY_DIR)
versions = known_versions(REGISTRY_SOURCE or os.environ.get("ASSETROUTE_REGISTRY") or None)
# the earlier versions from the history, oldest first; the current one (last) is the one just loaded
registries = [*(ar.load_registry(v.source or None) for v in versions[:-1]), nb.registry]
display(pd.DataFrame([{"version": v.label, "commit": r.provenance.commit, "source": r.provenance.source}
                      for v, r in zip(versions, registries, strict=True)]))

# %% [markdown]
# ## 1 · The four versions as a time series
#
# Each measure is computed from the registry alone: the pairs are those `assets_between_chains` answers for
# every ordered pair of routable chains (multi-transaction routes included, other flags at their defaults).

# %%
series = [(v.label, r.measures()) for v, r in zip(versions, registries, strict=True)]
frame = measures_frame(series)
display(frame.drop(columns=["source"]))
measures_figure(frame)

# %% [markdown]
# ## 2 · Who grew, who lost
#
# The diff of the oldest version against the newest, with default flags: for every ordered pair of routable
# chains present in both, the asset pairs gained, lost or changed. Each chain's *net* counts pairs gained minus
# pairs lost, as source and as destination.

# %%
diff = registries[0].diff(registries[-1])
display(Markdown(
    f"**{versions[0].label} → {versions[-1].label}:** {len(diff.chains_added)} chains added, "
    f"{len(diff.chains_removed)} removed, {len(diff.chains_killed)} killed, {len(diff.chains_revived)} revived; "
    f"{sum(a.change == 'listed' for a in diff.assets)} assets listed, "
    f"{sum(a.change == 'delisted' for a in diff.assets)} delisted; "
    f"asset pairs {diff.pairs_old} → {diff.pairs_new} (gained {diff.pairs_gained}, lost {diff.pairs_lost}, "
    f"changed {diff.pairs_changed})."))
per_chain = diff.to_frame("per_chain").sort_values(["net", "chain_id"], ascending=[False, True])
movers = pd.concat([per_chain.head(10), per_chain[per_chain["net"] < 0].tail(10)]).drop_duplicates("chain_id")
px.bar(movers.sort_values("net"), x="net", y="chain_id", orientation="h",
       color=movers.sort_values("net")["net"].gt(0).map({True: "grew", False: "lost"}),
       color_discrete_map={"grew": "#4F46E5", "lost": "#DC2626"},
       labels={"net": "asset pairs gained − lost", "chain_id": "", "color": ""},
       title="Chains that grew or lost the most reach", height=520)

# %% [markdown]
# ## 3 · What if one more chain ran PFM?
#
# A route needs a new transaction at every intermediate chain that arrived by IBC and cannot forward. We try
# the most connected chains that do not run PFM (the overlay's facts), turn PFM on for each alone with
# `registry.with_changes(pfm={chain: True})` — a scenario over the same data, nothing copied — and count the
# asset pairs whose route becomes a single transaction.

# %%
current = registries[-1]
candidates = [c for c in most_connected(current, 1000) if not current.chain(c).pfm_enabled][:CANDIDATES]
rows = []
for chain_id in candidates:
    d = current.diff(current.with_changes(pfm={chain_id: True}), allow_multi_tx=True)
    fewer = [p for p in d.pairs if p.change == "changed" and (p.new_txs_required or 0) < (p.old_txs_required or 0)]
    rows.append({"chain_id": chain_id, "pairs_to_one_tx": sum(1 for p in fewer if p.new_txs_required == 1),
                 "pairs_fewer_txs": len(fewer)})
whatif = pd.DataFrame(rows).sort_values(["pairs_to_one_tx", "chain_id"], ascending=[False, True])
best = whatif.iloc[0]
display(Markdown(f"Of the {len(candidates)} chains tried, **{best['chain_id']}** would turn the most asset "
                 f"pairs into one transaction: **{int(best['pairs_to_one_tx'])}**."))
px.bar(whatif.head(12), x="chain_id", y="pairs_to_one_tx", title="Asset pairs that would need one transaction",
       labels={"chain_id": "chain turning PFM on", "pairs_to_one_tx": "pairs"}, height=380)

# %% tags=["headline"]
print(json.dumps({
    "versions": [{"label": v.label, "commit": r.provenance.commit} for v, r in zip(versions, registries, strict=True)],
    "measures": [m.to_dict() for _label, m in series],
    "oldest_to_newest": {"chains_added": len(diff.chains_added), "pairs_gained": diff.pairs_gained,
                         "pairs_lost": diff.pairs_lost, "pairs_changed": diff.pairs_changed,
                         "top_net": per_chain.head(3)[["chain_id", "net"]].values.tolist()},
    "whatif_candidates": candidates,
    "whatif_best": {"chain_id": best["chain_id"], "pairs_to_one_tx": int(best["pairs_to_one_tx"])},
}))
