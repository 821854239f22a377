"""
Data that do not fit in memory: a dask DataFrame
================================================

:func:`safeplot.histplot`, :func:`safeplot.heatmap` (the density grid of two
variables), :func:`safeplot.countplot` and :func:`safeplot.kdeplot` accept a
:class:`dask.dataframe.DataFrame` (install ``safeplot[dask]``). dask reads
the data partition by partition and computes only what the release needs:
the number of records and the extremes, the rare values a bin edge could
land on, and the counts per bin, grid cell or category. Small counts
are then suppressed exactly as for a pandas DataFrame: the figure is the
same, number for number.

Here a simulated cohort of 5,000 records, split into four partitions,
stands in for a parquet data set on disk (``dd.read_parquet(path)`` is used
the same way). The binned methods, ``"suppress"`` and ``"generalize"``, are
the ones that reduce to counts; the value methods need every record in
memory and are refused with a message saying so.
"""

import dask.dataframe as dd
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

import safeplot

cohort = safeplot.datasets.simulate("D1", n=5_000, seed=1)
cohort["group"] = pd.cut(cohort["x"], [-np.inf, 9.5, 10.5, np.inf], labels=["low", "mid", "high"])
data = dd.from_pandas(cohort, npartitions=4)
print(data)

# %%
# The four binned plots
# ---------------------
#
# Each call makes a few passes over the partitions (the extremes, the rare
# values near the grid, the counts) and draws the released numbers.

fig, axes = plt.subplots(1, 4, figsize=(17, 3.6), layout="constrained")
safeplot.histplot(data, x="x", hue="group", ax=axes[0])
safeplot.heatmap(data, x="x", y="y", method="generalize", ax=axes[1])
safeplot.countplot(data, x="group", ax=axes[2])
safeplot.kdeplot(data, x="y", hue="group", method="suppress", ax=axes[3])
for ax, title in zip(
    axes, ["histplot", "heatmap (generalize)", "countplot", "kdeplot"], strict=True
):
    ax.set_title(title)

# %%
# The same release as pandas
# --------------------------
#
# The dask path feeds the aggregates to the release code of the pandas path,
# so the reports (and every drawn number) are equal.

pandas_ax = safeplot.histplot(cohort, x="x", hue="group", ax=plt.figure().gca())
print(pandas_ax.safeplot_report.to_dict() == axes[0].safeplot_report.to_dict())
plt.close(pandas_ax.figure)

# %%
# What is refused
# ---------------
#
# kNN centroids and keyed noise move each record using the others: they need
# every record in memory. Plot a binned method, or a sample.

try:
    safeplot.histplot(data, x="x", method="deterministic")
except ValueError as err:
    print(err)
