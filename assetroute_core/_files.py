"""Reading a registry directory without leaving its root, and decoding its JSON defensively.

Decisions made here.  The file system is not trusted: plain files and folders are used as they are (their
parent is already inside the root); a symbolic link is followed only when it resolves inside the resolved
root; loops, dangling links, FIFOs, sockets, devices and anything the process may not list or read are each
one error-level issue naming the entry (never its target), and skipped.  ``testnets/`` is another world
(:data:`SKIPPED_FOLDERS`).  Files over :data:`MAX_FILE_BYTES` are not read.  Decoding never raises:
byte-order marks, UTF-16/32, invalid UTF-8, lone surrogate escapes, duplicate keys, integers over
:data:`MAX_NUMBER_DIGITS` digits and nesting too deep are repaired or skipped, and reported.

>>> from ._data import RegistryData
>>> data = RegistryData(root="r")
>>> _parse('{"a": 1, "a": 2}', "x.json", data), [q.problem for q in data.quality]
({'a': 2}, ["duplicate key(s) 'a' in one object"])
"""

from __future__ import annotations

import codecs
import errno
import hashlib
import json
import os
import re
import stat
from typing import Any

from ._data import RegistryData
from ._values import CONTROL_CHARS

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_NUMBER_DIGITS",
    "SKIPPED_FOLDERS",
    "chain_folders",
    "folder_files",
    "listing",
    "os_error",
    "read_json",
    "resolve_entry",
    "shown",
]

MAX_FILE_BYTES = 32 * 1024 * 1024  # larger files are not read (the largest real one is well under 1 MB)
MAX_NUMBER_DIGITS = 64  # longer JSON integers are kept as text (int() of > 4300 digits raises)
SKIPPED_FOLDERS = ("testnets",)  # top-level folders that are not chain folders (testnets are another world)
# A JSON \u escape of a surrogate that is not itself escaped: a valid pair is kept, a lone one replaced.
_SURROGATE_ESCAPE = re.compile(
    r"(?<!\\)((?:\\\\)*)(\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u[dD][89a-fA-F][0-9a-fA-F]{2})"
)


def _decode(raw: bytes, rel: str, data: RegistryData) -> str:
    """The text of a JSON file: UTF-8 as the registry writes it, anything else repaired and reported."""
    if raw.startswith(codecs.BOM_UTF8):
        data.issue(rel, "file starts with a UTF-8 byte-order mark", "mark ignored")
        raw = raw[len(codecs.BOM_UTF8):]
    else:
        encoding = json.detect_encoding(raw)
        if encoding.startswith(("utf-16", "utf-32")):
            data.issue(rel, f"file is {encoding.upper()}, not UTF-8", "decoded")
            return raw.decode(encoding, errors="replace").lstrip("\ufeff")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        data.issue(rel, f"invalid UTF-8 at byte {exc.start}", "invalid bytes replaced with U+FFFD")
        return raw.decode("utf-8", errors="replace")


def _parse(text: str, rel: str, data: RegistryData) -> Any:
    """``json.loads`` that reports duplicate keys, lone surrogates and huge numbers, and never raises."""
    lone = 0

    def fix_surrogate(m: re.Match[str]) -> str:
        nonlocal lone
        if len(m.group(2)) == 12:  # a valid pair
            return m.group(0)
        lone += 1
        return m.group(1) + "\\ufffd"

    if "\\u" in text:
        text = _SURROGATE_ESCAPE.sub(fix_surrogate, text)
    duplicates: list[str] = []
    huge: list[int] = []

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(pairs)
        if len(obj) != len(pairs) and len(duplicates) < 3:
            seen: set[str] = set()
            for k, _ in pairs:
                if k in seen:
                    duplicates.append(k)
                seen.add(k)
        return obj

    def parse_int(digits: str) -> int | str:
        if len(digits) > MAX_NUMBER_DIGITS:
            huge.append(len(digits))
            return digits
        return int(digits)

    try:
        doc = json.loads(text, strict=False, object_pairs_hook=pairs_hook, parse_int=parse_int)
    except RecursionError:
        data.issue(rel, "invalid JSON: nested too deeply", "file skipped")
        return None
    except ValueError as exc:
        data.issue(rel, f"invalid JSON: {str(exc)[:200]}", "file skipped")
        return None
    if lone:
        data.issue(rel, f"{lone} lone UTF-16 surrogate escape(s) (invalid Unicode)", "replaced with U+FFFD")
    if duplicates:
        data.issue(rel, f"duplicate key(s) {', '.join(repr(k[:40]) for k in duplicates[:3])} in one object",
                   "the last value is used")
    if huge:
        data.issue(rel, f"a number with {max(huge)} digits", "kept as text")
    return doc


def os_error(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


def read_json(path: str, rel: str, data: RegistryData, digest: Any) -> Any:
    """The parsed JSON of a regular file (already resolved inside the root), or ``None`` (reported)."""
    try:
        # O_NONBLOCK: should the file have become a FIFO since it was checked, opening it must not hang.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        with open(fd, "rb") as f:
            st = os.fstat(f.fileno())
            if not stat.S_ISREG(st.st_mode):
                data.issue(rel, "not a regular file", "file skipped", severity="error", kind="not-a-file")
                return None
            if st.st_size > MAX_FILE_BYTES:
                data.issue(rel, f"file is {st.st_size} bytes (limit {MAX_FILE_BYTES})", "file skipped")
                return None
            raw = f.read(st.st_size + 1)  # one byte more than it should hold: a growing file is noticed
    except OSError as exc:
        data.issue(rel, f"unreadable: {os_error(exc)}", "file skipped", severity="error", kind="unreadable")
        return None
    if len(raw) > st.st_size:
        data.issue(rel, "file grew while being read", "file skipped", severity="error", kind="unreadable")
        return None
    digest.update(rel.encode() + b"\0" + hashlib.sha256(raw).digest())
    data.files += 1
    text = _decode(raw, rel, data)
    if not text.strip():
        data.issue(rel, "empty file", "file skipped")
        return None
    return _parse(text, rel, data)


# -- the file system --------------------------------------------------------------------------
#
# A directory source is walked without ever leaving its root. Plain files and folders are used as
# they are (their parent is already inside the root). A symbolic link is followed only when it
# resolves inside the resolved root: a link out of the root (``leak/chain.json`` -> a file elsewhere,
# ``_IBC`` -> ``/``), a loop, a dangling link, a FIFO, socket or device, and anything the process may
# not list or read are each one error-level issue naming the entry (never its target), and skipped.


def shown(rel: str) -> str:
    """*rel* as the report can carry it: undecodable file-name bytes become U+FFFD."""
    return rel.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root if root.endswith(os.sep) else root + os.sep)


def listing(path: str, rel: str, data: RegistryData) -> list[os.DirEntry[str]]:
    """The entries of a folder sorted by name; none (reported) when it cannot be listed."""
    try:
        with os.scandir(path) as entries:
            return sorted(entries, key=lambda e: e.name)
    except OSError as exc:
        data.issue(shown(rel), f"unreadable folder: {os_error(exc)}", "folder skipped", severity="error",
                   kind="unreadable")
        return []


def resolve_entry(entry: os.DirEntry[str], rel: str, root: str, data: RegistryData) -> tuple[str, bool] | None:
    """(resolved path, is a folder) of a folder entry; ``None`` (reported) when it must not be read."""
    name = shown(rel)
    try:
        if not entry.is_symlink():
            if entry.is_dir(follow_symlinks=False):
                return entry.path, True
            if entry.is_file(follow_symlinks=False):
                return entry.path, False
            mode = entry.stat(follow_symlinks=False).st_mode
            real = entry.path
        else:
            try:
                real = os.path.realpath(entry.path, strict=True)
            except OSError as exc:
                if exc.errno == errno.ELOOP:
                    problem, kind = "symbolic link loop", "symlink-loop"
                elif exc.errno in (errno.ENOENT, errno.ENOTDIR):
                    problem, kind = "dangling symbolic link (its target does not exist)", "dangling-symlink"
                else:
                    problem, kind = f"unreadable: {os_error(exc)}", "unreadable"
                data.issue(name, problem, "skipped", severity="error", kind=kind)
                return None
            if not _inside(real, root):
                data.issue(name, "symbolic link to a path outside the registry", "skipped: never read",
                           severity="error", kind="symlink-outside-root")
                return None
            mode = os.stat(real).st_mode
    except OSError as exc:
        data.issue(name, f"unreadable: {os_error(exc)}", "skipped", severity="error", kind="unreadable")
        return None
    if stat.S_ISDIR(mode):
        return real, True
    if stat.S_ISREG(mode):
        return real, False
    data.issue(name, "neither a regular file nor a folder (a FIFO, socket or device)", "skipped: never read",
               severity="error", kind="not-a-file")
    return None


def chain_folders(root: str, data: RegistryData) -> tuple[list[tuple[str, str, str]], str | None]:
    """(folder name, resolved path, relative path) of every chain folder, cosmos then non-cosmos,
    and the resolved ``_IBC`` folder. ``testnets/`` is another world (SPEC §1): never read here.
    """
    folders: list[tuple[str, str, str]] = []
    special: dict[str, str] = {}
    top = listing(root, ".", data)
    for entry in top:
        name = entry.name
        if name in ("_IBC", "_non-cosmos"):
            resolved = resolve_entry(entry, name, root, data)
            if resolved is not None and resolved[1]:
                special[name] = resolved[0]
            elif resolved is not None:
                data.issue(name, "is a file, not a folder", "skipped")
            continue
        if name.startswith((".", "_")) or name in SKIPPED_FOLDERS:
            continue
        resolved = resolve_entry(entry, name, root, data)
        if resolved is not None and resolved[1]:
            folders.append((name, resolved[0], name))
    if "_non-cosmos" in special:
        for entry in listing(special["_non-cosmos"], "_non-cosmos", data):
            if not entry.name.startswith((".", "_")):
                rel = "_non-cosmos/" + entry.name
                resolved = resolve_entry(entry, rel, root, data)
                if resolved is not None and resolved[1]:
                    folders.append((entry.name, resolved[0], rel))
    good = []
    for name, path, rel in folders:
        if shown(name) != name or CONTROL_CHARS.search(name):
            data.issue(shown(rel), "folder name is not valid UTF-8 text or holds control characters",
                       "folder skipped")
        else:
            good.append((name, path, rel))
    return good, special.get("_IBC")


def folder_files(path: str, rel: str, root: str, data: RegistryData) -> dict[str, str]:
    """Resolved paths of a chain folder's ``chain.json`` and ``assetlist.json`` (those that can be read)."""
    out = {}
    for entry in listing(path, rel, data):
        if entry.name in ("chain.json", "assetlist.json"):
            resolved = resolve_entry(entry, f"{rel}/{entry.name}", root, data)
            if resolved is not None and resolved[1]:
                data.issue(f"{rel}/{entry.name}", "is a folder, not a file", "skipped")
            elif resolved is not None:
                out[entry.name] = resolved[0]
    return out
