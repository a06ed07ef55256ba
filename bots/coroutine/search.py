"""The optimal answer to a Coroutine puzzle, by breadth-first search over its states.

Optimal means fewest turns (forced passes count), then fewest steps. The state space (two squares
and the mover) holds at most 162 states, so the search is plain Python and exhaustive: None means
every reachable state was explored and none is solved.
"""

from __future__ import annotations

from referee.coroutine.rules import START, Board, State, Turn, is_solved, successors


def solve(board: Board) -> list[Turn] | None:
    """An optimal answer for `board`, or None when no answer exists."""
    # Layer by layer in turns; each state keeps the fewest steps it can be reached with in its first
    # layer, and the turn that got it there. An optimal line's every prefix is optimal, so this is exact.
    came_from: dict[State, tuple[int, State | None, Turn | None]] = {START: (0, None, None)}
    layer = [START]
    while layer:
        goals = [state for state in layer if is_solved(state)]
        if goals:
            return _line_to(min(goals, key=lambda s: came_from[s][0]), came_from)
        reached: dict[State, tuple[int, State, Turn]] = {}
        for state in layer:
            steps = came_from[state][0]
            for turn, nxt in successors(board, state):
                if nxt in came_from:
                    continue
                cost = steps + (turn.direction is not None)
                if nxt not in reached or cost < reached[nxt][0]:
                    reached[nxt] = (cost, state, turn)
        came_from.update(reached)
        layer = list(reached)
    return None


def _line_to(goal: State, came_from) -> list[Turn]:
    turns = []
    state = goal
    while came_from[state][1] is not None:
        _, state, turn = came_from[state]
        turns.append(turn)
    return turns[::-1]


def optimum(board: Board) -> tuple[int, int] | None:
    """(turns, steps) of an optimal answer, or None when there is none."""
    line = solve(board)
    if line is None:
        return None
    return len(line), sum(turn.direction is not None for turn in line)
