"""Disclosure-control numerics: numbers in, numbers out (no plotting here)."""
