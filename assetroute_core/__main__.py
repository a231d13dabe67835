"""``python -m assetroute_core``: the command line (:mod:`assetroute_core._cli`)."""

from ._cli import main

if __name__ == "__main__":
    raise SystemExit(main())
