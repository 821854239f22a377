"""The ``safeplot`` command line: ``safeplot demo [--out DIR]``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ._version import __version__
from .errors import DisclosureError

__all__ = ["main"]


def _demo(args: argparse.Namespace) -> int:
    from .demo import run_demo

    paths = run_demo(args.out, n=args.n, seed=args.seed)
    print(f"safeplot {__version__} demo: wrote {len(paths)} files")
    for path in paths:
        print(f"  {path}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of the ``safeplot`` command."""
    parser = argparse.ArgumentParser(
        prog="safeplot",
        description="Plots of sensitive data, released through statistical disclosure control.",
    )
    parser.add_argument("--version", action="version", version=f"safeplot {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo = sub.add_parser(
        "demo",
        help="compare the methods on simulated data (writes PNGs and an audit log)",
        description=(
            "Draw a histogram and a scatter plot of each simulated data set D1-D3 of "
            "Avraam et al. (2021), raw and under suppress, generalize, deterministic and "
            "probabilistic anonymisation, and write the audit log as JSON."
        ),
    )
    demo.add_argument(
        "--out", default="safeplot-demo", help="output folder (default: %(default)s)"
    )
    demo.add_argument("--n", type=int, default=500, help="records per data set (default: 500)")
    demo.add_argument("--seed", type=int, default=1234, help="simulation seed (default: 1234)")
    demo.set_defaults(func=_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``safeplot`` command; return its exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except (DisclosureError, ValueError) as exc:
        print(f"safeplot: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
