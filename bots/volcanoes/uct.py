"""`uct`: plain UCT, the baseline for tree search. UCB1 with c = sqrt(2), one new node per
iteration, uniform random playouts over all legal moves (growth of own volcanoes included), the
most visited move, a new tree every turn. The tree, playouts and backups run in jitted batches
(`search.tree`); Python only watches the clock between batches.

`UctBot`'s options switch on what `mcts` adds (see `mcts.py`).
"""
from __future__ import annotations

if __name__ == "__main__":  # before the imports below, which load numba: answer from the first turn
    from bots.volcanoes.launch import play

    play("uct")
    raise SystemExit

import time

import numpy as np

from referee.volcanoes import rules
from referee.volcanoes.board import N_TILES

from .base import Bot, GameState
from .registry import defaults
from .search import playout, tree

BATCH = 64  # iterations per jitted call; the clock is read between calls
FIRST_TURN_SEARCH = 0.30  # seconds of search on a game's first turn


class UctBot(Bot):
    name = "uct"

    def __init__(self, seed: int | None = None, c: float = defaults("uct")["c"], solver: bool = False,
                 rave_k: float = 0.0, decisive: bool = False, capacity: int = 1 << 19,
                 time_fraction: float = 0.75):
        """`time_fraction`: the share of the turn's budget searched (the rest absorbs a late
        batch and a busy machine)."""
        self.seed = int(np.random.SeedSequence(seed).generate_state(1)[0])
        self.c = c
        self.solver = solver
        self.rave_k = rave_k
        self.decisive = decisive
        self.time_fraction = time_fraction
        self.nodes, self.reward, self.meta = tree.new_tree(capacity)
        self.scratch = playout.new_scratch()
        self.levels = np.zeros(N_TILES, dtype=np.int8)  # the position during an iteration
        self.dormant = np.zeros(N_TILES, dtype=np.bool_)
        self.first_turn = True
        self.last_search = {"iterations": 0}  # of the last turn

    def warm_up(self) -> None:
        super().warm_up()
        playout.warm_up()
        nodes, reward, meta = tree.new_tree(256)
        levels, dormant = rules.new_state()
        self._search(nodes, reward, meta, levels, dormant, 0, 8)
        tree.best_child(nodes, self.solver)
        # Fault the big tree's pages in now: a first search would do it inside a timed turn.
        self.nodes.fill(0)
        self.reward.fill(0)

    def start(self, colour: int) -> None:
        playout.seed((self.seed + colour) % 2**32)
        self.first_turn = True

    def _search(self, nodes, reward, meta, levels, dormant, turns, iterations):
        return tree.search(nodes, reward, meta, levels, dormant, turns, iterations, self.c,
                           self.solver, self.decisive, self.rave_k, self.levels, self.dormant,
                           self.scratch)

    def choose(self, state: GameState, budget: float) -> int:
        started = time.perf_counter()
        if self.first_turn:
            budget = min(budget, FIRST_TURN_SEARCH)
            self.first_turn = False
        deadline = started + budget * self.time_fraction
        tree.reset(self.nodes, self.reward, self.meta, -state.player)
        iterations = 0
        while True:  # at least one batch, whatever the budget
            ran = self._search(self.nodes, self.reward, self.meta, state.levels, state.dormant,
                               state.turns_played, BATCH)
            iterations += ran
            now = time.perf_counter()
            per_batch = (now - started) * BATCH / max(iterations, 1)
            if ran < BATCH or now + per_batch > deadline:
                break
        self.last_search = {"iterations": iterations}
        child = tree.best_child(self.nodes, self.solver)
        return int(self.nodes[child, tree.MOVE]) if child >= 0 else int(state.legal_moves()[0])

    def evaluate(self, state: GameState, iterations: int) -> tuple[int, float]:
        """Search `state` afresh for `iterations` iterations whatever the clock (fewer when the
        root is proven or the tree fills up), reseeded, so the same position always gets the same
        answer: (the move it would play, blue's expected score from 0 to 1). Game analysis uses it."""
        self.start(state.player)
        tree.reset(self.nodes, self.reward, self.meta, -state.player)
        self.last_search = {"iterations": self._search(self.nodes, self.reward, self.meta, state.levels,
                                                       state.dormant, state.turns_played, iterations)}
        child = tree.best_child(self.nodes, self.solver)
        if child < 0:  # no legal move: the player to move has lost
            return -1, 0.0 if state.player == rules.BLUE else 1.0
        proof = self.nodes[child, tree.PROOF]
        if self.solver and proof != rules.ONGOING:
            blue = {rules.BLUE_WINS: 1.0, rules.ORANGE_WINS: 0.0}.get(int(proof), 0.5)
        else:
            mover = self.reward[child, tree.SCORE] / max(self.nodes[child, tree.VISITS], 1)
            blue = float(mover) if state.player == rules.BLUE else 1.0 - float(mover)
        return int(self.nodes[child, tree.MOVE]), blue

