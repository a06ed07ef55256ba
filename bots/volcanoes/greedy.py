"""`greedy`: a winning move if there is one, else the move that maximises the opponent's
connection distance minus its own (ties broken at random)."""
from __future__ import annotations

if __name__ == "__main__":  # before the imports below, which load numba: answer from the first turn
    from bots.volcanoes.launch import play

    play("greedy")
    raise SystemExit

import numpy as np
from numba import njit

from referee.volcanoes import rules
from referee.volcanoes.board import N_TILES

from .base import Bot, GameState
from .search.distance import BLOCKED, connection_distance

WIN = 10 * BLOCKED


@njit(cache=True)
def score_moves(levels, dormant, player, moves, scores):
    """Each move's score: WIN for a win, else opponent distance minus own distance."""
    won = rules.BLUE_WINS if player == rules.BLUE else rules.ORANGE_WINS
    for i in range(moves.size):
        after, after_dormant = levels.copy(), dormant.copy()
        outcome = rules.play(after, after_dormant, player, moves[i])
        if outcome == won:
            scores[i] = WIN
        elif outcome != rules.ONGOING:
            scores[i] = -WIN if outcome != rules.DRAW else 0
        else:
            scores[i] = connection_distance(after, -player) - connection_distance(after, player)


class GreedyBot(Bot):
    name = "greedy"

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def warm_up(self) -> None:
        super().warm_up()
        levels, dormant = rules.new_state()
        score_moves(levels, dormant, rules.BLUE, np.arange(N_TILES), np.empty(N_TILES, np.int64))

    def choose(self, state: GameState, budget: float) -> int:
        moves = state.legal_moves()
        scores = np.empty(moves.size, dtype=np.int64)
        score_moves(state.levels, state.dormant, state.player, moves, scores)
        best = moves[scores == scores.max()]
        return int(self.rng.choice(best))

