"""Volcanoes' own players: the project's registered bots (in-process, the fastest way to play),
a registered bot at a git revision of the project, and the bundled submission.

- a registered bot (`greedy`, or `pure-mcts` of the pure-Python engine we submit), with options after
  a colon (`mcts:c=0.3,ms=1000`): its declared parameters, and `ms`, its own turn limit, read once by
  the registry (`bots.volcanoes.registry.parse`); its target is the canonical spec the registry writes;
- `bundle:NAME` (`bundle:mcts`): the very file `arena bundle NAME` writes, built when the run starts
  and run as CodinGame runs it, by a Python without site-packages (`python -S`);
- a registered bot at a git revision (`greedy@HEAD~3`, `greedy@v1.2`): the project's tree at that
  commit is extracted once into a cache and the bot runs from it as a process.

A registered bot's version is the hash of its module and of every project module it imports (an
edit to a search kernel is a new version of every bot that searches with it), with its options.
"""

from __future__ import annotations

import os
import shlex
import sys
import time
from pathlib import Path

from bots.volcanoes import registry
from bots.volcanoes.bot import load
from bots.volcanoes.launch import LOAD_FIRST_VARIABLE, READY_LINE
from bots.volcanoes.seat import open_seat as open_bot_seat
from referee.platform.process import BotProcess, BotStartError, warm_up, warm_up_command
from referee.volcanoes.match import Settings

from arena.bundle import BundleError, build, collect
from arena.games.base import Player
from arena.play.players import PROJECT_ROOT, PlayerError, hash_bytes, pin_file, project_at

BUNDLE_PREFIX = "bundle:"  # `bundle:mcts`: the file `arena bundle mcts` writes, as a player
FIXED_BUDGET_OPTION = "iterations"  # `mcts:iterations=6000`: a fixed search a turn, whatever the clock


def default_tournament() -> list[str]:
    """The players of `arena tournament` without players: the ladder's registered bots."""
    return [name for name in registry.LADDER if name in registry.BOTS]


def known_players() -> str:
    return f"a registered bot ({', '.join(registry.BOTS)}), NAME@REVISION, {BUNDLE_PREFIX}NAME"


def resolve(spec: str, label: str | None, cache: Path) -> Player | None:
    """A Volcanoes player from `spec`, or None when it is none of the game's own."""
    text = f"{label}={spec}" if label else spec
    if spec.startswith(BUNDLE_PREFIX):
        return _bundle_pin(label, spec, cache)
    name, colon, _ = spec.partition(":")
    if name in registry.BOTS:
        try:
            parsed = registry.parse(spec)
        except ValueError as exc:
            raise PlayerError(f"player {text!r}: {exc}") from None
        return Player(label or spec, spec, "bot", str(parsed), _version(parsed))
    if colon and (name.split("@", 1)[0] in registry.BOTS or Path(name).is_file()):
        raise PlayerError(
            f"player {text!r}: options (NAME:OPT=VALUE) are for registered bots run in-process; "
            "a pinned revision, a file or a command line cannot take them"
        )
    if "@" in spec and spec.split("@", 1)[0] in registry.BOTS and " " not in spec:
        return _git_pin(label, spec, cache)
    return None


def spec_of(player: Player) -> registry.Spec:
    """A registered bot's spec, as its target holds it."""
    return registry.parse(player.target)


def turn_ms(player: Player, default: float) -> float:
    """`player`'s turn limit: its `ms` option, else the run's."""
    own = spec_of(player).turn_ms if player.kind == "bot" else None
    return default if own is None else own


def fixed_budget_notes(players, settings: Settings) -> list[str]:
    """A line for each player that searches a fixed number of iterations a turn under a turn limit
    no longer than CodinGame's: the search ignores the clock, the referee does not, so a slow turn
    forfeits the game and counts as a loss (a tune then favours whatever is fast, not strong)."""
    notes = []
    for player in players:
        fixed = spec_of(player).options.get(FIXED_BUDGET_OPTION, 0) if player.kind == "bot" else 0
        limit = turn_ms(player, settings.turn_ms)
        if fixed and limit <= Settings.turn_ms:
            notes.append(
                f"note: {player.label} searches {fixed} iterations a turn whatever the clock, yet a turn over "
                f"{limit:g} ms still forfeits its game; to compare at a fixed budget, lift the limit "
                "(e.g. --turn-ms 300 --first-turn-ms 3000)"
            )
    return notes


def _version(spec: registry.Spec) -> str:
    """The hash of the bot's modules, and its options when there are any: they are part of what plays."""
    options = spec.options_text
    return _module_version(registry.BOTS[spec.name][0]) + (f":{options}" if options else "")


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
    commit, tree = project_at(revision, cache)
    module = registry.BOTS[name][0]
    if not (tree / Path(*module.split(".")).with_suffix(".py")).is_file():
        raise PlayerError(f"{name} does not exist at {revision} ({commit[:12]})")
    command = shlex.join([sys.executable, "-m", module])
    return Player(label or spec, spec, "git", command, commit[:12], str(tree))


def _bundle_pin(label: str | None, spec: str, cache: Path) -> Player:
    """`bundle:NAME`: the single file `arena bundle NAME` writes, built now and kept by its hash,
    run as CodinGame runs it: by a Python without site-packages (`-S`), so it cannot import numba
    or the project."""
    try:
        text = build(spec[len(BUNDLE_PREFIX) :]).text
    except BundleError as exc:
        raise PlayerError(f"cannot bundle {spec!r}: {exc}") from None
    content = text.encode()
    version = hash_bytes(content)
    copy = pin_file(cache / f"bundle-{version}" / "submission.py", content)
    return Player(label or spec, spec, "file", shlex.join([sys.executable, "-S", str(copy)]), version)


def parameters(player: Player) -> dict:
    """name -> declared parameter of a registered bot (none for other players)."""
    if player.kind != "bot":
        return {}
    return {p.name: p for p in registry.parameters(spec_of(player).name)}


def spec_with(bot: str, values: dict) -> str:
    """The spec `bot` (`mcts`, `mcts:c=0.3,ms=1000`) with `values` for its tuned parameters, its
    other options kept."""
    spec = registry.parse(bot)
    return str(registry.Spec(spec.name, {**spec.options, **values}, spec.turn_ms))


def changed_since(player: Player) -> str | None:
    """Why a registered bot would not play as it did when its run began (None if it would)."""
    now = _version(spec_of(player))
    return None if now == player.version else f"its code changed (version {player.version}, now {now})"


def prepare(players: list[Player], log=sys.stderr) -> None:
    """Compile (or load from numba's cache) the kernels of every player before the run's first
    game, so that no game's clock runs while a bot compiles: in-process bots here (each worker then
    loads them from the cache before its first game), bots run as processes by their warm-up
    command (`referee.platform.process.warm_up`: this project's registered bots and git pins of them)."""
    for player in players:
        try:
            if player.kind == "bot":
                spec = spec_of(player)
                if registry.is_pure(spec.name):
                    continue  # pure Python: nothing to compile
                started = time.perf_counter()
                print(f"preparing {player.label} (compiling or loading its kernels)...", end=" ", file=log, flush=True)
                _load(spec)
                print(f"ready in {time.perf_counter() - started:.1f} s", file=log, flush=True)
            else:
                warm_up(player.target, player.cwd, log, label=player.label)
        except BotStartError as exc:
            raise PlayerError(f"{player.label} cannot play: {exc}") from None


# ---------------------------------------------------------------- seats, inside a worker

_loaded: set[str] = set()  # the registered bots this process has loaded (`bot.load`)


def _load(spec: registry.Spec) -> None:
    if spec.name not in _loaded:
        load(spec.make())
        _loaded.add(spec.name)


def open_seat(player: Player, seed: int, settings: Settings | None = None):
    """A referee seat for one game under the run's `settings` (close it after the game)."""
    settings = settings or Settings()
    if player.kind == "bot":
        try:
            spec = spec_of(player)
            _load(spec)  # before any timed turn
            bot = spec.make(seed)
        except Exception as exc:
            raise BotStartError(f"{player.label} could not start: {type(exc).__name__}: {exc}") from exc
        return open_bot_seat(bot, settings.limits(spec.turn_ms))
    if not _loads_first(player):
        return BotProcess(player.target, cwd=player.cwd, seed=seed)
    env = dict(os.environ, **{LOAD_FIRST_VARIABLE: "1"})
    seat = BotProcess(player.target, cwd=player.cwd, env=env, seed=seed)
    wait_until_loaded(seat)
    return seat


def _loads_first(player: Player) -> bool:
    """Whether `player` is one of this project's registered bots run as a process (a git pin, or
    `python -m bots.volcanoes.NAME`) whose launcher can load the bot before the first turn, when asked
    (`bots.volcanoes.launch`): then the game is played by the bot being rated, not by the pure-Python
    stand-in that covers a process's start-up on CodinGame's clock."""
    if warm_up_command(player.target, player.cwd) is None:
        return False
    launcher = Path(player.cwd or PROJECT_ROOT) / "bots" / "volcanoes" / "launch.py"
    return launcher.is_file() and LOAD_FIRST_VARIABLE in launcher.read_text()


def wait_until_loaded(seat: BotProcess, seconds: float = 120.0) -> bool:
    """Until the bot says it has loaded (before any turn: no clock runs), it exits, or `seconds`;
    whether it said so. If it never does, its stand-in plays (the game is still fair, the engine
    weaker)."""
    deadline = time.monotonic() + seconds
    said = ""
    while READY_LINE not in said and seat.running() and time.monotonic() < deadline:
        time.sleep(0.02)
        said += seat.take_stderr()
    return READY_LINE in said
