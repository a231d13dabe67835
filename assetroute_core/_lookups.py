"""The two lookups of SPEC.md §4–§5 over the routing engine."""

from __future__ import annotations

from ._exceptions import InvalidArgumentError, NotFoundError
from ._models import Asset, Route, SwapVenue
from ._options import BetweenChainsOptions, FromSourceOptions
from ._results import BetweenChainsResult, DestAsset, FromSourceResult, new_pair
from ._routing import Engine

__all__ = ["assets_between_chains", "assets_from_source"]

TRADABLE_TYPES = ("sdk.coin", "ics20")


def _check_str(name: str, value: object) -> str:
    if not isinstance(value, str):
        raise InvalidArgumentError(f"invalid value for string field {name}", value=value)
    return value


def resolve_chain(engine: Engine, chain_id: str) -> str | None:
    """Chain name of a routable chain-id, or ``None``."""
    name = engine.data.chain_ids.get(chain_id)
    return name if name is not None and name in engine.routable else None


def assets_between_chains(
    engine: Engine, source_chain_id: str, dest_chain_id: str, options: BetweenChainsOptions,
) -> BetweenChainsResult:
    """SPEC §4 over *engine*; the options object is already checked."""
    _check_str("source_chain_id", source_chain_id)
    _check_str("dest_chain_id", dest_chain_id)
    source = resolve_chain(engine, source_chain_id)
    if source is None:
        raise NotFoundError("source chain not found", value=source_chain_id)
    dest = resolve_chain(engine, dest_chain_id)
    if dest is None:
        raise NotFoundError("dest chain not found", value=dest_chain_id)
    if source == dest:
        raise InvalidArgumentError("source and dest chain must differ", value=source_chain_id)
    cache_key = (source, dest, *options.key)
    cached = engine.results.get(cache_key)
    if cached is not None:
        return BetweenChainsResult(source_chain_id, dest_chain_id, cached)
    no_meta, cw20, evm, allow_multi_tx, _other_bridges, svm = options.key  # the engine was chosen by _other_bridges
    router = engine.router()  # one generation of the engine's memo tables for the whole answer
    routes = router.routes_between(source, dest, cw20=cw20, evm=evm, svm=svm, no_metadata=no_meta)
    if allow_multi_tx and cw20 and evm and svm and no_meta:  # every flag: nothing to filter out
        pairs = tuple([new_pair(route) for route in routes])
    else:
        pairs = tuple([new_pair(route) for route in routes if not (
            (not allow_multi_tx and route.txs_required > 1) or (not cw20 and route.dest.is_cw20)
            or (not evm and route.dest.is_evm) or (not svm and route.dest.is_svm)
            or (not no_meta and route.dest.metadata is None))])
    engine.results.put(cache_key, pairs)
    return BetweenChainsResult(source_chain_id, dest_chain_id, pairs)


def _venues(engine: Engine, swap_venues: tuple[SwapVenue, ...] | None) -> list[SwapVenue]:
    if not swap_venues:
        return [v for v, _ in engine.overlay.swap_venues]
    return list(swap_venues)


def assets_from_source(
    engine: Engine, source_asset_denom: str, source_asset_chain_id: str, options: FromSourceOptions,
) -> FromSourceResult:
    """SPEC §5 over *engine*; the options object is already checked."""
    _check_str("source_asset_denom", source_asset_denom)
    _check_str("source_asset_chain_id", source_asset_chain_id)
    allow_multi_tx, native_only = options.allow_multi_tx, options.native_only
    include_cw20_assets, include_swaps = options.include_cw20_assets, options.include_swaps
    reason, group = options.reason, options.group
    chain = resolve_chain(engine, source_asset_chain_id)
    if chain is None:
        raise InvalidArgumentError("Invalid source_asset_chain_id", value=source_asset_chain_id)
    router = engine.router()  # one generation of the engine's memo tables for the whole answer
    source = router.find(chain, source_asset_denom)
    if source is None:
        raise InvalidArgumentError("Invalid source_asset_denom", value=source_asset_denom)
    venues = _venues(engine, options.swap_venues) if include_swaps else []

    found: dict[tuple[str, str], DestAsset] = {}

    def add(asset: Asset, route: Route | None, *, swap: bool = False) -> None:
        if asset.chain_name == source.chain_name and asset.denom == source.denom:
            return
        if asset.is_cw20 and not include_cw20_assets:
            return
        if route is not None and route.txs_required > 1 and not allow_multi_tx:
            return
        if native_only and asset.trace:
            return
        key = (asset.chain_name, asset.denom)
        if key not in found or (found[key].via_swap and not swap) or (
                route is not None and found[key].via_swap == swap and _better(route, found[key].route)):
            found[key] = DestAsset(asset, route, swap)

    if reason == "BASE_TOKEN":
        root = router.unwind(source).root
        if not root.trace and root.chain_name in engine.routable:
            best = router.best_routes(source, root.chain_name).get(root.denom)
            if best is not None:
                add(root, best)
    else:
        chains = router.reachable_chains(source)
        per_chain: dict[str, list[Route]] = {}
        for dest in chains:
            routes = list(router.best_routes(source, dest).values())
            per_chain[dest] = routes
        if reason == "DIRECT":
            for neighbour, route in router.direct_sends(source).items():
                per_chain.setdefault(neighbour, []).append(route)
            for routes in per_chain.values():
                allowed = [r for r in routes if allow_multi_tx or r.txs_required == 1]
                if allowed:
                    pick = min(allowed, key=lambda r: (len(r.hops), r.txs_required, r.dest.trace.count("/")))
                    add(pick.dest, pick)
        else:
            for routes in per_chain.values():
                for route in routes:
                    add(route.dest, route)
        for venue in venues:
            venue_chain = resolve_chain(engine, venue.chain_id)
            if venue_chain is None:
                continue
            reach = [r for r in per_chain.get(venue_chain, ()) if allow_multi_tx or r.txs_required == 1]
            if not reach and venue_chain != source.chain_name:
                continue
            via = min(reach, key=_key) if reach else None
            for asset in engine.tradable(venue_chain, include_cw20=include_cw20_assets):
                add(asset, via, swap=True)

    groups: dict[str, list[DestAsset]] = {}
    for item in found.values():
        if group == "chain_id":
            key = item.asset.chain_id
        else:
            key = engine.family_symbol(item.asset) or item.asset.origin_denom
        groups.setdefault(key, []).append(item)
    ordered = tuple(
        (key, tuple(sorted(groups[key], key=lambda d: (d.asset.chain_id, d.asset.trace != "", d.asset.denom))))
        for key in sorted(groups)
    )
    return FromSourceResult(source, group, ordered)


def _key(route: Route) -> tuple[int, int, int]:
    return (route.txs_required, route.operations, len(route.hops))


def _better(a: Route, b: Route | None) -> bool:
    return b is None or _key(a) < _key(b)
