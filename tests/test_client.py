"""AssetRouteClient against the real loopback service (conftest ``live_server``) and, for answers our
service never gives (non-JSON, wrong shapes, 5xx, 501, the reference's own bodies), against a tiny
real ``http.server`` that replies what each test scripts. No mock transport is used.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

from assetroute_core import (
    InvalidArgumentError,
    MethodNotAllowedError,
    NotFoundError,
    PayloadTooLargeError,
    Registry,
    RemoteServiceError,
    SwapVenue,
)
from assetroute_core.client import AssetRouteClient

EXAMPLES = Path(__file__).resolve().parents[2] / "shared" / "skip-api-examples"
ATOM_ON_OSMOSIS = "ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2"


@pytest.fixture(scope="module")
def client(live_server: str) -> Iterator[AssetRouteClient]:
    with AssetRouteClient(live_server) as c:
        yield c


# -- a scripted real server ------------------------------------------------------------------


@dataclass
class Script:
    status: int = 200
    body: bytes = b"{}"
    content_type: str = "application/json"
    delay: float = 0.0
    requests: list[dict[str, Any]] = field(default_factory=list)


class _Handler(BaseHTTPRequestHandler):
    script: Script

    def _reply(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        self.script.requests.append({"method": self.command, "path": self.path,
                                     "headers": {k.lower(): v for k, v in self.headers.items()},
                                     "body": self.rfile.read(length)})
        if self.script.delay:
            time.sleep(self.script.delay)
        self.send_response(self.script.status)
        self.send_header("content-type", self.script.content_type)
        self.send_header("content-length", str(len(self.script.body)))
        self.end_headers()
        self.wfile.write(self.script.body)

    do_GET = do_POST = _reply

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def scripted() -> Iterator[tuple[str, Script]]:
    script = Script()
    handler = type("Handler", (_Handler,), {"script": script})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", script
    finally:
        server.shutdown()
        server.server_close()


# -- same answers as the in-process registry -------------------------------------------------


BETWEEN_CASES = [
    ("cosmoshub-4", "osmosis-1", {}),
    ("osmosis-1", "cosmoshub-4", {"allow_multi_tx": True, "include_no_metadata_assets": True}),
    ("1", "cosmoshub-4", {"include_evm_assets": True}),
    ("neutron-1", "osmosis-1", {"include_cw20_assets": True, "include_no_metadata_assets": True}),
]


@pytest.mark.parametrize(("src", "dest", "options"), BETWEEN_CASES)
def test_between_equals_the_registry(client: AssetRouteClient, registry: Registry, src: str, dest: str,
                                     options: dict[str, bool]) -> None:
    remote = client.assets_between_chains(src, dest, **options)
    local = registry.assets_between_chains(src, dest, **options)
    assert remote.to_api() == local.to_api()
    assert remote.to_json() == local.to_json()
    assert (remote.source_chain_id, remote.dest_chain_id) == (src, dest)
    assert len(remote) == len(local) > 0
    assert all(p.route is None for p in remote)


def test_atom_pair_through_the_client(client: AssetRouteClient) -> None:
    pair = next(p for p in client.assets_between_chains("cosmoshub-4", "osmosis-1")
                if p.asset_on_source.denom == "uatom")
    assert pair.asset_on_dest.denom == ATOM_ON_OSMOSIS
    assert (pair.asset_on_dest.trace, pair.txs_required, pair.bridges) == ("transfer/channel-0", 1, ("IBC",))


FROM_SOURCE_CASES: list[tuple[str, str, dict[str, Any]]] = [
    ("uusdc", "axelar-dojo-1", {}),
    ("uusdc", "axelar-dojo-1", {"allow_multi_tx": True, "include_cw20_assets": True, "native_only": True}),
    ("uatom", "cosmoshub-4", {"recommendation_reason": "DIRECT", "group_by": "recommended_symbol"}),
    (ATOM_ON_OSMOSIS, "osmosis-1", {"recommendation_reason": "BASE_TOKEN"}),
    ("uatom", "cosmoshub-4", {"include_swaps": True,
                              "swap_venues": [SwapVenue("osmosis-poolmanager", "osmosis-1"),
                                              {"name": "neutron-astroport", "chain_id": "neutron-1"}]}),
]


@pytest.mark.parametrize(("denom", "chain", "options"), FROM_SOURCE_CASES)
def test_from_source_equals_the_registry(client: AssetRouteClient, registry: Registry, denom: str, chain: str,
                                         options: dict[str, Any]) -> None:
    remote = client.assets_from_source(denom, chain, **options)
    local = registry.assets_from_source(denom, chain, **options)
    assert remote.to_api() == local.to_api()
    assert remote.to_json() == local.to_json()
    assert remote.group_by == local.group_by
    assert len(remote) == len(local) > 0


def test_chains_equal_the_registry(client: AssetRouteClient, registry: Registry) -> None:
    remote = client.chains()
    assert [c.to_api() for c in remote] == [c.to_api() for c in registry.chains()]
    hub = next(c for c in remote if c.chain_id == "cosmoshub-4")
    assert (hub.chain_name, hub.chain_type, hub.status) == ("cosmoshub", "cosmos", "live")


# -- errors carry the server's message -------------------------------------------------------


def test_unknown_chain_is_not_found(client: AssetRouteClient) -> None:
    with pytest.raises(NotFoundError) as info:
        client.assets_between_chains("cosmoshub-4", "no-such-chain-1")
    assert info.value.message == "dest chain not found"
    assert info.value.to_api() == {"code": 5, "message": "dest chain not found", "details": []}
    with pytest.raises(NotFoundError, match=r"^source chain not found$"):
        client.assets_between_chains("", "osmosis-1")


@pytest.mark.parametrize(("call", "message"), [
    (lambda c: c.assets_from_source("ufoo", "cosmoshub-4"), "Invalid source_asset_denom"),
    (lambda c: c.assets_from_source("uatom", "nope-1"), "Invalid source_asset_chain_id"),
    (lambda c: c.assets_between_chains("osmosis-1", "osmosis-1"), "source and dest chain must differ"),
    (lambda c: c.assets_from_source("uatom", "cosmoshub-4", group_by="origin"),
     'invalid value for field group_by: "origin" (allowed: chain_id, recommended_symbol)'),
    (lambda c: c.assets_from_source("uatom", "cosmoshub-4", recommendation_reason="CHEAPEST"),
     'invalid value for enum field recommendation_reason: "CHEAPEST" '
     "(allowed: UNKNOWN, BASE_TOKEN, MOST_LIQUID, DIRECT, or 0-3)"),
    (lambda c: c.assets_between_chains("cosmoshub-4", "osmosis-1", allow_multi_tx="yes"),
     'invalid value for bool field allow_multi_tx: "yes"'),
    (lambda c: c.assets_from_source("uatom", "cosmoshub-4", swap_venues=[{"name": "x"}]),
     "missing required field swap_venues[0].chain_id"),
])
def test_invalid_requests_raise_invalid_argument_with_the_server_message(client: AssetRouteClient, call: Any,
                                                                          message: str) -> None:
    with pytest.raises(InvalidArgumentError) as info:
        call(client)
    assert info.value.message == message
    assert str(info.value) == message
    assert info.value.code == 3


def test_oversized_request_is_payload_too_large(client: AssetRouteClient) -> None:
    venues = [SwapVenue(f"venue-{i:05d}", "osmosis-1") for i in range(2000)]  # > 64 KiB of JSON
    with pytest.raises(PayloadTooLargeError) as info:
        client.assets_from_source("uatom", "cosmoshub-4", include_swaps=True, swap_venues=venues)
    assert isinstance(info.value, InvalidArgumentError)
    assert info.value.message == "request body too large: limit is 65536 bytes"


def test_wrong_method_on_the_real_server_is_method_not_allowed(client: AssetRouteClient) -> None:
    with pytest.raises(MethodNotAllowedError, match=r"^Method Not Allowed$"):
        client._request("GET", "/v2/fungible/assets_from_source", None)
    with pytest.raises(NotFoundError, match=r"^Not Found$"):
        client._request("POST", "/v2/fungible/nothing", {})


def test_connection_refused_is_a_remote_service_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with AssetRouteClient(f"http://127.0.0.1:{port}") as c, pytest.raises(RemoteServiceError) as info:
        c.assets_between_chains("cosmoshub-4", "osmosis-1")
    assert "ConnectError" in str(info.value) and str(port) in str(info.value)


def test_timeout_is_a_remote_service_error(scripted: tuple[str, Script]) -> None:
    url, script = scripted
    script.delay = 1.0
    with AssetRouteClient(url, timeout=0.2) as c, pytest.raises(RemoteServiceError, match="Timeout"):
        c.chains()


# -- answers our service never gives ---------------------------------------------------------


@pytest.mark.parametrize(("status", "body", "content_type", "fragment"), [
    (200, b"<html>not json</html>", "text/html", "non-JSON body"),
    (200, b"", "application/json", "non-JSON body"),
    (200, b"[1, 2]", "application/json", "unexpected assets_between_chains response"),
    (200, b'{"assets_between_chains": 5}', "application/json", "unexpected assets_between_chains response"),
    (200, b'{"assets_between_chains": [5]}', "application/json", "malformed pair"),
    (200, b'{"assets_between_chains": [{"asset_on_source": {"denom": "x"}}]}', "application/json", "malformed"),
    (200, b'{"assets_between_chains": [{"asset_on_source": {"denom": "a", "chain_id": "b"}, '
          b'"asset_on_dest": {"denom": "c", "chain_id": "d"}, "txs_required": "many"}]}',
     "application/json", "malformed pair"),
    (200, b'{"assets_between_chains": [{"asset_on_source": {"denom": "a", "chain_id": "b"}, '
          b'"asset_on_dest": {"denom": "c", "chain_id": "d"}, "bridges": 7}]}',
     "application/json", "malformed pair"),
    (500, b'{"code":2,"message":"internal server error","details":[]}', "application/json",
     "HTTP 500: internal server error"),
    (503, b"upstream down", "text/plain", "HTTP 503 with an unexpected body"),
    (429, b'{"code":8,"message":"rate limited","details":[]}', "application/json", "HTTP 429: rate limited"),
    (404, b"<h1>404</h1>", "text/html", "HTTP 404 with an unexpected body"),
    (400, b'{"error": "no message field"}', "application/json", "HTTP 400 with an unexpected body"),
    (302, b"", "text/plain", "HTTP 302"),
])
def test_unexpected_answers_are_remote_service_errors(scripted: tuple[str, Script], status: int, body: bytes,
                                                      content_type: str, fragment: str) -> None:
    url, script = scripted
    script.status, script.body, script.content_type = status, body, content_type
    with AssetRouteClient(url) as c, pytest.raises(RemoteServiceError) as info:
        c.assets_between_chains("cosmoshub-4", "osmosis-1")
    assert fragment in str(info.value)


@pytest.mark.parametrize("body", [b'{"dest_assets": []}', b'{"dest_assets": {"a": {"assets": 3}}}',
                                  b'{"dest_assets": {"a": [1]}}', b'{"dest_assets": {"a": {"assets": [7]}}}',
                                  b"null"])
def test_malformed_from_source_answers(scripted: tuple[str, Script], body: bytes) -> None:
    url, script = scripted
    script.body = body
    with AssetRouteClient(url) as c, pytest.raises(RemoteServiceError):
        c.assets_from_source("uatom", "cosmoshub-4")


@pytest.mark.parametrize("body", [b'{"chains": 1}', b'{"chains": [{"chain_name": "x"}]}', b"[]"])
def test_malformed_chains_answers(scripted: tuple[str, Script], body: bytes) -> None:
    url, script = scripted
    script.body = body
    with AssetRouteClient(url) as c, pytest.raises(RemoteServiceError):
        c.chains()


def test_reference_501_is_method_not_allowed(scripted: tuple[str, Script]) -> None:
    """The reference's grpc-gateway answers a wrong method with 501 and gRPC code 12."""
    url, script = scripted
    script.status, script.body = 501, b'{"code":12,"message":"Method Not Allowed","details":[]}'
    with AssetRouteClient(url) as c, pytest.raises(MethodNotAllowedError, match=r"^Method Not Allowed$"):
        c.assets_between_chains("cosmoshub-4", "osmosis-1")


def test_reference_answers_are_read_as_sent(scripted: tuple[str, Script]) -> None:
    """Bodies of the reference service (with fields we do not emit, like is_svm) are kept verbatim."""
    url, script = scripted
    example = json.loads((EXAMPLES / "assets_between_chains__ethereum-1_to_cosmoshub-4_evm.json").read_text())
    response = example["response"]
    for pair in response["assets_between_chains"]:
        pair["asset_on_dest"]["is_svm"] = False
    script.body = json.dumps(response).encode()
    with AssetRouteClient(url) as c:
        result = c.assets_between_chains("1", "cosmoshub-4", include_evm_assets=True)
    assert result.to_api() == response
    pair = result.pairs[0]
    assert pair.bridges == ("AXELAR",) and pair.asset_on_dest.metadata is not None
    assert pair.asset_on_dest.metadata.recommended_symbol == "USDC.axl"

    example = json.loads((EXAMPLES / "assets_from_source__uusdc_axelar-dojo-1.json").read_text())
    script.body = json.dumps(example["response"]).encode()
    with AssetRouteClient(url) as c:
        fs = c.assets_from_source("uusdc", "axelar-dojo-1")
    assert fs.to_api() == example["response"]
    assert list(fs.dest_assets) == ["agoric-3", "comdex-1"]


# -- what goes on the wire -------------------------------------------------------------------


def test_only_non_default_options_are_sent(scripted: tuple[str, Script]) -> None:
    url, script = scripted
    script.body = b'{"assets_between_chains": []}'
    with AssetRouteClient(url) as c:
        c.assets_between_chains("cosmoshub-4", "osmosis-1")
        c.assets_between_chains("cosmoshub-4", "osmosis-1", allow_multi_tx=True, include_evm_assets=False)
        script.body = b'{"dest_assets": {}}'
        c.assets_from_source("uatom", "cosmoshub-4")
        c.assets_from_source("uatom", "cosmoshub-4", recommendation_reason="DIRECT", include_swaps=True,
                             swap_venues=[SwapVenue("v", "osmosis-1", "https://l/v.png"),
                                          {"name": "w", "chain_id": "neutron-1"}],
                             group_by="recommended_symbol", native_only=True, include_cw20_assets=True)
    sent = [(r["method"], r["path"], json.loads(r["body"])) for r in script.requests]
    assert sent == [
        ("POST", "/v2/fungible/assets_between_chains",
         {"source_chain_id": "cosmoshub-4", "dest_chain_id": "osmosis-1"}),
        ("POST", "/v2/fungible/assets_between_chains",
         {"source_chain_id": "cosmoshub-4", "dest_chain_id": "osmosis-1", "allow_multi_tx": True}),
        ("POST", "/v2/fungible/assets_from_source",
         {"source_asset_denom": "uatom", "source_asset_chain_id": "cosmoshub-4"}),
        ("POST", "/v2/fungible/assets_from_source",
         {"source_asset_denom": "uatom", "source_asset_chain_id": "cosmoshub-4", "recommendation_reason": "DIRECT",
          "include_swaps": True,
          "swap_venues": [{"name": "v", "chain_id": "osmosis-1", "logo_uri": "https://l/v.png"},
                          {"name": "w", "chain_id": "neutron-1"}],
          "native_only": True, "group_by": "recommended_symbol", "include_cw20_assets": True}),
    ]
    assert all(r["headers"]["content-type"] == "application/json" for r in script.requests)


def test_base_url_path_prefix_and_headers(scripted: tuple[str, Script]) -> None:
    url, script = scripted
    script.body = b'{"chains": []}'
    with AssetRouteClient(url + "/api/", headers={"authorization": "secret-key"}) as c:
        assert c.chains() == ()
        assert c.base_url == url + "/api"
    request = script.requests[0]
    assert (request["method"], request["path"]) == ("GET", "/api/v2/info/chains?include_evm=true&include_svm=true")
    assert request["headers"]["authorization"] == "secret-key"
    assert request["headers"]["accept"] == "application/json"


@pytest.mark.parametrize("base_url", ["", "not a url", "ftp://example.com", "http://", "/relative"])
def test_invalid_base_url(base_url: str) -> None:
    with pytest.raises(InvalidArgumentError):
        AssetRouteClient(base_url)


def test_close_and_context_manager(live_server: str) -> None:
    c = AssetRouteClient(live_server)
    assert len(c.chains()) > 100
    c.close()
    with pytest.raises(RemoteServiceError):
        c.chains()
    with AssetRouteClient(live_server) as c2:
        assert repr(c2) == f"AssetRouteClient({live_server!r})"
    assert c2._http.is_closed


def test_custom_transport_is_used(live_server: str, registry: Registry) -> None:
    """A caller's own transport (here a real one with retries) is used as given."""
    with AssetRouteClient(live_server, transport=httpx.HTTPTransport(retries=2)) as c:
        assert c.assets_between_chains("cosmoshub-4", "osmosis-1").to_json() == \
            registry.assets_between_chains("cosmoshub-4", "osmosis-1").to_json()
