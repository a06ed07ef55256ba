"""The puzzle contract: what every solo puzzle says, so that one judge runner (`referee/judging.py`),
one solver command shape (`bots/puzzle_solver.py`) and one contract test
(`tests/contracts/test_puzzle_contract.py`) serve them all.

A puzzle is a folder `referee/NAME/` whose `puzzle.py` holds `PUZZLE`, an instance of a `Puzzle`
subclass: every such folder is a puzzle (`NAMES`, found, not listed), in this tree or in a `referee`
folder of your own on PYTHONPATH. Its solver is `bots/NAME/solver.py`, whose `solve(instance)` the
one solver command runs. A puzzle says:

- text: an instance (a puzzle, challenge, objective or card) and an answer, parsed and formatted;
  malformed text raises InputFormatError saying what is wrong and where (its `where`, or the
  position at the head of the message);
- rules: the start, the legal steps from a state, applying one (IllegalStep saying why otherwise:
  it and the other words every judge shares, `NONE` and OracleError, are in referee/answers.py),
  and whether a state is solved;
- documentation that the contract test checks: examples, and malformed text with its position;
- how its answers are judged: its `judge`.

Its `judge` is a `Judge` (referee/judge.py) that it declares: `Judge()`, the default (an answer is a
line of steps, right when it replays to a solved state in as few steps as the oracle's), or its own
subclass in `referee/NAME/judge.py`, overriding what differs. The judge runner (`referee/judging.py`)
and the tests call the judge itself, not the puzzle on its behalf.

Referee keeps rules and judging; searches live in `bots/`. So the oracle is not a search in this
package but a reference solver run as a process, like the solver being judged: by default the
project's own (`python -m bots.NAME.solver`, see `default_oracle`), or any command given with
`judge --oracle`. The judge trusts it only for what only a search can say: the optimum's length,
the full list of solutions, that an instance has none. Everything else it checks with the rules:
an oracle answer that breaks them is the oracle's error (OracleError), and so is a judged answer
that replays correctly and is shorter than the oracle's, or solves an instance the oracle said had
no solution; neither is ever held against the solver judged.

"No solution" is an answer, `NONE` (IQ-Twist, which lists every solution, answers none with no
line before the empty line that closes an answer), printed only when a search has proved it.
"""

from __future__ import annotations

import importlib
import shlex
import sys
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any, TextIO

import referee
from referee.answers import NONE
from referee.judge import Judge
from referee.platform.errors import InputFormatError, UserError


BOM = "\ufeff"  # the byte order mark


class Puzzle(ABC):
    """One solo puzzle's text, rules and judge (see the module's docstring)."""

    name: str  # as in `referee NAME ...`
    title: str  # one line for `referee --help`
    item: str  # what one instance is called: puzzle, challenge, objective, card
    file_help: str  # what a file of instances holds, for `judge FILE`
    default_ms: float  # the judge's time for one answer
    time_help: str = ""  # what that time includes, when more than the answer
    one_solver_each: bool = False  # the judge starts a fresh solver for every instance
    instance_lines: int = 1  # the lines of one instance, as a solver reads it
    no_solution_answer: str = NONE  # the answer's text that says an instance has no solution
    # Documentation that the contract test checks: instances as written (one with no solution where
    # the puzzle has one), and malformed instances with the position their error must name.
    examples: tuple[str, ...]
    malformed: tuple[tuple[str, str], ...]
    judge: Judge  # how its answers are judged: Judge(), the fewest steps, or its own (referee/NAME/judge.py)

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
            line = line.lstrip(BOM)  # (a file from a Windows editor begins with one: no part of a puzzle)
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

    def solutions(self, instance, answer: list) -> list[list]:
        """The step sequences an answer stands for, each to replay from `start`: the answer itself
        for a line of steps (IQ-Twist's answer, every solution, stands for one each). The contract
        test replays them with `apply`."""
        return [answer]


def default_oracle(name: str) -> str:
    """The command of puzzle NAME's default oracle: the project's own solver, run with this Python
    (a command line, not an import: referee depends on no bot)."""
    return shlex.join([sys.executable, "-m", f"bots.{name}.solver"])


def _found() -> tuple[str, ...]:
    """Every puzzle: each folder `NAME` with a `puzzle.py` in a folder the `referee` package spans
    (this tree's, and any other `referee` folder on the path: `referee/__init__.py`)."""
    return tuple(sorted({path.parent.name for root in referee.__path__ for path in Path(root).glob("*/puzzle.py")}))


NAMES = _found()


class PuzzleFolderError(UserError):
    """A puzzle folder of the user's own (not this tree's) that cannot be used: its puzzle.py does
    not import, or holds no `PUZZLE`. Only that puzzle is refused; the other commands work."""


def folder(name: str) -> Path:
    """The folder of puzzle NAME that `import referee.NAME` finds (the first on `referee`'s path)."""
    return next(Path(root) / name for root in referee.__path__ if (Path(root) / name / "puzzle.py").is_file())


def load(name: str) -> Puzzle:
    """The puzzle NAME (one of NAMES). PuzzleFolderError, saying what is wrong, for a folder of the
    user's own whose puzzle.py fails to import or holds no Puzzle `PUZZLE`; in this tree's own
    folders that is a bug of ours, raised as it is (a traceback)."""
    if name not in NAMES:
        raise KeyError(f"no puzzle {name!r}: the puzzles are {', '.join(NAMES)}")
    where = folder(name)
    ours = where.resolve().parent == Path(__file__).resolve().parent
    try:
        found = getattr(importlib.import_module(f"referee.{name}.puzzle"), "PUZZLE", None)
    except Exception as exc:
        if ours:
            raise
        raise PuzzleFolderError(f"the puzzle folder {where} cannot be used: {_import_failure(exc)}") from None
    if not isinstance(found, Puzzle):
        if ours:
            raise TypeError(f"referee.{name}.puzzle.PUZZLE is {found!r}, not a Puzzle")
        raise PuzzleFolderError(
            f"the puzzle folder {where} cannot be used: its puzzle.py holds no PUZZLE, a referee.puzzle.Puzzle"
        )
    return found


def _import_failure(error: Exception) -> str:
    """What went wrong importing a puzzle.py, in one line: where, for a syntax error."""
    if isinstance(error, SyntaxError):
        return f"{Path(error.filename or 'puzzle.py').name}, line {error.lineno}: {error.msg}"
    return f"importing its puzzle.py raised {type(error).__name__}: {error}"
