"""A Volcanoes position as a bot sees it."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from referee.volcanoes import rules
from referee.volcanoes.board import N_TILES


@dataclass
class GameState:
    """A position as a bot sees it: blue-positive levels, dormant flags, turns played, and who moves."""

    levels: np.ndarray  # int8[80]
    dormant: np.ndarray  # bool[80]
    turns_played: int
    # The turns since this player's previous move, oldest first: a tile, or -1 for a growth turn
    # (empty on a first turn, or when the tracker could not explain the position).
    last_moves: tuple[int, ...] = field(default=())

    @property
    def player(self) -> int:
        return int(rules.actor(self.turns_played + 1))

    def legal_moves(self) -> np.ndarray:
        out = np.empty(N_TILES, dtype=np.int64)
        return out[: rules.legal_moves(self.levels, self.dormant, self.player, out)]

    def copy(self) -> GameState:
        return GameState(self.levels.copy(), self.dormant.copy(), self.turns_played, self.last_moves)
