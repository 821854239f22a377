"""How safeplot plugs into the tools analysts already use.

- :mod:`safeplot.integrations.seaborn_compat`: ``import safeplot as sns``
  for whole scripts (seaborn's helpers pass through; plotting functions are
  safe versions or raise :class:`~safeplot.errors.UnsafePlotError`);
- :mod:`safeplot.integrations.pandas_backend`:
  ``pd.options.plotting.backend = "safeplot"``;
- :mod:`safeplot.integrations.projection`: ``projection="safe"`` Axes;
- :mod:`safeplot.integrations.provenance`: the method and parameters in the
  metadata of every saved figure.

Where the records come from (a dask DataFrame counted out of core) is
:mod:`safeplot.sources`, below the plots.
"""
