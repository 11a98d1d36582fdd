"""Import path of the compatibility knowledge before the packages (docs/api.md): see
:mod:`triage.knowledge.compat`."""

from triage.knowledge.compat import Knowledge, builtin_compat_dir, load_compat  # noqa: F401
