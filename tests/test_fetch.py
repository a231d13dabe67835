"""Tests of registry-source resolution: directories, archives, and downloads from a real HTTP server.

Archives are built here from a few JSON files; downloads go to a ThreadingHTTPServer on 127.0.0.1
serving those bytes. The real snapshot (``$ASSETROUTE_REGISTRY`` or ``../shared/chain-registry``)
is resolved in place; the test fails, not skips, when it is missing.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import re
import shutil
import stat
import sys
import tarfile
import threading
import time
import zipfile
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import platformdirs
import pytest

from assetroute_core import _archive, _fetch
from assetroute_core._exceptions import FetchError, RegistrySourceError, UnsafeArchiveError
from assetroute_core._fetch import (
    CACHE_ENV_VAR,
    ENV_VAR,
    PINNED_ARCHIVE_URL,
    PINNED_COMMIT,
    default_cache_dir,
    resolve_source,
)

REPO = Path(__file__).resolve().parents[1]
SHA = "0123456789abcdef0123456789abcdef01234567"  # a made-up commit for built archives
TOP = f"chain-registry-{SHA}"
FILES = {
    "osmosis/chain.json": b'{"chain_name": "osmosis", "chain_id": "osmosis-1"}',
    "osmosis/assetlist.json": b'{"chain_name": "osmosis", "assets": []}',
    "cosmoshub/chain.json": b'{"chain_name": "cosmoshub", "chain_id": "cosmoshub-4"}',
    "_non-cosmos/ethereum/assetlist.json": b'{"chain_name": "ethereum", "assets": []}',
    "_IBC/cosmoshub-osmosis.json": b'{"chain_1": {"chain_name": "cosmoshub"}}',
}
EXTRA = {"README.md": b"# not json\n", "osmosis/images/osmo.png": b"\x89PNG\r\n\x1a\n"}


def snapshot_path() -> Path:
    value = os.environ.get(ENV_VAR, "").strip()
    return Path(value) if value else REPO.parent / "shared" / "chain-registry"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def tree(root: Path) -> list[str] | None:
    """Every path under ``root`` with its size, or None if ``root`` does not exist."""
    if not root.exists():
        return None
    return sorted(
        f"{p.relative_to(root).as_posix()}{'/' if p.is_dir() else f' {p.stat().st_size}'}"
        for p in root.rglob("*")
    )


def json_files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def tar_bytes(
    members: dict[str, bytes],
    *,
    top: str = TOP,
    mode: str = "w:gz",
    hostile: tarfile.TarInfo | None = None,
) -> bytes:
    """A tar of ``members`` under ``top/``; ``hostile`` goes after the first two members."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode=mode) as tar:  # type: ignore[call-overload]
        for index, (name, data) in enumerate(members.items()):
            if index == 2 and hostile is not None:
                tar.addfile(hostile, io.BytesIO(b"x" * hostile.size))
            info = tarfile.TarInfo(f"{top}/{name}" if top else name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def zip_bytes(
    members: dict[str, bytes], *, top: str = TOP, hostile: zipfile.ZipInfo | None = None
) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as bundle:
        for index, (name, data) in enumerate(members.items()):
            if index == 2 and hostile is not None:
                bundle.writestr(hostile, b"/etc/passwd")
            bundle.writestr(f"{top}/{name}" if top else name, data)
    return buf.getvalue()


def write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    """A cache that already holds one good extraction, so 'unchanged' is not trivially true."""
    cache = tmp_path / "cache"
    other = write(
        tmp_path / "other.tar.gz", tar_bytes({"juno/chain.json": b"{}"}, top="chain-registry-x")
    )
    resolve_source(other, cache_dir=cache)
    return cache


# --- the loopback HTTP server ----------------------------------------------------------------------

Route = Callable[[BaseHTTPRequestHandler], None]


class Server:
    def __init__(self) -> None:
        self.routes: dict[str, Route] = {}
        self.hits: list[str] = []
        self.port = 0

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        """Clients that hang up on purpose (timeouts, caps) are expected here."""


@pytest.fixture
def server() -> Iterator[Server]:
    state = Server()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            state.hits.append(self.path)
            route = state.routes.get(self.path)
            if route is None:
                self.send_error(404)
                return
            with contextlib.suppress(OSError):  # the client gave up on purpose
                route(self)

        def log_message(self, format: str, *args: object) -> None:
            pass

    httpd = _QuietServer(("127.0.0.1", 0), Handler)
    state.port = httpd.server_address[1]
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield state
    httpd.shutdown()
    httpd.server_close()


def send(
    data: bytes,
    *,
    status: int = 200,
    length: int | None = -1,
    delay_headers: float = 0.0,
    delay_body: float = 0.0,
    trickle: float = 0.0,
) -> Route:
    """A route answering ``data``; ``length`` -1 is the true Content-Length, None sends none."""

    def route(handler: BaseHTTPRequestHandler) -> None:
        time.sleep(delay_headers)
        handler.send_response(status)
        if length is not None:
            handler.send_header("Content-Length", str(len(data) if length == -1 else length))
        handler.end_headers()
        handler.wfile.flush()
        time.sleep(delay_body)
        if trickle:
            for index in range(0, len(data), 10):
                handler.wfile.write(data[index : index + 10])
                handler.wfile.flush()
                time.sleep(trickle)
        else:
            handler.wfile.write(data)

    return route


class LoopbackTransport(httpx.BaseTransport):
    """Sends every request to the test server, path unchanged: stands in for github.com."""

    def __init__(self, port: int) -> None:
        self._port = port
        self._inner = httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        request.url = request.url.copy_with(scheme="http", host="127.0.0.1", port=self._port)
        return self._inner.handle_request(request)

    def close(self) -> None:
        self._inner.close()


# --- directories -----------------------------------------------------------------------------------


def test_real_snapshot_directory_is_used_in_place(tmp_path: Path) -> None:
    path = snapshot_path()
    assert path.is_dir(), (
        f"chain-registry snapshot not found at {path}; set {ENV_VAR} or put it at ../shared/chain-registry"
    )
    resolved = resolve_source(str(path), cache_dir=tmp_path / "cache")
    assert resolved.root == path.resolve()
    assert resolved.kind == "directory"
    assert resolved.source == str(path)
    assert resolved.commit == PINNED_COMMIT  # from SNAPSHOT.md's "Commit:" line
    assert resolved.archive_sha256 is None
    assert (resolved.root / "osmosis" / "chain.json").is_file()
    assert not (tmp_path / "cache").exists(), "a directory source must not touch the cache"


def test_directory_with_registry_in_single_subfolder(tmp_path: Path) -> None:
    for name, data in FILES.items():
        write(tmp_path / "wrap" / TOP / name, data)
    (tmp_path / "wrap" / "notes").mkdir()
    resolved = resolve_source(tmp_path / "wrap")
    assert resolved.root == (tmp_path / "wrap" / TOP).resolve()
    assert resolved.commit == SHA
    assert resolved.kind == "directory"
    assert resolved.source == str(tmp_path / "wrap")


def test_directory_commit_from_snapshot_note_and_none_without(tmp_path: Path) -> None:
    write(tmp_path / "reg" / "_IBC" / "a-b.json", b"{}")
    assert resolve_source(tmp_path / "reg").commit is None
    write(tmp_path / "reg" / "SNAPSHOT.md", f"# x\n\n- Commit: `{SHA.upper()}`\n".encode())
    assert resolve_source(tmp_path / "reg").commit == SHA


def test_directory_errors_name_the_path(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    with pytest.raises(RegistrySourceError, match=r"nowhere.*does not exist"):
        resolve_source(missing)
    write(tmp_path / "empty" / "stuff" / "file.json", b"{}")
    with pytest.raises(RegistrySourceError, match="no chain-registry layout"):
        resolve_source(tmp_path / "empty")
    write(tmp_path / "two" / "a" / "x" / "chain.json", b"{}")
    write(tmp_path / "two" / "b" / "_IBC" / "a-b.json", b"{}")
    with pytest.raises(RegistrySourceError, match="more than one registry: a, b"):
        resolve_source(tmp_path / "two")


@pytest.mark.parametrize(
    "value, message",
    [
        ("ftp://example.com/registry.tar.gz", "ftp://example.com/registry.tar.gz"),
        ("", "empty registry source"),
        ("http://127.0.0.1:9/registry.html", "does not name a"),
    ],
)
def test_unusable_strings_are_refused(value: str, message: str, tmp_path: Path) -> None:
    with pytest.raises(RegistrySourceError, match=message):
        resolve_source(value, cache_dir=tmp_path / "cache")
    assert not (tmp_path / "cache").exists()


def test_unsupported_file_extension(tmp_path: Path) -> None:
    path = write(tmp_path / "registry.rar", b"Rar!")
    with pytest.raises(RegistrySourceError, match=r"registry.rar.*not a .tar.gz"):
        resolve_source(path, cache_dir=tmp_path / "cache")


# --- archives --------------------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".tar.gz", ".tgz", ".tar", ".zip"])
def test_archive_extracts_only_json_and_detects_commit(
    suffix: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    members = {**FILES, **EXTRA}
    if suffix == ".zip":
        data = zip_bytes(members)
    else:
        data = tar_bytes(members, mode="w" if suffix == ".tar" else "w:gz")
    archive = write(tmp_path / f"registry{suffix}", data)
    cache = tmp_path / "cache"
    extractions: list[Path] = []
    real_extract = _fetch.extract_json

    def counting_extract(archive: Path, *args: Any) -> None:  # a spy: the real code still runs
        extractions.append(archive)
        real_extract(archive, *args)

    monkeypatch.setattr(_fetch, "extract_json", counting_extract)

    resolved = resolve_source(archive, cache_dir=cache)

    assert extractions == [archive]
    assert resolved.kind == "archive"
    assert resolved.source == str(archive)
    assert resolved.archive_sha256 == sha256(data)
    assert resolved.commit == SHA
    assert resolved.root == (cache / "extracted" / sha256(data) / TOP).resolve()
    assert json_files(resolved.root) == FILES  # README.md and the png were not written
    assert sorted(p.name for p in cache.iterdir()) == ["extracted"]  # no temporaries left

    marker = write(resolved.root / "marker", b"kept")
    again = resolve_source(archive, cache_dir=cache)
    assert again == resolved
    assert extractions == [archive], "the second resolve must reuse, not re-extract"
    assert marker.read_bytes() == b"kept"


def test_concurrent_extraction_of_the_same_archive_keeps_the_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tar_bytes(FILES)
    archive = write(tmp_path / "r.tar.gz", data)
    cache = tmp_path / "cache"
    final = cache / "extracted" / sha256(data)
    real_extract = _fetch.extract_json

    def racing_extract(archive: Path, dest: Path, *args: Any) -> None:
        real_extract(archive, dest, *args)
        shutil.copytree(dest, final)  # another process commits the same archive first
        write(final / TOP / "winner", b"")

    monkeypatch.setattr(_fetch, "extract_json", racing_extract)
    resolved = resolve_source(archive, cache_dir=cache)
    assert resolved.root == (final / TOP).resolve()
    assert (resolved.root / "winner").exists()
    assert sorted(p.name for p in cache.iterdir()) == ["extracted"]  # our temporary is gone


def test_archive_named_after_commit_without_top_folder(tmp_path: Path) -> None:
    data = tar_bytes(FILES, top="")
    resolved = resolve_source(write(tmp_path / f"{SHA}.tar.gz", data), cache_dir=tmp_path / "c")
    assert resolved.root == (tmp_path / "c" / "extracted" / sha256(data)).resolve()
    assert resolved.commit == SHA


def test_archive_without_registry_is_refused_and_not_cached(tmp_path: Path) -> None:
    archive = write(tmp_path / "x.tar.gz", tar_bytes({"notes/a.json": b"{}"}))
    with pytest.raises(RegistrySourceError, match="no chain-registry layout"):
        resolve_source(archive, cache_dir=tmp_path / "cache")
    assert not (tmp_path / "cache").exists()


def _tar_member(
    name: str, kind: bytes = tarfile.REGTYPE, *, size: int = 0, link: str = ""
) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.size, info.linkname = kind, size, link
    return info


@pytest.mark.parametrize(
    "hostile",
    [
        _tar_member("../evil.json", size=2),
        _tar_member(f"{TOP}/../../evil.json", size=2),
        _tar_member("/tmp/evil.json", size=2),
        _tar_member(f"{TOP}/link.json", tarfile.SYMTYPE, link="/etc/passwd"),
        _tar_member(f"{TOP}/hard.json", tarfile.LNKTYPE, link=f"{TOP}/osmosis/chain.json"),
        _tar_member(f"{TOP}/null.json", tarfile.CHRTYPE),
        _tar_member(f"{TOP}/pipe.json", tarfile.FIFOTYPE),
    ],
    ids=[
        "dotdot",
        "dotdot-inside",
        "absolute",
        "symlink",
        "hardlink",
        "device",
        "fifo",
    ],
)
def test_unsafe_tar_member_is_refused_and_cache_unchanged(
    hostile: tarfile.TarInfo, cache: Path, tmp_path: Path
) -> None:
    archive = write(tmp_path / "bad.tar.gz", tar_bytes(FILES, hostile=hostile))
    before = tree(cache)
    with pytest.raises(UnsafeArchiveError) as caught:
        resolve_source(archive, cache_dir=cache)
    assert repr(hostile.name) in str(caught.value)
    assert tree(cache) == before
    assert not (tmp_path / "evil.json").exists()


def test_link_that_is_not_json_is_skipped_not_written(cache: Path, tmp_path: Path) -> None:
    """Real registry archives hold images; a link among them is never extracted, so it is harmless."""
    hostile = _tar_member(f"{TOP}/osmosis/images/logo.png", tarfile.SYMTYPE, link="../../../x")
    archive = write(tmp_path / "img.tar.gz", tar_bytes(FILES, hostile=hostile))
    resolved = resolve_source(archive, cache_dir=cache)
    assert (resolved.root / "osmosis" / "chain.json").is_file()
    assert not (resolved.root / "osmosis" / "images").exists()
    assert not any(p.is_symlink() for p in cache.rglob("*"))


def _zip_member(name: str, mode: int = stat.S_IFREG | 0o644) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.create_system = 3
    info.external_attr = mode << 16
    return info


@pytest.mark.parametrize(
    "hostile",
    [
        _zip_member("../evil.json"),
        _zip_member("/tmp/evil.json"),
        _zip_member("C:/evil.json"),
        _zip_member(f"{TOP}/link.json", stat.S_IFLNK | 0o777),
        _zip_member(f"{TOP}/null.json", stat.S_IFCHR | 0o644),
    ],
    ids=["dotdot", "absolute", "drive", "symlink", "device"],
)
def test_unsafe_zip_member_is_refused_and_cache_unchanged(
    hostile: zipfile.ZipInfo, cache: Path, tmp_path: Path
) -> None:
    archive = write(tmp_path / "bad.zip", zip_bytes(FILES, hostile=hostile))
    before = tree(cache)
    with pytest.raises(UnsafeArchiveError) as caught:
        resolve_source(archive, cache_dir=cache)
    assert repr(hostile.filename) in str(caught.value)
    assert tree(cache) == before


def test_member_count_cap_counts_every_member(cache: Path, tmp_path: Path) -> None:
    members = {**FILES, **EXTRA}  # 7 members, 5 of them JSON
    archive = write(tmp_path / "r.tar.gz", tar_bytes(members))
    before = tree(cache)
    with pytest.raises(UnsafeArchiveError, match="more than 6 members"):
        resolve_source(archive, cache_dir=cache, max_members=6)
    assert tree(cache) == before
    assert json_files(resolve_source(archive, cache_dir=cache, max_members=7).root) == FILES


@pytest.mark.parametrize("name", ["cosmoshub/big.json", "osmosis/images/big.png"])
def test_declared_size_cap(name: str, cache: Path, tmp_path: Path) -> None:
    archive = write(tmp_path / "r.tar.gz", tar_bytes({**FILES, name: b"x" * 101}))
    before = tree(cache)
    with pytest.raises(UnsafeArchiveError, match=f"{name}.*declares 101 bytes"):
        resolve_source(archive, cache_dir=cache, max_member_bytes=100)
    assert tree(cache) == before
    exact = write(tmp_path / "ok.tar.gz", tar_bytes({**FILES, name: b"x" * 100}))
    assert resolve_source(exact, cache_dir=cache, max_member_bytes=100).kind == "archive"


def test_bytes_read_are_capped_even_when_the_header_lies(tmp_path: Path) -> None:
    limits = _archive.ArchiveLimits(max_member_bytes=100, max_members=10)
    budget = _archive._Budget(limits, "lying.zip")
    parts = budget.admit("a/lie.json", "file", 10)  # declares 10 bytes ...
    assert parts == ["a", "lie.json"]
    with pytest.raises(UnsafeArchiveError, match=r"'a/lie.json'.*more than 100 bytes when read"):
        budget.write(io.BytesIO(b"x" * 101), tmp_path, parts, "a/lie.json")  # ... yields 101
    budget.write(io.BytesIO(b"y" * 100), tmp_path, parts, "a/lie.json")
    assert (tmp_path / "a" / "lie.json").read_bytes() == b"y" * 100


def test_total_caps(cache: Path, tmp_path: Path) -> None:
    before = tree(cache)
    many_json = {**FILES, **{f"c{i}/chain.json": b"x" * 100 for i in range(10)}}
    with pytest.raises(UnsafeArchiveError, match="extracted JSON exceeds 1000 bytes"):
        resolve_source(
            write(tmp_path / "a.tar.gz", tar_bytes(many_json)),
            cache_dir=cache,
            max_member_bytes=100,
        )
    many_png = {**FILES, **{f"img/{i}.png": b"x" * 100 for i in range(100)}}
    with pytest.raises(UnsafeArchiveError, match="declare more than 10000 bytes"):
        resolve_source(
            write(tmp_path / "b.tar.gz", tar_bytes(many_png)), cache_dir=cache, max_member_bytes=100
        )
    assert tree(cache) == before


def _cut_plain_tar(where: str) -> bytes:
    """A plain tar cut inside the data of a JSON member or of a member that is skipped."""
    members = {**FILES, "zz/logo.png": b"p" * 3000}
    whole = tar_bytes(members, mode="w")
    if where == "json":
        return whole[: 512 + 20]  # inside the first member's data
    return whole[: len(members) * 1024 + 1000]  # inside the png's 3000 bytes


@pytest.mark.parametrize("kind", [".tar.gz", ".zip", ".tar-json", ".tar-skipped"])
def test_corrupt_archive_is_a_registry_source_error(kind: str, cache: Path, tmp_path: Path) -> None:
    if kind == ".tar.gz":
        data = tar_bytes(FILES)[:200]
    elif kind == ".zip":
        data = zip_bytes(FILES)[:-30]  # loses the end of the central directory
    else:
        data = _cut_plain_tar(kind.split("-")[1])
    archive = write(tmp_path / f"cut{kind.split('-')[0]}", data)
    before = tree(cache)
    with pytest.raises(RegistrySourceError, match="cut") as caught:
        resolve_source(archive, cache_dir=cache)
    assert not isinstance(caught.value, UnsafeArchiveError)
    assert tree(cache) == before


def test_cache_dir_that_is_a_file(tmp_path: Path) -> None:
    archive = write(tmp_path / "r.tar.gz", tar_bytes(FILES))
    blocker = write(tmp_path / "cache", b"not a directory")
    with pytest.raises(RegistrySourceError, match="cache"):
        resolve_source(archive, cache_dir=blocker)
    assert blocker.read_bytes() == b"not a directory"


def test_options_must_be_positive() -> None:
    with pytest.raises(ValueError, match="timeout"):
        resolve_source(".", timeout=0)
    with pytest.raises(ValueError, match="max_members"):
        resolve_source(".", max_members=0)


# --- downloads -------------------------------------------------------------------------------------

ARCHIVE = tar_bytes({**FILES, **EXTRA})


def test_url_is_downloaded_once(server: Server, tmp_path: Path) -> None:
    server.routes["/registry.tar.gz"] = send(ARCHIVE)
    url = server.url("/registry.tar.gz")
    cache = tmp_path / "cache"

    resolved = resolve_source(url, cache_dir=cache)

    assert resolved.kind == "url"
    assert resolved.source == url
    assert resolved.archive_sha256 == sha256(ARCHIVE)
    assert resolved.commit == SHA
    assert json_files(resolved.root) == FILES
    download = cache / "downloads" / f"{sha256(url.encode())}.tar.gz"
    assert download.read_bytes() == ARCHIVE
    assert sorted(p.name for p in cache.iterdir()) == ["downloads", "extracted"]
    assert server.hits == ["/registry.tar.gz"]

    assert resolve_source(url, cache_dir=cache) == resolved
    assert server.hits == ["/registry.tar.gz"], "the second resolve must not make a request"


def test_redirect_is_followed(server: Server, tmp_path: Path) -> None:
    def moved(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(302)
        handler.send_header("Location", "/real.tar.gz")
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    server.routes["/old.tar.gz"] = moved
    server.routes["/real.tar.gz"] = send(ARCHIVE)
    resolved = resolve_source(server.url("/old.tar.gz"), cache_dir=tmp_path / "cache")
    assert resolved.archive_sha256 == sha256(ARCHIVE)
    assert server.hits == ["/old.tar.gz", "/real.tar.gz"]


@pytest.mark.parametrize("status", [404, 500])
def test_http_error_status(status: int, server: Server, tmp_path: Path) -> None:
    server.routes["/r.tar.gz"] = send(b"nope", status=status)
    url = server.url("/r.tar.gz")
    with pytest.raises(FetchError) as caught:
        resolve_source(url, cache_dir=tmp_path / "cache")
    assert f"HTTP {status}" in str(caught.value)
    assert url in str(caught.value)
    assert not (tmp_path / "cache").exists()


def test_truncated_body(server: Server, tmp_path: Path) -> None:
    half = len(ARCHIVE) // 2
    server.routes["/r.tar.gz"] = send(ARCHIVE[:half], length=len(ARCHIVE))
    with pytest.raises(FetchError, match=f"truncated: received {half} of {len(ARCHIVE)} bytes"):
        resolve_source(server.url("/r.tar.gz"), cache_dir=tmp_path / "cache")
    assert not (tmp_path / "cache").exists()


def test_truncation_is_caught_even_if_the_transport_does_not_enforce_content_length(
    tmp_path: Path,
) -> None:
    # The default transport (h11) raises on a short body itself, as test_truncated_body shows over
    # a real socket; a caller-supplied transport may not, and this is the one way to produce that.
    def short_body(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"Content-Length": "1000"}, content=b"x" * 400)

    with pytest.raises(FetchError, match="truncated: received 400 of 1000 bytes"):
        resolve_source(
            "http://registry.test/r.tar.gz",
            cache_dir=tmp_path / "cache",
            transport=httpx.MockTransport(short_body),
        )
    assert not (tmp_path / "cache").exists()


def test_content_length_over_cap_is_refused_before_reading(server: Server, tmp_path: Path) -> None:
    server.routes["/r.tar.gz"] = send(ARCHIVE)
    with pytest.raises(
        FetchError, match=f"Content-Length {len(ARCHIVE)} exceeds the cap of 100 bytes"
    ):
        resolve_source(
            server.url("/r.tar.gz"), cache_dir=tmp_path / "cache", max_download_bytes=100
        )
    assert not (tmp_path / "cache").exists()


def test_streamed_body_over_cap_is_stopped(server: Server, tmp_path: Path) -> None:
    server.routes["/r.tar.gz"] = send(b"x" * 300_000, length=None)  # no Content-Length
    with pytest.raises(FetchError, match="more than the cap of 100000 bytes"):
        resolve_source(
            server.url("/r.tar.gz"), cache_dir=tmp_path / "cache", max_download_bytes=100_000
        )
    assert not (tmp_path / "cache").exists()


@pytest.mark.parametrize("where", ["before-headers", "before-body"])
def test_stalled_server_times_out(where: str, server: Server, tmp_path: Path) -> None:
    stall = 5.0
    if where == "before-headers":
        server.routes["/r.tar.gz"] = send(ARCHIVE, delay_headers=stall)
    else:
        server.routes["/r.tar.gz"] = send(ARCHIVE, delay_body=stall)
    started = time.monotonic()
    with pytest.raises(FetchError, match="timed out"):
        resolve_source(server.url("/r.tar.gz"), cache_dir=tmp_path / "cache", timeout=0.3)
    assert time.monotonic() - started < 2.0
    assert not (tmp_path / "cache").exists()


def test_trickling_server_hits_the_overall_deadline(server: Server, tmp_path: Path) -> None:
    server.routes["/r.tar.gz"] = send(b"x" * 10_000, trickle=0.02)  # 10 bytes every 20 ms: 20 s
    started = time.monotonic()
    with pytest.raises(FetchError, match=r"not finished within 0.5 s"):
        resolve_source(
            server.url("/r.tar.gz"), cache_dir=tmp_path / "cache", timeout=1.0, max_seconds=0.5
        )
    assert time.monotonic() - started < 2.0
    assert not (tmp_path / "cache").exists()


def test_connection_refused(tmp_path: Path) -> None:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/r.tar.gz"
    with pytest.raises(FetchError, match="cannot fetch"):
        resolve_source(url, cache_dir=tmp_path / "cache", timeout=2)
    assert not (tmp_path / "cache").exists()


def test_body_larger_than_announced(server: Server, cache: Path) -> None:
    """A server announcing fewer bytes than it sends: the client reads what was announced, the
    result is not a whole archive, and nothing of it is kept; a later good fetch succeeds."""
    half = len(ARCHIVE) // 2
    answers = iter([send(ARCHIVE, length=half), send(ARCHIVE)])
    server.routes["/r.tar.gz"] = lambda handler: next(answers)(handler)
    before = tree(cache)
    with pytest.raises(RegistrySourceError, match="cannot unpack archive"):
        resolve_source(server.url("/r.tar.gz"), cache_dir=cache)
    assert tree(cache) == before
    resolved = resolve_source(server.url("/r.tar.gz"), cache_dir=cache)
    assert json_files(resolved.root) == FILES


def test_good_fetch_after_failure(server: Server, cache: Path) -> None:
    answers = iter([send(b"boom", status=500), send(ARCHIVE)])
    server.routes["/r.tar.gz"] = lambda handler: next(answers)(handler)
    before = tree(cache)
    with pytest.raises(FetchError, match="HTTP 500"):
        resolve_source(server.url("/r.tar.gz"), cache_dir=cache)
    assert tree(cache) == before
    resolved = resolve_source(server.url("/r.tar.gz"), cache_dir=cache)
    assert json_files(resolved.root) == FILES
    assert server.hits == ["/r.tar.gz", "/r.tar.gz"]


def test_unsafe_download_is_not_kept(server: Server, cache: Path) -> None:
    server.routes["/r.tar.gz"] = send(tar_bytes(FILES, hostile=_tar_member("../x.json", size=1)))
    before = tree(cache)
    with pytest.raises(UnsafeArchiveError, match=re.escape("'../x.json'")):
        resolve_source(server.url("/r.tar.gz"), cache_dir=cache)
    assert tree(cache) == before


def test_progress_reports_increasing_bytes_ending_at_total(server: Server, tmp_path: Path) -> None:
    big = tar_bytes({**FILES, "osmosis/images/noise.png": os.urandom(400_000)})
    server.routes["/r.tar.gz"] = send(big)
    calls: list[tuple[int, int | None]] = []
    resolve_source(
        server.url("/r.tar.gz"),
        cache_dir=tmp_path / "cache",
        progress=lambda d, t: calls.append((d, t)),
    )
    assert len(calls) >= 2
    done = [d for d, _ in calls]
    assert done == sorted(set(done)), "bytes done must strictly increase"
    assert {t for _, t in calls} == {len(big)}
    assert calls[-1] == (len(big), len(big))


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_line_only_on_a_terminal(
    server: Server,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    server.routes["/r.tar.gz"] = send(ARCHIVE)
    resolve_source(server.url("/r.tar.gz"), cache_dir=tmp_path / "quiet")
    assert capsys.readouterr().err == ""

    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    resolve_source(server.url("/r.tar.gz"), cache_dir=tmp_path / "loud")
    shown = terminal.getvalue()
    assert "assetroute: downloading r.tar.gz" in shown
    assert "(100%)" in shown
    assert shown.endswith("\n")


# --- the default source and the environment --------------------------------------------------------


def test_env_var_names_the_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: Server
) -> None:
    for name, data in FILES.items():
        write(tmp_path / "reg" / name, data)
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "reg"))
    resolved = resolve_source(cache_dir=tmp_path / "cache")
    assert (resolved.kind, resolved.source, resolved.root) == (
        "directory",
        str(tmp_path / "reg"),
        (tmp_path / "reg").resolve(),
    )

    server.routes["/r.zip"] = send(zip_bytes(FILES))
    monkeypatch.setenv(ENV_VAR, server.url("/r.zip"))
    resolved = resolve_source(cache_dir=tmp_path / "cache")
    assert (resolved.kind, resolved.source, resolved.commit) == ("url", server.url("/r.zip"), SHA)


def test_default_is_the_pinned_archive_downloaded_once(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_VAR, "")
    monkeypatch.setenv(CACHE_ENV_VAR, str(tmp_path / "usercache"))
    path = f"/cosmos/chain-registry/archive/{PINNED_COMMIT}.tar.gz"
    server.routes[path] = send(tar_bytes(FILES, top=f"chain-registry-{PINNED_COMMIT}"))
    transport = LoopbackTransport(server.port)

    resolved = resolve_source(transport=transport)

    assert server.hits == [path]
    assert resolved.source == PINNED_ARCHIVE_URL
    assert resolved.kind == "url"
    assert resolved.commit == PINNED_COMMIT
    assert resolved.root.is_relative_to((tmp_path / "usercache").resolve())
    assert resolve_source(transport=transport) == resolved
    assert server.hits == [path], "the second resolve must not make a request"


def test_default_cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_ENV_VAR, str(tmp_path / "here"))
    assert default_cache_dir() == tmp_path / "here"
    monkeypatch.delenv(CACHE_ENV_VAR)
    assert default_cache_dir() == Path(platformdirs.user_cache_dir("assetroute", appauthor=False))
