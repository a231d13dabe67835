"""The OpenAPI 3.1 document of the HTTP service, written by hand to say exactly what the server does.

It is built once from the same field tables the request parser uses (:mod:`._requests`), so the
documented request properties, spellings and types cannot drift from what is accepted:

* every request field is documented in snake_case **and** in its camelCase alias; both spellings of one
  field together are rejected (``not: {anyOf: [{required: [a, A]}, …]}``), as is any field given twice;
* ``null`` is accepted for every optional field (it means "unset"); required fields must be strings;
* ``additionalProperties: true``: unknown request fields are ignored;
* invalid input is answered with **400** (never 422), unknown chains in ``assets_between_chains`` with 404,
  a body over the size limit with 413, a wrong method with 405, a lookup over its time budget with 504
  (gRPC code 4); all errors share the ``Error`` schema;
* what the HTTP layer of ``serve`` answers before any endpoint runs is documented on every operation: 408
  (a request head or body not received in time), 431 (a request head over the limit), 503 (over the
  concurrency limit, gRPC code 14); a malformed HTTP request is a 400 like any other invalid input.

>>> doc = build_openapi()
>>> doc["openapi"], sorted(doc["paths"]["/v2/fungible/assets_between_chains"])
('3.1.0', ['get', 'post'])
>>> "422" in str(doc)
False
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._catalog import MAX_ORIGIN_ASSETS, MAX_ORIGIN_CHAIN_ID, MAX_ORIGIN_DENOM, MAX_RECOMMEND_REQUESTS
from ._options import (
    GROUP_BY_VALUES,
    RECOMMENDATION_REASONS,
    BetweenChainsOptions,
    FromSourceOptions,
    option_fields,
)
from ._requests import (
    BETWEEN_FIELDS,
    FROM_SOURCE_FIELDS,
    FROM_SOURCE_REQUIRED,
    SWAP_VENUE_FIELDS,
    camel_case,
)

__all__ = ["OPENAPI", "build_openapi"]

_REF = "#/components/schemas/"

_DESCRIPTIONS = {
    "source_chain_id": "Chain-id of the source chain. Missing, null or empty means no chain: "
                       "404 source chain not found.",
    "dest_chain_id": "Chain-id of the destination chain. Missing, null or empty means no chain: "
                     "404 dest chain not found.",
    "source_asset_denom": "Denom of the source asset on its chain (listed or derived canonical voucher).",
    "source_asset_chain_id": "Chain-id of the chain holding the source asset.",
    "name": "Venue name, e.g. osmosis-poolmanager.",
    "chain_id": "Chain-id of the venue's chain.",
    "logo_uri": "Logo of the venue (ignored by the lookup).",
    # the options describe themselves (assetroute_core._options)
    **{f.name: f.metadata["doc"] for o in (BetweenChainsOptions, FromSourceOptions) for f in option_fields(o)},
}
# Fields the reference API does not have (marked x-assetroute-extension in the document).
_EXTENSIONS = frozenset(f.name for o in (BetweenChainsOptions, FromSourceOptions) for f in option_fields(o)
                        if f.metadata["extension"])


def _field_schema(name: str, kind: str, *, required: bool) -> dict[str, Any]:
    if kind == "bool":
        schema: dict[str, Any] = {"type": ["boolean", "null"], "default": False}
    elif kind == "string":
        schema = {"type": "string"} if required else {"type": ["string", "null"]}
    elif kind == "reason":
        schema = {"enum": [*RECOMMENDATION_REASONS, *range(len(RECOMMENDATION_REASONS)), None]}
    elif kind == "group_by":
        schema = {"enum": [*GROUP_BY_VALUES, "", None]}
    elif kind == "venues":
        schema = {"type": ["array", "null"], "items": {"$ref": _REF + "SwapVenue"}}
    else:  # pragma: no cover - the tables only hold the kinds above
        raise ValueError(kind)
    schema["description"] = _DESCRIPTIONS.get(name, name)
    if name in _EXTENSIONS:
        schema["x-assetroute-extension"] = True
    return schema


def _request_schema(fields: Mapping[str, str], required: tuple[str, ...], *, title: str,
                    example: dict[str, Any]) -> dict[str, Any]:
    """An object schema with both spellings of every field, at most one of them present."""
    properties: dict[str, Any] = {}
    exclusive: list[dict[str, Any]] = []
    for name, kind in fields.items():
        schema = _field_schema(name, kind, required=name in required)
        properties[name] = schema
        alias = camel_case(name)
        if alias != name:
            properties[alias] = {**schema, "description": f"camelCase alias of {name}."}
            exclusive.append({"required": [name, alias]})
    out: dict[str, Any] = {
        "title": title,
        "type": "object",
        "properties": properties,
        "additionalProperties": True,
    }
    # One `not` over every pair: the form schemathesis' generator (jsonschema_rs canonical form) can
    # handle; a `not` per pair makes it give up on the 9 fields of assets_from_source.
    constraints: list[dict[str, Any]] = [{"not": {"anyOf": exclusive}}] if exclusive else []
    for name in required:
        alias = camel_case(name)
        constraints.append({"anyOf": [{"required": [name]}, {"required": [alias]}]} if alias != name
                           else {"required": [name]})
    if constraints:
        out["allOf"] = constraints
    out["example"] = example
    return out


def _asset_schema() -> dict[str, Any]:
    def opt(kind: str, description: str) -> dict[str, Any]:
        return {"type": kind, "description": description + " Omitted when unknown (never null)."}

    return {
        "title": "Asset",
        "type": "object",
        "description": "An asset instance. Keys appear in this order; optional metadata only for "
                       "instances listed in the chain's assetlist.",
        "properties": {
            "denom": {"type": "string", "description": "Denom on the holding chain."},
            "chain_id": {"type": "string", "description": "Chain-id of the holding chain."},
            "origin_denom": {"type": "string", "description": "Denom on the origin chain."},
            "origin_chain_id": {"type": "string", "description": "Chain-id of the origin chain."},
            "trace": {"type": "string", "description": "ICS-20 path on the holding chain; empty for a native asset."},
            "is_cw20": {"type": "boolean"},
            "is_evm": {"type": "boolean"},
            "is_svm": {"type": "boolean", "description": "The asset lives on an SVM chain (Solana)."},
            "symbol": opt("string", "Symbol from the assetlist."),
            "name": opt("string", "Name from the assetlist."),
            "logo_uri": opt("string", "Logo (png, else svg, else images)."),
            "decimals": opt("integer", "Exponent of the display unit."),
            "token_contract": opt("string", "Token contract (CW20/ERC-20)."),
            "description": opt("string", "Description from the assetlist."),
            "coingecko_id": opt("string", "Market-data id (the registry's coingecko_id)."),
            "recommended_symbol": opt("string", "Symbol telling bridged variants apart, e.g. USDC.axl."),
        },
        "required": ["denom", "chain_id", "origin_denom", "origin_chain_id", "trace", "is_cw20", "is_evm",
                     "is_svm"],
        "additionalProperties": False,
    }


def _error_response(description: str) -> dict[str, Any]:
    return {"description": description,
            "content": {"application/json": {"schema": {"$ref": _REF + "Error"}}}}


_CHAIN_IDS = {"name": "chain_ids", "in": "query", "required": False, "style": "form", "explode": True,
              "schema": {"type": "array", "items": {"type": "string"}}}
_ONLY_TESTNETS = {"name": "only_testnets", "in": "query", "required": False, "schema": {"type": "boolean"},
                  "description": "Answer from the registry's testnet world (its testnets/ folder) instead of "
                                 "mainnets. Exactly true or false."}


def _text(max_length: int) -> dict[str, Any]:
    return {"type": "string", "minLength": 1, "maxLength": max_length}


def _ok(schema: str, description: str) -> dict[str, Any]:
    return {"description": description,
            "content": {"application/json": {"schema": {"$ref": _REF + schema}}}}


_R400 = _error_response("Invalid request: malformed JSON, a non-object body, a wrong type, a missing required "
                        "field, a bad enum value, a duplicate field, or an invalid lookup (gRPC code 3).")
_R405 = _error_response("The path exists but not for this method (gRPC code 12); an Allow header lists the methods.")
_R413 = _error_response("The request body is over the server's size limit (gRPC code 8).")
_R400_QUERY = _error_response("A query parameter has a bad value or is given twice (gRPC code 3).")
_R500 = _error_response("Internal error (gRPC code 2). Not expected for any input.")
_R504 = _error_response("The lookup did not finish within the server's time budget (--lookup-timeout, default "
                        "10 s; gRPC code 4, DEADLINE_EXCEEDED). Its answer is still computed and cached: "
                        "asking again later is answered at once.")
#: Answers of the HTTP layer (``serve``), possible on every operation.
_TRANSPORT = {
    "408": _error_response("The request head (--timeout-header, default 10 s) or body (--timeout-body, default "
                           "30 s) was not received in time (gRPC code 4); the connection is closed."),
    "431": _error_response("The request head is over the server's limit (--max-header-bytes, default 16384; "
                           "gRPC code 8)."),
    "503": _error_response("The server is over its concurrency limit (--limit-concurrency, default 1000 open "
                           "connections or running requests; gRPC code 14, UNAVAILABLE); retry later "
                           "(Retry-After)."),
}


def build_openapi() -> dict[str, Any]:
    """Build the document (a fresh dict)."""
    between_request = _request_schema(
        BETWEEN_FIELDS, (), title="AssetsBetweenChainsRequest",
        example={"source_chain_id": "cosmoshub-4", "dest_chain_id": "osmosis-1"})
    from_source_request = _request_schema(
        FROM_SOURCE_FIELDS, FROM_SOURCE_REQUIRED, title="AssetsFromSourceRequest",
        example={"source_asset_denom": "uusdc", "source_asset_chain_id": "axelar-dojo-1"})
    venue = _request_schema(SWAP_VENUE_FIELDS, ("name", "chain_id"), title="SwapVenue",
                            example={"name": "osmosis-poolmanager", "chain_id": "osmosis-1"})

    between_ok = _ok("AssetsBetweenChainsResponse", "Pairs of (asset on source, asset on dest), in a "
                     "deterministic order: natives of the source first, then by origin chain and denom.")
    from_source_ok = _ok("AssetsFromSourceResponse", "Reachable assets grouped by chain-id (or by "
                         "recommended symbol), keys sorted.")

    def body(schema: str, *, required: bool = False, empty: str | None = None) -> dict[str, Any]:
        return {"required": required,
                "description": "JSON object. Any Content-Type is accepted; " + (empty or (
                    "an empty body counts as {}" + (" (and then lacks the required fields)." if required else "."))),
                "content": {"application/json": {"schema": {"$ref": _REF + schema}}}}

    def from_source_op(operation_id: str, *, deprecated: bool = False) -> dict[str, Any]:
        op: dict[str, Any] = {
            "operationId": operation_id,
            "summary": "Assets that one asset can become, per destination chain",
            "tags": ["fungible"],
            "requestBody": body("AssetsFromSourceRequest", required=True),
            "responses": {
                "200": from_source_ok,
                "400": _error_response("Invalid request, or an unknown source chain (Invalid "
                                       "source_asset_chain_id) or denom (Invalid source_asset_denom)."),
                "405": _R405, "413": _R413, "500": _R500, "504": _R504, **_TRANSPORT,
            },
        }
        if deprecated:
            op["deprecated"] = True
            op["description"] = "The reference service's v1 binding of the same operation."
        return op

    query_params = []
    for name, kind in BETWEEN_FIELDS.items():
        schema: dict[str, Any] = {"type": "boolean"} if kind == "bool" else {"type": "string"}
        query_params.append({
            "name": name, "in": "query", "required": False, "schema": schema,
            "description": _DESCRIPTIONS[name] + (" Exactly true or false." if kind == "bool" else "")
            + f" The camelCase name {camel_case(name)} is accepted too (not both).",
            **({"x-assetroute-extension": True} if name in _EXTENSIONS else {}),
        })

    between_errors = {
        "400": _error_response("Invalid request (malformed JSON, a non-object body, a wrong type, a bad value, "
                               "a duplicate field), or the same chain as source and destination "
                               "(source and dest chain must differ) (gRPC code 3)."),
        "404": _error_response("source chain not found / dest chain not found (gRPC code 5)."),
        "405": _R405,
        "500": _R500,
        "504": _R504,
        **_TRANSPORT,
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "assetroute",
            "version": "0.1.0",
            "description": "Which tokens can move between chains of the Cosmos chain registry, and what they "
                           "become on arrival. Compatible with the reference service's "
                           "/v2/fungible/assets_between_chains and /v2/fungible/assets_from_source. "
                           "Errors are {code, message, details} with a gRPC code.",
            "license": {"name": "Apache-2.0", "identifier": "Apache-2.0"},
        },
        "paths": {
            "/v2/fungible/assets_between_chains": {
                "post": {
                    "operationId": "assetsBetweenChains",
                    "summary": "Assets on the source chain paired with what they become on the destination",
                    "tags": ["fungible"],
                    "requestBody": body("AssetsBetweenChainsRequest"),
                    "responses": {"200": between_ok, **between_errors, "413": _R413},
                },
                "get": {
                    "operationId": "assetsBetweenChainsGet",
                    "summary": "The same lookup with query parameters (as the official SDK sends it)",
                    "tags": ["fungible"],
                    "parameters": query_params,
                    "responses": {"200": between_ok, **between_errors},
                },
            },
            "/v2/fungible/assets_from_source": {"post": from_source_op("assetsFromSource")},
            "/v1/fungible/assets_from_source": {"post": from_source_op("assetsFromSourceV1", deprecated=True)},
            "/v2/info/bridges": {
                "get": {
                    "operationId": "bridges",
                    "summary": "The bridge kinds the default answers route over (IBC and the reference's kinds "
                               "the registry links)",
                    "tags": ["info"],
                    "responses": {"200": _ok("BridgesResponse", "The bridges."), "405": _R405, "500": _R500,
                                  **_TRANSPORT},
                },
            },
            "/v2/fungible/venues": {
                "get": {
                    "operationId": "venues",
                    "summary": "The overlay's swap venues",
                    "tags": ["fungible"],
                    "parameters": [_ONLY_TESTNETS],
                    "responses": {"200": _ok("VenuesResponse", "The venues."), "400": _R400_QUERY, "405": _R405,
                                  "500": _R500, **_TRANSPORT},
                },
            },
            "/v2/fungible/assets": {
                "get": {
                    "operationId": "assets",
                    "summary": "The assets of every routable chain (or of chain_ids), filtered as the reference does",
                    "tags": ["fungible"],
                    "parameters": [
                        {**_CHAIN_IDS, "description": "Only these chains (repeat the parameter; chain_ids[] is "
                                                      "read the same). An unknown one is 400 Invalid chain_id."},
                        *({"name": name, "in": "query", "required": False, "schema": {"type": "boolean"},
                           "description": doc + " Exactly true or false."} for name, doc in (
                            ("native_only", "Only assets native to their chain (empty trace)."),
                            ("include_no_metadata_assets", "Also derived vouchers no assetlist lists."),
                            ("include_cw20_assets", "Also CW20 (contract) tokens."),
                            ("include_evm_assets", "Also assets of EVM chains."),
                            ("include_svm_assets", "Also assets of SVM chains."))),
                        _ONLY_TESTNETS,
                    ],
                    "responses": {"200": _ok("AssetsResponse", "Assets per chain-id, keys sorted; chains with "
                                                               "no asset left are left out."),
                                  "400": _error_response("A bad query parameter, or Invalid chain_id (gRPC code 3)."),
                                  "405": _R405, "500": _R500, "504": _R504, **_TRANSPORT},
                },
            },
            "/v2/fungible/ibc_origin_assets": {
                "post": {
                    "operationId": "ibcOriginAssets",
                    "summary": "The IBC origin of each given asset, each entry answered on its own",
                    "tags": ["fungible"],
                    "requestBody": body("OriginAssetsRequest", required=True,
                                        empty="an empty body asks nothing: 400 Must supply denom and chain_id."),
                    "responses": {"200": _ok("OriginAssetsResponse", "One entry per asset asked, in order."),
                                  "400": _error_response("Malformed body, an entry without denom and chain_id "
                                                         "(Must supply denom and chain_id), a denom or chain_id over "
                                                         "its length limit, or more than 64 entries (gRPC code 3)."),
                                  "405": _R405, "413": _R413, "500": _R500, "504": _R504, **_TRANSPORT},
                },
            },
            "/v2/fungible/recommend_assets": {
                "post": {
                    "operationId": "recommendAssets",
                    "summary": "What each source asset is recommended as on its destination chain, each entry "
                               "answered on its own",
                    "tags": ["fungible"],
                    "requestBody": body("RecommendAssetsRequest", required=True,
                                        empty="an empty body asks nothing: 400 Must supply source_asset."),
                    "responses": {"200": _ok("RecommendAssetsResponse", "One entry per request, in order; an "
                                             "entry that cannot be answered carries its error."),
                                  "400": _error_response("Malformed body, an entry without a source asset (Must "
                                                         "supply source_asset) or destination, a bad reason, or "
                                                         "more than 64 entries (gRPC code 3)."),
                                  "405": _R405, "413": _R413, "500": _R500, "504": _R504, **_TRANSPORT},
                },
            },
            "/v2/info/chains": {
                "get": {
                    "operationId": "chains",
                    "summary": "Routable chains, sorted by chain-id (Cosmos; EVM and SVM when asked)",
                    "tags": ["info"],
                    "parameters": [
                        {"name": "chain_ids", "in": "query", "required": False, "style": "form", "explode": True,
                         "schema": {"type": "array", "items": {"type": "string"}},
                         "description": "Only these chains (repeat the parameter; chain_ids[] is read the same). "
                                        "Unknown ids are left out."},
                        {"name": "include_evm", "in": "query", "required": False, "schema": {"type": "boolean"},
                         "description": "List EVM chains too (default false). Exactly true or false."},
                        {"name": "include_svm", "in": "query", "required": False, "schema": {"type": "boolean"},
                         "description": "List SVM chains too (default false). Exactly true or false."},
                        {"name": "only_testnets", "in": "query", "required": False, "schema": {"type": "boolean"},
                         "description": "The registry's testnet world (its testnets/ folder, loaded on the "
                                        "first such request) instead of mainnets; every chain is_testnet."},
                    ],
                    "responses": {"200": _ok("ChainsResponse", "The chains."),
                                  "400": _error_response("A query parameter has a bad value or is given twice "
                                                         "(gRPC code 3)."),
                                  "405": _R405, "500": _R500,
                                  "504": _R504,
                                  **_TRANSPORT},
                },
            },
            "/health": {
                "get": {
                    "operationId": "health",
                    "summary": "Liveness and the provenance of the loaded registry",
                    "tags": ["info"],
                    "responses": {"200": _ok("Health", "Service is up."), "405": _R405, "500": _R500, **_TRANSPORT},
                },
            },
            "/openapi.json": {
                "get": {
                    "operationId": "openapi",
                    "summary": "This document",
                    "tags": ["info"],
                    "responses": {
                        "200": {"description": "OpenAPI 3.1 document.",
                                "content": {"application/json": {"schema": {"type": "object"}}}},
                        "405": _R405, "500": _R500, **_TRANSPORT,
                    },
                },
            },
        },
        "components": {
            "schemas": {
                "AssetsBetweenChainsRequest": between_request,
                "AssetsFromSourceRequest": from_source_request,
                "SwapVenue": venue,
                "Asset": _asset_schema(),
                "AssetBetweenChains": {
                    "type": "object",
                    "properties": {
                        "asset_on_source": {"$ref": _REF + "Asset"},
                        "asset_on_dest": {"$ref": _REF + "Asset"},
                        "txs_required": {"type": "integer", "minimum": 1,
                                         "description": "Transactions the route needs."},
                        "bridges": {"type": "array", "items": {"type": "string"},
                                    "description": "Kinds of the route's operations in order (IBC, AXELAR, "
                                                   "CCTP, EUREKA, …), consecutive repeats merged."},
                    },
                    "required": ["asset_on_source", "asset_on_dest", "txs_required", "bridges"],
                    "additionalProperties": False,
                },
                "AssetsBetweenChainsResponse": {
                    "type": "object",
                    "properties": {"assets_between_chains": {
                        "type": "array", "items": {"$ref": _REF + "AssetBetweenChains"}}},
                    "required": ["assets_between_chains"],
                    "additionalProperties": False,
                },
                "AssetsFromSourceResponse": {
                    "type": "object",
                    "properties": {"dest_assets": {
                        "type": "object",
                        "description": "Map from chain-id (or recommended symbol) to the assets there; keys sorted.",
                        "additionalProperties": {
                            "type": "object",
                            "properties": {"assets": {"type": "array", "items": {"$ref": _REF + "Asset"}}},
                            "required": ["assets"],
                            "additionalProperties": False,
                        },
                    }},
                    "required": ["dest_assets"],
                    "additionalProperties": False,
                },
                "Chain": {
                    "type": "object",
                    "description": "The reference's Chain. Facts the registry does not give are false, never "
                                   "guessed (module support, IBC hooks, memo, autopilot).",
                    "properties": {
                        "chain_name": {"type": "string"},
                        "chain_id": {"type": "string"},
                        "pfm_enabled": {"type": "boolean", "description": "The overlay's sourced PFM fact."},
                        "cosmos_module_support": {
                            "type": "object", "additionalProperties": False, "required": ["authz", "feegrant"],
                            "properties": {"authz": {"type": "boolean"}, "feegrant": {"type": "boolean"}}},
                        "supports_memo": {"type": "boolean"},
                        "logo_uri": {"type": "string", "description": "Omitted when unknown (never null)."},
                        "bech32_prefix": {"type": "string", "description": "Empty where a chain has none (EVM)."},
                        "fee_assets": {"type": "array", "items": {"$ref": _REF + "FeeAsset"},
                                       "description": "chain.json fees.fee_tokens, in the registry's order."},
                        "chain_type": {"type": "string", "enum": ["cosmos", "evm", "svm"]},
                        "ibc_capabilities": {
                            "type": "object", "additionalProperties": False,
                            "required": ["cosmos_pfm", "cosmos_ibc_hooks", "cosmos_memo", "cosmos_autopilot"],
                            "properties": {k: {"type": "boolean"} for k in (
                                "cosmos_pfm", "cosmos_ibc_hooks", "cosmos_memo", "cosmos_autopilot")}},
                        "is_testnet": {"type": "boolean"},
                        "pretty_name": {"type": "string"},
                    },
                    "required": ["chain_name", "chain_id", "pfm_enabled", "cosmos_module_support", "supports_memo",
                                 "bech32_prefix", "fee_assets", "chain_type", "ibc_capabilities", "is_testnet",
                                 "pretty_name"],
                    "additionalProperties": False,
                },
                "FeeAsset": {
                    "type": "object",
                    "properties": {
                        "denom": {"type": "string"},
                        "gas_price": {
                            "type": "object", "additionalProperties": False, "required": ["low", "average", "high"],
                            "description": "Decimal text; only when the registry gives all three.",
                            "properties": {k: {"type": "string"} for k in ("low", "average", "high")}},
                    },
                    "required": ["denom"],
                    "additionalProperties": False,
                },
                "BridgesResponse": {
                    "type": "object", "required": ["bridges"], "additionalProperties": False,
                    "properties": {"bridges": {"type": "array", "items": {
                        "type": "object", "required": ["id", "name"], "additionalProperties": False,
                        "properties": {"id": {"type": "string"}, "name": {"type": "string"}}}}},
                },
                "VenuesResponse": {
                    "type": "object", "required": ["venues"], "additionalProperties": False,
                    "properties": {"venues": {"type": "array", "items": {
                        "type": "object", "required": ["name", "chain_id"], "additionalProperties": False,
                        "properties": {"name": {"type": "string"}, "chain_id": {"type": "string"},
                                       "logo_uri": {"type": "string"}}}}},
                },
                "AssetsResponse": {
                    "type": "object", "required": ["chain_to_assets_map"], "additionalProperties": False,
                    "properties": {"chain_to_assets_map": {"type": "object", "additionalProperties": {
                        "type": "object", "required": ["assets"], "additionalProperties": False,
                        "properties": {"assets": {"type": "array", "items": {"$ref": _REF + "Asset"}}}}}},
                },
                "OriginAssetsRequest": {
                    "type": "object",
                    "properties": {"assets": {"type": ["array", "null"], "maxItems": MAX_ORIGIN_ASSETS, "items": {
                        "type": "object", "required": ["denom", "chain_id"],
                        "properties": {"denom": {"type": "string", "minLength": 1, "maxLength": MAX_ORIGIN_DENOM},
                                       "chain_id": {"type": "string", "minLength": 1,
                                                    "maxLength": MAX_ORIGIN_CHAIN_ID}}}}},
                    "example": {"assets": [{
                        "denom": "ibc/14F9BC3E44B8A9C1BE1FB08980FAB87034C9905EF17CF2F5008FC085218811CC",
                        "chain_id": "cosmoshub-4"}]},
                },
                "OriginAssetsResponse": {
                    "type": "object", "required": ["origin_assets"], "additionalProperties": False,
                    "properties": {"origin_assets": {"type": "array", "items": {
                        "type": "object", "required": ["asset_found"], "additionalProperties": False,
                        "properties": {"asset": {"$ref": _REF + "Asset"}, "asset_found": {"type": "boolean"}}}}},
                },
                "RecommendAssetsRequest": {
                    "type": "object",
                    "properties": {"requests": {
                        "type": ["array", "null"], "maxItems": MAX_RECOMMEND_REQUESTS, "items": {
                        "type": "object", "required": ["source_asset_denom", "source_asset_chain_id", "dest_chain_id"],
                        "properties": {
                            "source_asset_denom": _text(MAX_ORIGIN_DENOM),
                            "source_asset_chain_id": _text(MAX_ORIGIN_CHAIN_ID),
                            "dest_chain_id": _text(MAX_ORIGIN_CHAIN_ID),
                            "reason": {"enum": [*RECOMMENDATION_REASONS, *range(len(RECOMMENDATION_REASONS)), None]},
                        }}}},
                    "example": {"requests": [{"source_asset_denom": "uusdc", "source_asset_chain_id": "axelar-dojo-1",
                                              "dest_chain_id": "osmosis-1"}]},
                },
                "RecommendAssetsResponse": {
                    "type": "object", "required": ["recommendation_entries"], "additionalProperties": False,
                    "properties": {"recommendation_entries": {"type": "array", "items": {
                        "type": "object", "required": ["recommendations"], "additionalProperties": False,
                        "properties": {
                            "recommendations": {"type": "array", "items": {
                                "type": "object", "required": ["asset", "reason"], "additionalProperties": False,
                                "properties": {"asset": {"$ref": _REF + "Asset"},
                                               "reason": {"enum": list(RECOMMENDATION_REASONS)}}}},
                            "error": {"type": "object", "required": ["message"], "additionalProperties": False,
                                      "properties": {"message": {"type": "string"}}},
                        }}}},
                },
                "ChainsResponse": {
                    "type": "object",
                    "properties": {"chains": {"type": "array", "items": {"$ref": _REF + "Chain"}}},
                    "required": ["chains"],
                    "additionalProperties": False,
                },
                "Health": {
                    "type": "object",
                    "properties": {
                        "status": {"const": "ok"},
                        "version": {"type": "string"},
                        "source": {"type": "string"},
                        "kind": {"type": "string"},
                        "commit": {"type": ["string", "null"]},
                        "fingerprint": {"type": "string"},
                        "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
                        "load_seconds": {"type": "number"},
                        "loaded_at": {"type": "string"},
                        "overlay": {"type": "string"},
                    },
                    "required": ["status", "source", "kind", "commit", "fingerprint", "counts"],
                },
                "Error": {
                    "type": "object",
                    "properties": {
                        "code": {"type": "integer",
                                 "description": "gRPC status code: 3 invalid argument, 5 not found, 8 too large, "
                                                "12 wrong method, 4 deadline exceeded, 14 unavailable, 2 internal."},
                        "message": {"type": "string"},
                        "details": {"type": "array", "maxItems": 0},
                    },
                    "required": ["code", "message", "details"],
                    "additionalProperties": False,
                },
            },
        },
    }


#: The document, built once at import.
OPENAPI: dict[str, Any] = build_openapi()
