"""Judge a Coroutine answer: replay it, compare with the optimum. `CoroutineJudge` is the puzzle's
`Judge` (referee/judge.py; the runner is referee/judging.py).

The optimum is the oracle's answer, replayed here like any other: the judge trusts the oracle only
for being optimal, and an answer with fewer turns (or as many, with fewer steps) proves it wrong.

Protocol: the solver gets the puzzle's 3 lines on stdin and prints one answer line (`A2 B- A2 ...`,
or `NONE` when it finds no answer); stdin stays open, so a solver reads 3 lines, not to end of input.
Each puzzle goes to a fresh solver process, and the time limit includes its start-up.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from referee.answers import NONE, OracleError, last_stderr_line, not_optimal
from referee.coroutine.rules import START, Board, IllegalTurn, is_solved, parse_answer, play
from referee.judge import Judge
from referee.platform.errors import InputFormatError, counted, shorten
from referee.platform.bot_errors import BotTimeout


@dataclass
class Verdict:
    puzzle: int  # 1-based index in the file
    solved: bool  # the answer puts a token on the centre
    optimal: bool  # solved in the optimal turns and steps, or NONE for a puzzle with no answer
    error: str | None  # why the answer is wrong (naming the turn, or not optimal), or why the solver failed
    turns: int | None  # the answer's figures, when it solves the puzzle
    steps: int | None
    passes: int | None
    optimal_turns: int | None  # None: the puzzle has no answer
    optimal_steps: int | None
    time_ms: float | None

    def describe(self) -> str:
        best = (
            f"optimum {_figures(self.optimal_turns, self.optimal_steps)}"
            if self.optimal_turns is not None
            else "no answer exists"
        )
        took = f"; {self.time_ms:.0f} ms" if self.time_ms is not None else ""
        if self.solved:
            verdict = "optimal" if self.optimal else "not optimal"
            return (
                f"puzzle {self.puzzle}: solved in {counted(self.turns, 'turn')} ({counted(self.steps, 'step')}, "
                f"{counted(self.passes, 'pass', 'passes')}); "
                f"{best}: {verdict}{took}"
            )
        if self.optimal:
            return f"puzzle {self.puzzle}: NONE, right: {best}{took}"
        return f"puzzle {self.puzzle}: not solved: {self.error}; {best}{took}"


def _figures(turns: int, steps: int) -> str:
    return f"{counted(turns, 'turn')} ({counted(steps, 'step')})"


def check_answer(board: Board, line: str) -> tuple[str | None, int, int]:
    """Replay an answer line: (error or None, steps, passes). The error names the turn and says why."""
    try:
        turns = parse_answer(line)
    except InputFormatError as exc:
        return str(exc), 0, 0
    state, steps, passes = START, 0, 0
    for index, turn in enumerate(turns, start=1):
        if is_solved(state):
            return f"turn {index}: the puzzle was already solved at turn {index - 1}", steps, passes
        try:
            state = play(board, state, turn)
        except IllegalTurn as exc:
            return f"turn {index}: {exc}", steps, passes
        steps += turn.direction is not None
        passes += turn.direction is None
    if not is_solved(state):
        return f"after {counted(len(turns), 'turn')} no token stands on the centre", steps, passes
    return None, steps, passes


class CoroutineJudge(Judge):
    """Fewest turns, then fewest steps; a solver that times out is told that stdin stays open."""

    def verdict(
        self, puzzle, number: int, board: Board, expected: Verdict, line: str, seconds: float | None
    ) -> Verdict:
        """The verdict on an answer `line` for `board`, `expected` being the board's `expectation`.
        OracleError when the answer proves the expectation wrong."""
        time_ms = None if seconds is None else round(seconds * 1000, 1)
        unsolved = replace(expected, puzzle=number, time_ms=time_ms)
        if line.strip() == NONE:
            if unsolved.optimal_turns is None:
                return replace(unsolved, optimal=True)
            return replace(
                unsolved, error=f"answered NONE, but the puzzle is solved in {counted(unsolved.optimal_turns, 'turn')}"
            )
        error, steps, passes = check_answer(board, line)
        if error:
            return replace(unsolved, error=error)
        turns = steps + passes
        if unsolved.optimal_turns is None:
            raise OracleError(
                f"it answered NONE, but the solver's answer solves the puzzle in {counted(turns, 'turn')}"
            )
        if (turns, steps) < (unsolved.optimal_turns, unsolved.optimal_steps):
            raise OracleError(
                f"the solver's answer solves the puzzle in {_figures(turns, steps)}, "
                f"the oracle's in {_figures(unsolved.optimal_turns, unsolved.optimal_steps)}"
            )
        optimal = (turns, steps) == (unsolved.optimal_turns, unsolved.optimal_steps)
        wrong = (
            None
            if optimal
            else not_optimal(_figures(turns, steps), _figures(unsolved.optimal_turns, unsolved.optimal_steps))
        )
        return replace(unsolved, solved=True, optimal=optimal, error=wrong, turns=turns, steps=steps, passes=passes)

    def expectation(self, puzzle, board: Board, answers: list[str]) -> Verdict:
        """A verdict with the puzzle's optimum, the oracle's answer's, and nothing solved yet.
        OracleError when that answer does not solve the puzzle."""
        oracle_answer = answers[0]
        if oracle_answer.strip() == NONE:
            return Verdict(1, False, False, None, None, None, None, None, None, None)
        error, steps, passes = check_answer(board, oracle_answer)
        if error:
            raise OracleError(f"its answer {shorten(oracle_answer.strip())}: {error}")
        return Verdict(1, False, False, None, None, None, None, steps + passes, steps, None)

    def failed(self, puzzle, number: int, board: Board, expected: Verdict, failure: str, read: list[str]) -> Verdict:
        """The verdict on a solver that gave no answer."""
        return replace(expected, puzzle=number, error=failure)

    def failure(self, error, stderr: str, read: list[str]) -> str:
        """Why a solver gave no answer (a timeout, most likely because it read its input to the end),
        and its stderr's last line."""
        hint = " (the puzzle is 3 lines and stdin stays open)" if isinstance(error, BotTimeout) else ""
        return f"solver {error.reason}: {error}{hint}" + last_stderr_line(stderr)

    def summary(self, verdicts: list[Verdict]) -> str:
        """The line after every verdict."""
        solved = sum(v.solved for v in verdicts)
        optimal = sum(v.optimal for v in verdicts)
        return f"{counted(len(verdicts), 'puzzle')}: {solved} solved, {optimal} answered optimally"
