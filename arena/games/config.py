"""Which game a command runs: Volcanoes by default, a game declared in `arena.toml` (`--game NAME`),
or an external referee given inline (`--referee CMD --protocol P ...`).

    # arena.toml, in the folder the command runs in (or --config FILE)
    [games.uttt]
    protocol = "cli"                      # cli | sdk | relay | json (see arena/games/protocols.py)
    command = "java -jar uttt-referee.jar"
    players = 2
    seed_flag = "-d seed={seed}"

Every key of a game's table is an option of its protocol's module, as on the command line with
dashes turned to underscores (`--seed-flag` is `seed_flag`); a table's name is the game's name.
The same file declares players (`[players.NAME]`: arena/players/declared.py).
"""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path

from referee.platform.files import not_utf8

from arena.games.base import Game, GameError
from arena.games.protocols import DEFAULT_GAME, EXTERNAL, make

CONFIG_FILE = "arena.toml"
CONFIG_BYTES = 1 << 20


def config_path(given: str | None) -> Path:
    """The config file a command reads: the one `--config` gives, which must be there (a name
    mistyped was said to declare no game), else ./arena.toml, which need not."""
    if given is not None and not Path(given).exists():
        raise GameError(f"--config {given}: no such file")
    return Path(given or CONFIG_FILE)


def read_config(path: Path) -> dict:
    """The tables of a config file ({} if there is no such file); GameError if it cannot be read. Only
    a regular file is read, and one of CONFIG_BYTES at most (a FIFO would hang the command, /dev/zero
    fill memory)."""
    try:
        found = path.stat()
        if not stat.S_ISREG(found.st_mode):
            raise GameError(f"{path} is not a file (a config file is a regular file)")
        if found.st_size > CONFIG_BYTES:
            raise GameError(f"{path} is {found.st_size:,} bytes: not a config file (at most {CONFIG_BYTES:,})")
        text = path.read_text(encoding="utf-8-sig")  # (a BOM, as Windows editors write, is no TOML)
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise GameError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise GameError(not_utf8(path, exc)) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise GameError(f"{path} is not valid TOML: {exc}") from None


def declared_games(path: Path) -> dict[str, dict]:
    """The `[games.NAME]` tables of a config file ({} if there is no such file)."""
    games = read_config(path).get("games", {})
    if not isinstance(games, dict) or not all(isinstance(v, dict) for v in games.values()):
        raise GameError(f"{path}: [games.NAME] tables declare games, one table a game")
    return games


def game_config(name: str | None, referee: str | None, options: dict, config_file: str | None) -> dict:
    """The configuration of the game a command names: `name` declared in the config file, the
    inline `referee`, or Volcanoes; `options` (the command line's game options by their keys in a
    game's table: protocol, players, seed_flag, league, turn_ms, first_turn_ms, viewer; None where
    not given) override it."""
    given = {k: v for k, v in options.items() if v is not None}
    if name and referee:
        raise GameError("give the game by --game NAME or by --referee CMD, not both")
    if referee:
        if "protocol" not in given:
            raise GameError(f"--referee needs --protocol: one of {', '.join(EXTERNAL)}")
        return _where({"name": f"{given['protocol']} game", "command": referee, **given})
    if name and name != "volcanoes":
        path = config_path(config_file)
        games = declared_games(path)
        if name not in games:
            where = f"{path} declares {', '.join(games)}" if games else f"{path} declares no game"
            raise GameError(f"no game {name!r}: {where} (a [games.{name}] table with its protocol and command)")
        config = {**games[name], "name": name, **given}
        if isinstance(config.get("cwd"), str) and not os.path.isabs(config["cwd"]):  # relative to its file
            config["cwd"] = str(path.resolve().parent / config["cwd"])
        return _where({**config, "cwd": config.get("cwd") or str(path.resolve().parent)})
    if "protocol" in given and given["protocol"] != "volcanoes":
        raise GameError("--protocol goes with --referee CMD (or a game declared in arena.toml)")
    return {**DEFAULT_GAME, **given}  # (make refuses what Volcanoes takes not: --players 3 played 2, unsaid)


def _where(config: dict) -> dict:
    """An external referee runs where the command was given (its command may name files relative to
    it): the folder is written into the game's configuration, for workers, Ray and resumed runs."""
    if config.get("protocol") != "volcanoes" and not config.get("cwd"):
        config = {**config, "cwd": os.getcwd()}
    return config


def chosen_game(name: str | None, referee: str | None, options: dict, config_file: str | None) -> Game:
    """The game a command names (see `game_config`), made and checked."""
    return make(game_config(name, referee, options, config_file))
