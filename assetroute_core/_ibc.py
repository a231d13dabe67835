"""ICS-20 denom arithmetic: voucher hashes and trace paths.

>>> ibc_denom("transfer/channel-0", "uatom")
'ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2'
>>> split_path("transfer/channel-0/transfer/channel-2/factory/osmo1abc/x")
(('transfer', 'channel-0', 'transfer', 'channel-2'), 'factory/osmo1abc/x')
>>> send_trace("transfer/channel-0", local_channel="channel-0", remote_channel="channel-141")
''
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache

__all__ = ["ibc_denom", "is_channel_id", "join_trace", "send_trace", "split_path", "trace_pairs"]

# ICS-024 channel identifiers, plus the client ids that IBC v2 (Eureka) uses in denom paths.
_CHANNEL_RE = re.compile(r"^(channel-\d+|\d{2}-[a-z0-9]+(?:-[a-z0-9]+)*-\d+)$")
_PORT_RE = re.compile(r"^[A-Za-z0-9._+\-#\[\]<>]{2,128}$")


def is_channel_id(value: str) -> bool:
    """Whether *value* is a well-formed channel id (``channel-7``) or IBC v2 client id."""
    return bool(_CHANNEL_RE.match(value))


@lru_cache(maxsize=262_144)
def ibc_denom(trace: str, base_denom: str) -> str:
    """The ``ibc/<HASH>`` denom of *base_denom* carried along *trace*; the base itself if no trace."""
    if not trace:
        return base_denom
    digest = hashlib.sha256(f"{trace}/{base_denom}".encode()).hexdigest().upper()
    return f"ibc/{digest}"


def split_path(path: str) -> tuple[tuple[str, ...], str]:
    """Split an ICS-20 denom path into its (port, channel) segments and the base denom.

    Pairs are consumed from the left while a port is followed by a channel id and at
    least one segment remains for the base denom (which may itself contain ``/``).
    """
    parts = path.split("/")
    i = 0
    while i + 2 < len(parts) and _PORT_RE.match(parts[i]) and is_channel_id(parts[i + 1]):
        i += 2
    return tuple(parts[:i]), "/".join(parts[i:])


def trace_pairs(trace: str) -> tuple[tuple[str, str], ...]:
    """The (port, channel) pairs of a trace string, nearest hop first."""
    if not trace:
        return ()
    parts = trace.split("/")
    return tuple((parts[i], parts[i + 1]) for i in range(0, len(parts) - 1, 2))


def join_trace(pairs: tuple[tuple[str, str], ...]) -> str:
    """Inverse of :func:`trace_pairs`."""
    return "/".join(f"{port}/{channel}" for port, channel in pairs)


def send_trace(
    trace: str,
    *,
    local_channel: str,
    remote_channel: str,
    local_port: str = "transfer",
    remote_port: str = "transfer",
) -> str:
    """The trace after sending an instance with *trace* over a channel (ICS-20 rule).

    If the trace starts with the local end, the voucher unwinds (that pair is dropped);
    otherwise the remote end is prepended.
    """
    prefix = f"{local_port}/{local_channel}"
    if trace == prefix:
        return ""
    if trace.startswith(prefix + "/"):
        return trace[len(prefix) + 1 :]
    head = f"{remote_port}/{remote_channel}"
    return f"{head}/{trace}" if trace else head
