"""`mcts`: UCT in jitted code (see `uct.py` and `search/tree.py`) with what measurably wins: RAVE
(AMAF values blended into the selection), playouts that take a connecting placement or block the
opponent's (`decisive`), MCTS-Solver, the tree kept between turns (`reuse`), and its first moves from
the pure engine's opening book (`pure/book.py`). Its parameters and defaults are declared in
its record in `registry.BOTS`; the experiments behind each, and what was tried and dropped:
docs/experiments/mcts.md.

A child that neither its own visits nor AMAF have valued yet is valued at `first_play`, a little
above an even game, so that a new node's first visits go to the moves AMAF already rates. The kept
subtree is copied into a second tree of the same size, or, when a player moves twice in a row across
a growth and half the tree is free, made the root in place (`UctBot._copy_kept`). The trees are laid
out by column (`tree.new_tree`), so that RAVE's selection reads a block of children's statistics in
vector instructions. The book's moves are played while the game is on one of its lines: two booked
players play its one line in every game up to its end (orange's fourth move, turn 10).
"""

from __future__ import annotations

if __name__ == "__main__":  # before the imports below, which load numba: answer from the first turn
    from bots.volcanoes.launch import play_command_line

    play_command_line("mcts")
    raise SystemExit

from .base import GameState
from .pure import book
from .pure import rules as pure_rules
from .registry import defaults
from .uct import UctBot

DEFAULTS = dict(defaults("mcts"), decisive=True, solver=True)  # (decisive playouts and the solver: always)


class MctsBot(UctBot):
    name = "mcts"

    def __init__(self, seed: int | None = None, **options):
        """`opening`: play the pure engine's opening book (`pure/book.py`) while the game is on it."""
        options = {**DEFAULTS, **options}
        self.use_book = bool(options.pop("opening"))
        super().__init__(seed, **options)
        self.opening: book.Opening | None = None  # this game's way through the book

    def start(self, colour: int) -> None:
        super().start(colour)
        self.opening = book.Opening() if self.use_book else None

    def choose(self, state: GameState, budget: float) -> int:
        if self.opening is not None:
            move = self.opening.move(pure_rules.from_levels(state.levels), state.turns_played)
            if move != book.NO_MOVE:
                self.searched = None  # (no tree to keep: the next search starts afresh)
                self.last_search = {}  # no search ran: no figures of one
                return move
            self.opening = None
        return super().choose(state, budget)
