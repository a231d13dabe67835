"""Request parsing for the HTTP service: raw body bytes → validated lookup arguments.

The rules follow the reference service (a grpc-gateway front end using protojson) where they are
documented, and are stricter only where the reference silently guesses:

* The body must be a JSON object (UTF-8). An empty (or all-whitespace) body counts as ``{}``.
* Arrays and objects may nest at most :data:`MAX_NESTING` (32) levels deep; a deeper body is
  ``400 malformed JSON: nesting deeper than 32 levels``, checked on the raw text *before* decoding, so
  no code that recurses (the decoder, the message of a wrong-type error) ever meets a deep value, whatever
  the stack depth of the thread it runs on (a request needs 3 levels: body, ``swap_venues``, a venue).
* Keys may be snake_case (``allow_multi_tx``) or camelCase (``allowMultiTx``); giving the same
  field twice, in one spelling or in both, is ``400 duplicate field "…"``.
* ``null`` for any field means "unset" (its default). Unknown fields are ignored.
* Wrong JSON types are ``400`` naming the field (as spelled by the client) and the offending value.
* ``recommendation_reason`` takes a name (``UNKNOWN``, ``BASE_TOKEN``, ``MOST_LIQUID``, ``DIRECT``) or
  its proto number (0–3); anything else is a 400 naming the allowed values (the reference would
  silently fall back to ``UNKNOWN``; a typo should not change the answer unnoticed).
* ``group_by`` takes ``chain_id`` or ``recommended_symbol`` (``""`` means unset).
* ``assets_from_source`` requires ``source_asset_denom`` and ``source_asset_chain_id``: a missing or
  ``null`` one is ``400 missing required field …``.
* ``assets_between_chains`` has no required field, like the reference's proto3 message: a missing,
  ``null`` or empty chain id is passed on as ``""``, which is not a known chain, so the lookup answers
  ``404 source chain not found`` / ``404 dest chain not found`` exactly as the reference does.

Every rejection is an :class:`~assetroute_core.InvalidArgumentError` (HTTP 400, gRPC code 3).

>>> parse_between_chains(b'{"sourceChainId": "cosmoshub-4", "dest_chain_id": "osmosis-1", "allow_multi_tx": true}')
... # doctest: +NORMALIZE_WHITESPACE
{'source_chain_id': 'cosmoshub-4', 'dest_chain_id': 'osmosis-1', 'include_no_metadata_assets': False,
 'include_cw20_assets': False, 'include_evm_assets': False, 'allow_multi_tx': True, 'include_other_bridges': False,
     'include_svm_assets': False}
>>> parse_between_chains(b'{"allow_multi_tx": "yes"}')
Traceback (most recent call last):
...
assetroute_core._exceptions.InvalidArgumentError: invalid value for bool field allow_multi_tx: "yes"
>>> parse_from_source(b'{"source_asset_denom": "uatom", "source_asset_chain_id": "cosmoshub-4",'
...                   b' "recommendation_reason": 1}')["recommendation_reason"]
'BASE_TOKEN'
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from ._catalog import MAX_ORIGIN_CHAIN_ID, MAX_ORIGIN_DENOM, RecommendRequest
from ._exceptions import InvalidArgumentError, PayloadTooLargeError
from ._models import SwapVenue
from ._options import (
    GROUP_BY_VALUES,
    RECOMMENDATION_REASONS,
    BetweenChainsOptions,
    FromSourceOptions,
    OptionKind,
    option_fields,
)

__all__ = [
    "ASSETS_QUERY_FIELDS",
    "BETWEEN_FIELDS",
    "CHAINS_QUERY_FIELDS",
    "FROM_SOURCE_FIELDS",
    "MAX_NESTING",
    "SWAP_VENUE_FIELDS",
    "ChainsQuery",
    "LookupArgs",
    "PayloadTooLargeError",
    "camel_case",
    "parse_assets_query",
    "parse_between_chains",
    "parse_between_chains_query",
    "parse_chains_query",
    "parse_from_source",
    "parse_origin_assets",
    "parse_recommend_assets",
    "parse_recommendation_reason",
]

#: Keyword arguments of a lookup method, every one filled in: the positional fields and the options.
LookupArgs = dict[str, Any]

# field name -> kind (see OptionKind): the two positional fields, then the lookup's options
BETWEEN_FIELDS: dict[str, OptionKind] = {
    "source_chain_id": "string",
    "dest_chain_id": "string",
    **{f.name: f.metadata["kind"] for f in option_fields(BetweenChainsOptions)},
}
FROM_SOURCE_FIELDS: dict[str, OptionKind] = {
    "source_asset_denom": "string",
    "source_asset_chain_id": "string",
    **{f.name: f.metadata["kind"] for f in option_fields(FromSourceOptions)},
}
SWAP_VENUE_FIELDS: dict[str, OptionKind] = {"name": "string", "chain_id": "string", "logo_uri": "string"}
FROM_SOURCE_REQUIRED = ("source_asset_denom", "source_asset_chain_id")

#: Deepest nesting of arrays/objects accepted in a request body (the body object itself is level 1).
MAX_NESTING = 32
MAX_CHAIN_IDS = 1_000  # chain_ids in one chains query (the registry has a few hundred chains)

_WS = b" \t\r\n"
_SURROGATES = re.compile("[\ud800-\udfff]")
_MAX_SHOWN = 80


def camel_case(name: str) -> str:
    """The protobuf JSON name of a snake_case field name.

    >>> camel_case("include_cw20_assets"), camel_case("allow_multi_tx")
    ('includeCw20Assets', 'allowMultiTx')
    """
    first, *rest = name.split("_")
    return first + "".join(part[:1].upper() + part[1:] for part in rest)


def _spellings(fields: Mapping[str, str]) -> dict[str, str]:
    out = {}
    for name in fields:
        out[name] = name
        out[camel_case(name)] = name
    return out


#: Query parameters of ``GET /v2/info/chains`` (name -> kind).
CHAINS_QUERY_FIELDS: dict[str, str] = {"chain_ids": "list", "include_evm": "bool", "include_svm": "bool",
                                       "only_testnets": "bool"}

#: Query parameters of ``GET /v2/fungible/assets`` (name -> kind); ``only_testnets`` is read by the server.
ASSETS_QUERY_FIELDS: dict[str, str] = {
    "chain_ids": "list", "native_only": "bool", "include_no_metadata_assets": "bool", "include_cw20_assets": "bool",
    "include_evm_assets": "bool", "include_svm_assets": "bool", "only_testnets": "bool"}

_BETWEEN_KEYS = _spellings(BETWEEN_FIELDS)
_ASSETS_KEYS = _spellings(ASSETS_QUERY_FIELDS)
_CHAINS_KEYS = {**_spellings(CHAINS_QUERY_FIELDS), "includeEVM": "include_evm", "includeSVM": "include_svm"}
_FROM_SOURCE_KEYS = _spellings(FROM_SOURCE_FIELDS)
_VENUE_KEYS = _spellings(SWAP_VENUE_FIELDS)


# -- JSON decoding ---------------------------------------------------------------------------


class _JSONObject(dict[str, Any]):
    """A decoded JSON object that remembers which keys occurred more than once."""

    duplicates: tuple[str, ...] = ()


def _pairs_hook(pairs: list[tuple[str, Any]]) -> _JSONObject:
    obj = _JSONObject(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        dups = []
        for key, _ in pairs:
            if key in seen:
                dups.append(key)
            seen.add(key)
        obj.duplicates = tuple(dups)
    return obj


class _BadConstant(ValueError):
    pass


def _reject_constant(name: str) -> Any:
    raise _BadConstant(f"invalid literal {name}")


_DECODER = json.JSONDecoder(object_pairs_hook=_pairs_hook, parse_constant=_reject_constant)


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _show(value: object) -> str:
    """The offending value as JSON text, ASCII-safe and cut to a readable length.

    Never recurses without bound: request values are at most :data:`MAX_NESTING` deep, and a deeper
    value handed in by a library caller is named by its type only.

    >>> deep: list[object] = []
    >>> for _ in range(100_000):
    ...     deep = [deep]
    >>> _show([[[["x"]]]]), _show(deep)
    ('[[[["x"]]]]', 'array nested too deep to show')
    """
    try:
        text = orjson.dumps(value).decode()
    except (TypeError, orjson.JSONEncodeError):  # lone surrogates, huge ints, nesting over 255
        try:
            text = json.dumps(value, ensure_ascii=True)
        except (TypeError, ValueError, RecursionError):
            return f"{_json_type(value)} nested too deep to show"
    return text if len(text) <= _MAX_SHOWN else text[: _MAX_SHOWN - 1] + "…"


_ESCAPE = re.compile(r"\\.", re.DOTALL)
_STRING = re.compile(r'"[^"]*"')  # once escapes are gone; both patterns match in linear time
_DEPTH_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
_BRACKETS_ONLY = {c: None for c in range(0x80) if c not in _DEPTH_STEP}


def _nesting(text: str) -> int:
    """Deepest nesting of ``[``/``{`` outside JSON strings in *text* (no recursion; linear time).

    >>> _nesting('{"a": [1, {"b": "[[[["}]}'), _nesting("[" * 100_000)
    (3, 100000)
    """
    brackets = _STRING.sub("", _ESCAPE.sub("", text)).translate(_BRACKETS_ONLY)
    if not brackets.isascii():  # non-ASCII outside strings: malformed anyway, keep only brackets
        brackets = "".join(c for c in brackets if ord(c) in _DEPTH_STEP)
    return max(itertools.accumulate(_DEPTH_STEP[ord(c)] for c in brackets), default=0)


def _clean(text: str) -> str:
    """Replace lone UTF-16 surrogates (from ``\\ud800`` escapes) by U+FFFD, as Go's decoder does."""
    if text.isascii():
        return text
    return _SURROGATES.sub("\ufffd", text)


def _load_object(body: bytes | bytearray | memoryview) -> _JSONObject:
    raw = bytes(body)
    if not raw.strip(_WS):
        return _JSONObject()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidArgumentError(f"request body is not valid UTF-8 (byte {exc.start})") from None
    # Fast path: a body with few brackets cannot nest deeper than the limit.
    if raw.count(b"[") + raw.count(b"{") > MAX_NESTING and _nesting(text) > MAX_NESTING:
        raise InvalidArgumentError(f"malformed JSON: nesting deeper than {MAX_NESTING} levels")
    try:
        value = _DECODER.decode(text)
    except RecursionError:  # pragma: no cover - the nesting check above comes first
        raise InvalidArgumentError("malformed JSON: nesting too deep") from None
    except ValueError as exc:  # JSONDecodeError and rejected NaN/Infinity
        raise InvalidArgumentError(f"malformed JSON: {exc}") from None
    if not isinstance(value, _JSONObject):
        raise InvalidArgumentError(f"request body must be a JSON object, got {_json_type(value)}")
    return value


# -- field validation ------------------------------------------------------------------------


def _fields(obj: _JSONObject, keys: dict[str, str], where: str = "") -> dict[str, tuple[str, Any]]:
    """Known fields of *obj* as ``{canonical: (key as spelled, value)}``; nulls dropped; duplicates 400."""
    for key in obj.duplicates:
        if key in keys:
            raise InvalidArgumentError(f'duplicate field "{where}{key}"')
    found: dict[str, tuple[str, Any]] = {}
    seen: set[str] = set()
    for key, value in obj.items():
        name = keys.get(key)
        if name is None:
            continue  # unknown fields are ignored
        if name in seen:
            raise InvalidArgumentError(f'duplicate field "{where}{key}"')
        seen.add(name)
        if value is not None:
            found[name] = (key, value)
    return found


def _bool(key: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise InvalidArgumentError(f"invalid value for bool field {key}: {_show(value)}")
    return value


def _string(key: str, value: object) -> str:
    if not isinstance(value, str):
        raise InvalidArgumentError(f"invalid value for string field {key}: {_show(value)}")
    return _clean(value)


def parse_recommendation_reason(value: object, key: str = "recommendation_reason", *,
                                text_numbers: bool = False) -> str | None:
    """A ``Reason`` given by name or proto number, as its name; ``None`` stays unset.

    In JSON a number must be a JSON number; *text_numbers* also accepts ``"0"``–``"3"`` (command line).

    >>> parse_recommendation_reason("DIRECT"), parse_recommendation_reason(2), parse_recommendation_reason(None)
    ('DIRECT', 'MOST_LIQUID', None)
    """
    if value is None:
        return None
    if isinstance(value, str):
        if value in RECOMMENDATION_REASONS:
            return value
        if text_numbers and value in ("0", "1", "2", "3"):
            return RECOMMENDATION_REASONS[int(value)]
    elif (isinstance(value, (int, float)) and not isinstance(value, bool)
          and value in range(len(RECOMMENDATION_REASONS))):
        return RECOMMENDATION_REASONS[int(value)]
    allowed = ", ".join(RECOMMENDATION_REASONS)
    raise InvalidArgumentError(f"invalid value for enum field {key}: {_show(value)} "
                               f"(allowed: {allowed}, or 0-{len(RECOMMENDATION_REASONS) - 1})")


def _group_by(key: str, value: object) -> str | None:
    text = _string(key, value)
    if text == "":
        return None
    if text not in GROUP_BY_VALUES:
        raise InvalidArgumentError(
            f"invalid value for field {key}: {_show(value)} (allowed: {', '.join(GROUP_BY_VALUES)})")
    return text


def _venues(key: str, value: object) -> list[SwapVenue]:
    if not isinstance(value, list):
        raise InvalidArgumentError(f"invalid value for repeated field {key}: {_show(value)}")
    out = []
    for i, item in enumerate(value):
        where = f"{key}[{i}]"
        if not isinstance(item, _JSONObject):
            raise InvalidArgumentError(f"invalid value for message field {where}: {_show(item)}")
        fields = _fields(item, _VENUE_KEYS, where + ".")
        for required in ("name", "chain_id"):
            if required not in fields:
                raise InvalidArgumentError(f"missing required field {where}.{required}")
        name_key, name = fields["name"]
        chain_key, chain_id = fields["chain_id"]
        logo = fields.get("logo_uri")
        out.append(SwapVenue(
            name=_string(f"{where}.{name_key}", name),
            chain_id=_string(f"{where}.{chain_key}", chain_id),
            logo_uri=_string(f"{where}.{logo[0]}", logo[1]) if logo is not None else None,
        ))
    return out


# -- the two requests ------------------------------------------------------------------------

_BETWEEN_DEFAULTS: LookupArgs = {
    "source_chain_id": "",
    "dest_chain_id": "",
    **{f.name: f.default for f in option_fields(BetweenChainsOptions)},
}
_FROM_SOURCE_DEFAULTS: LookupArgs = {
    "source_asset_denom": "",
    "source_asset_chain_id": "",
    **{f.name: f.default for f in option_fields(FromSourceOptions)},
}


def parse_between_chains(body: bytes | bytearray | memoryview) -> LookupArgs:
    """Validate an ``assets_between_chains`` request body into keyword arguments."""
    fields = _fields(_load_object(body), _BETWEEN_KEYS)
    args: dict[str, Any] = dict(_BETWEEN_DEFAULTS)
    for name, (key, value) in fields.items():
        args[name] = _bool(key, value) if BETWEEN_FIELDS[name] == "bool" else _string(key, value)
    return args


def parse_between_chains_query(items: Iterable[tuple[str, str]]) -> LookupArgs:
    """Validate the query parameters of ``GET /v2/fungible/assets_between_chains``.

    The official TypeScript SDK sends this request as GET with snake_case query parameters and
    booleans written ``true``/``false``. camelCase names are accepted too; a parameter given twice
    is a 400; booleans must be exactly ``true`` or ``false``; unknown parameters are ignored.

    >>> parse_between_chains_query([("source_chain_id", "cosmoshub-4"), ("allow_multi_tx", "true")])["allow_multi_tx"]
    True
    """
    args: dict[str, Any] = dict(_BETWEEN_DEFAULTS)
    seen: set[str] = set()
    for key, value in items:
        name = _BETWEEN_KEYS.get(key)
        if name is None:
            continue
        if name in seen:
            raise InvalidArgumentError(f'duplicate field "{key}"')
        seen.add(name)
        if BETWEEN_FIELDS[name] == "bool":
            if value not in ("true", "false"):
                raise InvalidArgumentError(f"invalid value for bool field {key}: {_show(value)}")
            args[name] = value == "true"
        else:
            args[name] = _clean(value)
    return args


def parse_from_source(body: bytes | bytearray | memoryview) -> LookupArgs:
    """Validate an ``assets_from_source`` request body into keyword arguments."""
    fields = _fields(_load_object(body), _FROM_SOURCE_KEYS)
    args: dict[str, Any] = dict(_FROM_SOURCE_DEFAULTS)
    for name, (key, value) in fields.items():
        kind = FROM_SOURCE_FIELDS[name]
        if kind == "bool":
            args[name] = _bool(key, value)
        elif kind == "string":
            args[name] = _string(key, value)
        elif kind == "reason":
            args[name] = parse_recommendation_reason(value, key)
        elif kind == "group_by":
            args[name] = _group_by(key, value)
        else:
            args[name] = _venues(key, value)
    for required in FROM_SOURCE_REQUIRED:
        if required not in fields:
            raise InvalidArgumentError(f"missing required field {required}")
    return args


def _query_fields(items: Iterable[tuple[str, str]], keys: Mapping[str, str], *,
                  aliases: Mapping[str, str] | None = None) -> tuple[tuple[str, ...] | None, dict[str, bool]]:
    """The ``chain_ids`` (repeated; ``chain_ids[]`` is read the same) and the booleans of a GET query whose
    field names are *keys* (both spellings). A boolean must be exactly ``true`` or ``false`` and given once;
    unknown parameters are ignored."""
    chain_ids: list[str] | None = None
    flags: dict[str, bool] = {}
    for key, value in items:
        name = (aliases or {}).get(key) or keys.get(key.removesuffix("[]"))
        if name is None:
            continue
        if name == "chain_ids":
            chain_ids = [] if chain_ids is None else chain_ids
            if len(chain_ids) >= MAX_CHAIN_IDS:
                raise InvalidArgumentError(f"too many chain_ids (at most {MAX_CHAIN_IDS})")
            chain_ids.append(_clean(value))
            continue
        if name in flags:
            raise InvalidArgumentError(f'duplicate field "{key}"')
        if value not in ("true", "false"):
            raise InvalidArgumentError(f"invalid value for bool field {key}: {_show(value)}")
        flags[name] = value == "true"
    return (None if chain_ids is None else tuple(dict.fromkeys(chain_ids))), flags


@dataclass(frozen=True, slots=True, kw_only=True)
class ChainsQuery:
    """The query of ``GET /v2/info/chains``, as the reference defines it.

    ``chain_ids`` (``None``: every chain) keeps only those chains; EVM and SVM chains are listed only with
    ``include_evm`` / ``include_svm``; ``only_testnets`` asks for the testnet world instead. The filters
    apply together.
    """

    chain_ids: tuple[str, ...] | None = None
    include_evm: bool = False
    include_svm: bool = False
    only_testnets: bool = False


def parse_chains_query(items: Iterable[tuple[str, str]]) -> ChainsQuery:
    """Validate the query parameters of ``GET /v2/info/chains``.

    ``chain_ids`` is repeated (``chain_ids=a&chain_ids=b``; ``chain_ids[]`` is read the same); a boolean
    must be exactly ``true`` or ``false`` and given once; camelCase names are accepted, unknown parameters
    ignored.

    >>> parse_chains_query([("chain_ids", "osmosis-1"), ("chain_ids[]", "cosmoshub-4"), ("include_evm", "true")])
    ChainsQuery(chain_ids=('osmosis-1', 'cosmoshub-4'), include_evm=True, include_svm=False, only_testnets=False)
    >>> parse_chains_query([("only_testnets", "yes")])
    Traceback (most recent call last):
    ...
    assetroute_core._exceptions.InvalidArgumentError: invalid value for bool field only_testnets: "yes"
    """
    chain_ids, flags = _query_fields(items, _CHAINS_KEYS)
    return ChainsQuery(chain_ids=chain_ids, **flags)


def parse_assets_query(items: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """Validate the query parameters of ``GET /v2/fungible/assets`` into keyword arguments.

    The same conventions as :func:`parse_chains_query`: ``chain_ids`` repeated (``chain_ids[]`` too), the
    deprecated single ``chain_id`` read as one more, booleans exactly ``true``/``false`` and given once.

    Every field is in the answer, defaults filled in, in one order (the server's cache key).

    >>> parse_assets_query([("chain_ids", "osmosis-1"), ("native_only", "true")])  # doctest: +NORMALIZE_WHITESPACE
    {'chain_ids': ('osmosis-1',), 'native_only': True, 'include_no_metadata_assets': False,
     'include_cw20_assets': False, 'include_evm_assets': False, 'include_svm_assets': False, 'only_testnets': False}
    """
    chain_ids, args = _query_fields(items, _ASSETS_KEYS, aliases={"chain_id": "chain_ids"})
    return {"chain_ids": chain_ids,
            **{name: args.get(name, False) for name, kind in ASSETS_QUERY_FIELDS.items() if kind == "bool"}}


def _batch(body: bytes | bytearray | memoryview, field: str, missing: str) -> list[dict[str, Any]]:
    """The entries of a batch body ``{field: [{...}, ...]}``. An empty body asks nothing: the reference's
    *missing* message, as for an entry that is not an object; ``{}`` or a null list is an empty batch."""
    if not bytes(body).strip(_WS):
        raise InvalidArgumentError(missing)
    entries = _load_object(body).get(field)
    if entries is None:
        return []
    if not isinstance(entries, list):
        raise InvalidArgumentError(f"invalid value for repeated field {field}: {_show(entries)}")
    if not all(isinstance(entry, dict) for entry in entries):
        raise InvalidArgumentError(missing)
    return entries


def _entry_text(entry: Mapping[str, Any], name: str, limit: int, missing: str) -> str:
    """A required text field of a batch entry (snake_case or camelCase), at most *limit* characters."""
    value = entry.get(name, entry.get(camel_case(name)))
    if not isinstance(value, str) or not value:
        raise InvalidArgumentError(missing)
    if len(value) > limit:
        raise InvalidArgumentError(f"{name} over {limit} characters", value=value[:80])
    return _clean(value)


def parse_origin_assets(body: bytes | bytearray | memoryview) -> list[tuple[str, str]]:
    """Validate a ``POST /v2/fungible/ibc_origin_assets`` body: ``{"assets": [{"denom", "chain_id"}]}``.

    >>> parse_origin_assets(b'{"assets": [{"denom": "uatom", "chainId": "cosmoshub-4"}]}')
    [('uatom', 'cosmoshub-4')]
    >>> parse_origin_assets(b'{"assets": [{"denom": "uatom"}]}')
    Traceback (most recent call last):
    ...
    assetroute_core._exceptions.InvalidArgumentError: Must supply denom and chain_id
    """
    missing = "Must supply denom and chain_id"
    return [(_entry_text(e, "denom", MAX_ORIGIN_DENOM, missing),
             _entry_text(e, "chain_id", MAX_ORIGIN_CHAIN_ID, missing)) for e in _batch(body, "assets", missing)]


def parse_recommend_assets(body: bytes | bytearray | memoryview) -> list[RecommendRequest]:
    """Validate a ``POST /v2/fungible/recommend_assets`` body: ``{"requests": [{"source_asset_denom",
    "source_asset_chain_id", "dest_chain_id", "reason"?}]}`` (snake_case or camelCase keys).

    >>> body = b'{"requests": [{"sourceAssetDenom": "uatom", "source_asset_chain_id": "hub", "destChainId": "x"}]}'
    >>> [(r.source_asset_denom, r.dest_chain_id) for r in parse_recommend_assets(body)]
    [('uatom', 'x')]
    """
    missing = "Must supply source_asset"
    out = []
    for e in _batch(body, "requests", missing):
        denom = _entry_text(e, "source_asset_denom", MAX_ORIGIN_DENOM, missing)
        chain = _entry_text(e, "source_asset_chain_id", MAX_ORIGIN_CHAIN_ID, missing)
        dest = _entry_text(e, "dest_chain_id", MAX_ORIGIN_CHAIN_ID, "Must supply dest_chain_id")
        raw = e.get("reason")
        reason = None if raw is None else parse_recommendation_reason(raw, "reason")
        out.append(RecommendRequest(denom, chain, dest, reason))  # type: ignore[arg-type]
    return out
