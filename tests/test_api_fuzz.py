"""Fuzz the HTTP service with schemathesis, in process, from its own OpenAPI document.

Every generated request (schema-valid and schema-invalid) must get an answer the document
describes: no server error, status and body conforming to the document, invalid data rejected
with 400. ``ASSETROUTE_FUZZ_EXAMPLES`` sets the Hypothesis examples per operation and mode
(500 by default; CI runs the default).
"""

from __future__ import annotations

import collections
import os
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import positive_data_acceptance
from schemathesis.config._checks import NegativeDataRejectionConfig

from assetroute_core import load_registry
from assetroute_core.server import create_app

EXAMPLES = int(os.environ.get("ASSETROUTE_FUZZ_EXAMPLES", "500"))
LOOKUPS = {
    "POST /v2/fungible/assets_between_chains",
    "GET /v2/fungible/assets_between_chains",
    "POST /v2/fungible/assets_from_source",
    "POST /v1/fungible/assets_from_source",
}
SEMANTIC_400 = {
    "assets_from_source": ("Invalid source_asset_denom", "Invalid source_asset_chain_id"),
    "assets_between_chains": ("source and dest chain must differ",),
    "assets": ("Invalid chain_id",),
}

SENT: collections.Counter[str] = collections.Counter()
STATUSES: dict[str, collections.Counter[int]] = collections.defaultdict(collections.Counter)


def _snapshot() -> Path:
    value = os.environ.get("ASSETROUTE_REGISTRY", "").strip()
    path = Path(value) if value else Path(__file__).resolve().parents[2] / "shared" / "chain-registry"
    if not (path / "_IBC").is_dir():  # collection fails loudly: nothing to fuzz without the snapshot
        raise RuntimeError(f"registry snapshot not found at {path} (set ASSETROUTE_REGISTRY)")
    return path


# Loaded at import: schemathesis reads the OpenAPI document when the tests are collected.
schema = schemathesis.openapi.from_asgi("/openapi.json", create_app(load_registry(_snapshot())))
schema.config.generation.update(modes=[schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE])
# Schema-invalid requests must be rejected with 400 (405 for a wrong method, 413 for a large body,
# 404 for the reference's "chain not found" on assets_between_chains).
schema.config.checks.negative_data_rejection = NegativeDataRejectionConfig(
    expected_statuses=["400", "404", "405", "413"])


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_every_generated_request_gets_a_documented_answer(case: Any) -> None:
    response = case.call()
    label = case.operation.label
    SENT[label] += 1
    STATUSES[label][response.status_code] += 1
    body = response.json()
    assert response.status_code < 500, response.text[:300]
    if response.status_code >= 400:
        assert set(body) == {"code", "message", "details"} and body["details"] == []
    negative = case.meta is not None and case.meta.generation.mode == schemathesis.GenerationMode.NEGATIVE
    if not negative and response.status_code == 400:
        # Schema-valid is not enough: the denom and chain must exist, and the two chains of
        # assets_between_chains must differ (rules a JSON schema cannot state; SPEC §4–§5).
        assert body["message"] in SEMANTIC_400.get(label.rsplit("/", 1)[1], ()), (body, case.body)
        case.validate_response(response, excluded_checks=[positive_data_acceptance])
    else:
        case.validate_response(response)
    if negative and label in LOOKUPS and response.status_code >= 400:
        wrong_method = case.method.upper() != case.operation.method.upper()
        assert response.status_code in ((405,) if wrong_method else (400, 404, 413)), (response.status_code, body)


def test_fuzzing_volume() -> None:
    """Runs after the fuzz test (file order): every lookup operation got its share of requests."""
    print("\nfuzzed requests per operation:", dict(SENT))
    print("statuses:", {k: dict(v) for k, v in STATUSES.items()})
    assert set(SENT) >= LOOKUPS
    for label in LOOKUPS:
        assert SENT[label] >= min(EXAMPLES, 500), (label, SENT[label])
