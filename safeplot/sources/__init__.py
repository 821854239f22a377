"""Where the records of a plot come from, below every plot.

A source reads records and hands back what a release is made from, without
drawing anything: a pandas frame is read as it is (see
:mod:`safeplot._validate`), a dask DataFrame is reduced out of core, partition
by partition, to the aggregates a binned release needs
(:class:`~safeplot.sources.dask.DaskColumns`). The plots ask a source for
aggregates; a source imports no plotting code.
"""

from __future__ import annotations

from .dask import DaskColumns, is_dask_collection

__all__ = ["DaskColumns", "is_dask_collection"]
