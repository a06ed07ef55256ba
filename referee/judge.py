"""How a puzzle's answers are judged: the `Judge` every puzzle declares (`Puzzle.judge`), whose
methods the judge runner (referee/judging.py) calls. Its methods are the default judge, for a
puzzle whose answer is a line of steps: an answer is right when it replays under the rules
(`Puzzle.apply`) to a solved state in as few steps as the oracle's answer, replayed the same way; or
`NONE` where the oracle's is. One that solves the instance in more steps is wrong, its error saying
so (`referee.answers.not_optimal`). Fewer steps than the oracle's, or a solution where it said `NONE`,
prove the oracle wrong. A puzzle judged otherwise declares a subclass in its referee/NAME/judge.py
that overrides what differs (every verdict needs only `error`, None when the answer is right, and
`describe()`, its report line).

A judge is told the puzzle it judges (the `puzzle` argument: its rules and texts, referee/puzzle.py)
rather than importing it, so that the contract can hold its judge and imports point one way. Its
own options (`add_options`, `with_options`) are its fields: the judge runner asks the puzzle's judge
for one configured by the command line.
"""

from __future__ import annotations

import argparse
import dataclasses
from dataclasses import dataclass

from referee.answers import NONE, IllegalStep, OracleError, last_stderr_line, not_optimal
from referee.platform.errors import InputFormatError, counted, shorten
from referee.platform.bot_errors import BotError
from referee.platform.process import BotProcess


@dataclass
class Verdict:
    """The default judge's verdict on one answer."""

    puzzle: int  # 1-based index in the file
    solved: bool  # a legal answer that solves the instance, or NONE where it has no solution
    optimal: bool  # solved, in the fewest steps
    error: str | None  # why the answer is wrong (the step and why, or not optimal), or why the solver failed
    steps: int | None  # the answer's, when it solves the instance
    optimum: int | None  # the fewest steps (None: the instance has no solution)
    time_ms: float | None

    def describe(self) -> str:
        best = "no solution" if self.optimum is None else f"optimum {counted(self.optimum, 'step')}"
        took = f" in {self.time_ms:.1f} ms" if self.time_ms is not None else ""
        if not self.solved:
            return f"{self.puzzle}: FAILED ({best}{took}): {self.error}"
        answered = "NONE" if self.steps is None else counted(self.steps, "step")
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
        return None, f"not solved after {counted(len(steps), 'step')}"
    return len(steps), None


class Judge:
    """The default judge (see the module's docstring); each method says what a judge answers."""

    # --- the judge's own options on the command line ------------------------------------------

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        """Add options of `judge` beyond the common ones (the default judge has none)."""

    def with_options(self, args: argparse.Namespace) -> Judge:
        """This judge with those options' values from `judge`'s parsed arguments."""
        return self

    # --- the oracle ----------------------------------------------------------------------------

    def oracle_runs(self) -> tuple[tuple[str, ...], ...]:
        """The arguments added to the oracle's command, one tuple a run: the default oracle answers
        each instance once."""
        return ((),)

    def needs_oracle(self, answer: str | None) -> bool:
        """Whether judging `answer` (None: the solver gave none) needs the oracle's expectation."""
        return True

    def expectation(self, puzzle, instance, answers: list[str]) -> int | None:
        """What a right answer must match, from the oracle's answers (one a run), each checked with
        the rules first; OracleError saying what is wrong with one that breaks them. By default the
        fewest steps (None: no solution), the oracle's answer replayed."""
        if answers[0].strip() == NONE:
            return None
        steps, error = replay(puzzle, instance, answers[0])
        if error:
            raise OracleError(f"its answer {shorten(answers[0].strip())}: {error}")
        return steps

    # --- a solver's answer ---------------------------------------------------------------------

    def read_answer(self, puzzle, bot: BotProcess, instance, timeout: float, read: list[str]) -> tuple[str, float]:
        """Send one instance and read its answer: (its text, the seconds it took); the lines read
        are appended to `read` too (for a failure's message). By default one line."""
        line, seconds = bot.ask(puzzle.format_instance(instance).splitlines(), timeout)
        read.append(line)
        return line, seconds

    def failure(self, error: BotError, stderr: str, read: list[str]) -> str:
        """Why a solver gave no answer, from its error, its stderr and the lines it did print."""
        return f"solver {error.reason}: {error}" + last_stderr_line(stderr)

    # --- verdicts ------------------------------------------------------------------------------

    def verdict(self, puzzle, number: int, instance, expected, answer: str, seconds: float | None):
        """The verdict on one answer's text; its `error` is None when the answer is right. `expected`
        is None when the oracle was not needed (`needs_oracle`). OracleError when the answer proves
        the expectation wrong: by default, it solves the instance in fewer steps than the oracle's,
        or where the oracle said there is no solution."""
        time_ms = None if seconds is None else round(1000 * seconds, 3)
        if answer.strip() == NONE:
            wrong = None if expected is None else f"answered NONE, but a solution of {counted(expected, 'step')} exists"
            return Verdict(number, wrong is None, wrong is None, wrong, None, expected, time_ms)
        steps, error = replay(puzzle, instance, answer)
        if steps is not None and (expected is None or steps < expected):
            oracle = "answered NONE" if expected is None else f"answered {counted(expected, 'step')}"
            raise OracleError(f"the solver's answer solves it in {counted(steps, 'step')}; the oracle {oracle}")
        if steps is not None and steps > expected:
            error = not_optimal(counted(steps, "step"), counted(expected, "step"))
        return Verdict(number, steps is not None, steps == expected, error, steps, expected, time_ms)

    def failed(self, puzzle, number: int, instance, expected, failure: str, read: list[str]):
        """The verdict on a solver that gave no (whole) answer: `failure` says why, `read` holds the
        lines it did print."""
        return Verdict(number, False, False, failure, None, expected, None)

    def describe(self, verdict) -> str:
        """A verdict's report line."""
        return verdict.describe()

    def as_dict(self, verdict) -> dict:
        """A verdict (a dataclass) as one JSON object of `judge --json`."""
        return dataclasses.asdict(verdict)

    def summary(self, verdicts: list) -> str:
        """The lines after every verdict."""
        solved = sum(v.solved for v in verdicts)
        optimal = sum(v.optimal for v in verdicts)
        return f"solved {solved} of {len(verdicts)}, {optimal} optimal"
