"""The package version, read by the build and by ``safeplot.__version__``."""

__version__ = "0.1.0"
