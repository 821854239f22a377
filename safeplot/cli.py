"""The ``safeplot`` command: ``demo``, ``assess``, ``finalise``, ``token add``, ``serve``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

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


def _value(text: str) -> Any:
    """Read a command-line value: an int, else a float, else the text itself."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _columns(text: str | None, option: str) -> list[str]:
    names = [c.strip() for c in (text or "").split(",") if c.strip()]
    if text is not None and not names:
        raise ValueError(f"{option} needs column names separated by commas, got {text!r}.")
    return names


def _assignment(text: str, option: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name.strip() or not value.strip():
        raise ValueError(f"{option} takes NAME=VALUE, got {text!r}.")
    return name.strip(), value.strip()


def _assess(args: argparse.Namespace) -> int:
    import pandas as pd

    from .assess import assess, assess_plot

    try:
        data = pd.read_csv(args.data)
    except OSError as exc:
        raise ValueError(f"cannot read {args.data!r}: {exc.strerror or exc}") from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read {args.data!r} as CSV: {exc}") from None
    params: dict[str, Any] = {}
    for item in args.param or []:
        name, value = _assignment(item, "--param")
        params[name] = _value(value)
    sweep = None
    if args.sweep is not None:
        name, values = _assignment(args.sweep, "--sweep")
        sweep = {name: [_value(v.strip()) for v in values.split(",") if v.strip()]}
    try:
        table = assess(
            data,
            _columns(args.vars, "--vars"),
            method=args.method,
            k=args.k,
            q=args.q,
            strata=_columns(args.strata, "--strata") or None,
            sweep=sweep,
            formula=args.formula,
            family=args.family,
            **params,
        )
    except TypeError as exc:  # e.g. a text column where numbers are needed
        raise ValueError(str(exc)) from None
    print(f"safeplot {__version__} assess: method={table.attrs['method']}, {args.data}")
    print(table.to_string(index=False, float_format=lambda v: f"{v:.4g}"))
    if args.json:
        rows = json.loads(table.to_json(orient="records"))  # NaN becomes null
        payload = {
            "method": table.attrs["method"],
            "vars": table.attrs["vars"],
            "sweep": table.attrs["sweep"],
            "rows": rows,
        }
        try:
            with open(args.json, "w", encoding="utf-8") as fh:
                json.dump(payload, fh, indent=2)
        except OSError as exc:
            raise ValueError(f"cannot write {args.json!r}: {exc.strerror or exc}") from None
        print(f"wrote {args.json}")
    if args.plot:
        import matplotlib.pyplot as plt

        ax = assess_plot(table, x=args.x, y=args.y)
        try:
            ax.figure.savefig(args.plot, bbox_inches="tight")
        except OSError as exc:
            raise ValueError(f"cannot write {args.plot!r}: {exc.strerror or exc}") from None
        finally:
            plt.close(ax.figure)
        print(f"wrote {args.plot}")
    return 0


def _finalise(args: argparse.Namespace) -> int:
    from .bundle import finalise

    out = finalise(args.path, acro=args.acro, log=args.log)
    print(f"safeplot {__version__} finalise: wrote {out}")
    return 0


def _token_add(args: argparse.Namespace) -> int:
    from .server.auth import add_token

    datasets = _columns(args.datasets, "--datasets")
    token, analyst = add_token(args.tokens, args.name, datasets)
    print(
        f"safeplot {__version__} token add: analyst {analyst.name!r} may read "
        f"{', '.join(analyst.datasets)}; {args.tokens} stores only a SHA-256 of the token."
    )
    print("Give this token to the analyst now; it is not stored and cannot be shown again:")
    print(token)
    return 0


def _serve(args: argparse.Namespace) -> int:
    import dataclasses
    import threading

    from .server import require_server_extra

    try:
        require_server_extra("fastapi", "uvicorn")
    except ImportError as exc:
        raise ValueError(str(exc)) from None
    import uvicorn

    from . import policy as _policy
    from .server.app import create_app, load_datasets
    from .server.auth import check_name, load_analysts

    specs: dict[str, str] = {}
    for item in args.data:
        name, path = _assignment(item, "--data")
        specs[check_name(name, "Data-set name")] = path
    analysts = load_analysts(args.tokens)
    if not analysts:
        raise ValueError(
            f"no analysts in {args.tokens!r}: add one with "
            f"`safeplot token add NAME --datasets {','.join(specs)} --tokens {args.tokens}`."
        )
    base = _policy.load_policy(args.policy) if args.policy else _policy.get_policy()
    # the custodian's policy is the floor for every release this process makes
    pol = dataclasses.replace(base, locked=True)
    _policy._reset(pol)
    frames = load_datasets(specs, dask=args.dask)
    app = create_app(
        frames,
        args.tokens,
        policy=pol,
        audit_log=args.audit_log,
        max_body=args.max_body,
        timeout=args.timeout,
    )
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        timeout_keep_alive=5,
        limit_concurrency=args.limit_concurrency,
    )
    server = uvicorn.Server(config)
    if args.exit_after:
        timer = threading.Timer(args.exit_after, lambda: setattr(server, "should_exit", True))
        timer.daemon = True
        timer.start()
    print(
        f"safeplot {__version__} serve: {', '.join(specs)} on http://{args.host}:{args.port} "
        f"for {len(analysts)} analyst(s); policy {pol.source or 'defaults'} (locked)",
        flush=True,
    )
    server.run()
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
            "Draw histograms of x and y, a scatter plot, a heat map, a contour plot and box "
            "plots of each simulated data set D1-D3 of Avraam et al. (2021), and the "
            "regression diagnostics of y ~ x, raw and under suppress, generalize, "
            "deterministic and probabilistic anonymisation; the six plot families on the "
            "penguins data; and write the audit log as JSON."
        ),
    )
    demo.add_argument(
        "--out", default="safeplot-demo", help="output folder (default: %(default)s)"
    )
    demo.add_argument("--n", type=int, default=500, help="records per data set (default: 500)")
    demo.add_argument("--seed", type=int, default=1234, help="simulation seed (default: 1234)")
    demo.set_defaults(func=_demo)
    assess = sub.add_parser(
        "assess",
        help="measure disclosure risk and utility of a method on a CSV file",
        description=(
            "Anonymise columns of a CSV file as the plots would and print, for each "
            "setting, the propensity utility U, delta per variable, risk1/risk2 (sdcMicro "
            "dRiskRMD), IDR, DDR, IL1s, ILMetrics and the IL-DR score. The table describes "
            "the raw data: it is for choosing a method, not for release."
        ),
    )
    assess.add_argument("data", help="CSV file with a header row")
    assess.add_argument("--vars", required=True, help="numeric columns, comma-separated")
    assess.add_argument(
        "--method", default="deterministic", help="value-level method (default: %(default)s)"
    )
    assess.add_argument(
        "--k", type=int, help="records per centroid or group (default: the policy's k_min)"
    )
    assess.add_argument(
        "--q", type=float, help="noise as a fraction of the SD (default: the policy's q_min)"
    )
    assess.add_argument("--strata", help="categorical columns, comma-separated")
    assess.add_argument("--sweep", metavar="NAME=V1,V2,...", help="vary one parameter")
    assess.add_argument(
        "--param",
        action="append",
        metavar="NAME=VALUE",
        help=(
            "further method parameter (repeatable), e.g. --param metric=mahalanobis, "
            "--param algorithm=vmdav (microaggregation), --param discretizer=efd (rounding)"
        ),
    )
    assess.add_argument("--formula", help='regression compared, e.g. "y ~ x1 + x2"')
    assess.add_argument(
        "--family", choices=["ols", "logit"], help="model of --formula (default: by outcome)"
    )
    assess.add_argument("--plot", metavar="PATH", help="write the trade-off figure here")
    assess.add_argument("--x", default="risk1", help="plot x column (default: %(default)s)")
    assess.add_argument("--y", default="U", help="plot y column (default: %(default)s)")
    assess.add_argument("--json", metavar="PATH", help="write the table as JSON here")
    assess.set_defaults(func=_assess)
    fin = sub.add_parser(
        "finalise",
        help="write a folder for output checkers from an exported audit log",
        description=(
            "Write PATH (a new or empty folder) for output checkers: the figure files the "
            "audit log names, a CSV of the numbers each release showed, the log itself, "
            "SHA-256 checksums, and results.json in ACRO's format (read by ACRO and the "
            "SACRO viewer). The log is the JSON file safeplot.audit.export wrote; the "
            "figure files it names are looked for in the current folder, then beside the log."
        ),
    )
    fin.add_argument("path", metavar="PATH", help="folder to write (must not exist or be empty)")
    fin.add_argument(
        "--log",
        required=True,
        metavar="AUDIT.json",
        help="audit log written by safeplot.audit.export",
    )
    fin.add_argument(
        "--acro",
        metavar="FOLDER",
        help="folder of a finalised ACRO session (with results.json) to merge in",
    )
    fin.set_defaults(func=_finalise)
    token = sub.add_parser(
        "token",
        help="manage the analysts of a safeplot server",
        description="Manage the analysts file of `safeplot serve`: hashed tokens and grants.",
    )
    token_sub = token.add_subparsers(dest="token_command", metavar="ACTION", required=True)
    add = token_sub.add_parser(
        "add",
        help="give an analyst a new token and data-set grants",
        description=(
            "Create or extend the analysts file: NAME gets a new random token (an earlier "
            "token of NAME stops working) and the data sets of --datasets are added to their "
            "grants. Only a SHA-256 of the token is stored; the token is printed once, alone "
            "on the last line."
        ),
    )
    add.add_argument("name", metavar="NAME", help="the analyst's name")
    add.add_argument(
        "--datasets", required=True, metavar="NAME[,NAME...]", help="data sets granted"
    )
    add.add_argument("--tokens", required=True, metavar="FILE", help="the analysts file (TOML)")
    add.set_defaults(func=_token_add)
    serve = sub.add_parser(
        "serve",
        help="serve releases of data sets to authenticated analysts over HTTP",
        description=(
            "Load the custodian's data sets and policy and serve releases (never records) to "
            "the analysts of --tokens, each with their own release ledger per data set. "
            "Needs the 'server' extra. Serve on loopback and put a TLS reverse proxy in "
            "front for remote analysts (see the deployment guide)."
        ),
    )
    serve.add_argument(
        "--data",
        action="append",
        required=True,
        metavar="NAME=PATH",
        help="a data set: CSV or Parquet file (repeatable)",
    )
    serve.add_argument("--tokens", required=True, metavar="FILE", help="the analysts file")
    serve.add_argument("--policy", metavar="FILE", help="the custodian's policy (TOML)")
    serve.add_argument("--host", default="127.0.0.1", help="address (default: %(default)s)")
    serve.add_argument("--port", type=int, default=8765, help="port (default: %(default)s)")
    serve.add_argument(
        "--audit-log",
        default="safeplot-server-audit.jsonl",
        metavar="FILE",
        help="audit log, one JSON line per request (default: %(default)s)",
    )
    serve.add_argument("--dask", action="store_true", help="read the data sets with dask")
    serve.add_argument(
        "--max-body", type=int, default=64 * 1024, help="largest request in bytes (%(default)s)"
    )
    serve.add_argument(
        "--timeout", type=float, default=120.0, help="longest release in seconds (%(default)s)"
    )
    serve.add_argument(
        "--limit-concurrency",
        type=int,
        default=64,
        help="connections served at once before 503 (default: %(default)s)",
    )
    serve.add_argument(
        "--exit-after",
        type=float,
        default=None,
        metavar="SECONDS",
        help="stop by itself after this long (for tests and demonstrations)",
    )
    serve.set_defaults(func=_serve)
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
