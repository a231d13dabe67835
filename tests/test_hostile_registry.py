"""A hostile registry: no damaged registry can break assetroute, lose data or leak markup.

The registry is third-party data. Every kind of damage below is one parametrized case (its id
and a one-line description): a small, clean seven-chain registry is written to a temporary
directory, the case damages it, and the test proves that

* the load finishes, quickly (and, for the whole corpus at once, in a separate process with a
  hard timeout, so that even a hang in C code would be caught);
* the problem is in the data-quality report, naming the damaged file;
* everything valid beside the damage is intact: the same chains, the same listed assets except
  the ones the case names, the same provenance counts except the ones it explains, and the same
  answers of both lookups wherever the damaged data plays no part;
* every answer still encodes to JSON (no lone surrogates or other unencodable text reach the API).

The corpus is generated at test time rather than committed: the clean base is a few dozen lines,
every damage is a visible one-liner next to its description, the 1 MB strings would bloat the
repository, and byte-level damage (BOM, UTF-16, NUL, truncation) is exact in Python literals.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import pytest

import assetroute_core as ar
from assetroute_core import _data, _files, _loader, _values
from assetroute_core._ibc import split_path

REPO = Path(__file__).resolve().parents[1]
LOAD_BOUND_S = 5.0  # one tiny registry loads in milliseconds; this only catches a runaway

LIMIT_MODULES = (_loader, _files, _values, _data)  # where the loader's caps live (a case may lower one)


def limit_module(name: str) -> Any:
    """The module that defines the cap *name*."""
    return next(m for m in LIMIT_MODULES if hasattr(m, name))

# -- the clean base ---------------------------------------------------------------------------

USDC = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"
CW20 = "cw20:alpha1tokencontract"
ICS20_PORT = "wasm.alpha1cw20ics20"


def _chain(name: str, chain_id: str, *, chain_type: str = "cosmos", status: str = "live") -> dict[str, Any]:
    return {"chain_name": name, "chain_id": chain_id, "chain_type": chain_type, "status": status,
            "pretty_name": name.title(), "bech32_prefix": name[:4],
            "logo_URIs": {"png": f"https://example.org/{name}.png"}}


def _asset(base: str, symbol: str, *, type_asset: str = "sdk.coin", **extra: Any) -> dict[str, Any]:
    return {"base": base, "display": symbol.lower(), "symbol": symbol, "name": f"{symbol} token",
            "type_asset": type_asset, "description": f"The {symbol} token.",
            "denom_units": [{"denom": base, "exponent": 0}, {"denom": symbol.lower(), "exponent": 6}],
            "logo_URIs": {"png": f"https://example.org/{symbol.lower()}.png"}, **extra}


def _voucher(symbol: str, path: str, cp_chain: str, cp_denom: str, *, trace_type: str = "ibc",
             cp_port: str | None = None, **extra: Any) -> dict[str, Any]:
    pairs, tail = split_path(path)
    counterparty = {"chain_name": cp_chain, "base_denom": cp_denom, "channel_id": "channel-0"}
    if cp_port is not None:  # an ibc-cw20 trace names the CW20-ICS20 port its token leaves by (SPEC §2)
        counterparty["port"] = cp_port
    trace = {"type": trace_type,
             "counterparty": counterparty,
             "chain": {"channel_id": pairs[1] if pairs else "", "path": path}}
    return _asset(ar.ibc_denom("/".join(pairs), tail), symbol, type_asset="ics20", traces=[trace], **extra)


def _channel(a: str, b: str, *, port_a: str = "transfer", port_b: str = "transfer", **tags: Any) -> dict[str, Any]:
    return {"chain_1": {"channel_id": a, "port_id": port_a}, "chain_2": {"channel_id": b, "port_id": port_b},
            "ordering": "unordered", "version": "ics20-1", "tags": tags}


def _ibc(a: str, b: str, *channels: dict[str, Any]) -> dict[str, Any]:
    return {"chain_1": {"chain_name": a, "client_id": "07-tendermint-0"},
            "chain_2": {"chain_name": b, "client_id": "07-tendermint-0"}, "channels": list(channels)}


def _assetlist(chain: str, *assets: dict[str, Any]) -> dict[str, Any]:
    return {"chain_name": chain, "assets": list(assets)}


def clean_base() -> dict[str, Any]:
    """rel path -> content (JSON value, or ``bytes`` written as they are) of the clean registry.

    alpha is the hub (channels to every cosmos chain, a CW20 token over a CW20-ICS20 port, two
    channels to beta); beta and gamma hold one- and two-hop ALPHA vouchers; axelar bridges
    Ethereum USDC (Axelar) and noble mints Circle USDC (CCTP); delta is a leaf that file-level
    damage can take away.
    """
    return {
        "alpha/chain.json": _chain("alpha", "alpha-1"),
        "alpha/assetlist.json": _assetlist(
            "alpha",
            _asset("ualpha", "ALPHA", coingecko_id="alpha"),
            _asset(CW20, "CWT", type_asset="cw20", address="alpha1tokencontract"),
            _voucher("BETA", "transfer/channel-0/ubeta", "beta", "ubeta"),
        ),
        "beta/chain.json": _chain("beta", "beta-1"),
        "beta/assetlist.json": _assetlist(
            "beta",
            _asset("ubeta", "BETA"),
            _voucher("ALPHA", "transfer/channel-7/ualpha", "alpha", "ualpha"),
            _voucher("CWT", f"transfer/channel-11/{CW20}", "alpha", CW20, trace_type="ibc-cw20", cp_port=ICS20_PORT),
        ),
        "gamma/chain.json": _chain("gamma", "gamma-1"),
        "gamma/assetlist.json": _assetlist(
            "gamma",
            _asset("ugamma", "GAMMA"),
            _voucher("ALPHA", "transfer/channel-5/transfer/channel-7/ualpha", "beta",
                     ar.ibc_denom("transfer/channel-7", "ualpha")),
        ),
        "delta/chain.json": _chain("delta", "delta-1"),
        "delta/assetlist.json": _assetlist("delta", _asset("udelta", "DELTA")),
        "axelar/chain.json": _chain("axelar", "axelar-dojo-1"),
        "axelar/assetlist.json": _assetlist(
            "axelar",
            _asset("uaxl", "AXL"),
            _asset("uusdc", "axlUSDC", traces=[{"type": "bridge", "provider": "Axelar",
                                                "counterparty": {"chain_name": "ethereum", "base_denom": USDC},
                                                "chain": {"contract": "axelar1usdc"}}]),
        ),
        "noble/chain.json": _chain("noble", "noble-1"),
        "noble/assetlist.json": _assetlist(
            "noble",
            _asset("uusdc", "USDC", traces=[{"type": "additional-mintage", "provider": "Circle",
                                             "counterparty": {"chain_name": "ethereum", "base_denom": USDC}}]),
        ),
        "_non-cosmos/ethereum/chain.json": _chain("ethereum", "1", chain_type="eip155"),
        "_non-cosmos/ethereum/assetlist.json": _assetlist(
            "ethereum", _asset(USDC, "USDC", type_asset="erc20", address=USDC), _asset("wei", "ETH",
                                                                                        type_asset="evm-base")),
        "_IBC/alpha-axelar.json": _ibc("alpha", "axelar", _channel("channel-13", "channel-12", status="ACTIVE",
                                                                   preferred=True)),
        "_IBC/alpha-beta.json": _ibc(
            "alpha", "beta",
            _channel("channel-0", "channel-7", status="ACTIVE", preferred=True),
            _channel("channel-1", "channel-8"),
            _channel("channel-10", "channel-11", port_a=ICS20_PORT, status="ACTIVE"),
        ),
        "_IBC/alpha-delta.json": _ibc("alpha", "delta", _channel("channel-6", "channel-9")),
        "_IBC/alpha-gamma.json": _ibc("alpha", "gamma", _channel("channel-2", "channel-3", status="ACTIVE",
                                                                 preferred=True)),
        "_IBC/alpha-noble.json": _ibc("alpha", "noble", _channel("channel-15", "channel-14", status="ACTIVE")),
        "_IBC/beta-gamma.json": _ibc("beta", "gamma", _channel("channel-4", "channel-5", status="ACTIVE")),
    }


def write_registry(root: Path, files: dict[str, Any]) -> Path:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            # ensure_ascii: lone surrogates become \\ud800 escapes, exactly as a hostile file would carry them
            path.write_text(json.dumps(content, ensure_ascii=True), encoding="ascii")
    return root


# -- the kinds of damage ----------------------------------------------------------------------

MB = 1 << 20
MARKUP = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=1">'
JS_URL = "javascript:window.__pwned=1//.png"


@dataclass(frozen=True)
class Damage:
    """One kind of damage: what it does to the clean base and what the load must make of it."""

    id: str
    description: str
    apply: Callable[[dict[str, Any]], None]
    file: str  # the file the report must name
    problem: str  # a substring of the reported problem
    gone: frozenset[tuple[str, str]] = frozenset()  # listed (chain, denom) that must disappear
    changed: frozenset[tuple[str, str]] = frozenset()  # listed ones kept, but repaired
    added: frozenset[tuple[str, str]] = frozenset()  # listed ones the damage brings (kept)
    touched: frozenset[str] = frozenset()  # chains whose facts the damage changes (or adds)
    counts: dict[str, int] = field(default_factory=dict)  # expected provenance count changes
    action: str = ""  # a substring of the reported action, when it matters
    limits: dict[str, int] = field(default_factory=dict)  # loader limits lowered for the case


def _k(*keys: tuple[str, str]) -> frozenset[tuple[str, str]]:
    return frozenset(keys)


def _add_asset(rel: str, *assets: dict[str, Any]) -> Callable[[dict[str, Any]], None]:
    def apply(files: dict[str, Any]) -> None:
        files[rel]["assets"].extend(assets)
    return apply


def _set(rel: str, **values: Any) -> Callable[[dict[str, Any]], None]:
    def apply(files: dict[str, Any]) -> None:
        files[rel].update(values)
    return apply


def _drop(rel: str, key: str) -> Callable[[dict[str, Any]], None]:
    def apply(files: dict[str, Any]) -> None:
        del files[rel][key]
    return apply


def _put(rel: str, content: Any) -> Callable[[dict[str, Any]], None]:
    def apply(files: dict[str, Any]) -> None:
        files[rel] = content
    return apply


def _raw(rel: str, edit: Callable[[bytes], bytes]) -> Callable[[dict[str, Any]], None]:
    """Damage the bytes of a file of the clean base."""
    def apply(files: dict[str, Any]) -> None:
        files[rel] = edit(json.dumps(files[rel], ensure_ascii=True).encode())
    return apply


def _add_channel(rel: str, channel: dict[str, Any]) -> Callable[[dict[str, Any]], None]:
    def apply(files: dict[str, Any]) -> None:
        files[rel]["channels"].append(channel)
    return apply


def _both(*steps: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    def apply(files: dict[str, Any]) -> None:
        for step in steps:
            step(files)
    return apply


def _preferred_string(files: dict[str, Any]) -> None:
    # If the loader took the string for True, channel-1 would become canonical and answers would change.
    files["_IBC/alpha-beta.json"]["channels"][1]["tags"] = {"preferred": "true", "status": "ACTIVE"}


def _bridge_trace(chain: str, denom: str) -> list[dict[str, Any]]:
    return [{"type": "bridge", "provider": "Axelar", "counterparty": {"chain_name": chain, "base_denom": denom}}]


def _nested(depth: int) -> Any:
    value: Any = "x"
    for _ in range(depth):
        value = [value]
    return value


GAMMA = "gamma/assetlist.json"
DELTA_CHAIN, DELTA_LIST = "delta/chain.json", "delta/assetlist.json"
DELTA_ASSETS = _k(("delta", "udelta"))
LOSE_DELTA_CHANNEL = {"channels": -1, "usable_transfer_channels": -1}
LOSE_DELTA_ROUTING = {"routable_chains": -1, "usable_transfer_channels": -1}
ONE_HOP_GAMMA = "transfer/channel-3/uzzz"  # gamma's end of the alpha-gamma channel
CYCLE = "transfer/channel-1/transfer/channel-7/"  # alpha -> beta -> alpha over two different channels
BAD_HASH = "ibc/" + "0" * 64


def _cases() -> list[Damage]:
    d = Damage
    voucher_on_gamma = _voucher("ZZZ", ONE_HOP_GAMMA, "alpha", "uzzz")
    return [
        # -- whole files --------------------------------------------------------------------
        d("invalid-json", "a file that is not JSON (an unquoted key)",
          _put(DELTA_LIST, b'{"chain_name": "delta", assets: []}'), DELTA_LIST, "invalid JSON", gone=DELTA_ASSETS,
          counts={"listed_assets": -1}),
        d("truncated-file", "an _IBC file cut off in the middle",
          _raw("_IBC/alpha-delta.json", lambda b: b[: len(b) // 2]), "_IBC/alpha-delta.json", "invalid JSON",
          touched=frozenset({"delta"}), counts=LOSE_DELTA_CHANNEL),
        d("empty-file", "a zero-byte chain.json", _put(DELTA_CHAIN, b""), DELTA_CHAIN, "empty file",
          touched=frozenset({"delta"}),
          counts={"chains": -1, "routable_chains": -1, "cosmos_chains": -1, "channels": -1,
                  "usable_transfer_channels": -1}),
        d("whitespace-file", "an assetlist of blank lines", _put(DELTA_LIST, b"\n \t\r\n"), DELTA_LIST,
          "empty file", gone=DELTA_ASSETS, counts={"listed_assets": -1}),
        d("not-an-object", "an assetlist whose top level is a list", _put(DELTA_LIST, [1, "two", None]), DELTA_LIST,
          "no assets list", gone=DELTA_ASSETS, counts={"listed_assets": -1}),
        d("utf8-bom", "a chain.json that starts with a UTF-8 byte-order mark",
          _raw(DELTA_CHAIN, lambda b: b"\xef\xbb\xbf" + b), DELTA_CHAIN, "byte-order mark"),
        d("utf16-file", "an assetlist encoded as UTF-16 (with BOM) instead of UTF-8",
          _raw(DELTA_LIST, lambda b: b.decode().encode("utf-16")), DELTA_LIST, "UTF-16"),
        d("invalid-utf8", "a Latin-1 byte inside an otherwise valid assetlist",
          _raw(GAMMA, lambda b: b.replace(b"The GAMMA token.", b"The GAMMA token, caf\xe9.")), GAMMA,
          "invalid UTF-8", changed=_k(("gamma", "ugamma")), action="U+FFFD"),
        d("deep-nesting", "an assetlist nested 100 000 levels deep (recursion bomb)",
          _put(DELTA_LIST, b'{"chain_name": "delta", "assets": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"),
          DELTA_LIST, "nested too deeply", gone=DELTA_ASSETS, counts={"listed_assets": -1}),
        d("nested-values", "400-deep lists where chain_name, status, display and a trace's type are expected",
          _both(_set(DELTA_CHAIN, chain_name=_nested(400)),
                _add_asset(GAMMA, _asset("unest", "NEST", display=_nested(400),
                                         traces=[{"type": _nested(400)}]))),
          DELTA_CHAIN, "chain_name <list> differs from its folder", added=_k(("gamma", "unest")),
          counts={"listed_assets": 1}),
        d("huge-number", "a chain_id that is a 5 000-digit JSON number (int() would raise)",
          _raw(DELTA_CHAIN, lambda b: b.replace(b'"delta-1"', b"9" * 5000)), DELTA_CHAIN, "5000 digits",
          touched=frozenset({"delta"}), counts=LOSE_DELTA_ROUTING),
        d("file-too-large", "an assetlist over the loader's file-size limit (lowered for the test)",
          _add_asset(DELTA_LIST, *[_asset(f"upad{i}", f"PAD{i}") for i in range(20)]), DELTA_LIST,
          "bytes (limit", gone=DELTA_ASSETS, counts={"listed_assets": -1, "files": -1},
          limits={"MAX_FILE_BYTES": 4000}),
        d("duplicate-keys", "an asset object with the key 'base' twice",
          _raw(GAMMA, lambda b: b.replace(b'"assets": [', b'"assets": [{"base": "udup1", "base": "udup2", '
                                                        b'"symbol": "DUP", "type_asset": "sdk.coin"}, ')),
          GAMMA, "duplicate key(s) 'base'", added=_k(("gamma", "udup2")), counts={"listed_assets": 1}),
        # -- wrong types ----------------------------------------------------------------------
        d("assets-string", "'assets' is a string, not a list", _set(DELTA_LIST, assets="udelta"), DELTA_LIST,
          "no assets list", gone=DELTA_ASSETS, counts={"listed_assets": -1}),
        d("channels-object", "'channels' is an object, not a list",
          _set("_IBC/alpha-delta.json", channels={"0": _channel("channel-6", "channel-9")}),
          "_IBC/alpha-delta.json", "channels is an object", touched=frozenset({"delta"}), counts=LOSE_DELTA_CHANNEL),
        d("chain-id-number", "chain_id is a JSON number", _set(DELTA_CHAIN, chain_id=12345), DELTA_CHAIN,
          "chain_id is a number", touched=frozenset({"delta"})),
        d("chain-id-list", "chain_id is a list", _set(DELTA_CHAIN, chain_id=["delta-1"]), DELTA_CHAIN,
          "invalid chain_id <list>", touched=frozenset({"delta"}), counts=LOSE_DELTA_ROUTING),
        d("chain-id-whitespace", "chain_id with surrounding whitespace",
          _set(DELTA_CHAIN, chain_id=" delta-1\n"), DELTA_CHAIN, "surrounding whitespace"),
        d("chain-type-missing", "a chain.json without chain_type", _drop(DELTA_CHAIN, "chain_type"), DELTA_CHAIN,
          "chain_type is missing", touched=frozenset({"delta"}),
          counts={"routable_chains": -1, "cosmos_chains": -1, "usable_transfer_channels": -1}),
        d("status-unknown", "a chain status that is not live/killed/upcoming", _set(DELTA_CHAIN, status=["live"]),
          DELTA_CHAIN, "unknown status <list>", touched=frozenset({"delta"}), counts=LOSE_DELTA_ROUTING),
        d("denom-units-string", "denom_units is a string", _add_asset(GAMMA, _asset("uunits", "UNITS",
                                                                                   denom_units="uunits")),
          GAMMA, "denom_units is a string", added=_k(("gamma", "uunits")), counts={"listed_assets": 1}),
        d("exponent-string", "the display unit's exponent is a string",
          _add_asset(GAMMA, _asset("uexp", "EXP", denom_units=[{"denom": "exp", "exponent": "6"}])), GAMMA,
          "display unit has exponent '6'", added=_k(("gamma", "uexp")), counts={"listed_assets": 1}),
        d("traces-dict", "traces is an object, not a list",
          _add_asset(GAMMA, {**voucher_on_gamma, "traces": voucher_on_gamma["traces"][0]}), GAMMA,
          "traces that are not a list"),
        d("trace-not-object", "a trace list whose last entry is a string",
          _add_asset(GAMMA, {**voucher_on_gamma, "traces": [*voucher_on_gamma["traces"], "ibc"]}), GAMMA,
          "last trace is a string"),
        d("trace-chain-list", "a trace whose 'chain' is a list",
          _add_asset(GAMMA, {**voucher_on_gamma, "traces": [{**voucher_on_gamma["traces"][0],
                                                             "chain": [ONE_HOP_GAMMA]}]}), GAMMA,
          "ibc trace without a path"),
        d("trace-denom-number", "a trace whose counterparty base_denom is a number",
          _add_asset(GAMMA, _voucher("ZZZ", ONE_HOP_GAMMA, "alpha", 7)), GAMMA,  # type: ignore[arg-type]
          "counterparty.base_denom is a number", added=_k(("gamma", voucher_on_gamma["base"])),
          counts={"listed_assets": 1}),
        d("preferred-string", "tags.preferred is the string 'true' on the non-canonical channel",
          _preferred_string, "_IBC/alpha-beta.json", "tags.preferred is a string"),
        d("tags-status-unknown", "tags.status is not ACTIVE/INACTIVE/CLOSED/PENDING",
          _add_channel("_IBC/alpha-gamma.json", _channel("channel-20", "channel-21", status="BROKEN")),
          "_IBC/alpha-gamma.json", "tags.status 'BROKEN'", counts={"channels": 1}),
        d("numbers-for-strings", "symbol, name and description are numbers",
          _add_asset(GAMMA, {**_asset("unum", "NUM"), "symbol": 42, "name": 7, "description": 3.5}), GAMMA,
          "symbol is a number", added=_k(("gamma", "unum")), counts={"listed_assets": 1}),
        d("base-number", "a base denom that is a number", _add_asset(GAMMA, _asset(12345, "NUMB")),  # type: ignore[arg-type]
          GAMMA, "base is a number", added=_k(("gamma", "12345")), counts={"listed_assets": 1}),
        # -- missing required keys ------------------------------------------------------------
        d("no-chain-name", "a chain.json without chain_name", _drop(DELTA_CHAIN, "chain_name"), DELTA_CHAIN,
          "chain_name None differs from its folder"),
        d("no-base", "an asset without base", _add_asset(GAMMA, {"symbol": "NOBASE", "type_asset": "sdk.coin"}),
          GAMMA, "has no valid base denom"),
        d("no-symbol", "an asset without symbol", _add_asset(GAMMA, {"base": "unosym", "type_asset": "sdk.coin"}),
          GAMMA, "'unosym' has no symbol"),
        d("no-channels", "an _IBC file without channels", _drop("_IBC/alpha-delta.json", "channels"),
          "_IBC/alpha-delta.json", "channels is missing", touched=frozenset({"delta"}), counts=LOSE_DELTA_CHANNEL),
        d("no-chain-1", "an _IBC file without chain_1", _drop("_IBC/alpha-delta.json", "chain_1"),
          "_IBC/alpha-delta.json", "chain_1 has no chain_name", touched=frozenset({"delta"}),
          counts=LOSE_DELTA_CHANNEL),
        # -- duplicates -----------------------------------------------------------------------
        d("duplicate-chain-id", "a killed chain that reuses a live chain's chain_id",
          _put("delta1/chain.json", _chain("delta1", "delta-1", status="killed")), "delta1/chain.json",
          "chain_id 'delta-1' is shared by 'delta' and 'delta1'", touched=frozenset({"delta1"}),
          counts={"chains": 1, "cosmos_chains": 1, "files": 1}, action="'delta' (live) owns it"),
        d("duplicate-denom", "the same base listed twice in one assetlist",
          _add_asset(GAMMA, _asset("ugamma", "FAKEGAMMA")), GAMMA, "'ugamma' is listed twice"),
        d("duplicate-folder", "the same chain folder at the top level and in _non-cosmos",
          _both(_put("_non-cosmos/delta/chain.json", _chain("delta", "delta-2")),
                _put("_non-cosmos/delta/assetlist.json", _assetlist("delta", _asset("udelta", "EVIL")))),
          "_non-cosmos/delta", "chain folder 'delta' exists twice"),
        d("duplicate-channel-end", "a second _IBC file claiming alpha's channel-0 for another channel",
          _put("_IBC/alpha-gamma-2.json", _ibc("alpha", "gamma", _channel("channel-0", "channel-30",
                                                                            status="ACTIVE", preferred=True))),
          "_IBC/alpha-gamma-2.json", "channel channel-0 of 'alpha' is listed twice", counts={"files": 1}),
        d("stray-ibc-file-first", "a stray _IBC file, sorting before alpha-beta.json, claiming alpha's channel-0",
          _put("_IBC/alpha-beta-0.json", _ibc("alpha", "beta", _channel("channel-0", "channel-99", status="ACTIVE",
                                                                          preferred=True))),
          "_IBC/alpha-beta-0.json", "file name does not match its chains (expected 'alpha-beta.json')",
          counts={"files": 1}),
        # -- channels -------------------------------------------------------------------------
        d("unknown-chain", "an _IBC file to a chain that does not exist",
          _put("_IBC/alpha-zeta.json", _ibc("alpha", "zeta", _channel("channel-40", "channel-41"))),
          "_IBC/alpha-zeta.json", "names unknown chain 'zeta'", counts={"files": 1}),
        d("same-chain-both-sides", "an _IBC file naming alpha on both sides",
          _put("_IBC/alpha-alpha.json", _ibc("alpha", "alpha", _channel("channel-42", "channel-43"))),
          "_IBC/alpha-alpha.json", "both sides are chain 'alpha'", counts={"files": 1}),
        d("wildcard-channel", "a channel id '*' on a wasm.* port",
          _add_channel("_IBC/alpha-gamma.json", _channel("*", "*", port_a="wasm.*")), "_IBC/alpha-gamma.json",
          "wildcard or malformed channel id '*'"),
        d("channel-no-number", "a channel id 'channel-' without a number",
          _add_channel("_IBC/alpha-gamma.json", _channel("channel-", "channel-44")), "_IBC/alpha-gamma.json",
          "malformed channel id 'channel-'"),
        d("channel-not-number", "a channel id 'channel-abc'",
          _add_channel("_IBC/alpha-gamma.json", _channel("channel-45", "channel-abc")), "_IBC/alpha-gamma.json",
          "malformed channel id 'channel-45'/'channel-abc'"),
        d("channel-huge-number", "a channel number of 5 000 digits (int() would raise) and one over uint64",
          _both(_add_channel("_IBC/alpha-gamma.json", _channel("channel-" + "9" * 5000, "channel-46")),
                _add_channel("_IBC/alpha-gamma.json", _channel("channel-18446744073709551616", "channel-47"))),
          "_IBC/alpha-gamma.json", "malformed channel id 'channel-99999"),
        d("channel-lookalike", "channel ids with Arabic-Indic digits, a trailing newline, a leading zero",
          _both(_add_channel("_IBC/alpha-gamma.json", _channel("channel-\u0661\u0662", "channel-48")),
                _add_channel("_IBC/alpha-gamma.json", _channel("channel-49\n", "channel-50")),
                _add_channel("_IBC/alpha-gamma.json", _channel("channel-051", "channel-52"))),
          "_IBC/alpha-gamma.json", "malformed channel id 'channel-\u0661\u0662'"),
        d("channel-id-number", "a channel id that is a number",
          _add_channel("_IBC/alpha-gamma.json", _channel(53, "channel-54")),  # type: ignore[arg-type]
          "_IBC/alpha-gamma.json", "malformed channel id 53/"),
        # -- traces ---------------------------------------------------------------------------
        d("hash-mismatch", "an ibc/ denom that does not hash from its path",
          _add_asset(GAMMA, {**voucher_on_gamma, "base": BAD_HASH}), GAMMA, "does not hash from its path"),
        d("path-returns", "a path that leaves beta over the channel it arrived on (A -> B -> A, impossible)",
          _add_asset("alpha/assetlist.json", _voucher("BOUNCE", "transfer/channel-0/transfer/channel-7/ubeta",
                                                      "beta", "ubeta")),
          "alpha/assetlist.json", "over the channel it arrived on"),
        d("path-cycle", "a voucher whose path walks a cycle alpha -> beta -> alpha (two different channels)",
          _add_asset("alpha/assetlist.json", _voucher("LOOP", CYCLE + "ualpha", "beta", "x")),
          "alpha/assetlist.json", "path walks a cycle (alpha → beta → alpha)",
          added=_k(("alpha", ar.ibc_denom(CYCLE[:-1], "ualpha"))), counts={"listed_assets": 1}),
        d("path-dozens-of-hops", "a voucher path of 40 hops, cycling alpha/beta",
          _add_asset("alpha/assetlist.json", _voucher("LONG", CYCLE * 20 + "ualpha", "beta", "x")),
          "alpha/assetlist.json", "path has 40 hops",
          added=_k(("alpha", ar.ibc_denom((CYCLE * 20)[:-1], "ualpha"))), counts={"listed_assets": 1}),
        d("origin-unknown", "a voucher over a channel missing from _IBC whose counterparty chain does not exist",
          _add_asset(GAMMA, _voucher("GHOST", "transfer/channel-77/ughost", "nowhere", "ughost")), GAMMA,
          "origin chain 'nowhere' is not in the registry", action="kept",
          added=_k(("gamma", ar.ibc_denom("transfer/channel-77", "ughost"))), counts={"listed_assets": 1}),
        d("origin-not-a-name", "the same, but the counterparty 'chain' is markup (it would become origin_chain_id)",
          _add_asset(GAMMA, _voucher("GHOST", "transfer/channel-77/ughost", MARKUP, "ughost")), GAMMA,
          "is not a chain name", action="asset skipped"),
        d("bridge-no-counterparty", "a bridge trace without a counterparty",
          _add_asset(GAMMA, _asset("ubridged", "BRG", traces=[{"type": "bridge", "provider": "Axelar"}])), GAMMA,
          "bridge trace without a counterparty", added=_k(("gamma", "ubridged")), counts={"listed_assets": 1}),
        d("trace-self-reference", "a bridge trace whose counterparty is the asset itself",
          _add_asset(GAMMA, _asset("uself", "SELF", traces=_bridge_trace("gamma", "uself"))), GAMMA,
          "names the asset itself", added=_k(("gamma", "uself")), counts={"listed_assets": 1}),
        d("trace-cycle", "two assets whose bridge traces name each other (beta BR2 <-> gamma BR1)",
          _both(_add_asset(GAMMA, _asset("ubr1", "BR1", traces=_bridge_trace("beta", "ubr2"))),
                _add_asset("beta/assetlist.json", _asset("ubr2", "BR2", traces=_bridge_trace("gamma", "ubr1")))),
          "beta/assetlist.json", "traces form a cycle (beta:ubr2 → gamma:ubr1 → beta:ubr2)",
          added=_k(("gamma", "ubr1"), ("beta", "ubr2")), counts={"listed_assets": 2, "bridge_links": 2}),
        # -- text -----------------------------------------------------------------------------
        d("markup-everywhere", "<script>, onerror= and javascript: URLs in every text field of a chain and assets",
          _both(_put("mallory/chain.json", {**_chain("mallory", "mallory-1"), "pretty_name": MARKUP,
                                             "logo_URIs": {"png": JS_URL}}),
                _put("mallory/assetlist.json", _assetlist(
                    "mallory",
                    {**_asset("umal", "MAL"), "symbol": MARKUP, "name": MARKUP, "description": MARKUP,
                     "logo_URIs": {"png": JS_URL, "svg": "data:text/html,<script>1</script>"},
                     "coingecko_id": MARKUP},
                    {**_asset("umal2", "MAL2"), "logo_URIs": {}, "images": [{"png": "JaVaScRiPt:alert(1)"},
                                                                            {"svg": 'https://x/"><script>1</script>'}]})),
                _put("_IBC/alpha-mallory.json", _ibc("alpha", "mallory", _channel("channel-60", "channel-61")))),
          "mallory/assetlist.json", "symbol contains markup", touched=frozenset({"mallory"}),
          added=_k(("mallory", "umal"), ("mallory", "umal2")),
          counts={"files": 3, "chains": 1, "routable_chains": 1, "cosmos_chains": 1, "channels": 1,
                  "usable_transfer_channels": 1, "listed_assets": 2}, action="kept verbatim"),
        d("huge-strings", "1 MB symbol, name, description and logo URI",
          _add_asset(GAMMA, {**_asset("uhuge", "HUGE"), "symbol": "S" * MB, "name": "N" * MB,
                             "description": "D" * MB, "logo_URIs": {"png": "https://x/" + "L" * MB}}), GAMMA,
          "symbol is 1048576 characters long", added=_k(("gamma", "uhuge")), counts={"listed_assets": 1},
          action="cut to 4096 characters"),
        d("huge-denom", "a 1 MB base denom", _add_asset(GAMMA, _asset("u" * MB, "BIG")), GAMMA,
          "has no valid base denom"),
        d("huge-chain-name", "an _IBC file naming a 1 MB chain",
          _put("_IBC/alpha-zzz.json", _ibc("alpha", "z" * MB, _channel("channel-62", "channel-63"))),
          "_IBC/alpha-zzz.json", "names unknown chain 'zzz", counts={"files": 1}),
        d("nul-escaped", "NUL and other control characters as \\u escapes in symbol and description",
          _add_asset(GAMMA, {**_asset("unul", "NUL"), "symbol": "NU\x00L\x1b[31m", "description": "a\x00b"}),
          GAMMA, "symbol contains control characters", added=_k(("gamma", "unul")), counts={"listed_assets": 1},
          action="control characters removed"),
        d("nul-raw", "raw NUL bytes inside a JSON string (and one in a base denom)",
          _raw(GAMMA, lambda b: b.replace(b"The GAMMA token.", b"The GAMMA\x00 token.").replace(
              b'"assets": [', b'"assets": [{"base": "u\x00nul", "symbol": "RAW", "type_asset": "sdk.coin"}, ')),
          GAMMA, "description contains control characters", changed=_k(("gamma", "ugamma"))),
        d("lone-surrogates", "lone UTF-16 surrogates (\\ud800, \\udfff) escaped in symbol, name and a base",
          _add_asset(GAMMA, {**_asset("usur\udfff", "SUR"), "symbol": "\ud800", "name": "x\udc00y"}), GAMMA,
          "lone UTF-16 surrogate", added=_k(("gamma", "usur\ufffd")), counts={"listed_assets": 1}),
        d("rtl-override", "a right-to-left override inside a symbol (spoofing 'USDC')",
          _add_asset(GAMMA, _asset("urtl", "CDSU\u202e")), GAMMA, "invisible or bidirectional",
          added=_k(("gamma", "urtl")), counts={"listed_assets": 1}),
        d("zero-width", "zero-width characters in a symbol and a base denom",
          _add_asset(GAMMA, _asset("uat\u200bom", "AT\u200bOM")), GAMMA, "invisible or bidirectional",
          added=_k(("gamma", "uat\u200bom")), counts={"listed_assets": 1}),
        d("nfc-nfd-twins", "two base denoms that differ only in Unicode normalization (and emoji symbols)",
          _add_asset(GAMMA, _asset("ucaf\u00e9", "\U0001f680CAF\u00c9"), _asset("ucafe\u0301", "\U0001f680CAFE\u0301")),
          GAMMA, "differ only in Unicode normalization",
          added=_k(("gamma", "ucaf\u00e9"), ("gamma", "ucafe\u0301")), counts={"listed_assets": 2}),
        # -- chain folders --------------------------------------------------------------------
        d("chain-name-differs", "a chain folder whose chain.json names another chain",
          _set(DELTA_CHAIN, chain_name="alpha"), DELTA_CHAIN, "chain_name 'alpha' differs from its folder 'delta'"),
        d("assetlist-name-differs", "an assetlist naming another chain",
          _set(DELTA_LIST, chain_name="gamma"), DELTA_LIST, "chain_name 'gamma' differs from its folder 'delta'"),
    ]


CASES = _cases()


# -- loading and comparing --------------------------------------------------------------------

BETWEEN_FLAGS: tuple[dict[str, bool], ...] = (
    {},
    {"include_no_metadata_assets": True, "include_cw20_assets": True, "include_evm_assets": True,
     "allow_multi_tx": True},
)
FROM_SOURCE_OPTIONS: tuple[dict[str, Any], ...] = (
    {},
    {"allow_multi_tx": True, "include_cw20_assets": True},
    {"allow_multi_tx": True, "include_cw20_assets": True, "recommendation_reason": "DIRECT"},
)


def load_bounded(root: Path) -> tuple[ar.Registry, float]:
    started = time.perf_counter()
    reg = ar.load_registry(root)
    return reg, time.perf_counter() - started


@dataclass(frozen=True)
class Exclusion:
    """What a comparison leaves out: the damaged part and everything that depends on it."""

    chains: frozenset[str]  # chain names
    chain_ids: frozenset[str]
    keys: frozenset[tuple[str, str]]  # listed (chain, denom)

    def asset(self, a: ar.Asset) -> bool:
        return (a.chain_name in self.chains or a.origin_chain_name in self.chains
                or (a.chain_name, a.denom) in self.keys or (a.origin_chain_name, a.origin_denom) in self.keys)

    def route(self, route: Any) -> bool:
        return route is not None and any(h.from_chain_id in self.chain_ids or h.to_chain_id in self.chain_ids
                                         for h in route.hops)


def answers(reg: ar.Registry, chains: list[str], skip: Exclusion,
            sources: Callable[[ar.Asset], bool] = lambda a: True) -> dict[tuple[Any, ...], Any]:
    """Both lookups over every pair of *chains* and every asset held on them (or those *sources* picks),
    minus what *skip* names. Every full answer is also encoded to JSON, as the service sends it.
    """
    ids = {c.chain_name: c.chain_id for c in reg.chains()}
    out: dict[tuple[Any, ...], Any] = {}
    for source, dest in itertools.permutations(chains, 2):
        for i, flags in enumerate(BETWEEN_FLAGS):
            result = reg.assets_between_chains(ids[source], ids[dest], **flags)
            assert result.to_json()
            out[("between", source, dest, i)] = [
                p.to_api() for p in result.pairs
                if not (skip.asset(p.asset_on_source) or skip.asset(p.asset_on_dest) or skip.route(p.route))]
    for chain in chains:
        held = [a for a in reg.assets(ids[chain]) if not skip.asset(a)]
        out[("held", chain)] = [a.to_api() for a in held]
        for asset in filter(sources, held):
            for i, options in enumerate(FROM_SOURCE_OPTIONS):
                found = reg.assets_from_source(asset.denom, ids[chain], **options)
                assert found.to_json()
                groups = {key: [d.asset.to_api() for d in items if not (skip.asset(d.asset) or skip.route(d.route))]
                          for key, items in found.groups}
                out[("from", chain, asset.denom, i)] = {k: v for k, v in groups.items() if v}
    return out


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The clean base and every damaged variant, each in its own directory."""
    top = tmp_path_factory.mktemp("damaged")
    roots = {"clean": write_registry(top / "clean", clean_base())}
    for case in CASES:
        files = clean_base()
        case.apply(files)
        roots[case.id] = write_registry(top / case.id, files)
    return roots


@pytest.fixture(scope="module")
def clean(corpus: dict[str, Path]) -> ar.Registry:
    return ar.load_registry(corpus["clean"])


# -- tests ------------------------------------------------------------------------------------


def test_the_corpus_is_what_it_claims() -> None:
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids)) >= 20
    assert all(c.description and c.problem and c.file for c in CASES)
    sizes = {rel: len(v) if isinstance(v, bytes) else len(json.dumps(v)) for rel, v in clean_base().items()}
    assert sum(sizes.values()) < 64 * 1024  # small: the 1 MB strings are made at test time


def test_the_clean_base_is_clean_and_routes(clean: ar.Registry) -> None:
    assert clean.quality == ()
    assert [c.chain_id for c in clean.chains()] == ["1", "alpha-1", "axelar-dojo-1", "beta-1", "delta-1",
                                                    "gamma-1", "noble-1"]
    # Every mechanism the comparisons rely on is exercised: one and two hops, CW20, Axelar, CCTP, PFM-less hops.
    between = clean.assets_between_chains("gamma-1", "alpha-1", include_no_metadata_assets=True, allow_multi_tx=True)
    two_hops = [p for p in between if p.asset_on_source.trace.count("/") == 3]
    assert [(p.asset_on_dest.denom, p.txs_required) for p in two_hops] == [("ualpha", 2)]  # beta has no PFM
    cw20 = clean.assets_between_chains("alpha-1", "beta-1", include_cw20_assets=True, include_no_metadata_assets=True)
    assert any(p.asset_on_source.denom == CW20 for p in cw20)
    usdc = clean.assets_from_source(USDC, "1", allow_multi_tx=True)
    assert {"AXELAR", "CCTP"} <= {b for d in usdc for b in (d.route.bridges if d.route else ())}
    assert dict(clean.provenance.counts)["listed_assets"] == 14


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_damage_is_reported_and_nothing_else_changes(case: Damage, corpus: dict[str, Path], clean: ar.Registry,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in case.limits.items():
        monkeypatch.setattr(limit_module(name), name, value)
    reg, seconds = load_bounded(corpus[case.id])
    assert seconds < LOAD_BOUND_S, f"{case.id}: load took {seconds:.1f} s"

    # The problem is reported, naming its file; the report itself stays small and well-formed.
    hits = [q for q in reg.quality if case.problem in q.problem and q.file == case.file]
    assert hits, f"{case.id}: no issue with {case.problem!r} in {case.file}: {reg.quality}"
    if case.action:
        assert any(case.action in q.action for q in hits), hits
    for q in reg.quality:
        assert q.file and q.problem and q.action
        assert len(q.problem) < 1000 and len(q.action) < 200, q
        json.dumps([q.file, q.problem, q.action], ensure_ascii=False).encode()  # encodable text

    before, after = clean.engine.data, reg.engine.data
    # The same chains, except the ones the damage touches.
    for name, chain in before.chains.items():
        if name not in case.touched:
            assert after.chains.get(name) == chain, name
    assert set(after.chains) - set(before.chains) <= case.touched
    # The same listed assets, except the ones the case names.
    spared = case.gone | case.changed
    for key, listed in before.listed.items():
        if key in case.gone:
            assert key not in after.listed, f"{key} should be gone"
        elif key in case.changed:
            assert key in after.listed, f"{key} should be kept"
        elif key[0] not in case.touched:
            assert after.listed.get(key) == listed, key
    for key in case.added:
        assert _data.denom_key(key[1]) in {k[1] for k in after.listed if k[0] == key[0]}, f"{key} should be kept"
    new = {k for k in after.listed if k not in before.listed and k[0] not in case.touched}
    assert new <= case.added, new - case.added
    # The same provenance counts, except the ones the case explains.
    counts_before, counts_after = dict(clean.provenance.counts), dict(reg.provenance.counts)
    assert counts_after["quality_issues"] == len(reg.quality)
    changed_counts = {k: counts_after[k] - counts_before[k] for k in counts_before
                      if k != "quality_issues" and counts_after[k] != counts_before[k]}
    assert changed_counts == case.counts
    # The same answers wherever the damaged data plays no part.
    ids = frozenset(c.chain_id for r in (clean, reg) for n, c in r.engine.chains.items() if n in case.touched)
    skip = Exclusion(case.touched, ids, case.gone | case.changed | case.added | spared)
    untouched = sorted(c.chain_name for c in clean.chains() if c.chain_name not in case.touched)
    assert answers(reg, untouched, skip) == answers(clean, untouched, skip)
    # And the damaged part answers too, every option, as JSON (nothing unencodable reaches the API).
    everything = dict.fromkeys(BETWEEN_FLAGS[1], True)
    for source, dest in itertools.permutations(reg.chains(), 2):
        assert reg.assets_between_chains(source.chain_id, dest.chain_id, **everything).to_json()
    for chain in reg.chains():
        for asset in reg.assets(chain.chain_id):
            for options in ({"recommendation_reason": "DIRECT", "group_by": "recommended_symbol"},
                            {"recommendation_reason": "BASE_TOKEN", "include_swaps": True, "swap_venues": [
                                {"name": "x", "chain_id": chain.chain_id}]}):
                assert reg.assets_from_source(asset.denom, chain.chain_id, allow_multi_tx=True,
                                              include_cw20_assets=True, **options).to_json()


def test_markup_and_script_urls_come_back_verbatim(corpus: dict[str, Path]) -> None:
    reg = ar.load_registry(corpus["markup-everywhere"])
    chain = reg.chain("mallory-1")
    assert chain.to_api()["pretty_name"] == MARKUP and chain.to_api()["logo_uri"] == JS_URL
    mal = reg.find_asset("mallory-1", "umal")
    assert mal is not None
    api = mal.to_api()
    assert (api["symbol"], api["name"], api["description"], api["coingecko_id"], api["logo_uri"]) == (
        MARKUP, MARKUP, MARKUP, MARKUP, JS_URL)
    mal2 = reg.find_asset("mallory-1", "umal2")
    assert mal2 is not None and mal2.to_api()["logo_uri"] == "JaVaScRiPt:alert(1)"
    # In an answer, as the service sends it: plain JSON strings, nothing escaped away or rewritten.
    body = reg.assets_between_chains("mallory-1", "alpha-1", include_no_metadata_assets=True).to_json()
    assert json.loads(body)["assets_between_chains"][0]["asset_on_source"]["symbol"] == MARKUP
    assert orjson.dumps(MARKUP) in body and orjson.dumps(JS_URL) in body  # JSON-escaped only, not HTML-escaped
    assert b"<script>" in body and b"&lt;" not in body
    reported = {(q.file, q.problem.split(" contains ")[0].split(" has ")[0]) for q in reg.quality}
    for where in ("pretty_name", "logo_URIs.png"):
        assert any(f == "mallory/chain.json" and p.endswith(where) for f, p in reported), where
    for where in ("symbol", "name", "description", "coingecko_id", "logo_URIs.png", "logo_URIs.svg",
                  "images[0].png", "images[1].svg"):
        assert any(f == "mallory/assetlist.json" and p.endswith(where) for f, p in reported), where


def test_text_over_max_text_is_cut_and_reported(corpus: dict[str, Path]) -> None:
    reg = ar.load_registry(corpus["huge-strings"])
    huge = reg.find_asset("gamma-1", "uhuge")
    assert huge is not None and huge.metadata is not None
    m = huge.metadata
    assert (m.symbol, m.name, m.description) == ("S" * _values.MAX_TEXT, "N" * _values.MAX_TEXT,
                                                 "D" * _values.MAX_TEXT)
    assert m.logo_uri == ("https://x/" + "L" * MB)[: _values.MAX_TEXT]
    cut = {q.problem.split("(")[1].split(")")[1].strip() for q in reg.quality if "characters long" in q.problem}
    assert cut == {f"{field} is {n} characters long" for field, n in
                   (("symbol", MB), ("name", MB), ("description", MB), ("logo_URIs.png", MB + 10))}
    assert all(q.action == f"cut to {_values.MAX_TEXT} characters" for q in reg.quality
               if "characters long" in q.problem)


def test_odd_unicode_is_kept_verbatim_and_never_breaks_encoding(corpus: dict[str, Path]) -> None:
    twins = ar.load_registry(corpus["nfc-nfd-twins"])
    nfc, nfd = twins.find_asset("gamma-1", "ucaf\u00e9"), twins.find_asset("gamma-1", "ucafe\u0301")
    assert nfc is not None and nfd is not None and nfc is not nfd
    assert nfc.to_api()["symbol"] == "\U0001f680CAF\u00c9" and nfd.to_api()["symbol"] == "\U0001f680CAFE\u0301"
    rtl = ar.load_registry(corpus["rtl-override"]).find_asset("gamma-1", "urtl")
    assert rtl is not None and rtl.to_api()["symbol"] == "CDSU\u202e"
    surrogates = ar.load_registry(corpus["lone-surrogates"])
    sur = surrogates.find_asset("gamma-1", "usur\ufffd")
    assert sur is not None and (sur.to_api()["symbol"], sur.to_api()["name"]) == ("\ufffd", "x\ufffdy")
    nul = ar.load_registry(corpus["nul-escaped"]).find_asset("gamma-1", "unul")
    assert nul is not None and (nul.to_api()["symbol"], nul.to_api()["description"]) == ("NUL[31m", "ab")


SMALL_CHILD_ADDRESS_SPACE = 1024 * MB  # the corpus child: interpreter, one damaged registry at a time, queries
SMALL_CHILD_SECONDS = 180.0  # the whole corpus (69 registries) in one child


def test_every_damaged_registry_loads_and_answers_in_a_child_process_within_hard_bounds(
        corpus: dict[str, Path]) -> None:
    """A hang in C code (a regex, the JSON scanner) would not yield to an in-process timer: a child would.

    The child loads every damaged registry and runs a bounded series of queries on each (both lookups over
    every ordered pair of its routable chains, every flag; assets_from_source for the first three assets of
    each chain), under SMALL_CHILD_ADDRESS_SPACE of address space (RLIMIT_AS) and SMALL_CHILD_SECONDS in all;
    each registry's load and queries must also stay under LOAD_BOUND_S.
    """
    script = (
        "import json, sys, time\n"
        "from assetroute_core import _data, _files, _loader, _values, load_registry\n"
        "def home(k): return next(m for m in (_loader, _files, _values, _data) if hasattr(m, k))\n"
        "every = dict.fromkeys(['include_no_metadata_assets', 'include_cw20_assets', 'include_evm_assets',\n"
        "                       'allow_multi_tx'], True)\n"
        "out = {}\n"
        "for case_id, root, limits in json.load(sys.stdin):\n"
        "    saved = {k: getattr(home(k), k) for k in limits}\n"
        "    for k, v in limits.items(): setattr(home(k), k, v)\n"
        "    t = time.perf_counter(); reg = load_registry(root); load_s = time.perf_counter() - t\n"
        "    for k, v in saved.items(): setattr(home(k), k, v)\n"
        "    t = time.perf_counter(); n = 0\n"
        "    ids = [c.chain_id for c in reg.chains()]\n"
        "    for a in ids:\n"
        "        for b in ids:\n"
        "            if a != b: n += len(reg.assets_between_chains(a, b, **every).to_json()) > 0\n"
        "        for asset in reg.assets(a)[:3]:\n"
        "            n += len(reg.assets_from_source(asset.denom, a, allow_multi_tx=True).to_json()) > 0\n"
        "    out[case_id] = [load_s, time.perf_counter() - t, len(reg.quality), n]\n"
        "print(json.dumps(out))\n"
    )
    jobs = [[c.id, str(corpus[c.id]), c.limits] for c in CASES]
    env = {**os.environ, "PYTHONPATH": str(REPO)}

    def limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (SMALL_CHILD_ADDRESS_SPACE, SMALL_CHILD_ADDRESS_SPACE))

    done = subprocess.run([sys.executable, "-c", script], input=json.dumps(jobs), capture_output=True, text=True,
                          timeout=SMALL_CHILD_SECONDS, cwd=REPO, env=env, preexec_fn=limit)
    assert done.returncode == 0, done.stderr[-4000:]
    timings = json.loads(done.stdout)
    assert set(timings) == {c.id for c in CASES}
    slow = {k: v[:2] for k, v in timings.items() if v[0] + v[1] > LOAD_BOUND_S}
    assert not slow
    assert all(issues > 0 and queries >= 30 for _, _, issues, queries in timings.values())


def test_damage_inside_the_real_snapshot_leaves_the_rest_intact(registry: ar.Registry, registry_path: Path,
                                                                 tmp_path: Path) -> None:
    root = copy_snapshot(registry_path, tmp_path / "reg")
    # akash: the real assetlist behind a BOM, plus a hostile asset, a duplicate and a forged voucher.
    doc = json.loads((registry_path / "akash" / "assetlist.json").read_bytes())
    evil = {**_asset("uevil\udfff", "EVIL"), "symbol": MARKUP, "name": "N" * MB, "description": "a\x00b",
            "logo_URIs": {"png": JS_URL}}
    doc["assets"] += [evil, {**doc["assets"][0], "symbol": "FAKE"}, {**_asset(BAD_HASH, "FORGED"), "traces": [
        {"type": "ibc", "counterparty": {"chain_name": "osmosis", "base_denom": "uosmo"},
         "chain": {"channel_id": "channel-9", "path": "transfer/channel-9/uosmo"}}]}]
    (root / "akash" / "assetlist.json").write_bytes(b"\xef\xbb\xbf" + json.dumps(doc).encode())
    # _IBC: a chain that does not exist, a second claim on the Hub's channel to Osmosis, a 5 000-digit channel.
    write_registry(root, {
        "_IBC/akash-zzz.json": _ibc("akash", "zzz", _channel("channel-1", "channel-2")),
        "_IBC/cosmoshub-osmosis-2.json": _ibc("cosmoshub", "osmosis", _channel(
            "channel-141", "channel-99999", status="ACTIVE", preferred=True)),
        "_IBC/cosmoshub-osmosis-3.json": _ibc("cosmoshub", "osmosis", _channel(
            "channel-" + "9" * 5000, "channel-99998", status="ACTIVE", preferred=True)),
        "mallory/chain.json": b'{"chain_name": "mallory", "chain_id": "mallo',
    })
    reg, seconds = load_bounded(root)
    assert seconds < 10 * LOAD_BOUND_S

    reported = {(q.file, q.problem) for q in reg.quality}
    for file, problem in (("akash/assetlist.json", "byte-order mark"),
                          ("akash/assetlist.json", "lone UTF-16 surrogate"),
                          ("akash/assetlist.json", "symbol contains markup"),
                          ("akash/assetlist.json", "name is 1048576 characters long"),
                          ("akash/assetlist.json", "description contains control characters"),
                          ("akash/assetlist.json", "logo_URIs.png has the URL scheme 'javascript'"),
                          ("akash/assetlist.json", "is listed twice"),
                          ("akash/assetlist.json", "does not hash from its path"),
                          ("_IBC/akash-zzz.json", "names unknown chain 'zzz'"),
                          ("_IBC/cosmoshub-osmosis-2.json", "channel channel-141 of 'cosmoshub' is listed twice"),
                          ("_IBC/cosmoshub-osmosis-3.json", "malformed channel id"),
                          ("mallory/chain.json", "invalid JSON")):
        assert any(f == file and problem in p for f, p in reported), (file, problem)
    # The real report is all still there, unchanged.
    assert set(registry.quality) <= set(reg.quality)

    before, after = registry.engine.data, reg.engine.data
    assert after.chains == before.chains and after.channels == before.channels
    assert {k: v for k, v in after.listed.items() if k != ("akash", "uevil\ufffd")} == before.listed
    assert ("akash", "uevil\ufffd") in after.listed
    counts_before, counts_after = dict(registry.provenance.counts), dict(reg.provenance.counts)
    assert {k: counts_after[k] - counts_before[k] for k in counts_before if k != "quality_issues"
            and counts_after[k] != counts_before[k]} == {"files": 4, "listed_assets": 1}

    chains = ["akash", "axelar", "cosmoshub", "ethereum", "neutron", "noble", "osmosis"]
    picked = {("akash", "uakt"), ("cosmoshub", "uatom"), ("osmosis", "uosmo"), ("noble", "uusdc"),
              ("axelar", "uusdc"), ("neutron", "untrn"), ("ethereum", USDC)}
    skip = Exclusion(frozenset(), frozenset(), frozenset({("akash", "uevil\ufffd")}))
    def sources(a: ar.Asset) -> bool:
        return (a.chain_name, a.denom) in picked
    assert answers(reg, chains, skip, sources) == answers(registry, chains, skip, sources)


def test_two_live_chains_claiming_one_chain_id_are_both_unrouted(tmp_path: Path) -> None:
    files = clean_base()
    files["epsilon/chain.json"] = _chain("epsilon", "alpha-1")  # live, like alpha: neither may own alpha-1
    files["epsilon/assetlist.json"] = _assetlist("epsilon", _asset("ueps", "EPS"))
    files["_IBC/beta-epsilon.json"] = _ibc("beta", "epsilon", _channel("channel-70", "channel-71"))
    reg = ar.load_registry(write_registry(tmp_path / "reg", files))
    errors = [q for q in reg.quality if q.severity == "error"]
    assert {(q.file, q.kind) for q in errors} == {("alpha/chain.json", "chain-id-conflict"),
                                                  ("epsilon/chain.json", "chain-id-conflict")}
    assert all("chain_id 'alpha-1' is claimed by 2 live chains ('alpha' and 'epsilon')" in q.problem for q in errors)
    with pytest.raises(ar.NotFoundError):
        reg.chain("alpha-1")
    # Nothing may claim to come from alpha-1 that alpha does not hold.
    on_beta = reg.assets("beta-1")
    assert not [a.denom for a in on_beta if a.origin_chain_id == "alpha-1" and a.origin_denom == "ueps"]


# -- damage to a copy of the real snapshot: the file system, chain-id takeover, a flooded report -----
#
# Each case damages a fresh copy of the real snapshot (made at test time in tmp_path, never committed)
# and loads it in a child process with hard caps: the load and a bounded series of queries must finish
# within CHILD_SECONDS of wall time and CHILD_ADDRESS_SPACE of address space (RLIMIT_AS: an allocation
# beyond it fails, so a blow-up ends the child with MemoryError instead of swapping the machine).
# The child prints what the parent checks: the report, the routable chains, digests of the answers.

CHILD_ADDRESS_SPACE = 1536 * MB  # the clean snapshot peaks near 0.2 GiB resident (about 0.6 GiB mapped)
CHILD_SECONDS = 90.0  # the whole child: interpreter start, load and the queries (machine shared, noisy)
SNAPSHOT_LOAD_S = 20.0  # the load alone (clean: about 1 s)
ETH_USDC = "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"
SNAPSHOT_QUERIES: tuple[tuple[str, str, str], ...] = (
    ("between", "cosmoshub-4", "osmosis-1"), ("between", "osmosis-1", "cosmoshub-4"),
    ("between", "noble-1", "osmosis-1"), ("between", "1", "noble-1"), ("between", "cosmoshub-4", "neutron-1"),
    ("from", "uatom", "cosmoshub-4"), ("from", "uosmo", "osmosis-1"), ("from", "uusdc", "noble-1"),
    ("from", ETH_USDC, "1"), ("from", "untrn", "neutron-1"),
)
CHILD = r"""
import hashlib, json, resource, sys, time
import assetroute_core as ar
root, queries = sys.argv[1], json.loads(sys.argv[2])
started = time.perf_counter()
reg = ar.load_registry(root)
load_s = time.perf_counter() - started
answers = {}
started = time.perf_counter()
for kind, a, b in queries:
    try:
        if kind == "between":
            result = reg.assets_between_chains(a, b, allow_multi_tx=True, include_no_metadata_assets=True,
                                               include_cw20_assets=True, include_evm_assets=True)
        else:
            result = reg.assets_from_source(a, b, allow_multi_tx=True, include_cw20_assets=True)
        answers[f"{kind} {a} {b}"] = hashlib.sha256(result.to_json()).hexdigest()
    except (ar.NotFoundError, ar.InvalidArgumentError) as exc:  # an unknown chain: 404, or 400 for a source
        answers[f"{kind} {a} {b}"] = "not found" if "chain" in str(exc) else repr(exc)
query_s = time.perf_counter() - started
data = reg.engine.data
print(json.dumps({
    "load_s": load_s, "query_s": query_s, "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    "quality": [[q.file, getattr(q, "severity", ""), getattr(q, "kind", ""), q.problem, q.action]
                for q in reg.quality],
    "dropped": getattr(data, "quality_dropped", 0), "counts": dict(reg.provenance.counts),
    "chains": {c.chain_id: c.chain_name for c in reg.chains()}, "answers": answers,
}, ensure_ascii=True))
"""


def _drop_file_permission_override() -> None:
    """In the child before exec: lose CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH, so that mode bits bind.

    The tests run as root, and switching to a real non-root user is not possible here: the interpreter
    lives under /root (mode 0700). Dropping the two capabilities from the bounding set makes the kernel
    check permission bits for this root process exactly as for any user: a mode-000 file or folder
    (owned by root) cannot be read or listed, as ``test_a_dropped_capability_binds`` checks.
    """
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        if libc.prctl(24, cap, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def _limits(drop_permission_override: bool) -> Callable[[], None]:
    def preexec() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (CHILD_ADDRESS_SPACE, CHILD_ADDRESS_SPACE))
        if drop_permission_override:
            _drop_file_permission_override()
    return preexec


def load_in_bounded_child(root: Path, *, drop_permission_override: bool = False) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(root), json.dumps(SNAPSHOT_QUERIES)], capture_output=True, text=True,
        timeout=CHILD_SECONDS, cwd=REPO, env=env, preexec_fn=_limits(drop_permission_override))
    assert done.returncode == 0, done.stderr[-4000:]
    out: dict[str, Any] = json.loads(done.stdout)
    out["wall_s"] = time.perf_counter() - started
    assert out["load_s"] < SNAPSHOT_LOAD_S, out["load_s"]
    return out


def copy_snapshot(snapshot: Path, root: Path) -> Path:
    """A writable copy of the real snapshot (14 MB): damage can be written into it without touching it."""
    shutil.copytree(snapshot, root, symlinks=True)
    return root


@dataclass(frozen=True)
class SnapshotDamage:
    """Damage to a copy of the snapshot; ``outside`` is a folder beside (not inside) the copy."""

    id: str
    description: str
    apply: Callable[[Path, Path], None]
    expect: tuple[tuple[str, str, str], ...]  # (file, severity, kind) that must be reported
    touched: frozenset[str] = frozenset()  # chain-ids whose answers (and presence) may change
    check: Callable[[dict[str, Any], dict[str, Any]], None] | None = None  # (damaged, clean) -> asserts
    drop_permission_override: bool = False
    # False where a hub goes dark on purpose (a chain-id conflict routes neither claimant): routes through
    # it change everywhere, so only the routable chains and the case's own check are compared.
    compare_answers: bool = True


def _link(path: Path, target: str | Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(target)


def _json_at(path: Path, content: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content if isinstance(content, bytes) else json.dumps(content, ensure_ascii=False).encode())


def _chain_like(root: Path, folder: str, **values: Any) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((root / folder / "chain.json").read_bytes())
    doc.update(values)
    return doc


def _loops(root: Path, outside: Path) -> None:
    _link(root / "aaloopa", root / "aaloopb")
    _link(root / "aaloopb", root / "aaloopa")


def _dangling(root: Path, outside: Path) -> None:
    _link(root / "ghost", root / "no-such-folder")
    _link(root / "_IBC" / "ghost.json", "no-such-file.json")
    _link(root / "_non-cosmos" / "ghost", root / "_non-cosmos" / "no-such-folder")


def _fifos(root: Path, outside: Path) -> None:
    (root / "aafifo").mkdir()
    os.mkfifo(root / "aafifo" / "chain.json")  # reading it would block forever
    os.mkfifo(root / "_IBC" / "fifo.json")


def _unreadable(root: Path, outside: Path) -> None:
    _json_at(root / "aalocked" / "chain.json", _chain_like(root, "akash", chain_name="aalocked", chain_id="locked-1"))
    (root / "aalocked").chmod(0)
    (root / "odin1" / "assetlist.json").chmod(0)  # a killed chain's: no answer may depend on it
    _json_at(root / "_IBC" / "zzlocked.json", _ibc("akash", "cosmoshub", _channel("channel-99990", "channel-99991")))
    (root / "_IBC" / "zzlocked.json").chmod(0)


def _leak_file(root: Path, outside: Path) -> None:
    _json_at(outside / "secret.json", _chain("leak", "leak-1") | {"pretty_name": "LEAKED FROM OUTSIDE"})
    _link(root / "leak" / "chain.json", outside / "secret.json")
    _json_at(outside / "ibc.json", _ibc("cosmoshub", "osmosis", _channel("channel-99990", "channel-99991")))
    _link(root / "_IBC" / "cosmoshub-osmosis-leak.json", outside / "ibc.json")


def _leak_folder(root: Path, outside: Path) -> None:
    _json_at(outside / "leakdir" / "chain.json", _chain("leakdir", "leakdir-1"))
    _link(root / "leakdir", outside / "leakdir")
    _json_at(outside / "nc" / "chain.json", _chain("nc", "nc-1"))
    _link(root / "_non-cosmos" / "nc", outside / "nc")


def _ibc_to_disk_root(root: Path, outside: Path) -> None:
    shutil.rmtree(root / "_IBC")
    _link(root / "_IBC", "/")


def _inside_links(root: Path, outside: Path) -> None:
    # Links that stay inside the root are followed: a shared folder and a relative link to a file in it.
    (root / "_shared").mkdir()
    (root / "akash" / "assetlist.json").rename(root / "_shared" / "akash-assetlist.json")
    _link(root / "akash" / "assetlist.json", "../_shared/akash-assetlist.json")
    (root / "_IBC" / "akash-osmosis.json").rename(root / "_shared" / "akash-osmosis.json")
    _link(root / "_IBC" / "akash-osmosis.json", root / "_shared" / "akash-osmosis.json")


def _newcomer(folder: str, copy_of: str, **values: Any) -> Callable[[Path, Path], None]:
    def apply(root: Path, outside: Path) -> None:
        base = copy_of if (root / copy_of).is_dir() else f"_non-cosmos/{copy_of}"
        _json_at(root / folder / "chain.json", _chain_like(root, base, chain_name=folder.split("/")[-1], **values))
    return apply


def _lookalikes(root: Path, outside: Path) -> None:
    for folder, chain_id in (("aacosmos", "cosmoshub\u20104"), ("aacosmos2", "COSMOSHUB-4"),
                             ("aacosmos3", "\uff43\uff4f\uff53\uff4d\uff4f\uff53\uff48\uff55\uff42\uff0d\uff14"),
                             ("aacosmos4", "c\u043esmoshub-4")):  # Cyrillic o
        _json_at(root / folder / "chain.json", _chain_like(root, "cosmoshub", chain_name=folder, chain_id=chain_id))


NOISE = 1_000_000


def _flood(root: Path, outside: Path) -> None:
    # The report flood of issue 13: a 14 MB assetlist of 10^6 entries that each yield an issue.
    _json_at(root / "zznoise" / "assetlist.json",
             b'{"chain_name": "zznoise", "assets": [' + b",".join([b'{"symbol":"X"}'] * NOISE) + b"]}")


def _many_noisy_files(root: Path, outside: Path) -> None:
    for i in range(120):
        _json_at(root / f"noise{i:03}" / "assetlist.json",
                 {"chain_name": f"noise{i:03}", "assets": [{"symbol": "X"}] * 60})
    # An error found after the flood must still be listed: warnings cannot crowd errors out.
    _json_at(root / "zzzhub" / "chain.json", _chain_like(root, "cosmoshub", chain_name="zzzhub"))


def _issues(out: dict[str, Any], file: str) -> list[list[str]]:
    return [q for q in out["quality"] if q[0] == file]


def _check_leaks(out: dict[str, Any], clean: dict[str, Any]) -> None:
    assert "leak-1" not in out["chains"] and "LEAKED" not in json.dumps(out)
    assert out["counts"]["channels"] == clean["counts"]["channels"]


def _check_leak_folders(out: dict[str, Any], clean: dict[str, Any]) -> None:
    assert "leakdir-1" not in out["chains"] and "nc-1" not in out["chains"]
    assert out["counts"]["chains"] == clean["counts"]["chains"]


def _check_no_channels(out: dict[str, Any], clean: dict[str, Any]) -> None:
    assert out["counts"]["channels"] == 0 and out["counts"]["files"] < clean["counts"]["files"]


def _check_same_load(out: dict[str, Any], clean: dict[str, Any]) -> None:
    assert out["counts"] == clean["counts"] and out["quality"] == clean["quality"]


def _check_unreadable(out: dict[str, Any], clean: dict[str, Any]) -> None:
    assert "locked-1" not in out["chains"]
    assert out["counts"]["listed_assets"] == clean["counts"]["listed_assets"] - 3  # odin1 lists 3
    assert out["counts"]["channels"] == clean["counts"]["channels"]


def _check_nobody_owns(chain_id: str) -> Callable[[dict[str, Any], dict[str, Any]], None]:
    def check(out: dict[str, Any], clean: dict[str, Any]) -> None:
        assert chain_id in clean["chains"] and chain_id not in out["chains"]
        assert all(v == "not found" for k, v in out["answers"].items() if f" {chain_id}" in k)
        errors = [q for q in out["quality"] if q[2] == "chain-id-conflict"]
        assert errors and all(f"chain_id '{chain_id}'" in q[3] and "none of them is routed" in q[4] for q in errors)
    return check


def _check_ethereum_keeps_1(out: dict[str, Any], clean: dict[str, Any]) -> None:
    assert out["chains"]["1"] == "ethereum"
    assert "aaevil" not in out["chains"].values()


def _check_lookalikes(out: dict[str, Any], clean: dict[str, Any]) -> None:
    assert out["chains"]["cosmoshub-4"] == "cosmoshub"
    found = {q[0]: q[3] for q in out["quality"] if q[2] == "confusable-chain-id"}
    assert set(found) == {f"aacosmos{n}/chain.json" for n in ("", "2", "3", "4")}
    assert all("'cosmoshub-4' of 'cosmoshub'" in p and "reuses its pretty name 'Cosmos Hub'" in p
               for p in found.values()), found
    assert "\\u2010" in found["aacosmos/chain.json"] and "letter case" in found["aacosmos2/chain.json"]
    assert "NFKC" in found["aacosmos3/chain.json"] and "look-alike" in found["aacosmos4/chain.json"]
    # Routed as the separate chains they are (the API matches ids exactly): they capture nothing.
    assert out["chains"]["COSMOSHUB-4"] == "aacosmos2"


def _check_flood(out: dict[str, Any], clean: dict[str, Any]) -> None:
    # "assetlist has 1000000 entries", "assetlist without chain.json", then one issue for each of the first
    # MAX_ASSETS_PER_LIST entries: 50 listed, then 1 summary.
    mine = _issues(out, "zznoise/assetlist.json")
    assert len(mine) == _data.MAX_ISSUES_PER_FILE + 1
    assert [q[2:4] for q in mine[:2]] == [["too-many-assets", f"assetlist has {NOISE} entries (limit 50000)"],
                                          ["", "assetlist without chain.json and no overlay chain id"]]
    dropped = _loader.MAX_ASSETS_PER_LIST + 2 - _data.MAX_ISSUES_PER_FILE
    assert mine[-1][2] == "issues-not-listed" and mine[-1][3].startswith(f"{dropped} more issue(s) in this file")
    assert out["dropped"] == dropped
    assert len(out["quality"]) == len(clean["quality"]) + len(mine)


def _check_many_files(out: dict[str, Any], clean: dict[str, Any]) -> None:
    assert len(out["quality"]) <= _data.MAX_ISSUES + 1
    last = out["quality"][-1]
    assert last[0] == "(registry)" and last[2] == "issues-not-listed"
    listed_noise = sum(1 for q in out["quality"] if q[0].startswith("noise") and q[2] != "issues-not-listed")
    # Every issue is accounted for: 120 files x (60 bad entries + "no chain.json"), listed or counted, and
    # the real snapshot's own issues, listed or counted.
    listed_real = sum(1 for q in out["quality"] if q in clean["quality"])
    assert listed_noise + listed_real + out["dropped"] == 120 * 61 + len(clean["quality"])
    assert out["dropped"] >= int(last[3].split()[0])
    assert [q for q in out["quality"] if q[0] == "zzzhub/chain.json" and q[1] == "error"]


def _snapshot_cases() -> list[SnapshotDamage]:
    d = SnapshotDamage
    err = "error"
    return [
        d("chain-folder-loop", "two chain folders linking to each other", _loops,
          (("aaloopa", err, "symlink-loop"), ("aaloopb", err, "symlink-loop"))),
        d("self-loops", "a _non-cosmos folder and an _IBC file linking to themselves",
          _both_fs(lambda r, o: _link(r / "_non-cosmos" / "xloop", "xloop"),
                   lambda r, o: _link(r / "_IBC" / "yloop.json", "yloop.json")),
          (("_non-cosmos/xloop", err, "symlink-loop"), ("_IBC/yloop.json", err, "symlink-loop"))),
        d("dangling-links", "links to nothing, at the top, in _IBC and in _non-cosmos", _dangling,
          (("ghost", err, "dangling-symlink"), ("_IBC/ghost.json", err, "dangling-symlink"),
           ("_non-cosmos/ghost", err, "dangling-symlink"))),
        d("fifos", "a FIFO as a chain.json and as an _IBC file (reading would block)", _fifos,
          (("aafifo/chain.json", err, "not-a-file"), ("_IBC/fifo.json", err, "not-a-file"))),
        d("unreadable", "a mode-000 chain folder, assetlist and _IBC file, read without permission override",
          _unreadable, (("aalocked", err, "unreadable"), ("odin1/assetlist.json", err, "unreadable"),
                        ("_IBC/zzlocked.json", err, "unreadable")),
          check=_check_unreadable, drop_permission_override=True),
        d("file-outside-root", "leak/chain.json and an _IBC file linking to files elsewhere on the disk",
          _leak_file, (("leak/chain.json", err, "symlink-outside-root"),
                       ("_IBC/cosmoshub-osmosis-leak.json", err, "symlink-outside-root")), check=_check_leaks),
        d("folder-outside-root", "a chain folder and a _non-cosmos folder linking to folders elsewhere",
          _leak_folder, (("leakdir", err, "symlink-outside-root"), ("_non-cosmos/nc", err, "symlink-outside-root")),
          check=_check_leak_folders),
        d("ibc-is-disk-root", "_IBC is a link to /", _ibc_to_disk_root, (("_IBC", err, "symlink-outside-root"),),
          touched=frozenset({"*"}), check=_check_no_channels),
        d("links-inside-root", "links that stay inside the root are followed, as the copy itself", _inside_links,
          (), check=_check_same_load),
        d("takeover-sorting-first", "a new live folder aaosmo/ claiming osmosis-1", _newcomer("aaosmo", "osmosis"),
          (("aaosmo/chain.json", err, "chain-id-conflict"), ("osmosis/chain.json", err, "chain-id-conflict")),
          touched=frozenset({"osmosis-1"}), check=_check_nobody_owns("osmosis-1"), compare_answers=False),
        d("takeover-sorting-last", "the same folder named zzosmo/: the same outcome, whatever the order",
          _newcomer("zzosmo", "osmosis"),
          (("zzosmo/chain.json", err, "chain-id-conflict"), ("osmosis/chain.json", err, "chain-id-conflict")),
          touched=frozenset({"osmosis-1"}), check=_check_nobody_owns("osmosis-1"), compare_answers=False),
        d("takeover-numeric", "a cosmos folder aaevil/ claiming Ethereum's chain-id 1",
          _newcomer("aaevil", "cosmoshub", chain_id="1"), (("aaevil/chain.json", err, "numeric-chain-id"),),
          check=_check_ethereum_keeps_1),
        d("takeover-numeric-evm", "a new EVM chain claiming 1: neither it nor Ethereum is routed",
          _newcomer("_non-cosmos/aaeth", "ethereum"),
          (("_non-cosmos/aaeth/chain.json", err, "chain-id-conflict"),
           ("_non-cosmos/ethereum/chain.json", err, "chain-id-conflict")),
          touched=frozenset({"1"}), check=_check_nobody_owns("1"), compare_answers=False),
        d("lookalike-ids", "cosmoshub-4 look-alikes (U+2010, upper case, full width, Cyrillic o), same pretty name",
          _lookalikes, (("aacosmos/chain.json", "warning", "confusable-chain-id"),),
          touched=frozenset({"cosmoshub\u20104", "COSMOSHUB-4", "cosmoshub-4".upper(), "c\u043esmoshub-4",
                             "\uff43\uff4f\uff53\uff4d\uff4f\uff53\uff48\uff55\uff42\uff0d\uff14"}),
          check=_check_lookalikes),
        d("report-flood", "a 14 MB assetlist of 10^6 {\"symbol\": \"X\"}", _flood,
          (("zznoise/assetlist.json", "warning", "issues-not-listed"),), check=_check_flood),
        d("report-flood-many-files", "120 assetlists of 60 bad entries, then a chain-id conflict",
          _many_noisy_files, (("(registry)", "warning", "issues-not-listed"),
                              ("zzzhub/chain.json", err, "chain-id-conflict")),
          touched=frozenset({"cosmoshub-4"}), check=_check_many_files, compare_answers=False),
    ]


def _both_fs(*steps: Callable[[Path, Path], None]) -> Callable[[Path, Path], None]:
    def apply(root: Path, outside: Path) -> None:
        for step in steps:
            step(root, outside)
    return apply


SNAPSHOT_CASES = _snapshot_cases()


@pytest.fixture(scope="module")
def clean_child(registry_path: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The undamaged copy, loaded in a bounded child: the baseline of every snapshot case."""
    out = load_in_bounded_child(copy_snapshot(registry_path, tmp_path_factory.mktemp("clean") / "reg"))
    return out


def test_the_clean_copy_loads_within_the_caps_and_skips_testnets(clean_child: dict[str, Any],
                                                                  registry: ar.Registry) -> None:
    out = clean_child
    assert out["counts"] == {k: v for k, v in registry.provenance.counts}
    assert [q[:3] for q in out["quality"]] == [[q.file, q.severity, q.kind] for q in registry.quality]
    # testnets/ (178 testnet chains in the snapshot) is another world: nothing read, nothing reported.
    assert not [q for q in out["quality"] if q[0].startswith("testnets")]
    assert not [c for c in out["chains"].values() if c == "testnets" or c.endswith("testnet")]
    assert "theta-testnet-001" not in out["chains"] and out["dropped"] == 0
    assert all(v != "not found" for v in out["answers"].values())
    assert out["peak_rss_mib"] < CHILD_ADDRESS_SPACE / MB


def test_a_dropped_capability_binds(tmp_path: Path) -> None:
    """The unreadable case is real: without the override, this root child cannot read a mode-000 file."""
    locked = tmp_path / "locked.json"
    locked.write_text("{}")
    locked.chmod(0)
    probe = "import sys\ntry:\n    open(sys.argv[1]).read()\nexcept PermissionError:\n    print('denied')\n"
    done = subprocess.run([sys.executable, "-c", probe, str(locked)], capture_output=True, text=True, timeout=30,
                          preexec_fn=_limits(True))
    assert done.stdout.strip() == "denied", (done.stdout, done.stderr)


@pytest.mark.parametrize("case", SNAPSHOT_CASES, ids=[c.id for c in SNAPSHOT_CASES])
def test_snapshot_damage_is_reported_contained_and_bounded(case: SnapshotDamage, registry_path: Path,
                                                           tmp_path: Path, clean_child: dict[str, Any]) -> None:
    root = copy_snapshot(registry_path, tmp_path / "reg")
    outside = tmp_path / "outside"
    outside.mkdir()
    case.apply(root, outside)
    try:
        out = load_in_bounded_child(root, drop_permission_override=case.drop_permission_override)
    finally:
        for path in (root / "aalocked", root / "odin1" / "assetlist.json", root / "_IBC" / "zzlocked.json"):
            if path.exists() and not path.is_symlink():
                path.chmod(0o755)  # so that tmp_path can be cleaned
    assert out["wall_s"] < CHILD_SECONDS
    # The damage is reported, with its severity and kind, naming the entry; the report stays bounded.
    reported = {(q[0], q[1], q[2]) for q in out["quality"]}
    for expected in case.expect:
        assert expected in reported, (expected, [q for q in out["quality"] if q not in clean_child["quality"]])
    assert len(out["quality"]) <= _data.MAX_ISSUES + 1
    for q in out["quality"]:
        assert q[0] and q[3] and q[4] and q[1] in ("error", "warning", "info") and len(q[3]) < 1000, q
    # Everything else is intact: the same routable chains and the same answers, but where the case says.
    if "*" not in case.touched:
        same = {k: v for k, v in clean_child["chains"].items() if k not in case.touched}
        assert {k: v for k, v in out["chains"].items() if k not in case.touched} == same
        for key, digest in clean_child["answers"].items():
            if case.compare_answers and not set(key.split()[1:]) & case.touched:
                assert out["answers"][key] == digest, key
    if case.check is not None:
        case.check(out, clean_child)
