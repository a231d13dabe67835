"""JSON encoding of API bodies: compact, keys in the order given, UTF-8 bytes.

>>> dumps({"b": 1, "a": [True, None]})
b'{"b":1,"a":[true,null]}'
"""

from __future__ import annotations

from typing import Any

import orjson

__all__ = ["dumps", "loads"]


def dumps(value: Any) -> bytes:
    """Encode *value* as the HTTP service sends it (orjson; insertion order kept)."""
    return orjson.dumps(value)


def loads(data: bytes | str) -> Any:
    """Decode JSON bytes or text."""
    return orjson.loads(data)
