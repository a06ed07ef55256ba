"""Replays: rebuilt from a game's move list when only the moves were kept (the arena's records), and
read from a file with every field the page and the commands use checked (type and range)."""

from __future__ import annotations

import json
import math
from pathlib import Path

from ..platform.errors import UserError
from ..platform.files import read_text
from . import rules
from .board import INDEX, N_TILES, NAMES

ACTORS = ("blue", "orange", "growth")
WINNERS = ("blue", "orange", "draw")


def replay_from_moves(moves: list[str], **fields) -> dict:
    """A replay (as `Result.replay` writes it, less the lines, times and stderr) from the moves:
    tile names and GROW, in order. `fields` (seed, players, winner, reason, ...) are copied in."""
    levels, dormant = rules.new_state()
    log = []
    for turn, move in enumerate(moves, 1):
        who = int(rules.actor(turn))
        if (who == rules.GROWTH) != (move == "GROW"):
            raise ValueError(f"turn {turn}: {move!r} does not fit the turn order")
        if move != "GROW" and move not in INDEX:
            raise ValueError(f"turn {turn}: {move!r} is not a tile name")
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


REPLAY_KEYS = ("turn_log",)  # what every replay file holds (an earlier game's may be written over)


def read_replay(path: str | Path) -> dict:
    """The replay in file `path`, fit for the page (`replay_problem`); UserError saying in one line
    what is wrong with a file that is not one: unreadable, not JSON (NaN, Infinity and numbers
    beyond a float's range are not), nested too deep, or its fields of the wrong type or range."""
    text = read_text(path, "replay")
    try:
        replay = json.loads(text, parse_constant=_not_json, parse_float=_finite)
    except RecursionError:
        raise UserError(f"{path} is not a replay file (nested too deep)") from None
    except ValueError as exc:
        raise UserError(f"{path} is not a replay file (not JSON: {exc})") from None
    problem = replay_problem(replay)
    if problem:
        raise UserError(f"{path} is not a Volcanoes replay: {problem}")
    return replay


def _not_json(word: str):
    raise ValueError(f"{word} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:40]} is beyond a float's range")
    return value


def replay_problem(replay) -> str | None:
    """What makes `replay` unfit for the page (None when it is fit): the type and range of every
    field the page or a command reads."""
    if not isinstance(replay, dict) or not isinstance(replay.get("turn_log"), list):
        return "it has no list of turns (turn_log)"
    if replay.get("game", "volcanoes") != "volcanoes":  # (an old replay may name none)
        return f"it is a replay of {str(replay['game'])[:40]!r}, not of volcanoes"
    players = replay.get("players", {})
    if not isinstance(players, dict) or not all(isinstance(name, str) for name in players.values()):
        return "its players are not an object of names"
    for key in ("seed", "turns"):
        if replay.get(key) is not None and not _is_int(replay[key]):
            return f"its {key} is not a whole number"
    if replay.get("winner") not in (None, *WINNERS):
        return f"its winner is not one of {', '.join(WINNERS)}"
    for key in ("reason", "detail", "moves"):
        if not isinstance(replay.get(key) or "", str):
            return f"its {key} is not text"
    previous = 0
    for number, entry in enumerate(replay["turn_log"], 1):
        problem = _turn_problem(entry, number, previous)
        if problem:
            return problem
        previous = entry["turn"]
    if "analysis" in replay:
        return _analysis_problem(replay["analysis"], replay["turn_log"])
    return None


def _turn_problem(entry, number: int, previous: int) -> str | None:
    if not isinstance(entry, dict) or not {"turn", "actor"} <= entry.keys():
        return f"entry {number} of turn_log is not a turn (with turn and actor)"
    if not (_is_int(entry["turn"]) and entry["turn"] > previous):
        return f"entry {number} of turn_log: its turn is not a whole number above the previous entry's"
    where = f"turn {entry['turn']}"
    if entry["actor"] not in ACTORS:
        return f"{where}: its actor is not one of {', '.join(ACTORS)}"
    move = entry.get("move")
    if move is not None and (entry["actor"] == "growth" or move not in INDEX):
        return f"{where}: its move is not a tile name (nor null)"
    if not all(isinstance(entry.get(key) or "", str) for key in ("received", "stderr")):
        return f"{where}: its received answer and stderr are not text"
    sent = entry.get("sent", [])
    if not (isinstance(sent, list) and all(isinstance(line, str) for line in sent)):
        return f"{where}: its lines sent are not a list of text"
    time_ms = entry.get("time_ms")
    if time_ms is not None and not (_is_number(time_ms) and time_ms >= 0):
        return f"{where}: its time is not a number of milliseconds"
    levels, dormant = entry.get("levels"), entry.get("dormant", [])
    if levels and not (
        isinstance(levels, list)
        and len(levels) == N_TILES
        and all(_is_int(x) and abs(x) <= rules.MAX_LEVEL for x in levels)
    ):
        return f"{where}: its levels are not {N_TILES} levels from -4 to 4"
    if not (isinstance(dormant, list) and all(isinstance(name, str) and name in INDEX for name in dormant)):
        return f"{where}: its dormant volcanoes are not tile names"
    return None


def _analysis_problem(analysis, turn_log: list) -> str | None:
    """What makes an analysis (`referee.volcanoes.analysis.annotate`) unfit for the page: a value
    from 0 to 1 for each position; a loss only after a player's move, the engine's move only before
    one."""
    n_frames = len(turn_log) + 1
    frames = analysis.get("frames") if isinstance(analysis, dict) else None
    if not (isinstance(frames, list) and len(frames) == n_frames):
        return f"its analysis does not have one entry for each of its {n_frames} positions"
    if not isinstance(analysis.get("engine", ""), str):
        return "its analysis's engine is not a name"
    for number, frame in enumerate(frames):
        if not isinstance(frame, dict):
            return f"position {number} of its analysis is not an object"
        value, best, loss = frame.get("value"), frame.get("best"), frame.get("loss", 0.0)
        if not (_is_number(value) and 0 <= value <= 1 and _is_number(loss) and -1 <= loss <= 1):
            return f"position {number} of its analysis is not a value from 0 to 1, a loss and a tile name or null"
        if not (best is None or (isinstance(best, str) and best in INDEX)):
            return f"position {number} of its analysis is not a value from 0 to 1, a loss and a tile name or null"
        moved = turn_log[number - 1]["actor"] if number else None
        if "loss" in frame and moved not in ("blue", "orange"):
            return f"position {number} of its analysis has a loss, but no player moved to it"
        mover = turn_log[number]["actor"] if number < len(turn_log) else None
        if best is not None and mover not in ("blue", "orange"):
            return f"position {number} of its analysis has the engine's move, but no player moves from it"
    return None


def _is_int(x) -> bool:
    return type(x) is int


def _is_number(x) -> bool:
    return type(x) in (int, float) and math.isfinite(x)
