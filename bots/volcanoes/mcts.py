"""`mcts`: UCT in jitted code (see `uct.py` and `search/tree.py`) with what measurably wins:
RAVE (AMAF values blended into the selection; c and k tuned by SPSA, see `registry.PARAMETERS`),
playouts that take a connecting placement or block the opponent's (`decisive`), and MCTS-Solver.

Its other options stay off until a match says they win (`arena sprt new=mcts:reuse=1 mcts`):
`threats` (answers only, when the opponent threatens to connect next), `reuse` (the tree kept
between turns), `replies` (last good replies in playouts), `expand` (visits before a leaf gets
children), `first_turn` (budget taken on the first turn)."""
from __future__ import annotations

if __name__ == "__main__":  # before the imports below, which load numba: answer from the first turn
    from bots.volcanoes.launch import play

    play("mcts")
    raise SystemExit

from .registry import defaults
from .uct import UctBot

DEFAULTS = dict(defaults("mcts"), decisive=True, solver=True)  # c and rave_k: see registry.PARAMETERS


class MctsBot(UctBot):
    name = "mcts"

    def __init__(self, seed: int | None = None, **options):
        super().__init__(seed, **{**DEFAULTS, **options})

