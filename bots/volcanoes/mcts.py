"""`mcts`: UCT in jitted code (see `uct.py` and `search/tree.py`) with what measurably wins."""
from __future__ import annotations

from .base import main
from .uct import UctBot


class MctsBot(UctBot):
    name = "mcts"

    def __init__(self, seed: int | None = None, **options):
        settings = dict(solver=True, reuse=True)
        settings.update(options)
        super().__init__(seed, **settings)


if __name__ == "__main__":
    main(MctsBot())
