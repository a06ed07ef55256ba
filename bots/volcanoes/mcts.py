"""`mcts`: UCT in jitted code (see `uct.py` and `search/tree.py`) with what measurably wins:
RAVE (AMAF values blended into the selection, k = 3000, c = 0.2), playouts that take a connecting
placement or block the opponent's (`decisive`), and MCTS-Solver."""
from __future__ import annotations

from .base import main
from .uct import UctBot

DEFAULTS = dict(c=0.2, rave_k=3000.0, decisive=True, solver=True)


class MctsBot(UctBot):
    name = "mcts"

    def __init__(self, seed: int | None = None, **options):
        super().__init__(seed, **{**DEFAULTS, **options})


if __name__ == "__main__":
    main(MctsBot())
