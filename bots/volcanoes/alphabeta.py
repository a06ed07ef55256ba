"""`alphabeta`: iterative-deepening alpha-beta with a transposition table, numba-compiled.

Each turn searches depth 1, 2, ... while time remains. numba cannot read the clock, so the kernels
count nodes and stop at a node budget; Python hands out the turn in slices of a few milliseconds
(nodes = slice x the measured node rate) and reads the clock between them. A slice that runs out
in the middle of a root move is simply searched again: the transposition table keeps what was
done. The root moves are reordered after every depth (best first), and a depth cut short still
counts once it has finished its first move, the previous depth's best. The search plays on the
bitboard rules core (`search/bitboard.py`), as `uct` and `mcts` do.
"""

from __future__ import annotations

if __name__ == "__main__":  # before the imports below, which load numba: answer from the first turn
    from bots.volcanoes.launch import play_command_line

    play_command_line("alphabeta")
    raise SystemExit

import time

import numpy as np

from referee.volcanoes import rules

from .base import GameState, NumbaBot
from .registry import defaults
from .search import bitboard, tt
from .search.minimax import INFINITY, NODE_LIMIT, NODES, Workspace, search_root

MAX_DEPTH = 40
THINK_FRACTION = 0.6  # of the budget: on a busy machine the process may lose the CPU mid-slice
SLICE_SECONDS = 0.003  # the clock is read at least this often
SLICE_FRACTION = 0.5  # of the time left, at most, for one slice: the node rate varies
MIN_SLICE_SECONDS = 0.001  # less time than this left and the turn ends
# The node rate is measured over windows of several slices: timing slices one by one, and only those
# long enough to time, counted mostly the ones the process lost the CPU in, and the estimate (so the
# slices, so the timed ones) kept shrinking on a busy machine (alphabeta played depth 1 at load 10).
RATE_WINDOW_SECONDS = 0.005
# A game's first answer also carries the process's start-up on the referee's clock, which the
# adapter cannot see; and a nearly empty board gains little from thought.
FIRST_TURN_SECONDS = 0.05


class AlphaBetaBot(NumbaBot):
    name = "alphabeta"

    def __init__(self, seed: int | None = None, tt_bits: int = defaults("alphabeta")["tt_bits"]):
        self.rng = np.random.default_rng(seed)
        self.tt_bits = tt_bits
        self._start_afresh()
        self.last_search: dict = {}
        self.first_turn = True

    def _start_afresh(self) -> None:
        self.work = Workspace(self.tt_bits)
        self.nodes_per_second = 100_000.0  # a cautious start, refined by every window of slices
        self.window_nodes, self.window_seconds, self.nodes = 0, 0.0, 0

    def warm_up(self) -> None:
        """Load the search from numba's cache with one slice of search (which holds every kernel
        it calls), whatever the clock says (a turn's first slice may come after its deadline); then
        start afresh: that slice's time was mostly loading."""
        super().warm_up()
        levels, dormant = rules.new_state()
        state = GameState(levels, dormant, 0)
        moves = state.legal_moves()
        self._slice(state, 1, moves, np.zeros(moves.size, dtype=np.int64), 0, -INFINITY, INFINITY, 0.0)
        self._start_afresh()

    def start(self, colour: int) -> None:
        self.work.history[:] = 0
        self.first_turn = True

    def _slice(self, state, depth, moves, values, first, alpha, beta, seconds):
        """Search root moves from `first` for at most about `seconds`; how many are done."""
        w = self.work
        bitboard.from_levels(state.levels, w.boards[0])  # dormant is level 4 at a turn boundary
        w.stats[:] = 0
        w.stats[NODE_LIMIT] = max(int(self.nodes_per_second * seconds), 50)
        started = time.perf_counter()
        done = search_root(*w.arrays(), state.turns_played, depth, moves, values, first, alpha, beta, rules.MAX_TURNS)
        self.window_seconds += time.perf_counter() - started
        self.window_nodes += int(w.stats[NODES])
        if self.window_seconds >= RATE_WINDOW_SECONDS:
            rate = self.window_nodes / self.window_seconds
            self.nodes_per_second = 0.8 * self.nodes_per_second + 0.2 * rate
            self.window_nodes, self.window_seconds = 0, 0.0
        self.nodes += int(w.stats[NODES])
        return int(done)

    def choose(self, state: GameState, budget: float) -> int:
        started = time.perf_counter()
        if self.first_turn:
            budget = min(budget, FIRST_TURN_SECONDS)
            self.first_turn = False
        deadline = started + budget * THINK_FRACTION
        moves = state.legal_moves()
        self.rng.shuffle(moves)  # equal moves: a random one
        if moves.size == 1:
            return int(moves[0])
        w = self.work
        w.history //= 8  # keep a little of the last turn's history
        w.killers[:] = -1
        blue = state.player == rules.BLUE
        sign = 1 if blue else -1
        best_move, best_value, depth_done = int(moves[0]), 0, 0
        self.nodes = 0
        values = np.zeros(moves.size, dtype=np.int64)
        for depth in range(1, MAX_DEPTH + 1):
            alpha, beta = -INFINITY, INFINITY
            best_index = -1
            i = 0
            while i < moves.size:
                remaining = deadline - time.perf_counter()
                if remaining < MIN_SLICE_SECONDS:
                    break
                seconds = min(SLICE_SECONDS, remaining * SLICE_FRACTION)
                done = self._slice(state, depth, moves, values, i, alpha, beta, seconds)
                for j in range(i, done):
                    if best_index < 0 or sign * values[j] > sign * values[best_index]:
                        best_index = j
                        if blue:
                            alpha = max(alpha, int(values[j]))
                        else:
                            beta = min(beta, int(values[j]))
                i = done
            if best_index >= 0:  # the previous best was searched first: this depth's best stands
                best_move, best_value = int(moves[best_index]), int(values[best_index])
            if i < moves.size:
                break  # out of time
            depth_done = depth
            # Best first, then the rest by their values (bounds); ties keep their earlier order.
            order = np.argsort(-sign * values, kind="stable")
            order = np.concatenate(([best_index], order[order != best_index]))
            moves, values = moves[order], values[order]
            if abs(best_value) > tt.WIN - tt.WIN_BAND:
                break  # a forced result: deeper search will not change it
        self.last_search = {
            "depth": depth_done,
            "nodes": self.nodes,
            "value": best_value,
            "seconds": time.perf_counter() - started,
        }
        return best_move
