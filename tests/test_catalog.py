"""The reference API's other read endpoints (issue 10): bridges, venues, the assets of many chains, IBC
origins — the Python API, a real server on loopback and the client agree, answers match the reference's
documented examples where they overlap, and bad input is a 4xx with the error body.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from assetroute_core import REFERENCE_BRIDGE_KINDS, Registry
from assetroute_core._catalog import MAX_ORIGIN_ASSETS
from assetroute_core.client import AssetRouteClient

RELATED = Path(__file__).resolve().parents[2] / "shared" / "skip-api-examples" / "related"
OSMO_ON_HUB = "ibc/14F9BC3E44B8A9C1BE1FB08980FAB87034C9905EF17CF2F5008FC085218811CC"


def example(name: str) -> dict:
    path = RELATED / name
    assert path.is_file(), f"reference example missing: {path}"
    return json.loads(path.read_text())


@pytest.fixture(scope="module")
def http(live_server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live_server, timeout=60) as client:
        yield client


@pytest.fixture(scope="module")
def client(live_server: str) -> Iterator[AssetRouteClient]:
    with AssetRouteClient(live_server) as c:
        yield c


def test_bridges(http: httpx.Client, registry: Registry, client: AssetRouteClient) -> None:
    body = http.get("/v2/info/bridges").json()
    ids = [b["id"] for b in body["bridges"]]
    linked = {link.kind for link in registry.bridge_links()}
    assert ids[0] == "IBC" and set(ids) == {"IBC"} | (linked & REFERENCE_BRIDGE_KINDS)
    want = {b["id"]: b["name"] for b in example("bridges__excerpt.json")["response"]["bridges"]}
    assert {b["id"]: b["name"] for b in body["bridges"] if b["id"] in want} == want  # the reference's names
    assert body == {"bridges": [b.to_api() for b in registry.bridges()]}
    assert client.bridges() == registry.bridges()


def test_venues(http: httpx.Client, registry: Registry, client: AssetRouteClient) -> None:
    venues = http.get("/v2/fungible/venues").json()["venues"]
    assert [(v["name"], v["chain_id"]) for v in venues] == [(v.name, v.chain_id) for v in registry.swap_venues()]
    documented = {(v["name"], v["chain_id"]) for v in example("venues__excerpt.json")["response"]["venues"]}
    assert documented <= {(v["name"], v["chain_id"]) for v in venues}
    assert client.swap_venues() == registry.swap_venues()
    r = http.get("/v2/fungible/venues", params={"only_testnets": "true"})
    assert r.json() == {"venues": []}  # the overlay knows no testnet venue


def test_assets_of_every_chain_and_the_filters(http: httpx.Client, registry: Registry) -> None:
    every = http.get("/v2/fungible/assets").json()["chain_to_assets_map"]
    assert list(every) == sorted(every)
    assert set(every) <= {c.chain_id for c in registry.chains()}
    for chain_id in ("osmosis-1", "cosmoshub-4", "neutron-1"):
        listed = [a for a in registry.assets(chain_id) if a.metadata is not None and not a.is_cw20]
        assert every[chain_id]["assets"] == [a.to_api() for a in listed]
    assert not any(a["is_evm"] or a["is_cw20"] or "symbol" not in a for v in every.values() for a in v["assets"])
    native = http.get("/v2/fungible/assets", params={"chain_ids": "osmosis-1", "native_only": "true"}).json()
    assert list(native["chain_to_assets_map"]) == ["osmosis-1"]
    assert {a["trace"] for a in native["chain_to_assets_map"]["osmosis-1"]["assets"]} == {""}
    wide = http.get("/v2/fungible/assets", params=[("chain_ids", "1"), ("chain_ids", "osmosis-1"),
                                                   ("include_evm_assets", "true"),
                                                   ("include_no_metadata_assets", "true")]).json()
    assert list(wide["chain_to_assets_map"]) == ["1", "osmosis-1"]
    assert len(wide["chain_to_assets_map"]["osmosis-1"]["assets"]) > len(every["osmosis-1"]["assets"])
    # the reference's documented OSMO entry, field for field where both have it
    want = example("assets__osmosis-1_excerpt.json")["response"]["chain_to_assets_map"]["osmosis-1"]["assets"][0]
    osmo = next(a for a in every["osmosis-1"]["assets"] if a["denom"] == "uosmo")
    assert {k: osmo[k] for k in ("denom", "chain_id", "origin_denom", "origin_chain_id", "trace", "symbol",
                                 "decimals", "coingecko_id")} == {k: want[k] for k in (
        "denom", "chain_id", "origin_denom", "origin_chain_id", "trace", "symbol", "decimals", "coingecko_id")}


def test_assets_through_the_client(registry: Registry, client: AssetRouteClient) -> None:
    ours = registry.assets_by_chain(chain_ids=["cosmoshub-4", "osmosis-1"], include_cw20_assets=True)
    theirs = client.assets_by_chain(chain_ids=["cosmoshub-4", "osmosis-1"], include_cw20_assets=True)
    assert theirs.to_api() == ours.to_api() and len(theirs) == len(ours) > 0


def test_ibc_origin_assets(http: httpx.Client, registry: Registry, client: AssetRouteClient) -> None:
    ex = example("ibc_origin_assets__osmo_on_cosmoshub-4.json")
    got = http.post("/v2/fungible/ibc_origin_assets", json=ex["request"]).json()
    want = ex["response"]["origin_assets"][0]
    entry = got["origin_assets"][0]
    assert entry["asset_found"] is True
    same = ("denom", "chain_id", "origin_denom", "origin_chain_id", "trace", "symbol", "decimals", "coingecko_id")
    assert {k: entry["asset"][k] for k in same} == {k: want["asset"][k] for k in same}  # name/logo: other sources
    # each entry answered on its own: an unknown chain or denom never fails the batch
    batch = [(OSMO_ON_HUB, "cosmoshub-4"), ("nope", "cosmoshub-4"), ("uatom", "no-such-chain-1"),
             ("uatom", "cosmoshub-4")]
    body = http.post("/v2/fungible/ibc_origin_assets",
                     json={"assets": [{"denom": d, "chain_id": c} for d, c in batch]}).json()["origin_assets"]
    assert [e["asset_found"] for e in body] == [True, False, False, True]
    assert body[3]["asset"]["denom"] == "uatom" and "asset" not in body[1]
    assert client.origin_assets(batch).to_api() == registry.origin_assets(batch).to_api() == {"origin_assets": body}


@pytest.mark.parametrize(("path", "method", "payload", "status", "message"), [
    ("/v2/fungible/ibc_origin_assets", "POST", {"assets": [{"denom": "uatom"}]}, 400, "Must supply denom and chain_id"),
    ("/v2/fungible/ibc_origin_assets", "POST", {"assets": [{"denom": "", "chain_id": "x"}]}, 400,
     "Must supply denom and chain_id"),
    ("/v2/fungible/ibc_origin_assets", "POST", {"assets": "x"}, 400, 'invalid value for repeated field assets: "x"'),
    ("/v2/fungible/ibc_origin_assets", "POST",
     {"assets": [{"denom": "u", "chain_id": "c"}] * (MAX_ORIGIN_ASSETS + 1)}, 400,
     f"too many assets: {MAX_ORIGIN_ASSETS + 1} (at most {MAX_ORIGIN_ASSETS} per request)"),
    ("/v2/fungible/assets", "GET", {"chain_ids": "no-such-chain-1"}, 400, "Invalid chain_id"),
    ("/v2/fungible/assets", "GET", {"native_only": "1"}, 400, 'invalid value for bool field native_only: "1"'),
    ("/v2/fungible/assets", "GET", {"only_testnets": "yes"}, 400, 'invalid value for bool field only_testnets: "yes"'),
    ("/v2/info/bridges", "POST", None, 405, "Method Not Allowed"),
    ("/v2/fungible/ibc_origin_assets", "POST", None, 400, "Must supply denom and chain_id"),  # no body: asks nothing
    ("/v2/fungible/recommend_assets", "POST", None, 400, "Must supply source_asset"),
])
def test_bad_input_is_a_4xx_with_the_error_body(http: httpx.Client, path: str, method: str, payload: object,
                                                status: int, message: str) -> None:
    if method == "GET":
        r = http.get(path, params=payload)  # type: ignore[arg-type]
    else:
        r = http.request(method, path, json=payload)
    assert r.status_code == status, r.text
    assert r.json()["message"] == message and set(r.json()) == {"code", "message", "details"}


def test_a_malformed_origin_body_is_400(http: httpx.Client) -> None:
    r = http.post("/v2/fungible/ibc_origin_assets", content=b"[1, 2")
    assert r.status_code == 400 and r.json()["code"] == 3


def test_cli_commands_print_the_server_bodies(capsysbinary: pytest.CaptureFixture[bytes], live_server: str,
                                              registry_path: Path) -> None:
    from assetroute_core._cli import main

    cases = [(["bridges"], "GET", "/v2/info/bridges", None),
             (["venues"], "GET", "/v2/fungible/venues", None),
             (["assets", "--chain-id", "osmosis-1", "--chain-id", "cosmoshub-4", "--native-only"], "GET",
              "/v2/fungible/assets?chain_ids=osmosis-1&chain_ids=cosmoshub-4&native_only=true", None),
             (["origin", OSMO_ON_HUB, "cosmoshub-4", "uatom", "cosmoshub-4"], "POST", "/v2/fungible/ibc_origin_assets",
              {"assets": [{"denom": OSMO_ON_HUB, "chain_id": "cosmoshub-4"},
                          {"denom": "uatom", "chain_id": "cosmoshub-4"}]}),
             (["recommend", "uusdc", "axelar-dojo-1", "osmosis-1", "no-such-chain-1", "--reason", "2"], "POST",
              "/v2/fungible/recommend_assets",
              {"requests": [{"source_asset_denom": "uusdc", "source_asset_chain_id": "axelar-dojo-1",
                             "dest_chain_id": d, "reason": "MOST_LIQUID"} for d in ("osmosis-1", "no-such-chain-1")]})]
    for argv, method, path, body in cases:
        expected = httpx.request(method, live_server + path, json=body).content
        for source in (["--registry", str(registry_path)], ["--base-url", live_server]):
            assert main([*argv, "--json", *source]) == 0, argv
            assert capsysbinary.readouterr().out == expected, (argv, source)
    assert main(["origin", "uatom", "--registry", str(registry_path)]) == 2
    assert b"pairs" in capsysbinary.readouterr().err


def test_recommend_assets(http: httpx.Client, registry: Registry, client: AssetRouteClient) -> None:
    from assetroute_core import RecommendRequest

    ex = example("recommend_assets__uusdc_axelar_to_cosmoshub_and_osmosis.json")
    got = http.post("/v2/fungible/recommend_assets", json=ex["request"]).json()["recommendation_entries"]
    want = ex["response"]["recommendation_entries"]
    assert len(got) == len(want) == 2
    for g, w in zip(got, want, strict=True):  # the reference's documented answers, identity and reason
        assert [(r["asset"]["denom"], r["asset"]["trace"], r["reason"]) for r in g["recommendations"]] == [
            (r["asset"]["denom"], r["asset"]["trace"], r["reason"]) for r in w["recommendations"]]
    # each entry on its own: an unknown source or an unreached destination is that entry's error
    batch = [RecommendRequest("uatom", "cosmoshub-4", "osmosis-1", "DIRECT"),
             RecommendRequest("nope", "cosmoshub-4", "osmosis-1"),
             RecommendRequest("uatom", "cosmoshub-4", "no-such-chain-1")]
    body = {"requests": [{"sourceAssetDenom": r.source_asset_denom, "sourceAssetChainId": r.source_asset_chain_id,
                          "destChainId": r.dest_chain_id, **({"reason": r.reason} if r.reason else {})} for r in batch]}
    entries = http.post("/v2/fungible/recommend_assets", json=body).json()["recommendation_entries"]
    assert entries[0]["recommendations"][0]["reason"] == "DIRECT" and "error" not in entries[0]
    assert entries[1] == {"recommendations": [], "error": {"message": "Invalid source_asset_denom"}}
    assert entries[2] == {"recommendations": [], "error": {"message": "no recommendation found"}}
    assert client.recommend_assets(batch).to_api() == registry.recommend_assets(batch).to_api() == {
        "recommendation_entries": entries}
    bad = http.post("/v2/fungible/recommend_assets", json={"requests": [{"dest_chain_id": "osmosis-1"}]})
    assert bad.status_code == 400 and bad.json()["message"] == "Must supply source_asset"
    reason = http.post("/v2/fungible/recommend_assets", json={"requests": [
        {"source_asset_denom": "uatom", "source_asset_chain_id": "cosmoshub-4", "dest_chain_id": "x", "reason": 9}]})
    assert reason.status_code == 400 and reason.json()["message"].startswith("invalid value for enum field reason")
