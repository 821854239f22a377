"""The remote-analysis server: releases only, per analyst, under the custodian's policy.

:func:`create_app` builds the FastAPI application that ``safeplot serve``
runs with uvicorn. The data sets and the policy are loaded once, at start;
each request is authenticated by its bearer token, checked against the
analyst's grants, validated against the allow-list of functions and
arguments (:data:`safeplot.remote.CALLS`), and computed inside the ledger
of that analyst and data set. Every request is written to the audit log
with the analyst's name. No route returns records: metadata (column names,
types, a rounded count, category levels that each hold at least
``threshold`` records) and releases are all there is.
"""

# no `from __future__ import annotations`: FastAPI reads the routes' annotations at run
# time, and they name dependencies local to create_app

import asyncio
import json
import logging
import os
import threading
import time
from collections.abc import Callable, Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import Annotated, Any, Literal, Union

import pandas as pd
from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field, create_model
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import ledger as _ledger
from .._version import __version__
from ..errors import DisclosureError
from ..policy import Policy, get_policy
from ..release import to_dict
from ..remote._calls import CALLS, glm_step, run_call
from .auth import Analyst, load_analysts, verify_token

__all__ = ["ServerError", "create_app", "load_datasets"]

log = logging.getLogger("safeplot.server")

#: Largest request body accepted (bytes).
MAX_BODY = 64 * 1024
#: Longest a release may compute (seconds) before the request gets 503.
TIMEOUT = 120.0
#: Releases computed at once; further requests wait their turn.
WORKERS = 4
#: Federated model steps per analyst and data set (each releases sums at chosen coefficients).
GLM_STEPS = 500

_TYPES: dict[str, Any] = {
    "str": str,
    "int": int,
    "float": float,
    "bool": bool,
    "list[str]": list[str],
    "list[float]": list[float],
    "int | str": Union[int, str],  # noqa: UP007 - pydantic needs a runtime type
    "str | list[str]": Union[str, list[str]],  # noqa: UP007
}


class ServerError(Exception):
    """A request the server refuses, with its status code and a message for the analyst."""

    def __init__(self, status: int, error: str, detail: str) -> None:
        super().__init__(detail)
        self.status, self.error, self.detail = status, error, detail


def _args_model(function: str) -> type[BaseModel]:
    fields: dict[str, Any] = {
        name: (_TYPES[kind] | None, None) for name, kind in CALLS[function].items()
    }
    # strict: no coercion ("3" is not 3); extra="forbid": an argument not listed is refused
    config = ConfigDict(extra="forbid", strict=True, str_max_length=500)
    return create_model(f"{function}_args", __config__=config, **fields)


#: One pydantic model per function: its allowed arguments, nothing else.
ARGS = {function: _args_model(function) for function in CALLS}


class ReleaseRequest(BaseModel):
    """A call of one allowed function on a data set the analyst may read."""

    model_config = ConfigDict(extra="forbid")

    function: Literal[tuple(CALLS)]  # type: ignore[valid-type]
    args: dict[str, Any] = Field(default_factory=dict)
    columns: list[str] | None = Field(default=None, max_length=200)


class ReleaseResponse(BaseModel):
    """The releases of one call, as :func:`safeplot.release.to_dict` writes them."""

    function: str
    release: dict[str, Any]


class GlmStepRequest(BaseModel):
    """Coefficients at which a site computes its logistic-regression statistics."""

    model_config = ConfigDict(extra="forbid", strict=True)

    formula: str = Field(max_length=500)
    beta: list[float] | None = Field(default=None, max_length=100)


class GlmStep(BaseModel):
    """One site's sufficient statistics of a logistic regression (a federated step)."""

    names: list[str]
    information: list[list[float]]
    score: list[float]
    deviance: float
    n: int | str


class Column(BaseModel):
    """A column's name, type, and its levels when every level is common enough to name."""

    name: str
    dtype: str
    levels: list[Any] | None = None


class DatasetInfo(BaseModel):
    """What an analyst may know of a data set without a release."""

    name: str
    n: int | str
    n_rounded_to: int
    columns: list[Column]


class DatasetList(BaseModel):
    """The data sets granted to the analyst."""

    datasets: list[str]


class Health(BaseModel):
    """The server is up."""

    status: str
    version: str


class ErrorBody(BaseModel):
    """Every refusal: a status code, a short kind and a message (never a traceback)."""

    error: str
    detail: Any


def load_datasets(specs: Mapping[str, str], *, dask: bool = False) -> dict[str, Any]:
    """Read the custodian's data sets: CSV or Parquet, with dask when asked (out of core).

    Parameters
    ----------
    specs : mapping
        Data-set name -> path (``.csv``, ``.parquet`` or a folder of Parquet files).
    dask : bool, default False
        Read with :mod:`dask.dataframe` (lazily, partition by partition).

    Raises
    ------
    ValueError
        If a file cannot be read.
    """
    out = {}
    for name, path in specs.items():
        p = Path(path)
        parquet = p.suffix.lower() in (".parquet", ".pq") or p.is_dir()
        try:
            if dask:
                import dask.dataframe as dd

                out[name] = dd.read_parquet(str(p)) if parquet else dd.read_csv(str(p))
            else:
                out[name] = pd.read_parquet(p) if parquet else pd.read_csv(p)
        except ImportError as exc:
            raise ValueError(f"cannot read {str(p)!r}: {exc}") from None
        except (OSError, ValueError, pd.errors.ParserError) as exc:
            raise ValueError(f"cannot read data set {name!r} from {str(p)!r}: {exc}") from None
    return out


class _AuditFile:
    """The server's audit log: one JSON line per request, with the analyst's name."""

    def __init__(self, path: str | os.PathLike[str] | None) -> None:
        self.path = Path(path) if path else None
        self._lock = threading.Lock()

    def write(self, **entry: Any) -> None:
        line = json.dumps(
            {"time": datetime.now(timezone.utc).isoformat(timespec="milliseconds"), **entry},
            default=str,
        )
        log.info(line)
        if self.path is not None:
            with self._lock, self.path.open("a", encoding="utf-8") as fh:
                fh.write(line + "\n")


class _BodyLimit:
    """ASGI middleware: a request body larger than `limit` bytes gets 413, unread."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        too_big = False
        if length is not None:
            try:
                too_big = int(length) > self.limit
            except ValueError:
                too_big = True
        if too_big:
            await self._refuse(send)
            return
        seen = 0

        async def limited() -> dict:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise ServerError(413, "request too large", self._detail())
            return message

        try:
            await self.app(scope, limited, send)
        except ServerError:
            await self._refuse(send)

    def _detail(self) -> str:
        return f"The request body is larger than the server's limit of {self.limit} bytes."

    async def _refuse(self, send: Callable) -> None:
        body = json.dumps({"error": "request too large", "detail": self._detail()}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _levels(column: pd.Series, threshold: int) -> list[Any] | None:
    """Return the column's levels when each holds at least `threshold` records, else None."""
    if pd.api.types.is_numeric_dtype(column.dtype) and not pd.api.types.is_bool_dtype(
        column.dtype
    ):
        return None
    counts = column.value_counts(dropna=True)
    if len(counts) == 0 or len(counts) > 100 or (counts < threshold).any():
        return None
    if isinstance(column.dtype, pd.CategoricalDtype):
        return [str(c) for c in column.cat.categories]
    return sorted(str(v) for v in counts.index)


def _metadata(name: str, frame: Any, policy: Policy) -> DatasetInfo:
    from .._validate import is_dask_collection

    if is_dask_collection(frame):
        n = int(frame.shape[0].compute())
        columns = [Column(name=str(c), dtype=str(t)) for c, t in frame.dtypes.items()]
    else:
        n = len(frame)
        columns = [
            Column(
                name=str(c), dtype=str(frame[c].dtype), levels=_levels(frame[c], policy.threshold)
            )
            for c in frame.columns
        ]
    return DatasetInfo(
        name=name, n=policy.round_count(n), n_rounded_to=policy.round_n_to, columns=columns
    )


class _Analysts:
    """The analysts file, read again when it changes (a new token needs no restart)."""

    def __init__(self, source: Mapping[str, Analyst] | str | os.PathLike[str]) -> None:
        self._lock = threading.Lock()
        if isinstance(source, Mapping):
            self.path, self._stamp, self._book = None, None, dict(source)
        else:
            self.path, self._stamp, self._book = Path(source), None, {}
            self.current()

    def current(self) -> dict[str, Analyst]:
        if self.path is None:
            return self._book
        with self._lock:
            try:
                stat = self.path.stat()
                stamp = (stat.st_mtime_ns, stat.st_size)
            except OSError:
                stamp = None
            if stamp != self._stamp:
                try:
                    self._book = load_analysts(self.path)
                except ValueError:
                    log.exception("analysts file unreadable; keeping the analysts read before")
                self._stamp = stamp
            return self._book


def create_app(
    datasets: Mapping[str, Any],
    analysts: Mapping[str, Analyst] | str | os.PathLike[str],
    *,
    policy: Policy | None = None,
    audit_log: str | os.PathLike[str] | None = None,
    max_body: int = MAX_BODY,
    timeout: float = TIMEOUT,
    workers: int = WORKERS,
    glm_steps: int = GLM_STEPS,
) -> FastAPI:
    """Build the server's FastAPI application.

    Parameters
    ----------
    datasets : mapping
        Data-set name -> frame (pandas or dask), loaded by the custodian.
    analysts : mapping or path
        Analyst name -> :class:`~safeplot.server.auth.Analyst` (hashed token,
        grants), or the analysts file, read again whenever it changes.
    policy : Policy, optional
        The custodian's policy (default: the one in force); every release is
        made under it, and it is locked: a call may tighten it, never loosen it.
    audit_log : path, optional
        File the audit log is appended to (one JSON line per request).
    max_body : int
        Largest request body, in bytes.
    timeout : float
        Longest a release may compute, in seconds.
    workers : int
        Releases computed at once.
    glm_steps : int
        Federated model steps (:func:`safeplot.remote._calls.glm_step`) each
        analyst may take on each data set while the server runs.

    Returns
    -------
    FastAPI
    """
    pol = get_policy() if policy is None else policy
    audit = _AuditFile(audit_log)
    book_of_analysts = _Analysts(analysts)
    frames = dict(datasets)
    books: dict[tuple[str, str], _ledger.Ledger] = {}
    books_lock = threading.Lock()
    slots = asyncio.Semaphore(workers)

    app = FastAPI(
        title="safeplot server",
        version=__version__,
        description="Releases of the custodian's data sets under statistical disclosure control.",
        responses={
            401: {"model": ErrorBody},
            403: {"model": ErrorBody},
            422: {"model": ErrorBody},
        },
    )
    app.add_middleware(_BodyLimit, limit=max_body)
    bearer = HTTPBearer(auto_error=False)

    def _book(analyst: str, dataset: str) -> _ledger.Ledger:
        with books_lock:
            key = (analyst, dataset)
            if key not in books:
                books[key] = _ledger.Ledger(pol, name=f"{analyst} / {dataset}")
            return books[key]

    async def who(
        request: Request, creds: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
    ) -> Analyst:
        analyst = verify_token(book_of_analysts.current(), creds.credentials if creds else None)
        if analyst is None:
            audit.write(
                analyst=None,
                route=request.url.path,
                status=401,
                outcome="no token" if creds is None else "wrong token",
            )
            raise ServerError(401, "unauthorised", "A valid bearer token is needed.")
        request.state.analyst = analyst.name
        return analyst

    def granted(analyst: Analyst, name: str, route: str) -> Any:
        if not analyst.may_read(name) or name not in frames:
            audit.write(
                analyst=analyst.name, dataset=name, route=route, status=403, outcome="not granted"
            )
            raise ServerError(
                403, "forbidden", f"Data set {name!r} is not available to {analyst.name!r}."
            )
        return frames[name]

    @app.exception_handler(ServerError)
    async def _server_error(request: Request, exc: ServerError) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
        return JSONResponse(
            {"error": exc.error, "detail": exc.detail}, status_code=exc.status, headers=headers
        )

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse(
            {"error": "invalid request", "detail": _problems(exc)}, status_code=422
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse(
            {"error": "http error", "detail": str(exc.detail)}, status_code=exc.status_code
        )

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s", request.url.path)
        return JSONResponse(
            {"error": "internal error", "detail": "The server could not make this release."},
            status_code=500,
        )

    @app.get("/v1/health", response_model=Health)
    async def health() -> Health:
        """Whether the server is up (no token needed, nothing about the data)."""
        return Health(status="ok", version=__version__)

    @app.get("/v1/datasets", response_model=DatasetList)
    async def list_datasets(analyst: Annotated[Analyst, Depends(who)]) -> DatasetList:
        """List the data sets this analyst may use."""
        names = [d for d in analyst.datasets if d in frames]
        audit.write(analyst=analyst.name, route="/v1/datasets", status=200, outcome="listed")
        return DatasetList(datasets=names)

    @app.get("/v1/datasets/{name}", response_model=DatasetInfo)
    async def dataset_info(name: str, analyst: Annotated[Analyst, Depends(who)]) -> DatasetInfo:
        """Column names and types, a rounded count, and levels common enough to name."""
        frame = granted(analyst, name, "/v1/datasets/{name}")
        info = await run_in_threadpool(_metadata, name, frame, pol)
        audit.write(
            analyst=analyst.name,
            dataset=name,
            route="/v1/datasets/{name}",
            status=200,
            outcome="metadata",
        )
        return info

    def _compute(analyst: str, name: str, frame: Any, body: ReleaseRequest, args: dict) -> dict:
        if body.columns is not None:
            missing = [c for c in body.columns if c not in frame.columns]
            if missing:
                raise ValueError(f"No column(s) {missing} in data set {name!r}.")
            frame = frame[body.columns]
        with _ledger.using(_book(analyst, name)):
            return to_dict(run_call(body.function, frame, args))

    @app.post(
        "/v1/datasets/{name}/release",
        response_model=ReleaseResponse,
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": ReleaseRequest.model_json_schema()}},
            }
        },
    )
    async def release(
        name: str, request: Request, analyst: Annotated[Analyst, Depends(who)]
    ) -> ReleaseResponse:
        """Run one allowed function on the data set; return its releases and reports.

        The body is read only after the token and the grant are checked, so
        that a caller without them learns nothing, not even how the body
        should look.
        """
        frame = granted(analyst, name, "/v1/datasets/{name}/release")
        try:
            body = ReleaseRequest.model_validate_json(await request.body())
        except ValueError as exc:
            audit.write(
                analyst=analyst.name,
                dataset=name,
                route="/v1/datasets/{name}/release",
                status=422,
                outcome="invalid request",
            )
            raise ServerError(422, "invalid request", _problems(exc)) from None
        entry = {
            "analyst": analyst.name,
            "dataset": name,
            "route": "/v1/datasets/{name}/release",
            "function": body.function,
        }
        try:
            args = ARGS[body.function].model_validate(body.args).model_dump(exclude_none=True)
        except ValueError as exc:
            audit.write(**entry, args=body.args, status=422, outcome="invalid arguments")
            raise ServerError(422, "invalid arguments", _problems(exc)) from None
        entry["args"] = args
        started = time.monotonic()
        try:
            async with slots:
                out = await asyncio.wait_for(
                    run_in_threadpool(_compute, analyst.name, name, frame, body, args), timeout
                )
        except DisclosureError as exc:
            audit.write(**entry, status=403, outcome="refused", detail=str(exc))
            raise ServerError(403, "DisclosureError", str(exc)) from None
        except (ValueError, TypeError, KeyError) as exc:
            audit.write(**entry, status=422, outcome="bad request", detail=str(exc))
            raise ServerError(422, type(exc).__name__, str(exc)) from None
        except asyncio.TimeoutError:
            audit.write(**entry, status=503, outcome="timeout")
            raise ServerError(
                503, "timeout", f"The release took longer than {timeout:g} s; ask for less."
            ) from None
        reports = [r["fields"] for r in out["fields"]["reports"]]
        audit.write(
            **entry,
            status=200,
            outcome="released",
            seconds=round(time.monotonic() - started, 3),
            reports=_plain(reports),
        )
        return ReleaseResponse(function=body.function, release=out)

    steps: dict[tuple[str, str], int] = {}

    @app.post(
        "/v1/datasets/{name}/glm-step",
        response_model=GlmStep,
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": GlmStepRequest.model_json_schema()}},
            }
        },
    )
    async def glm_step_route(
        name: str, request: Request, analyst: Annotated[Analyst, Depends(who)]
    ) -> GlmStep:
        """One step of a federated logistic regression: this site's sums at ``beta``."""
        frame = granted(analyst, name, "/v1/datasets/{name}/glm-step")
        entry = {"analyst": analyst.name, "dataset": name, "route": "/v1/datasets/{name}/glm-step"}
        try:
            body = GlmStepRequest.model_validate_json(await request.body())
        except ValueError as exc:
            audit.write(**entry, status=422, outcome="invalid request")
            raise ServerError(422, "invalid request", _problems(exc)) from None
        key = (analyst.name, name)
        with books_lock:
            steps[key] = steps.get(key, 0) + 1
            used = steps[key]
        entry.update(formula=body.formula, step=used)
        if used > glm_steps:
            audit.write(**entry, status=403, outcome="refused: step budget")
            raise ServerError(
                403,
                "DisclosureError",
                f"{analyst.name!r} has used the {glm_steps} federated model steps this server "
                f"allows on {name!r}; ask the data custodian.",
            )

        def compute() -> dict:
            with _ledger.using(_book(analyst.name, name)):
                return glm_step(frame, body.formula, body.beta)

        try:
            async with slots:
                out = await asyncio.wait_for(run_in_threadpool(compute), timeout)
        except DisclosureError as exc:
            audit.write(**entry, status=403, outcome="refused", detail=str(exc))
            raise ServerError(403, "DisclosureError", str(exc)) from None
        except (ValueError, TypeError, KeyError) as exc:
            audit.write(**entry, status=422, outcome="bad request", detail=str(exc))
            raise ServerError(422, type(exc).__name__, str(exc)) from None
        except asyncio.TimeoutError:
            audit.write(**entry, status=503, outcome="timeout")
            raise ServerError(503, "timeout", "The model step took too long.") from None
        audit.write(**entry, status=200, outcome="released", n=out["n"])
        return GlmStep(**out)

    return app


def _problems(exc: Exception) -> Any:
    """Where a request is invalid and why, without echoing what was sent."""
    errors = getattr(exc, "errors", None)
    if errors is None:
        return str(exc)
    return [
        {"where": ".".join(str(p) for p in e.get("loc", ())), "problem": e.get("msg")}
        for e in errors()
    ]


def _plain(value: Any) -> Any:
    """Return the reports' fields with tagged values (tuples, ...) reduced, for the log."""
    if isinstance(value, dict):
        if "__safeplot__" in value:
            return value.get("items", value.get("value"))
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value
