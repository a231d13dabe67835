"""The assetroute dashboard's own package: everything the pages need that is not Streamlit.

``app.py`` and ``pages/`` (the Streamlit scripts) stay thin; what can be tested without a
browser lives here, split by concern, and none of these modules imports :mod:`streamlit`:

``state``
    Each page's request as a query string (``BetweenQuery``, ``FromSourceQuery``,
    ``NetworkQuery``), parsed as untrusted input into values and :class:`Problem` messages.
``backends``
    Who answers the lookups: the embedded registry or a compatible HTTP service.
``store``
    One registry load per process, and the warm-up of the view libraries.
``serving``
    ``app.py``'s ``st.App`` lifespan (loads the registry in the background as the server starts)
    and its one route, ``POST /_assetroute/warm-up`` (starts the warm-up of the view libraries).
``frontend``
    The browser side: the scripts the dashboard runs in a tab (warm-up once the first page has
    settled, the table's paint signal) and the page parts they, the tests and the benchmark look for.
``tables``
    Tables, counts and the data-quality report built from results alone.
``text``
    Registry text made inert for markdown, labels, safe logos and their offline fallback.
``changes``
    Versions, link state, tables and figures of the "Changes" and "What if" pages.

The Streamlit glue (navigation, sidebar, caching, messages) is :mod:`assetroute_app.ui`,
imported by the scripts only.  The engine (:mod:`assetroute_core`) never imports this package.

The names below are imported on first use (PEP 562's module ``__getattr__``), so that importing
one module of the package, as ``app.py`` does for :mod:`.serving` before the server answers,
does not import the engine and every other module first: that was 0.17 s of the dashboard's
start before its first request could be served, now spent in the background warm-up instead.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .backends import Backend, EmbeddedBackend, RemoteBackend, validate_base_url
    from .state import (
        BETWEEN_FLAGS,
        DEFAULT_TOP_N,
        FROM_SOURCE_FLAGS,
        NETWORK_STATUSES,
        OPTION_HELP,
        OPTION_LABELS,
        ORDERS,
        BetweenQuery,
        FromSourceQuery,
        NetworkQuery,
        Problem,
        params_signature,
        parse_flag,
        parse_order,
        parse_pair,
    )
    from .store import LogoHosts, RegistryStore, preload_view_libraries
    from .tables import (
        BETWEEN_COLUMNS,
        FROM_SOURCE_COLUMNS,
        ROUTE_COLUMNS,
        between_summary,
        between_table,
        default_asset,
        from_source_summary,
        from_source_table,
        order_by_symbol,
        quality_counts,
        quality_csv,
        quality_json,
        quality_rows,
        shown_logos,
        sorted_assets,
        sorted_chains,
    )
    from .text import asset_label, chain_label, group_label, initials_logo, md_code, md_escape, safe_logo

_SOURCES: dict[str, str] = {  # name -> its module, imported on first use (PEP 562)
    "BETWEEN_COLUMNS": "tables",
    "BETWEEN_FLAGS": "state",
    "DEFAULT_TOP_N": "state",
    "FROM_SOURCE_COLUMNS": "tables",
    "FROM_SOURCE_FLAGS": "state",
    "NETWORK_STATUSES": "state",
    "OPTION_HELP": "state",
    "OPTION_LABELS": "state",
    "ORDERS": "state",
    "ROUTE_COLUMNS": "tables",
    "Backend": "backends",
    "BetweenQuery": "state",
    "EmbeddedBackend": "backends",
    "FromSourceQuery": "state",
    "LogoHosts": "store",
    "NetworkQuery": "state",
    "Problem": "state",
    "RegistryStore": "store",
    "RemoteBackend": "backends",
    "asset_label": "text",
    "between_summary": "tables",
    "between_table": "tables",
    "chain_label": "text",
    "default_asset": "tables",
    "from_source_summary": "tables",
    "from_source_table": "tables",
    "group_label": "text",
    "initials_logo": "text",
    "md_code": "text",
    "md_escape": "text",
    "order_by_symbol": "tables",
    "params_signature": "state",
    "parse_flag": "state",
    "parse_order": "state",
    "parse_pair": "state",
    "preload_view_libraries": "store",
    "quality_counts": "tables",
    "quality_csv": "tables",
    "quality_json": "tables",
    "quality_rows": "tables",
    "safe_logo": "text",
    "shown_logos": "tables",
    "sorted_assets": "tables",
    "sorted_chains": "tables",
    "validate_base_url": "backends",
}

__all__ = [
    "BETWEEN_COLUMNS",
    "BETWEEN_FLAGS",
    "DEFAULT_TOP_N",
    "FROM_SOURCE_COLUMNS",
    "FROM_SOURCE_FLAGS",
    "NETWORK_STATUSES",
    "OPTION_HELP",
    "OPTION_LABELS",
    "ORDERS",
    "ROUTE_COLUMNS",
    "Backend",
    "BetweenQuery",
    "EmbeddedBackend",
    "FromSourceQuery",
    "LogoHosts",
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
    "group_label",
    "initials_logo",
    "md_code",
    "md_escape",
    "order_by_symbol",
    "params_signature",
    "parse_flag",
    "parse_order",
    "parse_pair",
    "preload_view_libraries",
    "quality_counts",
    "quality_csv",
    "quality_json",
    "quality_rows",
    "safe_logo",
    "shown_logos",
    "sorted_assets",
    "sorted_chains",
    "validate_base_url",
]


def __getattr__(name: str) -> Any:
    module = _SOURCES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
