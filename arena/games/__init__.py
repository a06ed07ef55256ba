"""The games the arena runs: one module per protocol, each with the dataclass of its games (a `Game`:
see `base.py`), plain data. `make(config)` is the one way from a stored or declared configuration
to a game."""

from __future__ import annotations

import importlib
from dataclasses import MISSING, fields

from arena.errors import UsageError
from arena.games.base import SEATS_KEY, Game

# protocol -> the dataclass of its games, "module:class"
PROTOCOLS = {
    "volcanoes": "arena.games.volcanoes.game:VolcanoesGame",  # our own referee, in-process
    "cli": "arena.games.cli:CliGame",  # (A) the brutaltester command line: the referee runs and times the bots
    "sdk": "arena.games.sdk:SdkGame",  # (C) CodinGame's RefereeMain protocol: we run and time the bots
    "relay": "arena.games.relay:RelayGame",  # (D) the pre-2018 ### relay: we run and time the bots
    "json": "arena.games.json_game:JsonGame",  # (B) psyleague's and CGArena's play-one-game commands
}
DEFAULT_GAME = {"protocol": "volcanoes"}


class GameError(UsageError, ValueError):
    """A game configuration that cannot be used; the message says why."""


def make(config: dict) -> Game:
    """The game a configuration describes (`Game.config()` gives it back): its protocol's class made
    from the other keys, each a field of it (`seats` written SEATS_KEY). A run stores its game's name
    beside the config: a game whose name is no setting ignores it."""
    protocol = config.get("protocol")
    if protocol not in PROTOCOLS:
        raise GameError(f"unknown protocol {protocol!r}: one of {', '.join(PROTOCOLS)}")
    module, _, name = PROTOCOLS[protocol].partition(":")
    kind = getattr(importlib.import_module(module), name)
    taken = {SEATS_KEY if f.name == "seats" else f.name: f for f in fields(kind)}
    settings = {key: value for key, value in config.items() if key != "protocol"}
    if "name" not in taken:
        settings.pop("name", None)
    unknown = sorted(set(settings) - set(taken))
    if unknown:
        raise GameError(
            f"the {protocol} protocol takes no setting {', '.join(unknown)} (its settings: {', '.join(taken)})"
        )
    missing = [
        key for key, f in taken.items() if key not in settings and f.default is MISSING and f.default_factory is MISSING
    ]
    if missing:
        raise GameError(f"the {protocol} protocol needs a game's {', '.join(missing)}")
    try:
        return kind(**{taken[key].name: value for key, value in settings.items()})
    except TypeError as exc:  # a setting of the wrong type
        raise GameError(f"a game's settings for the {protocol} protocol: {exc}") from None
