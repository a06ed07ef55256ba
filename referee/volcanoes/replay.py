"""Replays: rebuilt from a game's move list when only the moves were kept (the arena's records)."""

from __future__ import annotations

from . import rules
from .board import INDEX, N_TILES, NAMES


ACTORS = ("blue", "orange", "growth")


def replay_from_moves(moves: list[str], **fields) -> dict:
    """A replay (as `Result.replay` writes it, less the lines, times and stderr) from the moves:
    tile names and GROW, in order. `fields` (seed, players, winner, reason, ...) are copied in."""
    levels, dormant = rules.new_state()
    log = []
    for turn, move in enumerate(moves, 1):
        who = int(rules.actor(turn))
        if (who == rules.GROWTH) != (move == "GROW"):
            raise ValueError(f"turn {turn}: {move} does not fit the turn order")
        tile = -1 if move == "GROW" else INDEX[move]
        if tile >= 0 and not rules.is_legal(levels, dormant, who, tile):
            raise ValueError(f"turn {turn}: {move} is not a legal move")
        rules.take_turn(levels, dormant, turn, tile)
        log.append(
            {
                "turn": turn,
                "actor": {rules.BLUE: "blue", rules.ORANGE: "orange", rules.GROWTH: "growth"}[who],
                "move": None if tile < 0 else move,
                "levels": [int(x) for x in levels],
                "dormant": [NAMES[t] for t in range(N_TILES) if dormant[t]],
            }
        )
    return {"game": "volcanoes", **fields, "moves": " ".join(moves), "turn_log": log}


def replay_problem(replay) -> str | None:
    """What makes `replay` unfit for the page (None when it is fit): the fields the page reads."""
    if not isinstance(replay, dict) or not isinstance(replay.get("turn_log"), list):
        return "it has no list of turns (turn_log)"
    if not isinstance(replay.get("players", {}), dict):
        return "its players are not an object"
    for number, entry in enumerate(replay["turn_log"], 1):
        if not isinstance(entry, dict) or not {"turn", "actor"} <= entry.keys():
            return f"entry {number} of turn_log is not a turn (with turn and actor)"
        if entry["actor"] not in ACTORS:
            return f"entry {number} of turn_log: its actor is not one of {', '.join(ACTORS)}"
        levels, dormant = entry.get("levels"), entry.get("dormant", [])
        if levels and not (
            isinstance(levels, list)
            and len(levels) == N_TILES
            and all(type(x) is int and abs(x) <= rules.MAX_LEVEL for x in levels)
        ):
            return f"turn {entry['turn']}: its levels are not {N_TILES} levels from -4 to 4"
        if not (isinstance(dormant, list) and all(name in INDEX for name in dormant)):
            return f"turn {entry['turn']}: its dormant volcanoes are not tile names"
    if "analysis" in replay:
        return _analysis_problem(replay["analysis"], len(replay["turn_log"]) + 1)
    return None


def _analysis_problem(analysis, n_frames: int) -> str | None:
    """What makes an analysis (`referee.volcanoes.analysis.annotate`) unfit for the page."""
    frames = analysis.get("frames") if isinstance(analysis, dict) else None
    if not (isinstance(frames, list) and len(frames) == n_frames):
        return f"its analysis does not have one entry for each of its {n_frames} positions"
    for number, frame in enumerate(frames):
        if not isinstance(frame, dict):
            return f"position {number} of its analysis is not an object"
        value, best, loss = frame.get("value"), frame.get("best"), frame.get("loss", 0.0)
        if not (_is_number(value) and 0 <= value <= 1 and _is_number(loss) and (best is None or best in INDEX)):
            return f"position {number} of its analysis is not a value from 0 to 1, a loss and a tile name or null"
    return None


def _is_number(x) -> bool:
    return type(x) in (int, float) and x == x  # not NaN
