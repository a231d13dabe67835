"""The assetroute dashboard's own package: what the pages need that is not Streamlit.

``changes``
    Versions, link state, tables and figures of the "Changes" and "What if" pages.

None of these modules imports :mod:`streamlit`; the engine (:mod:`assetroute_core`) never imports
this package.
"""
