"""`uct`: plain UCT, the baseline for tree search. UCB1 with c = sqrt(2), one new node per
iteration, uniform random playouts over all legal moves (growth of own volcanoes included), the
most visited move, a new tree every turn. The tree, playouts and backups run in jitted batches
(`search.tree`); Python only watches the clock between batches.

`UctBot`'s options switch on what `mcts` adds (see `mcts.py`).
"""
from __future__ import annotations

import math
import os
import time

import numpy as np

from referee.volcanoes import rules
from referee.volcanoes.board import N_TILES

from .base import Bot, GameState, main
from .search import playout, tree

BATCH = 64  # iterations per jitted call; the clock is read between calls
FIRST_TURN_SEARCH = 0.30  # seconds of search on a game's first turn
# A new process also spends its first turn starting, importing and loading kernels: its first
# answer comes at most this long after the process started.
COLD_START_ANSWER = 0.75


def _process_age() -> float:
    """Seconds since this process started (Linux); 0 where that cannot be read."""
    try:
        with open("/proc/self/stat") as stat, open("/proc/uptime") as uptime:
            started_ticks = int(stat.read().rsplit(")", 1)[1].split()[19])
            return float(uptime.read().split()[0]) - started_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


class UctBot(Bot):
    name = "uct"

    def __init__(self, seed: int | None = None, c: float = math.sqrt(2), solver: bool = False,
                 reuse: bool = False, empty_bias: float = 0.0, decisive: bool = False,
                 equator_first: bool = False,
                 rave_k: float = 0.0, capacity: int = 1 << 19, time_fraction: float = 0.75,
                 cold_start: bool = False):
        self.seed = np.random.SeedSequence(seed).generate_state(1)[0]
        self.c = c
        self.solver = solver
        self.reuse = reuse
        self.empty_bias = empty_bias
        self.decisive = decisive
        self.equator_first = equator_first
        self.rave_k = rave_k
        self.time_fraction = time_fraction
        self.cold_start = cold_start  # a new process: mind its start-up on the first turn
        self.nodes, self.reward, self.meta = tree.new_tree(capacity)
        self.spare = None  # the second tree that re-rooting copies into
        self.scratch = playout.new_scratch()
        self.levels = np.zeros(N_TILES, dtype=np.int8)
        self.dormant = np.zeros(N_TILES, dtype=np.bool_)
        self.root: tuple[np.ndarray, np.ndarray, int] | None = None
        self.last_move = -1
        self.stats = {"iterations": 0, "reused": 0}  # of the last turn

    def warm_up(self) -> None:
        super().warm_up()
        playout.warm_up()
        nodes, reward, meta = tree.new_tree(256)
        levels, dormant = rules.new_state()
        self._search(nodes, reward, meta, levels, dormant, 0, 8)
        tree.best_child(nodes, reward, self.solver)
        tree.find_child(nodes, 0, 0)
        tree.edge(levels, dormant, 0, rules.BLUE, 0, self.scratch)
        spare = tree.new_tree(256)
        tree.copy_subtree(nodes, reward, 0, *spare)

    def start(self, colour: int) -> None:
        playout.seed(int(self.seed) + colour)
        self.root = None

    def _search(self, nodes, reward, meta, levels, dormant, turns, iterations):
        if meta[tree.N_NODES] == 0:
            tree.reset(nodes, reward, meta, rules.actor(turns) if turns else rules.ORANGE)
        return tree.search(nodes, reward, meta, levels, dormant, turns, iterations, self.c,
                           self.solver, self.empty_bias, self.decisive, self.equator_first, self.rave_k, self.levels,
                           self.dormant, self.scratch)

    def _reroot(self, state: GameState) -> bool:
        """Keep the subtree of the moves played since our last turn, if the tree has it."""
        if self.root is None or self.last_move < 0:
            return False
        levels, dormant, turns = self.root[0].copy(), self.root[1].copy(), self.root[2]
        node = 0
        for tile in (self.last_move, *[m for m in state.last_moves if m >= 0]):
            node = tree.find_child(self.nodes, node, tile)
            if node < 0:
                return False
            outcome, turns = tree.edge(levels, dormant, turns, rules.actor(turns + 1), tile,
                                        self.scratch)
            if outcome != rules.ONGOING:
                return False
        if (turns != state.turns_played or not np.array_equal(levels, state.levels)
                or not np.array_equal(dormant, state.dormant)):
            return False
        if self.spare is None:
            self.spare = tree.new_tree(self.nodes.shape[0])
        tree.copy_subtree(self.nodes, self.reward, node, *self.spare)
        self.spare, (self.nodes, self.reward, self.meta) = (self.nodes, self.reward, self.meta), self.spare
        return True

    def choose(self, state: GameState, budget: float) -> int:
        started = time.perf_counter()
        if self.root is None:
            budget = min(budget, FIRST_TURN_SEARCH)
            if self.cold_start:
                budget = min(budget, COLD_START_ANSWER - _process_age())
                self.cold_start = False
        deadline = started + budget * self.time_fraction
        reused = self.reuse and self._reroot(state)
        if not reused:
            self.meta[tree.N_NODES] = 0
        self.root = (state.levels.copy(), state.dormant.copy(), state.turns_played)
        self.stats = {"iterations": 0, "reused": int(self.nodes[0, tree.VISITS]) if reused else 0}
        while True:
            ran = self._search(self.nodes, self.reward, self.meta, state.levels, state.dormant,
                               state.turns_played, BATCH)
            self.stats["iterations"] += ran
            now = time.perf_counter()
            per_batch = (now - started) * BATCH / max(self.stats["iterations"], 1)
            if ran < BATCH or now + per_batch > deadline:
                break
        child = tree.best_child(self.nodes, self.reward, self.solver)
        tile = int(self.nodes[child, tree.MOVE]) if child >= 0 else int(state.legal_moves()[0])
        self.last_move = tile
        return tile


if __name__ == "__main__":
    main(UctBot(cold_start=True))
