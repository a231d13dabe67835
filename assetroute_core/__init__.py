"""assetroute: which tokens can move between blockchains, and what they become on arrival.

Load the Cosmos chain registry once and ask the two lookups of the reference API::

    >>> import os, assetroute_core as ar
    >>> reg = ar.load_registry(os.environ.get("ASSETROUTE_REGISTRY", "../shared/chain-registry"))
    >>> pair = next(p for p in reg.assets_between_chains("cosmoshub-4", "osmosis-1")
    ...             if p.asset_on_source.denom == "uatom")
    >>> pair.asset_on_dest.trace, pair.txs_required, pair.bridges
    ('transfer/channel-0', 1, ('IBC',))

The same lookups are served over HTTP (:mod:`assetroute_core.server`), read back from any
compatible service (:mod:`assetroute_core.client`) and on the command line
(``python -m assetroute_core``).
"""

from ._catalog import AssetsByChain, Bridge, OriginAssets, Recommendations, RecommendRequest
from ._diff import (
    AssetChange,
    ChainChange,
    ChainRouteSummary,
    ChannelChange,
    OverlayChange,
    PairChange,
    PfmChange,
    RegistryDiff,
    RegistryMeasures,
)
from ._exceptions import (
    AssetRouteError,
    FetchError,
    InvalidArgumentError,
    MethodNotAllowedError,
    NotFoundError,
    OverlayError,
    PayloadTooLargeError,
    RegistrySourceError,
    RemoteServiceError,
    RequestError,
    UnsafeArchiveError,
)
from ._fetch import PINNED_ARCHIVE_URL, PINNED_COMMIT, ResolvedSource, resolve_source
from ._ibc import ibc_denom
from ._models import (
    Asset,
    BridgeLink,
    Chain,
    Channel,
    ChannelEnd,
    FeeAsset,
    Hop,
    Metadata,
    Provenance,
    QualityIssue,
    Route,
    SwapVenue,
)
from ._options import (
    BETWEEN_CHAINS_OPTIONS,
    FROM_SOURCE_OPTIONS,
    GROUP_BY_VALUES,
    RECOMMENDATION_REASONS,
    BetweenChainsKwargs,
    BetweenChainsOptions,
    FromSourceKwargs,
    FromSourceOptions,
    GroupBy,
    OptionKind,
    RecommendationReason,
    SupportsLookups,
    option_fields,
    unchecked_changes,
)
from ._overlay import Overlay, load_overlay
from ._registry import Registry, load_registry
from ._results import AssetPair, BetweenChainsResult, DestAsset, FromSourceResult
from ._routing import REFERENCE_BRIDGE_KINDS
from ._whatif import WhatIf

__version__ = "0.1.0"

__all__ = [
    "BETWEEN_CHAINS_OPTIONS",
    "FROM_SOURCE_OPTIONS",
    "GROUP_BY_VALUES",
    "PINNED_ARCHIVE_URL",
    "PINNED_COMMIT",
    "RECOMMENDATION_REASONS",
    "REFERENCE_BRIDGE_KINDS",
    "Asset",
    "AssetChange",
    "AssetPair",
    "AssetRouteError",
    "AssetsByChain",
    "BetweenChainsKwargs",
    "BetweenChainsOptions",
    "BetweenChainsResult",
    "Bridge",
    "BridgeLink",
    "Chain",
    "ChainChange",
    "ChainRouteSummary",
    "Channel",
    "ChannelChange",
    "ChannelEnd",
    "DestAsset",
    "FeeAsset",
    "FetchError",
    "FromSourceKwargs",
    "FromSourceOptions",
    "FromSourceResult",
    "GroupBy",
    "Hop",
    "InvalidArgumentError",
    "Metadata",
    "MethodNotAllowedError",
    "NotFoundError",
    "OptionKind",
    "OriginAssets",
    "Overlay",
    "OverlayChange",
    "OverlayError",
    "PairChange",
    "PayloadTooLargeError",
    "PfmChange",
    "Provenance",
    "QualityIssue",
    "RecommendRequest",
    "RecommendationReason",
    "Recommendations",
    "Registry",
    "RegistryDiff",
    "RegistryMeasures",
    "RegistrySourceError",
    "RemoteServiceError",
    "RequestError",
    "ResolvedSource",
    "Route",
    "SupportsLookups",
    "SwapVenue",
    "UnsafeArchiveError",
    "WhatIf",
    "ibc_denom",
    "load_overlay",
    "load_registry",
    "option_fields",
    "resolve_source",
    "unchecked_changes",
]
