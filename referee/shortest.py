"""The default judge: a puzzle without a `judge.py` of its own is judged by this one. An answer is a
line of steps (`Puzzle.parse_answer`), right when it replays under the rules (`Puzzle.apply`) to a
solved state in as few steps as the oracle's answer, replayed the same way; or `NONE` where the
oracle's is. Fewer steps than the oracle's, or a solution where it said `NONE`, prove the oracle
wrong.

Every judge has this module's shape (referee/NAME/judge.py, see referee/puzzle.py): `Verdict` (with
`error`, None when the answer is right, and `describe()`, its report line), `expectation`, `verdict`,
`failed` and `summary`; and, where a puzzle's judge differs from these defaults, `oracle_runs`,
`needs_oracle`, `add_options`, `options`, `read_answer` and `failure`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .platform.errors import InputFormatError, shorten
from .platform.process import BotError, BotProcess
from .puzzle import NONE, IllegalStep, OracleError, last_stderr_line


@dataclass
class Verdict:
    puzzle: int  # 1-based index in the file
    solved: bool  # a legal answer that solves the instance, or NONE where it has no solution
    optimal: bool  # solved, in the fewest steps
    error: str | None  # why the answer is wrong (the step and why), or why the solver failed
    steps: int | None  # the answer's, when it solves the instance
    optimum: int | None  # the fewest steps (None: the instance has no solution)
    time_ms: float | None

    def describe(self) -> str:
        best = "no solution" if self.optimum is None else f"optimum {self.optimum} steps"
        took = f" in {self.time_ms:.1f} ms" if self.time_ms is not None else ""
        if self.error is not None:
            return f"{self.puzzle}: FAILED ({best}{took}): {self.error}"
        answered = "NONE" if self.steps is None else f"{self.steps} steps"
        return f"{self.puzzle}: solved, {answered}, {best}, {'optimal' if self.optimal else 'NOT optimal'}{took}"


def replay(puzzle, instance, answer: str) -> tuple[int | None, str | None]:
    """(the number of steps, None) when `answer` solves `instance` under the rules, else (None, why)."""
    try:
        steps = puzzle.parse_answer(instance, answer.strip())
    except InputFormatError as exc:
        return None, f"not an answer: {exc}"
    state = puzzle.start(instance)
    for number, step in enumerate(steps, start=1):
        if puzzle.is_solved(instance, state):
            return None, f"step {number}: solved already"
        try:
            state = puzzle.apply(instance, state, step)
        except IllegalStep as exc:
            return None, f"step {number}: {exc}"
    if not puzzle.is_solved(instance, state):
        return None, f"not solved after {len(steps)} steps"
    return len(steps), None


def expectation(puzzle, instance, answers: list[str], **options) -> int | None:
    """The fewest steps (None: no solution), the oracle's answer replayed; OracleError when it does
    not solve the instance."""
    if answers[0].strip() == NONE:
        return None
    steps, error = replay(puzzle, instance, answers[0])
    if error:
        raise OracleError(f"its answer {shorten(answers[0].strip())}: {error}")
    return steps


def verdict(puzzle, number: int, instance, expected, answer: str, seconds: float | None, **options) -> Verdict:
    """The verdict on one answer; OracleError when it solves the instance in fewer steps than the
    oracle's, or where the oracle said there is no solution."""
    time_ms = None if seconds is None else round(1000 * seconds, 3)
    if answer.strip() == NONE:
        wrong = None if expected is None else f"answered NONE, but a solution of {expected} steps exists"
        return Verdict(number, wrong is None, wrong is None, wrong, None, expected, time_ms)
    steps, error = replay(puzzle, instance, answer)
    if steps is not None and (expected is None or steps < expected):
        oracle = "answered NONE" if expected is None else f"answered {expected} steps"
        raise OracleError(f"the solver's answer solves it in {steps} steps; the oracle {oracle}")
    return Verdict(number, error is None, steps == expected, error, steps, expected, time_ms)


def failed(puzzle, number: int, instance, expected, failure: str, read: list[str], **options) -> Verdict:
    """The verdict on a solver that gave no (whole) answer."""
    return Verdict(number, False, False, failure, None, expected, None)


def summary(verdicts: list[Verdict]) -> str:
    solved = sum(v.solved for v in verdicts)
    optimal = sum(v.optimal for v in verdicts)
    return f"solved {solved} of {len(verdicts)}, {optimal} optimal"


def oracle_runs(**options) -> tuple[tuple[str, ...], ...]:
    """The arguments added to the oracle's command, one tuple a run: the oracle answers each
    instance once a run."""
    return ((),)


def needs_oracle(answer: str | None, **options) -> bool:
    """Whether judging `answer` (None: the solver gave none) needs the oracle's expectation."""
    return True


def add_options(parser) -> None:
    """Add options of `judge` beyond the common ones."""


def options(args) -> dict:
    """Those options' values, as keyword arguments of the functions above."""
    return {}


def read_answer(puzzle, bot: BotProcess, instance, timeout: float, read: list[str]) -> tuple[str, float]:
    """Send one instance and read its answer, one line: (its text, the seconds it took); the lines
    read are appended to `read` too (for a failure's message)."""
    line, seconds = bot.ask(puzzle.format_instance(instance).splitlines(), timeout)
    read.append(line)
    return line, seconds


def failure(error: BotError, stderr: str, read: list[str]) -> str:
    """Why a solver gave no answer, from its error, its stderr and the lines it did print."""
    return f"solver {error.reason}: {error}" + last_stderr_line(stderr, "stderr: ")
