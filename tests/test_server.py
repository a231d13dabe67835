"""The HTTP service over a REAL uvicorn server on 127.0.0.1 (conftest ``live_server``), talked to with httpx.

Covers the reference's documented answers, every class of bad input (always a 4xx with the error body,
never a 500), the JSON shape of responses, the OpenAPI document's truthfulness, and the
``python -m assetroute_core serve`` command itself.
"""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
from starlette.applications import Starlette

from assetroute_core import Registry
from assetroute_core._requests import BETWEEN_FIELDS, FROM_SOURCE_FIELDS, camel_case
from assetroute_core.server import create_app

REPO = Path(__file__).resolve().parents[1]
BETWEEN = "/v2/fungible/assets_between_chains"
FROM_SOURCE = "/v2/fungible/assets_from_source"
ATOM_ON_OSMOSIS = "ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2"
EXAMPLES = REPO.parent / "shared" / "skip-api-examples"
# The reference's field order (proto declaration order; is_svm is not emitted by this service).
ASSET_ORDER = ["denom", "chain_id", "origin_denom", "origin_chain_id", "trace", "is_cw20", "is_evm", "symbol",
               "name", "logo_uri", "decimals", "token_contract", "description", "coingecko_id", "recommended_symbol"]
IDENTITY = ASSET_ORDER[:7]


@pytest.fixture(scope="module")
def http(live_server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live_server, timeout=30) as client:
        yield client


def post(http: httpx.Client, path: str, obj: object) -> httpx.Response:
    return http.post(path, content=json.dumps(obj).encode(), headers={"content-type": "application/json"})


def assert_error(response: httpx.Response, status: int, code: int, message: str | None = None) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert list(body) == ["code", "message", "details"]
    assert body["code"] == code and body["details"] == []
    assert isinstance(body["message"], str) and body["message"]
    assert "Traceback" not in response.text
    if message is not None:
        assert body["message"] == message


def walk(value: Any) -> Iterator[Any]:
    yield value
    if isinstance(value, dict):
        for v in value.values():
            yield from walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from walk(v)


def assets_in(body: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for pair in body.get("assets_between_chains", []):
        yield pair["asset_on_source"]
        yield pair["asset_on_dest"]
    for group in body.get("dest_assets", {}).values():
        yield from group["assets"]


# -- the reference's documented answers ------------------------------------------------------


def test_atom_cosmoshub_to_osmosis(http: httpx.Client) -> None:
    r = post(http, BETWEEN, {"source_chain_id": "cosmoshub-4", "dest_chain_id": "osmosis-1"})
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/json"
    pairs = [p for p in r.json()["assets_between_chains"]
             if (p["asset_on_source"]["denom"], p["asset_on_dest"]["denom"]) == ("uatom", ATOM_ON_OSMOSIS)]
    assert len(pairs) == 1
    pair = pairs[0]
    assert list(pair) == ["asset_on_source", "asset_on_dest", "txs_required", "bridges"]
    assert pair["asset_on_dest"]["trace"] == "transfer/channel-0"
    assert pair["asset_on_dest"]["chain_id"] == "osmosis-1"
    assert pair["asset_on_dest"]["origin_denom"] == "uatom"
    assert pair["asset_on_dest"]["origin_chain_id"] == "cosmoshub-4"
    assert pair["txs_required"] == 1
    assert pair["bridges"] == ["IBC"]


def test_reference_example_identity_fields_and_key_order(http: httpx.Client) -> None:
    example = json.loads((EXAMPLES / "assets_between_chains__cosmoshub-4_to_osmosis-1.json").read_text())
    ours = post(http, BETWEEN, example["request"]).json()["assets_between_chains"]
    for want in example["response"]["assets_between_chains"]:
        got = next(p for p in ours if p["asset_on_dest"]["denom"] == want["asset_on_dest"]["denom"])
        for side in ("asset_on_source", "asset_on_dest"):
            assert {k: got[side][k] for k in IDENTITY} == {k: want[side][k] for k in IDENTITY}
            assert list(got[side])[:8] == list(want[side])[:8]  # denom … is_evm, symbol
        assert (got["txs_required"], got["bridges"]) == (want["txs_required"], want["bridges"])


def test_unknown_dest_chain_is_exactly_the_reference_404(http: httpx.Client) -> None:
    r = post(http, BETWEEN, {"source_chain_id": "cosmoshub-4", "dest_chain_id": "no-such-chain-1"})
    assert r.status_code == 404
    assert r.content == b'{"code":5,"message":"dest chain not found","details":[]}'


def test_unknown_source_chain(http: httpx.Client) -> None:
    r = post(http, BETWEEN, {"source_chain_id": "no-such-chain-1", "dest_chain_id": "osmosis-1"})
    assert r.status_code == 404
    assert r.content == b'{"code":5,"message":"source chain not found","details":[]}'


def test_from_source_unknown_chain_and_denom(http: httpx.Client) -> None:
    r = post(http, FROM_SOURCE, {"source_asset_denom": "uatom", "source_asset_chain_id": "no-such-chain-1"})
    assert r.status_code == 400
    assert r.content == b'{"code":3,"message":"Invalid source_asset_chain_id","details":[]}'
    example = json.loads((EXAMPLES / "assets_from_source__error_400_invalid_source_asset_denom.json").read_text())
    r = post(http, FROM_SOURCE, example["request_illustrative"])
    assert r.status_code == example["status"] == 400
    assert r.json() == example["response"]


def test_from_source_example_and_v1_alias(http: httpx.Client) -> None:
    example = json.loads((EXAMPLES / "assets_from_source__uusdc_axelar-dojo-1.json").read_text())
    r2 = post(http, FROM_SOURCE, example["request"])
    r1 = post(http, "/v1/fungible/assets_from_source", example["request"])
    assert r2.status_code == r1.status_code == 200
    assert r1.content == r2.content
    agoric = r2.json()["dest_assets"]["agoric-3"]["assets"]
    want = example["response"]["dest_assets"]["agoric-3"]["assets"][0]  # an excerpt without is_cw20/is_evm
    assert [{k: a[k] for k in want} for a in agoric] == [want]
    assert agoric[0]["is_cw20"] is False and "symbol" not in agoric[0]  # no metadata: identity fields only


def test_cw20_denom_form_is_accepted(http: httpx.Client) -> None:
    example = json.loads((EXAMPLES / "assets_from_source__request_only_cw20_astro_phoenix-1.json").read_text())
    r = post(http, FROM_SOURCE, example["request"])
    assert r.status_code == 200
    assert isinstance(r.json()["dest_assets"], dict)


# -- every bad-input class: 4xx with the error body, never 500 -------------------------------


SRC_DEST = {"source_chain_id": "cosmoshub-4", "dest_chain_id": "osmosis-1"}
UATOM = {"source_asset_denom": "uatom", "source_asset_chain_id": "cosmoshub-4"}
BAD_INPUTS = [
    # (id, path, raw body, status, code, message or None)
    ("malformed", BETWEEN, b'{"source_chain_id": ', 400, 3,
     "malformed JSON: Expecting value: line 1 column 21 (char 20)"),
    ("malformed-fs", FROM_SOURCE, b"{oops}", 400, 3, None),
    ("not-utf8", BETWEEN, b'{"source_chain_id": "\xfe"}', 400, 3, "request body is not valid UTF-8 (byte 21)"),
    ("nan", FROM_SOURCE, b'{"source_asset_denom": NaN}', 400, 3, "malformed JSON: invalid literal NaN"),
    ("deep", BETWEEN, b"[" * 5000 + b"]" * 5000, 400, 3, None),
    ("array", BETWEEN, b"[]", 400, 3, "request body must be a JSON object, got array"),
    ("string", FROM_SOURCE, b'"uatom"', 400, 3, "request body must be a JSON object, got string"),
    ("null", FROM_SOURCE, b"null", 400, 3, "request body must be a JSON object, got null"),
    ("bool-type", BETWEEN, json.dumps({**SRC_DEST, "allow_multi_tx": "yes"}).encode(), 400, 3,
     'invalid value for bool field allow_multi_tx: "yes"'),
    ("bool-type-camel", BETWEEN, json.dumps({**SRC_DEST, "allowMultiTx": "yes"}).encode(), 400, 3,
     'invalid value for bool field allowMultiTx: "yes"'),
    ("string-type", BETWEEN, json.dumps({"source_chain_id": 4, "dest_chain_id": "osmosis-1"}).encode(), 400, 3,
     "invalid value for string field source_chain_id: 4"),
    ("venue-type", FROM_SOURCE, json.dumps({**UATOM, "swap_venues": [1]}).encode(), 400, 3,
     "invalid value for message field swap_venues[0]: 1"),
    ("missing-denom", FROM_SOURCE, b'{"source_asset_chain_id": "cosmoshub-4"}', 400, 3,
     "missing required field source_asset_denom"),
    ("missing-chain", FROM_SOURCE, b'{"source_asset_denom": "uatom"}', 400, 3,
     "missing required field source_asset_chain_id"),
    ("empty-body-fs", FROM_SOURCE, b"", 400, 3, "missing required field source_asset_denom"),
    ("empty-body-between", BETWEEN, b"", 404, 5, "source chain not found"),
    ("missing-dest", BETWEEN, b'{"source_chain_id": "cosmoshub-4"}', 404, 5, "dest chain not found"),
    ("empty-source", BETWEEN, b'{"source_chain_id": "", "dest_chain_id": "osmosis-1"}', 404, 5,
     "source chain not found"),
    ("unknown-source", BETWEEN, b'{"source_chain_id": "nope-1", "dest_chain_id": "osmosis-1"}', 404, 5,
     "source chain not found"),
    ("killed-or-unroutable", BETWEEN, b'{"source_chain_id": "cosmoshub-4", "dest_chain_id": "solana"}', 404, 5,
     "dest chain not found"),
    ("unknown-fs-chain", FROM_SOURCE, b'{"source_asset_denom": "uatom", "source_asset_chain_id": "x"}', 400, 3,
     "Invalid source_asset_chain_id"),
    ("unknown-fs-denom", FROM_SOURCE, b'{"source_asset_denom": "ufoo", "source_asset_chain_id": "cosmoshub-4"}',
     400, 3, "Invalid source_asset_denom"),
    ("denom-elsewhere", FROM_SOURCE, b'{"source_asset_denom": "uosmo", "source_asset_chain_id": "cosmoshub-4"}',
     400, 3, "Invalid source_asset_denom"),
    ("same-chain", BETWEEN, b'{"source_chain_id": "osmosis-1", "dest_chain_id": "osmosis-1"}', 400, 3, None),
    ("bad-enum", FROM_SOURCE, json.dumps({**UATOM, "recommendation_reason": "CHEAPEST"}).encode(), 400, 3,
     'invalid value for enum field recommendation_reason: "CHEAPEST" '
     "(allowed: UNKNOWN, BASE_TOKEN, MOST_LIQUID, DIRECT, or 0-3)"),
    ("bad-enum-number", FROM_SOURCE, json.dumps({**UATOM, "recommendation_reason": 9}).encode(), 400, 3, None),
    ("bad-group-by", FROM_SOURCE, json.dumps({**UATOM, "group_by": "origin"}).encode(), 400, 3,
     'invalid value for field group_by: "origin" (allowed: chain_id, recommended_symbol)'),
    ("duplicate", BETWEEN, b'{"source_chain_id": "a", "source_chain_id": "b"}', 400, 3,
     'duplicate field "source_chain_id"'),
    ("duplicate-spellings", FROM_SOURCE,
     b'{"source_asset_denom": "uatom", "source_asset_chain_id": "cosmoshub-4", "native_only": true, '
     b'"nativeOnly": true}', 400, 3, 'duplicate field "nativeOnly"'),
]


@pytest.mark.parametrize(("path", "raw", "status", "code", "msg"), [c[1:] for c in BAD_INPUTS],
                         ids=[c[0] for c in BAD_INPUTS])
def test_bad_input_gets_a_4xx_error_body(http: httpx.Client, path: str, raw: bytes, status: int, code: int,
                                         msg: str | None) -> None:
    r = http.post(path, content=raw, headers={"content-type": "application/json"})
    assert_error(r, status, code, msg)


def test_same_chain_on_both_sides(http: httpx.Client) -> None:
    r = post(http, BETWEEN, {"source_chain_id": "cosmoshub-4", "dest_chain_id": "cosmoshub-4"})
    assert_error(r, 400, 3, "source and dest chain must differ")


def test_random_garbage_never_reaches_a_500(http: httpx.Client) -> None:
    rng = random.Random(20240717)
    keys = [*BETWEEN_FIELDS, *FROM_SOURCE_FIELDS, *(camel_case(k) for k in FROM_SOURCE_FIELDS), "x", "swap_venues"]
    values: list[Any] = [None, True, False, 0, 1, -1, 3, 2.5, 1e308, "", "uatom", "cosmoshub-4", "osmosis-1",
                         "DIRECT", "chain_id", "\u00e9\u4e2d", [], [{}], [{"name": "a", "chain_id": "osmosis-1"}],
                         {}, {"a": [1, {"b": None}]}]
    for i in range(150):
        path = BETWEEN if i % 2 else FROM_SOURCE
        if i % 10 == 0:
            raw = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
        else:
            obj = {rng.choice(keys): rng.choice(values) for _ in range(rng.randrange(0, 6))}
            raw = json.dumps(obj).encode()
            if i % 7 == 0:
                raw = raw[: rng.randrange(len(raw) + 1)]  # truncated
        r = http.post(path, content=raw)
        assert r.status_code in (200, 400, 404), (raw, r.status_code, r.text)
        if r.status_code != 200:
            assert_error(r, r.status_code, 3 if r.status_code == 400 else 5)


# -- size limit ------------------------------------------------------------------------------


def test_body_over_the_limit_with_content_length_is_413(http: httpx.Client) -> None:
    raw = b'{"source_chain_id": "' + b"x" * 70_000 + b'"}'
    r = http.post(BETWEEN, content=raw)
    assert "content-length" in {k.lower() for k in r.request.headers}
    assert_error(r, 413, 8, "request body too large: limit is 65536 bytes")


def test_body_over_the_limit_without_content_length_is_413(http: httpx.Client) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"source_asset_denom": "'
        for _ in range(20):
            yield b"y" * 4096
        yield b'", "source_asset_chain_id": "cosmoshub-4"}'

    r = http.post(FROM_SOURCE, content=chunks())
    assert r.request.headers.get("transfer-encoding") == "chunked"
    assert "content-length" not in r.request.headers
    assert_error(r, 413, 8, "request body too large: limit is 65536 bytes")


def test_size_limit_boundary(http: httpx.Client) -> None:
    ok = b"{}" + b" " * (65536 - 2)
    assert_error(http.post(BETWEEN, content=ok), 404, 5, "source chain not found")  # parsed, not refused
    assert_error(http.post(BETWEEN, content=ok + b" "), 413, 8)


ServeApp = Callable[[Starlette], AbstractContextManager[str]]


def test_size_limit_is_configurable(registry: Registry, serve_app: ServeApp) -> None:
    app = create_app(registry, max_body_bytes=100)
    with serve_app(app) as url, httpx.Client(base_url=url) as client:
        big = {"source_chain_id": "cosmoshub-4", "dest_chain_id": "osmosis-1", "pad": "z" * 100}
        assert_error(client.post(BETWEEN, json=big), 413, 8, "request body too large: limit is 100 bytes")
        assert client.post(BETWEEN, json=SRC_DEST).status_code == 200
    with pytest.raises(ValueError, match="positive"):
        create_app(registry, max_body_bytes=0)


# -- routing errors --------------------------------------------------------------------------


@pytest.mark.parametrize(("method", "path", "allow"), [
    ("GET", FROM_SOURCE, "POST"),
    ("PUT", BETWEEN, "GET, HEAD, POST"),
    ("DELETE", "/v1/fungible/assets_from_source", "POST"),
    ("POST", "/v2/info/chains", "GET, HEAD"),
    ("POST", "/health", "GET, HEAD"),
    ("PATCH", "/openapi.json", "GET, HEAD"),
])
def test_wrong_method_is_405(http: httpx.Client, method: str, path: str, allow: str) -> None:
    r = http.request(method, path)
    assert r.content == b'{"code":12,"message":"Method Not Allowed","details":[]}'
    assert_error(r, 405, 12, "Method Not Allowed")
    assert sorted(m.strip() for m in r.headers["allow"].split(",")) == sorted(allow.split(", "))


@pytest.mark.parametrize(("method", "path"), [
    ("GET", "/"), ("POST", "/v2/fungible/assets"), ("POST", "/v1/fungible/assets_between_chains"),
    ("POST", BETWEEN + "/"), ("GET", "/v2/info/chains/x"), ("GET", "/docs"),
])
def test_unknown_path_is_404(http: httpx.Client, method: str, path: str) -> None:
    r = http.request(method, path)
    assert r.content == b'{"code":5,"message":"Not Found","details":[]}'
    assert_error(r, 404, 5, "Not Found")


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded",
                                          "application/json; charset=utf-8", "garbage"])
def test_json_is_read_whatever_the_content_type(http: httpx.Client, content_type: str | None) -> None:
    """Decision: no 415; the body is JSON whatever the Content-Type says (as grpc-gateway's fallback)."""
    headers = {"content-type": content_type} if content_type else {}
    r = http.post(BETWEEN, content=json.dumps(SRC_DEST).encode(), headers=headers)
    assert r.status_code == 200
    assert r.content == post(http, BETWEEN, SRC_DEST).content


# -- response shape --------------------------------------------------------------------------


RESPONSE_CASES = [
    (BETWEEN, SRC_DEST),
    (BETWEEN, {"source_chain_id": "1", "dest_chain_id": "cosmoshub-4", "include_evm_assets": True}),
    (BETWEEN, {"source_chain_id": "osmosis-1", "dest_chain_id": "neutron-1", "include_no_metadata_assets": True,
               "include_cw20_assets": True, "include_evm_assets": True, "allow_multi_tx": True}),
    (FROM_SOURCE, {"source_asset_denom": "uusdc", "source_asset_chain_id": "axelar-dojo-1"}),
    (FROM_SOURCE, {**UATOM, "allow_multi_tx": True, "include_swaps": True, "include_cw20_assets": True}),
    (FROM_SOURCE, {**UATOM, "recommendation_reason": "DIRECT", "group_by": "recommended_symbol"}),
    (FROM_SOURCE, {"source_asset_denom": ATOM_ON_OSMOSIS, "source_asset_chain_id": "osmosis-1",
                   "recommendation_reason": "BASE_TOKEN"}),
]


@pytest.mark.parametrize(("path", "request_body"), RESPONSE_CASES)
def test_response_shape(http: httpx.Client, path: str, request_body: dict[str, Any]) -> None:
    r = post(http, path, request_body)
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/json"
    body = r.json()
    assert None not in list(walk(body)), "no nulls anywhere"
    assets = list(assets_in(body))
    assert assets, "the case should return something"
    for asset in assets:
        keys = list(asset)
        assert keys[:7] == IDENTITY
        assert keys == [k for k in ASSET_ORDER if k in asset], keys  # the reference's order
        assert isinstance(asset["trace"], str) and isinstance(asset["is_cw20"], bool)
    if "dest_assets" in body:
        keys = list(body["dest_assets"])
        assert keys == sorted(keys)
    else:
        for pair in body["assets_between_chains"]:
            assert pair["txs_required"] >= 1 and pair["bridges"]


def test_response_is_the_registry_result_byte_for_byte(http: httpx.Client, registry: Registry) -> None:
    r = post(http, BETWEEN, SRC_DEST)
    assert r.content == registry.assets_between_chains("cosmoshub-4", "osmosis-1").to_json()
    r = post(http, FROM_SOURCE, {**UATOM, "native_only": True})
    assert r.content == registry.assets_from_source("uatom", "cosmoshub-4", native_only=True).to_json()


def test_camel_case_request_gives_the_same_answer(http: httpx.Client) -> None:
    snake = {"source_chain_id": "osmosis-1", "dest_chain_id": "cosmoshub-4", "allow_multi_tx": True,
             "include_no_metadata_assets": True}
    camel = {"sourceChainId": "osmosis-1", "destChainId": "cosmoshub-4", "allowMultiTx": True,
             "includeNoMetadataAssets": True}
    a, b = post(http, BETWEEN, snake), post(http, BETWEEN, camel)
    assert a.status_code == b.status_code == 200
    assert a.content == b.content
    narrower = post(http, BETWEEN, {"sourceChainId": "osmosis-1", "destChainId": "cosmoshub-4"})
    assert len(narrower.json()["assets_between_chains"]) < len(a.json()["assets_between_chains"])
    fs_camel = {"sourceAssetDenom": "uusdc", "sourceAssetChainId": "axelar-dojo-1", "groupBy": "recommended_symbol"}
    fs_snake = {"source_asset_denom": "uusdc", "source_asset_chain_id": "axelar-dojo-1",
                "group_by": "recommended_symbol"}
    assert post(http, FROM_SOURCE, fs_camel).content == post(http, FROM_SOURCE, fs_snake).content


def test_get_with_query_parameters_equals_post(http: httpx.Client) -> None:
    """The official SDK sends assets_between_chains as GET with snake_case query parameters."""
    params = {"source_chain_id": "osmosis-1", "dest_chain_id": "cosmoshub-4", "allow_multi_tx": "true"}
    g = http.get(BETWEEN, params=params)
    p = post(http, BETWEEN, {"source_chain_id": "osmosis-1", "dest_chain_id": "cosmoshub-4", "allow_multi_tx": True})
    assert g.status_code == 200
    assert g.content == p.content
    assert_error(http.get(BETWEEN, params={**params, "allow_multi_tx": "yes"}), 400, 3,
                 'invalid value for bool field allow_multi_tx: "yes"')
    assert_error(http.get(BETWEEN, params={"source_chain_id": "osmosis-1", "dest_chain_id": "x"}), 404, 5,
                 "dest chain not found")
    assert_error(http.get(BETWEEN + "?source_chain_id=a&source_chain_id=b"), 400, 3,
                 'duplicate field "source_chain_id"')


# -- other endpoints -------------------------------------------------------------------------


def test_chains(http: httpx.Client, registry: Registry) -> None:
    r = http.get("/v2/info/chains")
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    chains = r.json()["chains"]
    assert chains == [c.to_api() for c in registry.chains()]
    hub = next(c for c in chains if c["chain_id"] == "cosmoshub-4")
    assert hub["chain_name"] == "cosmoshub" and hub["chain_type"] == "cosmos"
    assert None not in list(walk(chains))
    assert {c["chain_type"] for c in chains} == {"cosmos", "evm"}


def test_health(http: httpx.Client, registry: Registry) -> None:
    r = http.get("/health")
    assert r.status_code == 200
    body = r.json()
    assert body["status"] == "ok"
    assert body["commit"] == "627bbab9c8e56fa1c4581f85f40d6d028e1c26e8"
    assert body["counts"]["routable_chains"] == len(registry.chains())
    assert body["fingerprint"] == registry.provenance.fingerprint


# -- the OpenAPI document --------------------------------------------------------------------


@pytest.fixture(scope="module")
def openapi(http: httpx.Client) -> dict[str, Any]:
    r = http.get("/openapi.json")
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    doc: dict[str, Any] = r.json()
    return doc


def validator(doc: dict[str, Any], schema: dict[str, Any]) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator({**schema, "components": doc["components"]})


def test_openapi_lists_exactly_the_served_operations(openapi: dict[str, Any], live_app: Starlette) -> None:
    assert openapi["openapi"] == "3.1.0"
    documented = {(path, method.upper()) for path, ops in openapi["paths"].items() for method in ops}
    served = {(route.path, m) for route in live_app.routes for m in route.methods - {"HEAD"}}  # type: ignore[attr-defined]
    assert documented == served
    ids = {op["operationId"] for ops in openapi["paths"].values() for op in ops.values()}
    assert {"assetsBetweenChains", "assetsBetweenChainsGet", "assetsFromSource", "chains", "health"} <= ids


def test_openapi_schemas_are_valid_json_schema(openapi: dict[str, Any]) -> None:
    for schema in openapi["components"]["schemas"].values():
        jsonschema.Draft202012Validator.check_schema(schema)
    for ops in openapi["paths"].values():
        for op in ops.values():
            assert op["responses"] and all(r["description"] for r in op["responses"].values())
            for param in op.get("parameters", []):
                jsonschema.Draft202012Validator.check_schema(param["schema"])


def test_openapi_documents_400_never_422(openapi: dict[str, Any]) -> None:
    assert "422" not in json.dumps(openapi)
    paths = openapi["paths"]
    for path in (BETWEEN, FROM_SOURCE, "/v1/fungible/assets_from_source"):
        responses = paths[path]["post"]["responses"]
        assert {"200", "400", "405", "413"} <= set(responses)
        assert responses["400"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
    assert "404" in paths[BETWEEN]["post"]["responses"] and "404" in paths[BETWEEN]["get"]["responses"]
    assert "404" not in paths[FROM_SOURCE]["post"]["responses"]  # unknown chains are 400 there


@pytest.mark.parametrize(("path", "request_body"), RESPONSE_CASES)
def test_openapi_response_schemas_match_real_responses(http: httpx.Client, openapi: dict[str, Any], path: str,
                                                       request_body: dict[str, Any]) -> None:
    schema = openapi["paths"][path]["post"]["responses"]["200"]["content"]["application/json"]["schema"]
    validator(openapi, schema).validate(post(http, path, request_body).json())


def test_openapi_schemas_match_other_responses(http: httpx.Client, openapi: dict[str, Any]) -> None:
    ref = {"$ref": "#/components/schemas/"}
    validator(openapi, {"$ref": ref["$ref"] + "ChainsResponse"}).validate(http.get("/v2/info/chains").json())
    validator(openapi, {"$ref": ref["$ref"] + "Health"}).validate(http.get("/health").json())
    error = validator(openapi, {"$ref": ref["$ref"] + "Error"})
    for _, path, raw, *_ in BAD_INPUTS:
        error.validate(http.post(path, content=raw).json())
    error.validate(http.get("/nope").json())
    error.validate(http.put(BETWEEN).json())


# Requests and whether they are valid against the documented request schema. The server must accept
# (not 400) exactly the schema-valid ones: the document neither promises what is rejected nor hides a rule.
SCHEMA_CASES: list[tuple[str, object]] = [
    (BETWEEN, SRC_DEST),
    (BETWEEN, {}),
    (BETWEEN, {"sourceChainId": "cosmoshub-4", "destChainId": "osmosis-1", "includeCw20Assets": None}),
    (BETWEEN, {**SRC_DEST, "unknown": {"any": ["thing"]}, "allowMultiTx": False}),
    (BETWEEN, {**SRC_DEST, "allow_multi_tx": "yes"}),
    (BETWEEN, {**SRC_DEST, "includeEvmAssets": 1}),
    (BETWEEN, {**SRC_DEST, "allow_multi_tx": True, "allowMultiTx": True}),
    (BETWEEN, {"source_chain_id": 5}),
    (BETWEEN, [SRC_DEST]),
    (BETWEEN, "cosmoshub-4"),
    (FROM_SOURCE, UATOM),
    (FROM_SOURCE, {"sourceAssetDenom": "uatom", "sourceAssetChainId": "cosmoshub-4", "recommendationReason": 3}),
    (FROM_SOURCE, {**UATOM, "recommendation_reason": "BASE_TOKEN", "group_by": "", "native_only": None}),
    (FROM_SOURCE, {**UATOM, "recommendation_reason": 1.0}),
    (FROM_SOURCE, {**UATOM, "include_swaps": True, "swap_venues": [
        {"name": "osmosis-poolmanager", "chainId": "osmosis-1", "logo_uri": None, "extra": 1}]}),
    (FROM_SOURCE, {**UATOM, "swap_venues": None, "group_by": None, "recommendation_reason": None}),
    (FROM_SOURCE, {"source_asset_denom": "uatom"}),
    (FROM_SOURCE, {"source_asset_denom": None, "source_asset_chain_id": "cosmoshub-4"}),
    (FROM_SOURCE, {**UATOM, "sourceAssetDenom": "uatom"}),
    (FROM_SOURCE, {**UATOM, "recommendation_reason": "FOO"}),
    (FROM_SOURCE, {**UATOM, "recommendation_reason": 4}),
    (FROM_SOURCE, {**UATOM, "recommendation_reason": True}),
    (FROM_SOURCE, {**UATOM, "recommendation_reason": "1"}),
    (FROM_SOURCE, {**UATOM, "group_by": "origin"}),
    (FROM_SOURCE, {**UATOM, "swap_venues": [{"name": "a"}]}),
    (FROM_SOURCE, {**UATOM, "swap_venues": [{"name": "a", "chain_id": "b", "chainId": "b"}]}),
    (FROM_SOURCE, {**UATOM, "swap_venues": [{"name": None, "chain_id": "b"}]}),
    (FROM_SOURCE, {**UATOM, "swap_venues": {"name": "a", "chain_id": "b"}}),
    (FROM_SOURCE, {**UATOM, "native_only": "true"}),
]


@pytest.mark.parametrize(("path", "request_body"), SCHEMA_CASES)
def test_openapi_request_schema_agrees_with_the_server(http: httpx.Client, openapi: dict[str, Any], path: str,
                                                       request_body: object) -> None:
    schema = openapi["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
    schema_valid = validator(openapi, schema).is_valid(request_body)
    r = post(http, path, request_body)
    assert r.status_code < 500
    assert schema_valid == (r.status_code != 400), (schema_valid, r.status_code, r.text)


def test_openapi_request_schema_documents_every_accepted_spelling(openapi: dict[str, Any]) -> None:
    schemas = openapi["components"]["schemas"]
    for name, fields in (("AssetsBetweenChainsRequest", BETWEEN_FIELDS),
                         ("AssetsFromSourceRequest", FROM_SOURCE_FIELDS)):
        expected = set(fields) | {camel_case(f) for f in fields}
        assert set(schemas[name]["properties"]) == expected
        assert schemas[name]["additionalProperties"] is True
    assert set(schemas["AssetsFromSourceRequest"]["allOf"][-1]["anyOf"][0]["required"]) == {"source_asset_chain_id"}


def test_create_app_loads_a_source_once(registry_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(str(registry_path))
    assert isinstance(app.state.registry, Registry)
    assert app.state.registry.provenance.source == str(registry_path)
    monkeypatch.setenv("ASSETROUTE_REGISTRY", str(registry_path))
    default = create_app()  # None: the default resolution ($ASSETROUTE_REGISTRY)
    assert default.state.registry.provenance.fingerprint == app.state.registry.provenance.fingerprint
    assert default.state.service.max_body_bytes == 65536


# -- never a 500, and the catch-all that would say it ----------------------------------------


def test_catch_all_turns_an_unexpected_exception_into_the_500_body(registry: Registry, serve_app: ServeApp) -> None:
    class Broken(Registry):
        def assets_between_chains(self, *args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("boom")

    broken = Broken(registry.provenance, registry.quality, registry.overlay, registry.engine)
    app = create_app(broken)
    with serve_app(app) as url:
        r = httpx.post(url + BETWEEN, json=SRC_DEST)
    assert r.status_code == 500
    assert r.content == b'{"code":2,"message":"internal server error","details":[]}'
    assert "boom" not in r.text
    assert app.state.service.internal_errors == 1


def test_no_input_reached_the_catch_all(http: httpx.Client, live_app: Starlette) -> None:
    """Runs after every request of this module (and of any test before it) on the live server."""
    assert http.get("/health").status_code == 200
    assert live_app.state.service.internal_errors == 0


# -- the real serve command ------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def median_ms(client: httpx.Client, method: str, path: str, **kwargs: Any) -> float:
    """Median latency of 9 sequential requests on one kept-alive connection."""
    times = []
    for _ in range(9):
        started = time.perf_counter()
        assert client.request(method, path, **kwargs).status_code == 200
        times.append((time.perf_counter() - started) * 1000)
    return sorted(times)[4]


def test_kept_alive_requests_are_not_delayed(http: httpx.Client) -> None:
    """A listening socket without IPPROTO_TCP leaves accepted connections without TCP_NODELAY: every
    response then waits ~40 ms for a delayed ACK (conftest creates its socket accordingly)."""
    assert median_ms(http, "GET", "/health") < 30
    assert median_ms(http, "POST", BETWEEN, json=SRC_DEST) < 30


@pytest.mark.parametrize("workers", [1, 2])
def test_serve_command_starts_a_working_server(registry_path: Path, workers: int) -> None:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "assetroute_core", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--registry", str(registry_path), "--log-level", "warning", "--workers", str(workers)],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 20
        health = None
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/health", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        assert health is not None, proc.communicate()[1].decode() if proc.poll() is not None else "no answer"
        assert health.status_code == 200 and health.json()["status"] == "ok"
        r = httpx.post(f"http://127.0.0.1:{port}{BETWEEN}", json=SRC_DEST)
        assert r.status_code == 200 and ATOM_ON_OSMOSIS in r.text
        with httpx.Client(base_url=f"http://127.0.0.1:{port}") as client:
            assert median_ms(client, "GET", "/health") < 30  # uvicorn's own multi-worker socket fails this
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    _, err = proc.communicate()
    assert b"Traceback" not in err
