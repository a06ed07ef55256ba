"""Volcanoes' own players: the project's registered bots (in-process, the fastest way to play),
a registered bot at a git revision of the project, and the bundled submission.

- a registered bot (`greedy`, or `pure-mcts` of the pure-Python engine we submit), with options after
  a colon (`mcts:c=0.3,ms=1000`): its declared parameters, and `ms`, its own turn limit, read once by
  the registry (`bots.volcanoes.registry.parse`); its target is the canonical spec the registry writes;
- `bundle:NAME` (`bundle:mcts`): the very file `arena bundle NAME` writes, built when the run starts
  and run as CodinGame runs it, by a Python without site-packages (`python -S`); `bundle:NAME@REV`
  (`bundle:mcts@v1.2`), the file it wrote at a git revision of the project;
- a registered bot at a git revision (`greedy@HEAD~3`, `greedy@v1.2`): the project's tree at that
  commit is extracted once into a cache and the bot runs from it as a process.

A registered bot's version is the hash of its module and of every project module it imports (an
edit to a search kernel is a new version of every bot that searches with it), with its options.
"""

from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path

from bots.volcanoes import registry
from referee.volcanoes.match import Settings

from arena.builds.cache import PINS
from arena.bundle.python import BundleError, build, collect
from arena.games.base import Game, Player
from arena.games.volcanoes.game import PROTOCOL
from arena.games.volcanoes.seats import IN_PROCESS, load, spec_of, turn_ms
from arena.players.base import PlayerError, Provider, hash_bytes, pin_file
from arena.players.git import project_at
from arena.project import PROJECT_ROOT

BUNDLE_PREFIX = "bundle:"  # `bundle:mcts`: the file `arena bundle mcts` writes, as a player
FIXED_BUDGET_OPTION = "iterations"  # `mcts:iterations=6000`: a fixed search a turn, whatever the clock


class OwnBots(Provider):
    """The registered bots of `bots.volcanoes.registry`, in Volcanoes games alone."""

    kinds = (IN_PROCESS,)

    def serves(self, game: Game) -> bool:
        return game.protocol == PROTOCOL

    def resolve(self, label: str | None, spec: str, game: Game, cache: Path) -> Player | None:
        if spec.startswith(BUNDLE_PREFIX):
            return _bundle_pin(label, spec, cache)
        name, colon, _ = spec.partition(":")
        if name in registry.BOTS:
            try:
                parsed = registry.parse(spec)
            except ValueError as exc:
                raise PlayerError(f"player {spec!r}: {exc}") from None
            return Player(label or spec, spec, IN_PROCESS, str(parsed), _version(parsed))
        if colon and (name.split("@", 1)[0] in registry.BOTS or Path(name).is_file()):
            raise PlayerError(
                f"player {spec!r}: options (NAME:OPT=VALUE) are for registered bots run in-process; "
                "a pinned revision, a file or a command line cannot take them"
            )
        if "@" in spec and spec.split("@", 1)[0] in registry.BOTS and " " not in spec:
            return _git_pin(label, spec, cache)
        return None

    def known(self) -> str:
        return f"a registered bot ({', '.join(registry.BOTS)}), NAME@REVISION, {BUNDLE_PREFIX}NAME"

    def prepare(self, players: list[Player], game: Game, log) -> None:
        """Compile (or load from numba's cache) the kernels of every registered bot in this process
        before the run's first game, so that no game's clock runs while a bot compiles (each worker
        then starts with them, or loads them from the cache before its first game)."""
        for player in players:
            spec = spec_of(player)
            if not registry.is_pure(spec.name):  # pure Python: nothing to compile
                started = time.perf_counter()
                print(f"preparing {player.label} (compiling or loading its kernels)...", end=" ", file=log, flush=True)
                try:
                    load(spec)
                except Exception as exc:
                    raise PlayerError(f"{player.label} cannot play: {type(exc).__name__}: {exc}") from exc
                print(f"ready in {time.perf_counter() - started:.1f} s", file=log, flush=True)
            note = fixed_budget_note(player, game.settings)
            if note:
                print(note, file=log)

    def changed_since(self, player: Player) -> str | None:
        now = _version(spec_of(player))
        return None if now == player.version else f"its code changed (version {player.version}, now {now})"

    def command(self, player: Player) -> tuple[str, str | None]:
        """A registered bot as its own process, as it would run on CodinGame."""
        module = registry.BOTS[spec_of(player).name].module
        return shlex.join([sys.executable, "-m", module]), str(PROJECT_ROOT)

    def default_lineup(self, game: Game) -> list[str]:
        """The ladder's registered bots, strongest first."""
        return [name for name in registry.LADDER if name in registry.BOTS]

    def parameters(self, player: Player) -> dict | None:
        return {p.name: p for p in registry.parameters(spec_of(player).name)}

    def values(self, player: Player) -> dict[str, float]:
        return dict(spec_of(player).options)

    def with_values(self, spec: str, values: dict) -> str:
        """The spec `spec` (`mcts`, `mcts:c=0.3,ms=1000`) with `values` for its tuned parameters, its
        other options kept."""
        parsed = registry.parse(spec)
        return str(registry.Spec(parsed.name, {**parsed.options, **values}, parsed.turn_ms))


def fixed_budget_note(player: Player, settings: Settings) -> str:
    """A line for a player that searches a fixed number of iterations a turn under a turn limit no
    longer than CodinGame's: the search ignores the clock, the referee does not, so a slow turn
    forfeits the game and counts as a loss (a tune then favours whatever is fast, not strong)."""
    fixed = spec_of(player).options.get(FIXED_BUDGET_OPTION, 0)
    limit = turn_ms(player, settings.turn_ms)
    if not fixed or limit > Settings.turn_ms:
        return ""
    return (
        f"note: {player.label} searches {fixed} iterations a turn whatever the clock, yet a turn over "
        f"{limit:g} ms still forfeits its game; to compare at a fixed budget, lift the limit "
        "(e.g. --turn-ms 300 --first-turn-ms 3000)"
    )


def _version(spec: registry.Spec) -> str:
    """The hash of the bot's modules, and its options when there are any: they are part of what plays."""
    options = spec.options_text
    return _module_version(registry.BOTS[spec.name].module) + (f":{options}" if options else "")


def _module_version(module: str) -> str:
    """The hash of module `module` and of every project module it imports, however indirectly (as
    the bundler finds them): an edit to a search kernel or a rules module changes the version of
    every bot that plays with it, not only an edit to the bot's own file."""
    try:
        modules, _ = collect(module)
    except BundleError:
        return "unknown"
    return hash_bytes(*(f"{name}\n{source}".encode() for name, (_, source) in modules.items()))


def _git_pin(label: str | None, spec: str, cache: Path) -> Player:
    name, revision = spec.split("@", 1)
    commit, tree = project_at(revision, cache, spec)
    module = registry.BOTS[name].module
    if not (tree / Path(*module.split("."))).with_suffix(".py").is_file():
        raise PlayerError(f"{name} does not exist at {revision} ({commit[:12]})")
    command = shlex.join([sys.executable, "-m", module])
    return Player(label or spec, spec, "git", command, commit[:12], str(tree))


def _bundle_pin(label: str | None, spec: str, cache: Path) -> Player:
    """`bundle:NAME[@REV]`: the single file `arena bundle NAME` writes (from the project's tree at
    revision REV), built now and kept by its hash, run as CodinGame runs it: by a Python without
    site-packages (`-S`), so it cannot import numba or the project."""
    name, at, revision = spec[len(BUNDLE_PREFIX) :].partition("@")
    root = project_at(revision, cache, spec)[1] if at else PROJECT_ROOT
    try:
        text = build(name, root=root).text
    except BundleError as exc:
        raise PlayerError(f"cannot bundle {spec!r}: {exc}") from None
    content = text.encode()
    version = hash_bytes(content)
    copy = pin_file(cache / PINS / f"bundle-{version}" / "submission.py", content)
    return Player(label or spec, spec, "file", shlex.join([sys.executable, "-S", str(copy)]), version)
