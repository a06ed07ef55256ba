"""Replays: rebuilt from a game's move list when only the moves were kept (the arena's records)."""
from __future__ import annotations

from . import rules
from .board import INDEX, N_TILES, NAMES


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
        log.append({
            "turn": turn,
            "actor": {rules.BLUE: "blue", rules.ORANGE: "orange", rules.GROWTH: "growth"}[who],
            "move": None if tile < 0 else move,
            "levels": [int(x) for x in levels],
            "dormant": [NAMES[t] for t in range(N_TILES) if dormant[t]],
        })
    return {"game": "volcanoes", **fields, "moves": " ".join(moves), "turn_log": log}
