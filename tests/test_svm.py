"""Solana, the SVM chain (SPEC §1–§2, issue 10): routable as chain-id ``solana``, its assets ``is_svm``, gated by
``include_svm_assets`` as EVM assets are by ``include_evm_assets``; reached over CCTP and the other bridges its
traces name. On the real snapshot.
"""

from __future__ import annotations

import httpx
import pytest

from assetroute_core import Registry

SOLANA_USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"


def test_solana_is_the_svm_chain_under_the_references_id(registry: Registry) -> None:
    solana = registry.chain("solana")
    assert (solana.chain_name, solana.chain_type, solana.routable) == ("solana", "svm", True)
    assert all(c.chain_id != "101" for c in registry.chains())  # the registry's own id is not the API's
    held = registry.assets("solana")
    assert held and all(a.is_svm and not a.is_evm for a in held)
    assert all(not a.is_svm for a in registry.assets("osmosis-1"))


def test_noble_usdc_reaches_solana_over_cctp_in_one_transaction(registry: Registry) -> None:
    pairs = registry.assets_between_chains("noble-1", "solana", include_svm_assets=True)
    usdc = [p for p in pairs if p.asset_on_source.denom == "uusdc"]
    assert [(p.asset_on_dest.denom, p.txs_required, p.bridges) for p in usdc] == [(SOLANA_USDC, 1, ("CCTP",))]
    assert usdc[0].asset_on_dest.is_svm is True
    assert usdc[0].asset_on_dest.to_api()["is_svm"] is True
    # gated like EVM assets: without the flag no SVM asset is on either side
    assert len(registry.assets_between_chains("noble-1", "solana")) == 0
    back = registry.assets_between_chains("solana", "noble-1", include_svm_assets=True)
    assert any(p.asset_on_source.denom == SOLANA_USDC and p.asset_on_dest.denom == "uusdc" for p in back)


def test_from_source_reaches_solana(registry: Registry) -> None:
    result = registry.assets_from_source("uusdc", "noble-1")
    assert [a.denom for a in result.dest_assets["solana"]] == [SOLANA_USDC]


def test_vouchers_of_solana_assets_name_origin_solana(registry: Registry) -> None:
    seen = 0
    for chain in registry.chains():
        for asset in registry.assets(chain.chain_id):
            if asset.origin_chain_name == "solana":
                assert asset.origin_chain_id == "solana", asset
                seen += 1
    assert seen >= len(registry.assets("solana"))


@pytest.mark.parametrize(("params", "has_solana"), [({}, False), ({"include_svm": "true"}, True)])
def test_chains_list_svm_only_when_asked(live_server: str, params: dict[str, str], has_solana: bool) -> None:
    chains = httpx.get(live_server + "/v2/info/chains", params=params).json()["chains"]
    solana = [c for c in chains if c["chain_id"] == "solana"]
    assert bool(solana) is has_solana
    if solana:
        assert solana[0]["chain_type"] == "svm" and solana[0]["bech32_prefix"] == ""


def test_the_http_option_and_the_assets_endpoint(live_server: str) -> None:
    body = {"source_chain_id": "noble-1", "dest_chain_id": "solana"}
    plain = httpx.post(live_server + "/v2/fungible/assets_between_chains", json=body).json()
    svm = httpx.post(live_server + "/v2/fungible/assets_between_chains",
                     json={**body, "includeSvmAssets": True}).json()
    assert plain["assets_between_chains"] == []
    assert any(p["asset_on_dest"]["is_svm"] for p in svm["assets_between_chains"])
    gated = httpx.get(live_server + "/v2/fungible/assets", params={"chain_ids": "solana"}).json()
    opened = httpx.get(live_server + "/v2/fungible/assets",
                       params={"chain_ids": "solana", "include_svm_assets": "true"}).json()
    assert gated["chain_to_assets_map"] == {}
    assert all(a["is_svm"] for a in opened["chain_to_assets_map"]["solana"]["assets"])
