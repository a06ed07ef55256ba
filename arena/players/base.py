"""What a player spec becomes, whatever the game: the interface every kind of player implements.

A player spec is what the user wrote, optionally labelled as `LABEL=SPEC`. A `Provider` knows some
specs (a file, a command line, a game's own registered bots...) and makes each into a `Player`
(`arena.games.base.Player`, stored with the run): its label, its kind, what runs (`target`, `cwd`)
and its version, recorded with every game so that a run resumes only while its players are
unchanged. Each kind of player has one provider that owns its life after that: getting it ready
before any clock runs, saying whether it changed since its run began, running it as a process, and
tuning its parameters.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shlex
from abc import ABC, abstractmethod
from pathlib import Path

from arena.builds.revisions import split_revision
from arena.errors import UsageError
from arena.games.base import Game, Player
from arena.players.environment import env_values, with_env

_LABEL = re.compile(r"^([A-Za-z0-9_.+-]+)=(.+)$")


class PlayerError(UsageError, ValueError):
    """A player spec that cannot be resolved, or a player that cannot play; the message says why."""


class UnknownPlayer(PlayerError):
    """A spec that no provider takes as its own."""


def split_label(text: str) -> tuple[str | None, str]:
    """(`LABEL`, `SPEC`) of `LABEL=SPEC`, or (None, text)."""
    match = _LABEL.match(text)
    return (match.group(1), match.group(2)) if match else (None, text)


def whole_path(spec: str) -> str | None:
    """The file or folder a spec is, whole (`PATH` or `PATH@REV`, PATH existing): as written, so that
    a path with spaces needs no quotes (`my bots/v2.cpp`), or as the one word of a quoted command
    line (`'my bots/v2.cpp'`). None for a command line of several words, or a path that is nowhere."""
    try:
        words = shlex.split(spec)
    except ValueError:  # an unbalanced quote: no command line, perhaps a path
        words = []
    candidates = [spec, *words] if len(words) == 1 else [spec]
    for text in candidates:
        if Path(split_revision(text)[0]).exists():
            return text
    return None


_MISSING_MODULE = re.compile(r"No module named '([\w.]+)'")


def missing_sibling(path: str, why: str) -> str | None:
    """The module that a failure (`No module named 'helper'`) says is missing where it lies beside
    file `path` (`PATH` or `PATH@REV`, in the working tree): a bot of several files run as one file."""
    missing = _MISSING_MODULE.search(why)
    if not missing:
        return None
    module = missing.group(1).split(".")[0]
    beside = Path(split_revision(path)[0]).parent
    return module if (beside / f"{module}.py").is_file() or (beside / module).is_dir() else None


def hash_bytes(*chunks: bytes) -> str:
    digest = hashlib.sha256()
    for chunk in chunks:
        digest.update(chunk)
    return digest.hexdigest()[:12]


def pin_file(copy: Path, content: bytes, mode: int = 0o644) -> Path:
    """`content` kept at `copy` in the cache (written once, atomically: runs may pin it at once)."""
    if not copy.is_file():
        partial = copy.with_name(f".{copy.name}.part{os.getpid()}")
        try:
            copy.parent.mkdir(parents=True, exist_ok=True)
            partial.write_bytes(content)
            partial.chmod(mode & 0o777 | 0o400)
            partial.replace(copy)
        except OSError as exc:
            with contextlib.suppress(OSError):  # (a full disk leaves part of it written)
                partial.unlink()
            raise PlayerError(f"cannot keep a copy of a player in {copy.parent}: {exc.strerror or exc}") from None
    return copy


class Provider(ABC):
    """One way of turning specs into players (`resolve`), and the life of the players of its `kinds`
    after that. The defaults suit a player run as a process and tuned through its environment."""

    kinds: tuple[str, ...] = ()  # the `Player.kind`s whose life this provider owns

    def serves(self, game: Game) -> bool:
        """Whether this provider's specs mean anything in `game` (a game's own bots do in it alone)."""
        return True

    @abstractmethod
    def resolve(self, label: str | None, spec: str, game: Game, cache: Path) -> Player | None:
        """The player `spec` names, or None when the spec is none of this provider's; PlayerError
        when it is one of its specs but cannot be made. `cache`: the arena's cache
        (arena/builds/cache.py), where what it pins or builds is kept."""

    def known(self) -> str:
        """The specs it knows, for the message about a spec nobody knows ("" to say nothing)."""
        return ""

    def check(self, players: list[Player], game: Game) -> None:
        """PlayerError, in one line, for a player this machine cannot run, where that is quick to
        know: before any player is prepared, so that a mistake is told before a long warm-up or
        build of another player (what can be checked only once built is checked by `prepare`)."""
        return None

    def prepare(self, players: list[Player], game: Game, log) -> None:
        """Get its players ready before any game's clock runs (compile, warm up), saying so on `log`;
        PlayerError for one that cannot play."""
        return None

    def changed_since(self, player: Player) -> str | None:
        """Why `player` would not play as it did when its run began (None if it would)."""
        return None

    def command(self, player: Player) -> tuple[str, str | None]:
        """`player` as a process: its command line and working folder."""
        return player.target, player.cwd

    def travels(self, player: Player) -> list[str]:
        """The files and folders of this machine that `player` runs from (a pinned copy, a tree, a
        build's folder, a command's folder), absolute, each as its target and cwd name it: what
        travels with a run to machines that have none of them (a cluster's nodes), where each path
        is rewritten to that machine's copy. [] for a player that needs none (the game's own bots,
        which come with the project's code); PlayerError, before any game, for one that would not
        play there with them (a command's file that needs the files beside it)."""
        return []

    def default_lineup(self, game: Game) -> list[str]:
        """The specs of a tournament of `game` given no players ([] for none)."""
        return []

    # Tuning (`arena tune`): a player declares its parameters, or takes any through its environment.
    def parameters(self, player: Player) -> dict | None:
        """name -> declared parameter (`.low`, `.high`, `.default`, `.type`, `.parse(text)`), or None
        where the player takes any parameter through its environment (`env NAME=VALUE CMD`)."""
        return None

    def values(self, player: Player) -> dict[str, float]:
        """The values `player` plays with (its options, or its command's `env` assignments)."""
        return env_values(player.spec)

    def with_values(self, spec: str, values: dict) -> str:
        """`spec` playing with `values` for these parameters, its others kept."""
        return with_env(spec, values)

    def varied(self, player: Player, values: dict) -> Player | None:
        """`player` itself playing with `values` (a tune's iteration), made without resolving its
        spec again; None where the spec with them (`with_values`) is to be resolved instead."""
        return None
