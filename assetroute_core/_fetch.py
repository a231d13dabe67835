"""Resolve a registry source to a local directory in the Cosmos chain-registry layout.

A *registry source* is one of:

* a **directory** holding ``<chain>/chain.json``, ``<chain>/assetlist.json``,
  ``_non-cosmos/<chain>/…`` and ``_IBC/<a>-<b>.json``, used in place.  The registry may also sit in a
  single sub-directory (a GitHub archive unpacks to ``chain-registry-<sha>/``);
* a local **archive** (``.tar.gz``, ``.tgz``, ``.tar``, ``.zip``), unpacked into the cache;
* an **http(s) URL** of such an archive, downloaded once into the cache, then unpacked;
* a **commit** ``owner/repo@<40 hex digits>`` (``cosmos/chain-registry@627bbab9…``): GitHub's archive of
  that commit, ``https://github.com/<owner>/<repo>/archive/<commit>.tar.gz``, downloaded and cached like
  any URL (``$ASSETROUTE_GITHUB_URL`` replaces ``https://github.com``, e.g. for a mirror).  Only full
  commits are accepted: a short commit, branch or tag names something that can move, and the cache
  keeps a download forever, so those are refused with a :class:`RegistrySourceError`.  A path that
  exists on disk wins over this reading of the same string;
* nothing: the ``ASSETROUTE_REGISTRY`` environment variable if set, else the pinned GitHub archive
  :data:`PINNED_ARCHIVE_URL`.

Cache layout (``cache_dir``, by default :func:`default_cache_dir`)::

    downloads/<sha256 of the URL><ext>     the downloaded archive, keyed by URL: a second resolve
                                           of the same URL makes no request
    extracted/<sha256 of the archive>/     its JSON members, keyed by content: a second resolve of
                                           the same archive unpacks nothing
    .tmp-*                                 work in progress, removed on success and on failure

Work happens in temporary paths inside the cache directory and is moved into place with
:func:`os.replace` only when the whole download and extraction succeeded; on any failure the
temporaries (and any directory this call created) are removed, so the cache is left as it was.

Archives are unpacked by :mod:`assetroute_core._archive`, which refuses unsafe ones (its docstring
lists the rules) with :class:`UnsafeArchiveError`.

Downloads use :mod:`httpx` with ``timeout`` for connecting and for each read, an overall deadline of
``max_seconds`` (``10 × timeout`` unless given) so a server trickling bytes is stopped, and a cap of
``max_download_bytes`` checked against ``Content-Length`` before reading and against the bytes
received while reading.  Every failure is a :class:`FetchError` naming the URL.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Self, TypeAlias
from urllib.parse import urlsplit

import httpx
import platformdirs

from ._archive import ARCHIVE_SUFFIXES, ArchiveLimits, archive_suffix, extract_json
from ._exceptions import (
    FetchError,
    RegistrySourceError,
)

__all__ = [
    "CACHE_ENV_VAR",
    "ENV_VAR",
    "GITHUB_ENV_VAR",
    "PINNED_ARCHIVE_URL",
    "PINNED_COMMIT",
    "ProgressCallback",
    "ResolvedSource",
    "commit_archive_url",
    "default_cache_dir",
    "resolve_source",
]

PINNED_COMMIT = "627bbab9c8e56fa1c4581f85f40d6d028e1c26e8"
"""The chain-registry commit the package is tested against (that of ``../shared/chain-registry``)."""

PINNED_ARCHIVE_URL = f"https://github.com/cosmos/chain-registry/archive/{PINNED_COMMIT}.tar.gz"
"""GitHub's archive of :data:`PINNED_COMMIT`; the source used when none is given."""

ENV_VAR = "ASSETROUTE_REGISTRY"
"""Environment variable naming the registry source used when none is given."""

CACHE_ENV_VAR = "ASSETROUTE_CACHE_DIR"
"""Environment variable overriding :func:`default_cache_dir`."""

GITHUB_ENV_VAR = "ASSETROUTE_GITHUB_URL"
"""Environment variable replacing ``https://github.com`` in the archive URL of a commit source."""

ProgressCallback: TypeAlias = Callable[[int, int | None], None]
"""Called as ``progress(bytes_done, bytes_total)`` while downloading; the total is ``None`` if unknown."""

DEADLINE_FACTOR = 10
"""Without ``max_seconds``, a download may take at most this many times ``timeout`` overall."""

_URL_RE = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
_NAME_COMMIT_RE = re.compile(r"(?:^|[-_.])([0-9a-fA-F]{40})$")
_DOC_COMMIT_RE = re.compile(
    r"\bcommit\b[^\n]*?(?<![0-9a-fA-F])([0-9a-fA-F]{40})(?![0-9a-fA-F])", re.IGNORECASE
)
_COMMIT_DOCS = ("SNAPSHOT.md", "README.md", "README")
_COMMIT_SOURCE_RE = re.compile(r"^([A-Za-z0-9][A-Za-z0-9-]{0,38})/([A-Za-z0-9._-]{1,100})@(.*)$", re.DOTALL)
_FULL_COMMIT_RE = re.compile(r"^[0-9a-fA-F]{40}$")
_CHUNK = 1 << 20


@dataclass(frozen=True)
class ResolvedSource:
    """A registry source resolved to a local directory.

    Attributes:
        root: Absolute path of the directory holding the chain folders and ``_IBC``.
        source: What was asked for, as a string (a path or URL); for the default, the environment
            variable's value or :data:`PINNED_ARCHIVE_URL`.
        kind: ``"directory"`` (used in place), ``"archive"`` (a local archive, unpacked into the
            cache), ``"url"`` (downloaded, then unpacked into the cache) or ``"commit"`` (an
            ``owner/repo@<commit>`` source: GitHub's archive of that commit, as for ``"url"``).
        commit: The chain-registry commit (40 lowercase hex digits) if known: from a
            ``chain-registry-<sha>`` folder, an archive named after the commit, or a ``SNAPSHOT.md``
            / ``README`` line mentioning "commit"; else ``None``.
        archive_sha256: SHA-256 of the archive for ``"archive"`` and ``"url"``, else ``None``.
    """

    root: Path
    source: str
    kind: str
    commit: str | None
    archive_sha256: str | None


def default_cache_dir() -> Path:
    """The cache directory: ``$ASSETROUTE_CACHE_DIR`` if set and non-empty, else the user cache
    directory for ``assetroute`` (``platformdirs.user_cache_dir``, e.g. ``~/.cache/assetroute``)."""
    override = os.environ.get(CACHE_ENV_VAR, "").strip()
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_cache_dir("assetroute", appauthor=False))


def resolve_source(
    source: str | os.PathLike[str] | None = None,
    *,
    cache_dir: Path | None = None,
    progress: ProgressCallback | None = None,
    timeout: float = 30.0,
    max_seconds: float | None = None,
    max_download_bytes: int = 1024 * 2**20,
    max_member_bytes: int = 20 * 2**20,
    max_members: int = 200_000,
    transport: httpx.BaseTransport | None = None,
) -> ResolvedSource:
    """Resolve ``source`` to a local directory in the chain-registry layout.

    Args:
        source: A directory, a ``.tar.gz``/``.tgz``/``.tar``/``.zip`` file, an http(s) URL of one, or a
            commit ``owner/repo@<40-hex commit>`` (GitHub's archive of that commit).
            ``None`` means ``$ASSETROUTE_REGISTRY`` if set and non-empty, else :data:`PINNED_ARCHIVE_URL`.
            A :class:`os.PathLike` is always a path, never a URL.
        cache_dir: Where archives are downloaded and unpacked; default :func:`default_cache_dir`.
            Not touched for a directory source.
        progress: Called with ``(bytes_done, bytes_total_or_None)`` as download chunks arrive.  If
            ``None`` and stderr is a terminal, a progress line is drawn on stderr; otherwise silent.
        timeout: Seconds allowed to connect and for each read of a download.
        max_seconds: Overall seconds allowed for one download; default ``10 × timeout``.
        max_download_bytes: Largest download accepted.
        max_member_bytes: Largest archive member accepted (see the module docs for the totals).
        max_members: Most archive members accepted (all members count, extracted or not).
        transport: An :mod:`httpx` transport to use instead of the default one.

    Returns:
        The resolved source.

    Raises:
        RegistrySourceError: The source does not exist, is not a directory, archive or http(s) URL,
            holds no registry layout, or cannot be read or unpacked.
        FetchError: Downloading failed (HTTP status, connection, timeout, deadline, size cap,
            truncated body).
        UnsafeArchiveError: The archive holds an unsafe or oversized member, or too many members.
        ValueError: A numeric option is not positive.
    """
    limits = _Limits(
        timeout=timeout,
        max_seconds=DEADLINE_FACTOR * timeout if max_seconds is None else max_seconds,
        max_download_bytes=max_download_bytes,
        max_member_bytes=max_member_bytes,
        max_members=max_members,
    )
    if source is None:
        source = os.environ.get(ENV_VAR, "").strip() or PINNED_ARCHIVE_URL
    text = os.fspath(source)
    if not text:
        raise RegistrySourceError(
            "empty registry source: give a directory, an archive or an http(s) URL"
        )
    cache = Path(cache_dir) if cache_dir is not None else default_cache_dir()

    url = _URL_RE.match(text) if isinstance(source, str) else None
    if url is not None:
        if url.group(1).lower() not in ("http", "https"):
            raise RegistrySourceError(
                f"unsupported registry source {text!r}: only http(s) URLs, directories and archives are accepted"
            )
        return _resolve_url(text, cache, limits, progress, transport)

    path = Path(text).expanduser()
    if isinstance(source, str) and not path.exists():
        commit_url = commit_archive_url(text)
        if commit_url is not None:
            return _resolve_commit(text, commit_url, cache, limits, progress, transport)
    if path.is_dir():
        root = _find_root(path, text)
        commit = _detect_commit(root, names=(), doc_dirs=(root, path))
        return ResolvedSource(root.resolve(), text, "directory", commit, None)
    if path.is_file():
        if archive_suffix(path.name) is None:
            raise RegistrySourceError(
                f"registry source {text!r} is a file but not a {', '.join(ARCHIVE_SUFFIXES)} archive"
            )
        return _resolve_archive(path, text, cache, limits)
    if path.exists():
        raise RegistrySourceError(
            f"registry source {text!r} is neither a directory nor a regular file"
        )
    raise RegistrySourceError(f"registry source {text!r} does not exist")


def commit_archive_url(text: str) -> tuple[str, str] | None:
    """``(archive URL, commit)`` of a commit source ``owner/repo@<commit>``; ``None`` for other strings.

    >>> commit_archive_url("cosmos/chain-registry@" + "ab" * 20)[0]
    'https://github.com/cosmos/chain-registry/archive/abababababababababababababababababababab.tar.gz'
    >>> commit_archive_url("cosmos/chain-registry@627bbab")
    Traceback (most recent call last):
    ...
    assetroute_core._exceptions.RegistrySourceError: commit '627bbab' in registry source ... is not a full commit...

    Raises:
        RegistrySourceError: The string has the form but the part after ``@`` is not 40 hex digits.
    """
    match = _COMMIT_SOURCE_RE.match(text.strip())
    if match is None:
        return None
    owner, repo, commit = match.groups()
    if not _FULL_COMMIT_RE.match(commit):
        shown = commit if len(commit) <= 60 else commit[:57] + "..."
        raise RegistrySourceError(
            f"commit {shown!r} in registry source {text[:120]!r} is not a full commit: give all 40 hex "
            "digits (a short commit, branch or tag can move, and a downloaded archive is cached for good)"
        )
    base = os.environ.get(GITHUB_ENV_VAR, "").strip().rstrip("/") or "https://github.com"
    commit = commit.lower()
    return f"{base}/{owner}/{repo}/archive/{commit}.tar.gz", commit


def _resolve_commit(
    text: str,
    commit_url: tuple[str, str],
    cache: Path,
    limits: _Limits,
    progress: ProgressCallback | None,
    transport: httpx.BaseTransport | None,
) -> ResolvedSource:
    url, commit = commit_url
    try:
        resolved = _resolve_url(url, cache, limits, progress, transport)
    except FetchError as exc:
        raise FetchError(f"registry source {text!r}: {exc}") from exc
    if resolved.commit is not None and resolved.commit != commit:
        raise RegistrySourceError(
            f"registry source {text!r}: the archive downloaded from {url} holds commit {resolved.commit}"
        )
    return ResolvedSource(resolved.root, text, "commit", commit, resolved.archive_sha256)


@dataclass(frozen=True)
class _Limits:
    timeout: float
    max_seconds: float
    max_download_bytes: int
    max_member_bytes: int
    max_members: int

    def __post_init__(self) -> None:
        for name in (
            "timeout",
            "max_seconds",
            "max_download_bytes",
            "max_member_bytes",
            "max_members",
        ):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)!r}")

    @property
    def archive(self) -> ArchiveLimits:
        """The limits that apply to unpacking."""
        return ArchiveLimits(max_member_bytes=self.max_member_bytes, max_members=self.max_members)


def _resolve_archive(path: Path, text: str, cache: Path, limits: _Limits) -> ResolvedSource:
    sha = _sha256_file(path)
    with _Staging(cache) as staging:
        extracted = _extract_into_cache(staging, path, sha, cache, limits, text)
    root = _find_root(extracted, text)
    commit = _detect_commit(root, names=(path.name,), doc_dirs=(root,))
    return ResolvedSource(root.resolve(), text, "archive", commit, sha)


def _resolve_url(
    url: str,
    cache: Path,
    limits: _Limits,
    progress: ProgressCallback | None,
    transport: httpx.BaseTransport | None,
) -> ResolvedSource:
    url_path = urlsplit(url).path
    suffix = archive_suffix(url_path)
    if suffix is None:
        raise RegistrySourceError(
            f"registry URL {url!r} does not name a {', '.join(ARCHIVE_SUFFIXES)} archive"
        )
    download = cache / "downloads" / f"{hashlib.sha256(url.encode()).hexdigest()}{suffix}"
    with _Staging(cache) as staging:
        if download.is_file():
            archive, sha = download, _sha256_file(download)
        else:
            archive = staging.make_file(suffix)
            sha = _download(url, archive, limits, progress, transport)
        extracted = _extract_into_cache(staging, archive, sha, cache, limits, url)
        if archive != download:
            staging.commit(archive, download)
    root = _find_root(extracted, url)
    commit = _detect_commit(root, names=(url_path.rsplit("/", 1)[-1],), doc_dirs=(root,))
    return ResolvedSource(root.resolve(), url, "url", commit, sha)


def _extract_into_cache(
    staging: _Staging, archive: Path, sha: str, cache: Path, limits: _Limits, label: str
) -> Path:
    """``extracted/<sha>`` in the cache, unpacking ``archive`` there first unless it already is."""
    final = cache / "extracted" / sha
    if not final.is_dir():
        work = staging.make_dir()
        extract_json(archive, work, limits.archive, label)
        _find_root(work, label)  # refuse an archive without a registry before it reaches the cache
        staging.commit(work, final)
    return final


# --- the registry layout -------------------------------------------------------------------------


def _has_layout(path: Path) -> bool:
    return (path / "_IBC").is_dir() or any(True for _ in path.glob("*/chain.json"))


def _find_root(path: Path, label: str) -> Path:
    """``path`` if it holds a registry, else its single sub-directory that does."""
    try:
        if _has_layout(path):
            return path
        found = sorted(sub for sub in path.iterdir() if sub.is_dir() and _has_layout(sub))
    except OSError as exc:
        raise RegistrySourceError(f"cannot read registry source {label!r}: {exc}") from exc
    if len(found) == 1:
        return found[0]
    if found:
        names = ", ".join(sub.name for sub in found)
        raise RegistrySourceError(
            f"registry source {label!r} holds more than one registry: {names}"
        )
    raise RegistrySourceError(
        f"registry source {label!r} has no chain-registry layout (no _IBC folder, no <chain>/chain.json)"
    )


def _detect_commit(root: Path, *, names: Iterable[str], doc_dirs: Iterable[Path]) -> str | None:
    """The commit named by the root folder, an archive name, or a SNAPSHOT.md/README line."""
    for name in (root.name, *names):
        suffix = archive_suffix(name)
        match = _NAME_COMMIT_RE.search(name[: -len(suffix)] if suffix else name)
        if match:
            return match.group(1).lower()
    for folder in dict.fromkeys(doc_dirs):
        for doc in _COMMIT_DOCS:
            try:
                with (folder / doc).open(encoding="utf-8", errors="replace") as fh:
                    match = _DOC_COMMIT_RE.search(fh.read(64 * 1024))
            except OSError:
                continue
            if match:
                return match.group(1).lower()
    return None


def _sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    try:
        with path.open("rb") as fh:
            while chunk := fh.read(_CHUNK):
                digest.update(chunk)
    except OSError as exc:
        raise RegistrySourceError(f"cannot read archive {str(path)!r}: {exc}") from exc
    return digest.hexdigest()


# --- the cache transaction -----------------------------------------------------------------------


class _Staging:
    """Temporary paths inside the cache, moved into place by :meth:`commit`.

    On leaving, temporaries are removed; on leaving with an exception, what this transaction
    committed and the directories it created are removed too, so the cache is as it was.
    """

    def __init__(self, cache: Path) -> None:
        self._cache = cache
        self._created: list[Path] = []
        self._temps: list[Path] = []
        self._committed: list[Path] = []

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        for path in self._temps:
            _remove(path)
        if exc_type is not None:
            for path in reversed(self._committed):
                _remove(path)
            for folder in reversed(self._created):
                with contextlib.suppress(OSError):
                    folder.rmdir()  # only if empty: never remove what others put there

    def make_dir(self) -> Path:
        """A new empty temporary directory in the cache."""
        self._makedirs(self._cache)
        try:
            path = Path(tempfile.mkdtemp(prefix=".tmp-", dir=self._cache))
        except OSError as exc:
            raise RegistrySourceError(
                f"cannot write to cache directory {str(self._cache)!r}: {exc}"
            ) from exc
        self._temps.append(path)
        return path

    def make_file(self, suffix: str) -> Path:
        """A new empty temporary file in the cache."""
        self._makedirs(self._cache)
        try:
            fd, name = tempfile.mkstemp(prefix=".tmp-", suffix=suffix, dir=self._cache)
        except OSError as exc:
            raise RegistrySourceError(
                f"cannot write to cache directory {str(self._cache)!r}: {exc}"
            ) from exc
        os.close(fd)
        self._temps.append(Path(name))
        return Path(name)

    def commit(self, temp: Path, final: Path) -> None:
        """Move ``temp`` to ``final`` atomically (a concurrent resolve may have put it there first)."""
        self._makedirs(final.parent)
        try:
            os.replace(temp, final)
        except OSError as exc:
            if temp.is_dir() and final.is_dir():
                return  # same content, committed by someone else; ``temp`` is removed on exit
            raise RegistrySourceError(
                f"cannot write to cache directory {str(self._cache)!r}: {exc}"
            ) from exc
        self._temps.remove(temp)
        self._committed.append(final)

    def _makedirs(self, folder: Path) -> None:
        missing: list[Path] = []
        probe = folder
        while not probe.exists() and probe.parent != probe:
            missing.append(probe)
            probe = probe.parent
        for path in reversed(missing):
            try:
                path.mkdir()
            except FileExistsError:
                continue
            except OSError as exc:
                raise RegistrySourceError(
                    f"cannot create cache directory {str(path)!r}: {exc}"
                ) from exc
            self._created.append(path)
        if not folder.is_dir():
            raise RegistrySourceError(f"cache path {str(folder)!r} is not a directory")


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


# --- downloading ---------------------------------------------------------------------------------


def _download(
    url: str,
    target: Path,
    limits: _Limits,
    progress: ProgressCallback | None,
    transport: httpx.BaseTransport | None,
) -> str:
    """Stream ``url`` into ``target``; return the SHA-256 of the bytes written."""
    deadline = time.monotonic() + limits.max_seconds
    cap = limits.max_download_bytes
    digest = hashlib.sha256()
    expected: int | None = None
    received = 0
    terminal = _StderrProgress(url) if progress is None and sys.stderr.isatty() else None
    report = progress if progress is not None else terminal
    try:
        with (
            httpx.Client(
                transport=transport,
                timeout=httpx.Timeout(limits.timeout),
                headers={"Accept-Encoding": "identity", "User-Agent": "assetroute"},
            ) as client,
            client.stream("GET", url, follow_redirects=True) as response,
        ):
            if not response.is_success:
                raise FetchError(f"HTTP {response.status_code} {response.reason_phrase} from {url}")
            expected = _content_length(response)
            if expected is not None and expected > cap:
                raise FetchError(
                    f"download of {url} refused: Content-Length {expected} exceeds the cap of {cap} bytes"
                )
            encoded = response.headers.get("Content-Encoding", "identity").lower() not in (
                "",
                "identity",
            )
            total = None if encoded else expected
            done = 0
            with target.open("wb") as out:
                for chunk in response.iter_bytes():
                    done += len(chunk)
                    # bytes as sent, to compare with Content-Length (httpx's own counter stays 0
                    # for a body a transport hands over already loaded)
                    received = response.num_bytes_downloaded if encoded else done
                    if done > cap:
                        raise FetchError(
                            f"download of {url} stopped: more than the cap of {cap} bytes"
                        )
                    if time.monotonic() > deadline:
                        raise FetchError(
                            f"download of {url} stopped: not finished within {limits.max_seconds:g} s"
                        )
                    out.write(chunk)
                    digest.update(chunk)
                    if report is not None:
                        report(done, total)
            received = response.num_bytes_downloaded if encoded else done
            if expected is not None and received < expected:
                raise FetchError(
                    f"download of {url} truncated: received {received} of {expected} bytes"
                )
    except httpx.TimeoutException as exc:
        raise FetchError(
            f"download of {url} timed out (timeout {limits.timeout:g} s): {exc!r}"
        ) from exc
    except httpx.HTTPError as exc:
        if expected is not None and received < expected:
            raise FetchError(
                f"download of {url} truncated: received {received} of {expected} bytes"
            ) from exc
        raise FetchError(f"cannot fetch {url}: {exc}") from exc
    except httpx.InvalidURL as exc:
        raise FetchError(f"cannot fetch {url}: invalid URL: {exc}") from exc
    except OSError as exc:
        raise RegistrySourceError(
            f"cannot write download of {url} to {str(target)!r}: {exc}"
        ) from exc
    finally:
        if terminal is not None:
            terminal.finish()
    return digest.hexdigest()


def _content_length(response: httpx.Response) -> int | None:
    try:
        value = int(response.headers["Content-Length"])
    except (KeyError, ValueError):
        return None
    return value if value >= 0 else None


class _StderrProgress:
    """A one-line download progress display on stderr, redrawn at most ten times a second."""

    def __init__(self, url: str) -> None:
        self._label = url.rstrip("/").rsplit("/", 1)[-1] or url
        self._last = 0.0
        self._drawn = False

    def __call__(self, done: int, total: int | None) -> None:
        now = time.monotonic()
        if self._drawn and now - self._last < 0.1 and done != total:
            return
        self._last, self._drawn = now, True
        size = f"{done / 2**20:.1f} MiB"
        if total:
            size += f" of {total / 2**20:.1f} MiB ({100 * done // total}%)"
        sys.stderr.write(f"\rassetroute: downloading {self._label}: {size}")
        sys.stderr.flush()

    def finish(self) -> None:
        """End the progress line."""
        if self._drawn:
            sys.stderr.write("\n")
            sys.stderr.flush()
