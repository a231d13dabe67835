"""assetroute dashboard: which tokens can move between Cosmos chains, and how.

Run with ``streamlit run app.py`` (the registry comes from ``$ASSETROUTE_REGISTRY`` or
``load_registry()``'s default source).  This entry point loads the registry once per
process, draws the shared sidebar and routes to the pages in ``pages/``.
"""

from __future__ import annotations

import streamlit as st

from pages import _ui

_ui.mark_entrypoint()
st.set_page_config(page_title="assetroute · cross-chain token routes", page_icon=":material/route:",
                   layout="wide", initial_sidebar_state="expanded")

registry = _ui.get_registry()
_ui.sidebar(registry)

# url_path equals the file stem: Streamlit also discovers pages/ on its own, and the two must agree
# or a deep link opened on a fresh server briefly reports "page not found".
page = st.navigation(
    [
        st.Page("pages/between_chains.py", title="Between chains", icon=":material/swap_horiz:",
                url_path="between_chains", default=True),
        st.Page("pages/from_source.py", title="From source", icon=":material/hub:", url_path="from_source"),
        st.Page("pages/network.py", title="Network", icon=":material/lan:", url_path="network"),
        st.Page("pages/changes.py", title="Changes", icon=":material/history:", url_path="changes"),
        st.Page("pages/what_if.py", title="What if", icon=":material/science:", url_path="what_if"),
    ],
    position="top",
)
page.run()
# After the first page is on screen (not before: it would compete with it), import what result
# pages need, so the first submit of a fresh process does not pay for it.
_ui.preload()
