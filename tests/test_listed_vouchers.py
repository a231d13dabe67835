"""Every one-hop IBC voucher listed in the snapshot is found from its origin (SPEC.md §2–§3)."""

import json

from assetroute_core._ibc import split_path


def _one_hop_vouchers(registry_path):
    for path in sorted(registry_path.glob("**/assetlist.json")):
        doc = json.loads(path.read_text())
        for asset in doc.get("assets", []):
            traces = asset.get("traces") or []
            base = asset.get("base", "")
            if not traces or not base.startswith("ibc/") or traces[-1].get("type") not in ("ibc", "ibc-cw20"):
                continue
            pairs, tail = split_path(traces[-1]["chain"]["path"])
            if len(pairs) == 2:
                yield doc["chain_name"], base, pairs[1], tail


def test_listed_one_hop_vouchers_are_reached_from_their_origin(registry, registry_path):
    engine = registry.engine
    checked, missing, skipped, no_origin = 0, [], [], []
    for chain_name, denom, channel, origin_denom in _one_hop_vouchers(registry_path):
        end = engine.data.ends.get(chain_name, {}).get(channel)
        if end is None or not end.channel.usable:
            continue
        chain, origin_chain = engine.chains.get(chain_name), engine.chains.get(end.counterparty_chain)
        if chain is None or origin_chain is None or not (chain.routable and origin_chain.routable):
            continue
        if chain_name not in engine.routable or registry.chain(chain.chain_id).chain_name != chain_name:
            continue
        origin = engine.find(origin_chain.chain_name, origin_denom)
        if origin is None or origin.trace:
            no_origin.append((chain_name, denom))  # the origin does not list that native asset
            continue
        canonical = engine.canonical_channel(origin_chain.chain_name, chain_name, cw20=origin.is_cw20)
        if canonical is None or canonical.counterparty_channel_id != channel:
            # Over another channel than the canonical one (or a CW20 over a plain transfer port):
            # a different instance from the canonical representation, not recommended (SPEC §2–§3).
            skipped.append((chain_name, denom, channel))
            continue
        result = registry.assets_from_source(origin.denom, origin_chain.chain_id, include_cw20_assets=True,
                                             allow_multi_tx=True)
        listed_there = [a.denom for a in result.dest_assets.get(chain.chain_id, ())]
        checked += 1
        if denom not in listed_there:
            missing.append((chain_name, denom, channel))
    print(f"checked {checked} listed one-hop vouchers over canonical channels; {len(skipped)} over other channels; "
          f"{len(no_origin)} whose origin does not list the base denom")
    assert checked > 500
    assert missing == []
    assert len(skipped) < checked / 20, skipped
    assert len(no_origin) < checked / 10, no_origin
