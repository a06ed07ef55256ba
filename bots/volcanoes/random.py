"""`random`: a uniformly random legal move."""

from __future__ import annotations

if __name__ == "__main__":  # before the imports below, which load numba: answer from the first turn
    from bots.volcanoes.launch import play_command_line

    play_command_line("random")
    raise SystemExit

import numpy as np

from .base import GameState, NumbaBot


class RandomBot(NumbaBot):
    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def choose(self, state: GameState, budget: float) -> int:
        return int(self.rng.choice(state.legal_moves()))
