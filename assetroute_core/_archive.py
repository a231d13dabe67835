"""Unpacking registry archives (``.tar.gz``, ``.tgz``, ``.tar``, ``.zip``) safely.

Archive safety.  Only members whose name ends in ``.json`` are written; nothing else is.  The archive
is refused with :class:`UnsafeArchiveError`, naming the member, when any member

* has an absolute path (``/x``, ``\\x``, ``C:x``) or a ``..`` component;
* is named ``*.json`` but is a symlink, hard link, device file, FIFO or another non-regular type
  (for zip: a Unix mode that says so); such members with other names are skipped, never written;
* is the ``max_members + 1``-th member;
* declares more than ``max_member_bytes``, or, for an extracted member, yields more than that when
  read (a lying header);
* brings the JSON extracted so far over ``10 × max_member_bytes`` (200 MiB by default; the whole
  registry's JSON is about 10 MB), or the declared size of all members together over
  ``100 × max_member_bytes`` (2 GiB by default), which bounds the decompression work for the
  members that are skipped.

Decisions made here: only JSON is ever written (a registry needs nothing else), every limit is
checked while reading rather than trusted from headers, and a breach refuses the whole archive
(nothing half-extracted is used: :mod:`assetroute_core._fetch` unpacks into a temporary directory
and moves it into the cache only on success).

>>> archive_suffix("chain-registry-627bbab.TAR.GZ"), archive_suffix("registry.7z")
('.tar.gz', None)
"""

from __future__ import annotations

import re
import stat
import tarfile
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from ._exceptions import RegistrySourceError, UnsafeArchiveError

__all__ = [
    "ARCHIVE_SUFFIXES",
    "EXTRACTED_BYTES_FACTOR",
    "UNPACKED_BYTES_FACTOR",
    "ArchiveLimits",
    "archive_suffix",
    "extract_json",
]

EXTRACTED_BYTES_FACTOR = 10
"""The JSON extracted from one archive may total at most this many times ``max_member_bytes``."""

UNPACKED_BYTES_FACTOR = 100
"""All members of one archive may declare at most this many times ``max_member_bytes`` together."""

ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".tar", ".zip")
"""The archive formats a registry source may be (by file name, case-insensitive)."""

_DRIVE_RE = re.compile(r"^[A-Za-z]:")
_CHUNK = 1 << 20


@dataclass(frozen=True)
class ArchiveLimits:
    """How much one archive may hold: bytes per member (declared and read) and members."""

    max_member_bytes: int
    max_members: int

    def __post_init__(self) -> None:
        for name in ("max_member_bytes", "max_members"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)!r}")


def archive_suffix(name: str) -> str | None:
    """The archive suffix *name* ends with (lower case), or ``None``."""
    lower = name.lower()
    return next((suffix for suffix in ARCHIVE_SUFFIXES if lower.endswith(suffix)), None)


def extract_json(archive: Path, dest: Path, limits: ArchiveLimits, label: str) -> None:
    """Write the JSON members of ``archive`` under ``dest``, refusing unsafe archives.

    A truncated or corrupt archive is a :class:`RegistrySourceError`: ``tarfile`` raises when
    member data runs past the end of the file, ``gzip`` when the stream ends early, ``zipfile``
    on a bad central directory or CRC.
    """
    budget = _Budget(limits, label)
    try:
        with archive.open("rb") as fh:
            is_zip = fh.read(2) == b"PK"
        if is_zip:
            _extract_zip(archive, dest, budget)
        else:
            _extract_tar(archive, dest, budget)
    # OSError covers I/O and bad gzip data; RuntimeError and NotImplementedError cover encrypted
    # zip entries and unsupported compression methods.
    except (
        tarfile.TarError,
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        EOFError,
        zlib.error,
        OSError,
        RuntimeError,
        NotImplementedError,
    ) as exc:
        raise RegistrySourceError(f"cannot unpack archive {label!r}: {exc}") from exc


def _extract_tar(archive: Path, dest: Path, budget: _Budget) -> None:
    with tarfile.open(archive, mode="r:*") as tar:
        for member in tar:
            parts = budget.admit(member.name, _tar_kind(member), member.size)
            if parts is None:
                continue
            source = tar.extractfile(member)
            if source is None:  # not reached: admit() passes regular files only
                raise RegistrySourceError(
                    f"cannot read member {member.name!r} of archive {budget.label!r}"
                )
            with source:
                budget.write(source, dest, parts, member.name)


def _tar_kind(member: tarfile.TarInfo) -> str:
    if member.isreg():
        return "file"
    if member.isdir():
        return "dir"
    if member.issym():
        return "symlink"
    if member.islnk():
        return "hard link"
    if member.ischr() or member.isblk():
        return "device file"
    if member.isfifo():
        return "FIFO"
    return f"member of unsupported type {member.type!r}"


def _extract_zip(archive: Path, dest: Path, budget: _Budget) -> None:
    with zipfile.ZipFile(archive) as bundle:
        for info in bundle.infolist():
            parts = budget.admit(info.filename, _zip_kind(info), info.file_size)
            if parts is None:
                continue
            with bundle.open(info) as source:
                budget.write(source, dest, parts, info.filename)


def _zip_kind(info: zipfile.ZipInfo) -> str:
    kind = stat.S_IFMT(info.external_attr >> 16)
    if kind == stat.S_IFLNK:
        return "symlink"
    if kind in (stat.S_IFCHR, stat.S_IFBLK):
        return "device file"
    if kind in (stat.S_IFIFO, stat.S_IFSOCK):
        return "FIFO or socket"
    return "dir" if info.is_dir() else "file"


class _Budget:
    """Checks the members of one archive against the limits; raises on the first breach."""

    def __init__(self, limits: ArchiveLimits, label: str) -> None:
        self.limits = limits
        self.label = label
        self.members = 0
        self.declared = 0
        self.extracted = 0

    def _refuse(self, name: str, why: str) -> UnsafeArchiveError:
        return UnsafeArchiveError(f"unsafe member {name!r} in archive {self.label!r}: {why}")

    def admit(self, name: str, kind: str, declared: int) -> list[str] | None:
        """Check one member; return its path parts if it is to be extracted, ``None`` to skip it."""
        limits = self.limits
        self.members += 1
        if self.members > limits.max_members:
            raise self._refuse(name, f"more than {limits.max_members} members")
        if name.startswith(("/", "\\")) or _DRIVE_RE.match(name):
            raise self._refuse(name, "absolute path")
        parts = [part for part in re.split(r"[/\\]", name) if part not in ("", ".")]
        if ".." in parts:
            raise self._refuse(name, "'..' in path")
        if kind == "dir":
            return None
        if kind != "file":
            if name.lower().endswith(".json"):
                raise self._refuse(name, f"is a {kind}")
            return None  # never extracted: a link among the images of a real registry is harmless
        if declared > limits.max_member_bytes:
            raise self._refuse(
                name, f"declares {declared} bytes, more than {limits.max_member_bytes}"
            )
        self.declared += declared
        if self.declared > UNPACKED_BYTES_FACTOR * limits.max_member_bytes:
            raise self._refuse(
                name,
                f"members declare more than {UNPACKED_BYTES_FACTOR * limits.max_member_bytes} bytes in all",
            )
        if not parts or not parts[-1].lower().endswith(".json"):
            return None
        return parts

    def write(self, source: IO[bytes], dest: Path, parts: list[str], name: str) -> None:
        """Copy an admitted member to ``dest/<parts>``, counting the bytes actually read."""
        target = dest.joinpath(*parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("wb") as out:
            written = _copy_limited(
                source, out, self.limits.max_member_bytes, lambda why: self._refuse(name, why)
            )
        self.extracted += written
        cap = EXTRACTED_BYTES_FACTOR * self.limits.max_member_bytes
        if self.extracted > cap:
            raise self._refuse(name, f"extracted JSON exceeds {cap} bytes in all")


def _copy_limited(
    source: IO[bytes], out: IO[bytes], limit: int, refuse: Callable[[str], UnsafeArchiveError]
) -> int:
    """Copy ``source`` to ``out``; raise ``refuse(...)`` as soon as more than ``limit`` bytes arrive."""
    written = 0
    while chunk := source.read(min(_CHUNK, limit + 1 - written)):
        written += len(chunk)
        if written > limit:
            raise refuse(f"yields more than {limit} bytes when read")
        out.write(chunk)
    return written
