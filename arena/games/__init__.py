"""The games the arena runs: one module per protocol, each making a `Game` (see `base.py`) from plain
data. `make(config)` is the one way from a stored or declared configuration to a game."""

from __future__ import annotations

import importlib

from arena.games.base import Game

# protocol -> the module whose `from_config(dict) -> Game` makes its games
PROTOCOLS = {
    "volcanoes": "arena.games.volcanoes",  # our own referee, in-process
    "cli": "arena.games.cli",  # (A) the brutaltester command line: the referee runs and times the bots
    "sdk": "arena.games.sdk",  # (C) CodinGame's RefereeMain protocol: we run and time the bots
    "relay": "arena.games.relay",  # (D) the pre-2018 ### relay: we run and time the bots
    "json": "arena.games.json_game",  # (B) psyleague's and CGArena's play-one-game commands
}
DEFAULT_GAME = {"protocol": "volcanoes"}


class GameError(ValueError):
    """A game configuration that cannot be used; the message says why."""


def make(config: dict) -> Game:
    """The game a configuration describes (`Game.config()` gives it back)."""
    protocol = config.get("protocol")
    if protocol not in PROTOCOLS:
        raise GameError(f"unknown protocol {protocol!r}: one of {', '.join(PROTOCOLS)}")
    module = importlib.import_module(PROTOCOLS[protocol])
    return module.from_config(config)
