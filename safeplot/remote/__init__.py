"""Remote analysis: the same calls, answered by a ``safeplot serve`` that holds the data.

::

    import safeplot as sns
    sess = sns.connect("https://tre.example.org/safeplot", token=TOKEN)
    df = sess.dataset("titanic")               # a handle: columns and types, no values
    sns.histplot(data=df, x="age", hue="sex")   # the server releases, this side draws
    fit = sns.safe_ols("fare ~ age", data=df)

A :class:`RemoteFrame` has column names, types and a rounded count, and
refuses every way of reading values (:class:`~safeplot.errors.DisclosureError`).
Passing it as ``data=`` to a function that can run remotely
(:data:`~safeplot.remote._calls.CALLS`) sends the call to the server: the
server makes the release with the same builders as a local call, under
its own policy and the analyst's ledger, and this side draws it with the
same marks. The same script runs locally or remotely by changing where
``df`` comes from.
"""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..errors import DisclosureError
from ._calls import CALLS, PLOTS, CallRelease, for_analyst, run_call
from ._federation import pooled_quantiles

__all__ = [
    "CALLS",
    "CallRelease",
    "RemoteColumn",
    "RemoteError",
    "RemoteFit",
    "RemoteFrame",
    "Session",
    "accepts_remote",
    "connect",
    "for_analyst",
    "pooled_quantiles",
    "run_call",
]


class RemoteError(RuntimeError):
    """A server refused a request that is not a disclosure refusal (bad token, bad request)."""

    def __init__(self, status: int, error: str, detail: Any) -> None:
        super().__init__(f"{status} {error}: {detail}")
        self.status, self.error, self.detail = status, error, detail


def _refuse(what: str) -> DisclosureError:
    return DisclosureError(
        f"{what}: a remote data set's values stay on the server. Pass the frame as data= to a "
        "safeplot function (histplot, describe, crosstab, safe_ols, ...) to get a release."
    )


class Session:
    """A connection to one ``safeplot serve``, as one analyst.

    Parameters
    ----------
    url : str
        The server's address, e.g. ``"http://127.0.0.1:8765"``.
    token : str
        The analyst's token (from the custodian's ``safeplot token add``).
    timeout : float, default 120
        Seconds to wait for a release.
    """

    def __init__(self, url: str, token: str, *, timeout: float = 120.0) -> None:
        from ..server import require_server_extra

        require_server_extra("httpx")
        import httpx

        if not isinstance(token, str) or not token:
            raise ValueError("connect() needs the analyst's token: token='...'.")
        self.url = url.rstrip("/")
        self._client = httpx.Client(
            base_url=self.url,
            headers={"Authorization": f"Bearer {token}"},
            timeout=timeout,
        )

    def __repr__(self) -> str:  # the token is never shown
        return f"Session({self.url!r})"

    def close(self) -> None:
        """Close the connection."""
        self._client.close()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def glm_step(self, dataset: str, formula: str, beta: Sequence[float] | None) -> dict:
        """Return this site's logistic-regression statistics at `beta` (a federated step)."""
        payload = {"formula": formula, "beta": None if beta is None else list(beta)}
        return self._request(
            "POST",
            f"/v1/datasets/{dataset}/glm-step",
            content=json.dumps(payload, allow_nan=False),
            headers={"content-type": "application/json"},
        )

    def _request(self, verb: str, path: str, **kw: Any) -> Any:
        import httpx

        try:
            response = self._client.request(verb, path, **kw)
        except httpx.TimeoutException:
            raise RemoteError(0, "timeout", f"{self.url} did not answer in time.") from None
        except httpx.TransportError as exc:
            raise RemoteError(0, "unreachable", f"cannot reach {self.url}: {exc}") from None
        try:
            body = response.json()
        except ValueError:
            body = {"error": "unreadable answer", "detail": response.text[:200]}
        if response.status_code == 200:
            return body
        if response.status_code == 403 and body.get("error") == "DisclosureError":
            raise DisclosureError(f"refused by the server: {body.get('detail')}")
        raise RemoteError(response.status_code, body.get("error", ""), body.get("detail"))

    def datasets(self) -> list[str]:
        """Return the names of the data sets this analyst may use."""
        return list(self._request("GET", "/v1/datasets")["datasets"])

    def dataset(self, name: str) -> RemoteFrame:
        """Return a handle on one data set: its columns and types, never its values."""
        info = self._request("GET", f"/v1/datasets/{name}")
        return RemoteFrame(self, name, info)

    def release(
        self,
        dataset: str,
        function: str,
        args: dict[str, Any],
        columns: Sequence[str] | None = None,
    ) -> CallRelease:
        """Ask the server to run `function` on `dataset`; return what it released."""
        from ..release import from_dict

        payload = {"function": function, "args": _jsonable(args)}
        if columns is not None:
            payload["columns"] = list(columns)
        body = self._request(
            "POST",
            f"/v1/datasets/{dataset}/release",
            content=json.dumps(payload, allow_nan=False),
            headers={"content-type": "application/json"},
        )
        out = from_dict(body["release"])
        if not isinstance(out, CallRelease):
            raise RemoteError(200, "unexpected answer", type(out).__name__)
        return out


def _jsonable(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (list, tuple, np.ndarray, pd.Index)):
        return [_jsonable(v) for v in value]
    return value


class RemoteColumn:
    """One column of a :class:`RemoteFrame`: a name and a type, no values."""

    def __init__(self, frame: RemoteFrame, name: str) -> None:
        self._frame, self.name = frame, name

    @property
    def dtype(self) -> str:
        """The column's type on the server, as text."""
        return str(self._frame.dtypes[self.name])

    @property
    def levels(self) -> list[Any] | None:
        """The column's levels, when the server may name every one (each >= threshold records)."""
        return self._frame._levels.get(self.name)

    def __repr__(self) -> str:
        return f"RemoteColumn({self.name!r}, dtype={self.dtype!r})"

    def _no(self, *args: Any, **kwargs: Any) -> Any:
        raise _refuse(f"column {self.name!r} of remote data set {self._frame.name!r}")

    to_numpy = to_list = tolist = unique = value_counts = head = tail = sample = _no
    min = max = mean = median = std = sum = quantile = describe = _no

    @property
    def values(self) -> Any:
        """Refused: the values stay on the server."""
        return self._no()

    @property
    def iloc(self) -> Any:
        """Refused: the values stay on the server."""
        return self._no()

    loc = array = iloc

    def __array__(self, *args: Any, **kwargs: Any) -> Any:
        return self._no()

    def __iter__(self) -> Iterator[Any]:
        return self._no()

    def __len__(self) -> int:
        return self._no()

    def __getitem__(self, key: Any) -> Any:
        return self._no()


class RemoteFrame:
    """A handle on a data set held by a server: column names, types, a rounded count.

    Every way of reading values (``.values``, ``.head()``, ``.iloc``,
    ``np.asarray(df)``, iterating, ``df["age"].to_numpy()``) raises
    :class:`~safeplot.errors.DisclosureError`. Pass the handle as ``data=``
    to a safeplot function instead: the server releases, this side draws.

    Attributes
    ----------
    name : str
        The data set's name on the server.
    n : int or str
        Number of records, rounded by the server's policy.
    n_rounded_to : int
        The rounding base of record counts in this server's releases (the
        policy's ``round_n_to``): a count ``n`` stands for ``n - base/2`` up
        to ``n + base/2``.
    columns : Index
        Column names.
    dtypes : Series
        Column types on the server, as text.
    """

    def __init__(
        self,
        session: Session,
        name: str,
        info: dict[str, Any],
        columns: Sequence[str] | None = None,
    ) -> None:
        self._session, self.name, self._info = session, name, info
        all_columns = [c["name"] for c in info["columns"]]
        self._selected = None if columns is None else list(columns)
        names = all_columns if columns is None else list(columns)
        types = {c["name"]: c["dtype"] for c in info["columns"]}
        self.columns = pd.Index(names)
        self.dtypes = pd.Series([types[c] for c in names], index=self.columns, dtype=object)
        self._levels = {c["name"]: c.get("levels") for c in info["columns"]}
        self.n = info["n"]
        self.n_rounded_to = int(info.get("n_rounded_to", 1))

    @property
    def session(self) -> Session:
        """The session this data set belongs to."""
        return self._session

    def __repr__(self) -> str:
        where = f"{self.name!r} at {self._session.url}"
        return f"RemoteFrame({where}, n={self.n}, columns={list(self.columns)})"

    def levels(self, column: str) -> list[Any] | None:
        """Return a column's levels when the server may name each (None otherwise)."""
        return self._levels.get(column)

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            if key not in self.columns:
                raise KeyError(key)
            return RemoteColumn(self, key)
        if isinstance(key, (list, tuple, pd.Index)) and all(isinstance(k, str) for k in key):
            missing = [k for k in key if k not in self.columns]
            if missing:
                raise KeyError(missing)
            return RemoteFrame(self._session, self.name, self._info, list(key))
        raise _refuse(f"indexing remote data set {self.name!r} with {type(key).__name__}")

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("_"):
            raise AttributeError(attr)
        if attr in self.__dict__.get("columns", ()):
            return RemoteColumn(self, attr)
        raise _refuse(f"{attr} of remote data set {self.name!r}")

    def _no(self, *args: Any, **kwargs: Any) -> Any:
        raise _refuse(f"remote data set {self.name!r}")

    to_numpy = to_pandas = to_dict = to_csv = to_records = head = tail = sample = _no
    itertuples = iterrows = items = copy = compute = _no

    @property
    def values(self) -> Any:
        """Refused: the values stay on the server."""
        return self._no()

    @property
    def iloc(self) -> Any:
        """Refused: the values stay on the server."""
        return self._no()

    loc = at = iat = iloc

    def __array__(self, *args: Any, **kwargs: Any) -> Any:
        return self._no()

    def __dataframe__(self, *args: Any, **kwargs: Any) -> Any:
        return self._no()

    def __iter__(self) -> Iterator[Any]:
        return self._no()

    def __len__(self) -> int:
        return self._no()

    def __reduce__(self) -> Any:
        return self._no()


class RemoteFit:
    """A model fitted on a server: its released coefficient table and statistics.

    Attributes
    ----------
    params, bse, tvalues, pvalues : Series
        Rounded as the server's policy says.
    nobs, df_resid, n_dropped : int or str
        Rounded counts.
    formula : str
    report : DisclosureReport
    """

    def __init__(self, call: CallRelease, origin: tuple | None = None) -> None:
        self._call = call
        self._origin = origin
        table = call.table
        self._table = table
        self.report = call.reports[0]
        self.formula = call.values["formula"]
        self.nobs = call.values["nobs"]
        self.n_dropped = call.values["n_dropped"]
        self.df_resid = call.values["df_resid"]
        self.df_model = call.values["df_model"]
        for name, value in call.values.get("stats", {}).items():
            setattr(self, name, value)
        cols = list(table.columns)
        self.params = table[cols[0]].rename(None)
        self.bse = table[cols[1]].rename(None)
        self.tvalues = table[cols[2]].rename(None)
        self.pvalues = table[cols[3]].rename(None)

    def summary_frame(self, alpha: float = 0.05) -> pd.DataFrame:
        """Return the released coefficient table (alpha 0.05)."""
        if alpha != 0.05:
            raise ValueError("A remote fit releases its table at alpha=0.05 only.")
        return self._table.copy()

    def conf_int(self, alpha: float = 0.05) -> pd.DataFrame:
        """Return the released confidence intervals (alpha 0.05)."""
        if alpha != 0.05:
            raise ValueError("A remote fit releases its intervals at alpha=0.05 only.")
        return self._call.values["conf_int"]["0.05"].copy()

    def __repr__(self) -> str:
        return f"RemoteFit({self.formula!r}, nobs={self.nobs})"

    def _panel(self, panel: str, ax: Any, annotate: bool | None, options: dict) -> Any:
        from ..diagnostics import _draw_panel
        from ..plots._common import finish, get_ax
        from ..policy import get_policy

        if self._origin is None:
            raise ValueError("This fit does not know the server it came from.")
        session, dataset, columns, model = self._origin
        args = {"formula": self.formula, "model": model, "panel": panel}
        args.update({k: v for k, v in options.items() if v is not None})
        call = session.release(dataset, "diagnostics", args, columns)
        released = call.releases[-1]  # the panel (the fit behind it is logged first)
        ax = get_ax(ax)
        _draw_panel(ax, released)
        return finish(ax, released.report, annotate=annotate, policy=get_policy())

    def plot_resid_fitted(self, ax: Any = None, *, annotate: bool | None = None, **options):
        """Draw residuals against fitted values, released by the server (see SafeOLSResults)."""
        return self._panel("resid_fitted", ax, annotate, options)

    def plot_qq(self, ax: Any = None, *, annotate: bool | None = None, **options):
        """Draw the normal Q-Q plot of the residuals, released by the server."""
        return self._panel("qq", ax, annotate, options)

    def plot_scale_location(self, ax: Any = None, *, annotate: bool | None = None, **options):
        """Draw the scale-location plot, released by the server."""
        return self._panel("scale_location", ax, annotate, options)

    def plot_resid_leverage(self, ax: Any = None, *, annotate: bool | None = None, **options):
        """Draw residuals against leverage with Cook's contours, released by the server."""
        return self._panel("resid_leverage", ax, annotate, options)

    def plot_diagnostics(
        self, *, figsize: tuple[float, float] = (9.0, 8.0), annotate: bool | None = None, **options
    ) -> Any:
        """Draw the four diagnostic panels in a 2 x 2 figure, each released by the server."""
        import matplotlib.pyplot as plt

        fig, axes = plt.subplots(2, 2, figsize=figsize, layout="constrained")
        for ax, panel in zip(
            axes.flat, ("resid_fitted", "qq", "scale_location", "resid_leverage"), strict=True
        ):
            self._panel(panel, ax, annotate, options)
        return fig


def connect(
    url: str | Sequence[str],
    token: str | None = None,
    *,
    tokens: Sequence[str] | None = None,
    timeout: float = 120.0,
) -> Session:
    """Connect to a ``safeplot serve`` as an analyst.

    Parameters
    ----------
    url : str or list of str
        The server's address; several addresses pool their sites
        (:class:`~safeplot.remote._federation.FederatedSession`).
    token : str
        The analyst's token.
    tokens : list of str, optional
        One token per server, when pooling.
    timeout : float, default 120
        Seconds to wait for a release.

    Returns
    -------
    Session or FederatedSession

    Examples
    --------
    >>> import safeplot
    >>> sess = safeplot.connect("http://127.0.0.1:8765", token="...")  # doctest: +SKIP
    >>> df = sess.dataset("titanic")  # doctest: +SKIP
    >>> ax = safeplot.histplot(data=df, x="age", hue="sex")  # doctest: +SKIP
    """
    if isinstance(url, str):
        return Session(url, token or "", timeout=timeout)
    from ._federation import FederatedSession

    urls = list(url)
    keys = list(tokens) if tokens is not None else [token] * len(urls)
    if len(keys) != len(urls):
        raise ValueError("connect([...]) needs one token per server: tokens=[...].")
    return FederatedSession(
        [Session(u, k or "", timeout=timeout) for u, k in zip(urls, keys, strict=True)]
    )


def accepts_remote(function: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Let a public function take a :class:`RemoteFrame` as its data (one place for all).

    Called with a local frame, the function runs as before. Called with a
    remote frame, its release arguments go to the server, which runs the same
    function on its data; the drawing arguments stay here, where the release
    is drawn with the same marks.
    """

    def wrap(func: Callable[..., Any]) -> Callable[..., Any]:
        sig = inspect.signature(func)

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            data = kwargs.get("data")
            if data is None and function not in ("safe_ols", "safe_logit") and args:
                data = args[0]
            elif data is None and len(args) > 1:
                data = args[1]
            from ._federation import FederatedFrame

            if isinstance(data, FederatedFrame):
                return _pooled_call(function, sig, data, args, kwargs)
            if not isinstance(data, RemoteFrame):
                return func(*args, **kwargs)
            return _remote_call(function, sig, data, args, kwargs)

        return wrapper

    return wrap


def _pooled_call(
    function: str, sig: inspect.Signature, frame: Any, args: tuple, kwargs: dict
) -> Any:
    from ._federation import pooled_histplot, pooled_logit

    bound = sig.bind(*args, **kwargs)
    given = {k: v for k, v in bound.arguments.items() if k != "data" and v is not None}
    if function == "safe_logit":
        return pooled_logit(frame, given["formula"])
    if function == "histplot":
        allowed = CALLS[function]
        send = {k: v for k, v in given.items() if k in allowed}
        local = {k: v for k, v in given.items() if k not in allowed}
        local.update(local.pop("kwargs", {}))
        ax, annotate = local.pop("ax", None), local.pop("annotate", None)
        return pooled_histplot(frame, send, ax=ax, annotate=annotate, style=local)
    raise ValueError(
        f"{function}() cannot pool several sites; histplot and safe_logit can. Use one site's "
        "frame (frame.sites[i]) for the others."
    )


def _remote_call(
    function: str, sig: inspect.Signature, frame: RemoteFrame, args: tuple, kwargs: dict
) -> Any:
    from .. import audit

    bound = sig.bind(*args, **kwargs)
    given = dict(bound.arguments)
    given.pop("data", None)
    for name, p in sig.parameters.items():
        if p.kind is inspect.Parameter.VAR_KEYWORD:
            given.update(given.pop(name, {}))
        elif p.kind is inspect.Parameter.VAR_POSITIONAL and given.pop(name, ()):
            raise ValueError(f"{function}() with a remote frame takes keyword arguments only.")
    allowed = CALLS[function]
    send = {k: v for k, v in given.items() if k in allowed and v is not None}
    local = {k: v for k, v in given.items() if k not in allowed}
    session = frame.session
    if function in PLOTS:
        from ._draw import draw

        ax = local.pop("ax", None)
        annotate = local.pop("annotate", None)
        params = inspect.signature(func_of(function)).parameters
        style = {k: local.pop(k) for k in list(local) if k in params}
        call = session.release(frame.name, function, send, frame._selected)
        return draw(call, send, ax=ax, annotate=annotate, style=style, kwargs=local)
    unused = sorted(k for k, v in local.items() if v is not None and k != "policy")
    if unused or local.get("policy") is not None:
        raise ValueError(
            f"{function}() with a remote frame takes {sorted(allowed)}; "
            f"{unused or ['policy']} cannot be sent (the server's policy applies)."
        )
    call = session.release(frame.name, function, send, frame._selected)
    report = call.reports[0]
    if function in ("safe_ols", "safe_logit"):
        model = "ols" if function == "safe_ols" else "logit"
        fit = RemoteFit(call, (session, frame.name, frame._selected, model))
        audit.record(report, figure=None, released=call.table)
        return fit
    if function == "describe":
        from ..summaries import Description

        audit.record(report, figure=None, released=call.table)
        return Description(call.table, call.flags, report)
    from ..plots.matrix import mark_safe_matrix

    audit.record(report, figure=None, released=call.table)
    return mark_safe_matrix(call.table, function, report)


def func_of(function: str) -> Callable[..., Any]:
    """Return the local public function behind a remote call's name."""
    from ._calls import _function

    return _function(function)
