"""Errors triage reports to users, each mapped to a documented exit code."""

from __future__ import annotations

from dataclasses import dataclass

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_INPUT = 2
EXIT_RULES = 3
#: reading files or directories was stopped by Ctrl-C (SIGINT) or SIGTERM: 128 + the signal's number
EXIT_SIGINT = 130
EXIT_SIGTERM = 143


class TriageError(Exception):
    """Base class of the errors the CLI turns into a one-line message and an exit code."""

    exit_code = EXIT_INPUT


class InputError(TriageError):
    """A log could not be read (missing file, unreadable archive...). Exit code 2."""

    exit_code = EXIT_INPUT


class UsageError(TriageError):
    """A command-line option with a value that cannot be used (an unknown rule id...). Exit code 2."""

    exit_code = EXIT_INPUT


@dataclass(frozen=True)
class RuleProblem:
    """One problem in a rule file: where it is (file, 1-based line, field) and what is wrong."""

    file: str
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.field}: {self.message}" if self.field else f"{where}: {self.message}"


class RulesInvalid(TriageError):
    """The rules could not be loaded; ``problems`` lists every problem found. Exit code 3."""

    exit_code = EXIT_RULES

    def __init__(self, problems: list[RuleProblem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))
