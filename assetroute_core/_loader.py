"""Read a chain-registry directory into frozen domain objects and a data-quality report.

A bad file never aborts the load: each problem becomes a :class:`QualityIssue`
(file, problem, what was done) and everything valid beside it is kept.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ._ibc import ibc_denom, is_channel_id, split_path
from ._models import BridgeLink, Chain, Channel, ChannelEnd, Metadata, QualityIssue
from ._overlay import Overlay

__all__ = ["ListedAsset", "RegistryData", "denom_key", "read_registry"]

IBC_TRACE_TYPES = ("ibc", "ibc-cw20")
BRIDGE_TRACE_TYPES = ("bridge", "ibc-bridge")
MAX_TEXT = 4096  # longer registry strings are cut (and reported)


def denom_key(denom: str) -> str:
    """Lookup key of a denom: EVM-style ``0x`` addresses compare case-insensitively."""
    return denom.lower() if denom[:2] in ("0x", "0X") else denom


@dataclass(frozen=True, slots=True)
class ListedAsset:
    """One assetlist entry, with the identity its trace path gives."""

    chain_name: str
    denom: str
    origin_chain_name: str
    origin_denom: str
    trace: str
    type_asset: str
    metadata: Metadata
    traces: tuple[dict[str, Any], ...]
    file: str
    deprecated: bool = False


@dataclass
class RegistryData:
    """Everything read from disk, before indexing for lookups."""

    root: str
    chains: dict[str, Chain] = field(default_factory=dict)
    chain_ids: dict[str, str] = field(default_factory=dict)  # chain_id -> chain_name (live wins)
    channels: list[Channel] = field(default_factory=list)
    ends: dict[str, dict[str, ChannelEnd]] = field(default_factory=dict)  # chain -> channel_id -> end
    listed: dict[tuple[str, str], ListedAsset] = field(default_factory=dict)  # (chain, denom_key)
    links: list[BridgeLink] = field(default_factory=list)
    quality: list[QualityIssue] = field(default_factory=list)
    fingerprint: str = ""
    files: int = 0

    def issue(self, file: str, problem: str, action: str) -> None:
        self.quality.append(QualityIssue(file, problem, action))


def _obj(value: Any) -> dict[str, Any]:
    """*value* if it is a JSON object, else an empty one."""
    return value if isinstance(value, dict) else {}


def _str_or(value: Any, default: str) -> str:
    return value if isinstance(value, str) else default


def _text(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    return value if len(value) <= MAX_TEXT else value[:MAX_TEXT]


def _logo(obj: dict[str, Any]) -> str | None:
    logos = obj.get("logo_URIs")
    if isinstance(logos, dict):
        for key in ("png", "svg"):
            if isinstance(logos.get(key), str) and logos[key]:
                return _text(logos[key])
    images = obj.get("images")
    if isinstance(images, list):
        for image in images:
            if isinstance(image, dict):
                for key in ("png", "svg"):
                    if isinstance(image.get(key), str) and image[key]:
                        return _text(image[key])
    return None


def _read_json(path: Path, rel: str, data: RegistryData, digest: Any) -> Any:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        data.issue(rel, f"unreadable: {exc.strerror or exc}", "file skipped")
        return None
    digest.update(rel.encode() + b"\0" + hashlib.sha256(raw).digest())
    data.files += 1
    if not raw.strip():
        data.issue(rel, "empty file", "file skipped")
        return None
    try:
        return json.loads(raw)
    except (ValueError, RecursionError) as exc:
        data.issue(rel, f"invalid JSON: {str(exc)[:200]}", "file skipped")
        return None


def _chain_folders(root: Path) -> list[tuple[str, Path, str]]:
    """(folder name, path, relative prefix) of every chain folder, cosmos then non-cosmos."""
    out = []
    for base, prefix in ((root, ""), (root / "_non-cosmos", "_non-cosmos/")):
        if not base.is_dir():
            continue
        for entry in sorted(os.scandir(base), key=lambda e: e.name):
            if entry.is_dir() and not entry.name.startswith((".", "_")):
                out.append((entry.name, Path(entry.path), prefix + entry.name))
    return out


def read_registry(root: str | os.PathLike[str], overlay: Overlay) -> RegistryData:
    """Read every chain, channel and assetlist under *root*."""
    root = Path(root)
    data = RegistryData(root=str(root))
    digest = hashlib.sha256()
    assetlists: list[tuple[str, str, Any]] = []

    for folder, path, rel in _chain_folders(root):
        chain_doc = None
        if (path / "chain.json").is_file():
            chain_doc = _read_json(path / "chain.json", rel + "/chain.json", data, digest)
            if chain_doc is not None:
                _add_chain(folder, chain_doc, rel + "/chain.json", overlay, data)
        elif folder in overlay.evm_chains:
            fact = overlay.evm_chains[folder]
            _register_chain(
                Chain(folder, fact.chain_id, fact.pretty_name, "evm", "live",
                      overlay.pfm.get(folder, False), None, None, overlay.path),
                data,
            )
        if (path / "assetlist.json").is_file():
            doc = _read_json(path / "assetlist.json", rel + "/assetlist.json", data, digest)
            if doc is not None:
                assetlists.append((folder, rel + "/assetlist.json", doc))
            if folder not in data.chains and chain_doc is None:
                data.issue(rel + "/assetlist.json", "assetlist without chain.json and no overlay chain id",
                           "assets loaded but not routable")

    ibc_dir = root / "_IBC"
    if ibc_dir.is_dir():
        for entry in sorted(os.scandir(ibc_dir), key=lambda e: e.name):
            if entry.name.endswith(".json") and entry.is_file():
                rel = "_IBC/" + entry.name
                doc = _read_json(Path(entry.path), rel, data, digest)
                if doc is not None:
                    _add_ibc_file(doc, rel, data)

    for folder, rel, doc in assetlists:
        _add_assetlist(folder, doc, rel, overlay, data)
    _add_links(overlay, data)
    data.fingerprint = digest.hexdigest()
    return data


# -- chains -----------------------------------------------------------------------------------


def _add_chain(folder: str, doc: Any, rel: str, overlay: Overlay, data: RegistryData) -> None:
    if not isinstance(doc, dict):
        data.issue(rel, f"chain.json is a {type(doc).__name__}, not an object", "chain skipped")
        return
    name = doc.get("chain_name")
    if name != folder:
        data.issue(rel, f"chain_name {name!r:.80} differs from its folder {folder!r}", "keyed by folder name")
    raw_type = doc.get("chain_type")
    raw_type = _str_or(raw_type, "unknown")
    chain_type = {"cosmos": "cosmos", "eip155": "evm"}.get(raw_type, raw_type[:40])
    chain_id = doc.get("chain_id")
    if isinstance(chain_id, int) and not isinstance(chain_id, bool):
        chain_id = str(chain_id)
    if not isinstance(chain_id, str) or not chain_id.strip():
        if chain_type in ("cosmos", "evm"):
            data.issue(rel, f"missing or invalid chain_id {chain_id!r:.80}", "chain not routable")
        chain_id = ""
    status = doc.get("status")
    if status not in ("live", "killed", "upcoming"):
        data.issue(rel, f"unknown status {status!r:.80}", "treated as not live")
        status = str(status or "unknown")[:40]
    pretty = _text(doc.get("pretty_name")) or folder
    bech32 = _text(doc.get("bech32_prefix"))
    chain = Chain(folder, chain_id, pretty, chain_type, status, overlay.pfm.get(folder, False),
                  _logo(doc), bech32, rel)
    _register_chain(chain, data)


def _register_chain(chain: Chain, data: RegistryData) -> None:
    data.chains[chain.chain_name] = chain
    if not chain.chain_id:
        return
    other_name = data.chain_ids.get(chain.chain_id)
    if other_name is None:
        data.chain_ids[chain.chain_id] = chain.chain_name
        return
    other = data.chains[other_name]
    keep, drop = (chain, other) if (chain.status == "live" and other.status != "live") else (other, chain)
    data.chain_ids[chain.chain_id] = keep.chain_name
    data.issue(drop.file or keep.file, f"chain_id {chain.chain_id!r} is shared by {other.chain_name!r} and "
               f"{chain.chain_name!r}", f"{keep.chain_name!r} ({keep.status}) owns it")


# -- IBC channels -----------------------------------------------------------------------------


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
            data.issue(rel, f"{key} names unknown chain {name!r:.80}", "file skipped")
            return
        sides.append(name)
    c1, c2 = sides
    if c1 == c2:
        data.issue(rel, f"both sides are chain {c1!r}", "file skipped")
        return
    channels = doc.get("channels")
    if not isinstance(channels, list):
        data.issue(rel, "channels is missing or not a list", "file skipped")
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
        if not all(isinstance(x, str) and x.startswith("channel-") and is_channel_id(x) for x in ids):
            data.issue(rel, f"channels[{i}] has a wildcard or malformed channel id {ids[0]!r:.40}/{ids[1]!r:.40}",
                       "channel ignored")
            continue
        if any("*" in p for p in ports):
            data.issue(rel, f"channels[{i}] has a wildcard port {ports[0]!r:.40}/{ports[1]!r:.40}", "channel ignored")
            continue
        tags = _obj(ch.get("tags"))
        status = tags.get("status") if isinstance(tags.get("status"), str) else None
        preferred = tags.get("preferred") if isinstance(tags.get("preferred"), bool) else None
        channel = Channel(c1, c2, ids[0], ids[1], ports[0], ports[1], status, preferred,
                          str(ch.get("version") or ""), rel)
        data.channels.append(channel)
        if not _is_transfer_pair(ports[0], ports[1]):
            continue
        for chain, cid, port, cp, ccid, cport in ((c1, ids[0], ports[0], c2, ids[1], ports[1]),
                                                  (c2, ids[1], ports[1], c1, ids[0], ports[0])):
            ends = data.ends.setdefault(chain, {})
            if cid in ends:
                data.issue(rel, f"channel {cid} of {chain!r} is listed twice", "first one kept")
                continue
            ends[cid] = ChannelEnd(chain, cid, port, cp, ccid, cport, channel)


def _is_transfer_pair(p1: str, p2: str) -> bool:
    """ICS-20 capable: transfer on both ends, or transfer against a CW20-ICS20 ``wasm.`` port."""
    return (p1 == "transfer" and (p2 == "transfer" or p2.startswith("wasm."))) or (
        p2 == "transfer" and p1.startswith("wasm.")
    )


# -- assets -----------------------------------------------------------------------------------


def _decimals(asset: dict[str, Any]) -> int | None:
    display = asset.get("display")
    units = asset.get("denom_units")
    if not isinstance(units, list):
        return None
    for unit in units:
        if isinstance(unit, dict) and unit.get("denom") == display:
            exp = unit.get("exponent")
            if isinstance(exp, int) and not isinstance(exp, bool) and 0 <= exp <= 36:
                return exp
    return None


def _add_assetlist(folder: str, doc: Any, rel: str, overlay: Overlay, data: RegistryData) -> None:
    if not isinstance(doc, dict) or not isinstance(doc.get("assets"), list):
        data.issue(rel, "assetlist has no assets list", "file skipped")
        return
    if doc.get("chain_name") != folder:
        data.issue(rel, f"chain_name {doc.get('chain_name')!r:.80} differs from its folder {folder!r}",
                   "keyed by folder name")
    for i, asset in enumerate(doc["assets"]):
        where = f"assets[{i}]"
        if not isinstance(asset, dict):
            data.issue(rel, f"{where} is not an object", "asset skipped")
            continue
        base = asset.get("base")
        if not isinstance(base, str) or not base or len(base) > 512:
            data.issue(rel, f"{where} has no valid base denom ({base!r:.60})", "asset skipped")
            continue
        key = (folder, denom_key(base))
        if key in data.listed:
            data.issue(rel, f"base {base!r:.100} is listed twice", "first entry kept")
            continue
        symbol = _text(asset.get("symbol"))
        if not symbol:
            data.issue(rel, f"{base!r:.100} has no symbol", "asset skipped")
            continue
        name = _text(asset.get("name")) or symbol
        type_asset = _str_or(asset.get("type_asset"), "unknown")
        traces_raw = asset.get("traces") or []
        if not isinstance(traces_raw, list):
            data.issue(rel, f"{base!r:.100} has traces that are not a list", "traces ignored")
            traces_raw = []
        traces = tuple(t for t in traces_raw if isinstance(t, dict))
        address = _text(asset.get("address"))
        metadata = Metadata(
            symbol=symbol,
            name=name,
            logo_uri=_logo(asset),
            decimals=_decimals(asset),
            token_contract=address if type_asset in ("cw20", "erc20", "snip20", "snip25") and address else None,
            description=_text(asset.get("description")),
            coingecko_id=_text(asset.get("coingecko_id")),
        )
        identity = _identity(folder, base, traces, rel, data)
        if identity is None:
            continue
        origin_chain, origin_denom, trace = identity
        data.listed[key] = ListedAsset(folder, base, origin_chain, origin_denom, trace, type_asset,
                                       metadata, traces, rel, asset.get("deprecated") is True)


def _identity(chain: str, base: str, traces: tuple[dict[str, Any], ...], rel: str,
              data: RegistryData) -> tuple[str, str, str] | None:
    """(origin chain, origin denom, trace) of a listed asset, from its last trace's path."""
    last = traces[-1] if traces else None
    ttype = last.get("type") if last else None
    if not base.startswith("ibc/") or ttype not in (*IBC_TRACE_TYPES, "ibc-bridge"):
        if base.startswith("ibc/") and ttype not in (*IBC_TRACE_TYPES, "ibc-bridge"):
            data.issue(rel, f"{base} is an ibc/ denom without an ibc trace", "asset skipped")
            return None
        return (chain, base, "")
    assert last is not None
    side = _obj(last.get("chain"))
    counterparty = _obj(last.get("counterparty"))
    path = side.get("path")
    if not isinstance(path, str) or not path:
        data.issue(rel, f"{base} has an ibc trace without a path", "asset skipped")
        return None
    pairs, tail = split_path(path)
    trace = "/".join(pairs)
    if not pairs or ibc_denom(trace, tail) != base:
        data.issue(rel, f"{base} does not hash from its path {path!r:.160}", "asset skipped")
        return None
    cp_base = counterparty.get("base_denom")
    if isinstance(cp_base, str) and len(pairs) == 2 and cp_base != tail:
        data.issue(rel, f"{base}: path tail {tail!r:.80} differs from counterparty base_denom {cp_base!r:.80}",
                   "identity taken from the path")
    # Walk the path over the _IBC channels to find the chain where the asset is native.
    current = chain
    for i in range(0, len(pairs), 2):
        end = data.ends.get(current, {}).get(pairs[i + 1])
        if end is None or end.port != pairs[i]:
            break
        current = end.counterparty_chain
    else:
        return (current, tail, trace)
    # Unknown channel on the way: the first IBC-like trace's counterparty is the origin.
    origin = None
    for t in traces:
        if t.get("type") in (*IBC_TRACE_TYPES, "ibc-bridge") and isinstance(t.get("counterparty"), dict):
            origin = t["counterparty"].get("chain_name")
            break
    if last.get("type") != "ibc-bridge" or len(pairs) > 2:
        data.issue(rel, f"{base}: channel {pairs[i + 1]} of {current!r} in path {path!r:.120} is not in _IBC",
                   "origin taken from the trace; cannot be unwound over IBC")
    if not isinstance(origin, str) or not origin:
        data.issue(rel, f"{base}: origin chain cannot be determined", "asset skipped")
        return None
    return (origin, tail, trace)


def _add_links(overlay: Overlay, data: RegistryData) -> None:
    """Bridge links from bridge/ibc-bridge traces and the Circle (CCTP) USDC family."""
    families: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for listed in data.listed.values():
        if not listed.traces:
            continue
        last = listed.traces[-1]
        cp = last.get("counterparty") if isinstance(last.get("counterparty"), dict) else None
        provider = _str_or(last.get("provider"), "")
        if cp is None or not isinstance(cp.get("chain_name"), str) or not isinstance(cp.get("base_denom"), str):
            continue
        other = (cp["chain_name"], cp["base_denom"])
        here = (listed.chain_name, listed.denom)
        ttype = last.get("type")
        if ttype in BRIDGE_TRACE_TYPES:
            if ttype == "ibc-bridge" and listed.trace and _unwinds_over_ibc(listed, data):
                continue  # an ibc-bridge hop over a real _IBC channel is plain IBC
            kind = overlay.kind_of(provider or "unknown")
            data.links.append(BridgeLink(kind, provider, other, here, listed.file))
        elif ttype == "additional-mintage" and provider.lower() == "circle":
            families.setdefault((other[0], denom_key(other[1])), []).append(here)
    for root, members in families.items():
        everyone = [root, *members]
        for i, a in enumerate(everyone):
            for b in everyone[i + 1 :]:
                data.links.append(BridgeLink("CCTP", "Circle", a, b, "circle-family"))


def _unwinds_over_ibc(listed: ListedAsset, data: RegistryData) -> bool:
    parts = listed.trace.split("/")
    end = data.ends.get(listed.chain_name, {}).get(parts[1]) if len(parts) >= 2 else None
    return end is not None and end.port == parts[0]
