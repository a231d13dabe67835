"""URL state: each page's request as a query string, parsed as untrusted input.

Each page keeps its request in the query string with the API's own field names
(``?source_chain_id=cosmoshub-4&dest_chain_id=osmosis-1&allow_multi_tx=true``).
:meth:`BetweenQuery.from_params` and friends parse a query string, check every value
against the loaded registry and return the problems found (unknown chain-id, unknown
denom, bad flag value) as :class:`Problem` objects the page shows as a message.

Every value of a URL is untrusted: parsers never raise, whatever the value (``²``, 5,000
digits, a control character); they drop it and say why.  UI-only keys (``pair``, ``order``)
have their own parsers here (:func:`parse_pair`, :func:`parse_order`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from assetroute_core import (
    BETWEEN_CHAINS_OPTIONS,
    FROM_SOURCE_OPTIONS,
    GROUP_BY_VALUES,
    RECOMMENDATION_REASONS,
    BetweenChainsOptions,
    FromSourceOptions,
    option_fields,
)

from .text import md_code, md_escape

if TYPE_CHECKING:
    from assetroute_core import Registry

__all__ = [
    "BETWEEN_FLAGS",
    "DEFAULT_TOP_N",
    "FROM_SOURCE_FLAGS",
    "NETWORK_STATUSES",
    "OPTION_HELP",
    "OPTION_LABELS",
    "ORDERS",
    "BetweenQuery",
    "FromSourceQuery",
    "NetworkQuery",
    "Problem",
    "last_param",
    "params_signature",
    "parse_flag",
    "parse_flags",
    "parse_order",
    "parse_pair",
]

_TRUE = frozenset({"true", "1", "yes", "on"})
_FALSE = frozenset({"false", "0", "no", "off"})

Params = Mapping[str, "str | Sequence[str]"]


@dataclass(frozen=True, slots=True)
class Problem:
    """One bad value of a link: which parameter, what it held, what is wrong."""

    param: str
    value: str
    message: str
    severity: str = "error"  # "error" (the query is not run) or "warning" (value ignored)

    def markdown(self) -> str:
        """The problem as safe markdown: values appear as code spans."""
        return f"Link parameter {md_code(self.param)} = {md_code(self.value)}: {md_escape(self.message)}"


def last_param(params: Params, name: str) -> str | None:
    """The last value of query parameter *name* (a repeated key: the last one wins), or ``None``."""
    value = params.get(name)
    if value is None:
        return None
    if isinstance(value, str):
        return value
    values = list(value)
    return str(values[-1]) if values else None


def _all(params: Params, name: str) -> list[str]:
    value = params.get(name)
    if value is None:
        return []
    if isinstance(value, str):
        items = [value]
    else:
        items = [str(v) for v in value]
    out: list[str] = []
    for item in items:  # accept repeated keys and comma-separated values
        out.extend(p for p in (s.strip() for s in item.split(",")) if p)
    return out


def parse_flag(raw: str | None) -> bool | None:
    """``"true"``/``"1"``/``"yes"``/``"on"`` → True, the opposites → False, else ``None``.

    >>> parse_flag("TRUE"), parse_flag("0"), parse_flag("maybe")
    (True, False, None)
    """
    if raw is None:
        return None
    s = raw.strip().lower()
    if s in _TRUE:
        return True
    if s in _FALSE:
        return False
    return None


def parse_flags(params: Params, names: Sequence[str], problems: list[Problem], *,
                severity: Literal["error", "warning"] = "error") -> dict[str, bool]:
    """The flags among *names* that the link sets; a value that is not a flag is a :class:`Problem`.

    >>> problems: list[Problem] = []
    >>> parse_flags({"allow_multi_tx": "yes", "native_only": "maybe"}, ["allow_multi_tx", "native_only"], problems)
    {'allow_multi_tx': True}
    >>> [(p.param, p.severity) for p in problems]
    [('native_only', 'error')]
    """
    out = {}
    for name in names:
        raw = last_param(params, name)
        if raw is None:
            continue
        value = parse_flag(raw)
        if value is None:
            problems.append(Problem(name, raw, "is not a flag value; use true or false", severity))
        else:
            out[name] = value
    return out


def _chain_param(params: Params, name: str, chain_ids: Collection[str], problems: list[Problem]) -> str | None:
    raw = last_param(params, name)
    if raw is None or raw == "":
        return None
    if raw not in chain_ids:
        problems.append(Problem(name, raw, "is not a routable chain-id of the loaded registry"))
        return None
    return raw


def _int_param(params: Params, name: str, lo: int, hi: int, problems: list[Problem]) -> int | None:
    raw = last_param(params, name)
    if raw is None or raw == "":
        return None
    value = _whole(raw)
    if value is None:
        problems.append(Problem(name, raw, f"is not a whole number between {lo} and {hi}"))
        return None
    if not lo <= value <= hi:
        problems.append(Problem(name, raw, f"is out of range; use {lo} to {hi}"))
        return None
    return value


_MAX_DIGITS = 9  # enough for any row or count a page shows; longer numbers are refused unread


def _whole(raw: str) -> int | None:
    """A plain ASCII whole number (optional sign), else ``None`` — never raises.

    ``str.isdigit`` accepts ``"²"`` and ``int`` refuses it; ``int`` also refuses more than
    4,300 digits: both are checked here first.

    >>> _whole(" 12 "), _whole("²"), _whole("9" * 5000), _whole("-3")
    (12, None, None, -3)
    """
    s = raw.strip()
    digits = s[1:] if s[:1] in ("-", "+") else s
    if not digits or len(digits) > _MAX_DIGITS or not (digits.isascii() and digits.isdigit()):
        return None
    return int(s)


def _bool_params(query: Any, names: Sequence[str]) -> dict[str, str]:
    return {name: "true" for name in names if getattr(query, name)}


#: Label and help text of every lookup option on the pages, from the options' own metadata.
OPTION_LABELS: dict[str, str] = {f.name: f.metadata["label"] for o in (BetweenChainsOptions, FromSourceOptions)
                                 for f in option_fields(o)}
OPTION_HELP: dict[str, str] = {f.name: f.metadata["doc"] for o in (BetweenChainsOptions, FromSourceOptions)
                               for f in option_fields(o)}

#: The switches of the Between chains page: the options of ``assets_between_chains``.
BETWEEN_FLAGS = BETWEEN_CHAINS_OPTIONS


@dataclass(frozen=True, slots=True)
class BetweenQuery:
    """The request of the Between chains page, as kept in the URL: the two chains and the lookup's
    own options object (so the page has no list of options of its own)."""

    source_chain_id: str | None = None
    dest_chain_id: str | None = None
    options: BetweenChainsOptions = field(default_factory=BetweenChainsOptions)

    @property
    def complete(self) -> bool:
        return bool(self.source_chain_id and self.dest_chain_id)

    def lookup_kwargs(self) -> dict[str, Any]:
        return self.options.to_kwargs()

    def to_params(self) -> dict[str, str]:
        """Query-string form: chain-ids and the flags that are on."""
        out: dict[str, str] = {}
        if self.source_chain_id:
            out["source_chain_id"] = self.source_chain_id
        if self.dest_chain_id:
            out["dest_chain_id"] = self.dest_chain_id
        out.update(_bool_params(self.options, BETWEEN_FLAGS))
        return out

    @classmethod
    def from_params(cls, params: Params, chain_ids: Collection[str]) -> tuple[BetweenQuery, list[Problem]]:
        """Parse and check a query string; bad values are dropped and reported."""
        problems: list[Problem] = []
        source = _chain_param(params, "source_chain_id", chain_ids, problems)
        dest = _chain_param(params, "dest_chain_id", chain_ids, problems)
        flags = parse_flags(params, BETWEEN_FLAGS, problems)
        query = cls(source, dest, BetweenChainsOptions(**flags))
        if source and dest and source == dest:
            problems.append(Problem("dest_chain_id", dest, "must differ from source_chain_id"))
        return query, problems


#: The switches of the From source page: the on/off options of ``assets_from_source``.
FROM_SOURCE_FLAGS = tuple(f.name for f in option_fields(FromSourceOptions) if f.metadata["kind"] == "bool")


@dataclass(frozen=True, slots=True)
class FromSourceQuery:
    """The request of the From source page, as kept in the URL."""

    source_asset_chain_id: str | None = None
    source_asset_denom: str | None = None
    allow_multi_tx: bool = False
    recommendation_reason: str | None = None
    include_swaps: bool = False
    swap_venues: tuple[str, ...] = ()
    native_only: bool = False
    group_by: str = "chain_id"
    include_cw20_assets: bool = False
    include_other_bridges: bool = False

    @property
    def complete(self) -> bool:
        return bool(self.source_asset_chain_id and self.source_asset_denom)

    def lookup_kwargs(self, venues: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Keyword arguments of ``assets_from_source`` (venue names resolved through *venues*)."""
        chosen = None
        if self.include_swaps and self.swap_venues:
            venues = venues or {}
            chosen = [venues[name] for name in self.swap_venues if name in venues]
        url_state = {name: getattr(self, name) for name in FROM_SOURCE_OPTIONS}
        return FromSourceOptions.of({**url_state, "swap_venues": chosen}).to_kwargs()

    def to_params(self) -> dict[str, str | list[str]]:
        out: dict[str, str | list[str]] = {}
        if self.source_asset_chain_id:
            out["source_asset_chain_id"] = self.source_asset_chain_id
        if self.source_asset_denom:
            out["source_asset_denom"] = self.source_asset_denom
        out.update(_bool_params(self, FROM_SOURCE_FLAGS))
        if self.recommendation_reason:
            out["recommendation_reason"] = self.recommendation_reason
        if self.include_swaps and self.swap_venues:
            out["swap_venues"] = list(self.swap_venues)
        if self.group_by != "chain_id":
            out["group_by"] = self.group_by
        return out

    @classmethod
    def from_params(cls, params: Params, registry: Registry) -> tuple[FromSourceQuery, list[Problem]]:
        """Parse and check a query string against the registry (chain, denom, venues)."""
        problems: list[Problem] = []
        chain_ids = {c.chain_id for c in registry.chains()}
        chain = _chain_param(params, "source_asset_chain_id", chain_ids, problems)
        denom_raw = last_param(params, "source_asset_denom")
        denom = None
        if denom_raw:
            if chain is None:
                if last_param(params, "source_asset_chain_id") in (None, ""):
                    problems.append(Problem("source_asset_denom", denom_raw,
                                            "needs source_asset_chain_id to name its chain"))
            else:
                asset = registry.find_asset(chain, denom_raw)
                if asset is None:
                    problems.append(Problem("source_asset_denom", denom_raw,
                                            f"is not held on {chain} (neither listed nor a derived voucher)"))
                else:
                    denom = asset.denom  # the registry's spelling (EVM addresses are case-insensitive)
        flags = parse_flags(params, FROM_SOURCE_FLAGS, problems)
        reason = last_param(params, "recommendation_reason")
        if reason in ("", None):
            reason = None
        elif reason not in RECOMMENDATION_REASONS:
            problems.append(Problem("recommendation_reason", reason,
                                    f"is not one of {', '.join(RECOMMENDATION_REASONS)}"))
            reason = None
        group = last_param(params, "group_by")
        if group in ("", None):
            group = "chain_id"
        elif group not in GROUP_BY_VALUES:
            problems.append(Problem("group_by", group, f"is not one of {', '.join(GROUP_BY_VALUES)}"))
            group = "chain_id"
        names = {v.name for v, _ in registry.overlay.swap_venues}
        venues = []
        for name in _all(params, "swap_venues"):
            if name in names:
                if name not in venues:
                    venues.append(name)
            else:
                problems.append(Problem("swap_venues", name, "is not a swap venue of the overlay"))
        query = cls(chain, denom, recommendation_reason=reason, swap_venues=tuple(venues), group_by=group, **flags)
        return query, problems


DEFAULT_TOP_N = 12
NETWORK_STATUSES = ("ACTIVE", "PENDING", "UNTAGGED", "INACTIVE", "CLOSED")


@dataclass(frozen=True, slots=True)
class NetworkQuery:
    """The inputs of the Network page, as kept in the URL."""

    chain_types: tuple[str, ...] = ()
    statuses: tuple[str, ...] = ()
    min_degree: int = 0
    focus: str | None = None
    depth: int = 1
    include_inactive: bool = False
    include_bridges: bool = True
    top_n: int = 12  # keep equal to DEFAULT_TOP_N
    allow_multi_tx: bool = False

    def to_params(self) -> dict[str, str | list[str]]:
        default = NetworkQuery()
        out: dict[str, str | list[str]] = {}
        if self.chain_types:
            out["chain_types"] = list(self.chain_types)
        if self.statuses:
            out["statuses"] = list(self.statuses)
        if self.min_degree != default.min_degree:
            out["min_degree"] = str(self.min_degree)
        if self.focus:
            out["focus"] = self.focus
            if self.depth != default.depth:
                out["depth"] = str(self.depth)
        for name in ("include_inactive", "include_bridges", "allow_multi_tx"):
            if getattr(self, name) != getattr(default, name):
                out[name] = "true" if getattr(self, name) else "false"
        if self.top_n != default.top_n:
            out["top_n"] = str(self.top_n)
        return out

    @classmethod
    def from_params(cls, params: Params, chain_ids: Collection[str], *, chain_types: Collection[str] = (),
                    statuses: Collection[str] = ()) -> tuple[NetworkQuery, list[Problem]]:
        problems: list[Problem] = []
        types = []
        for t in _all(params, "chain_types"):
            if t in chain_types:
                types.append(t)
            else:
                problems.append(Problem("chain_types", t, f"is not a chain type; use {', '.join(sorted(chain_types))}"))
        sts = []
        for s in _all(params, "statuses"):
            if s in statuses:
                sts.append(s)
            else:
                problems.append(Problem("statuses", s, f"is not a channel status; use {', '.join(sorted(statuses))}"))
        flags = parse_flags(params, ("include_inactive", "include_bridges", "allow_multi_tx"), problems)
        query = cls(
            chain_types=tuple(dict.fromkeys(types)),
            statuses=tuple(dict.fromkeys(sts)),
            min_degree=_int_param(params, "min_degree", 0, 500, problems) or 0,
            focus=_chain_param(params, "focus", chain_ids, problems),
            depth=_int_param(params, "depth", 1, 4, problems) or 1,
            top_n=_int_param(params, "top_n", 2, 40, problems) or DEFAULT_TOP_N,
            **flags,
        )
        return query, problems


def params_signature(params: Params) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """A hashable, order-independent form of a query string (to notice a changed URL)."""
    out = []
    for key in sorted(params):
        value = params[key]
        values = (value,) if isinstance(value, str) else tuple(str(v) for v in value)
        out.append((key, values))
    return tuple(out)


def parse_pair(raw: str | None, rows: int) -> tuple[int | None, Problem | None]:
    """The ``pair`` link parameter: a row of a result with *rows* pairs (0-based).

    Returns ``(row, None)``, ``(None, None)`` when absent, or ``(None, problem)``; never raises.

    >>> parse_pair("2", 5)[0], parse_pair(None, 5), parse_pair("²", 5)[1].param
    (2, (None, None), 'pair')
    """
    if raw is None:
        return None, None
    value = _whole(raw)
    if value is None or not 0 <= value < rows:
        span = f"0 to {rows - 1}" if rows else "the result is empty"
        return None, Problem("pair", raw, f"does not name a row of this result ({span}); no row is selected",
                             severity="warning")
    return value, None


ORDERS = ("api", "symbol")


def parse_order(raw: str | None) -> tuple[str, Problem | None]:
    """The ``order`` link parameter: ``api`` (default) or ``symbol``; anything else is reported.

    >>> parse_order("symbol"), parse_order(None), parse_order("x")[0]
    (('symbol', None), ('api', None), 'api')
    """
    if raw is None or raw in ORDERS:
        return raw or "api", None
    return "api", Problem("order", raw, "is not api or symbol; showing the API order", severity="warning")
