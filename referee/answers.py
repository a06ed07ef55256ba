"""The words that the puzzle contract (referee/puzzle.py), the judges (referee/judge.py and each
puzzle's referee/NAME/judge.py) and the judge runner (referee/judging.py) share about answers. They
live below all of them, so that a puzzle's rules and its judge each import them without importing
the other: the contract holds its judge, and a judge is given the puzzle it judges, never imports it.
"""

from __future__ import annotations

NONE = "NONE"  # the answer that claims (and must be proved) that an instance has no solution


NOT_OPTIMAL = "not optimal"  # how a wrong answer that solves its instance, only not in the fewest steps, begins


def not_optimal(answered: str, optimum: str) -> str:
    """The error of an answer that solves its instance, only not optimally (`answered` its figures,
    `optimum` the oracle's): every judge says it so, and the judge runner counts such answers by it."""
    return f"{NOT_OPTIMAL}: {answered}; the optimum is {optimum}"


def is_not_optimal(error: str | None) -> bool:
    """Whether a verdict's error says its answer solves the instance, only not optimally."""
    return error is not None and error.startswith(f"{NOT_OPTIMAL}:")


class IllegalStep(ValueError):
    """A step the rules forbid; the message says why."""


class OracleError(Exception):
    """The oracle failed, broke the rules, or was proved wrong by an answer it is judged against:
    not the judged solver's fault, so the judge stops with this one line (exit status 2)."""


def last_stderr_line(stderr: str) -> str:
    """` (last stderr line: ...)` of a failed solver's stderr (200 characters at most), or "": how
    every judge says it, of the judged solver and of the oracle."""
    lines = stderr.strip().splitlines()
    return f" (last stderr line: {lines[-1][:200]})" if lines else ""
