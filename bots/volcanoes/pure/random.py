"""`random` in pure Python: a uniformly random legal move (the stand-in of the numba `random` while
its process starts, see `bots.volcanoes.launch`)."""

from __future__ import annotations

from random import Random

from . import rules
from .player import main


class RandomBot:
    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = Random(seed)

    def start(self, colour: int) -> None:
        pass

    def choose(self, board, turns_played: int, deadline: float) -> int:
        moves = rules.legal_moves(board, rules.ACTORS[turns_played])
        return self.rng.choice(moves) if moves else 0


if __name__ == "__main__":
    from referee.bot_env import given_seed

    main(RandomBot(seed=given_seed()))
