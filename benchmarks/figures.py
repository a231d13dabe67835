"""Printing a benchmark's figures: one JSON document (``--json``), or one ``key: value`` line each."""

from __future__ import annotations

import json
from collections.abc import Mapping


def print_figures(figures: Mapping[str, object], *, as_json: bool) -> None:
    if as_json:
        print(json.dumps(figures, indent=2))
    else:
        for key, value in figures.items():
            print(f"{key}: {json.dumps(value)}")
