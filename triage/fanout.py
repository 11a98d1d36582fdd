"""Import path of the Ray fan-out before the packages (docs/bundles.md): see :mod:`triage.run.fanout`."""

from triage.run.fanout import analyze_on_ray  # noqa: F401
