"""What-if scenarios on the real snapshot: PFM, closed channels, forwarding bridges; shared data;
the incremental what-if diff against the full one; the ``what-if`` command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import assetroute_core as ar
from assetroute_core import _diff
from assetroute_core._cli import main

# ATOM on osmosis-1 (transfer/channel-0 from cosmoshub-4; SPEC §2 names this hash).
ATOM_ON_OSMOSIS = "ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2"


def _atom_pair(reg: ar.Registry) -> ar.AssetPair:
    pairs = reg.assets_between_chains("osmosis-1", "neutron-1", allow_multi_tx=True)
    return next(p for p in pairs if p.asset_on_source.denom == ATOM_ON_OSMOSIS)


def test_pfm_off_on_the_hub_makes_atom_osmosis_to_neutron_two_transactions(registry: ar.Registry) -> None:
    before = _atom_pair(registry)
    # ATOM leaves osmosis by unwinding to cosmoshub-4, then one hop to neutron-1: the hub is the
    # only intermediate chain, so its PFM decides whether that is one transaction.
    assert [h.to_chain_id for h in before.route.hops] == ["cosmoshub-4", "neutron-1"]
    assert before.txs_required == 1
    off = registry.with_changes(pfm={"cosmoshub-4": False})
    after = _atom_pair(off)
    assert after.txs_required == 2
    assert after.asset_on_dest.denom == before.asset_on_dest.denom
    # With default flags the pair is no longer answered at all (multi-transaction pairs are left out).
    assert all(p.asset_on_source.denom != ATOM_ON_OSMOSIS
               for p in off.assets_between_chains("osmosis-1", "neutron-1"))
    assert registry.chain("cosmoshub-4").pfm_enabled and not off.chain("cosmoshub-4").pfm_enabled


def test_turning_pfm_back_on_restores_the_original_answers_exactly(registry: ar.Registry) -> None:
    off = registry.with_changes(pfm={"cosmoshub-4": False})
    back = off.with_changes(pfm={"cosmoshub-4": True})
    assert registry.diff(back, allow_multi_tx=True).is_empty
    assert registry.diff(back).is_empty
    for src, dst in (("osmosis-1", "neutron-1"), ("cosmoshub-4", "osmosis-1"), ("neutron-1", "cosmoshub-4"),
                     ("noble-1", "osmosis-1")):
        for flags in ({}, {"allow_multi_tx": True, "include_no_metadata_assets": True, "include_cw20_assets": True,
                           "include_evm_assets": True}):
            assert back.assets_between_chains(src, dst, **flags).to_json() == \
                registry.assets_between_chains(src, dst, **flags).to_json()
    atom = registry.find_asset("cosmoshub-4", "uatom")
    assert atom is not None
    assert back.assets_from_source("uatom", "cosmoshub-4", allow_multi_tx=True).to_json() == \
        registry.assets_from_source("uatom", "cosmoshub-4", allow_multi_tx=True).to_json()


def test_a_scenario_shares_the_registry_data(registry: ar.Registry) -> None:
    off = registry.with_changes(pfm={"cosmoshub-4": False}, closed_channels=["osmosis-1:channel-0"],
                                forwarding_bridges={"AXELAR": False})
    d0, d1 = registry.engine.data, off.engine.data
    assert d1.listed is d0.listed and d1.links is d0.links and d1.chain_ids is d0.chain_ids
    assert d1.quality is d0.quality
    unchanged = [n for n in d0.chains if n != "cosmoshub"]
    assert all(d1.chains[n] is d0.chains[n] for n in unchanged)
    changed_channels = [(a, b) for a, b in zip(d0.channels, d1.channels, strict=True) if a is not b]
    assert len(changed_channels) == 1
    old_ch, new_ch = changed_channels[0]
    assert old_ch.usable and not new_ch.usable and new_ch.status == "CLOSED"
    assert {old_ch.chain_1, old_ch.chain_2} == {"osmosis", "cosmoshub"}
    assert off.overlay.bridge("AXELAR").forwards is False and registry.overlay.bridge("AXELAR").forwards is True
    assert off.what_if is not None and off.base is registry
    assert off.what_if.describe().startswith("pfm cosmoshub-4=off; close ")
    assert registry.what_if is None


def test_closing_the_canonical_channel_moves_or_drops_the_route(registry: ar.Registry) -> None:
    end = registry.canonical_channel("osmosis-1", "cosmoshub-4")
    assert end is not None and end.channel_id == "channel-0"
    closed = registry.with_changes(closed_channels=["osmosis-1:channel-0"])
    now = closed.canonical_channel("osmosis-1", "cosmoshub-4")
    assert now is None or now.channel_id != "channel-0"
    # The ATOM voucher over channel-0 can no longer unwind on osmosis-1.
    pairs = closed.assets_between_chains("osmosis-1", "cosmoshub-4", allow_multi_tx=True)
    assert all(p.asset_on_source.denom != ATOM_ON_OSMOSIS for p in pairs)
    everything = registry.with_changes(closed_channels=["osmosis-1/cosmoshub-4"])
    assert everything.canonical_channel("osmosis-1", "cosmoshub-4") is None
    diff = registry.diff(everything)
    assert diff.channels and all(c.change == "closed" for c in diff.channels)
    assert {(c.chain_1_id, c.chain_2_id) for c in diff.channels} <= {("cosmoshub-4", "osmosis-1"),
                                                                     ("osmosis-1", "cosmoshub-4")}
    assert diff.pairs_lost > 0


SCENARIOS = [
    {"pfm": {"cosmoshub-4": False}},
    {"pfm": {"osmosis-1": False}, "closed_channels": ["neutron-1:channel-1"]},
    {"closed_channels": ["osmosis-1/cosmoshub-4"]},
    {"forwarding_bridges": {"AXELAR": False}},
]


@pytest.mark.parametrize("changes", SCENARIOS)
def test_incremental_what_if_diff_equals_the_full_diff(registry: ar.Registry, changes: dict[str, object],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = registry.with_changes(**changes)  # type: ignore[arg-type]
    fast = registry.diff(scenario, allow_multi_tx=True)
    monkeypatch.setattr(_diff, "_scenario", lambda e0, e1: None)  # force the full route comparison
    full = registry.diff(scenario, allow_multi_tx=True)
    assert fast.pairs == full.pairs
    assert fast.per_chain == full.per_chain
    assert (fast.pairs_old, fast.pairs_new) == (full.pairs_old, full.pairs_new)
    assert fast.pairs or fast.channels, "each scenario changes something"


def test_axelar_not_forwarding_adds_a_transaction(registry: ar.Registry) -> None:
    scenario = registry.with_changes(forwarding_bridges={"AXELAR": False})
    diff = registry.diff(scenario, allow_multi_tx=True)
    assert diff.pairs_changed > 0
    for p in diff.pairs:
        assert p.change == "changed" and p.changed_fields == ("txs_required",)
        assert p.new_txs_required == (p.old_txs_required or 0) + 1
        assert "AXELAR" in (p.old_bridges or ())
    assert diff.overlay and diff.overlay[0].key == "AXELAR"


@pytest.mark.parametrize(("changes", "message"), [
    ({"pfm": {"no-such-chain": True}}, "unknown chain in pfm"),
    ({"pfm": {"cosmoshub-4": "off"}}, "must be true or false"),
    ({"closed_channels": ["osmosis-1:channel-999999"]}, "no channel channel-999999 on osmosis-1"),
    ({"closed_channels": ["osmosis-1"]}, "CHAIN_ID:CHANNEL_ID"),
    ({"closed_channels": ["osmosis-1/no-such-chain"]}, "unknown chain in closed_channels"),
    ({"forwarding_bridges": {"TELEPORT": True}}, "unknown bridge kind"),
])
def test_bad_scenarios_name_the_value(registry: ar.Registry, changes: dict[str, object], message: str) -> None:
    with pytest.raises(ar.InvalidArgumentError, match=message) as info:
        registry.with_changes(**changes)  # type: ignore[arg-type]
    assert info.value.value is not None


def test_cli_what_if_json(capsys: pytest.CaptureFixture[str], registry_path: object) -> None:
    code = main(["what-if", "--pfm", "cosmoshub-4=off", "--allow-multi-tx", "--json", "--registry",
                 str(registry_path)])
    out = capsys.readouterr().out
    assert code == 0
    body = json.loads(out)
    assert body["scenario"]["pfm"] == {"cosmoshub-4": False}
    assert body["chains"] == {"added": [], "removed": [], "killed": [], "revived": []}
    assert body["assets"]["listed"] == body["assets"]["delisted"] == 0
    routes = body["routes"]
    assert routes["pairs_changed"] > 0 and routes["pairs_gained"] == routes["pairs_lost"] == 0
    atom = [p for p in routes["pairs"] if p["source_chain_id"] == "osmosis-1" and p["dest_chain_id"] == "neutron-1"
            and p["source_denom"] == ATOM_ON_OSMOSIS]
    assert len(atom) == 1 and (atom[0]["old_txs_required"], atom[0]["new_txs_required"]) == (1, 2)


@pytest.mark.parametrize(("argv", "code", "message"), [
    (["what-if"], 2, "at least one change"),
    (["what-if", "--pfm", "cosmoshub-4"], 2, "--pfm expects NAME=on|off"),
    (["what-if", "--pfm", "nowhere-9=on"], 2, "unknown chain in pfm"),
    (["what-if", "--close-channel", "osmosis-1:channel-999999"], 2, "no channel channel-999999"),
    (["what-if", "--bridge-forwards", "AXELAR=sometimes"], 2, "--bridge-forwards expects"),
    (["what-if", "--pfm", "cosmoshub-4=off", "--registry", "cosmos/chain-registry@abc"], 1, "not a full commit"),
])
def test_cli_what_if_errors(capsys: pytest.CaptureFixture[str], argv: list[str], code: int, message: str,
                            registry_path: object) -> None:
    if "--registry" not in argv:
        argv = [*argv, "--registry", str(registry_path)]
    assert main(argv) == code
    captured = capsys.readouterr()
    assert message in captured.err and "Traceback" not in captured.err and captured.out == ""


# -- the What if page (AppTest, in process) ---------------------------------------------------------


def _whatif_app(monkeypatch: pytest.MonkeyPatch, registry_path: object, **params: str | list[str]) -> Any:
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("ASSETROUTE_REGISTRY", str(registry_path))
    at = AppTest.from_file(str(Path(__file__).resolve().parents[1] / "app.py"), default_timeout=300)
    for key, value in params.items():
        at.query_params[key] = value
    at.switch_page("pages/what_if.py")
    return at.run()


def test_whatif_page_from_a_link(monkeypatch: pytest.MonkeyPatch, registry_path: object,
                                 registry: ar.Registry) -> None:
    at = _whatif_app(monkeypatch, registry_path, pfm="cosmoshub-4:off")
    assert not at.exception, [e.value for e in at.exception]
    assert not at.main.error
    expected = registry.diff(registry.with_changes(pfm={"cosmoshub-4": False}), allow_multi_tx=True)
    shown = {m.label: m.value for m in at.main.metric}
    assert shown["Pairs changed"] == str(expected.pairs_changed)
    assert shown["Pairs lost"] == str(expected.pairs_lost) == "0"
    # The PFM list is pre-filled from the overlay, minus the chain the link turns off.
    pfm = at.main.multiselect(key="wi_pfm").value
    assert "cosmoshub-4" not in pfm
    assert set(pfm) == {c.chain_id for c in registry.chains() if c.pfm_enabled} - {"cosmoshub-4"}
    table = next(d.value for d in at.main.dataframe if "new_txs_required" in d.value.columns)
    atom = table[(table["source_chain_id"] == "osmosis-1") & (table["dest_chain_id"] == "neutron-1")]
    assert list(atom["old_txs_required"]) == [1] and list(atom["new_txs_required"]) == [2]
    charts = at.main.get("plotly_chart")
    assert len(charts) == 2  # before / after heatmaps of single-transaction pairs
    before, after = (json.loads(c.proto.spec)["data"][0] for c in charts)
    row, col = before["y"].index("Osmosis"), before["x"].index("Neutron")
    scenario = registry.with_changes(pfm={"cosmoshub-4": False})
    assert before["z"][row][col] == len(registry.assets_between_chains("osmosis-1", "neutron-1"))
    assert after["z"][row][col] == len(scenario.assets_between_chains("osmosis-1", "neutron-1"))
    assert after["z"][row][col] < before["z"][row][col]  # ATOM (at least) needs two transactions now


def test_whatif_page_form_writes_the_url(monkeypatch: pytest.MonkeyPatch, registry_path: object) -> None:
    at = _whatif_app(monkeypatch, registry_path)
    assert not at.main.metric  # nothing to compare yet
    at.main.multiselect(key="wi_pfm").unselect("cosmoshub-4")
    at.main.multiselect(key="wi_close").select("osmosis-1:channel-0")
    at.main.get("form_submit_button")[0].click()
    at.run()
    assert not at.exception
    assert "cosmoshub-4:off" in str(at.query_params["pfm"])
    assert "osmosis-1:channel-0" in str(at.query_params["close"])
    assert {m.label for m in at.main.metric} >= {"Pairs changed", "Pairs lost"}


def test_whatif_page_bad_link_is_a_message(monkeypatch: pytest.MonkeyPatch, registry_path: object) -> None:
    at = _whatif_app(monkeypatch, registry_path, pfm=["atlantis-1:on"], close="osmosis-1:channel-424242",
                     fwd="TELEPORT:on")
    assert not at.exception
    errors = " ".join(e.value for e in at.main.error).replace("\\", "")
    for value in ("atlantis-1", "channel-424242", "TELEPORT"):
        assert value in errors
    assert not at.main.metric
