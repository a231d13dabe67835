"""assetroute dashboard: which tokens can move between Cosmos chains, and how.

Run with ``streamlit run app.py`` (the registry comes from ``$ASSETROUTE_REGISTRY`` or
``load_registry()``'s default source).  The entry point draws the frame every page shares
(the registry, loaded once per process, and the sidebar) and routes with ``st.navigation`` to
the scripts in ``pages/`` listed in :data:`assetroute_app.ui.PAGES`; see
:mod:`assetroute_app.ui` for why a page opened by a deep link also works on a fresh server.
"""

from __future__ import annotations

from assetroute_app import ui

ui.run_app()
