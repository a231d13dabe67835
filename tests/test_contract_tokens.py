"""Contract tokens travel over their own ``wasm.`` ports only (SPEC.md §2–§3, issue 8 defects 1–2).

Expected values come from the registry's own listings (the voucher each chain lists, with the
channel its path names) and from the ICS-20 hash of the registry's channels, never from our output.
"""

import hashlib

import pytest

ALL_FLAGS = {"include_no_metadata_assets": True, "include_cw20_assets": True, "include_evm_assets": True,
             "allow_multi_tx": True}

SHD = "cw20:secret153wu605vvp934xhd4k9dtd640zsep5jkesstdm"
SHD_OSMOSIS = "ibc/0B3D528E74E3DEAADF8A68F393887AC7E06028904D02173561B0D27F6E751D0A"  # listed, channel-476
SHD_PERSISTENCE = "ibc/5D3B6445EA1D7064C4B1CCB588638589529556E1BCBADF13475021B42EA8C73B"  # listed, channel-159
SILK = "cw20:secret1fl449muk5yq8dlad7a22nje4p5d2pnsgymhjfd"
ASTRO = "cw20:terra1nsuqsk6kh58ulczatwev87ttq2z6r3pusulg9r24mfj2fvtzd4uq3exn26"
ASTRO_NEUTRON = "ibc/5751B8BCDA688FD0A8EC0B292EEF1CDEAB4B766B63EC632778B196D317C40C3A"  # listed, channel-5
ASTRO_OSMOSIS = "ibc/C25A2303FE24B922DAFFDCE377AC5A42E5EF746806D32E2ED4B610DE85C203F7"  # listed, channel-21671
SECRET_ON_OSMOSIS = (  # issue 8: listed Osmosis vouchers of Secret tokens that were never reached
    "ibc/0B3D528E74E3DEAADF8A68F393887AC7E06028904D02173561B0D27F6E751D0A",
    "ibc/18A1B70E3205A48DE8590C0D11030E7146CDBF1048789261D53FFFD7527F8B55",
    "ibc/1FBA9E763B8679BEF7BAAAF2D16BCA78C3B297D226C3F31312C769D7B8F992D8",
    "ibc/71055835C7639739EAE03AACD1324FE162DBA41D09F197CB72D966D014225B1C",
    "ibc/8A025A1E70101E39DE0C0F153E582A30806D3DA16795F6D868A3AA247D2DEDF7",
    "ibc/9A8A93D04917A149C8AC7C16D3DA8F470D59E8D867499C4DA97450E1D7363213",
)


def _hash(path):
    return "ibc/" + hashlib.sha256(path.encode()).hexdigest().upper()


def _pairs(registry, source, dest, **flags):
    return {(p.asset_on_source.denom, p.asset_on_dest.denom): p
            for p in registry.assets_between_chains(source, dest, **flags).pairs}


def _wasm_channel(registry, chain, counterparty, port_prefix):
    """The channel id on *counterparty* whose far end (on *chain*) is a wasm. port starting with *port_prefix*."""
    for ch in registry.channels():
        for _mine, theirs, my_port, their_port, my_chain, their_chain in (
                (ch.channel_1, ch.channel_2, ch.port_1, ch.port_2, ch.chain_1, ch.chain_2),
                (ch.channel_2, ch.channel_1, ch.port_2, ch.port_1, ch.chain_2, ch.chain_1)):
            if my_chain == chain and their_chain == counterparty and my_port.startswith(port_prefix) \
                    and their_port == "transfer":
                return theirs
    raise AssertionError(f"no wasm channel {chain} -> {counterparty}")


def test_secret_tokens_are_contract_tokens_but_not_cw20(registry):
    shd = registry.find_asset("secret-4", SHD)
    assert shd is not None and shd.type_asset in ("snip20", "snip25")
    assert registry.engine.is_contract_token(shd)
    assert shd.is_cw20 is False  # the output field stays type_asset == "cw20" (SPEC §2)
    assert shd.to_api()["is_cw20"] is False


def test_shd_pair_osmosis_to_persistence(registry):
    """Issue 8, 1: the listed SHD pair exists, over IBC, as the two listings name it."""
    pair = _pairs(registry, "osmosis-1", "core-1", **ALL_FLAGS).get((SHD_OSMOSIS, SHD_PERSISTENCE))
    assert pair is not None
    assert pair.bridges == ("IBC",)
    assert pair.asset_on_source.origin_chain_id == pair.asset_on_dest.origin_chain_id == "secret-4"
    assert pair.asset_on_source.origin_denom == pair.asset_on_dest.origin_denom == SHD
    # SPEC §3: SHD arrives home on Secret over the wasm. port, where nothing forwards it: a second
    # transaction. (Issue 8 writes "1 tx"; the amended SPEC rule makes it 2, so the default flags omit it.)
    assert pair.txs_required == 2
    assert [h.new_tx for h in pair.route.hops] == [True, True]
    assert (SHD_OSMOSIS, SHD_PERSISTENCE) not in _pairs(registry, "osmosis-1", "core-1")
    # Nothing invented over a transfer<->transfer channel: every SHD instance on persistence is the listed one.
    shd_dest = {d for (s, d), p in _pairs(registry, "osmosis-1", "core-1", **ALL_FLAGS).items()
                if p.asset_on_dest.origin_denom == SHD}
    assert shd_dest == {SHD_PERSISTENCE}


def test_silk_reaches_the_hub_over_the_wasm_port(registry):
    """Issue 8, 1: SILK on the Hub is the voucher of channel-1355 (far end wasm.secret1…), not of channel-235."""
    far = _wasm_channel(registry, "secretnetwork", "cosmoshub", "wasm.secret1tqmms")
    assert far == "channel-1355"
    result = registry.assets_from_source(SILK, "secret-4")
    on_hub = [a.denom for a in result.dest_assets["cosmoshub-4"]]
    assert on_hub == [_hash(f"transfer/{far}/{SILK}")]
    assert on_hub[0].startswith("ibc/69E0457B")
    assert _hash(f"transfer/channel-235/{SILK}").startswith("ibc/AD46AF05")
    assert _hash(f"transfer/channel-235/{SILK}") not in on_hub
    # Only neighbours over a channel of that wasm. port: every chain in the answer has one.
    for chain_id, assets in result.dest_assets.items():
        chain = registry.chain(chain_id).chain_name
        far_end = _wasm_channel(registry, "secretnetwork", chain, "wasm.secret1tqmms")
        assert [a.trace for a in assets] == [f"transfer/{far_end}"]


@pytest.mark.parametrize("denom", SECRET_ON_OSMOSIS)
def test_listed_osmosis_vouchers_of_secret_tokens_are_reached(registry, denom):
    voucher = registry.find_asset("osmosis-1", denom)
    assert voucher is not None and voucher.listed and voucher.origin_chain_id == "secret-4"
    assert voucher.trace == "transfer/channel-476"
    result = registry.assets_from_source(voucher.origin_denom, "secret-4", include_cw20_assets=True)
    assert denom in [a.denom for a in result.dest_assets["osmosis-1"]]


def test_astro_pair_neutron_to_osmosis(registry):
    """Issue 8, 2: ASTRO travels only over the wasm. port its own traces name (channels 167 and 392 of terra2)."""
    pairs = _pairs(registry, "neutron-1", "osmosis-1", **ALL_FLAGS)
    pair = pairs.get((ASTRO_NEUTRON, ASTRO_OSMOSIS))
    assert pair is not None and pair.bridges == ("IBC",)
    assert pair.asset_on_source.origin_chain_id == pair.asset_on_dest.origin_chain_id == "phoenix-1"
    assert pair.txs_required == 2  # home to Terra over the wasm. port, then out again (SPEC §3)
    invented = _hash(f"transfer/channel-341/{ASTRO}")  # channel-341: the far end is another contract's port
    assert invented.startswith("ibc/E5916C20")
    for flags in ({}, ALL_FLAGS):
        assert not [k for k in _pairs(registry, "neutron-1", "osmosis-1", **flags) if invented in k]
    reached = registry.assets_from_source(ASTRO, "phoenix-1", allow_multi_tx=True, include_cw20_assets=True)
    assert sorted(reached.dest_assets) == ["neutron-1", "osmosis-1"]  # not carbon, kujira, migaloo, secret
    assert [a.denom for a in reached.dest_assets["osmosis-1"]] == [ASTRO_OSMOSIS]
    assert [a.denom for a in reached.dest_assets["neutron-1"]] == [ASTRO_NEUTRON]


def test_contract_token_without_a_wasm_trace_has_no_derived_vouchers(registry):
    """SEIYAN (cw20:sei1…) has an ibc-cw20 trace, but it names Sei's transfer port: no derived vouchers."""
    seiyan = [a for a in registry.assets("pacific-1") if a.denom.startswith("cw20:sei1hrndqntlvtmx2kepr0zsfgr7nzjptcc")]
    assert len(seiyan) == 1 and registry.engine.is_contract_token(seiyan[0])
    result = registry.assets_from_source(seiyan[0].denom, "pacific-1", include_cw20_assets=True, allow_multi_tx=True)
    assert result.dest_assets == {}


def test_wasm_arrival_is_never_forwarded(registry):
    """SPEC §3: a contract token coming home over a wasm. port starts a new transaction there, even with PFM."""
    assert registry.chain("secret-4").pfm_enabled  # so only the wasm. rule makes it 2
    pair = _pairs(registry, "osmosis-1", "core-1", **ALL_FLAGS)[(SHD_OSMOSIS, SHD_PERSISTENCE)]
    hops = pair.route.hops
    assert [(h.from_chain_id, h.to_chain_id, h.channel) for h in hops] == [
        ("osmosis-1", "secret-4", "channel-476"), ("secret-4", "core-1", "channel-132")]
    assert pair.txs_required == 1 + sum(h.new_tx for h in hops[1:])
