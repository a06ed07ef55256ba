"""`greedy`: a winning move if there is one, else the move that maximises the opponent's
connection distance minus its own (ties broken at random). Plays on the bitboard rules core
(`search/bitboard.py`) with its bit-parallel distances (`search/distance.py`)."""

from __future__ import annotations

if __name__ == "__main__":  # before the imports below, which load numba: answer from the first turn
    from bots.volcanoes.launch import play_command_line

    play_command_line("greedy")
    raise SystemExit

import numpy as np
from numba import njit

from referee.volcanoes import rules
from referee.volcanoes.board import N_TILES

from .base import GameState, NumbaBot
from .search import bitboard, distance
from .search.distance import BLOCKED, connection_distance

WIN = 10 * BLOCKED


@njit(cache=True)
def score_moves(board, player, moves, scores, scratch, rules_scratch):
    """Each move's score: WIN for a win, else opponent distance minus own distance."""
    won = rules.BLUE_WINS if player == rules.BLUE else rules.ORANGE_WINS
    after = board.copy()
    for i in range(moves.size):
        after[:] = board
        outcome = bitboard.play(after, player, moves[i], rules_scratch)
        if outcome == won:
            scores[i] = WIN
        elif outcome != rules.ONGOING:
            scores[i] = -WIN if outcome != rules.DRAW else 0
        else:
            scores[i] = connection_distance(after, -player, scratch) - connection_distance(after, player, scratch)


class GreedyBot(NumbaBot):
    name = "greedy"

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)
        self.board = bitboard.new_board()
        self.scratch, self.rules_scratch = distance.new_scratch(), bitboard.new_scratch()

    def warm_up(self) -> None:
        super().warm_up()
        levels, _ = rules.new_state()
        bitboard.from_levels(levels, self.board)
        score_moves(
            self.board, rules.BLUE, np.arange(N_TILES), np.empty(N_TILES, np.int64), self.scratch, self.rules_scratch
        )

    def choose(self, state: GameState, budget: float) -> int:
        moves = state.legal_moves()
        scores = np.empty(moves.size, dtype=np.int64)
        bitboard.from_levels(state.levels, self.board)  # dormant is level 4 at a turn boundary
        score_moves(self.board, state.player, moves, scores, self.scratch, self.rules_scratch)
        best = moves[scores == scores.max()]
        return int(self.rng.choice(best))
