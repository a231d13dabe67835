"""ICS-20 arithmetic: hashes, path splitting, the send rule."""

import hashlib

import pytest

from assetroute_core._ibc import ibc_denom, is_channel_id, join_trace, send_trace, split_path, trace_pairs


def test_ibc_denom_matches_sha256_of_path():
    path = "transfer/channel-0/uatom"
    expected = "ibc/" + hashlib.sha256(path.encode()).hexdigest().upper()
    assert ibc_denom("transfer/channel-0", "uatom") == expected
    assert expected == "ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2"


def test_native_has_no_hash():
    assert ibc_denom("", "uatom") == "uatom"


@pytest.mark.parametrize(
    ("path", "pairs", "base"),
    [
        ("transfer/channel-0/uatom", ("transfer", "channel-0"), "uatom"),
        ("transfer/channel-1/transfer/channel-2/uosmo", ("transfer", "channel-1", "transfer", "channel-2"), "uosmo"),
        ("transfer/channel-3/factory/osmo1abc/alloyed/allBTC", ("transfer", "channel-3"),
         "factory/osmo1abc/alloyed/allBTC"),
        ("transfer/08-wasm-1369/0x2260fac5e5542a773aa44fbcfedf7c193bc2c599", ("transfer", "08-wasm-1369"),
         "0x2260fac5e5542a773aa44fbcfedf7c193bc2c599"),
        ("uatom", (), "uatom"),
        ("gamm/pool/1", (), "gamm/pool/1"),
    ],
)
def test_split_path(path, pairs, base):
    assert split_path(path) == (pairs, base)


def test_channel_ids():
    assert is_channel_id("channel-0")
    assert is_channel_id("08-wasm-1369")
    assert not is_channel_id("*")
    assert not is_channel_id("channel-")
    assert not is_channel_id("cosmoshub")


def test_trace_pairs_roundtrip():
    trace = "transfer/channel-874/transfer/channel-0"
    assert trace_pairs(trace) == (("transfer", "channel-874"), ("transfer", "channel-0"))
    assert join_trace(trace_pairs(trace)) == trace
    assert trace_pairs("") == ()


def test_send_unwinds_or_prepends():
    # Sending back over the channel the voucher arrived on unwinds it.
    assert send_trace("transfer/channel-0", local_channel="channel-0", remote_channel="channel-141") == ""
    assert send_trace("transfer/channel-5/transfer/channel-9", local_channel="channel-5",
                      remote_channel="channel-7") == "transfer/channel-9"
    # Anything else prepends the receiving end.
    assert send_trace("", local_channel="channel-141", remote_channel="channel-0") == "transfer/channel-0"
    assert send_trace("transfer/channel-9", local_channel="channel-1", remote_channel="channel-2") == (
        "transfer/channel-2/transfer/channel-9")
    # A prefix match must be a whole pair, not a prefix of the channel number.
    assert send_trace("transfer/channel-10", local_channel="channel-1", remote_channel="channel-2") == (
        "transfer/channel-2/transfer/channel-10")
    assert send_trace("", local_channel="channel-3", remote_channel="channel-4", local_port="wasm.terra1x",
                      remote_port="transfer") == "transfer/channel-4"
