"""The shape of the package: one method registry, no import cycles, no private seaborn.

These tests read the source with :mod:`ast` and walk the import graph, so a
change that brings back a method-name branch in a plot, a cycle, or a private
seaborn class fails here, whatever the figures look like. The last tests add a
method in the test itself and draw it through four plot families without
touching library code.
"""

from __future__ import annotations

import ast
import pathlib
import sys

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import safeplot
from safeplot import DisclosureError, methods
from safeplot.anonymize import off_rare_values
from safeplot.datasets import simulate
from safeplot.methods import AnonymizedValues, Method, Microaggregation
from safeplot.plots.axisgrid import pair_axes_variables

from .leakscan import scan_figure

PACKAGE = pathlib.Path(safeplot.__file__).parent

#: Most places outside methods/ and policy.py that may compare a method with a name.
MAX_NAME_COMPARISONS = 2
#: What a mark (safeplot/marks/) may import besides the standard library: no data handling.
MARK_LIBRARIES = ("numpy", "pandas", "matplotlib", "seaborn")
MARK_SAFEPLOT = ("safeplot.release", "safeplot.marks")


def _sources() -> dict[str, ast.Module]:
    return {
        p.relative_to(PACKAGE).as_posix(): ast.parse(p.read_text(encoding="utf-8"))
        for p in sorted(PACKAGE.rglob("*.py"))
    }


def _is_method_name(node: ast.AST, names: set[str]) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and node.value in names
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and node.elts:
        return all(_is_method_name(e, names) for e in node.elts)
    return False


def method_name_comparisons(sources: dict[str, ast.Module]) -> list[str]:
    """Return ``file:line`` of every comparison with a built-in method's name."""
    names = {m.name for m in methods.available_methods()}
    found = []
    for rel, tree in sources.items():
        if rel.startswith("methods/") or rel == "policy.py":
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare) and any(
                _is_method_name(side, names) for side in [node.left, *node.comparators]
            ):
                found.append(f"{rel}:{node.lineno}: {ast.unparse(node)}")
    return found


def _module_name(rel: str) -> str:
    parts = rel[: -len(".py")].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(["safeplot", *parts])


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def import_graph(sources: dict[str, ast.Module]) -> dict[str, set[str]]:
    """Return module -> safeplot modules it imports, at any depth of the file."""
    known = {_module_name(rel) for rel in sources}
    graph: dict[str, set[str]] = {}
    for rel, tree in sources.items():
        module = _module_name(rel)
        is_package = rel.endswith("__init__.py")
        edges: set[str] = set()
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(module, is_package, node)
                targets = [f"{base}.{a.name}" for a in node.names] + [base]
            for target in targets:
                # the module itself, or the package a name was taken from
                while target and target not in known:
                    target = target.rpartition(".")[0]
                if target and target != module and target.startswith("safeplot"):
                    edges.add(target)
        graph[module] = edges
    return graph


def mark_imports_outside(sources: dict[str, ast.Module]) -> list[str]:
    """Return ``file:line: module`` of every import in marks/ of something a mark may not use."""
    found = []
    for rel, tree in sources.items():
        if not rel.startswith("marks/"):
            continue
        module, is_package = _module_name(rel), rel.endswith("__init__.py")
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(module, is_package, node)
                # `from .. import audit` takes a module out of the package itself
                targets = (
                    [f"{base}.{a.name}" for a in node.names] if base == "safeplot" else [base]
                )
            else:
                continue
            for target in targets:
                top = target.partition(".")[0]
                if top == "safeplot":
                    allowed = any(target == a or target.startswith(a + ".") for a in MARK_SAFEPLOT)
                else:
                    allowed = top in MARK_LIBRARIES or top in sys.stdlib_module_names
                if not allowed:
                    found.append(f"{rel}:{node.lineno}: {target}")
    return found


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """Return one import cycle (a list of modules) or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


# -- the shape -------------------------------------------------------------------------


def test_method_names_are_compared_in_the_registry_not_in_the_plots():
    found = method_name_comparisons(_sources())
    assert len(found) <= MAX_NAME_COMPARISONS, "\n".join(found)


def test_the_name_counter_sees_a_comparison():
    """The counter above must find what it looks for (else it passes on anything)."""
    tree = ast.parse("def f(method):\n    return method in ('suppress', 'generalize')\n")
    assert method_name_comparisons({"plots/x.py": tree}) == [
        "plots/x.py:2: method in ('suppress', 'generalize')"
    ]
    assert method_name_comparisons({"methods/x.py": tree}) == []


def test_safeplot_has_no_import_cycle():
    cycle = find_cycle(
        {m: {t for t in e if t != "safeplot"} for m, e in import_graph(_sources()).items()}
    )
    assert cycle is None, " -> ".join(cycle or [])


def test_the_cycle_finder_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_plot_module_imports_a_private_name_of_another_plot_module():
    found = []
    for rel, tree in _sources().items():
        if not rel.startswith("plots/") and not rel.startswith("integrations/"):
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            module = _resolve(_module_name(rel), rel.endswith("__init__.py"), node)
            if not module.startswith("safeplot.plots."):
                continue
            source = module.rpartition(".")[2]
            if source.startswith("_"):  # shared modules (_common, _data, ...) are for this
                continue
            private = [a.name for a in node.names if a.name.startswith("_")]
            if private:
                found.append(f"{rel}:{node.lineno} takes {private} from {module}")
    assert not found, "\n".join(found)


def test_marks_import_no_data_handling_code():
    """A mark draws a release: no anonymisation, method, source, validation or policy code."""
    sources = _sources()
    assert {"marks/points.py", "marks/boxes.py", "marks/bars.py", "marks/lines.py"} <= set(sources)
    found = mark_imports_outside(sources)
    assert not found, "\n".join(found)


def test_the_mark_import_check_sees_data_handling_code():
    tree = ast.parse(
        "import numpy as np\n"
        "from ..release import PointRelease\n"
        "from ._axes import set_safe_axis\n"
        "from ..anonymize.grids import hits_any\n"
        "from .. import policy\n"
        "from ..plots._common import attach_release\n"
        "import scipy.stats\n"
    )
    assert mark_imports_outside({"marks/x.py": tree}) == [
        "marks/x.py:4: safeplot.anonymize.grids",
        "marks/x.py:5: safeplot.policy",
        "marks/x.py:6: safeplot.plots._common",
        "marks/x.py:7: scipy.stats",
    ]
    assert mark_imports_outside({"plots/x.py": tree}) == []


def test_no_private_seaborn_or_statsmodels_api():
    found = []
    for rel, tree in _sources().items():
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                parts = name.split(".")
                if parts[0] in ("seaborn", "statsmodels") and any(
                    p.startswith("_") for p in parts[1:]
                ):
                    found.append(f"{rel}:{node.lineno}: {name}")
    assert not found, "\n".join(found)


# -- a new method, added here --------------------------------------------------------


class BlockMeans(Method):
    """Sort the records by their first variable; each block of 5 becomes its mean."""

    name = "blockmeans_test"
    summary = "Each block of 5 records (sorted by the first variable) becomes its mean."
    moves_values = True
    groups_within_strata = True
    block = 5

    def anonymize(self, x, context):
        strata = context.strata
        codes = np.zeros(len(x), dtype=int) if strata is None else np.asarray(strata)
        out = np.empty_like(x)
        for code in np.unique(codes):
            rows = np.flatnonzero(codes == code)
            order = rows[np.argsort(x[rows, 0], kind="stable")]
            starts = list(range(0, len(order), self.block))
            if len(starts) > 1 and len(order) - starts[-1] < self.block:
                starts.pop()  # a short last block joins the one before it
            for i, start in enumerate(starts):
                stop = starts[i + 1] if i + 1 < len(starts) else len(order)
                out[order[start:stop]] = x[order[start:stop]].mean(axis=0)
        released = off_rare_values(out, x, context.threshold, context.rare)
        return AnonymizedValues(released, {"block": self.block})


@pytest.fixture
def block_means():
    methods.register(BlockMeans())
    with safeplot.policy(
        allowed_methods=[*safeplot.get_policy().allowed_methods, BlockMeans.name]
    ):
        yield BlockMeans.name
    methods._base._REGISTRY.pop(BlockMeans.name)
    safeplot.policy._known_methods.pop(BlockMeans.name)


@pytest.fixture
def frame():
    return simulate("D1", n=200, seed=3).assign(g=lambda d: np.where(d.index % 2, "a", "b"))


def test_a_new_method_draws_a_scatterplot_of_its_own_values(block_means, frame):
    ax = safeplot.scatterplot(data=frame, x="x", y="y", method=block_means)
    assert ax.safeplot_report.method == block_means
    drawn = np.vstack([c.get_offsets() for c in ax.collections if len(c.get_offsets())])
    expected = methods.anonymize_values(frame[["x", "y"]].to_numpy(), block_means).values
    # every drawn point is a block mean, and the figure shows 200 / 5 of them
    assert len(np.unique(drawn.round(9), axis=0)) == 40
    np.testing.assert_allclose(
        np.unique(drawn.round(6), axis=0), np.unique(expected.round(6), axis=0)
    )
    assert not scan_figure(ax.figure, {"x": frame["x"].to_numpy(), "y": frame["y"].to_numpy()})
    plt.close("all")


def test_a_new_method_draws_histograms_boxes_and_densities(block_means, frame):
    raw = {"x": frame["x"].to_numpy()}
    for plot in (safeplot.histplot, safeplot.kdeplot):
        ax = plot(data=frame, x="x", method=block_means)
        assert ax.safeplot_report.method == block_means
        assert not scan_figure(ax.figure, raw)
        plt.close("all")
    ax = safeplot.boxplot(data=frame, x="g", y="x", method=block_means)
    assert ax.safeplot_report.method == block_means
    assert not scan_figure(ax.figure, {"y": frame["x"].to_numpy()})
    plt.close("all")


def test_a_new_method_groups_within_hue_levels_when_it_says_so(block_means, frame):
    x = frame[["x", "y"]].to_numpy()
    codes = (frame["g"] == "a").to_numpy().astype(int)
    out = methods.anonymize_values(x, block_means, strata=codes).values
    for code in (0, 1):
        rows = codes == code
        # a level's released points are means of that level's records only
        assert np.isclose(out[rows, 0].mean(), x[rows, 0].mean())


def test_a_method_the_policy_does_not_allow_is_refused(frame):
    methods.register(BlockMeans())
    try:
        with pytest.raises(DisclosureError, match="not allowed by the policy"):
            safeplot.scatterplot(data=frame, x="x", y="y", method=BlockMeans.name)
    finally:
        methods._base._REGISTRY.pop(BlockMeans.name)
        safeplot.policy._known_methods.pop(BlockMeans.name)
    assert not plt.get_fignums()


# -- method objects --------------------------------------------------------------------


def test_a_method_object_is_the_name_with_its_parameters(frame):
    by_name = safeplot.scatterplot(
        data=frame, x="x", y="y", method="microaggregation", k=5, algorithm="mdav"
    )
    plt.figure()
    by_object = safeplot.scatterplot(
        data=frame, x="x", y="y", method=Microaggregation(k=5, algorithm="mdav")
    )
    a = np.vstack([c.get_offsets() for c in by_name.collections])
    b = np.vstack([c.get_offsets() for c in by_object.collections])
    np.testing.assert_array_equal(a, b)
    assert by_object.safeplot_report.params["k"] == 5
    assert by_object.safeplot_report.params["algorithm"] == "mdav"
    plt.close("all")


def test_a_method_object_below_the_floor_is_refused(frame):
    with pytest.raises(DisclosureError, match="k_min"):
        safeplot.histplot(data=frame, x="x", method=methods.Deterministic(k=2))
    assert not plt.get_fignums()


def test_a_parameter_given_twice_with_different_values_is_an_error(frame):
    with pytest.raises(ValueError, match="disagree"):
        safeplot.scatterplot(data=frame, x="x", y="y", method=methods.Deterministic(k=5), k=4)


def test_a_method_object_with_a_parameter_the_plot_lacks_is_an_error():
    tips = pd.DataFrame({"day": list("abcd") * 10})
    with pytest.raises(ValueError, match="does not take factor="):
        safeplot.barplot(data=tips, x="day", method=methods.Generalize(factor=2))


def test_method_objects_compare_and_print_by_their_parameters():
    assert Microaggregation(k=5) == Microaggregation(k=5) != Microaggregation(k=6)
    assert repr(Microaggregation(k=5)) == "Microaggregation(k=5)"
    assert Microaggregation(k=5).set_params(k=7).get_params() == {"k": 7}
    with pytest.raises(TypeError, match="unknown parameter"):
        Microaggregation(q=0.5)


def test_a_new_method_draws_pair_and_joint_grids(block_means, frame):
    raw = {"x": frame["x"].to_numpy(), "y": frame["y"].to_numpy()}
    grid = safeplot.pairplot(frame[["x", "y"]], method=block_means)
    reported = [a.safeplot_report.method for a in grid.axes.flat if hasattr(a, "safeplot_report")]
    assert reported and set(reported) == {block_means}
    assert not scan_figure(grid.figure, raw, per_axes=pair_axes_variables(grid, frame))
    plt.close("all")
    joint = safeplot.jointplot(data=frame, x="x", y="y", method=block_means)
    assert joint.ax_joint.safeplot_report.method == block_means
    assert not scan_figure(joint.figure, raw, per_axes=pair_axes_variables(joint, frame))
    plt.close("all")
