"""The puzzle contract: what every solo puzzle provides, so that one judge runner
(`referee/judging.py`), one solver command shape (`bots/solving.py`) and one contract test
(`tests/contracts/test_puzzles.py`) serve them all.

A puzzle is a `Puzzle` subclass in `referee/NAME/puzzle.py`, its instance named `PUZZLE`, and NAME
is listed in `NAMES`. Its four parts:

- text: an instance (a puzzle, challenge, objective or card) and an answer, parsed and formatted;
  malformed text raises InputFormatError saying what is wrong and where (its `where`, or the
  position at the head of the message);
- rules: the start, the legal steps from a state, applying one (IllegalStep saying why otherwise),
  and whether a state is solved;
- the oracle: what a right answer must match (the optimum, every solution, or that there is none);
- verdicts: the check of one answer, or of a solver that failed, and their report lines.

Why the oracles (the exact searches in `referee/NAME/search.py`) stay in referee, beside the
rules, when solvers live in `bots/`: a verdict says "optimal", "all the solutions" or "NONE is
right", and each of these is defined by an exhaustive search, so that search is part of the
puzzle's definition as its rules are. Were it imported from `bots/`, the thing judged would hold
its own yardstick and referee would depend on bots. So a judge runs its oracle in-process, while
any solver, the project's own included, is judged only through its answers; the project's solvers
(`bots/NAME/solver.py`) happen to search with the oracle, and a solver with a different search
belongs in `bots/NAME/`.

"No solution" is an answer, `NONE` (IQ-Twist, which lists every solution, answers none with no
line before the empty line that closes an answer), printed only when a search has proved it.
"""
from __future__ import annotations

import dataclasses
import importlib
from abc import ABC, abstractmethod
from typing import Any, TextIO

from referee.errors import InputFormatError
from referee.process import BotError, BotProcess

NAMES = ("coroutine", "iqtwist", "vikings", "stormyseas")
NONE = "NONE"  # the answer that claims (and must be proved) that an instance has no solution


class IllegalStep(ValueError):
    """A step the rules forbid; the message says why."""


class Puzzle(ABC):
    """One solo puzzle's text, rules, oracle and verdicts (see the module's docstring)."""

    name: str  # as in `referee NAME ...`
    title: str  # one line for `referee --help`
    item: str  # what one instance is called: puzzle, challenge, objective, card
    file_help: str  # what a file of instances holds, for `judge FILE`
    default_ms: float  # the judge's time for one answer
    time_help: str = ""  # what that time includes, when more than the answer
    one_solver_each: bool = False  # the judge starts a fresh solver for every instance
    instance_lines: int = 1  # the lines of one instance, as a solver reads it
    # Documentation that the contract test checks: instances as written (one with no solution where
    # the puzzle has one), and malformed instances with the position their error must name.
    examples: tuple[str, ...]
    malformed: tuple[tuple[str, str], ...]

    # --- text -----------------------------------------------------------------------------------

    @abstractmethod
    def parse_instance(self, text: str, where: str | None = None) -> Any:
        """One instance; InputFormatError saying what is wrong and where (`where` prefixes it)."""

    @abstractmethod
    def format_instance(self, instance) -> str:
        """The instance's text, as a solver reads it (lines without the last newline)."""

    def parse_instances(self, text: str, source: str) -> list:
        """Every instance of a file: one a line, blank lines and `#` comments skipped."""
        found = []
        for number, line in enumerate(text.splitlines(), start=1):
            line = line.strip()
            if line and not line.startswith("#"):
                found.append(self.parse_instance(line, f"{source}, line {number}"))
        if not found:
            raise InputFormatError(f"no {self.item} in the file", source)
        return found

    def read_instance(self, stream: TextIO) -> str | None:
        """The next instance's text from a solver's input (its next `instance_lines` non-blank
        lines), None at its end; never reads past the instance (a judge keeps the input open)."""
        lines: list[str] = []
        while len(lines) < self.instance_lines and (line := stream.readline()):
            if line.strip():
                lines.append(line.rstrip("\r\n"))
        return "\n".join(lines).strip() or None

    @abstractmethod
    def parse_answer(self, instance, text: str) -> list:
        """An answer (a list of steps, or of solutions) from its text; InputFormatError saying where."""

    @abstractmethod
    def format_answer(self, answer: list) -> str:
        """The answer's text, as a solver prints it."""

    # --- rules ----------------------------------------------------------------------------------

    @abstractmethod
    def start(self, instance):
        """The state an instance starts in."""

    @abstractmethod
    def legal_steps(self, instance, state) -> list:
        """Every step the rules allow from `state`."""

    @abstractmethod
    def apply(self, instance, state, step):
        """The state after `step`; IllegalStep saying why when the rules forbid it."""

    @abstractmethod
    def is_solved(self, instance, state) -> bool:
        """Whether `state` solves the instance."""

    @abstractmethod
    def solutions(self, instance, answer: list) -> list[list]:
        """The step sequences an answer stands for, each to replay from `start` (one for a line of
        steps; one per solution for IQ-Twist). The contract test replays them with `apply`."""

    # --- the oracle and the verdicts ---------------------------------------------------------------

    def judge_options(self, args) -> dict:
        """Options of `judge` beyond the common ones, from its parsed arguments."""
        return {}

    def add_judge_options(self, parser) -> None:  # noqa: B027 (most puzzles have none)
        """Add options of `judge` beyond the common ones."""

    @abstractmethod
    def oracle(self, instance, **options):
        """What a right answer must match, by the referee's own exact search."""

    @abstractmethod
    def verdict(self, number: int, instance, expected, answer: str, seconds: float | None, **options):
        """The verdict on one answer's text; its `error` is None when the answer is right."""

    @abstractmethod
    def failed(self, number: int, instance, expected, failure: str, read: list[str], **options):
        """The verdict on a solver that gave no (whole) answer: `failure` says why, `read` holds the
        lines it did print."""

    def failure(self, error: BotError, stderr: str, read: list[str]) -> str:
        """Why a solver gave no answer, from its error, its stderr and the lines it did print."""
        return f"solver {error.reason}: {error}" + last_stderr_line(stderr, "stderr: ")

    def read_answer(self, bot: BotProcess, instance, timeout: float, read: list[str]) -> tuple[str, float]:
        """Send one instance and read its answer: (the answer's text, the seconds it took). One line,
        by default; lines read are also appended to `read` (for the failure message)."""
        line, seconds = bot.ask(self.format_instance(instance).splitlines(), timeout)
        read.append(line)
        return line, seconds

    @abstractmethod
    def describe(self, verdict) -> str:
        """A verdict's report line."""

    @abstractmethod
    def summary(self, verdicts: list) -> str:
        """The lines after every verdict."""

    @staticmethod
    def as_dict(verdict) -> dict:
        """A verdict (a dataclass) as one JSON object of `judge --json`."""
        return dataclasses.asdict(verdict)


def last_stderr_line(stderr: str, label: str = "last stderr line: ") -> str:
    """` (LABEL the last line)` of a failed solver's stderr (200 characters at most), or ""."""
    lines = stderr.strip().splitlines()
    return f" ({label}{lines[-1][:200]})" if lines else ""


def load(name: str) -> Puzzle:
    """The puzzle NAME (one of NAMES)."""
    if name not in NAMES:
        raise KeyError(f"no puzzle {name!r}: the puzzles are {', '.join(NAMES)}")
    return importlib.import_module(f"referee.{name}.puzzle").PUZZLE
