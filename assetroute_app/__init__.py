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
"""

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
