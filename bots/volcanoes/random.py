"""`random`: a uniformly random legal move."""
from __future__ import annotations

import numpy as np

from .base import Bot, GameState, main


class RandomBot(Bot):
    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def choose(self, state: GameState, budget: float) -> int:
        return int(self.rng.choice(state.legal_moves()))


if __name__ == "__main__":
    main(RandomBot())
