"""Players that are sources, in any game: a bot's file or folder in a language CodinGame runs
(`src/bot.cpp`, `Player.java`, `bot/`), as it is now or at a revision of its git repository
(`src/bot.cpp@HEAD~1`), built as CodinGame builds that language (arena/builds/), or by the `build`
and `run` commands of a player declared in arena.toml (arena/players/declared.py).

A source player's version is the hash of what goes into its build (its sources, the language's
commands and flags, its compiler's version), known when the spec is resolved, `+dirty` after it
where git sees uncommitted changes to its files; what goes in is kept in the cache from then on, so
that the run plays what it named whatever is edited later. The build is made by `prepare`, before any
game's clock runs, and found made by every later run, worker and resume of the same sources; a
failed build stops the run before its first game, in one line: the compiler's first error.

`env NAME=VALUE ... SPEC` gives the bot those values in its environment (what `arena tune` varies):
the same build, played with other values.

A file that is a program as it is, an executable or a Python file (`./a.out`, `my_bot.py`), stays a
pinned file (arena/players/processes.py); `my_bot.py@HEAD~1` and a folder of Python are sources.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
import time
from dataclasses import replace
from pathlib import Path

from arena.builds import build as builds
from arena.builds.languages import SCRIPTS, by_suffix
from arena.builds.revisions import SourceError, resolve_source, split_revision
from arena.games.base import Game, Player
from arena.players.base import PlayerError, Provider, missing_sibling, whole_path
from arena.players.processes import check_runs_here
from arena.players.environment import env_split, env_values, version_with_values, with_env

KIND = "source"


class Sources(Provider):
    """A bot's file or folder in a language CodinGame runs, at any revision of its repository."""

    kinds = (KIND,)

    def __init__(self) -> None:
        self._plans: dict[Path, builds.Plan] = {}  # the builds this process named, by folder (for their messages)

    def resolve(self, label: str | None, spec: str, game: Game, cache: Path) -> Player | None:
        assignments, words = _env_and_rest(spec)
        named = whole_path(spec)
        if named is not None:  # (a path with spaces, quoted or not)
            assignments, words = {}, [named]
        if len(words) != 1:
            return None
        path, revision = split_revision(words[0])
        if revision is None and not _is_sources(Path(path)):
            return None
        return self.player(label, spec, words[0], assignments, cache)

    def player(
        self,
        label: str | None,
        spec: str,
        source: str,
        assignments: dict[str, str],
        cache: Path,
        *,
        build: str | None = None,
        run: str | None = None,
        cwd: Path | None = None,
        name: str | None = None,
    ) -> Player:
        """The player of sources `source` (`PATH` or `PATH@REV`, from `cwd`), built as its language
        is or by `build` and `run`, played with `assignments` in its environment; `spec` is what the
        user wrote, `name` what it is called by default (the file's or folder's name)."""
        try:
            plan = builds.plan(resolve_source(source, cache, cwd), build_command=build, run_command=run, cache=cache)
        except SourceError as exc:
            raise PlayerError(f"player {name}: {exc}" if name else str(exc)) from None
        if name:  # a declared player's build is named as the user named it
            plan = builds.Plan(name, plan.language, plan.command, plan.version, plan.folder, plan.revision, plan.place)
        self._plans[plan.folder] = plan
        path, revision = split_revision(source, cwd)
        default = name.partition("@")[0] if name else _name_of(Path(os.path.abspath(Path(cwd or ".") / path)))
        env = ["env", *(f"{key}={value}" for key, value in assignments.items())] if assignments else []
        target = shlex.join(env) + " " + plan.command if env else plan.command
        version = version_with_values(plan.version, assignments)
        return Player(
            label or (f"{default}@{revision}" if revision else default), spec, KIND, target, version, str(plan.cwd)
        )

    def known(self) -> str:
        return "a bot's source file or folder (PATH or PATH@REVISION)"

    def prepare(self, players: list[Player], game: Game, log) -> None:
        """Build each player's sources (or find them built), and check that this machine runs the
        build (one made elsewhere travels to a cluster's machines as it is), before any game's clock runs."""
        for player in players:
            plan = self._plan_of(player)
            started = time.perf_counter()
            try:
                found = builds.make(plan, say=lambda text: print(text, end=" ", file=log, flush=True))
            except builds.BuildError:
                print(file=log, flush=True)  # (the compiler's error on a line of its own, not after "building ...")
                raise
            if not found:
                print(f"built in {time.perf_counter() - started:.1f} s", file=log, flush=True)
            try:
                check_runs_here(player)
            except PlayerError as exc:
                raise PlayerError(f"{exc}{_alone(player, str(exc)) or _class_path(plan, player, str(exc))}") from None

    def command(self, player: Player) -> tuple[str, str | None]:
        """Its command line and folder, its build made first where it is not (a bench or a check
        runs a player's command without preparing it)."""
        self.prepare([player], None, sys.stderr)
        return player.target, player.cwd

    def changed_since(self, player: Player) -> str | None:
        return builds.changed(Path(player.cwd).parent)

    def gone(self, player: Player) -> bool:
        """Whether its build and what went into it are both gone from the cache (deleted between runs)."""
        return builds.gone(Path(player.cwd).parent)

    def cache_of(self, player: Player) -> Path:
        """The cache its build is named in."""
        return builds.cache_of(Path(player.cwd).parent)

    def travels(self, player: Player) -> list[str]:
        """Its build's folder, made here before the run's first game: a node of the same platform
        runs it as it is (its `prepare` finds it made)."""
        return [str(Path(player.cwd).parent)]

    def values(self, player: Player) -> dict[str, float]:
        """Its values: those of its spec's `env` and of its declaration, as its command has them."""
        return env_values(player.target)

    def varied(self, player: Player, values: dict) -> Player:
        """The same build, other values: what the run kept, whatever was edited since."""
        target = with_env(player.target, values)
        assignments, _ = env_split(target)
        spec = self.with_values(player.spec, values)
        return replace(player, spec=spec, target=target, version=version_with_values(player.version, assignments))

    def _plan_of(self, player: Player) -> builds.Plan:
        """The build `player` names: as this process named it, or as its run stored it."""
        folder = Path(player.cwd).parent
        known = self._plans.get(folder)
        if known is not None:
            return known
        return builds.Plan(player.spec, folder.name.split("-")[0], player.target, player.version, folder, None)


def _alone(player: Player, why: str) -> str:
    """Where a file built alone misses a module that lies beside it (a bot of several files), what to
    give instead; else ""."""
    source = whole_path(player.spec) or player.spec
    module = missing_sibling(source, why)
    if module is None or Path(split_revision(source)[0]).is_dir():
        return ""
    path, revision = split_revision(source)
    folder = f"{Path(path).parent}/" + (f"@{revision}" if revision else "")
    return (
        f" ({path} is built alone, as CodinGame takes one file, and {module} is beside it: for a bot of "
        f"several files give its folder, {folder}, or bundle it into one file: arena bundle {path} -o FILE)"
    )


_CLASS_NOT_FOUND = re.compile(r"ClassNotFoundException: ([\w.$]+)|Could not find or load main class ([\w.$]+)")
_CLASS_PATH_OPTIONS = ("-cp", "-classpath", "--class-path")


def _class_path(plan: builds.Plan, player: Player, why: str) -> str:
    """Where the arena built Java and a declared `run` starts java without a class path, and the
    class is not found, what to write instead; else "". (The classes are in ../out, beside the copy
    it runs from: `run = "java Player"` found nothing, with no hint of where they were.)"""
    found = _CLASS_NOT_FOUND.search(why)
    words = env_split(player.target)[1]
    if (
        plan.language != "java"
        or found is None
        or not words
        or Path(words[0]).name != "java"
        or set(words) & set(_CLASS_PATH_OPTIONS)
    ):
        return ""
    shown = shlex.join(["java", "-cp", "../out", *words[1:]])
    where = "in the folders of its class path, and the build's classes are in ../out"
    return f' (java finds {found[1] or found[2]} {where}: run = "{shown}")'


def _env_and_rest(spec: str) -> tuple[dict[str, str], list[str]]:
    """(`env NAME=VALUE` assignments, the other words) of a spec, or ({}, []) where it is no
    command line (an unbalanced quote)."""
    try:
        return env_split(spec)
    except ValueError:
        return {}, []


def _is_sources(path: Path) -> bool:
    """Whether an existing `path` (in the working tree) is a bot's sources: a folder, or a file in a
    language CodinGame runs that is not a program as it is (a Python file, an executable script)."""
    if path.is_dir():
        return True
    if not path.is_file():
        return False
    language = by_suffix(path)
    if language is None or language.key == "python":
        return False
    return language.key not in SCRIPTS or not os.access(path, os.X_OK)


def _name_of(path: Path) -> str:
    """A source's default label: its file's name without the suffix of its language, or its folder's."""
    return path.stem if by_suffix(path) is not None else path.name
