"""A game's analysis as data: which positions of a replay an engine must search, the replay's
`analysis` field built from the engine's answers, and the moves that lost the most value.

No engine here (`referee` imports no bot): `bots/volcanoes/analyse.py` searches the positions this
module names. Values are blue's expected score, 0 (orange wins) to 1 (blue wins); orange's is one
minus it. The position after frame i of the page (`view.frames`) is the position before turn i + 1.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import rules
from .board import INDEX, NAMES

MISTAKE = 0.10  # a move that loses at least this much of its player's expected score is a mistake
MISTAKES_SHOWN = 3  # the largest mistakes of each side marked on the page
_FINAL = {"blue": 1.0, "orange": 0.0, "draw": 0.5}


@dataclass(frozen=True)
class Position:
    """A position a player is to move in: the page's frame index, blue-positive levels, dormant
    tile indexes, turns played (growth turns count)."""

    frame: int
    levels: list[int]
    dormant: list[int]
    turns_played: int


def _player_turn(turn: int) -> bool:
    return int(rules.actor(turn)) != rules.GROWTH


def positions(replay: dict) -> list[Position]:
    """The positions to search: each frame before a player's turn, but not the last frame (the
    game is over there). A frame before a growth turn takes the value of the frame after it."""
    log = replay["turn_log"]
    levels, dormant = [0] * len(NAMES), []
    found = []
    for frame in range(len(log)):  # frame `frame` is the board after turn `frame` (0: the start)
        if frame:
            entry = log[frame - 1]
            if entry.get("levels"):
                levels, dormant = entry["levels"], entry.get("dormant", [])
        if _player_turn(frame + 1):
            found.append(Position(frame, list(levels), [INDEX[name] for name in dormant], frame))
    return found


def annotate(replay: dict, answers: dict[int, tuple[int, float]], engine: str, iterations: int) -> dict:
    """The replay with its `analysis`: for every frame, blue's expected score (`value`), the move
    the engine prefers for the next player's turn (`best`, a tile name, where a player moves next),
    and for a frame after a player's move the expected score its player lost by it (`loss`).
    `answers` maps each frame of `positions(replay)` to (tile, blue's value)."""
    n_frames = len(replay["turn_log"]) + 1
    values: list[float] = [0.0] * n_frames
    values[-1] = _FINAL.get(replay.get("winner"), 0.5)
    shown = [{} for _ in range(n_frames)]
    for frame in range(n_frames - 2, -1, -1):  # backwards: a growth frame takes the next frame's value
        if frame in answers:
            tile, value = answers[frame]
            values[frame] = float(value)
            shown[frame]["best"] = NAMES[tile] if tile >= 0 else None
        else:
            values[frame] = values[frame + 1]
    for frame in range(n_frames):
        shown[frame]["value"] = round(values[frame], 4)
        actor = replay["turn_log"][frame - 1]["actor"] if frame else "start"
        if actor in ("blue", "orange"):
            sign = 1.0 if actor == "blue" else -1.0
            shown[frame]["loss"] = round(sign * (values[frame - 1] - values[frame]), 4)
    return {**replay, "analysis": {"engine": engine, "iterations": iterations, "frames": shown}}


@dataclass(frozen=True)
class Mistake:
    frame: int  # the frame after the move (its turn number)
    player: str  # "blue" or "orange"
    played: str | None  # the tile played (None for a forfeited turn)
    best: str | None  # what the engine preferred
    loss: float  # the player's expected score lost, 0..1
    before: float  # the player's expected score before the move


def mistakes(replay: dict, threshold: float = MISTAKE, per_side: int | None = MISTAKES_SHOWN) -> list[Mistake]:
    """The moves of an analysed replay that lost at least `threshold` of their player's expected
    score, the largest `per_side` of each side (all with None), in the order they were played. The
    engine's own choice is never a mistake: what it seems to lose is the noise of two searches."""
    frames = replay["analysis"]["frames"]
    found: dict[str, list[Mistake]] = {"blue": [], "orange": []}
    for frame in range(1, len(frames)):
        loss = frames[frame].get("loss")
        if loss is None or loss < threshold:
            continue
        entry, before = replay["turn_log"][frame - 1], frames[frame - 1]
        player, best = entry["actor"], before.get("best")
        if entry.get("move") is not None and entry.get("move") == best:
            continue
        value = before["value"] if player == "blue" else 1.0 - before["value"]
        found[player].append(Mistake(frame, player, entry.get("move"), best, loss, value))
    chosen = [m for side in found.values() for m in sorted(side, key=lambda m: -m.loss)[:per_side]]
    return sorted(chosen, key=lambda m: m.frame)
