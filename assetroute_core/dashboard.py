"""Non-Streamlit helpers of the dashboard: URL state, backends, escaping, tables.

The Streamlit pages (``app.py``, ``pages/``) stay thin: everything that can be tested
without a browser lives here.  This module never imports :mod:`streamlit`.

URL state
    Each page keeps its request in the query string with the API's own field names
    (``?source_chain_id=cosmoshub-4&dest_chain_id=osmosis-1&allow_multi_tx=true``).
    :meth:`BetweenQuery.from_params` and friends parse a query string, check every value
    against the loaded registry and return the problems found (unknown chain-id, unknown
    denom, bad flag value) as :class:`Problem` objects the page shows as a message.

Backends
    :class:`EmbeddedBackend` answers from the loaded registry (results carry routes);
    :class:`RemoteBackend` asks a compatible HTTP service through
    :class:`assetroute_core.client.AssetRouteClient` (results carry no routes).

Registry text is data
    :func:`md_escape` and :func:`md_code` make registry text inert in Streamlit markdown,
    :func:`safe_logo` keeps only ``http(s)`` logo URLs.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urlsplit

from ._exceptions import AssetRouteError
from ._lookups import GROUP_BY_VALUES, RECOMMENDATION_REASONS

if TYPE_CHECKING:
    import pandas as pd

    from ._fetch import ProgressCallback
    from ._models import Asset, Chain
    from ._registry import Registry
    from ._results import BetweenChainsResult, FromSourceResult

__all__ = [
    "BetweenQuery",
    "EmbeddedBackend",
    "FromSourceQuery",
    "NetworkQuery",
    "Problem",
    "RegistryStore",
    "RemoteBackend",
    "asset_label",
    "between_summary",
    "between_table",
    "chain_label",
    "default_asset",
    "from_source_summary",
    "from_source_table",
    "md_code",
    "md_escape",
    "order_by_symbol",
    "parse_flag",
    "safe_logo",
    "sorted_assets",
    "sorted_chains",
    "validate_base_url",
]

# -- escaping -------------------------------------------------------------------------------------

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:&=\"'])")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")


def md_escape(text: object, *, limit: int = 300) -> str:
    """Registry text made inert inside Streamlit markdown (no links, HTML, LaTeX, icons).

    >>> print(md_escape("<b>[a](javascript:x)"))
    \\<b\\>\\[a\\]\\(javascript\\:x\\)
    """
    s = _CONTROL.sub(" ", str(text))
    if len(s) > limit:
        s = s[: limit - 1] + "…"
    return _MD_SPECIAL.sub(r"\\\1", s)


def md_code(text: object, *, limit: int = 200) -> str:
    """Registry text as an inline code span: shown literally, never interpreted.

    >>> md_code("a`b")
    '`` a`b ``'
    """
    s = _CONTROL.sub(" ", str(text))
    if len(s) > limit:
        s = s[: limit - 1] + "…"
    if not s:
        return "` `"
    longest = max((len(m) for m in re.findall(r"`+", s)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if longest or s.startswith(" ") or s.endswith(" ") else ""
    return f"{fence}{pad}{s}{pad}{fence}"


def safe_logo(url: object) -> str | None:
    """The URL if it is a plain ``http(s)`` URL, else ``None`` (``javascript:``, ``data:``, junk).

    >>> safe_logo("https://example.org/a.png"), safe_logo("javascript:alert(1)")
    ('https://example.org/a.png', None)
    """
    if not isinstance(url, str):
        return None
    url = url.strip()
    if not url or len(url) > 2048 or any(c in url for c in "\"'<>\\ \t\r\n`"):
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    return url


# -- labels ----------------------------------------------------------------------------------------


def chain_label(chain: Chain) -> str:
    """``"Cosmos Hub · cosmoshub-4"`` (plain text, for pickers)."""
    pretty = _CONTROL.sub(" ", chain.pretty_name or chain.chain_name)[:80]
    return f"{pretty} · {chain.chain_id}"


def asset_label(asset: Asset) -> str:
    """``"ATOM — Cosmos Hub Atom · uatom"``; derived vouchers name their origin."""
    m = asset.metadata
    if m is not None:
        head = f"{m.symbol[:40]} — {m.name[:60]}"
    else:
        head = f"{asset.origin_denom[:40]} from {asset.origin_chain_id} (no metadata)"
    return _CONTROL.sub(" ", f"{head} · {asset.denom}")


def sorted_chains(registry: Registry) -> list[Chain]:
    """Routable chains ordered by pretty name (then chain-id)."""
    return sorted(registry.chains(), key=lambda c: ((c.pretty_name or c.chain_name).casefold(), c.chain_id))


def sorted_assets(assets: Sequence[Asset]) -> list[Asset]:
    """Listed assets first (natives first, by symbol), then derived vouchers."""
    def key(a: Asset) -> tuple[int, int, str, str]:
        listed = 0 if a.metadata is not None else 1
        native = 0 if not a.trace else 1
        sym = (a.metadata.symbol if a.metadata else a.origin_denom).casefold()
        return (listed, native, sym, a.denom)

    return sorted(assets, key=key)


def default_asset(assets: Sequence[Asset], chain: Chain) -> Asset | None:
    """A sensible first pick for a chain: its native listed asset named like the chain, else the first.

    >>> default_asset([], None) is None
    True
    """
    ordered = sorted_assets(assets)
    if not ordered:
        return None
    names = [n for n in {chain.chain_name.casefold(), (chain.pretty_name or "").casefold()} if n]
    natives = [a for a in ordered if a.metadata is not None and not a.trace and not a.is_cw20]
    def sym(a: Asset) -> str:
        return a.metadata.symbol.casefold() if a.metadata else ""

    tests: tuple[Callable[[Asset], bool], ...] = (
        lambda a: "/" not in a.denom and bool(sym(a)) and any(sym(a) in n for n in names),
        lambda a: a.denom.casefold() in ("u" + sym(a), "a" + sym(a)),
        lambda a: bool(sym(a)) and any(sym(a) in n for n in names),
    )
    for test in tests:
        for a in natives:
            if test(a):
                return a
    plain_natives = [a for a in natives if "/" not in a.denom]
    if plain_natives:
        return plain_natives[0]
    return ordered[0]


# -- URL state -------------------------------------------------------------------------------------

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


def _last(params: Params, name: str) -> str | None:
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


def _flags(params: Params, names: Sequence[str], problems: list[Problem]) -> dict[str, bool]:
    out = {}
    for name in names:
        raw = _last(params, name)
        if raw is None:
            continue
        value = parse_flag(raw)
        if value is None:
            problems.append(Problem(name, raw, "is not a flag value; use true or false"))
        else:
            out[name] = value
    return out


def _chain_param(params: Params, name: str, chain_ids: Collection[str], problems: list[Problem]) -> str | None:
    raw = _last(params, name)
    if raw is None or raw == "":
        return None
    if raw not in chain_ids:
        problems.append(Problem(name, raw, "is not a routable chain-id of the loaded registry"))
        return None
    return raw


def _int_param(params: Params, name: str, lo: int, hi: int, problems: list[Problem]) -> int | None:
    raw = _last(params, name)
    if raw is None or raw == "":
        return None
    try:
        value = int(raw.strip())
    except ValueError:
        problems.append(Problem(name, raw, f"is not a whole number between {lo} and {hi}"))
        return None
    if not lo <= value <= hi:
        problems.append(Problem(name, raw, f"is out of range; use {lo} to {hi}"))
        return None
    return value


def _bool_params(query: Any, names: Sequence[str]) -> dict[str, str]:
    return {name: "true" for name in names if getattr(query, name)}


BETWEEN_FLAGS = ("include_no_metadata_assets", "include_cw20_assets", "include_evm_assets", "allow_multi_tx")


@dataclass(frozen=True, slots=True)
class BetweenQuery:
    """The request of the Between chains page, as kept in the URL."""

    source_chain_id: str | None = None
    dest_chain_id: str | None = None
    include_no_metadata_assets: bool = False
    include_cw20_assets: bool = False
    include_evm_assets: bool = False
    allow_multi_tx: bool = False

    @property
    def complete(self) -> bool:
        return bool(self.source_chain_id and self.dest_chain_id)

    def lookup_kwargs(self) -> dict[str, bool]:
        return {name: getattr(self, name) for name in BETWEEN_FLAGS}

    def to_params(self) -> dict[str, str]:
        """Query-string form: chain-ids and the flags that are on."""
        out: dict[str, str] = {}
        if self.source_chain_id:
            out["source_chain_id"] = self.source_chain_id
        if self.dest_chain_id:
            out["dest_chain_id"] = self.dest_chain_id
        out.update(_bool_params(self, BETWEEN_FLAGS))
        return out

    @classmethod
    def from_params(cls, params: Params, chain_ids: Collection[str]) -> tuple[BetweenQuery, list[Problem]]:
        """Parse and check a query string; bad values are dropped and reported."""
        problems: list[Problem] = []
        source = _chain_param(params, "source_chain_id", chain_ids, problems)
        dest = _chain_param(params, "dest_chain_id", chain_ids, problems)
        flags = _flags(params, BETWEEN_FLAGS, problems)
        query = cls(source, dest, **flags)
        if source and dest and source == dest:
            problems.append(Problem("dest_chain_id", dest, "must differ from source_chain_id"))
        return query, problems


FROM_SOURCE_FLAGS = ("allow_multi_tx", "include_swaps", "native_only", "include_cw20_assets")


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

    @property
    def complete(self) -> bool:
        return bool(self.source_asset_chain_id and self.source_asset_denom)

    def lookup_kwargs(self, venues: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Keyword arguments of ``assets_from_source`` (venue names resolved through *venues*)."""
        chosen = None
        if self.include_swaps and self.swap_venues:
            venues = venues or {}
            chosen = [venues[name] for name in self.swap_venues if name in venues]
        return {
            "allow_multi_tx": self.allow_multi_tx,
            "recommendation_reason": self.recommendation_reason,
            "include_swaps": self.include_swaps,
            "swap_venues": chosen,
            "native_only": self.native_only,
            "group_by": self.group_by,
            "include_cw20_assets": self.include_cw20_assets,
        }

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
        denom_raw = _last(params, "source_asset_denom")
        denom = None
        if denom_raw:
            if chain is None:
                if _last(params, "source_asset_chain_id") in (None, ""):
                    problems.append(Problem("source_asset_denom", denom_raw,
                                            "needs source_asset_chain_id to name its chain"))
            else:
                asset = registry.find_asset(chain, denom_raw)
                if asset is None:
                    problems.append(Problem("source_asset_denom", denom_raw,
                                            f"is not held on {chain} (neither listed nor a derived voucher)"))
                else:
                    denom = asset.denom  # the registry's spelling (EVM addresses are case-insensitive)
        flags = _flags(params, FROM_SOURCE_FLAGS, problems)
        reason = _last(params, "recommendation_reason")
        if reason in ("", None):
            reason = None
        elif reason not in RECOMMENDATION_REASONS:
            problems.append(Problem("recommendation_reason", reason,
                                    f"is not one of {', '.join(RECOMMENDATION_REASONS)}"))
            reason = None
        group = _last(params, "group_by")
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
        flags = _flags(params, ("include_inactive", "include_bridges", "allow_multi_tx"), problems)
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


# -- registry store --------------------------------------------------------------------------------


@dataclass
class RegistryStore:
    """Loads each registry source once per process; thread-safe (one load at a time per store).

    The dashboard keeps one store in ``st.cache_resource`` so every session shares it.
    """

    _loaded: dict[str, Registry] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def peek(self, source: str | None) -> Registry | None:
        """The registry of *source* if already loaded."""
        return self._loaded.get(source or "")

    def get(self, source: str | None, *, progress: ProgressCallback | None = None) -> Registry:
        """Load (once) and return the registry of *source* (``None``: default resolution)."""
        key = source or ""
        with self._lock:
            reg = self._loaded.get(key)
            if reg is None:
                from ._registry import load_registry

                reg = load_registry(source or None, progress=progress)
                self._loaded[key] = reg
            return reg


def preload_view_libraries() -> None:
    """Import what the first result page needs (pandas, plotly, pyvis and its templates).

    About a second of imports that a fresh process otherwise pays on the first submit; the
    dashboard runs this in a background thread at start-up, while the browser loads the front end.
    """
    import pandas as pd
    import plotly.express as px
    import plotly.graph_objects as go
    import pyarrow as pa

    from .graphviews import GraphEdge, GraphNode, GraphSpec, render_html

    frame = pd.DataFrame({"kind": ["IBC", "CCTP"], "count": [2, 1]})
    pa.Table.from_pandas(frame)  # how Streamlit ships tables to the browser
    px.bar(frame, x="count", y="kind", color="kind", orientation="h").to_json()  # plotly builds validators lazily
    go.Figure(go.Heatmap(z=[[0, 1], [1, 0]])).to_json()
    render_html(GraphSpec((GraphNode("a", "a", x=0, y=0), GraphNode("b", "b", x=1, y=0)), (GraphEdge("a", "b"),)))


# -- backends --------------------------------------------------------------------------------------


class Backend(Protocol):
    """What a page needs from a backend: the two lookups and whether results carry routes."""

    label: str
    has_routes: bool

    def assets_between_chains(self, source_chain_id: str, dest_chain_id: str, **flags: Any) -> BetweenChainsResult:
        ...

    def assets_from_source(self, source_asset_denom: str, source_asset_chain_id: str,
                           **options: Any) -> FromSourceResult:
        ...


@dataclass(frozen=True)
class EmbeddedBackend:
    """Answers from the loaded registry; results carry a route per pair / destination."""

    registry: Registry
    label: str = "embedded registry"
    has_routes: bool = True

    def assets_between_chains(self, source_chain_id: str, dest_chain_id: str, **flags: Any) -> BetweenChainsResult:
        return self.registry.assets_between_chains(source_chain_id, dest_chain_id, **flags)

    def assets_from_source(self, source_asset_denom: str, source_asset_chain_id: str,
                           **options: Any) -> FromSourceResult:
        return self.registry.assets_from_source(source_asset_denom, source_asset_chain_id, **options)


def validate_base_url(url: str) -> str:
    """A remote service base URL: ``http(s)://host[:port][/prefix]``; raises ``ValueError``.

    >>> validate_base_url(" http://127.0.0.1:8000/ ")
    'http://127.0.0.1:8000'
    """
    url = (url or "").strip().rstrip("/")
    try:
        parts = urlsplit(url)
    except ValueError as exc:
        raise ValueError(f"not a URL: {exc}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("the service URL must start with http:// or https:// and name a host")
    if parts.query or parts.fragment or parts.username or parts.password:
        raise ValueError("the service URL must not carry credentials, a query or a fragment")
    return url


@dataclass
class RemoteBackend:
    """Asks a compatible HTTP service; results carry no routes (the API has none)."""

    base_url: str
    label: str = "remote service"
    has_routes: bool = False
    _client: Any = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.base_url = validate_base_url(self.base_url)
        self.label = f"remote service {self.base_url}"

    @property
    def client(self) -> Any:
        if self._client is None:
            try:
                from .client import AssetRouteClient
            except ImportError as exc:  # the client module is optional in this build
                raise AssetRouteError(f"the HTTP client is not available: {exc}") from None
            self._client = AssetRouteClient(self.base_url)
        return self._client

    def assets_between_chains(self, source_chain_id: str, dest_chain_id: str, **flags: Any) -> BetweenChainsResult:
        result: BetweenChainsResult = self.client.assets_between_chains(source_chain_id, dest_chain_id, **flags)
        return result

    def assets_from_source(self, source_asset_denom: str, source_asset_chain_id: str,
                           **options: Any) -> FromSourceResult:
        result: FromSourceResult = self.client.assets_from_source(source_asset_denom, source_asset_chain_id,
                                                                   **options)
        return result


# -- tables ----------------------------------------------------------------------------------------

BETWEEN_COLUMNS = [
    "#", "source_logo", "symbol", "recommended_symbol", "source_denom", "source_trace",
    "dest_logo", "dest_symbol", "dest_denom", "dest_trace", "origin_chain_id", "origin_denom",
    "txs_required", "bridges",
]


def between_table(result: BetweenChainsResult) -> pd.DataFrame:
    """The Between chains table: one row per pair, API fields only (same for every backend).

    ``#`` is the pair's position in the API response; logos are kept only when http(s).
    """
    import pandas as pd

    rows = []
    for i, p in enumerate(result.pairs):
        s, d = p.asset_on_source, p.asset_on_dest
        sm, dm = s.metadata, d.metadata
        rows.append({
            "#": i,
            "source_logo": safe_logo(sm.logo_uri) if sm else None,
            "symbol": sm.symbol if sm else None,
            "recommended_symbol": (sm.recommended_symbol if sm else None) or (dm.recommended_symbol if dm else None),
            "source_denom": s.denom,
            "source_trace": s.trace,
            "dest_logo": safe_logo(dm.logo_uri) if dm else None,
            "dest_symbol": dm.symbol if dm else None,
            "dest_denom": d.denom,
            "dest_trace": d.trace,
            "origin_chain_id": d.origin_chain_id,
            "origin_denom": d.origin_denom,
            "txs_required": p.txs_required,
            "bridges": " → ".join(p.bridges),
        })
    return pd.DataFrame(rows, columns=BETWEEN_COLUMNS)


def order_by_symbol(frame: pd.DataFrame, column: str = "recommended_symbol") -> pd.DataFrame:
    """Rows grouped by recommended symbol (stable; rows without one last)."""
    key = frame[column].fillna("").astype(str)
    order = sorted(range(len(frame)), key=lambda i: (key.iloc[i] == "", key.iloc[i].casefold(), i))
    return frame.iloc[order].reset_index(drop=True)


FROM_SOURCE_COLUMNS = [
    "group", "logo", "symbol", "name", "recommended_symbol", "chain_id", "denom", "trace",
    "origin_chain_id", "origin_denom", "is_cw20", "is_evm",
]
ROUTE_COLUMNS = ["txs_required", "bridges", "path"]


def from_source_table(result: FromSourceResult, *, routes: bool = True) -> pd.DataFrame:
    """The From source table: one row per destination asset, in ``dest_assets`` order.

    API columns come first and are identical for every backend; with ``routes=True`` and
    a result that carries routes, ``txs_required``, ``bridges`` and ``path`` follow.
    """
    import pandas as pd

    rows = []
    with_routes = routes and any(d.route is not None for d in result)
    for key, items in result.groups:
        for d in items:
            a, m = d.asset, d.asset.metadata
            row: dict[str, Any] = {
                "group": key,
                "logo": safe_logo(m.logo_uri) if m else None,
                "symbol": m.symbol if m else None,
                "name": m.name if m else None,
                "recommended_symbol": m.recommended_symbol if m else None,
                "chain_id": a.chain_id,
                "denom": a.denom,
                "trace": a.trace,
                "origin_chain_id": a.origin_chain_id,
                "origin_denom": a.origin_denom,
                "is_cw20": a.is_cw20,
                "is_evm": a.is_evm,
            }
            if with_routes:
                r = d.route
                row["txs_required"] = r.txs_required if r else None
                row["bridges"] = " → ".join(r.bridges) if r else None
                row["path"] = " → ".join([r.source.chain_id] + [h.to_chain_id for h in r.hops]) if r else None
            rows.append(row)
    columns = FROM_SOURCE_COLUMNS + (ROUTE_COLUMNS if with_routes else [])
    return pd.DataFrame(rows, columns=columns)


# -- summaries -------------------------------------------------------------------------------------


def between_summary(result: BetweenChainsResult) -> dict[str, Any]:
    """Counts for the metric row: pairs, source assets, by txs_required, by bridge path."""
    by_txs = Counter(p.txs_required for p in result.pairs)
    by_bridges = Counter(" → ".join(p.bridges) for p in result.pairs)
    return {
        "pairs": len(result.pairs),
        "source_assets": len({p.asset_on_source.denom for p in result.pairs}),
        "by_txs": dict(sorted(by_txs.items())),
        "by_bridges": dict(by_bridges.most_common()),
        "single_tx": by_txs.get(1, 0),
        "multi_tx": sum(n for t, n in by_txs.items() if t > 1),
        "via_bridge": sum(1 for p in result.pairs if any(b != "IBC" for b in p.bridges)),
    }


def from_source_summary(result: FromSourceResult) -> dict[str, Any]:
    """Counts for the metric row: destination chains and assets, by minimal txs_required."""
    chains: dict[str, int | None] = {}
    for d in result:
        txs = d.route.txs_required if d.route else None
        cid = d.asset.chain_id
        prev = chains.get(cid, -1)
        if prev == -1 or (txs is not None and (prev is None or txs < prev)):
            chains[cid] = txs
    known = [t for t in chains.values() if t is not None]
    return {
        "assets": len(result),
        "chains": len(chains),
        "groups": len(result.groups),
        "one_tx_chains": sum(1 for t in known if t == 1),
        "multi_tx_chains": sum(1 for t in known if t > 1),
        "routes_known": bool(known) or not len(result),
    }

