"""Judge a Vikings solver: give it each objective, replay its answer move by move, compare its length
with the optimum found by the referee's own search.

Protocol: one solver process answers all the objectives in turn. The judge writes an objective
(`BOARD TARGET` and a newline) and reads one line: the tiles to turn, one digit a quarter-turn
(`8547776`; an empty line is no move), or `NONE` when the objective cannot be met. A solver that
times out or crashes is stopped and a fresh one is started for the next objective. The time of an
objective runs from writing its line to reading the answer, so the first includes the start-up.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass

from referee.errors import InputFormatError
from referee.process import BotError, BotProcess
from referee.vikings import rules
from referee.vikings.search import shortest_solution

NONE = "NONE"


@dataclass
class Verdict:
    puzzle: int  # 1-based index in the file
    objective: str
    solved: bool  # a legal answer meeting the objective, or NONE when there is no solution
    optimal: bool  # solved, and no longer than the optimum
    error: str | None  # the first thing wrong: the move and why, a wrong NONE, a timeout...
    answer: str | None  # what the solver printed (None when it failed to answer)
    length: int | None  # moves in the answer (None for NONE, no answer or not a move string)
    optimum: int | None  # the fewest moves (None when the objective cannot be met)
    time_ms: float | None

    def to_dict(self) -> dict:
        return asdict(self)


def check_answer(objective: rules.Objective, answer: str, optimum: str | None) -> tuple[bool, int | None, str | None]:
    """(solved, length, error) for one answer line, given a shortest solution (None when there is
    none). `length` counts the moves of a move string, legal or not; None for NONE or garbage."""
    answer = answer.strip()
    if answer == NONE:
        if optimum is None:
            return True, None, None
        return False, None, f"answered NONE, but a solution of {len(optimum)} moves exists"
    try:
        moves = rules.parse_moves(answer)
    except InputFormatError as exc:
        return False, None, f"not a move string: {exc}"
    board, error = rules.replay(objective, moves)
    if error:
        return False, len(moves), error
    if not rules.is_solved(board, objective.targets):
        missing = " ".join(f"{c}{rules.EDGES[e]}" for c, e in objective.targets if dict(board.boats)[c] != e)
        return False, len(moves), f"after {len(moves)} moves ({board}) boats are not on target: {missing}"
    return True, len(moves), None


def _verdict(number: int, line: str, objective: rules.Objective, answer: str, optimum: str | None,
             seconds: float) -> Verdict:
    solved, length, error = check_answer(objective, answer, optimum)
    best = None if optimum is None else len(optimum)
    optimal = solved and length == best
    return Verdict(number, line, solved, optimal, error, answer, length, best, round(1000 * seconds, 3))


def judge(lines: list[str], command: str, time_ms: float = 10_000) -> Iterator[Verdict]:
    """Yield a verdict per objective line (InputFormatError for one that is malformed or invalid).
    BotStartError when the command cannot start."""
    bot = None
    try:
        for number, line in enumerate(lines, start=1):
            objective = rules.parse_objective(line)
            optimum = shortest_solution(objective)
            if bot is None:
                bot = BotProcess(command)
            try:
                answer, seconds = bot.ask([line], time_ms / 1000)
            except BotError as exc:
                stderr = bot.take_stderr().strip().splitlines()
                bot.close()
                bot = None
                error = f"{exc.reason}: {exc}" + (f" (last stderr line: {stderr[-1]})" if stderr else "")
                best = None if optimum is None else len(optimum)
                yield Verdict(number, line, False, False, error, None, None, best, None)
                continue
            yield _verdict(number, line, objective, answer, optimum, seconds)
    finally:
        if bot is not None:
            bot.close()
