"""Players declared in arena.toml, played by their name (`arena match mybot other --game mygame`), at
any revision too (`mybot@HEAD~1`: its sources at that commit, built the same way):

    [players.mybot]
    source = "bot/"          # its file or folder, from arena.toml's folder (PATH@REV: at a revision)
    build = "make bot"       # how to build it, in a copy of its sources (default: as CodinGame builds its language)
    run = "./bot"            # what runs it, from that copy (needed with `build`; default: the language's)
    env = { DEPTH = 4 }      # its environment: parameters, which `arena tune` may vary

`run` is a command line split as a shell splits it, run without a shell. Each key is checked as a
game's settings are (pydantic, strictly: a number is no command), a mistake said in one line with its
key. The file is the games' (`--config FILE`, else ./arena.toml).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from pathlib import Path

from arena.builds.revisions import split_revision
from arena.games.base import Player
from arena.games.config import config_path, read_config
from arena.players.base import PlayerError
from arena.players.environment import env_split
from arena.players.sources import Sources


@dataclass(frozen=True)
class Declared:
    """A `[players.NAME]` table."""

    source: str
    build: str | None = None
    run: str | None = None
    env: dict[str, str | int | float] = field(default_factory=dict)


def declared_players(path: Path) -> dict[str, dict]:
    """The `[players.NAME]` tables of a config file, unchecked ({} if there is no such file)."""
    tables = read_config(path).get("players", {})
    if not isinstance(tables, dict) or not all(isinstance(v, dict) for v in tables.values()):
        raise PlayerError(f"{path}: [players.NAME] tables declare players, one table a player")
    return tables


def resolve(label: str | None, spec: str, sources: Sources, cache: Path, config: str | None) -> Player | None:
    """The player `spec` names when it is a declared player's name (`NAME`, `NAME@REV`, with an
    `env NAME=VALUE` prefix or not), else None."""
    try:
        assignments, words = env_split(spec)
    except ValueError:
        return None
    if len(words) != 1:
        return None
    path = config_path(config)
    name, at, revision = words[0].partition("@")
    tables = declared_players(path) if path.is_file() else {}
    if name not in tables:
        return None
    declared = checked(name, tables[name], path)
    source = declared.source
    if at:
        if split_revision(source, path.resolve().parent)[1] is not None:
            raise PlayerError(f"player {words[0]}: its source {source!r} in {path} is already at a revision")
        source = f"{source}@{revision}"
    values = {key: str(value) for key, value in declared.env.items()} | assignments
    return sources.player(
        label,
        spec,
        source,
        values,
        cache,
        build=declared.build,
        run=declared.run,
        cwd=path.resolve().parent,
        name=words[0],
    )


def checked(name: str, table: dict, path: Path) -> Declared:
    """`[players.NAME]` as a Declared, each key checked against its type; PlayerError naming the key."""
    from pydantic import TypeAdapter, ValidationError  # (a tenth of a second: only where a player is declared)

    where = f"{path}: [players.{name}]"
    unknown = sorted(set(table) - {f.name for f in fields(Declared)})
    if unknown:
        raise PlayerError(f"{where} has no key {', '.join(unknown)} (its keys: source, build, run, env)")
    try:
        text = json.dumps(table)
    except (TypeError, ValueError) as exc:  # a TOML date, say
        raise PlayerError(f"{where}: {exc}") from None
    try:
        declared = TypeAdapter(Declared).validate_json(text, strict=True)
    except ValidationError as exc:
        error = exc.errors()[0]
        path, value = [], table  # the keys the error names in the table (pydantic adds a union's member)
        for part in error["loc"]:
            if not isinstance(value, dict) or part not in value:
                break
            path, value = [*path, str(part)], value[part]
        said = error["msg"][0].lower() + error["msg"][1:]
        if len(path) < len(error["loc"]) and error["type"] != "missing":
            said = "input should be a string or a number"  # each member of a union refused it
        shown = f" = {json.dumps(value)}" if error["type"] != "missing" else ""
        key = ".".join(path) if error["type"] != "missing" else ".".join(map(str, error["loc"]))
        raise PlayerError(f"{where} {key}{shown}: {said}") from None
    if declared.build and not declared.run:
        raise PlayerError(f"{where}: a build command needs its run command (run = ...)")
    bad = [key for key in declared.env if not key.isidentifier()]
    if bad:
        raise PlayerError(f"{where} env: {bad[0]!r} is no environment variable's name (letters, digits, _)")
    return declared
