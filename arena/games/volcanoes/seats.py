"""The seats of a Volcanoes game: a registered bot of the project in the worker's own process (the
fastest way to play; its kernels loaded once per process, before any timed turn), any other player
as a process. A registered bot's player holds its canonical spec (`bots.volcanoes.registry.parse`)
as its target."""

from __future__ import annotations

import os
import time
from pathlib import Path

from bots.volcanoes import launch, registry
from bots.volcanoes.bot import load as load_bot
from bots.volcanoes.launch import LOAD_FIRST_VARIABLE, READY_LINE
from bots.volcanoes.seat import open_seat as open_bot_seat
from referee.platform.bot_commands import warm_up_command
from referee.platform.bot_errors import BotStartError
from referee.platform.process import BotProcess
from referee.volcanoes.match import Settings

from arena.games.base import Player

IN_PROCESS = "bot"  # the `Player.kind` of a registered bot played in the worker's process

# The registered bots this process has loaded, with their options: options may choose other kernels
# (mcts with rave_k 0 searches a tree of another layout), which a bot loaded once by its name alone
# compiled inside its first timed turn.
_loaded: set[tuple] = set()


def spec_of(player: Player) -> registry.Spec:
    """A registered bot's spec, as its target holds it."""
    return registry.parse(player.target)


def turn_ms(player: Player, default: float) -> float:
    """`player`'s turn limit: its `ms` option, else the run's."""
    own = spec_of(player).turn_ms if player.kind == IN_PROCESS else None
    return default if own is None else own


def load(spec: registry.Spec) -> None:
    """Compile (or load from numba's cache) a registered bot's kernels in this process, once for each
    set of its options (a few milliseconds where they are loaded already): a pool's workers forked
    after the run loaded them start with them."""
    key = (spec.name, tuple(sorted(spec.options.items())))
    if key not in _loaded:
        load_bot(spec.make())
        _loaded.add(key)


def open_seat(player: Player, seed: int, settings: Settings | None = None):
    """A referee seat for one game under the run's `settings` (close it after the game)."""
    settings = settings or Settings()
    if player.kind == IN_PROCESS:
        try:
            spec = spec_of(player)
            load(spec)  # before any timed turn
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
    launcher = Path(player.cwd) / "bots" / "volcanoes" / "launch.py" if player.cwd else Path(launch.__file__)
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
