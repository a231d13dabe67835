"""The options of the two lookups, defined once.

Every interface (the :class:`~assetroute_core.Registry` methods, the HTTP request parser and the
OpenAPI document, :class:`~assetroute_core.AssetRouteClient`, the CLI, the dashboard and the
notebook helpers) takes its option names, defaults, kinds and descriptions from here.

Decisions made here:

* **Option names are the API's field names**, snake_case, exactly (``allow_multi_tx``, never
  ``multi_tx``); the camelCase spelling exists only on the wire.
* **One frozen dataclass per lookup** (:class:`BetweenChainsOptions`, :class:`FromSourceOptions`)
  holds every option except the two positional arguments (the chains, or the source asset). It
  checks its values when built, so an options object in hand is valid; it never changes after.
* **A** ``TypedDict`` **of the same names** (:class:`BetweenChainsKwargs`, :class:`FromSourceKwargs`)
  types ``**options: Unpack[...]`` signatures, so callers keep plain keywords, checked by mypy and
  completed by editors. Python has no way to derive one from the other; ``tests/test_options.py``
  checks that they name the same fields with the same types.
* **Fixed value sets are** ``Literal`` **types** (:data:`RecommendationReason`, :data:`GroupBy`); the
  tuples :data:`RECOMMENDATION_REASONS` and :data:`GROUP_BY_VALUES` are read from them.
* **Each field's metadata** carries its ``kind`` (how the request parser reads it), a one-line
  ``label`` (dashboard, CLI), ``doc`` (OpenAPI, CLI help) and ``extension`` (true for a field the
  reference API does not have: the OpenAPI document marks it ``x-assetroute-extension``).

Adding an option to a lookup means: a field (with metadata) in its dataclass, the same name in its
``TypedDict``, and using it in ``_lookups.py``; the API, client, CLI flags and dashboard switches
follow from the field.

>>> BetweenChainsOptions(allow_multi_tx=True).changed()
{'allow_multi_tx': True}
>>> FromSourceOptions(recommendation_reason="DIRECT").group
'chain_id'
>>> BetweenChainsOptions(allow_multi_tx="yes")
Traceback (most recent call last):
...
assetroute_core._exceptions.InvalidArgumentError: invalid value for bool field allow_multi_tx: 'yes'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypedDict, TypeVar, Unpack, get_args

from ._exceptions import InvalidArgumentError
from ._models import Chain, SwapVenue
from ._results import BetweenChainsResult, FromSourceResult

__all__ = [
    "BETWEEN_CHAINS_OPTIONS",
    "FROM_SOURCE_OPTIONS",
    "GROUP_BY_VALUES",
    "RECOMMENDATION_REASONS",
    "BetweenChainsKwargs",
    "BetweenChainsOptions",
    "FromSourceKwargs",
    "FromSourceOptions",
    "GroupBy",
    "OptionKind",
    "RecommendationReason",
    "SupportsLookups",
    "option_fields",
    "unchecked_changes",
]

#: ``Reason`` of the reference proto, in proto-number order (the index is the number).
RecommendationReason = Literal["UNKNOWN", "BASE_TOKEN", "MOST_LIQUID", "DIRECT"]
#: Keys of ``assets_from_source``'s groups (``""`` and ``None`` also mean ``chain_id``).
GroupBy = Literal["chain_id", "recommended_symbol"]
#: How the request parser, the OpenAPI document and the CLI read an option.
OptionKind = Literal["bool", "string", "reason", "group_by", "venues"]

RECOMMENDATION_REASONS: tuple[RecommendationReason, ...] = get_args(RecommendationReason)
GROUP_BY_VALUES: tuple[GroupBy, ...] = get_args(GroupBy)


def _meta(kind: OptionKind, label: str, doc: str, *, extension: bool = False) -> dict[str, Any]:
    return {"kind": kind, "label": label, "doc": doc, "extension": extension}


_OTHER_BRIDGES_DOC = (
    "Also return routes over registry bridges the reference API does not name (Gravity Bridge/PEGGY, Wormhole, "
    "PolyNetwork, Router, ...). Off by default: answers then use only the reference's bridge kinds. "
    "An assetroute extension; the reference API has no such field.")


_BOOL_FIELDS: dict[type, tuple[str, ...]] = {}


def _bool_fields(cls: type) -> tuple[str, ...]:
    names = _BOOL_FIELDS.get(cls)
    if names is None:
        names = _BOOL_FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls) if f.metadata["kind"] == "bool")
    return names


def _check_bools(options: object) -> None:
    for name in _bool_fields(type(options)):  # once per class: options are built on every lookup call
        value = getattr(options, name)
        if value is not True and value is not False:
            raise InvalidArgumentError(f"invalid value for bool field {name}", value=value)


_Options = TypeVar("_Options", "BetweenChainsOptions", "FromSourceOptions")


def _build(cls: type[_Options], lookup: str, options: Mapping[str, Any]) -> _Options:
    try:
        return cls(**options)
    except TypeError:
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(k for k in options if k not in names)
        if not unknown:
            raise
        raise TypeError(f"{lookup}() got an unexpected option {unknown[0]!r}; "
                        f"its options are {', '.join(sorted(names))}") from None


class _OptionsMixin:
    __slots__ = ()

    def to_kwargs(self) -> dict[str, Any]:
        """Every option as a keyword argument (the field's own value)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}  # type: ignore[arg-type]

    def changed(self) -> dict[str, Any]:
        """Only the options that differ from their default (what a client sends, what a URL keeps)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)  # type: ignore[arg-type]
                if getattr(self, f.name) != f.default}


@dataclass(frozen=True, slots=True, kw_only=True)
class BetweenChainsOptions(_OptionsMixin):
    """Options of ``assets_between_chains`` (every one ``False`` by default)."""

    include_no_metadata_assets: bool = field(default=False, metadata=_meta(
        "bool", "Assets without metadata",
        "Include pairs where either asset has no assetlist metadata (derived vouchers the assetlists do not list)."))
    include_cw20_assets: bool = field(default=False, metadata=_meta("bool", "CW20 assets", "Include CW20 assets."))
    include_evm_assets: bool = field(default=False, metadata=_meta("bool", "EVM assets", "Include EVM assets."))
    allow_multi_tx: bool = field(default=False, metadata=_meta(
        "bool", "Multi-transaction routes", "Include routes that need more than one transaction."))
    include_other_bridges: bool = field(default=False, metadata=_meta(
        "bool", "Other bridges (extension)", _OTHER_BRIDGES_DOC, extension=True))
    include_svm_assets: bool = field(default=False, metadata=_meta(
        "bool", "SVM assets", "Include SVM (Solana) assets."))

    def __post_init__(self) -> None:
        _check_bools(self)

    @classmethod
    def of(cls, options: Mapping[str, object]) -> BetweenChainsOptions:
        """Build from keyword arguments; an unknown name is a :class:`TypeError` naming it."""
        return _build(cls, "assets_between_chains", options)

    @property
    def key(self) -> tuple[bool, bool, bool, bool, bool, bool]:
        """The options as a tuple, in field order (a cache key)."""
        return (self.include_no_metadata_assets, self.include_cw20_assets, self.include_evm_assets,
                self.allow_multi_tx, self.include_other_bridges, self.include_svm_assets)


class BetweenChainsKwargs(TypedDict, total=False):
    """Keyword options of ``assets_between_chains``; see :class:`BetweenChainsOptions`."""

    include_no_metadata_assets: bool
    include_cw20_assets: bool
    include_evm_assets: bool
    allow_multi_tx: bool
    include_other_bridges: bool
    include_svm_assets: bool


def _venue(i: int, venue: object) -> SwapVenue:
    if isinstance(venue, SwapVenue):
        return venue
    name = venue.get("name") if isinstance(venue, Mapping) else None
    chain_id = venue.get("chain_id") if isinstance(venue, Mapping) else None
    if not isinstance(name, str) or not isinstance(chain_id, str):
        raise InvalidArgumentError(f"swap_venues[{i}] must be an object with string name and chain_id",
                                   value=venue)
    logo = venue.get("logo_uri") if isinstance(venue, Mapping) else None
    return SwapVenue(name, chain_id, logo if isinstance(logo, str) else None)


@dataclass(frozen=True, slots=True, kw_only=True)
class FromSourceOptions(_OptionsMixin):
    """Options of ``assets_from_source``.

    ``swap_venues`` accepts :class:`~assetroute_core.SwapVenue` objects or mappings with ``name``,
    ``chain_id`` and optionally ``logo_uri``; it is kept as a tuple of ``SwapVenue`` (an empty
    sequence becomes ``None``: every venue the overlay knows).
    """

    allow_multi_tx: bool = field(default=False, metadata=_meta(
        "bool", "Multi-transaction routes", "Include routes that need more than one transaction."))
    recommendation_reason: RecommendationReason | None = field(default=None, metadata=_meta(
        "reason", "Recommendation reason",
        "Which instance to recommend per chain, by name or proto number (UNKNOWN=0, BASE_TOKEN=1, "
        "MOST_LIQUID=2, DIRECT=3). Absent, UNKNOWN and MOST_LIQUID give the canonical representation."))
    include_swaps: bool = field(default=False, metadata=_meta(
        "bool", "Include swaps", "Add the assets tradable on the swap venues the source reaches."))
    swap_venues: tuple[SwapVenue, ...] | None = field(default=None, metadata=_meta(
        "venues", "Swap venues", "Swap venues to consider with include_swaps; empty or null means every known venue."))
    native_only: bool = field(default=False, metadata=_meta(
        "bool", "Native assets only", "Only return assets native to their chain (empty trace)."))
    group_by: GroupBy | None = field(default=None, metadata=_meta(
        "group_by", "Group results by",
        "Key of dest_assets: chain_id (default; empty string or null too) or recommended_symbol."))
    include_cw20_assets: bool = field(default=False, metadata=_meta("bool", "CW20 assets", "Include CW20 assets."))
    include_other_bridges: bool = field(default=False, metadata=_meta(
        "bool", "Other bridges (extension)", _OTHER_BRIDGES_DOC, extension=True))

    def __post_init__(self) -> None:
        _check_bools(self)
        reason = self.recommendation_reason
        if reason is not None and reason not in RECOMMENDATION_REASONS:
            raise InvalidArgumentError(
                f"invalid recommendation_reason; allowed: {', '.join(RECOMMENDATION_REASONS)}", value=reason)
        if self.group_by is not None and not self.group_by:  # "" means unset, as on the wire
            object.__setattr__(self, "group_by", None)
        elif self.group_by is not None and self.group_by not in GROUP_BY_VALUES:
            raise InvalidArgumentError(f"invalid group_by; allowed: {', '.join(GROUP_BY_VALUES)}",
                                       value=self.group_by)
        venues: object = self.swap_venues
        if venues is not None:
            if isinstance(venues, (str, bytes, Mapping)) or not isinstance(venues, Sequence):
                raise InvalidArgumentError("swap_venues must be a list of venues", value=venues)
            # normalised once, while the object is being built; never changed afterwards
            object.__setattr__(self, "swap_venues", tuple(_venue(i, v) for i, v in enumerate(venues)) or None)

    @classmethod
    def of(cls, options: Mapping[str, object]) -> FromSourceOptions:
        """Build from keyword arguments; an unknown name is a :class:`TypeError` naming it."""
        return _build(cls, "assets_from_source", options)

    @property
    def reason(self) -> RecommendationReason:
        """``recommendation_reason`` with its default filled in (``UNKNOWN``)."""
        return self.recommendation_reason or "UNKNOWN"

    @property
    def group(self) -> GroupBy:
        """``group_by`` with its default filled in (``chain_id``)."""
        return self.group_by or "chain_id"


class FromSourceKwargs(TypedDict, total=False):
    """Keyword options of ``assets_from_source``; see :class:`FromSourceOptions`."""

    allow_multi_tx: bool
    recommendation_reason: RecommendationReason | None
    include_swaps: bool
    swap_venues: Sequence[SwapVenue | Mapping[str, object]] | None
    native_only: bool
    group_by: GroupBy | Literal[""] | None
    include_cw20_assets: bool
    include_other_bridges: bool


def unchecked_changes(options: type[BetweenChainsOptions] | type[FromSourceOptions],
                      given: Mapping[str, Any]) -> dict[str, Any]:
    """The given options that are not at their default, with their values *unchecked*.

    For a client of a remote service, which must send what its caller gave and let the service
    judge it (one error message, the server's); only an unknown name fails here (:class:`TypeError`).

    >>> unchecked_changes(FromSourceOptions, {"group_by": "origin", "native_only": False})
    {'group_by': 'origin'}
    """
    defaults = {f.name: f.default for f in dataclasses.fields(options)}
    unknown = sorted(k for k in given if k not in defaults)
    if unknown:
        lookup = "assets_between_chains" if options is BetweenChainsOptions else "assets_from_source"
        raise TypeError(f"{lookup}() got an unexpected option {unknown[0]!r}; "
                        f"its options are {', '.join(sorted(defaults))}")
    return {k: v for k, v in given.items() if v is not None and not (v is False and defaults[k] is False)
            and not (k == "group_by" and v == "")}


def option_fields(options: type[BetweenChainsOptions] | type[FromSourceOptions]) -> tuple[dataclasses.Field[Any], ...]:
    """The option fields of a lookup, in order, with ``kind``, ``label`` and ``doc`` metadata.

    >>> [f.name for f in option_fields(BetweenChainsOptions)][:2]
    ['include_no_metadata_assets', 'include_cw20_assets']
    """
    return dataclasses.fields(options)


#: Option names of ``assets_between_chains``, in field order.
BETWEEN_CHAINS_OPTIONS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(BetweenChainsOptions))
#: Option names of ``assets_from_source``, in field order.
FROM_SOURCE_OPTIONS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(FromSourceOptions))


class SupportsLookups(Protocol):
    """Anything that answers both lookups and lists its chains: a :class:`~assetroute_core.Registry`
    or an :class:`~assetroute_core.AssetRouteClient` of a compatible service.

    The CLI, the dashboard's backends and the notebook helpers (:mod:`assetroute_core.network`)
    accept any of them.
    """

    def assets_between_chains(self, source_chain_id: str, dest_chain_id: str,
                              **options: Unpack[BetweenChainsKwargs]) -> BetweenChainsResult: ...

    def assets_from_source(self, source_asset_denom: str, source_asset_chain_id: str,
                           **options: Unpack[FromSourceKwargs]) -> FromSourceResult: ...

    def chains(self) -> tuple[Chain, ...]: ...
