"""Volcanoes, refereed by our own exact referee in the arena's processes (`game.py`), with the
project's bots as its own players (`players.py`) and `arena analyse` (`analyse.py`)."""

from __future__ import annotations


def from_config(config: dict):
    from arena.games.volcanoes.game import VolcanoesGame

    known = {"protocol", "name", "turn_ms", "first_turn_ms"}
    unknown = sorted(set(config) - known)
    if unknown:
        from arena.games import GameError

        raise GameError(f"volcanoes takes no option {', '.join(unknown)} (its options: turn_ms, first_turn_ms)")
    return VolcanoesGame(**{k: v for k, v in config.items() if k not in ("protocol", "name")})
