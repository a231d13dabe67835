"""assetroute dashboard: which tokens can move between Cosmos chains, and how.

Run with ``streamlit run app.py`` (the registry comes from ``$ASSETROUTE_REGISTRY`` or
``load_registry()``'s default source).  The entry point draws the frame every page shares
(the registry, loaded once per process, and the sidebar) and routes with ``st.navigation`` to
the scripts in ``pages/`` listed in :data:`assetroute_app.ui.PAGES`; see
:mod:`assetroute_app.ui` for why a page opened by a deep link also works on a fresh server.

This file is read twice.  ``streamlit run`` finds the ``st.App`` below and imports the file as a
module to serve it: the app's lifespan then loads the registry in the background as the server
starts, while the first browser is still loading the front end (:func:`assetroute_app.ui.warm_up`),
and its route lets a tab start the import of the result pages' libraries once its first page is on
screen (:mod:`assetroute_app.serving`).
Each session runs the file as its script (``__name__`` is ``"__main__"`` there), which draws the app.
"""

from __future__ import annotations

if __name__ == "__main__":  # a session's script run
    from assetroute_app import ui

    ui.run_app()
else:  # imported by `streamlit run` (or an ASGI server: `uvicorn app:app`) to serve the app
    import streamlit as st

    from assetroute_app.serving import lifespan, routes

    app = st.App(__file__, lifespan=lifespan, routes=routes())
