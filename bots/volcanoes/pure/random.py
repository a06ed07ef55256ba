"""`random` in pure Python: a uniformly random legal move (the stand-in of the numba `random` while
its process starts, see `bots.volcanoes.launch`)."""

from __future__ import annotations

from random import Random

from bots.volcanoes.bot import Bot, main

from . import BUDGET


class RandomBot(Bot):
    name = "random"
    budget = BUDGET
    collect_between_turns = False

    def __init__(self, seed: int | None = None):
        self.rng = Random(seed)

    def choose(self, state, budget: float) -> int:
        moves = state.legal_moves()
        return self.rng.choice(moves) if moves else 0


if __name__ == "__main__":
    from referee.platform.bot_env import given_seed

    main(RandomBot(seed=given_seed()))
