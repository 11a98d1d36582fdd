"""``python -m triage``: the command line."""

from triage.cli.app import main

main()
