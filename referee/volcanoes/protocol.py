"""CodinGame's Volcanoes lines: the init block, the position and valid-moves lines, and reading a
player's answer."""

from __future__ import annotations

from collections.abc import Sequence

from ..platform.java_random import JavaRandom
from .board import INDEX, NAMES, init_block

__all__ = ["InvalidMove", "init_block", "position_line", "valid_line", "parse_answer"]


class InvalidMove(ValueError):
    """The answer is not a valid tile name nor RANDOM."""


def position_line(levels: Sequence[int], player: int) -> str:
    """80 levels, tile order, the receiving player's volcanoes positive."""
    return " ".join(str(int(level) * player) for level in levels)


def valid_line(valid: Sequence[int]) -> str:
    """The legal tiles' names, sorted (tile order is name order)."""
    return " ".join(NAMES[t] for t in valid)


def parse_answer(line: str, valid: Sequence[int], rng: JavaRandom) -> int:
    """The tile a player's answer names. The answer is upper-cased, as CodinGame's referee does;
    RANDOM draws `valid[rng.nextInt(len(valid))]` from the game's generator."""
    if not valid:
        raise InvalidMove("no valid move is left")
    word = line.upper()
    if word == "RANDOM":
        return valid[rng.next_int(len(valid))]
    tile = INDEX.get(word)
    if tile is None:
        shown = line if len(line) <= 40 else line[:40] + "..."
        raise InvalidMove(f"{shown!r} is not a tile name nor RANDOM")
    if tile not in valid:
        raise InvalidMove(f"{word} is not a valid move now")
    return tile
