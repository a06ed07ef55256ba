"""A game's analysis as data: which positions of a replay an engine must search, the replay's
`analysis` field built from the engine's answers, and the moves that lost the most value.

No engine here (`referee` imports no bot): `bots/volcanoes/analyse.py` searches the positions this
module names. Values are blue's expected score, 0 (orange wins) to 1 (blue wins); orange's is one
minus it. The position after frame i of the page (`view.frames`) is the position before turn i + 1.

A search's value leans towards the player to move (the most visited move's mean is the best of
noisy means), by as much as 20% at 20,000 iterations, and the player to move changes irregularly
(blue, orange, growth, orange, blue, growth). So each position is searched twice: as it is, and after
the engine's move (and the growth that follows it), where the other side leans. A move's loss
compares the position after the engine's move with the position after the move played, the same
turn and the same side to move, so the lean cancels, and the engine's own move loses exactly 0 (the
same position, searched alike). The curve shows the mean of a position's two values.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import rules
from .board import INDEX, N_TILES, NAMES

MISTAKE = 0.10  # a move that loses at least this much of its player's expected score is a mistake
MISTAKES_SHOWN = 3  # the largest mistakes of each side marked on the page
_FINAL = {"blue": 1.0, "orange": 0.0, "draw": 0.5}
_OUTCOME_VALUE = {rules.BLUE_WINS: 1.0, rules.ORANGE_WINS: 0.0, rules.DRAW: 0.5}


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


def after(position: Position, tile: int) -> Position | float:
    """The position after `tile` is played in `position` and the growth that follows, if one
    does: a Position, or blue's final score when the game ends there."""
    levels = np.array(position.levels, dtype=np.int8)
    dormant = np.zeros(N_TILES, dtype=np.bool_)
    dormant[position.dormant] = True
    turn = position.turns_played + 1
    outcome = rules.take_turn(levels, dormant, turn, tile)
    if outcome == rules.ONGOING and not _player_turn(turn + 1) and turn < rules.MAX_TURNS:
        turn += 1
        outcome = rules.take_turn(levels, dormant, turn, -1)
    if outcome != rules.ONGOING:
        return _OUTCOME_VALUE[int(outcome)]
    if turn >= rules.MAX_TURNS:
        return 0.5
    return Position(-1, [int(x) for x in levels], [int(t) for t in np.flatnonzero(dormant)], turn)


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


def shortened_problem(replay: dict) -> str | None:
    """Why `replay` cannot be analysed (None where it can): a game played to a turn limit below the
    game's own (`referee volcanoes play --max-turns`), whose positions the engine values as if the
    game went on to turn MAX_TURNS: a move three turns before a forced draw was a mistake that cost
    its player nearly all of its expected score."""
    turns = len(replay["turn_log"])
    if replay.get("reason") == "max-turns" and turns < rules.MAX_TURNS:
        return (
            f"it ended at a limit of {turns} turns (--max-turns), and the engine values every position "
            f"as if the game went on to turn {rules.MAX_TURNS}: analyse games played to the full length"
        )
    return None


def annotate(replay: dict, answers: dict[int, tuple[int, float, float]], engine: str, iterations: int) -> dict:
    """The replay with its `analysis`: for every frame, blue's expected score (`value`, the mean of
    the position's two values), the move the engine prefers for the next player's turn (`best`, a
    tile name, where a player moves next), and for a frame after a player's move the expected score
    its player lost by it (`loss`). `answers` maps each frame of `positions(replay)` to (tile, blue's
    value of the position, blue's value after the engine's move)."""
    n_frames = len(replay["turn_log"]) + 1
    here: list[float] = [0.0] * n_frames  # the position's value; a growth frame's is the next frame's
    shown: list[float] = [0.0] * n_frames
    here[-1] = shown[-1] = _FINAL.get(replay.get("winner"), 0.5)
    frames = [{} for _ in range(n_frames)]
    for frame in range(n_frames - 2, -1, -1):
        if frame in answers:
            tile, value, after_best = answers[frame]
            here[frame], shown[frame] = float(value), (float(value) + float(after_best)) / 2
            frames[frame]["best"] = NAMES[tile] if tile >= 0 else None
        else:
            here[frame], shown[frame] = here[frame + 1], shown[frame + 1]
    for frame in range(n_frames):
        frames[frame]["value"] = round(shown[frame], 4)
        actor = replay["turn_log"][frame - 1]["actor"] if frame else "start"
        if actor in ("blue", "orange") and frame - 1 in answers:
            sign = 1.0 if actor == "blue" else -1.0
            frames[frame]["loss"] = round(sign * (answers[frame - 1][2] - here[frame]), 4) + 0.0  # not -0.0
    return {**replay, "analysis": {"engine": engine, "iterations": iterations, "frames": frames}}


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
    score, the largest `per_side` of each side (all with None), in the order they were played."""
    frames = replay["analysis"]["frames"]
    found: dict[str, list[Mistake]] = {"blue": [], "orange": []}
    for frame in range(1, len(frames)):
        loss = frames[frame].get("loss")
        if loss is None or loss < threshold:
            continue
        entry, before = replay["turn_log"][frame - 1], frames[frame - 1]
        player, best = entry["actor"], before.get("best")
        value = before["value"] if player == "blue" else 1.0 - before["value"]
        found[player].append(Mistake(frame, player, entry.get("move"), best, loss, value))
    chosen = [m for side in found.values() for m in sorted(side, key=lambda m: -m.loss)[:per_side]]
    return sorted(chosen, key=lambda m: m.frame)
