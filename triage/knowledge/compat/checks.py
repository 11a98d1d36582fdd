"""The fact checks: the registry of reasoners (:data:`TESTS`) with every reasoner registered, the
release checks of :mod:`.releases` and the memory checks of :mod:`.memory`; see :mod:`.verdicts`."""

from __future__ import annotations

from . import memory, releases  # noqa: F401  (register their tests)
from .verdicts import TESTS, FactView, Verdict, soc_family, soc_label, vllm_ascend_release

__all__ = ["TESTS", "FactView", "Verdict", "soc_family", "soc_label", "vllm_ascend_release"]
