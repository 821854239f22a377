"""Sphinx configuration for the safeplot documentation (builds offline)."""

import os
import sys

import safeplot

# docs/ holds _gallery_reset, which sphinx-gallery imports by name
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

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
    "sphinx_gallery.gen_gallery",
    # notebooks (docs/notebooks/*.ipynb), executed with nbclient at every build
    "myst_nb",
]
nb_execution_mode = "force"
nb_execution_raise_on_error = True
nb_execution_timeout = 300
nb_execution_excludepatterns = ["auto_gallery/*"]
sphinx_gallery_conf = {
    "examples_dirs": "../gallery",
    "gallery_dirs": "auto_gallery",
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    "matplotlib_animations": False,
    # every example starts as a fresh session (its own ledger, budget and audit log)
    "reset_modules": ("matplotlib", "seaborn", "_gallery_reset.reset_session"),
    # the examples run two at a time, each in its own worker process
    "parallel": 2,
}
autosummary_generate = True
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
exclude_patterns = ["_build", "auto_gallery/*.ipynb", "auto_gallery/*.py", "auto_gallery/*.zip"]
html_theme = "alabaster"
html_theme_options = {
    "description": "Plots of sensitive data, released safely",
    "fixed_sidebar": True,
}
html_static_path = []
templates_path = []
nitpicky = False
