"""Registry values as clean text: type checks, cuts, control characters, markup and logo URLs.

The registry is third-party data: a text field may be a number, a list, a megabyte, or hold control
characters, markup or a script URL.  Decisions made here: numbers are read as text, other types ignored;
control characters (but tab and line breaks) are removed; text over :data:`MAX_TEXT` is cut; markup,
script URLs, foreign URL schemes and invisible or bidirectional characters are reported and kept
verbatim — they are data, never interpreted.  Every repair is one issue in the report.

>>> json_kind([]), brief("x" * 100, 5), looks_like_markup("<img onerror=x>")
('a list', "'xxxxx'…", True)
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from ._data import RegistryData

__all__ = [
    "CONTROL_CHARS",
    "MAX_TEXT",
    "URL_SCHEMES",
    "as_object",
    "brief",
    "has_format_chars",
    "json_kind",
    "logo_field",
    "looks_like_markup",
    "missing_or",
    "str_or",
    "text_field",
    "uri_field",
]

MAX_TEXT = 4096  # longer registry strings are cut (and reported)
URL_SCHEMES = ("https", "http", "ipfs")
CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")  # C0/C1 controls except \t \n \r
_MARKUP = re.compile(r"<\s*[A-Za-z/!?]|\b(?:java|vb)script\s*:|\bdata\s*:\s*text/html|\bon[a-z]+\s*=", re.I)
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")


def as_object(value: Any) -> dict[str, Any]:
    """*value* if it is a JSON object, else an empty one."""
    return value if isinstance(value, dict) else {}


def str_or(value: Any, default: str) -> str:
    return value if isinstance(value, str) else default


def json_kind(value: Any) -> str:
    """The JSON type of a value with its article, for messages: ``a list``, ``an object``, ``null``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"


def missing_or(value: Any) -> str:
    return "missing" if value is None else json_kind(value)


def brief(value: Any, limit: int = 80) -> str:
    """A short, safe rendering of a registry value for a message.

    Strings are cut *before* ``repr`` (a 1 MB symbol must not be copied into the report) and
    containers are named, not rendered (``repr`` of deeply nested JSON raises RecursionError).
    """
    if isinstance(value, str):
        return repr(value[:limit]) + ("…" if len(value) > limit else "")
    if value is None or isinstance(value, bool | int | float):
        return repr(value)[:limit]
    return f"<{json_kind(value).split()[-1]}>"


def looks_like_markup(value: str) -> bool:
    """HTML tags, event-handler attributes and script URLs (cheap pre-check, then the pattern)."""
    return ("<" in value or ":" in value or "=" in value) and _MARKUP.search(value) is not None


def has_format_chars(value: str) -> bool:
    """Invisible or direction-changing characters (Unicode category Cf: ZWSP, RLO, BOM, …)."""
    return not value.isascii() and any(unicodedata.category(ch) == "Cf" for ch in value)


def text_field(value: Any, data: RegistryData, rel: str, where: str, *, check_markup: bool = True,
          check_format: bool = False) -> str | None:
    """A registry text field: ``None`` when absent; every repair is reported.

    Numbers are read as text, other types ignored; control characters (but tab and line
    breaks) are removed; text over :data:`MAX_TEXT` is cut. Markup, script URLs and
    invisible or bidirectional characters are reported and kept verbatim: they are data.
    """
    if value is None:
        return None
    if (type(value) is str and len(value) <= MAX_TEXT and not CONTROL_CHARS.search(value)
            and not (check_markup and looks_like_markup(value)) and (not check_format or value.isascii())):
        return value  # the common case
    text: str
    if isinstance(value, int | float) and not isinstance(value, bool):
        text = str(value)
        data.issue(rel, f"{where} is a number, not a string", f"read as {text[:40]!r}")
    elif isinstance(value, str):
        text = value
    else:
        data.issue(rel, f"{where} is {json_kind(value)}, not a string", "ignored")
        return None
    if CONTROL_CHARS.search(text):
        text = CONTROL_CHARS.sub("", text)
        data.issue(rel, f"{where} contains control characters", "control characters removed")
    if len(text) > MAX_TEXT:
        data.issue(rel, f"{where} is {len(text)} characters long", f"cut to {MAX_TEXT} characters")
        text = text[:MAX_TEXT]
    if check_markup and looks_like_markup(text):
        data.issue(rel, f"{where} contains markup or a script URL", "kept verbatim as data, never interpreted")
    if check_format and has_format_chars(text):
        data.issue(rel, f"{where} contains invisible or bidirectional control characters", "kept verbatim")
    return text


def uri_field(value: Any, data: RegistryData, rel: str, where: str) -> str | None:
    """A logo URI: a text field whose scheme must be http(s) or ipfs (else reported, kept verbatim)."""
    text = text_field(value, data, rel, where, check_markup=False)
    if text:
        m = _SCHEME.match(text)
        scheme = m.group(1).lower() if m else None
        if scheme not in URL_SCHEMES:
            data.issue(rel, f"{where} has {f'the URL scheme {scheme!r}' if scheme else 'no URL scheme'}",
                       "kept verbatim as data, never interpreted")
        elif looks_like_markup(text):
            data.issue(rel, f"{where} contains markup", "kept verbatim as data, never interpreted")
    return text


def logo_field(obj: dict[str, Any], data: RegistryData, rel: str, where: str) -> str | None:
    """``logo_URIs.png``, then ``.svg``, then the first image; every candidate is checked."""
    candidates: list[str] = []
    logos = obj.get("logo_URIs")
    if logos is not None and not isinstance(logos, dict):
        data.issue(rel, f"{where}logo_URIs is {json_kind(logos)}, not an object", "ignored")
    for key in ("png", "svg"):
        uri = uri_field(as_object(logos).get(key), data, rel, f"{where}logo_URIs.{key}")
        if uri:
            candidates.append(uri)
    images = obj.get("images")
    if images is not None and not isinstance(images, list):
        data.issue(rel, f"{where}images is {json_kind(images)}, not a list", "ignored")
    for i, image in enumerate(images if isinstance(images, list) else ()):
        for key in ("png", "svg"):
            uri = uri_field(as_object(image).get(key), data, rel, f"{where}images[{i}].{key}")
            if uri:
                candidates.append(uri)
    return candidates[0] if candidates else None
