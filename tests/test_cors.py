"""CORS: a browser page on another origin can call the service (issue 10), on a real server on loopback.

The official SDK always sends ``content-type: application/json``, so a browser always sends a preflight
``OPTIONS`` first; these tests send exactly what a browser sends and check what it would require.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager

import httpx
import pytest
from starlette.applications import Starlette

from assetroute_core import Registry
from assetroute_core.server import create_app, parse_cors_origins

BETWEEN = "/v2/fungible/assets_between_chains"
PAGE = "https://dashboard.example"
BODY = {"source_chain_id": "cosmoshub-4", "dest_chain_id": "osmosis-1"}


def preflight(http: httpx.Client, path: str, origin: str = PAGE, method: str = "POST") -> httpx.Response:
    return http.options(path, headers={"origin": origin, "access-control-request-method": method,
                                       "access-control-request-headers": "content-type"})


@pytest.fixture(scope="module")
def any_origin(live_server: str) -> Iterator[httpx.Client]:
    """The shared live server, created with the default policy (any origin)."""
    with httpx.Client(base_url=live_server, timeout=30) as client:
        yield client


@pytest.fixture(scope="module")
def one_origin(registry: Registry, serve_app: Callable[[Starlette], AbstractContextManager[str]]
               ) -> Iterator[httpx.Client]:
    with serve_app(create_app(registry, cors_origins=[PAGE])) as url, httpx.Client(base_url=url, timeout=30) as c:
        yield c


@pytest.fixture(scope="module")
def cors_off(registry: Registry, serve_app: Callable[[Starlette], AbstractContextManager[str]]
             ) -> Iterator[httpx.Client]:
    with serve_app(create_app(registry, cors_origins=())) as url, httpx.Client(base_url=url, timeout=30) as c:
        yield c


@pytest.mark.parametrize("path", [BETWEEN, "/v2/fungible/assets_from_source", "/v2/info/chains"])
def test_preflight_is_answered_for_any_origin_by_default(any_origin: httpx.Client, path: str) -> None:
    method = "GET" if path.endswith("chains") else "POST"
    r = preflight(any_origin, path, method=method)
    assert r.status_code == 200, r.text
    assert r.headers["access-control-allow-origin"] == "*"
    assert method in r.headers["access-control-allow-methods"]
    assert "content-type" in r.headers["access-control-allow-headers"].lower()
    assert r.headers["access-control-max-age"] == "600"
    assert "access-control-allow-credentials" not in r.headers  # public data: never with cookies


def test_actual_request_carries_the_header_and_the_same_body(any_origin: httpx.Client) -> None:
    plain = any_origin.post(BETWEEN, json=BODY)
    cross = any_origin.post(BETWEEN, json=BODY, headers={"origin": PAGE})
    assert cross.status_code == plain.status_code == 200
    assert cross.headers["access-control-allow-origin"] == "*"
    assert "access-control-allow-origin" not in plain.headers  # no Origin, no CORS header
    assert cross.content == plain.content


def test_errors_carry_the_header_too(any_origin: httpx.Client) -> None:
    """A page must be able to read the error body, so 4xx answers are CORS responses as well."""
    r = any_origin.post(BETWEEN, json={"source_chain_id": "cosmoshub-4", "dest_chain_id": "nope-1"},
                        headers={"origin": PAGE})
    assert r.status_code == 404 and r.json()["code"] == 5
    assert r.headers["access-control-allow-origin"] == "*"
    bad = any_origin.post(BETWEEN, content=b"{", headers={"origin": PAGE})
    assert bad.status_code == 400 and bad.headers["access-control-allow-origin"] == "*"


def test_a_listed_origin_is_echoed_and_another_is_refused_with_the_error_body(one_origin: httpx.Client) -> None:
    ok = preflight(one_origin, BETWEEN)
    assert ok.status_code == 200
    assert ok.headers["access-control-allow-origin"] == PAGE
    assert "origin" in ok.headers.get("vary", "").lower()
    refused = preflight(one_origin, BETWEEN, origin="https://evil.example")
    assert refused.status_code == 400
    body = refused.json()
    assert set(body) == {"code", "message", "details"} and body["code"] == 3
    assert "'https://evil.example'" in body["message"] and "origin" in body["message"]
    assert "access-control-allow-origin" not in refused.headers
    actual = one_origin.post(BETWEEN, json=BODY, headers={"origin": "https://evil.example"})
    assert actual.status_code == 200 and "access-control-allow-origin" not in actual.headers  # browser blocks it


def test_a_method_the_service_does_not_take_is_refused(any_origin: httpx.Client) -> None:
    r = preflight(any_origin, BETWEEN, method="DELETE")
    assert r.status_code == 400
    assert "'DELETE'" in r.json()["message"]


def test_cors_off_sends_no_headers_and_options_is_405(cors_off: httpx.Client) -> None:
    r = preflight(cors_off, BETWEEN)
    assert r.status_code == 405
    assert r.json()["code"] == 12 and "access-control-allow-origin" not in r.headers
    assert "access-control-allow-origin" not in cors_off.post(BETWEEN, json=BODY, headers={"origin": PAGE}).headers


def test_plain_options_without_a_preflight_is_still_405(any_origin: httpx.Client) -> None:
    r = any_origin.options(BETWEEN)
    assert r.status_code == 405 and r.json()["code"] == 12


@pytest.mark.parametrize("value, expected", [
    ("*", ("*",)), ("", ()), ("none", ()), ("https://a.example/, https://a.example", ("https://a.example",)),
    ("http://localhost:8501", ("http://localhost:8501",)),
])
def test_origin_lists_parse(value: str, expected: tuple[str, ...]) -> None:
    assert parse_cors_origins(value) == expected


@pytest.mark.parametrize("value", ["ftp://x", "https://a.example/path", "a.example", "https://a b"])
def test_bad_origins_are_refused_naming_the_value(value: str) -> None:
    with pytest.raises(ValueError, match="CORS origin"):
        parse_cors_origins(value)
    with pytest.raises(ValueError, match="CORS origin"):
        create_app(Registry.__new__(Registry), cors_origins=[value])


def test_cli_refuses_a_bad_origin_with_a_usage_error() -> None:
    r = subprocess.run([sys.executable, "-m", "assetroute_core", "serve", "--cors-origins", "ftp://x", "--port", "1"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    assert "--cors-origins" in r.stderr and "'ftp://x'" in r.stderr
    assert "Traceback" not in r.stderr
