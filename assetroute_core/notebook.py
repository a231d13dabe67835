"""One call to start a notebook: the registry, the lookups to run and a line saying which.

Every notebook in ``notebooks/`` begins the same way: load the registry from its
``REGISTRY_SOURCE`` parameter, answer lookups either from it or from a compatible HTTP
service (``BASE_URL``), name chains by their pretty names, and say so in the output.  That
setup lives here once instead of in a copied cell::

    from assetroute_core.notebook import setup
    nb = setup(REGISTRY_SOURCE, base_url=BASE_URL)
    registry, lookups, names = nb.registry, nb.lookups, nb.names

Decisions: the registry is always loaded (graphs, pickers and route-based figures need it, even
when the lookups run remotely); the summary is Markdown shown with IPython's ``display`` when
IPython is running and printed otherwise; nothing here imports a plotting library.

>>> import os
>>> nb = setup(os.environ.get("ASSETROUTE_REGISTRY", "../shared/chain-registry"), show=False)
>>> nb.lookups is nb.registry, nb.names["cosmoshub-4"]
(True, 'Cosmos Hub')
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from ._options import SupportsLookups
from ._registry import Registry, load_registry

__all__ = ["NotebookSession", "setup"]


@dataclass(frozen=True, slots=True)
class NotebookSession:
    """What a notebook works with after :func:`setup`."""

    registry: Registry
    """The loaded registry (always local)."""
    lookups: SupportsLookups
    """What answers ``assets_between_chains``/``assets_from_source``: the registry or an HTTP client."""
    names: dict[str, str]
    """Pretty name (else chain name) of every routable chain, by chain-id."""
    base_url: str | None = None

    def summary(self) -> str:
        """One Markdown paragraph: where the registry came from and who answers the lookups."""
        p = self.registry.provenance
        return (f"Loaded **{p.source}** ({p.kind}, commit `{p.commit or 'unknown'}`) in {p.load_seconds:.2f} s, "
                f"overlay `{p.overlay}`. Lookups run against **{self.base_url or 'the embedded registry'}**.")


def setup(source: str | os.PathLike[str] | None = None, *, base_url: str | None = None,
          show: bool = True) -> NotebookSession:
    """Load the registry from *source* (``None``: ``$ASSETROUTE_REGISTRY``, else the pinned archive).

    With *base_url*, lookups go to that compatible service through
    :class:`~assetroute_core.client.AssetRouteClient`.  With *show*, the summary is displayed.
    """
    registry = load_registry(source)
    lookups: SupportsLookups = registry
    if base_url:
        from .client import AssetRouteClient

        lookups = AssetRouteClient(base_url)
    names = {c.chain_id: c.pretty_name or c.chain_name for c in registry.chains()}
    session = NotebookSession(registry, lookups, names, base_url or None)
    if show:
        _show(session.summary())
    return session


def _show(markdown: str) -> None:
    try:
        import IPython
        from IPython import display as ipd
    except ImportError:
        print(markdown)
        return
    if IPython.get_ipython() is None:
        print(markdown)
    else:
        tools: Any = ipd  # IPython is untyped
        tools.display(tools.Markdown(markdown))
