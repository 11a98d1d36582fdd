"""The version of triage (also in pyproject.toml)."""

__version__ = "0.1.0"
