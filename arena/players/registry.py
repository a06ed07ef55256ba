"""The one way from what the user wrote to a `Player`, and back to the provider that owns it.

Every game's players are files and command lines (arena/players/processes.py), players pinned at
a git revision (arena/players/git.py), and sources built as CodinGame builds them, at any revision
(arena/players/sources.py), declared by name in arena.toml or not (arena/players/declared.py); a game
may have bots of its own too, played its own way (Volcanoes' registered bots, in the worker's
process: arena/players/volcanoes.py). A spec is a declared player's name first, else it is tried on
the game's own providers, then on the common ones, in order; a player's kind names the provider that
owns its life after that (preparing it, saying whether it changed, tuning it).

A game's own providers are named here by module, and imported only for that game: the arena imports
no engine (numba) for a game that does not use one.
"""

from __future__ import annotations

import importlib
import sys
from dataclasses import replace
from functools import cache
from pathlib import Path

from arena.builds.build import DIRTY
from arena.builds.cache import cache_root
from arena.games.base import Game, Player
from arena.games.config import CONFIG_FILE
from arena.players.base import PlayerError, Provider, UnknownPlayer, split_label, whole_path
from arena.players import declared
from arena.players.environment import starts_with_assignments
from arena.players.git import GitTrees
from arena.players.processes import Commands, Files, program_missing
from arena.players.sources import Sources

# A game's own providers, by the game's protocol: "module:class".
GAME_PROVIDERS = {"volcanoes": ("arena.players.volcanoes:OwnBots",)}
SOURCES = Sources()
# Every game's, in the order a spec is tried: sources before files (a non-executable bot.cpp is
# sources; an executable or a .py file is a pinned file), files before commands.
COMMON = (GitTrees(), SOURCES, Files(), Commands())


@cache
def _load(path: str) -> Provider:
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)()


def providers(game: Game) -> list[Provider]:
    """The providers of `game`'s players, in the order a spec is tried on them."""
    return [*(_load(path) for path in GAME_PROVIDERS.get(game.protocol, ())), *COMMON]


def provider_of(player: Player, game: Game) -> Provider:
    """The provider that owns `player`'s kind in `game`."""
    for provider in providers(game):
        if player.kind in provider.kinds:
            return provider
    raise PlayerError(f"{player.label} is a player of kind {player.kind!r}, which {game.name} does not play")


def resolve(text: str, game: Game, cache: Path | None = None, config: str | None = None) -> Player:
    """A player from its spec (`LABEL=SPEC` or `SPEC`); PlayerError with a message a user can act on
    (UnknownPlayer where no provider knows the spec). `config`: the file that declares players by
    name (default ./arena.toml); `cache`: the arena's."""
    label, spec = split_label(text)
    cache = cache or cache_root()
    _check_label(text, label, spec, game, cache, config, spaced=False)
    player = declared.resolve(label, spec, SOURCES, cache, config)
    if player is not None:
        return player
    for provider in providers(game):
        player = provider.resolve(label, spec, game, cache)
        if player is not None:
            return player
    if label is None:  # (`fast=./bot --against=greedy` is a command that is nowhere, not a label)
        _check_label(text, label, spec, game, cache, config, spaced=True)
    raise _unknown(text, spec, game, config)


def _unknown(text: str, spec: str, game: Game, config: str | None) -> UnknownPlayer:
    """Why no provider takes `spec` (`text` less its label, which the message leaves out: `arena tune`
    labels its bot itself): a shell's assignments before a command, a command line whose program is
    not found, or which specs are known."""
    assigned = next((written for written in (spec, text) if starts_with_assignments(written)), None)
    if assigned is not None:
        return UnknownPlayer(
            f"{assigned!r}: NAME=VALUE before a command sets a variable in a shell, and no shell runs a bot: "
            f"write 'env {assigned}'"
        )
    missing = program_missing(spec)
    if missing is not None:
        return UnknownPlayer(f"player {spec!r}: {missing}")
    known = [said for said in (provider.known() for provider in providers(game)) if said]
    known.append(f"a player declared in {config or CONFIG_FILE} ([players.NAME])")
    first = spec.split()[0] if spec.split() else ""
    return UnknownPlayer(
        f"unknown player {spec!r}: not {', '.join(known[:-1])} or {known[-1]}"
        + (f" (no such file: {first})" if "/" in first else "")
    )


def _check_label(
    text: str, label: str | None, spec: str, game: Game, cache: Path, config: str | None, *, spaced: bool
) -> None:
    """PlayerError where `text` is meant as LABEL=SPEC with a label that cannot be one (`a,b=bot.cpp@v3`,
    `x=y=bot.cpp`): what stands before an `=` where what follows is a spec some provider takes. A word
    is checked before the spec is read, whatever it is (a revision of the whole text was a git error);
    words with spaces (`a b=greedy`) only where the whole text is no player (`./bot --against=greedy`
    is a command), as `spaced` says."""
    rest = text if label is None else spec
    word, equals, after = rest.partition("=")
    if not equals or (not spaced and any(char.isspace() for char in word)) or whole_path(rest) is not None:
        return
    if _taken(after, game, cache, config):
        meant = word if label is None else f"{label}={word}"
        raise PlayerError(
            f"{meant!r} cannot be a label: a label (LABEL=SPEC) is ASCII letters, digits and _ . + - only"
        )


def _taken(spec: str, game: Game, cache: Path, config: str | None) -> bool:
    """Whether some provider takes `spec` as its own, made or not (a revision that is no commit)."""
    try:
        resolve(spec, game, cache, config)
    except UnknownPlayer:
        return False
    except PlayerError:
        return True
    return True


def resolve_all(texts: list[str], game: Game, cache: Path | None = None, config: str | None = None) -> list[Player]:
    """The players of `texts`, each labelled apart from the others."""
    players = [resolve(text, game, cache, config) for text in texts]
    labels = [p.label for p in players]
    duplicates = sorted({label for label in labels if labels.count(label) > 1})
    if duplicates:
        named = [text for text, player in zip(texts, players, strict=True) if player.label == duplicates[0]]
        labelled = all(split_label(text)[0] is not None for text in named)  # (`a=v1.cpp a=v2.cpp`)
        raise PlayerError(
            f"two players are called {duplicates[0]!r}: "
            + (
                "give them different labels"
                if labelled
                else f"name them apart with LABEL=SPEC (e.g. new={split_label(named[-1])[1]})"
            )
        )
    return players


_prepared: set[tuple] = set()  # the players this process has prepared: each once (a run asks more than once)


def prepare(players: list[Player], game: Game, log=None) -> None:
    """The game and its players ready before any game's clock runs: every player checked first by
    its provider (one that cannot run here is told before any long preparation), then the referee
    there, each player compiled, built or warmed up (saying so on `log`), once in this process."""
    log = log or sys.stderr
    pending = [
        (provider, [p for p in players if p.kind in provider.kinds and _key(p) not in _prepared])
        for provider in providers(game)
    ]
    pending = [(provider, own) for provider, own in pending if own]
    for provider, own in pending:
        provider.check(own, game)
    game.prepare(log)
    for provider, own in pending:
        provider.prepare(own, game, log)
        _prepared.update(_key(player) for player in own)


def _key(player: Player) -> tuple:
    """What makes a prepared player the same one: what runs, where, in which version."""
    return player.kind, player.target, player.cwd, player.version


def varied(player: Player, values: dict, game: Game, label: str, config: str | None = None) -> Player:
    """`player` playing with `values` for its tuned parameters, its others kept, labelled `label`:
    the same sources and build where its provider can say so, else its spec with them
    resolved again."""
    provider = provider_of(player, game)
    made = provider.varied(player, values)
    if made is not None:
        return replace(made, label=label)
    return resolve(f"{label}={provider.with_values(player.spec, values)}", game, config=config)


def changed_since(player: Player, game: Game) -> str | None:
    """Why `player` would not play as it did when its run began (None if it would). Sources whose
    build is gone from the cache, what went into it too (deleted between runs), are taken again from
    their spec: they play on where it names the same sources still (the same version)."""
    provider = provider_of(player, game)
    why = provider.changed_since(player)
    if why is not None and provider is SOURCES and SOURCES.gone(player):
        return _taken_again(player, game)
    return why


def _taken_again(player: Player, game: Game) -> str | None:
    """None once the sources of `player`, gone from the cache, are kept there again as its spec names
    them here and now, which is its version (a commit's files, or a working tree's unchanged); else
    why it cannot play as it did."""
    gone = f"its build and its sources are gone from the cache ({Path(player.cwd).parent})"
    try:
        again = resolve(player.spec, game, SOURCES.cache_of(player))
    except PlayerError as exc:
        return f"{gone}, and cannot be taken again from {player.spec} in {Path.cwd()}: {exc}"
    if (again.version, again.cwd) == (player.version, player.cwd):
        return None
    if player.version.partition(":")[0].endswith(DIRTY):
        return f"{gone}, and they were uncommitted changes to {player.spec}, which its working tree no longer holds"
    return f"{gone}, and {player.spec} names other sources now (version {again.version}, not {player.version})"


def command(player: Player, game: Game) -> tuple[str, str | None]:
    """`player` as a process (its command line and folder), whatever its kind."""
    return provider_of(player, game).command(player)


def travels(player: Player, game: Game) -> list[str]:
    """The files and folders of this machine `player` runs from, which travel with a run to a
    cluster's nodes (see `Provider.travels`)."""
    return provider_of(player, game).travels(player)


def default_lineup(game: Game) -> list[str]:
    """The players of a tournament of `game` given none: its own bots' ([] when it has none)."""
    return [spec for provider in providers(game) for spec in provider.default_lineup(game)]
