"""Read a chain-registry directory into frozen domain objects and a data-quality report.

A bad file never aborts the load: each problem becomes a :class:`QualityIssue`
(file, problem, what was done) and everything valid beside it is kept.

The registry is third-party data, so nothing in it is trusted.  The work is split by concern:
:mod:`._files` walks the directory without leaving its root and decodes its JSON defensively,
:mod:`._values` turns registry values into clean text (cut, control characters removed, markup
reported), and :mod:`._data` holds what is read and the bounded report.  This module reads the
documents themselves: every field is type-checked and identifiers that could not be real (channel
ids, chain-ids, denoms) are rejected.  Chain-ids are assigned once every chain is read, by rules that
folder order cannot sway (:func:`_assign_chain_ids`); trace paths give each listed asset its identity
and origins are followed across bridges once every assetlist is read.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
import unicodedata
from dataclasses import replace
from decimal import Decimal
from typing import Any

from ._data import ListedAsset, RegistryData, denom_key
from ._files import chain_folders, folder_files, listing, os_error, read_json, resolve_entry, shown
from ._ibc import ibc_denom, split_path
from ._models import BridgeLink, Chain, Channel, ChannelEnd, FeeAsset, Metadata
from ._overlay import Overlay
from ._values import (
    CONTROL_CHARS,
    as_object,
    brief,
    has_format_chars,
    json_kind,
    logo_field,
    missing_or,
    str_or,
    text_field,
)

__all__ = ["FAMILY_LINK", "read_registry"]


IBC_TRACE_TYPES = ("ibc", "ibc-cw20")
FAMILY_LINK = "circle-family"  # the ``file`` of a link from a family's root to one member (CCTP)
BRIDGE_TRACE_TYPES = ("bridge", "ibc-bridge")
MAX_DENOM = 512  # longer base denoms are rejected (and reported)
MAX_CHAIN_ID = 128  # longer chain-ids are rejected (and reported)
MAX_HOPS = 16  # the engine unwinds at most this many hops; longer paths are reported
MAX_FEE_TOKENS = 1_000  # fee tokens read per chain (the largest real list, Osmosis's, has under 200)
MAX_ASSETS_PER_LIST = 50_000  # entries read per assetlist (the largest real one has 597); the rest reported
CHANNEL_STATUSES = ("ACTIVE", "INACTIVE", "CLOSED", "PENDING")
# The registry's chain_type → the reference's ChainType (cosmos | evm | svm); others are kept as written.
_CHAIN_TYPES = {"cosmos": "cosmos", "eip155": "evm", "solana": "svm"}

_UINT64_MAX = 2**64 - 1
# ICS-024 channel ids as _IBC files write them: ASCII digits, no leading zero, a uint64.
_CHANNEL_ID = re.compile(r"channel-(0|[1-9][0-9]{0,19})")
_PORT_ID = re.compile(r"[A-Za-z0-9._+\-#\[\]<>]{2,128}")
_CHAIN_ID = re.compile(rf"[^\s\x00-\x1f\x7f-\x9f]{{1,{MAX_CHAIN_ID}}}")
_CHAIN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}")  # what a chain folder could be called
_BAD_DENOM = re.compile(r"[\s\x00-\x1f\x7f-\x9f]")


def read_registry(root: str | os.PathLike[str], overlay: Overlay, *, testnet: bool = False) -> RegistryData:
    """Read every chain, channel and assetlist under *root* (never anything outside it); with *testnet*,
    *root* is a ``testnets/`` folder and every chain read is marked ``is_testnet``."""
    data = RegistryData(root=str(root), testnet=testnet)
    digest = hashlib.sha256()
    assetlists: list[tuple[str, str, Any]] = []
    folders: dict[str, str] = {}
    try:
        real_root = os.path.realpath(root, strict=True)
    except OSError as exc:
        data.issue(".", f"unreadable registry root: {os_error(exc)}", "nothing loaded", severity="error",
                   kind="unreadable")
        data.close_report()
        return data

    folders_found, ibc_dir = chain_folders(real_root, data)
    for folder, path, rel in folders_found:
        if folder in folders:
            data.issue(rel, f"chain folder {folder!r} exists twice ({folders[folder]}/ and {rel}/)",
                       "the second one skipped")
            continue
        folders[folder] = rel
        files = folder_files(path, rel, real_root, data)
        chain_doc = None
        if "chain.json" in files:
            chain_doc = read_json(files["chain.json"], rel + "/chain.json", data, digest)
            if chain_doc is not None:
                _add_chain(folder, chain_doc, rel + "/chain.json", overlay, data)
        elif folder in overlay.evm_chains:
            fact = overlay.evm_chains[folder]
            _register_chain(
                Chain(folder, fact.chain_id, fact.pretty_name, "evm", "live",
                      overlay.pfm.get(folder, False), None, None, overlay.path, is_testnet=data.testnet),
                data,
            )
        if "assetlist.json" in files:
            doc = read_json(files["assetlist.json"], rel + "/assetlist.json", data, digest)
            entries = doc.get("assets") if isinstance(doc, dict) else None
            if isinstance(entries, list) and len(entries) > MAX_ASSETS_PER_LIST:
                data.issue(rel + "/assetlist.json", f"assetlist has {len(entries)} entries "
                           f"(limit {MAX_ASSETS_PER_LIST})", f"the first {MAX_ASSETS_PER_LIST} read, the rest skipped",
                           kind="too-many-assets")
                del entries[MAX_ASSETS_PER_LIST:]
            if doc is not None:
                assetlists.append((folder, rel + "/assetlist.json", doc))
            if folder not in data.chains and chain_doc is None:
                data.issue(rel + "/assetlist.json", "assetlist without chain.json and no overlay chain id",
                           "assets loaded but not routable")
    _assign_chain_ids(data)
    _report_lookalike_chain_ids(data)

    if ibc_dir is not None:
        ibc_docs: list[tuple[bool, str, Any]] = []
        for entry in listing(ibc_dir, "_IBC", data):
            if not entry.name.endswith(".json"):
                continue
            rel = shown("_IBC/" + entry.name)
            resolved = resolve_entry(entry, rel, real_root, data)
            if resolved is None:
                continue
            if resolved[1]:
                data.issue(rel, "is a folder, not a file", "skipped")
                continue
            doc = read_json(resolved[0], rel, data, digest)
            if doc is not None:
                expected = _ibc_file_name(doc)
                if expected is not None and expected != entry.name:
                    data.issue(rel, f"file name does not match its chains (expected {brief(expected)})",
                               "read after the files named for their chains")
                ibc_docs.append((expected != entry.name, rel, doc))
        # Files named <chain_1>-<chain_2>.json first: a stray file cannot take over their channel ids.
        for _stray, rel, doc in sorted(ibc_docs, key=lambda item: item[0]):
            _add_ibc_file(doc, rel, data)

    for folder, rel, doc in assetlists:
        _add_assetlist(folder, doc, rel, overlay, data)
    _add_links(overlay, data)
    data.fingerprint = digest.hexdigest()
    data.close_report()
    return data


# -- chains -----------------------------------------------------------------------------------


def _chain_id(value: Any, rel: str, data: RegistryData) -> str | None:
    """A chain-id as the API will match it; ``None`` when missing or unusable (reported by the caller)."""
    if isinstance(value, int) and not isinstance(value, bool):
        data.issue(rel, f"chain_id is a number ({value}), not a string", f"read as '{value}'")
        value = str(value)
    if not isinstance(value, str):
        return None
    stripped = value.strip()
    if stripped != value and stripped:
        data.issue(rel, f"chain_id {brief(value)} has surrounding whitespace", f"read as {brief(stripped)}")
    return stripped if _CHAIN_ID.fullmatch(stripped) else None


def _add_chain(folder: str, doc: Any, rel: str, overlay: Overlay, data: RegistryData) -> None:
    if not isinstance(doc, dict):
        data.issue(rel, f"chain.json is a {type(doc).__name__}, not an object", "chain skipped")
        return
    name = doc.get("chain_name")
    if name != folder:
        data.issue(rel, f"chain_name {brief(name)} differs from its folder {folder!r}", "keyed by folder name")
    raw_type = doc.get("chain_type")
    if not isinstance(raw_type, str):
        data.issue(rel, f"chain_type is {missing_or(raw_type)}",
                   "treated as 'unknown' (not routable)")
    raw_type = str_or(raw_type, "unknown")
    chain_type = _CHAIN_TYPES.get(raw_type, raw_type[:40])
    raw_id = doc.get("chain_id")
    chain_id = _chain_id(raw_id, rel, data)
    if folder in overlay.chain_ids:  # the id the API uses (Solana: "solana", not the registry's "101")
        chain_id = overlay.chain_ids[folder]
    if chain_id is None:
        if chain_type in ("cosmos", "evm", "svm"):
            data.issue(rel, f"missing or invalid chain_id {brief(raw_id)}", "chain not routable")
        chain_id = ""
    status = doc.get("status")
    if status not in ("live", "killed", "upcoming"):
        data.issue(rel, f"unknown status {brief(status)}", "treated as not live")
        status = CONTROL_CHARS.sub("", status[:40]) if isinstance(status, str) and status else "unknown"
    pretty = text_field(doc.get("pretty_name"), data, rel, "pretty_name", check_format=True) or folder
    bech32 = text_field(doc.get("bech32_prefix"), data, rel, "bech32_prefix")
    chain = Chain(folder, chain_id, pretty, chain_type, status, overlay.pfm.get(folder, False),
                  logo_field(doc, data, rel, ""), bech32, rel, _fee_assets(doc.get("fees"), rel, data),
                  is_testnet=data.testnet)
    _register_chain(chain, data)


def _gas_price(value: Any) -> str | None:
    """A gas price as decimal text (``0.0025`` → ``"0.0025"``, never ``"2.5e-03"``); ``None`` when it is not a
    finite, non-negative number (a number too long to read is kept as the registry's text)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value) if value >= 0 else None
    if isinstance(value, float):
        return format(Decimal(repr(value)), "f") if math.isfinite(value) and value >= 0 else None
    if isinstance(value, str) and value.isdigit():
        return value  # an integer of more than MAX_NUMBER_DIGITS digits, kept as text by the parser
    return None


def _fee_assets(fees: Any, rel: str, data: RegistryData) -> tuple[FeeAsset, ...]:
    """``fees.fee_tokens`` of a chain.json: each token once, its gas prices when all three are numbers."""
    if fees is None:
        return ()
    tokens = as_object(fees).get("fee_tokens")
    if not isinstance(fees, dict) or not isinstance(tokens, list | None):
        what = f"fees is {json_kind(fees)}" if not isinstance(fees, dict) else f"fees.fee_tokens is {json_kind(tokens)}"
        data.issue(rel, f"{what}, not {'an object' if not isinstance(fees, dict) else 'a list'}", "no fee assets")
        return ()
    out: dict[str, FeeAsset] = {}
    for i, token in enumerate(tokens or ()):
        where = f"fees.fee_tokens[{i}]"
        if len(out) >= MAX_FEE_TOKENS:
            data.issue(rel, f"more than {MAX_FEE_TOKENS} fee tokens", f"the first {MAX_FEE_TOKENS} kept")
            break
        denom = as_object(token).get("denom")
        if not isinstance(denom, str) or not denom or len(denom) > MAX_DENOM or _BAD_DENOM.search(denom):
            data.issue(rel, f"{where}.denom is {brief(denom) if isinstance(denom, str) else missing_or(denom)}",
                       "fee token skipped")
            continue
        if denom in out:
            data.issue(rel, f"{where}: fee token {brief(denom)} listed twice", "the first kept")
            continue
        raw = [token.get(k) for k in ("low_gas_price", "average_gas_price", "high_gas_price")]
        prices = tuple(_gas_price(v) for v in raw)
        gas: tuple[str, str, str] | None = None
        if all(p is not None for p in prices):
            gas = (str(prices[0]), str(prices[1]), str(prices[2]))
        elif all(v is not None for v in raw):
            data.issue(rel, f"{where} has a gas price that is not a non-negative number", "gas prices omitted")
        out[denom] = FeeAsset(denom, gas)
    return tuple(out.values())


def _register_chain(chain: Chain, data: RegistryData) -> None:
    """Keep a chain; who owns its chain-id is decided once every chain is read (:func:`_assign_chain_ids`)."""
    data.chains[chain.chain_name] = chain


def _names(chains: list[Chain]) -> str:
    names = [repr(c.chain_name) for c in chains[:5]] + (["…"] if len(chains) > 5 else [])
    return ", ".join(names[:-1]) + " and " + names[-1]


def _is_numeric_id(chain_id: str) -> bool:
    return chain_id.isascii() and chain_id.isdigit()


def _assign_chain_ids(data: RegistryData) -> None:
    """Decide which chain owns each chain-id, so that no folder can capture another chain's id.

    The decision never depends on folder order (a newcomer named ``aaosmo/`` gains nothing by sorting
    first):

    * purely numeric ids are the EIP-155 namespace: where an EVM chain claims one, every other chain
      type claiming it is refused (error); a numeric id no EVM chain claims stays with its chain
      (turkchain, a Cosmos chain, is ``1919``);
    * of the remaining claimants, the one routable chain (live, Cosmos or EVM) owns the id; a killed or
      upcoming namesake is a known, legitimate quirk (info; andromeda-1, morocco-1, dungeon-1,
      odin-mainnet-freya);
    * two or more routable claimants: the id is ambiguous, so it is routed to **none** of them (error).
    """
    claims: dict[str, list[Chain]] = {}
    for chain in data.chains.values():
        if chain.chain_id:
            claims.setdefault(chain.chain_id, []).append(chain)
    for chain_id, claimants in claims.items():
        shown = brief(chain_id)
        if _is_numeric_id(chain_id):
            evm = [c for c in claimants if c.chain_type == "evm"]
            if evm:
                for c in claimants:
                    if c.chain_type != "evm":
                        data.issue(c.file or c.chain_name,
                                   f"chain_id {shown} is numeric, and numeric chain ids belong to EVM chains: "
                                   f"{evm[0].chain_name!r} (evm) claims it",
                                   f"refused: {c.chain_name!r} ({c.chain_type}) is not routed",
                                   severity="error", kind="numeric-chain-id")
                claimants = evm
        if len(claimants) == 1:
            data.chain_ids[chain_id] = claimants[0].chain_name
            continue
        routable = [c for c in claimants if c.routable]
        if len(routable) > 1:
            for c in routable:
                data.issue(c.file or c.chain_name, f"chain_id {shown} is claimed by {len(routable)} live chains "
                           f"({_names(routable)})",
                           "none of them is routed: an id claimed twice is ambiguous", severity="error",
                           kind="chain-id-conflict")
            continue
        owner = routable[0] if routable else next((c for c in claimants if c.status == "live"), claimants[0])
        data.chain_ids[chain_id] = owner.chain_name
        for c in claimants:
            if c is not owner:
                data.issue(c.file or owner.file, f"chain_id {shown:.80} is shared by {_names(claimants)}",
                           f"{owner.chain_name!r} ({owner.status}) owns it",
                           severity="warning" if c.status == "live" else "info", kind="chain-id-shared")


# Characters that pass for others in a chain-id (after NFKC): dashes and minus signs pass for "-", Cyrillic
# and Greek letters for Latin ones, digits and letters for each other. A hand-kept subset of Unicode's
# confusables (UTS #39) covering the characters chain-ids are made of (ASCII letters, digits, "-", "_", ".").
_CONFUSABLES = str.maketrans({
    **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2043\u2212\u02d7\u058a\u1680\u2cba\ufe58\u30fc", "-"),
    **dict.fromkeys("\u2024\u00b7\u2219\u22c5\u0701\u06d4\ua4f8", "."),
    **dict.fromkeys("_\u02cd\u0331", "_"),
    **dict.fromkeys("0\u043e\u03bf\u041e\u039f\u0585\u09e6\u0b66", "o"),
    **dict.fromkeys("1Il|\u0131\u0406\u0456\u04c0\u04cf\u0399\u03b9\u01c0\u05c0", "l"),
    **dict.fromkeys("\u0430\u0410\u0391\u03b1", "a"), **dict.fromkeys("\u0412\u0392\u0432", "b"),
    **dict.fromkeys("\u0441\u0421\u03f2\u03f9", "c"), **dict.fromkeys("\u0501", "d"),
    **dict.fromkeys("\u0435\u0415\u0395", "e"), **dict.fromkeys("\u04bb\u041d\u0397\u043d", "h"),
    **dict.fromkeys("\u0458\u0408\u037f", "j"), **dict.fromkeys("\u041a\u039a\u03ba\u043a", "k"),
    **dict.fromkeys("\u041c\u039c\u043c", "m"), **dict.fromkeys("\u039d", "n"),
    **dict.fromkeys("\u0440\u0420\u03a1\u03c1", "p"), **dict.fromkeys("\u051b", "q"),
    **dict.fromkeys("\u0455\u0405", "s"), **dict.fromkeys("\u0422\u03a4\u0442", "t"),
    **dict.fromkeys("\u03bd\u0475", "v"), **dict.fromkeys("\u051d", "w"),
    **dict.fromkeys("\u0445\u0425\u03a7\u03c7", "x"), **dict.fromkeys("\u0443\u0423\u03a5\u04af", "y"),
    **dict.fromkeys("\u0396", "z"), "5": "s", "8": "b",
})


def _skeleton(chain_id: str) -> str:
    """What a chain-id looks like: NFKC, invisible characters dropped, look-alikes folded, case folded."""
    text = unicodedata.normalize("NFKC", chain_id)
    if not text.isascii():
        text = "".join(ch for ch in text if unicodedata.category(ch) not in ("Cf", "Mn"))
    return text.casefold().translate(_CONFUSABLES).replace("rn", "m").replace("vv", "w")


def _report_lookalike_chain_ids(data: RegistryData) -> None:
    """Chain-ids that differ from another only by case, NFKC normalisation or look-alike characters.

    They are reported (warning), naming the other chain and any pretty name they reuse, and routed as
    the separate chains they are: the API matches chain-ids exactly, so a look-alike captures nothing.
    The plainest id of a group (ASCII, then already NFKC, then lower case, then folder order) is the one
    the others are compared with, and named in their issues.
    """
    groups: dict[str, list[Chain]] = {}
    for chain in data.chains.values():
        if chain.chain_id:
            groups.setdefault(_skeleton(chain.chain_id), []).append(chain)
    for members in groups.values():
        if len({c.chain_id for c in members}) < 2:
            continue
        members.sort(key=lambda c: (not c.chain_id.isascii(), unicodedata.normalize("NFKC", c.chain_id) != c.chain_id,
                                    c.chain_id != c.chain_id.lower(), c.file))
        ref = members[0]
        for c in members[1:]:
            if c.chain_id == ref.chain_id:
                continue
            if c.chain_id.casefold() == ref.chain_id.casefold():
                how = "letter case"
            elif unicodedata.normalize("NFKC", c.chain_id).casefold() == ref.chain_id.casefold():
                how = "Unicode normalisation (NFKC)"
            else:
                how = "look-alike characters"
            pretty = (f", and reuses its pretty name {brief(ref.pretty_name, 60)}"
                      if c.pretty_name.casefold() == ref.pretty_name.casefold() else "")
            data.issue(c.file or c.chain_name,
                       f"chain_id {c.chain_id[:60]!a} of {c.chain_name!r} differs from {ref.chain_id[:60]!a} "
                       f"of {ref.chain_name!r} only by {how}{pretty}",
                       "routed as a separate chain (chain-ids match exactly); check which one is genuine",
                       kind="confusable-chain-id")


# -- IBC channels -----------------------------------------------------------------------------


def _ibc_file_name(doc: Any) -> str | None:
    """``<chain_1>-<chain_2>.json``, the name the registry gives an _IBC file, if *doc* names both chains."""
    names = [as_object(as_object(doc).get(key)).get("chain_name") for key in ("chain_1", "chain_2")]
    if all(isinstance(n, str) for n in names):
        return f"{names[0]}-{names[1]}.json"
    return None


def _is_channel_id(value: Any) -> bool:
    """An ICS-024 channel id (``channel-<uint64>``, ASCII digits, no leading zero)."""
    if not isinstance(value, str):
        return False
    m = _CHANNEL_ID.fullmatch(value)
    return m is not None and int(m.group(1)) <= _UINT64_MAX


def _add_ibc_file(doc: Any, rel: str, data: RegistryData) -> None:
    if not isinstance(doc, dict):
        data.issue(rel, f"_IBC file is a {type(doc).__name__}, not an object", "file skipped")
        return
    sides = []
    for key in ("chain_1", "chain_2"):
        side = doc.get(key)
        name = side.get("chain_name") if isinstance(side, dict) else None
        if not isinstance(name, str) or not name:
            data.issue(rel, f"{key} has no chain_name", "file skipped")
            return
        if name not in data.chains:
            data.issue(rel, f"{key} names unknown chain {brief(name)}", "file skipped")
            return
        sides.append(name)
    c1, c2 = sides
    if c1 == c2:
        data.issue(rel, f"both sides are chain {c1!r}", "file skipped")
        return
    channels = doc.get("channels")
    if not isinstance(channels, list):
        data.issue(rel, f"channels is {missing_or(channels)}, not a list",
                   "file skipped")
        return
    for i, ch in enumerate(channels):
        if not (isinstance(ch, dict) and isinstance(ch.get("chain_1"), dict) and isinstance(ch.get("chain_2"), dict)):
            data.issue(rel, f"channels[{i}] is malformed", "channel ignored")
            continue
        ids = (ch["chain_1"].get("channel_id"), ch["chain_2"].get("channel_id"))
        ports = (ch["chain_1"].get("port_id"), ch["chain_2"].get("port_id"))
        if not all(isinstance(x, str) and x for x in ports):
            data.issue(rel, f"channels[{i}] has a missing port_id", "channel ignored")
            continue
        if not all(_is_channel_id(x) for x in ids):
            data.issue(rel, f"channels[{i}] has a wildcard or malformed channel id "
                       f"{brief(ids[0], 40)}/{brief(ids[1], 40)}", "channel ignored")
            continue
        if any("*" in p for p in ports):
            data.issue(rel, f"channels[{i}] has a wildcard port {brief(ports[0], 40)}/{brief(ports[1], 40)}",
                       "channel ignored")
            continue
        if not all(_PORT_ID.fullmatch(p) for p in ports):
            data.issue(rel, f"channels[{i}] has a malformed port id {brief(ports[0], 40)}/{brief(ports[1], 40)}",
                       "channel ignored")
            continue
        status, preferred = _tags(ch.get("tags"), rel, f"channels[{i}]", data)
        version = text_field(ch.get("version"), data, rel, f"channels[{i}].version", check_markup=False) or ""
        transfer = _is_transfer_pair(ports[0], ports[1])
        taken = [(chain, cid) for chain, cid in ((c1, ids[0]), (c2, ids[1])) if cid in data.ends.get(chain, {})]
        if transfer and taken:
            # A channel end belongs to one channel: a second claim contradicts the first, so it is not
            # half-registered (one end here, the other there) but ignored as a whole.
            data.issue(rel, f"channel {taken[0][1]} of {taken[0][0]!r} is listed twice", "first one kept")
            continue
        channel = Channel(c1, c2, ids[0], ids[1], ports[0], ports[1], status, preferred, version, rel)
        data.channels.append(channel)
        if not transfer:
            continue
        for chain, cid, port, cp, ccid, cport in ((c1, ids[0], ports[0], c2, ids[1], ports[1]),
                                                  (c2, ids[1], ports[1], c1, ids[0], ports[0])):
            data.ends.setdefault(chain, {})[cid] = ChannelEnd(chain, cid, port, cp, ccid, cport, channel)


def _tags(raw: Any, rel: str, where: str, data: RegistryData) -> tuple[str | None, bool | None]:
    """(status, preferred) of a channel's ``tags``; anything unexpected is reported and treated as absent."""
    if raw is not None and not isinstance(raw, dict):
        data.issue(rel, f"{where}.tags is {json_kind(raw)}, not an object", "treated as untagged")
    tags = as_object(raw)
    status = tags.get("status")
    if status is not None and status not in CHANNEL_STATUSES:
        data.issue(rel, f"{where}.tags.status {brief(status, 40)} is not one of {', '.join(CHANNEL_STATUSES)}",
                   "treated as untagged (usable)")
        status = None
    preferred = tags.get("preferred")
    if preferred is not None and not isinstance(preferred, bool):
        data.issue(rel, f"{where}.tags.preferred is {json_kind(preferred)}, not a boolean", "treated as absent")
        preferred = None
    return status, preferred


def _is_transfer_pair(p1: str, p2: str) -> bool:
    """ICS-20 capable: transfer on both ends, or transfer against a CW20-ICS20 ``wasm.`` port."""
    return (p1 == "transfer" and (p2 == "transfer" or p2.startswith("wasm."))) or (
        p2 == "transfer" and p1.startswith("wasm.")
    )


# -- assets -----------------------------------------------------------------------------------


def _decimals(asset: dict[str, Any], rel: str, where: str, data: RegistryData) -> int | None:
    display = asset.get("display")
    units = asset.get("denom_units")
    if not isinstance(units, list):
        data.issue(rel, f"{where} denom_units is {missing_or(units)}, not a list",
                   "decimals unknown")
        return None
    if not isinstance(display, str):
        return None
    for unit in units:
        if isinstance(unit, dict) and unit.get("denom") == display:
            exp = unit.get("exponent")
            if isinstance(exp, int) and not isinstance(exp, bool) and 0 <= exp <= 36:
                return exp
            data.issue(rel, f"{where} display unit has exponent {brief(exp, 40)}", "decimals unknown")
            return None
    return None


def _base(value: Any, rel: str, where: str, data: RegistryData) -> str | None:
    """The base denom of an asset, or ``None`` (reported) when it cannot be a denom."""
    if isinstance(value, int) and not isinstance(value, bool):
        data.issue(rel, f"{where} base is a number ({value}), not a string", f"read as '{value}'")
        value = str(value)
    if not isinstance(value, str) or not value or len(value) > MAX_DENOM:
        data.issue(rel, f"{where} has no valid base denom ({brief(value, 60)})", "asset skipped")
        return None
    if _BAD_DENOM.search(value):
        data.issue(rel, f"{where} base {brief(value)} contains whitespace or control characters", "asset skipped")
        return None
    if has_format_chars(value):
        data.issue(rel, f"{where} base {brief(value)} contains invisible or bidirectional control characters",
                   "kept verbatim")
    return value


def _add_assetlist(folder: str, doc: Any, rel: str, overlay: Overlay, data: RegistryData) -> None:
    if not isinstance(doc, dict) or not isinstance(doc.get("assets"), list):
        data.issue(rel, "assetlist has no assets list", "file skipped")
        return
    if doc.get("chain_name") != folder:
        data.issue(rel, f"chain_name {brief(doc.get('chain_name'))} differs from its folder {folder!r}",
                   "keyed by folder name")
    normal_forms: dict[str, str] = {}
    for i, asset in enumerate(doc["assets"]):
        where = f"assets[{i}]"
        if not isinstance(asset, dict):
            data.issue(rel, f"{where} is not an object", "asset skipped")
            continue
        base = _base(asset.get("base"), rel, where, data)
        if base is None:
            continue
        key = (folder, denom_key(base))
        if key in data.listed:
            data.issue(rel, f"base {brief(base, 100)} is listed twice", "first entry kept")
            continue
        nfc = unicodedata.normalize("NFC", base)
        twin = normal_forms.setdefault(nfc, base)
        if twin != base:
            data.issue(rel, f"base {brief(base)} and {brief(twin)} differ only in Unicode normalization",
                       "both kept, as distinct denoms")
        where = f"{where} ({brief(base, 60)})"
        symbol = text_field(asset.get("symbol"), data, rel, f"{where} symbol", check_format=True)
        if not symbol:
            data.issue(rel, f"{brief(base, 100)} has no symbol", "asset skipped")
            continue
        name = text_field(asset.get("name"), data, rel, f"{where} name", check_format=True) or symbol
        type_asset = asset.get("type_asset")
        if not isinstance(type_asset, str):
            data.issue(rel, f"{where} type_asset is {missing_or(type_asset)}",
                       "treated as 'unknown'")
            type_asset = "unknown"
        type_asset = type_asset[:40]
        traces = _traces(asset.get("traces"), rel, where, base, data)
        address = text_field(asset.get("address"), data, rel, f"{where} address")
        deprecated = asset.get("deprecated")
        if deprecated is not None and not isinstance(deprecated, bool):
            data.issue(rel, f"{where} deprecated is {json_kind(deprecated)}, not a boolean",
                       "treated as not deprecated")
        metadata = Metadata(
            symbol=symbol,
            name=name,
            logo_uri=logo_field(asset, data, rel, f"{where} "),
            decimals=_decimals(asset, rel, where, data),
            token_contract=address if type_asset in ("cw20", "erc20", "snip20", "snip25") and address else None,
            description=text_field(asset.get("description"), data, rel, f"{where} description"),
            coingecko_id=text_field(asset.get("coingecko_id"), data, rel, f"{where} coingecko_id"),
        )
        identity = _identity(folder, base, traces, rel, data)
        if identity is None:
            continue
        origin_chain, origin_denom, trace, origin_open = identity
        data.listed[key] = ListedAsset(folder, base, origin_chain, origin_denom, trace, type_asset,
                                       metadata, traces, rel, deprecated is True, origin_open)


def _traces(raw: Any, rel: str, where: str, base: str, data: RegistryData) -> tuple[dict[str, Any], ...]:
    """The trace objects of an asset; a trace that is not an object is reported and dropped."""
    if raw is None or (isinstance(raw, list) and not raw):
        return ()
    if not isinstance(raw, list):
        data.issue(rel, f"{brief(base, 100)} has traces that are not a list", "traces ignored")
        return ()
    if not isinstance(raw[-1], dict):
        # The last trace describes the asset: without it the others would describe the wrong one.
        data.issue(rel, f"{where} last trace is {json_kind(raw[-1])}, not an object", "traces ignored")
        return ()
    for j, t in enumerate(raw):
        if not isinstance(t, dict):
            data.issue(rel, f"{where} traces[{j}] is {json_kind(t)}, not an object", "trace ignored")
    return tuple(t for t in raw if isinstance(t, dict))


def _identity(chain: str, base: str, traces: tuple[dict[str, Any], ...], rel: str,
              data: RegistryData) -> tuple[str, str, str, bool] | None:
    """(origin chain, origin denom, trace, origin still open) of a listed asset, from its last trace's path.

    The origin is where the path's walk over ``_IBC`` channels ends. Where the walk meets a hop that
    is not an ``_IBC`` channel (an IBC v2 client such as Eureka's ``08-wasm-1369``, a channel the
    registry lacks), the origin is provisionally the first IBC-like trace's counterparty and is
    marked open: :func:`_follow_origins` follows it further once every listing is known.
    """
    last = traces[-1] if traces else None
    ttype = last.get("type") if last else None
    if not base.startswith("ibc/") or ttype not in (*IBC_TRACE_TYPES, "ibc-bridge"):
        if base.startswith("ibc/") and ttype not in (*IBC_TRACE_TYPES, "ibc-bridge"):
            data.issue(rel, f"{brief(base, 100)} is an ibc/ denom without an ibc trace", "asset skipped")
            return None
        return (chain, base, "", False)
    assert last is not None
    side = as_object(last.get("chain"))
    counterparty = as_object(last.get("counterparty"))
    path = side.get("path")
    if not isinstance(path, str) or not path:
        data.issue(rel, f"{base} has an ibc trace without a path", "asset skipped")
        return None
    pairs, tail = split_path(path)
    trace = "/".join(pairs)
    if not pairs or ibc_denom(trace, tail) != base:
        data.issue(rel, f"{base} does not hash from its path {path!r:.160}", "asset skipped")
        return None
    for key in ("chain_name", "base_denom"):
        if key in counterparty and not isinstance(counterparty[key], str):
            data.issue(rel, f"{base}: last trace counterparty.{key} is {json_kind(counterparty[key])}, not a string",
                       "ignored; identity taken from the path")
    cp_base = counterparty.get("base_denom")
    if isinstance(cp_base, str) and len(pairs) == 2 and cp_base != tail:
        data.issue(rel, f"{base}: path tail {brief(tail)} differs from counterparty base_denom {brief(cp_base)}",
                   "identity taken from the path")
    hops = len(pairs) // 2
    if hops > MAX_HOPS:
        data.issue(rel, f"{base}: path has {hops} hops", f"kept; routes unwind at most {MAX_HOPS} hops")
    # Walk the path over the _IBC channels to find the chain where the asset is native.
    current = chain
    visited = [chain]
    came_from: ChannelEnd | None = None  # the end the voucher was sent over to reach the previous chain
    for i in range(0, len(pairs), 2):
        end = data.ends.get(current, {}).get(pairs[i + 1])
        if end is None or end.port != pairs[i]:
            break
        if came_from is not None and (came_from.counterparty_port, came_from.counterparty_channel_id) == (
                pairs[i], pairs[i + 1]):
            # It would have left this chain over the channel it arrived on: ICS-20 unwinds instead.
            data.issue(rel, f"{base}: path {path!r:.120} leaves {current!r} over the channel it arrived on "
                       f"({pairs[i + 1]}), which ICS-20 never produces", "asset skipped")
            return None
        came_from = end
        current = end.counterparty_chain
        visited.append(current)
    else:
        if len(set(visited)) < len(visited):
            walk = " → ".join(visited[:6]) + (" → …" if len(visited) > 6 else "")
            data.issue(rel, f"{base}: path walks a cycle ({walk})", "kept; identity taken from the path")
        return (current, tail, trace, False)
    # Unknown channel on the way: the first IBC-like trace's counterparty is the origin.
    origin = None
    for t in traces:
        if t.get("type") in (*IBC_TRACE_TYPES, "ibc-bridge") and isinstance(t.get("counterparty"), dict):
            origin = t["counterparty"].get("chain_name")
            break
    if last.get("type") != "ibc-bridge" or len(pairs) > 2:
        v2 = not _CHANNEL_ID.fullmatch(pairs[i + 1])  # an IBC v2 (Eureka) client id, which _IBC does not list
        data.issue(rel, f"{base}: channel {pairs[i + 1]} of {current!r} in path {path!r:.120} is not in _IBC",
                   "origin taken from the trace; cannot be unwound over IBC", severity="info" if v2 else "warning",
                   kind="ibc-v2-client" if v2 else "channel-not-in-ibc")
    if not isinstance(origin, str) or not origin:
        data.issue(rel, f"{base}: origin chain cannot be determined", "asset skipped")
        return None
    if origin not in data.chains:
        if not _CHAIN_NAME.fullmatch(origin):
            data.issue(rel, f"{base}: origin chain {brief(origin)} is not a chain name", "asset skipped")
            return None
        data.issue(rel, f"{base}: origin chain {origin!r} is not in the registry", "kept; origin chain-id unknown")
    return (origin, tail, trace, True)


def _follow_origins(data: RegistryData) -> None:
    """Follow open origins to the end (SPEC §2).

    A listing whose path walk stopped at a hop outside ``_IBC`` got its origin from its traces,
    which for a multi-hop listing is only the previous hop. Where its last trace's counterparty
    base denom is itself an ``ibc/`` voucher listed on that chain, the origin is that listing's
    (itself followed the same way). Resolution is memoised and independent of reading order; a
    cycle keeps the provisional origin and is reported.
    """
    resolved: dict[tuple[str, str], str] = {}

    def origin_of(key: tuple[str, str], trail: list[tuple[str, str]]) -> str:
        listed = data.listed[key]
        if not listed.origin_open:
            return listed.origin_chain_name
        done = resolved.get(key)
        if done is not None:
            return done
        result = listed.origin_chain_name
        cp = as_object(listed.traces[-1].get("counterparty")) if listed.traces else {}
        cp_chain, cp_base = cp.get("chain_name"), cp.get("base_denom")
        if isinstance(cp_chain, str) and isinstance(cp_base, str) and cp_base.startswith("ibc/"):
            nxt = (cp_chain, denom_key(cp_base))
            if nxt == key or nxt in trail or len(trail) > MAX_HOPS:
                data.issue(listed.file, f"{brief(listed.denom, 100)}: its traces point back to "
                           f"{brief(cp_base, 60)} on {cp_chain!r} in a cycle", "origin taken from the first trace")
            elif nxt in data.listed:
                result = origin_of(nxt, [*trail, key])
        resolved[key] = result
        return result

    for key in sorted(k for k, v in data.listed.items() if v.origin_open):
        origin = origin_of(key, [])
        listed = data.listed[key]
        if origin != listed.origin_chain_name:
            data.listed[key] = replace(listed, origin_chain_name=origin)


def _counterparts(data: RegistryData) -> dict[tuple[str, str], tuple[str, str]]:
    """(chain, denom key) -> (chain, denom key) named by the last trace of every non-IBC listing."""
    out = {}
    for key, listed in data.listed.items():
        last = listed.traces[-1] if listed.traces else {}
        cp = as_object(last.get("counterparty"))
        if (last.get("type") not in IBC_TRACE_TYPES and isinstance(cp.get("chain_name"), str)
                and isinstance(cp.get("base_denom"), str)):
            out[key] = (cp["chain_name"], denom_key(cp["base_denom"]))
    return out


def _report_trace_loops(data: RegistryData) -> set[tuple[str, str]]:
    """Listings whose last trace names the listing itself (returned), and cycles of traces (reported)."""
    pointers = _counterparts(data)
    selves = {key for key, other in pointers.items() if key == other}
    for key in sorted(selves):
        listed = data.listed[key]
        data.issue(listed.file, f"{brief(listed.denom, 100)}: its last trace names the asset itself as the "
                   "counterparty", "no bridge link")
    reported: set[tuple[str, str]] = set(selves)
    for start in pointers:
        walk = [start]
        current = pointers.get(start)
        while current is not None and current not in walk and len(walk) <= 64:
            walk.append(current)
            current = pointers.get(current)
        if current == start and len(walk) > 1 and not reported & set(walk):
            reported.update(walk)
            cycle = " → ".join(f"{c}:{d[:40]}" for c, d in [*walk[:6], start])
            data.issue(data.listed[start].file, f"traces form a cycle ({cycle})",
                       "links kept; no listing of the cycle is its origin")
    return selves


def _add_links(overlay: Overlay, data: RegistryData) -> None:
    """Bridge links from bridge/ibc-bridge traces and the Circle (CCTP) USDC family.

    Runs once every assetlist is read, so it first settles the open origins (:func:`_follow_origins`).
    """
    _follow_origins(data)
    selves = _report_trace_loops(data)
    families: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for key, listed in data.listed.items():
        if key in selves or not listed.traces:
            continue
        last = listed.traces[-1]
        cp = last.get("counterparty") if isinstance(last.get("counterparty"), dict) else None
        provider = str_or(last.get("provider"), "")
        ttype = last.get("type")
        if cp is None or not isinstance(cp.get("chain_name"), str) or not isinstance(cp.get("base_denom"), str):
            if ttype in BRIDGE_TRACE_TYPES or ttype == "additional-mintage":
                data.issue(listed.file, f"{brief(listed.denom, 100)}: {ttype} trace without a counterparty "
                           "chain_name and base_denom", "no bridge link")
            continue
        other = (cp["chain_name"], cp["base_denom"])
        here = (listed.chain_name, listed.denom)
        if ttype in BRIDGE_TRACE_TYPES:
            if ttype == "ibc-bridge" and listed.trace and _unwinds_over_ibc(listed, data):
                continue  # an ibc-bridge hop over a real _IBC channel is plain IBC
            kind = overlay.kind_of(provider or "unknown")
            data.links.append(BridgeLink(kind, provider, other, here, listed.file))
        elif ttype == "additional-mintage" and provider.lower() == "circle":
            families.setdefault((other[0], denom_key(other[1])), []).append(here)
    # Linked through the family's root (a hub): N members make N links, not N(N+1)/2. The engine
    # still routes every two members as one CCTP hop (SPEC §3); see _routing.Engine.
    for root, members in families.items():
        for member in members:
            data.links.append(BridgeLink("CCTP", "Circle", root, member, FAMILY_LINK))


def _unwinds_over_ibc(listed: ListedAsset, data: RegistryData) -> bool:
    parts = listed.trace.split("/")
    end = data.ends.get(listed.chain_name, {}).get(parts[1]) if len(parts) >= 2 else None
    return end is not None and end.port == parts[0]

