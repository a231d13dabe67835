"""Registry text made safe to show, and the labels of pickers, groups and logos.

Registry text is data: :func:`md_escape` and :func:`md_code` make it inert in Streamlit
markdown (no links, HTML, LaTeX or icons), :func:`safe_logo` keeps only plain ``http(s)``
logo URLs.  Labels use one form everywhere a chain is named next to its id
(``"Cosmos Hub · cosmoshub-4"``): the pickers, the group labels of the From source table.

Logos load from third-party hosts; offline (a demo without internet) they would show as
broken images.  :func:`initials_logo` is the neutral stand-in: an inline SVG ``data:`` URL
with the symbol's initials, needing no network, which the tables show when the logo
cannot load (or when there is none).
"""

from __future__ import annotations

import base64
import re
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from assetroute_core import Asset, Chain

__all__ = [
    "asset_label",
    "chain_label",
    "group_label",
    "initials_logo",
    "md_code",
    "md_escape",
    "safe_logo",
]

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


# -- labels --------------------------------------------------------------------------------------


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


def group_label(chain_id: str, names: dict[str, str] | None = None) -> str:
    """A chain named exactly as on the pickers (:func:`chain_label`): pretty name · chain-id.

    A chain missing from *names* is shown by its chain-id alone.

    >>> group_label("cosmoshub-4", {"cosmoshub-4": "Cosmos Hub"}), group_label("x-1")
    ('Cosmos Hub · cosmoshub-4', 'x-1')
    """
    name = _CONTROL.sub(" ", (names or {}).get(chain_id) or "")[:80]
    return f"{name} · {chain_id}" if name else chain_id


# -- logos -----------------------------------------------------------------------------------------

_PALETTE = ("#4F46E5", "#0EA5E9", "#16A34A", "#F59E0B", "#E11D48", "#A855F7", "#64748B")


def initials_logo(symbol: object) -> str:
    """A neutral round badge with up to three initials of *symbol*, as an SVG ``data:`` URL.

    Only letters and digits reach the SVG, so registry text cannot inject markup.

    >>> initials_logo("ATOM").startswith("data:image/svg+xml;base64,")
    True
    """
    text = "".join(ch for ch in str(symbol or "") if ch.isascii() and ch.isalnum()).upper()[:3] or "?"
    color = _PALETTE[sum(map(ord, text)) % len(_PALETTE)]
    size = 15 if len(text) < 3 else 11
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" viewBox="0 0 40 40">'
           f'<circle cx="20" cy="20" r="19" fill="{color}"/>'
           f'<text x="20" y="20" dy="0.35em" text-anchor="middle" font-family="sans-serif" font-size="{size}" '
           f'font-weight="600" fill="#ffffff">{text}</text></svg>')
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()
