"""Registry history: sources by commit (a loopback stand-in for github.com), the registry diff on the
shared history archives, and the ``diff`` command.

The history is ``../shared/registry-history`` (three GitHub archives of earlier commits) plus the
snapshot (``$ASSETROUTE_REGISTRY``), four points in time. Expected chain additions were read off
the archives themselves, not off our output: ``tar tzf <archive> | awk -F/ 'NF>=3 && $3=="chain.json"
{print $2}' | sort`` for each archive (and ``ls */chain.json`` for the snapshot), then ``comm`` of
adjacent lists; ``tar tzf … | grep _non-cosmos/<name>/`` for the three ``_non-cosmos`` folders that
gained a chain.json.
"""

from __future__ import annotations

import io
import itertools
import json
import os
import tarfile
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

import assetroute_core as ar
from assetroute_core._cli import main
from assetroute_core._fetch import GITHUB_ENV_VAR, commit_archive_url

# Next to the snapshot (``$ASSETROUTE_REGISTRY``, else ../shared/chain-registry); ``$ASSETROUTE_HISTORY`` overrides.
_SNAPSHOT = os.environ.get("ASSETROUTE_REGISTRY", "").strip() or str(
    Path(__file__).resolve().parents[2] / "shared" / "chain-registry")
HISTORY = Path(os.environ.get("ASSETROUTE_HISTORY", "").strip() or Path(_SNAPSHOT).parent / "registry-history")
ARCHIVES = {  # commit -> archive, oldest first (README of the history folder)
    "e458ac19d3428e35f8b2ba634eb01ae1d359b46a": HISTORY / "chain-registry-e458ac19d342.tar.gz",
    "045be2e5e5b3cb1e8fa9daf4e04ab0620016a2b9": HISTORY / "chain-registry-045be2e5e5b3.tar.gz",
    "32d07e5cff6dfcf942520320df8b2512ca888883": HISTORY / "chain-registry-32d07e5cff6d.tar.gz",
}


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("history-cache")


@pytest.fixture(scope="module")
def versions(cache: Path, registry: ar.Registry) -> list[ar.Registry]:
    for path in ARCHIVES.values():
        if not path.is_file():
            pytest.fail(f"history archive missing: {path}", pytrace=False)
    return [ar.load_registry(path, cache_dir=cache) for path in ARCHIVES.values()] + [registry]


@pytest.fixture(scope="module")
def diffs(versions: list[ar.Registry]) -> list[ar.RegistryDiff]:
    return [old.diff(new) for old, new in itertools.pairwise(versions)]


# -- the diff on the shared history ----------------------------------------------------------------


def test_versions_are_the_commits_of_the_archives(versions: list[ar.Registry]) -> None:
    assert [v.provenance.commit for v in versions[:3]] == list(ARCHIVES)
    assert versions[3].provenance.commit == ar.PINNED_COMMIT


EXPECTED_ADDED = [
    # 2025-08-19 -> 2026-02-20: 16 new cosmos folders, and 3 _non-cosmos folders that gained a chain.json
    {"bitway", "divine", "fandomchain", "gnodi", "gonka", "intento", "kiichain", "kudora", "lumen", "mirage",
     "moo", "optio", "stoc", "union", "wardenprotocol", "zigchain", "composablepolkadot", "picasso", "penumbra"},
    # 2026-02-20 -> 2026-05-20
    {"amitis", "hazinachain", "ltrstchain", "lumiwaveprotocol", "qie", "thejaynetwork", "turkchain", "xyra"},
    # 2026-05-20 -> 2026-08-21 (the snapshot)
    {"axiome", "cysic", "hipercapital", "mucoin", "qorechain", "ritbit", "safrochain", "sovr", "tac", "tail",
     "wolochain", "zerone"},
]


@pytest.mark.parametrize("step", [0, 1, 2])
def test_adjacent_diffs_add_the_chain_folders_of_the_archives(diffs: list[ar.RegistryDiff], step: int) -> None:
    diff = diffs[step]
    added = {c.chain_name for c in diff.chains if c.change == "added"}
    assert added == EXPECTED_ADDED[step]
    assert not diff.chains_removed  # no chain folder disappeared in these three steps (comm -23 is empty)
    assert len(diff.chains_added) == len(added)


def test_chain_ids_are_reported(diffs: list[ar.RegistryDiff]) -> None:
    # union/chain.json (2026-02-20 archive) says "chain_id": "union-1"; tac's is "tacchain_239-1".
    assert "union-1" in diffs[0].chains_added
    assert "tacchain_239-1" in diffs[2].chains_added


def test_route_level_agrees_with_the_lookups(versions: list[ar.Registry], diffs: list[ar.RegistryDiff]) -> None:
    """Recompute some chain pairs' changes from the public lookup of each version."""
    old, new, diff = versions[2], versions[3], diffs[2]
    touched = sorted({(p.source_chain_id, p.dest_chain_id) for p in diff.pairs})
    assert touched, "three months of registry changes must change some routes"
    checked = [*touched[:6], ("osmosis-1", "cosmoshub-4"), ("cosmoshub-4", "neutron-1")]
    for src, dst in checked:
        before = {(p.asset_on_source.denom, p.asset_on_dest.denom): (p.txs_required, p.bridges)
                  for p in old.assets_between_chains(src, dst)}
        after = {(p.asset_on_source.denom, p.asset_on_dest.denom): (p.txs_required, p.bridges)
                 for p in new.assets_between_chains(src, dst)}
        changes = diff.pair_changes(src, dst)
        lost = {(p.source_denom, p.old_dest_denom) for p in changes if p.change in ("lost", "changed")}
        gained = {(p.source_denom, p.new_dest_denom) for p in changes if p.change in ("gained", "changed")}
        same_key_changed = {k for k in before.keys() & after.keys() if before[k] != after[k]}
        assert {k for k in before if k not in after} | same_key_changed == lost
        assert {k for k in after if k not in before} | same_key_changed == gained
    assert sum(s.pairs_old_out for s in diff.per_chain) == diff.pairs_old
    assert diff.pairs_new - diff.pairs_old == diff.pairs_gained - diff.pairs_lost


def test_pair_totals_match_a_sweep_of_the_lookup(versions: list[ar.Registry], diffs: list[ar.RegistryDiff]) -> None:
    old, new = versions[2], versions[3]
    common = sorted({c.chain_id for c in old.chains()} & {c.chain_id for c in new.chains()})
    sample = common[:: max(1, len(common) // 12)]
    for reg, per_chain in ((old, "pairs_old_out"), (new, "pairs_new_out")):
        rows = {s.chain_id: s for s in diffs[2].per_chain}
        for src in sample:
            total = sum(len(reg.assets_between_chains(src, dst)) for dst in common if dst != src)
            assert getattr(rows[src], per_chain) == total, src


def test_diff_of_a_version_with_itself_is_empty(versions: list[ar.Registry]) -> None:
    for reg in (versions[0], versions[3]):
        diff = reg.diff(reg, allow_multi_tx=True)
        assert diff.is_empty
        assert diff.pairs == () and diff.pairs_old == diff.pairs_new > 0
        assert all(s.gained_out == s.lost_out == s.changed_out == 0 for s in diff.per_chain)
    # Two separate loads of the same version are just as equal.
    again = ar.load_registry(ARCHIVES["32d07e5cff6dfcf942520320df8b2512ca888883"],
                             cache_dir=Path(versions[2].engine.data.root).parents[2])
    assert versions[2].diff(again).is_empty


def test_structural_parts(diffs: list[ar.RegistryDiff], versions: list[ar.Registry]) -> None:
    diff = diffs[2]
    listed = {(a.chain_id, a.denom) for a in diff.assets if a.change == "listed"}
    old_keys = {(versions[2].engine.chain_id(k[0]), v.denom) for k, v in versions[2].engine.listings.items()}
    assert listed and not listed & old_keys
    for ch in diff.channels:
        assert ch.change in ("opened", "closed")
        assert (ch.old_status in (None, "INACTIVE", "CLOSED")) == (ch.change == "opened")
    frame = diff.to_frame("per_chain")
    assert list(frame.columns)[:3] == ["chain_id", "pairs_old_out", "pairs_new_out"]
    assert len(frame) == diff.chains_compared
    pairs = diff.to_frame()
    assert len(pairs) == len(diff.pairs) and set(pairs["change"]) <= {"gained", "lost", "changed"}
    with pytest.raises(ar.InvalidArgumentError, match="unknown view"):
        diff.to_frame("nope")


def test_json_has_the_documented_keys(diffs: list[ar.RegistryDiff]) -> None:
    body = json.loads(diffs[1].to_json())
    assert isinstance(body["chains"]["added"], list) and isinstance(body["chains"]["removed"], list)
    assert body["chains"]["added"] == list(diffs[1].chains_added)
    assert isinstance(body["assets"]["listed"], int) and isinstance(body["assets"]["delisted"], int)
    routes = body["routes"]
    for key in ("pairs_gained", "pairs_lost", "pairs_changed"):
        assert routes[key] == getattr(diffs[1], key)
    assert len(routes["per_chain"]) == diffs[1].chains_compared
    assert {"chain_id", "gained_out", "lost_out", "changed_out", "gained_in", "lost_in"} <= set(routes["per_chain"][0])


def test_bad_flags_are_refused(versions: list[ar.Registry]) -> None:
    with pytest.raises(ar.InvalidArgumentError, match="unknown flag"):
        versions[3].diff(versions[3], allow_multi_txs=True)
    with pytest.raises(ar.InvalidArgumentError, match="allow_multi_tx"):
        versions[3].diff(versions[3], allow_multi_tx="yes")  # type: ignore[arg-type]


def test_measures_over_the_versions(versions: list[ar.Registry]) -> None:
    series = [v.measures() for v in versions[2:]]
    for reg, m in zip(versions[2:], series, strict=True):
        assert m.routable_chains == len(reg.chains())
        assert m.listed_assets == dict(reg.provenance.counts)["listed_assets"]
        assert 0 < m.single_tx_share < 1 and m.single_tx_pairs < m.asset_pairs
        assert 2 <= m.largest_group <= m.routable_chains
    # Independent check of the largest group: osmosis' component by breadth-first search over canonical channels.
    reg = versions[3]
    seen, todo = {"osmosis"}, ["osmosis"]
    while todo:
        here = todo.pop()
        for c in reg.chains():
            if c.chain_name not in seen and reg.engine.canonical_channel(here, c.chain_name) is not None:
                seen.add(c.chain_name)
                todo.append(c.chain_name)
    assert series[-1].largest_group == len(seen)


# -- sources by commit ----------------------------------------------------------------------------


class _Server:
    def __init__(self) -> None:
        self.routes: dict[str, bytes] = {}
        self.hits: list[str] = []
        self.port = 0


@pytest.fixture
def github(monkeypatch: pytest.MonkeyPatch) -> Iterator[_Server]:
    """A loopback stand-in for github.com, named by ``$ASSETROUTE_GITHUB_URL``."""
    state = _Server()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            state.hits.append(self.path)
            body = state.routes.get(self.path)
            if body is None:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    state.port = httpd.server_address[1]
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    monkeypatch.setenv(GITHUB_ENV_VAR, f"http://127.0.0.1:{state.port}")
    yield state
    httpd.shutdown()
    httpd.server_close()


COMMIT = "32d07e5cff6dfcf942520320df8b2512ca888883"


def test_commit_source_downloads_that_commits_archive_once(github: _Server, tmp_path: Path,
                                                           versions: list[ar.Registry]) -> None:
    path = f"/cosmos/chain-registry/archive/{COMMIT}.tar.gz"
    github.routes[path] = ARCHIVES[COMMIT].read_bytes()
    source = f"cosmos/chain-registry@{COMMIT}"
    reg = ar.load_registry(source, cache_dir=tmp_path)
    assert github.hits == [path]
    assert (reg.provenance.source, reg.provenance.kind, reg.provenance.commit) == (source, "commit", COMMIT)
    assert reg.provenance.fingerprint == versions[2].provenance.fingerprint
    again = ar.load_registry(f"cosmos/chain-registry@{COMMIT.upper()}", cache_dir=tmp_path)
    assert github.hits == [path], "a second load of the same commit must not download again"
    assert again.provenance.commit == COMMIT


def test_default_archive_url_is_githubs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(GITHUB_ENV_VAR, raising=False)
    assert commit_archive_url(f"cosmos/chain-registry@{COMMIT}") == (
        f"https://github.com/cosmos/chain-registry/archive/{COMMIT}.tar.gz", COMMIT)
    assert commit_archive_url("./some/dir") is None


@pytest.mark.parametrize("commit", ["32d07e5", "master", COMMIT + "0", COMMIT[:-1] + "g", ""])
def test_short_or_malformed_commits_are_refused(commit: str, tmp_path: Path) -> None:
    with pytest.raises(ar.RegistrySourceError, match="not a full commit"):
        ar.load_registry(f"cosmos/chain-registry@{commit}", cache_dir=tmp_path)
    assert not (tmp_path / "downloads").exists()


def test_unknown_commit_names_the_source(github: _Server, tmp_path: Path) -> None:
    unknown = "0" * 40
    with pytest.raises(ar.FetchError, match=rf"cosmos/chain-registry@{unknown}.*404"):
        ar.load_registry(f"cosmos/chain-registry@{unknown}", cache_dir=tmp_path)
    assert not any((tmp_path / "extracted").glob("*")) if (tmp_path / "extracted").exists() else True


def test_corrupt_or_foreign_archive_is_refused(github: _Server, tmp_path: Path) -> None:
    bad = "1" * 40
    github.routes[f"/cosmos/chain-registry/archive/{bad}.tar.gz"] = b"\x1f\x8b this is not a gzip stream"
    with pytest.raises(ar.RegistrySourceError):
        ar.load_registry(f"cosmos/chain-registry@{bad}", cache_dir=tmp_path)
    # An archive whose top folder names another commit is not that commit.
    other = "2" * 40
    github.routes[f"/cosmos/chain-registry/archive/{other}.tar.gz"] = ARCHIVES[COMMIT].read_bytes()
    with pytest.raises(ar.RegistrySourceError, match=f"holds commit {COMMIT}"):
        ar.load_registry(f"cosmos/chain-registry@{other}", cache_dir=tmp_path)


def test_existing_path_wins_over_the_commit_reading(tmp_path: Path) -> None:
    folder = tmp_path / f"owner/repo@{'3' * 40}"
    (folder / "cosmoshub").mkdir(parents=True)
    (folder / "cosmoshub" / "chain.json").write_text('{"chain_name": "cosmoshub", "chain_id": "cosmoshub-4"}')
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        reg = ar.load_registry(f"owner/repo@{'3' * 40}", cache_dir=tmp_path / "cache")
    finally:
        os.chdir(cwd)
    assert reg.provenance.kind == "directory"


def _tar_of(members: dict[str, bytes], top: str) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(f"{top}/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def test_archive_without_a_registry_is_refused(github: _Server, tmp_path: Path) -> None:
    empty = "4" * 40
    github.routes[f"/cosmos/chain-registry/archive/{empty}.tar.gz"] = _tar_of(
        {"README.json": b"{}"}, f"chain-registry-{empty}")
    with pytest.raises(ar.RegistrySourceError, match="no chain-registry layout"):
        ar.load_registry(f"cosmos/chain-registry@{empty}", cache_dir=tmp_path)


# -- the command line ---------------------------------------------------------------------------


def test_cli_diff_json(capsys: pytest.CaptureFixture[str], diffs: list[ar.RegistryDiff],
                       monkeypatch: pytest.MonkeyPatch, cache: Path) -> None:
    monkeypatch.setenv("ASSETROUTE_CACHE_DIR", str(cache))
    old, new = ARCHIVES["045be2e5e5b3cb1e8fa9daf4e04ab0620016a2b9"], ARCHIVES[COMMIT]
    code = main(["diff", str(old), str(new), "--json"])
    out = capsys.readouterr().out
    assert code == 0
    body = json.loads(out)
    assert body["chains"]["added"] == list(diffs[1].chains_added)
    assert body["assets"]["listed"] == sum(a.change == "listed" for a in diffs[1].assets)
    assert body["routes"]["pairs_gained"] == diffs[1].pairs_gained
    assert body["routes"]["pairs_lost"] == diffs[1].pairs_lost
    assert body["routes"]["pairs_changed"] == diffs[1].pairs_changed
    assert len(body["routes"]["per_chain"]) == diffs[1].chains_compared


def test_cli_diff_text(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, cache: Path,
                       diffs: list[ar.RegistryDiff]) -> None:
    monkeypatch.setenv("ASSETROUTE_CACHE_DIR", str(cache))
    code = main(["diff", str(ARCHIVES["045be2e5e5b3cb1e8fa9daf4e04ab0620016a2b9"]), str(ARCHIVES[COMMIT]),
                 "--pairs", "3"])
    out = capsys.readouterr().out
    assert code == 0
    assert f"gained {diffs[1].pairs_gained}, lost {diffs[1].pairs_lost}" in out
    assert "first 3 of" in out


@pytest.mark.parametrize(("argv", "code", "message"), [
    (["diff", "cosmos/chain-registry@32d07e5", "x"], 1, "not a full commit"),
    (["diff", "/no/such/registry", "y"], 1, "does not exist"),
    (["diff", "a", "b", "--pairs", "-1"], 2, "--pairs"),
])
def test_cli_diff_errors(capsys: pytest.CaptureFixture[str], argv: list[str], code: int, message: str) -> None:
    assert main(argv) == code
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err and "Traceback" not in captured.err
    assert captured.err.count("\n") == 1


def test_cli_unknown_commit_and_corrupt_archive(capsys: pytest.CaptureFixture[str], github: _Server,
                                                tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASSETROUTE_CACHE_DIR", str(tmp_path))
    assert main(["diff", f"cosmos/chain-registry@{'0' * 40}", str(ARCHIVES[COMMIT])]) == 1
    err = capsys.readouterr().err
    assert f"cosmos/chain-registry@{'0' * 40}" in err and "404" in err
    corrupt = tmp_path / "corrupt.tar.gz"
    corrupt.write_bytes(b"\x1f\x8bnot really")
    assert main(["diff", str(corrupt), str(ARCHIVES[COMMIT])]) == 1
    captured = capsys.readouterr()
    assert "corrupt.tar.gz" in captured.err and captured.out == ""


# -- notebook 04 -----------------------------------------------------------------------------------

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "04_registry_history"


def test_notebook_is_paired_and_committed_without_outputs() -> None:
    import jupytext
    import nbformat
    from jupytext.config import load_jupytext_config

    nb = nbformat.read(NOTEBOOK.with_suffix(".ipynb"), as_version=4)
    config = load_jupytext_config(str(NOTEBOOK.parent))
    assert jupytext.writes(nb, fmt="py:percent", config=config) == NOTEBOOK.with_suffix(".py").read_text()
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code")
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert "assetroute_core._" not in code and ".engine" not in code


def test_notebook_runs_under_a_minute(tmp_path: Path, versions: list[ar.Registry]) -> None:
    import sys
    import time

    import nbformat
    from nbclient import NotebookClient

    spec = tmp_path / "kernels" / "assetroute-history"
    spec.mkdir(parents=True)
    repo = str(NOTEBOOK.parents[1])
    env = {"PYTHONPATH": os.pathsep.join(p for p in (repo, os.environ.get("PYTHONPATH", "")) if p),
           "ASSETROUTE_REGISTRY": _SNAPSHOT, "ASSETROUTE_HISTORY": str(HISTORY)}
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "assetroute history", "language": "python", "env": env}))
    nb = nbformat.read(NOTEBOOK.with_suffix(".ipynb"), as_version=4)
    old_path = os.environ.get("JUPYTER_PATH")
    os.environ["JUPYTER_PATH"] = str(tmp_path)
    try:
        started = time.perf_counter()
        NotebookClient(nb, timeout=300, kernel_name="assetroute-history",
                       resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
        seconds = time.perf_counter() - started
    finally:
        if old_path is None:
            os.environ.pop("JUPYTER_PATH", None)
        else:
            os.environ["JUPYTER_PATH"] = old_path
    assert seconds < 60, f"notebook 04 took {seconds:.1f} s"
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors, errors
    plots = sum("application/vnd.plotly.v1+json" in o.get("data", {}) for c in nb.cells for o in c.get("outputs", []))
    assert plots == 3
    cell = next(c for c in nb.cells if "headline" in c.metadata.get("tags", []))
    h = json.loads("".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream").strip())
    assert [v["commit"] for v in h["versions"]] == [*ARCHIVES, ar.PINNED_COMMIT]
    for reg, m in zip(versions, h["measures"], strict=True):
        assert m["routable_chains"] == len(reg.chains())
        assert m["listed_assets"] == dict(reg.provenance.counts)["listed_assets"]
    # The what-if's winner, checked with the public lookups: some pair needs one transaction only with its PFM.
    best = h["whatif_best"]["chain_id"]
    current = versions[-1]
    assert not current.chain(best).pfm_enabled and best in h["whatif_candidates"]
    scenario = current.with_changes(pfm={best: True})
    diff = current.diff(scenario, allow_multi_tx=True)
    to_one = [p for p in diff.pairs if p.new_txs_required == 1 and (p.old_txs_required or 0) > 1]
    assert len(to_one) == h["whatif_best"]["pairs_to_one_tx"] > 0
    sample = to_one[0]
    before = {p.asset_on_source.denom: p.txs_required
              for p in current.assets_between_chains(sample.source_chain_id, sample.dest_chain_id, allow_multi_tx=True)}
    after = {p.asset_on_source.denom: p.txs_required
             for p in scenario.assets_between_chains(sample.source_chain_id, sample.dest_chain_id, allow_multi_tx=True)}
    assert before[sample.source_denom] > 1 and after[sample.source_denom] == 1


# -- the Changes page (AppTest, in process) ---------------------------------------------------------


def _changes_app(monkeypatch: pytest.MonkeyPatch, **params: str | list[str]) -> Any:
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("ASSETROUTE_REGISTRY", _SNAPSHOT)
    monkeypatch.setenv("ASSETROUTE_HISTORY", str(HISTORY))
    at = AppTest.from_file(str(Path(__file__).resolve().parents[1] / "app.py"), default_timeout=300)
    for key, value in params.items():
        at.query_params[key] = value
    at.switch_page("pages/changes.py")
    return at.run()


def test_changes_page_from_a_link(monkeypatch: pytest.MonkeyPatch, diffs: list[ar.RegistryDiff]) -> None:
    old, new = str(ARCHIVES["045be2e5e5b3cb1e8fa9daf4e04ab0620016a2b9"]), str(ARCHIVES[COMMIT])
    at = _changes_app(monkeypatch, old=old, new=new, series=[old, new])
    assert not at.exception, [e.value for e in at.exception]
    assert not at.main.error
    shown = {m.label: m.value for m in at.main.metric}
    assert shown["Chains added"] == str(len(diffs[1].chains_added))
    assert shown["Pairs gained"] == str(diffs[1].pairs_gained)
    assert shown["Pairs lost"] == str(diffs[1].pairs_lost)
    assert len(at.main.get("plotly_chart")) == 1  # the measures over the two versions
    per_chain = next(d.value for d in at.main.dataframe if "gained_out" in d.value.columns)
    assert len(per_chain) == diffs[1].chains_compared
    assert {b.proto.label for b in at.main.get("download_button")} >= {"Per chain CSV", "Whole diff JSON"}
    # The busiest chain pair is shown by default, and its rows are that pair's changes.
    src, dst = at.main.selectbox(key="ch_pair_src").value, at.main.selectbox(key="ch_pair_dst").value
    assert diffs[1].pair_changes(src, dst)


@pytest.mark.parametrize(("old", "message"), [
    ("cosmos/chain-registry@32d07e5", "not a full commit"),
    ("/no/such/registry.tar.gz", "does not exist"),
])
def test_changes_page_bad_version_is_a_message(monkeypatch: pytest.MonkeyPatch, old: str, message: str) -> None:
    at = _changes_app(monkeypatch, old=old, new=str(ARCHIVES[COMMIT]))
    assert not at.exception
    errors = [e.value for e in at.main.error]
    assert len(errors) == 1 and message.replace(" ", "") in errors[0].replace("\\", "").replace(" ", "")
    assert not at.main.metric and not at.main.dataframe, "nothing half-loaded is shown"


def test_changes_page_unknown_commit_and_corrupt_archive(monkeypatch: pytest.MonkeyPatch, github: _Server,
                                                          tmp_path: Path) -> None:
    monkeypatch.setenv("ASSETROUTE_CACHE_DIR", str(tmp_path / "cache"))
    at = _changes_app(monkeypatch, old=f"cosmos/chain-registry@{'0' * 40}", new=str(ARCHIVES[COMMIT]))
    errors = [e.value.replace("\\", "") for e in at.main.error]
    assert len(errors) == 1 and "404" in errors[0] and "0" * 40 in errors[0]
    assert not at.main.metric
    corrupt = tmp_path / "corrupt.tar.gz"
    corrupt.write_bytes(b"\x1f\x8b not an archive")
    at = _changes_app(monkeypatch, old=str(corrupt), new=str(ARCHIVES[COMMIT]))
    errors = [e.value.replace("\\", "") for e in at.main.error]
    assert len(errors) == 1 and "corrupt.tar.gz" in errors[0]
    assert not at.main.metric and not at.main.dataframe
