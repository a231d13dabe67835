"""Request parsing (assetroute_core._requests): every rule, with the exact messages clients see."""

from __future__ import annotations

import json
import re
import time

import pytest

from assetroute_core import InvalidArgumentError, NotFoundError, Registry, SwapVenue
from assetroute_core._requests import (
    BETWEEN_FIELDS,
    FROM_SOURCE_FIELDS,
    RECOMMENDATION_REASONS,
    PayloadTooLargeError,
    camel_case,
    parse_between_chains,
    parse_between_chains_query,
    parse_from_source,
    parse_recommendation_reason,
)

BETWEEN_DEFAULTS = {
    "source_chain_id": "",
    "dest_chain_id": "",
    "include_no_metadata_assets": False,
    "include_cw20_assets": False,
    "include_evm_assets": False,
    "allow_multi_tx": False,
    "include_other_bridges": False,
    "include_svm_assets": False,
}
SOURCE = {"source_asset_denom": "uatom", "source_asset_chain_id": "cosmoshub-4"}


def body(obj: object) -> bytes:
    return json.dumps(obj).encode()


def from_source(**fields: object) -> bytes:
    return body({**SOURCE, **fields})


def message(parse, raw: bytes) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidArgumentError) as info:
        parse(raw)
    err = info.value
    assert (err.code, err.http_status) == (3, 400)
    assert err.to_api() == {"code": 3, "message": err.message, "details": []}
    return err.message


# -- empty bodies, malformed JSON, non-objects -----------------------------------------------


@pytest.mark.parametrize("raw", [b"", b" ", b"\r\n\t ", b"{}", b" {} \n"])
def test_empty_body_is_an_empty_object(raw: bytes) -> None:
    assert parse_between_chains(raw) == BETWEEN_DEFAULTS


def test_empty_body_misses_the_required_fields_of_from_source() -> None:
    assert message(parse_from_source, b"") == "missing required field source_asset_denom"


@pytest.mark.parametrize(("raw", "detail"), [
    (b"{", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
    (b'{"source_chain_id": }', "Expecting value: line 1 column 21 (char 20)"),
    (b'{"a": 1,}', r"(Illegal trailing comma before end of object|Expecting property name enclosed in double "
                   r"quotes): line 1 column \d+ \(char \d+\)"),  # wording differs between Python versions
    (b"{} {}", "Extra data: line 1 column 4 (char 3)"),
    (b"{'a': 1}", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
    (b'{"a": NaN}', "invalid literal NaN"),
    (b'{"a": -Infinity}', "invalid literal -Infinity"),
    (b"\xef\xbb\xbf{}", "Expecting value: line 1 column 1 (char 0)"),  # a BOM is not JSON
    (b"[" * 70_000, "nesting deeper than 32 levels"),
])
def test_malformed_json_says_what_is_wrong(raw: bytes, detail: str) -> None:
    pattern = "malformed JSON: " + (detail if detail.startswith("(") else re.escape(detail))
    assert re.fullmatch(pattern, message(parse_between_chains, raw))
    assert re.fullmatch(pattern, message(parse_from_source, raw))


@pytest.mark.parametrize("depth", [31, 32, 33, 500, 964, 965, 999, 1000, 1001, 1100, 100_000])
@pytest.mark.parametrize("field", ["source_chain_id", "allow_multi_tx", "include_cw20_assets"])
def test_nesting_is_limited_before_decoding(depth: int, field: str) -> None:
    """Issue 13: a value nested ~965 deep reached json.dumps in the error message and raised RecursionError.
    The body object is level 1, so a value may hold 31 levels; anything deeper is refused unread."""
    for kind, value in (("array", "[" * depth + "]" * depth), ("object", '{"a":' * depth + "0" + "}" * depth)):
        raw = f'{{"{field}": {value}}}'.encode()
        got = message(parse_between_chains, raw)
        if depth <= 31:
            assert got.startswith(f"invalid value for {'string' if field.endswith('id') else 'bool'} field {field}: "
                                  + ("[[[" if kind == "array" else '{"a":')), got
        else:
            assert got == "malformed JSON: nesting deeper than 32 levels", (kind, depth)
        if field == "source_chain_id":
            fs = f'{{"source_asset_denom": {value}, "source_asset_chain_id": "cosmoshub-4"}}'.encode()
            assert message(parse_from_source, fs).startswith(
                "invalid value" if depth <= 31 else "malformed JSON: nesting deeper than 32 levels")


@pytest.mark.parametrize("text", [
    '{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}',  # brackets inside a string
    '{"a": "\\\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}',  # after escaped quotes
    '{"a": ' + "[" * 31 + "]" * 31 + "}",  # 31 inside + the body object = 32 levels
])
def test_nesting_limit_counts_only_structure(text: str) -> None:
    parse_between_chains(text.encode())  # accepted: "a" is an unknown field


def test_nesting_check_is_linear_on_hostile_text() -> None:
    """Unterminated strings, escapes and brackets at once: no quadratic scan (a regex could be)."""
    for raw in (b'"' + b'[\"' * 30_000, b'"' * 30_000 + b"[" * 30_000, b'["\\"' * 15_000):
        started = time.perf_counter()
        assert message(parse_between_chains, raw).startswith("malformed JSON")
        assert time.perf_counter() - started < 1.0


def test_invalid_utf8_is_rejected() -> None:
    assert message(parse_between_chains, b'{"source_chain_id": "\xff"}') == \
        "request body is not valid UTF-8 (byte 21)"


@pytest.mark.parametrize(("raw", "kind"), [
    (b"[]", "array"), (b'[{"source_chain_id": "x"}]', "array"), (b'"x"', "string"), (b"1", "number"),
    (b"1.5", "number"), (b"true", "boolean"), (b"null", "null"),
])
def test_top_level_must_be_an_object(raw: bytes, kind: str) -> None:
    assert message(parse_between_chains, raw) == f"request body must be a JSON object, got {kind}"
    assert message(parse_from_source, raw) == f"request body must be a JSON object, got {kind}"


def test_lone_surrogate_escapes_become_replacement_characters() -> None:
    args = parse_between_chains(b'{"source_chain_id": "a\\ud800b"}')
    assert args["source_chain_id"] == "a\ufffdb"
    assert args["source_chain_id"].encode("utf-8") == b"a\xef\xbf\xbdb"  # encodable: safe to log and echo


# -- types -----------------------------------------------------------------------------------


BOOL_FIELDS = sorted({n for n, k in BETWEEN_FIELDS.items() if k == "bool"}
                     | {n for n, k in FROM_SOURCE_FIELDS.items() if k == "bool"})


@pytest.mark.parametrize("name", BOOL_FIELDS)
@pytest.mark.parametrize("spelling", ["snake", "camel"])
@pytest.mark.parametrize(("value", "shown"), [("yes", '"yes"'), (1, "1"), (0, "0"), ("true", '"true"'),
                                              ([], "[]"), ({"a": 1}, '{"a":1}')])
def test_wrong_type_for_bool_field_names_field_and_value(name: str, spelling: str, value: object,
                                                         shown: str) -> None:
    key = name if spelling == "snake" else camel_case(name)
    expected = f"invalid value for bool field {key}: {shown}"
    if name in BETWEEN_FIELDS:
        assert message(parse_between_chains, body({key: value})) == expected
    if name in FROM_SOURCE_FIELDS:
        assert message(parse_from_source, from_source(**{key: value})) == expected


def test_the_documented_example_message() -> None:
    assert message(parse_between_chains, b'{"allow_multi_tx": "yes"}') == \
        'invalid value for bool field allow_multi_tx: "yes"'


@pytest.mark.parametrize("key", ["source_chain_id", "destChainId"])
@pytest.mark.parametrize(("value", "shown"), [(5, "5"), (True, "true"), (["x"], '["x"]'), ({}, "{}")])
def test_wrong_type_for_string_field(key: str, value: object, shown: str) -> None:
    assert message(parse_between_chains, body({key: value})) == f"invalid value for string field {key}: {shown}"


@pytest.mark.parametrize(("fields", "key"), [
    ({"source_asset_denom": 7, "source_asset_chain_id": "cosmoshub-4"}, "source_asset_denom"),
    ({"source_asset_denom": "uatom", "sourceAssetChainId": 7}, "sourceAssetChainId"),
    ({"sourceAssetChainId": 7}, "sourceAssetChainId"),  # the type error comes before the missing field
])
def test_wrong_type_for_required_string_field(fields: dict[str, object], key: str) -> None:
    assert message(parse_from_source, body(fields)) == f"invalid value for string field {key}: 7"


def test_offending_values_are_cut_to_a_readable_length() -> None:
    msg = message(parse_between_chains, body({"allow_multi_tx": "x" * 1000}))
    assert msg.startswith('invalid value for bool field allow_multi_tx: "xxx')
    assert msg.endswith("…") and len(msg) < 140


# -- required fields, null, unknown fields ---------------------------------------------------


@pytest.mark.parametrize(("fields", "missing"), [
    ({"source_asset_chain_id": "cosmoshub-4"}, "source_asset_denom"),
    ({"source_asset_denom": "uatom"}, "source_asset_chain_id"),
    ({"source_asset_denom": None, "source_asset_chain_id": "cosmoshub-4"}, "source_asset_denom"),
    ({"sourceAssetDenom": "uatom", "sourceAssetChainId": None}, "source_asset_chain_id"),
    ({"allow_multi_tx": True}, "source_asset_denom"),
])
def test_missing_required_fields_of_from_source(fields: dict[str, object], missing: str) -> None:
    assert message(parse_from_source, body(fields)) == f"missing required field {missing}"


def test_between_has_no_required_fields_and_missing_ids_give_the_core_404(registry: Registry) -> None:
    """Decision: like the reference's proto3 message, a missing/null/empty chain id is "" and the
    lookup answers 404 source/dest chain not found, not 400."""
    for raw, expected in [(b"{}", "source chain not found"),
                          (body({"source_chain_id": None, "dest_chain_id": "osmosis-1"}), "source chain not found"),
                          (body({"source_chain_id": "", "dest_chain_id": "osmosis-1"}), "source chain not found"),
                          (body({"source_chain_id": "cosmoshub-4"}), "dest chain not found"),
                          (body({"sourceChainId": "cosmoshub-4", "destChainId": ""}), "dest chain not found")]:
        args = parse_between_chains(raw)
        with pytest.raises(NotFoundError) as info:
            registry.assets_between_chains(**args)
        assert info.value.to_api() == {"code": 5, "message": expected, "details": []}


def test_null_means_unset_for_every_field() -> None:
    assert parse_between_chains(body(dict.fromkeys(BETWEEN_FIELDS))) == BETWEEN_DEFAULTS
    nulls = dict.fromkeys(n for n in FROM_SOURCE_FIELDS if n not in SOURCE)
    args = parse_from_source(from_source(**nulls))
    assert args == {**SOURCE, "allow_multi_tx": False, "recommendation_reason": None, "include_swaps": False,
                    "swap_venues": None, "native_only": False, "group_by": None, "include_cw20_assets": False,
                    "include_other_bridges": False}


def test_unknown_fields_are_ignored() -> None:
    raw = body({"source_chain_id": "a", "dest_chain_id": "b", "client_id": 5, "Allow_Multi_Tx": "x",
                "allow-multi-tx": [1], "nested": {"allow_multi_tx": "yes", "k": [None, {"x": 1}]}})
    assert parse_between_chains(raw) == {**BETWEEN_DEFAULTS, "source_chain_id": "a", "dest_chain_id": "b"}
    # an unknown key given twice is not a known field given twice
    assert parse_between_chains(b'{"foo": 1, "foo": 2}') == BETWEEN_DEFAULTS


# -- spellings and duplicates ----------------------------------------------------------------


def test_every_field_has_a_camel_case_spelling_with_the_same_meaning() -> None:
    assert camel_case("include_cw20_assets") == "includeCw20Assets"
    assert camel_case("source_asset_chain_id") == "sourceAssetChainId"
    snake = {"source_chain_id": "cosmoshub-4", "dest_chain_id": "osmosis-1",
             "include_no_metadata_assets": True, "include_cw20_assets": True, "include_evm_assets": True,
             "allow_multi_tx": True, "include_other_bridges": True, "include_svm_assets": True}
    camel = {camel_case(k): v for k, v in snake.items()}
    assert set(camel) == {"sourceChainId", "destChainId", "includeNoMetadataAssets", "includeCw20Assets",
                          "includeEvmAssets", "allowMultiTx", "includeOtherBridges", "includeSvmAssets"}
    assert parse_between_chains(body(camel)) == parse_between_chains(body(snake)) == snake

    fs = {**SOURCE, "allow_multi_tx": True, "recommendation_reason": "DIRECT", "include_swaps": True,
          "swap_venues": [{"name": "osmosis-poolmanager", "chain_id": "osmosis-1", "logo_uri": "https://x/l.png"}],
          "native_only": True, "group_by": "recommended_symbol", "include_cw20_assets": True,
          "include_other_bridges": True}
    fs_camel = {camel_case(k): v for k, v in fs.items()}
    fs_camel["swapVenues"] = [{"name": "osmosis-poolmanager", "chainId": "osmosis-1", "logoUri": "https://x/l.png"}]
    expected = {**fs, "swap_venues": [SwapVenue("osmosis-poolmanager", "osmosis-1", "https://x/l.png")]}
    assert parse_from_source(body(fs_camel)) == parse_from_source(body(fs)) == expected


@pytest.mark.parametrize(("raw", "dup"), [
    (b'{"allow_multi_tx": true, "allow_multi_tx": true}', "allow_multi_tx"),
    (b'{"allowMultiTx": false, "allowMultiTx": false}', "allowMultiTx"),
    (b'{"allow_multi_tx": true, "allowMultiTx": true}', "allowMultiTx"),
    (b'{"destChainId": "a", "dest_chain_id": "a"}', "dest_chain_id"),
    (b'{"source_chain_id": null, "sourceChainId": "x"}', "sourceChainId"),
])
def test_duplicate_fields_are_rejected(raw: bytes, dup: str) -> None:
    assert message(parse_between_chains, raw) == f'duplicate field "{dup}"'


def test_duplicate_fields_in_from_source_and_in_swap_venues() -> None:
    raw = b'{"source_asset_denom": "a", "sourceAssetDenom": "a", "source_asset_chain_id": "c"}'
    assert message(parse_from_source, raw) == 'duplicate field "sourceAssetDenom"'
    raw = from_source(swap_venues=[{"name": "v", "chain_id": "c", "chainId": "c"}])
    assert message(parse_from_source, raw) == 'duplicate field "swap_venues[0].chainId"'
    raw = b'{"source_asset_denom": "a", "source_asset_chain_id": "c", "swap_venues": [{"name": "v", "name": "w"}]}'
    assert message(parse_from_source, raw) == 'duplicate field "swap_venues[0].name"'


# -- enums -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "name"), [
    ("UNKNOWN", "UNKNOWN"), ("BASE_TOKEN", "BASE_TOKEN"), ("MOST_LIQUID", "MOST_LIQUID"), ("DIRECT", "DIRECT"),
    (0, "UNKNOWN"), (1, "BASE_TOKEN"), (2, "MOST_LIQUID"), (3, "DIRECT"), (3.0, "DIRECT"), (None, None),
])
def test_recommendation_reason_accepts_names_and_proto_numbers(value: object, name: str | None) -> None:
    assert parse_from_source(from_source(recommendation_reason=value))["recommendation_reason"] == name
    assert parse_from_source(from_source(recommendationReason=value))["recommendation_reason"] == name


@pytest.mark.parametrize(("value", "shown"), [
    ("FOO", '"FOO"'), ("direct", '"direct"'), ("", '""'), ("1", '"1"'), (4, "4"), (-1, "-1"), (1.5, "1.5"),
    (True, "true"), ([], "[]"), ({}, "{}"),
])
def test_bad_recommendation_reason_names_the_allowed_values(value: object, shown: str) -> None:
    assert message(parse_from_source, from_source(recommendation_reason=value)) == (
        f"invalid value for enum field recommendation_reason: {shown} "
        "(allowed: UNKNOWN, BASE_TOKEN, MOST_LIQUID, DIRECT, or 0-3)")


def test_reason_numbers_are_the_proto_numbers_and_every_name_is_accepted_by_the_core(registry: Registry) -> None:
    assert RECOMMENDATION_REASONS == ("UNKNOWN", "BASE_TOKEN", "MOST_LIQUID", "DIRECT")
    for number, name in enumerate(RECOMMENDATION_REASONS):
        args = parse_from_source(from_source(recommendation_reason=number))
        assert args["recommendation_reason"] == name
        registry.assets_from_source(**args)  # no InvalidArgumentError
    assert parse_recommendation_reason("2", text_numbers=True) == "MOST_LIQUID"
    with pytest.raises(InvalidArgumentError):
        parse_recommendation_reason("2")


@pytest.mark.parametrize(("value", "expected"), [("chain_id", "chain_id"), ("recommended_symbol", "recommended_symbol"),
                                                 ("", None), (None, None)])
def test_group_by_values(value: object, expected: str | None) -> None:
    assert parse_from_source(from_source(group_by=value))["group_by"] == expected


@pytest.mark.parametrize(("value", "msg"), [
    ("origin", 'invalid value for field group_by: "origin" (allowed: chain_id, recommended_symbol)'),
    ("CHAIN_ID", 'invalid value for field group_by: "CHAIN_ID" (allowed: chain_id, recommended_symbol)'),
    (1, "invalid value for string field group_by: 1"),
])
def test_bad_group_by(value: object, msg: str) -> None:
    assert message(parse_from_source, from_source(group_by=value)) == msg


# -- swap venues -----------------------------------------------------------------------------


def test_swap_venues_are_parsed_into_swap_venue_objects(registry: Registry) -> None:
    args = parse_from_source(from_source(include_swaps=True, swap_venues=[
        {"name": "osmosis-poolmanager", "chain_id": "osmosis-1", "extra": 1},
        {"name": "neutron-astroport", "chainId": "neutron-1", "logoUri": None},
        {"name": "x", "chain_id": "x-1", "logo_uri": "https://l"},
    ]))
    assert args["swap_venues"] == [SwapVenue("osmosis-poolmanager", "osmosis-1"),
                                   SwapVenue("neutron-astroport", "neutron-1"),
                                   SwapVenue("x", "x-1", "https://l")]
    assert len(registry.assets_from_source(**args)) > 0
    assert parse_from_source(from_source(swap_venues=[]))["swap_venues"] == []


@pytest.mark.parametrize(("venues", "msg"), [
    ({}, "invalid value for repeated field swap_venues: {}"),
    ("osmosis", 'invalid value for repeated field swap_venues: "osmosis"'),
    ([5], "invalid value for message field swap_venues[0]: 5"),
    ([{"name": "a", "chain_id": "b"}, None], "invalid value for message field swap_venues[1]: null"),
    ([{"chain_id": "b"}], "missing required field swap_venues[0].name"),
    ([{"name": "a"}], "missing required field swap_venues[0].chain_id"),
    ([{"name": "a", "chain_id": None}], "missing required field swap_venues[0].chain_id"),
    ([{"name": 1, "chain_id": "b"}], "invalid value for string field swap_venues[0].name: 1"),
    ([{"name": "a", "chainId": False}], "invalid value for string field swap_venues[0].chainId: false"),
    ([{"name": "a", "chain_id": "b", "logo_uri": 3}], "invalid value for string field swap_venues[0].logo_uri: 3"),
])
def test_bad_swap_venues(venues: object, msg: str) -> None:
    assert message(parse_from_source, from_source(swap_venues=venues)) == msg


def test_bad_swap_venues_spelled_in_camel_case_are_named_as_spelled() -> None:
    assert message(parse_from_source, from_source(swapVenues=[7])) == \
        "invalid value for message field swapVenues[0]: 7"


# -- GET query parameters --------------------------------------------------------------------


def test_query_parameters() -> None:
    items = [("source_chain_id", "cosmoshub-4"), ("destChainId", "osmosis-1"), ("allow_multi_tx", "true"),
             ("includeEvmAssets", "false"), ("unknown", "x")]
    assert parse_between_chains_query(items) == {**BETWEEN_DEFAULTS, "source_chain_id": "cosmoshub-4",
                                                 "dest_chain_id": "osmosis-1", "allow_multi_tx": True}
    assert parse_between_chains_query([]) == BETWEEN_DEFAULTS


@pytest.mark.parametrize(("items", "msg"), [
    ([("allow_multi_tx", "yes")], 'invalid value for bool field allow_multi_tx: "yes"'),
    ([("allow_multi_tx", "1")], 'invalid value for bool field allow_multi_tx: "1"'),
    ([("includeCw20Assets", "True")], 'invalid value for bool field includeCw20Assets: "True"'),
    ([("include_evm_assets", "")], 'invalid value for bool field include_evm_assets: ""'),
    ([("source_chain_id", "a"), ("source_chain_id", "b")], 'duplicate field "source_chain_id"'),
    ([("source_chain_id", "a"), ("sourceChainId", "a")], 'duplicate field "sourceChainId"'),
])
def test_bad_query_parameters(items: list[tuple[str, str]], msg: str) -> None:
    assert message(parse_between_chains_query, items) == msg  # type: ignore[arg-type]


# -- the 413 error type ----------------------------------------------------------------------


def test_payload_too_large_error() -> None:
    err = PayloadTooLargeError("request body too large: limit is 10 bytes")
    assert isinstance(err, InvalidArgumentError)
    assert (err.code, err.http_status) == (8, 413)
    assert err.to_api() == {"code": 8, "message": "request body too large: limit is 10 bytes", "details": []}
