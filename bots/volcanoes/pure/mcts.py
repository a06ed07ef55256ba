"""`mcts` in pure Python: UCT over the fast rules in `pure.rules`, random playouts, the tree kept
from one turn to the next. This is the bot `arena bundle mcts` submits to CodinGame (no numba).

A node is a position where a player is to move (growth turns are folded into the move before
them); its `wins` count for the player whose move led to it, so a parent picks the child best for
its own mover even though the movers do not simply alternate (blue, orange, growth, orange, blue).
"""
from __future__ import annotations

import gc
import time
from math import log, sqrt
from random import Random

from . import rules
from .player import main

EXPLORATION = 0.8
# The reward of an outcome for the player who made the move: BLUE_WINS, ORANGE_WINS, DRAW.
_REWARD = {
    rules.BLUE: (0.0, 1.0, 0.0, 0.5),
    rules.ORANGE: (0.0, 0.0, 1.0, 0.5),
}
# How far below our last root the tree is searched for the position we are shown next: the
# opponent's move, the growth folded into it, and the opponent's second move.
_REUSE_DEPTH = 2


class Node:
    __slots__ = ("board", "turns", "by", "outcome", "untried", "children", "move", "visits", "wins")

    def __init__(self, board, turns: int, by: int, outcome: int, move: int, rng: Random):
        self.board = board
        self.turns = turns  # turns played
        self.by = by  # the player whose move led here
        self.outcome = outcome
        self.move = move
        self.children: list[Node] = []
        self.visits = 0
        self.wins = 0.0
        if outcome == rules.ONGOING:
            self.untried = rules.legal_moves(board, rules.ACTORS[turns])
            rng.shuffle(self.untried)
        else:
            self.untried = []

    def expand(self, rng: Random) -> Node:
        """Play the next untried move (and a growth turn after it); the new child."""
        move = self.untried.pop()
        board = bytearray(self.board)
        mover = rules.ACTORS[self.turns]
        turns = self.turns + 1
        outcome = rules.play(board, mover, move)
        if outcome == rules.ONGOING and rules.ACTORS[turns] == rules.GROWTH:
            outcome = rules.grow(board)
            turns += 1
        if outcome == rules.ONGOING and turns >= rules.MAX_TURNS:
            outcome = rules.DRAW
        child = Node(board, turns, mover, outcome, move, rng)
        self.children.append(child)
        return child


class MCTSBot:
    name = "mcts"

    def __init__(self, seed: int | None = None, exploration: float = EXPLORATION):
        self.rng = Random(seed)
        self.exploration = exploration
        self.root: Node | None = None
        self.iterations = 0  # of the last search

    def start(self, colour: int) -> None:
        self.root = None

    def choose(self, board, turns_played: int, deadline: float) -> int:
        # No cyclic garbage collection mid-turn (the tree has no cycles): a pass over a big tree is
        # a pause a 100 ms turn cannot afford.
        collecting = gc.isenabled()
        gc.disable()
        try:
            root = self._reuse(board, turns_played)
            self._search(root, deadline)
        finally:
            if collecting:
                gc.enable()
        best = max(root.children, key=lambda c: (c.visits, c.wins))
        self.root = best
        return best.move

    def _reuse(self, board, turns_played: int) -> Node:
        """The node of this position in the last search's tree, or a new root."""
        level = [self.root] if self.root is not None else []
        board = bytes(board)
        for _ in range(_REUSE_DEPTH + 1):
            for node in level:
                if node.turns == turns_played and node.board == board:
                    return node
            level = [child for node in level for child in node.children]
        return Node(bytearray(board), turns_played, -rules.ACTORS[turns_played], rules.ONGOING, -1,
                    self.rng)

    def _search(self, root: Node, deadline: float) -> None:
        rng, clock = self.rng, time.perf_counter
        bits = rng.getrandbits
        playout = rules.random_playout
        c = self.exploration
        iterations = 0
        while True:
            if clock() >= deadline and (root.children or not root.untried):
                break
            iterations += 1
            node = root
            path = [node]
            while not node.untried and node.children:
                scale = c * sqrt(log(node.visits))
                best, best_value = None, -1.0
                for child in node.children:
                    n = child.visits
                    value = child.wins / n + scale / sqrt(n)
                    if value > best_value:
                        best, best_value = child, value
                node = best
                path.append(node)
            if node.untried:
                node = node.expand(rng)
                path.append(node)
            outcome = node.outcome or playout(node.board, node.turns, bits)
            for visited in path:
                visited.visits += 1
                visited.wins += _REWARD[visited.by][outcome]
        self.iterations = iterations


if __name__ == "__main__":
    main(MCTSBot())
