"""The lookup options are defined once (``assetroute_core._options``) and every interface follows them.

Each test reads the option fields and checks one interface against them, so a field added to an
options dataclass fails here until every interface carries it (or the test says why not).
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import typing
from pathlib import Path

import pytest

import assetroute_core as ar
from assetroute_core import (
    BETWEEN_CHAINS_OPTIONS,
    FROM_SOURCE_OPTIONS,
    GROUP_BY_VALUES,
    RECOMMENDATION_REASONS,
    BetweenChainsKwargs,
    BetweenChainsOptions,
    FromSourceKwargs,
    FromSourceOptions,
    InvalidArgumentError,
    SwapVenue,
    option_fields,
)
from assetroute_core._cli import build_parser
from assetroute_core._openapi import build_openapi
from assetroute_core._requests import parse_between_chains, parse_from_source
from assetroute_core.client import AssetRouteClient

REPO = Path(__file__).resolve().parents[1]
LOOKUPS = [(BetweenChainsOptions, BetweenChainsKwargs), (FromSourceOptions, FromSourceKwargs)]


@pytest.mark.parametrize(("options", "kwargs"), LOOKUPS)
def test_typed_dict_names_the_same_fields_in_the_same_order(options: type, kwargs: type) -> None:
    assert list(typing.get_type_hints(kwargs)) == [f.name for f in dataclasses.fields(options)]
    assert kwargs.__total__ is False  # every option is optional


@pytest.mark.parametrize(("options", "kwargs"), LOOKUPS)
def test_every_field_says_how_it_is_read_and_shown(options: type, kwargs: type) -> None:
    for f in option_fields(options):
        assert f.metadata["kind"] in typing.get_args(ar.OptionKind), f.name
        assert f.metadata["label"] and f.metadata["doc"].endswith("."), f.name


def test_literal_value_sets_are_the_tuples() -> None:
    assert RECOMMENDATION_REASONS == typing.get_args(ar.RecommendationReason) == (
        "UNKNOWN", "BASE_TOKEN", "MOST_LIQUID", "DIRECT")
    assert GROUP_BY_VALUES == typing.get_args(ar.GroupBy) == ("chain_id", "recommended_symbol")


def test_options_are_frozen_and_checked_when_built() -> None:
    opts = FromSourceOptions(swap_venues=[{"name": "v", "chain_id": "osmosis-1"}], group_by="")
    assert opts.swap_venues == (SwapVenue("v", "osmosis-1"),) and opts.group_by is None and opts.group == "chain_id"
    with pytest.raises(dataclasses.FrozenInstanceError):
        opts.allow_multi_tx = True  # type: ignore[misc]
    assert FromSourceOptions(swap_venues=[]).swap_venues is None
    for bad in ({"allow_multi_tx": 1}, {"recommendation_reason": "CHEAPEST"}, {"group_by": "origin"},
                {"swap_venues": "osmosis"}, {"swap_venues": [{"name": "x"}]}):
        with pytest.raises(InvalidArgumentError) as info:
            FromSourceOptions.of(bad)
        assert repr(next(iter(bad.values())))[:20] in str(info.value) or "swap_venues" in str(info.value)
    with pytest.raises(TypeError, match=r"unexpected option 'allow_multitx'.*allow_multi_tx"):
        BetweenChainsOptions.of({"allow_multitx": True})


def test_registry_methods_take_exactly_the_options(registry: ar.Registry) -> None:
    with pytest.raises(TypeError, match="unexpected option 'include_cw20'"):
        registry.assets_between_chains("cosmoshub-4", "osmosis-1", include_cw20=True)  # type: ignore[call-arg]
    with pytest.raises(InvalidArgumentError, match="bool field native_only"):
        registry.assets_from_source("uatom", "cosmoshub-4", native_only="no")  # type: ignore[typeddict-item]
    for method in (ar.Registry.assets_between_chains, ar.Registry.assets_from_source,
                   AssetRouteClient.assets_between_chains, AssetRouteClient.assets_from_source):
        kinds = [p.kind for p in inspect.signature(method).parameters.values()]
        assert kinds[-1] is inspect.Parameter.VAR_KEYWORD, method


def test_request_parser_defaults_are_the_option_defaults() -> None:
    between = parse_between_chains(b'{}')
    assert {k: between[k] for k in BETWEEN_CHAINS_OPTIONS} == BetweenChainsOptions().to_kwargs()
    source = parse_from_source(b'{"source_asset_denom": "uatom", "source_asset_chain_id": "cosmoshub-4"}')
    assert {k: source[k] for k in FROM_SOURCE_OPTIONS} == FromSourceOptions().to_kwargs()


def test_openapi_documents_every_option_in_both_spellings() -> None:
    schemas = build_openapi()["components"]["schemas"]
    for options, schema in ((BetweenChainsOptions, "AssetsBetweenChainsRequest"),
                            (FromSourceOptions, "AssetsFromSourceRequest")):
        properties = schemas[schema]["properties"]
        for f in option_fields(options):
            assert properties[f.name]["description"] == f.metadata["doc"]
            assert ar._requests.camel_case(f.name) in properties


def test_cli_has_a_flag_for_every_option() -> None:
    parser = build_parser("assetroute")
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for command, names in (("between", BETWEEN_CHAINS_OPTIONS), ("from-source", FROM_SOURCE_OPTIONS),
                           ("diff", BETWEEN_CHAINS_OPTIONS), ("what-if", BETWEEN_CHAINS_OPTIONS)):
        dests = {a.dest for a in sub.choices[command]._actions}
        assert set(names) <= dests, (command, set(names) - dests)


def test_dashboard_labels_every_option_and_no_page_lists_them() -> None:
    from assetroute_app import BETWEEN_FLAGS, FROM_SOURCE_FLAGS, OPTION_HELP, OPTION_LABELS, FromSourceQuery

    assert set(OPTION_LABELS) == set(OPTION_HELP) == set(BETWEEN_CHAINS_OPTIONS) | set(FROM_SOURCE_OPTIONS)
    assert BETWEEN_FLAGS == BETWEEN_CHAINS_OPTIONS
    assert set(FROM_SOURCE_FLAGS) <= set(FROM_SOURCE_OPTIONS)
    # the From source page's URL state has a field for every option (venue names stand for venues)
    assert set(FROM_SOURCE_OPTIONS) <= {f.name for f in dataclasses.fields(FromSourceQuery)}
    for page in sorted((REPO / "pages").glob("*.py")):
        text = page.read_text()
        assert '"include_no_metadata_assets":' not in text, f"{page.name} lists options of its own"
