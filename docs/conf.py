"""Sphinx configuration for the safeplot documentation (builds offline)."""

import safeplot

project = "safeplot"
author = "safeplot developers"
copyright = "2026, safeplot developers"
release = safeplot.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
]
autosummary_generate = True
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
exclude_patterns = ["_build"]
html_theme = "alabaster"
html_theme_options = {
    "description": "Plots of sensitive data, released safely",
    "fixed_sidebar": True,
}
html_static_path = []
templates_path = []
nitpicky = False
