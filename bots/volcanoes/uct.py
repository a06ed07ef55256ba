"""`uct`: plain UCT, the baseline for tree search. UCB1 with c = sqrt(2), one new node per
iteration, uniform random playouts over all legal moves (growth of own volcanoes included), the
most visited move, a new tree every turn. The tree, playouts and backups run in jitted batches
(`search.tree`); Python only watches the clock between batches.

`UctBot`'s options switch on what `mcts` adds (see `mcts.py`).
"""

from __future__ import annotations

if __name__ == "__main__":  # before the imports below, which load numba: answer from the first turn
    from bots.volcanoes.launch import play_command_line

    play_command_line("uct")
    raise SystemExit

import time
import weakref

import numpy as np

from referee.volcanoes import rules

from .base import GameState, NumbaBot
from .registry import defaults
from .search import bitboard, tree

BATCH = 64  # iterations per jitted call; the clock is read between calls
FIRST_TURN_SEARCH = 0.30  # seconds of budget on a game's first turn (its time_fraction is searched)

# Trees of bots that are gone, by (capacity, layout), for the next bots of this process: writing a
# new tree's pages once costs 0.1 s for 2M rows (an arena plays game after game, each with new bots).
_LEFT_TREES: dict[tuple[int, bool], list] = {}


def _take_tree(shape: tuple[int, bool]):
    """(nodes, reward, meta) for a bot: a tree a bot left, or a new one with every page written
    now, so that no timed turn waits for the system to map one. `shape`: the tree's capacity and
    whether it is laid out by column (`tree.new_tree`)."""
    left = _LEFT_TREES.get(shape)
    if left:
        return left.pop()
    nodes, reward, meta = tree.new_tree(*shape)
    nodes.fill(0)
    reward.fill(0)
    return nodes, reward, meta


def _give_back(shape: tuple[int, bool], trees: list) -> None:
    _LEFT_TREES.setdefault(shape, []).extend(trees)


class UctBot(NumbaBot):
    name = "uct"

    def __init__(
        self,
        seed: int | None = None,
        c: float = defaults("uct")["c"],
        solver: bool = False,
        rave_k: float = 0.0,
        decisive: bool = False,
        expand: int = 1,
        capacity: int = 1 << 19,
        time_fraction: float = 0.75,
        iterations: int = 0,
        first_turn: float = FIRST_TURN_SEARCH,
        first_play: float = tree.TRY_FIRST,
        reuse: bool = False,
    ):
        """`time_fraction`: the share of the turn's budget searched (the rest absorbs a late
        batch and a busy machine). `iterations`: search exactly that many a turn, whatever the
        clock (0: by the clock), for comparisons that must not depend on the machine's speed.
        `first_turn`: the most seconds of budget taken on a game's first turn (CodinGame allows
        1000 ms). `first_play`: with RAVE, the value of a child no simulation has valued yet.
        `reuse`: keep, from the last turn's tree, the subtree of the position shown now."""
        self.seed = int(np.random.SeedSequence(seed).generate_state(1)[0])
        self.options = tree.Options(
            float(c), bool(solver), bool(decisive), float(rave_k), int(expand), float(first_play)
        )
        self.time_fraction = time_fraction
        self.first_turn_budget = float(first_turn)
        self.iterations = int(iterations)
        # With reuse, a second tree of the same size: what is kept from the last is copied into it.
        self.columns = rave_k > 0  # RAVE's selection is faster with a tree by column, UCB1's by row
        shape = (capacity, self.columns)
        trees = [_take_tree(shape) for _ in range(2 if reuse else 1)]
        weakref.finalize(self, _give_back, shape, trees).atexit = False
        self.nodes, self.reward, self.meta = trees[0]
        self.spare = trees[1][:2] if reuse else None
        self.reuse = bool(reuse)
        self.searched = None  # (board, turns played, our move) of the last search, for reuse
        self.work = tree.new_work(self.seed)
        self.root = bitboard.new_board()
        self.first_turn = True
        self.last_search = {"iterations": 0}  # of the last turn

    def warm_up(self) -> None:
        super().warm_up()
        bitboard.warm_up()
        nodes, reward, meta = tree.new_tree(256, self.columns)  # (the kernels of this layout)
        tree.reset(nodes, reward, meta, -1)
        tree.search(nodes, reward, meta, bitboard.new_board(), 0, 8, self.options, self.work)
        tree.best_child(nodes, meta, self.options.solver)
        tree.find_child(nodes, 0, 0)
        tree.reroot(nodes, meta, 0)
        tree.keep_subtree(nodes, reward, meta, 0, *tree.new_tree(256, self.columns)[:2])
        tree.edge(bitboard.new_board(), 0, rules.BLUE, 0, self.work.scratch)

    def start(self, colour: int) -> None:
        self.work.rng[:] = bitboard.new_rng(self.seed + colour)
        self.first_turn = True
        self.searched = None

    def _kept_node(self, state: GameState) -> int:
        """The node of the last turn's tree that holds `state` (reached by our move and the moves
        since), or -1: no reuse, no tree, or `state` is not where those moves lead."""
        if self.searched is None or not state.last_moves:
            return -1
        board, turn, move = self.searched
        board = board.copy()
        node = int(self.meta[tree.ROOT])
        for tile in (move, *(t for t in state.last_moves if t >= 0)):
            node = tree.find_child(self.nodes, node, tile)
            if node < 0:
                return -1
            outcome, turn = tree.edge(board, turn, int(rules.CYCLE[turn % 6]), tile, self.work.scratch)
            if outcome != rules.ONGOING:
                return -1
        words = bitboard.POSITION_WORDS
        if turn != state.turns_played or not np.array_equal(board[:words], self.root[:words]):
            return -1
        return node

    def _copy_kept(self, kept: int) -> bool:
        """Whether to copy node `kept`'s subtree into the spare tree rather than make it the root in
        place: when it is small (an eighth of the root's visits or less: a copy of a few
        milliseconds at most), or half the tree is in use (the rest left for this turn's nodes).
        A player moving twice in a row keeps a large subtree, 10 ms or more of a turn to copy."""
        small = self.nodes[kept, tree.VISITS] * 8 <= self.nodes[self.meta[tree.ROOT], tree.VISITS]
        return small or self.meta[tree.N_NODES] > len(self.nodes) // 2

    def choose(self, state: GameState, budget: float) -> int:
        started = time.perf_counter()
        if self.first_turn:
            budget = min(budget, self.first_turn_budget)
            self.first_turn = False
        deadline = started + budget * self.time_fraction
        bitboard.from_levels(state.levels, self.root)  # dormant is level 4 at a turn boundary
        kept = self._kept_node(state)
        if kept < 0:
            tree.reset(self.nodes, self.reward, self.meta, -state.player)
        elif self._copy_kept(kept):  # the rest of the tree, unreachable now, is left behind
            tree.keep_subtree(self.nodes, self.reward, self.meta, kept, *self.spare)
            self.spare, (self.nodes, self.reward) = (self.nodes, self.reward), self.spare
        else:
            tree.reroot(self.nodes, self.meta, kept)
        iterations = 0
        while True:  # at least one batch, whatever the budget
            batch = min(BATCH, self.iterations - iterations) if self.iterations else BATCH
            ran = tree.search(
                self.nodes, self.reward, self.meta, self.root, state.turns_played, batch, self.options, self.work
            )
            iterations += ran
            if ran < batch or (self.iterations and iterations >= self.iterations):  # proven, or done
                break
            now = time.perf_counter()
            per_batch = (now - started) * BATCH / max(iterations, 1)
            if not self.iterations and now + per_batch > deadline:
                break
        self.last_search = {"iterations": iterations}
        child = tree.best_child(self.nodes, self.meta, self.options.solver)
        move = int(self.nodes[child, tree.MOVE]) if child >= 0 else int(state.legal_moves()[0])
        self.searched = (self.root.copy(), state.turns_played, move) if self.reuse else None
        return move

    def evaluate(self, state: GameState, iterations: int) -> tuple[int, float]:
        """Search `state` afresh for `iterations` iterations whatever the clock (fewer when the
        root is proven), reseeded, so the same position always gets the same answer: (the move
        it would play, blue's expected score from 0 to 1). Game analysis uses it."""
        self.start(state.player)  # forgets the last tree too
        tree.reset(self.nodes, self.reward, self.meta, -state.player)
        bitboard.from_levels(state.levels, self.root)
        self.last_search = {
            "iterations": tree.search(
                self.nodes, self.reward, self.meta, self.root, state.turns_played, iterations, self.options, self.work
            )
        }
        child = tree.best_child(self.nodes, self.meta, self.options.solver)
        if child < 0:  # no legal move: the player to move has lost
            return -1, 0.0 if state.player == rules.BLUE else 1.0
        proof = self.nodes[child, tree.PROOF]
        if self.options.solver and proof != rules.ONGOING:
            blue = {rules.BLUE_WINS: 1.0, rules.ORANGE_WINS: 0.0}.get(int(proof), 0.5)
        else:
            mover = self.reward[child, tree.SCORE] / max(self.nodes[child, tree.VISITS], 1)
            blue = float(mover) if state.player == rules.BLUE else 1.0 - float(mover)
        return int(self.nodes[child, tree.MOVE]), blue
