"""`boss`: plays like CodinGame's league-1 boss. A random empty equator tile (N22, N24 .. N40 and
S22, S24 .. S40), else the highest-numbered empty tile, else a random legal move (the boss answers
RANDOM there; this bot draws the move itself so it always knows what it played)."""

from __future__ import annotations

if __name__ == "__main__":  # before the imports below, which load numba: answer from the first turn
    from bots.volcanoes.launch import play_command_line

    play_command_line("boss")
    raise SystemExit

import numpy as np

from referee.volcanoes.board import INDEX

from .base import GameState, NumbaBot

EQUATOR_TILES = np.array([INDEX[f"{side}{n:02d}"] for side in "NS" for n in range(22, 41, 2)], dtype=np.int64)


class BossBot(NumbaBot):
    name = "boss"

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def choose(self, state: GameState, budget: float) -> int:
        empty_equator = EQUATOR_TILES[state.levels[EQUATOR_TILES] == 0]
        if empty_equator.size:
            return int(self.rng.choice(empty_equator))
        empty = np.flatnonzero(state.levels == 0)
        if empty.size:
            return int(empty[-1])
        return int(self.rng.choice(state.legal_moves()))
