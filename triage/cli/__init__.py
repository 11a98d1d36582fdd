"""The ``triage`` command line: :mod:`.app` (the app and ``main``), :mod:`.common` (shared options
and helpers), one module per command group (:mod:`.analyze`, :mod:`.rules`, :mod:`.corpus`,
:mod:`.collect`), and the console, progress bar and ``.triage.yaml`` it uses."""
