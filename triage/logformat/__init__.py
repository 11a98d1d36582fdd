"""The formats of log lines, in code: the prefixes that the normalizer strips (vLLM, Ray, docker,
torchrun, plog headers), the parts of a CANN error-code line (:mod:`.codeline`), the origin a line
states (node, rank, pid: :mod:`.origin`), its timestamp (:mod:`.times`), and the shapes of error lines
that the detectors confirm (:mod:`.detectors`). Messages, codes and causes live in ``rules/`` and
``compat/``, not here."""
