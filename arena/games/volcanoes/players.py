"""Volcanoes' own players: the project's registered bots (in-process, the fastest way to play),
a registered bot at a git revision of the project, and the bundled submission.

- a registered bot (`greedy`, or `pure-mcts` of the pure-Python engine we submit), with options after
  a colon (`mcts:c=0.3,ms=1000`): its declared parameters, and `ms`, its own turn limit;
- `bundle:NAME` (`bundle:mcts`): the very file `arena bundle NAME` writes, built when the run starts
  and run as CodinGame runs it, by a Python without site-packages (`python -S`);
- a registered bot at a git revision (`greedy@HEAD~3`, `greedy@v1.2`): the project's tree at that
  commit is extracted once into a cache and the bot runs from it as a process.

A registered bot's version is the hash of its module and of every project module it imports (an
edit to a search kernel is a new version of every bot that searches with it), with its options.
"""

from __future__ import annotations

import gc
import importlib
import os
import shlex
import sys
import time
from pathlib import Path

from bots.volcanoes.launch import LOAD_FIRST_VARIABLE, READY_LINE
from bots.volcanoes.registry import BOTS, parse_options
from referee.process import BotError, BotExited, BotProcess, BotStartError, warm_up, warm_up_command
from referee.volcanoes.match import Settings, seat_limits

from arena.bundle import BundleError, build, collect
from arena.games.base import Player
from arena.play.players import PROJECT_ROOT, PlayerError, hash_bytes, pin_file, project_at

# Bots of this project (bots/volcanoes/registry.py), name -> "module:Class". Each takes `seed=None`.
REGISTRY: dict[str, str] = {name: f"{module}:{cls}" for name, (module, cls) in BOTS.items()}
# The default tournament, a ladder over the whole range of strength, strongest first: the engines,
# the pure-Python submission, the baselines.
LADDER = ("mcts", "alphabeta", "uct", "pure-mcts", "greedy", "boss", "random")

TIME_OPTION = "ms"  # `uct:ms=1000`: the player's turn limit in ms (its first turn scales with it)
BUNDLE_PREFIX = "bundle:"  # `bundle:mcts`: the file `arena bundle mcts` writes, as a player


def default_tournament() -> list[str]:
    """The players of `arena tournament` without players: the ladder's registered bots."""
    return [name for name in LADDER if name in REGISTRY]


def known_players() -> str:
    return f"a registered bot ({', '.join(REGISTRY)}), NAME@REVISION, {BUNDLE_PREFIX}NAME"


def resolve(spec: str, label: str | None, cache: Path) -> Player | None:
    """A Volcanoes player from `spec`, or None when it is none of the game's own."""
    text = f"{label}={spec}" if label else spec
    if spec.startswith(BUNDLE_PREFIX):
        return _bundle_pin(label, spec, cache)
    if spec in REGISTRY:
        return Player(label or spec, spec, "bot", REGISTRY[spec], _module_version(REGISTRY[spec]))
    name, colon, options = spec.partition(":")
    if colon and name in REGISTRY:
        target = f"{REGISTRY[name]}:{_normal_options(text, name, options)}"
        return Player(label or spec, spec, "bot", target, _bot_version(target))
    if colon and (name.split("@", 1)[0] in REGISTRY or Path(name).is_file()):
        raise PlayerError(
            f"player {text!r}: options (NAME:OPT=VALUE) are for registered bots run in-process; "
            "a pinned revision, a file or a command line cannot take them"
        )
    if "@" in spec and spec.split("@", 1)[0] in REGISTRY and " " not in spec:
        return _git_pin(label, spec, cache)
    return None


def _normal_options(text: str, name: str, options: str) -> str:
    """`c=0.30,ms=1000` checked against bot `name`'s declared parameters, written canonically (sorted,
    parsed values) so that equal options give equal versions; a PlayerError says what is wrong."""
    items = [item for item in options.split(",")]
    ms = [item for item in items if item.partition("=")[0].strip() == TIME_OPTION]
    rest = [item for item in items if item not in ms]
    try:
        parsed = parse_options(name, ",".join(rest)) if rest else {}
        if len(ms) > 1:
            raise ValueError(f"option {TIME_OPTION!r} is given twice")
        if ms:
            value = ms[0].partition("=")[2].strip()
            try:
                parsed[TIME_OPTION] = float(value)
            except ValueError:
                raise ValueError(f"{TIME_OPTION}={value!r} is not a number of milliseconds") from None
            if not 1.0 <= parsed[TIME_OPTION] <= 600_000.0:
                raise ValueError(f"{TIME_OPTION}={value} is out of range [1, 600000]")
    except ValueError as exc:
        raise PlayerError(f"player {text!r}: {exc}") from None
    return ",".join(f"{key}={parsed[key]!r}" for key in sorted(parsed))


def target_options(target: str) -> dict:
    """The options written in an in-process bot's target (`module:Class:c=0.3,ms=1000`), parsed."""
    parts = target.split(":")
    if len(parts) < 3 or not parts[2]:
        return {}
    items = (item.partition("=") for item in parts[2].split(","))
    # Written by _normal_options: a float's repr has a point or an exponent, an int's has neither.
    return {key: int(value) if value.lstrip("-").isdigit() else float(value) for key, _, value in items}


def turn_ms(player: Player, default: float) -> float:
    """`player`'s turn limit: its `ms` option, else the run's."""
    return target_options(player.target).get(TIME_OPTION, default) if player.kind == "bot" else default


FIXED_BUDGET_OPTION = "iterations"  # `mcts:iterations=6000`: a fixed search a turn, whatever the clock


def fixed_budget_notes(players, settings: Settings) -> list[str]:
    """A line for each player that searches a fixed number of iterations a turn under a turn limit
    no longer than CodinGame's: the search ignores the clock, the referee does not, so a slow turn
    forfeits the game and counts as a loss (a tune then favours whatever is fast, not strong)."""
    notes = []
    for player in players:
        fixed = target_options(player.target).get(FIXED_BUDGET_OPTION, 0) if player.kind == "bot" else 0
        limit = turn_ms(player, settings.turn_ms)
        if fixed and limit <= Settings.turn_ms:
            notes.append(
                f"note: {player.label} searches {fixed} iterations a turn whatever the clock, yet a turn over "
                f"{limit:g} ms still forfeits its game; to compare at a fixed budget, lift the limit "
                "(e.g. --turn-ms 300 --first-turn-ms 3000)"
            )
    return notes


def _bot_version(target: str) -> str:
    """The module's hash, and the options when there are any: they are part of what plays."""
    options = target.split(":")[2] if target.count(":") >= 2 else ""
    return _module_version(target) + (f":{options}" if options else "")


def _module_version(target: str) -> str:
    """The hash of the bot's module and of every project module it imports, however indirectly (as
    the bundler finds them): an edit to a search kernel or a rules module changes the version of
    every bot that plays with it, not only an edit to the bot's own file."""
    try:
        modules, _ = collect(target.split(":")[0])
    except BundleError:
        return "unknown"
    return hash_bytes(*(f"{name}\n{source}".encode() for name, (_, source) in modules.items()))


def _git_pin(label: str | None, spec: str, cache: Path) -> Player:
    name, revision = spec.split("@", 1)
    commit, tree = project_at(revision, cache)
    module = REGISTRY[name].split(":")[0]
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
    own = ":".join(player.target.split(":")[:2])
    name = next((n for n, target in REGISTRY.items() if target == own), None)
    from bots.volcanoes.registry import PARAMETERS

    return {p.name: p for p in PARAMETERS.get(name, ())}


def spec_with(bot: str, values: dict) -> str:
    """The spec `bot` (`mcts`, `mcts:c=0.3,ms=1000`) with `values` for its tuned parameters, its
    other options kept."""
    name, _, written = bot.partition(":")
    options = {
        key.strip(): value.strip() for key, _, value in (item.partition("=") for item in written.split(",") if item)
    }
    options.update({key: repr(value) for key, value in values.items()})
    return f"{name}:{','.join(f'{key}={options[key]}' for key in sorted(options))}"


def changed_since(player: Player) -> str | None:
    """Why a registered bot would not play as it did when its run began (None if it would)."""
    now = _bot_version(player.target)
    return None if now == player.version else f"its code changed (version {player.version}, now {now})"


def prepare(players: list[Player], log=sys.stderr) -> None:
    """Compile (or load from numba's cache) the kernels of every player before the run's first
    game, so that no game's clock runs while a bot compiles: in-process bots here (each worker then
    loads them from the cache before its first game), bots run as processes by their warm-up
    command (`referee.process.warm_up`: this project's registered bots and git pins of them)."""
    for player in players:
        try:
            if player.kind == "bot" and hasattr(bot_class(player.target), "warm_up"):
                started = time.perf_counter()
                print(f"preparing {player.label} (compiling or loading its kernels)...", end=" ", file=log, flush=True)
                bot_class(player.target)().warm_up()
                _warmed.add(player.target)
                print(f"ready in {time.perf_counter() - started:.1f} s", file=log, flush=True)
            else:
                warm_up(player.target, player.cwd, log, label=player.label)
        except BotStartError as exc:
            raise PlayerError(f"{player.label} cannot play: {exc}") from None


# ---------------------------------------------------------------- seats, inside a worker

_warmed: set[str] = set()


def bot_class(target: str):
    module, cls = target.split(":")[:2]
    return getattr(importlib.import_module(module), cls)


def open_seat(player: Player, seed: int, settings: Settings | None = None):
    """A referee seat for one game under the run's `settings` (close it after the game)."""
    if player.kind == "bot":
        try:
            options = target_options(player.target)
            options.pop(TIME_OPTION, None)  # the referee's limit, which the bot's budget follows
            bot = bot_class(player.target)(seed=seed, **options)
            if hasattr(bot, "warm_up") and player.target not in _warmed:  # before any timed turn
                bot.warm_up()
                _warmed.add(player.target)
                # What numba's import and the kernels made (200,000 objects) is never freed: out of
                # the collector's sight, a full collection between turns takes microseconds, not 0.2 s.
                gc.collect()
                gc.freeze()
        except Exception as exc:
            raise BotStartError(f"{player.label} could not start: {type(exc).__name__}: {exc}") from exc
        # This seat's limits as the referee gives them, against CodinGame's (100 and 1000 ms).
        settings = settings or Settings()
        later, first = seat_limits(settings, turn_ms(player, settings.turn_ms))
        return GuardedSeat(bot, later / Settings.turn_ms, first / Settings.first_turn_ms)
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


class GuardedSeat:
    """An in-process bot as a seat; an exception raised by the bot is a crash, as it would be in a
    process, instead of ending the whole run."""

    def __init__(self, bot, time_scale: float, first_turn_scale: float):
        """`time_scale`, `first_turn_scale`: the seat's limits for a turn and for the first turn
        against CodinGame's (100 and 1000 ms); its adapter budgets the bot's search from them."""
        from bots.volcanoes.base import Bot, InProcessSeat
        from bots.volcanoes.pure import player as pure
        from bots.volcanoes.pure.seat import PureSeat

        if isinstance(bot, Bot):
            self._seat = InProcessSeat(bot, time_scale=time_scale, first_turn_scale=first_turn_scale)
        else:
            self._seat = PureSeat(
                bot,
                turn_seconds=pure.TURN_SECONDS * time_scale,
                first_turn_seconds=pure.FIRST_TURN_SECONDS * first_turn_scale,
            )

    def ask(self, lines: list[str], timeout: float) -> tuple[str, float]:
        try:
            return self._seat.ask(lines, timeout)
        except BotError:
            raise
        except Exception as exc:
            raise BotExited(f"raised {type(exc).__name__}: {exc}") from exc

    def take_stderr(self) -> str:
        return self._seat.take_stderr()

    def close(self) -> None:
        self._seat.close()
