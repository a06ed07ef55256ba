"""The games the arena runs, one declaration per protocol: the class of its games (a `Game`, see
`base.py`: a dataclass whose fields are its settings) and one line saying what it is. The command
line's `--protocol` choices, arena.toml's `protocol` key and stored runs all read this table; a new
protocol is its module and one line here.

`make(config)` is the one way from a configuration (arena.toml's table, the command line's options,
a stored run's) to a game: each key a setting of the protocol's class, each value checked against
the setting's declared type and range (pydantic, strictly: a string is no number, `"yes"` no
boolean), a mistake said in one line with the key's name.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import MISSING, dataclass, fields

from arena.games.base import SEATS_KEY, Game, GameError, seats_vary


@dataclass(frozen=True)
class Protocol:
    name: str  # as `--protocol` and arena.toml's `protocol` name it
    game: str  # the class of its games, "module:class" (imported when a game of it is made)
    about: str  # what it is, for `--protocol`'s help
    external: bool = True  # an external referee's (False: our own referee, in-process)


PROTOCOLS = {
    p.name: p
    for p in (
        Protocol("volcanoes", "arena.games.volcanoes.game:VolcanoesGame", "our own referee, in-process", False),
        Protocol(
            "cli", "arena.games.cli:CliGame", "(A) brutaltester's -p1 -p2 command line: the referee runs the bots"
        ),
        Protocol("sdk", "arena.games.sdk:SdkGame", "(C) CodinGame's RefereeMain: the arena runs and times the bots"),
        Protocol("relay", "arena.games.relay:RelayGame", "(D) the old ### relay: the arena runs and times the bots"),
        Protocol("json", "arena.games.json_game:JsonGame", "(B) psyleague's and CGArena's play-one-game commands"),
    )
}
EXTERNAL = tuple(name for name, p in PROTOCOLS.items() if p.external)
DEFAULT_GAME = {"protocol": "volcanoes"}


def game_class(protocol: str) -> type[Game]:
    """The class of `protocol`'s games; GameError for a protocol nobody declared."""
    if protocol not in PROTOCOLS:
        shown = "no protocol" if protocol is None else f"unknown protocol {protocol!r}"
        raise GameError(f"{shown}: a game's protocol is one of {', '.join(PROTOCOLS)}")
    module, _, name = PROTOCOLS[protocol].game.partition(":")
    return getattr(importlib.import_module(module), name)


def make(config: dict) -> Game:
    """The game a configuration describes (`Game.config()` gives it back): its protocol's class made
    from the other keys, each a field of it (`seats` written SEATS_KEY). A run stores its game's name
    beside the config: a game whose name is no setting ignores it."""
    protocol = config.get("protocol")
    kind = game_class(protocol)
    taken = {SEATS_KEY if f.name == "seats" else f.name: f for f in fields(kind)}
    settings = {key: value for key, value in config.items() if key != "protocol"}
    if "name" not in taken:
        settings.pop("name", None)
    fixed_seats = not seats_vary(kind)
    if fixed_seats and settings.get(SEATS_KEY) == kind.seats:
        settings.pop(SEATS_KEY)  # (says what it is anyway)
    unknown = sorted(set(settings) - set(taken))
    if unknown:
        seated = f"; {kind.name} is a {kind.seats}-player game" if fixed_seats and SEATS_KEY in unknown else ""
        raise GameError(
            f"the {protocol} protocol takes no setting {', '.join(unknown)} (its settings: {', '.join(taken)}{seated})"
        )
    missing = [
        key for key, f in taken.items() if key not in settings and f.default is MISSING and f.default_factory is MISSING
    ]
    if missing:
        raise GameError(f"the {protocol} protocol needs a game's {', '.join(missing)}")
    return _validated(kind, {taken[key].name: value for key, value in settings.items()})


def _validated(kind: type[Game], settings: dict) -> Game:
    """`kind(**settings)`, each value checked against its field's declared type, as JSON (a game's
    settings are stored as JSON with its run): a ValidationError becomes one line naming each key."""
    from pydantic import TypeAdapter, ValidationError  # (a tenth of a second: only when a game is made)

    try:
        text = json.dumps(settings)
    except (TypeError, ValueError) as exc:  # a TOML date, say
        raise GameError(f"a game's settings must be numbers, strings, booleans, lists and tables: {exc}") from None
    try:
        return TypeAdapter(kind).validate_json(text, strict=True)
    except ValidationError as exc:
        said = {}  # a key once: a union's members each say why they refused it, the first is enough
        for error in exc.errors():
            said.setdefault(error["loc"][:1], _said(error))
        raise GameError("; ".join(said.values())) from None


def _said(error: dict) -> str:
    """One pydantic error as a person reads it: `turn_ms = 1e+300: must be at most 86400000`."""
    key = ".".join(str(part) for part in error["loc"][:1])
    message = error["msg"].removeprefix("Value error, ")
    if error["type"] == "unexpected_keyword_argument":
        return f"{key} is no setting of this game"
    if not key:
        return message
    shown = error.get("input")
    return f"{SEATS_KEY if key == 'seats' else key} = {json.dumps(shown)}: {message[0].lower() + message[1:]}"
