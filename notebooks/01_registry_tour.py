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
# # 01 · A tour of the chain registry
#
# What does the Cosmos chain registry hold, what can be routed, and how clean is it?
# This notebook loads one registry snapshot with `assetroute_core` and counts, with charts:
#
# 1. **chains** by type and status, and which of them are routable;
# 2. **assets** by type, and the *listed* assets (an assetlist entry, with metadata) versus the
#    *derived* canonical vouchers the loader adds for every usable channel;
# 3. **IBC channels** by status and port pair, and the **bridge links** read from traces;
# 4. what the **data-quality report** found, and what the loader did about it.
#
# Everything is computed at run time from the snapshot: nothing from the registry is stored here.
# Only the public API of `assetroute_core` is used.

# %% tags=["parameters"]
REGISTRY_SOURCE = None  # directory, archive or URL; None: $ASSETROUTE_REGISTRY, else the pinned archive
BASE_URL = None  # e.g. "http://127.0.0.1:8000": run the lookups against that compatible HTTP service

# %%
import json
import re
import sys
from collections import Counter
from pathlib import Path

import pandas as pd
import plotly.express as px
from IPython.display import Markdown, display

try:
    import assetroute_core as ar
except ModuleNotFoundError:  # a checkout without `pip install -e .`: the package is one folder up
    sys.path.insert(0, str(Path.cwd().parent))
    import assetroute_core as ar
from assetroute_core.notebook import setup

nb = setup(REGISTRY_SOURCE, base_url=BASE_URL)  # loads the registry, shows its provenance and the lookups' source
registry, lookups, names = nb.registry, nb.lookups, nb.names

provenance = registry.provenance.to_dict()
pd.Series(provenance["counts"], name="count").to_frame()

# %% [markdown]
# The counts above are the loader's own: `files` read, `chains` (every folder with a `chain.json`, plus the
# EVM chains whose chain id comes from the overlay), `routable_chains`, `channels` read from `_IBC`,
# `usable_transfer_channels` (chain pairs with a usable ICS-20 channel), `listed_assets` (assetlist entries),
# `bridge_links` and `quality_issues`.
#
# ## 1. Chains by type and status
#
# A chain is **routable** when it is live, of type Cosmos or EVM, and owns its chain id (where two folders
# share a chain id, the live one owns it). Killed chains, `upcoming` chains and the other namespaces
# (polkadot, solana, …) stay in the registry but are never a source or a destination.

# %%
# registry.chains() lists the routable chains; a killed chain that shares its chain id with a live one is
# not routable even though its id is, so compare names.
routable_names = {c.chain_name for c in registry.chains()}
chains = pd.DataFrame(
    [
        {
            "chain_name": c.chain_name,
            "chain_id": c.chain_id,
            "chain_type": c.chain_type,
            "status": c.status,
            "pfm_enabled": c.pfm_enabled,
            "routable": c.chain_name in routable_names,
        }
        for c in registry.chains(routable_only=False)
    ]
)

by_type_status = pd.crosstab(chains.chain_type, chains.status, margins=True)
by_type_status

# %%
fig = px.histogram(
    chains, x="chain_type", color="status", barmode="group", text_auto=True,
    title="Chains by type and status", labels={"chain_type": "chain type"},
    category_orders={"status": ["live", "upcoming", "killed"]},
)
fig.show()

# %%
not_routable = chains[~chains.routable]
reasons = Counter()
for row in not_routable.itertuples():
    if row.status != "live":
        reasons[f"status {row.status}"] += 1
    elif row.chain_type not in ("cosmos", "evm"):
        reasons[f"type {row.chain_type}"] += 1
    elif not row.chain_id:
        reasons["no chain id"] += 1
    else:
        reasons["chain id owned by another chain"] += 1
pfm_on = int(chains[chains.routable].pfm_enabled.sum())
display(Markdown(
    f"**{int(chains.routable.sum())} of {len(chains)} chains are routable** "
    f"({(chains.routable & (chains.chain_type == 'evm')).sum()} of them EVM). "
    "Not routable: " + ", ".join(f"{n} ({why})" for why, n in reasons.most_common()) + ". "
    f"The overlay marks packet-forward middleware on **{pfm_on}** routable chains; an unknown PFM status "
    "counts as *no PFM*, so a route that continues from any other chain after arriving there by IBC needs a new "
    "transaction at that chain."
))

# %% [markdown]
# ## 2. Assets: listed versus derived
#
# `registry.assets(chain_id)` returns every instance a routable chain holds: the entries of its own assetlist
# (**listed**, with symbol, name, decimals, logo …) and the **derived canonical vouchers**: for every
# neighbour reachable over a usable channel, each of the neighbour's native assets as it arrives over the
# canonical channel. Assetlists miss most vouchers that exist — OSMO on the Hub is one of them — and the
# derived ones close that gap, carrying identity fields only (origin chain, origin denom, trace).

# %%
rows = []
for chain in registry.chains():
    for asset in registry.assets(chain.chain_id):
        rows.append(
            {
                "chain_id": chain.chain_id,
                "chain_type": chain.chain_type,
                "denom": asset.denom,
                "kind": "listed" if asset.listed else "derived",
                "type_asset": asset.type_asset or "(derived voucher)",
                "native": asset.is_native,
                "hops": len(asset.trace.split("/")) // 2 if asset.trace else 0,
                "is_cw20": asset.is_cw20,
                "is_evm": asset.is_evm,
            }
        )
assets = pd.DataFrame(rows)
listed = assets[assets.kind == "listed"]
pd.crosstab(listed.type_asset, listed.native.map({True: "native", False: "voucher"}), margins=True).sort_values(
    "All", ascending=False
)

# %%
fig = px.histogram(
    listed, y="type_asset", color="chain_type", text_auto=True, orientation="h",
    title="Listed assets on routable chains by type_asset",
    labels={"type_asset": "type_asset"},
).update_yaxes(categoryorder="total ascending")
fig.show()

# %%
per_chain = assets.groupby(["chain_id", "kind"]).size().unstack(fill_value=0)
per_chain["held"] = per_chain.sum(axis=1)
top_held = per_chain.sort_values("held", ascending=False).head(25)
fig = px.bar(
    top_held.reset_index(), x="chain_id", y=["listed", "derived"],
    title="Instances held on the 25 best-stocked chains: assetlist entries versus derived vouchers",
    labels={"value": "instances", "variable": ""},
)
fig.show()

# %%
osmo_on_hub = registry.find_asset("cosmoshub-4", ar.ibc_denom("transfer/channel-141", "uosmo"))
kinds = assets.kind.value_counts()
display(Markdown(
    f"Routable chains hold **{len(assets):,} instances**: {kinds.get('listed', 0):,} listed and "
    f"{kinds.get('derived', 0):,} derived ({kinds.get('derived', 0) / len(assets):.0%}). The loader read "
    f"{provenance['counts']['listed_assets']:,} assetlist entries in all; the "
    f"{provenance['counts']['listed_assets'] - kinds.get('listed', 0):,} not counted here sit on chains that "
    f"are not routable (bitcoin, forex, killed chains …). Example: OSMO on the Hub is "
    f"`{osmo_on_hub.denom if osmo_on_hub else '—'}` with trace `{osmo_on_hub.trace if osmo_on_hub else '—'}`, "
    f"listed: **{osmo_on_hub.listed if osmo_on_hub else '—'}**. "
    f"Of the {int((listed.hops > 0).sum())} listed vouchers, {int((listed.hops == 1).sum())} are one hop from their "
    f"origin and {int((listed.hops > 1).sum())} carry multi-hop traces."
))

# %% [markdown]
# ## 3. Channels and bridges
#
# `registry.channels()` returns every channel of `_IBC` that has well-formed ids and ports, with the
# registry's `status` tag (ACTIVE / INACTIVE / …, or none) and `preferred` tag. Only channels between two
# `transfer` ports (or `transfer` against a CW20-ICS20 `wasm.` port) move fungible tokens; an untagged
# channel counts as usable, INACTIVE and CLOSED ones do not.

# %%
def port_pair(p1: str, p2: str) -> str:
    ports = sorted(("wasm.*" if p.startswith("wasm.") else p) for p in (p1, p2))
    if ports == ["transfer", "transfer"]:
        return "transfer ↔ transfer"
    if ports == ["transfer", "wasm.*"]:
        return "transfer ↔ wasm (CW20)"
    if ports == ["wasm.*", "wasm.*"]:
        return "wasm ↔ wasm"
    if any(p.startswith("icacontroller") or p == "icahost" for p in ports):
        return "interchain accounts"
    return "other"


channels = pd.DataFrame(
    [
        {
            "file": ch.file,
            "port_pair": port_pair(ch.port_1, ch.port_2),
            "status": ch.status or "(untagged)",
            "preferred": {True: "preferred", False: "not preferred", None: "(untagged)"}[ch.preferred],
            "usable": ch.usable,
            "between_routable": ch.chain_1 in routable_names and ch.chain_2 in routable_names,
        }
        for ch in registry.channels()
    ]
)
pd.crosstab(channels.port_pair, channels.status, margins=True)

# %%
fig = px.histogram(
    channels, x="port_pair", color="status", text_auto=True,
    title="IBC channels of _IBC by port pair and status",
    category_orders={"status": ["ACTIVE", "(untagged)", "INACTIVE", "CLOSED", "PENDING"]},
    labels={"port_pair": "port pair"},
)
fig.show()

# %%
transfer = channels[channels.port_pair.str.startswith("transfer")]
usable_routable = transfer[transfer.usable & transfer.between_routable]
display(Markdown(
    f"**{len(channels)} channels** were read; {len(transfer)} of them carry ICS-20 transfers, and "
    f"{len(usable_routable)} of those are usable and join two routable chains — the edges of the chain graph "
    f"(notebook 02). {int((transfer.status == 'INACTIVE').sum())} transfer channels are tagged INACTIVE and "
    f"{int((transfer.status == '(untagged)').sum())} carry no status at all (treated as usable). "
    f"{int((channels.preferred == 'preferred').sum())} channels are marked preferred; where two chains share "
    "several channels, the canonical one is the preferred, then ACTIVE, then lowest-numbered."
))

# %% [markdown]
# Bridges are not in `_IBC`: the loader reads them from asset **traces** (`bridge` and `ibc-bridge` traces,
# named by provider) and adds Circle's **CCTP** family (Ethereum USDC and every instance minted by Circle
# from it, linked pairwise). Each link joins an asset on one chain with its counterpart on another.

# %%
links = pd.DataFrame(
    [
        {
            "kind": link.kind,
            "provider": link.provider,
            "chain_a": link.a[0],
            "chain_b": link.b[0],
            "between_routable": link.a[0] in routable_names and link.b[0] in routable_names,
        }
        for link in registry.bridge_links()
    ]
)
link_counts = links.groupby(["kind", "between_routable"]).size().unstack(fill_value=0)
link_counts.columns = [{True: "both chains routable", False: "a chain not routable"}[c] for c in link_counts.columns]
link_counts = link_counts.assign(total=link_counts.sum(axis=1)).sort_values("total", ascending=False)
fig = px.bar(
    link_counts.drop(columns="total").reset_index(), y="kind", x=link_counts.columns[:-1].tolist(),
    orientation="h", title="Bridge links by kind", labels={"value": "links", "variable": ""},
).update_yaxes(categoryorder="total ascending")
fig.show()

# %% [markdown]
# ## 4. Data quality
#
# The registry's quirks are survived, not fixed by hand: every problem the loader met becomes a
# `QualityIssue` (file, problem, action taken) in `registry.quality`, and everything valid beside it is kept.
# The problems are grouped below into families by their wording.

# %%
FAMILIES = [
    (r"is shared by", "duplicate chain id (the live chain owns it)"),
    (r"assetlist without chain\.json", "assetlist without chain.json or overlay chain id"),
    (r"wildcard", "wildcard or malformed channel id in _IBC"),
    (r"path tail .* differs from counterparty", "trace path tail differs from counterparty base_denom"),
    (r"channel \d\d-[a-z0-9-]+ of .* is not in _IBC", "IBC v2 (Eureka) client id in a trace path"),
    (r"is not in _IBC", "trace channel missing from _IBC"),
    (r"does not hash", "ibc/ denom does not hash from its path"),
    (r"listed twice", "duplicate entry"),
]


def family(problem: str) -> str:
    for pattern, name in FAMILIES:
        if re.search(pattern, problem):
            return name
    return re.sub(r"'[^']*'|ibc/[0-9A-F]{64}|\d+", "…", problem)[:80]


quality = pd.DataFrame([{"file": q.file, "problem": q.problem, "action": q.action} for q in registry.quality])
quality["family"] = quality.problem.map(family)
quality["action"] = quality.action.str.replace(r"'[^']*' \(live\) owns it", "the live chain owns it", regex=True)
quality_summary = (
    quality.groupby(["family", "action"]).agg(issues=("problem", "size"), files=("file", "nunique")).reset_index()
    .sort_values("issues", ascending=False)
)
quality_summary

# %%
fig = px.bar(
    quality_summary, y="family", x="issues", color="action", orientation="h",
    title=f"Data-quality report: {len(quality)} issues by family and action",
).update_yaxes(categoryorder="total ascending")
fig.show()

# %%
display(Markdown(
    f"The report lists **{len(quality)} issues in {quality.file.nunique()} files**. The biggest families: "
    + "; ".join(f"{r.issues} × {r.family} → *{r.action}*" for r in quality_summary.head(4).itertuples())
    + ". None of them aborts the load. Vouchers whose channel cannot be found in `_IBC` keep the identity "
    "their path gives but cannot be unwound over IBC, so they only leave their chain by a bridge."
))
quality[quality.family.str.startswith(("duplicate chain id", "wildcard", "trace path tail"))][
    ["file", "problem", "action"]
]

# %% [markdown]
# ## 5. A first lookup
#
# The registry-wide counts above need the registry itself; the two lookups can also run against a compatible
# HTTP service (set `BASE_URL`). Here: which assets can move from the Cosmos Hub to Osmosis in a single
# transaction, with the reference API's default filters (both sides listed, no CW20 / EVM assets).

# %%
between = lookups.assets_between_chains("cosmoshub-4", "osmosis-1")
between_frame = between.to_frame()
display(Markdown(
    f"`assets_between_chains(cosmoshub-4 → osmosis-1)` returns **{len(between)} pairs**; "
    f"with `include_no_metadata_assets=True` it returns "
    f"**{len(lookups.assets_between_chains('cosmoshub-4', 'osmosis-1', include_no_metadata_assets=True))}**."
))
between_frame[["source_symbol", "source_denom", "dest_denom", "dest_trace", "txs_required", "bridges"]].head(10)

# %% tags=["headline"]
# Headline numbers as JSON (read back by tests/test_notebooks.py).
headline = {
    "notebook": "01_registry_tour",
    "chains": len(chains),
    "routable_chains": int(chains.routable.sum()),
    "chains_by_type_status": {
        f"{t}/{s}": int(n) for (t, s), n in chains.groupby(["chain_type", "status"]).size().items()
    },
    "held_instances": len(assets),
    "listed_instances": int(kinds.get("listed", 0)),
    "derived_instances": int(kinds.get("derived", 0)),
    "channels": len(channels),
    "channels_by_status": {k: int(v) for k, v in channels.status.value_counts().sort_index().items()},
    "usable_transfer_channels_between_routable": len(usable_routable),
    "bridge_links_by_kind": {k: int(v) for k, v in links.kind.value_counts().sort_index().items()},
    "quality_issues": len(quality),
    "quality_by_action": {k: int(v) for k, v in quality.action.value_counts().sort_index().items()},
    "hub_to_osmosis_pairs": len(between),
}
print(json.dumps(headline, sort_keys=True))
