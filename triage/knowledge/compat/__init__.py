"""Environment facts and version-compatibility reasoning (``compat/``)."""

from .load import Knowledge, builtin_compat_dir, load_compat

__all__ = ["Knowledge", "builtin_compat_dir", "load_compat"]
