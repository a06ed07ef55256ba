"""What CodinGame's lines leave out, for the numba engines: dormancy and the opponent's moves (the
adapter, `bots.volcanoes.bot.Player`, tracks the seat and the turn).

After each of our moves the tracker predicts the next position: the turns in between are a growth,
or an opponent move, a growth and another opponent move; it finds the opponent moves that explain
what the referee sends, and says so when none does.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from referee.volcanoes import rules
from referee.volcanoes.board import N_TILES, NAMES
from referee.volcanoes.constants import CYCLE

from .state import GameState

GROWTH_MOVE = -1


@njit(cache=True)
def _explain(levels, dormant, opponent, target):
    """Find opponent moves a, b such that a, growth, b turns `levels` into `target`; (a, b) or (-1, -1)."""
    moves_a = np.empty(N_TILES, dtype=np.int64)
    moves_b = np.empty(N_TILES, dtype=np.int64)
    n_a = rules.legal_moves(levels, dormant, opponent, moves_a)
    for i in range(n_a):
        la, da = levels.copy(), dormant.copy()
        if rules.play(la, da, opponent, moves_a[i]) != rules.ONGOING:
            continue
        if rules.grow(la, da) != rules.ONGOING:
            continue
        n_b = rules.legal_moves(la, da, opponent, moves_b)
        for j in range(n_b):
            lb, db = la.copy(), da.copy()
            rules.play(lb, db, opponent, moves_b[j])
            if np.array_equal(lb, target):
                return moves_a[i], moves_b[j]
    return -1, -1


def warm_up() -> None:
    levels, dormant = rules.new_state()
    _explain(levels, dormant, rules.ORANGE, levels)


class Tracker:
    """The numba engines' view of one game from one seat (`bots.volcanoes.bot.Bot.view`), turn by
    turn: each position as a `GameState`, with the turns since our last move."""

    def __init__(self):
        self.colour = 0
        self.turn = 0  # the 1-based number of the turn we are asked to play
        self.levels_turn = 0  # the turn after which `levels` was taken
        self.levels: np.ndarray | None = None  # after our last move, blue positive
        self.dormant: np.ndarray | None = None

    def observe(self, levels, turns_played: int, valid_line: str):
        """The state for this turn (`levels` blue positive), and a complaint (or None) when the lines
        are not what the rules predict. The lines are taken as the truth either way."""
        self.turn = turns_played + 1
        self.colour = CYCLE[turns_played % 6]
        levels = np.array(levels, dtype=np.int8)
        dormant = np.abs(levels) == rules.MAX_LEVEL  # a volcano at the top level is dormant
        complaint, last_moves = None, ()
        if self.levels is not None:
            last_moves, complaint = self._explain(levels)
        state = GameState(levels, dormant, turns_played, last_moves)
        expected_valid = " ".join(NAMES[t] for t in state.legal_moves())
        if complaint is None and valid_line.strip() != expected_valid:
            complaint = f"turn {self.turn}: the valid moves differ from the rules' ({valid_line!r})"
        self.levels, self.dormant = levels, dormant
        return state, complaint

    def _explain(self, levels):
        predicted, dormant = self.levels.copy(), self.dormant.copy()
        if self.turn - self.levels_turn == 2:  # only a growth in between
            rules.grow(predicted, dormant)
            if np.array_equal(predicted, levels):
                return (GROWTH_MOVE,), None
        else:
            a, b = _explain(predicted, dormant, -self.colour, levels)
            if a >= 0:
                return (int(a), GROWTH_MOVE, int(b)), None
        return (), f"turn {self.turn}: no legal sequence of turns leads to this position; resynchronised"

    def played(self, tile: int) -> None:
        """Our answer for this turn: applied to the tracked position."""
        rules.play(self.levels, self.dormant, self.colour, tile)
        self.levels_turn = self.turn
