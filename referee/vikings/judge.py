"""Judge a Vikings answer: replay it move by move, compare its length with the optimum, the length of
the oracle's answer, replayed the same way. A shorter answer, or a solution where the oracle said
NONE, proves the oracle wrong. `VikingsJudge` is the puzzle's `Judge` (referee/judge.py; the runner
is referee/judging.py).

Protocol: one solver process answers all the objectives in turn. The judge writes an objective
(`BOARD TARGET` and a newline) and reads one line: the tiles to turn, one digit a quarter-turn
(`8547776`; an empty line is no move), or `NONE` when the objective cannot be met. A solver that
times out or crashes is stopped and a fresh one is started for the next objective. The time of an
objective runs from writing its line to reading the answer, so the first includes the start-up.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from referee.answers import NONE, OracleError, last_stderr_line, not_optimal
from referee.judge import Judge
from referee.platform.errors import InputFormatError, counted, shorten
from referee.vikings import rules


@dataclass
class Verdict:
    puzzle: int  # 1-based index in the file
    objective: str
    solved: bool  # a legal answer meeting the objective, or NONE when there is no solution
    optimal: bool  # solved, and no longer than the optimum
    error: str | None  # the first thing wrong: the move and why, a wrong NONE, not optimal, a timeout...
    answer: str | None  # what the solver printed (None when it failed to answer)
    length: int | None  # moves in the answer (None for NONE, no answer or not a move string)
    optimum: int | None  # the fewest moves (None when the objective cannot be met)
    time_ms: float | None

    def describe(self) -> str:
        best = "no solution" if self.optimum is None else f"optimum {self.optimum}"
        timing = f" in {self.time_ms:.1f} ms" if self.time_ms is not None else ""
        head = f"objective {self.puzzle} {self.objective}: "
        if self.solved:
            quality = "optimal" if self.optimal else "NOT optimal"
            return head + f"solved, {self._answered()}, {best}, {quality}{timing}"
        return head + f"FAILED ({self._answered()}, {best}{timing}): {self.error}"

    def _answered(self) -> str:
        if self.answer is None:
            return "no answer"
        if self.answer.strip() == NONE:
            return "NONE"
        return "not a move string" if self.length is None else counted(self.length, "move")


def check_answer(objective: rules.Objective, answer: str, optimum: str | None) -> tuple[bool, int | None, str | None]:
    """(solved, length, error) for one answer line, given a shortest solution (None when there is
    none). `length` counts the moves of a move string, legal or not; None for NONE or garbage."""
    answer = answer.strip()
    if answer == NONE:
        if optimum is None:
            return True, None, None
        return False, None, f"answered NONE, but a solution of {counted(len(optimum), 'move')} exists"
    try:
        moves = rules.parse_moves(answer)
    except InputFormatError as exc:
        return False, None, f"not a move string: {exc}"
    board, error = rules.replay(objective, moves)
    if error:
        return False, len(moves), error
    if not rules.is_solved(board, objective.targets):
        missing = " ".join(f"{c}{rules.EDGES[e]}" for c, e in objective.targets if dict(board.boats)[c] != e)
        return False, len(moves), f"after {counted(len(moves), 'move')} ({board}) boats are not on target: {missing}"
    return True, len(moves), None


class VikingsJudge(Judge):
    """The fewest moves, with the objective and the answer in every verdict."""

    def expectation(self, puzzle, objective: rules.Objective, answers: list[str]) -> str | None:
        """A shortest solution, the oracle's answer checked with the rules (None: it answered NONE).
        OracleError when that answer does not meet the objective."""
        oracle_answer = answers[0]
        if oracle_answer.strip() == NONE:
            return None
        solved, _, error = check_answer(objective, oracle_answer, None)
        if not solved:
            raise OracleError(f"its answer {shorten(oracle_answer.strip())}: {error}")
        return oracle_answer.strip()

    def verdict(
        self, puzzle, number: int, objective: rules.Objective, optimum: str | None, answer: str, seconds: float
    ) -> Verdict:
        """The verdict on one answer line, given a shortest solution (None when there is none).
        OracleError when the answer is a shorter solution, or a solution where there is none."""
        solved, length, error = check_answer(objective, answer, optimum)
        best = None if optimum is None else len(optimum)
        if solved and length is not None and (best is None or length < best):
            oracle = "answered NONE" if best is None else f"answered {counted(best, 'move')}"
            raise OracleError(
                f"the solver's answer meets the objective in {counted(length, 'move')}; the oracle {oracle}"
            )
        optimal = solved and length == best
        if solved and not optimal:
            error = not_optimal(counted(length, "move"), counted(best, "move"))
        return Verdict(number, str(objective), solved, optimal, error, answer, length, best, round(1000 * seconds, 3))

    def failed(
        self, puzzle, number: int, objective: rules.Objective, optimum: str | None, failure: str, read: list[str]
    ) -> Verdict:
        """The verdict on a solver that gave no answer."""
        best = None if optimum is None else len(optimum)
        return Verdict(number, str(objective), False, False, failure, None, None, best, None)

    def failure(self, error, stderr: str, read: list[str]) -> str:
        """Why a solver gave no answer: its error and the last line of its stderr."""
        return f"{error.reason}: {error}" + last_stderr_line(stderr)

    def summary(self, verdicts: list[Verdict]) -> str:
        """The line after every verdict."""
        solved = sum(v.solved for v in verdicts)
        optimal = sum(v.optimal for v in verdicts)
        line = f"solved {solved} of {len(verdicts)}, {optimal} optimal"
        times = [v.time_ms for v in verdicts if v.time_ms is not None]
        if times:
            line += (
                f"; time per objective: median {statistics.median(times):.1f} ms, max {max(times):.1f} ms,"
                f" total {sum(times) / 1000:.2f} s (the first includes the solver's start-up)"
            )
        return line
