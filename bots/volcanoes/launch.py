"""A bot's process that never loses a turn to its own start-up: `python -m bots.volcanoes.NAME`.

Importing numba takes about half a second, and loading a bot's kernels from numba's cache a few
tenths more; on a fresh install (an empty cache) compiling them takes many seconds, longer still on
a busy machine. CodinGame allows 1000 ms for the first answer, counted from when the referee sent
the first turn, right after starting the process. So the process answers with a stand-in from the
first turn: the pure-Python engine (`bots.volcanoes.pure`, the program we submit to CodinGame),
which imports in a few milliseconds, while a background thread imports the bot and warms its
kernels up. At the first turn after the bot is ready it takes over the game, with the seat and
turn number the stand-in's adapter has tracked; the switch is logged on stderr.

The thread shares the interpreter lock with the stand-in, so the stand-in searches less while
numba loads; its answers stay on time because it plays by the clock. This module must not import
numba, numpy or anything that does, before the first answer.
"""
from __future__ import annotations

import gc
import os
import sys
import threading
import time

from .pure.player import PurePlayer, ending_on_bad_input, read_turns
from .registry import stand_in

STAND_IN_TURN_SECONDS = 0.040
STAND_IN_FIRST_TURN_SECONDS = 0.150


def process_age() -> float:
    """Seconds since this process started (Linux); 0 where that cannot be read."""
    try:
        with open("/proc/self/stat") as stat, open("/proc/uptime") as uptime:
            started_ticks = int(stat.read().rsplit(")", 1)[1].split()[19])
            return float(uptime.read().split()[0]) - started_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


class _Loader(threading.Thread):
    """Imports a registered bot and warms its kernels up, off the main thread."""

    def __init__(self, name: str):
        super().__init__(name=f"load {name}", daemon=True)
        self.bot_name = name
        self.bot = None
        self.error: BaseException | None = None
        self.seconds = 0.0

    def run(self) -> None:
        started = time.perf_counter()
        try:
            from .base import hiding_scipy
            from .registry import bot_class

            with hiding_scipy():
                bot = bot_class(self.bot_name)()
                bot.warm_up()
            self.bot = bot
        except BaseException as exc:  # reported by the main thread, which keeps the stand-in
            self.error = exc
        self.seconds = time.perf_counter() - started


def play(name: str, stdin=None, stdout=None, log=None) -> None:
    """Play registered bot `name` on stdin/stdout, the stand-in answering until it is ready."""
    stdin, stdout, log = stdin or sys.stdin, stdout or sys.stdout, log or sys.stderr
    try:
        # Shorter turns than the submission's: the loading thread holds the interpreter lock at times.
        pure = PurePlayer(stand_in(name), turn_seconds=STAND_IN_TURN_SECONDS,
                          first_turn_seconds=STAND_IN_FIRST_TURN_SECONDS)
    except ImportError:  # a single-file bundle of the bot alone carries no stand-in: play it directly
        from .base import main
        from .registry import bot_class

        main(bot_class(name)())
        return
    loader = _Loader(name)
    loader.start()
    player = None  # the bot's own adapter, once it has taken over
    gc.disable()  # collections run after answering, never inside a timed turn
    with ending_on_bad_input(name):
        for lines, started in read_turns(stdin):
            print((player or pure).answer(lines, started), file=stdout, flush=True)
            if player is None and not loader.is_alive():  # the opponent's turn pays for the switch
                player = _take_over(loader, pure, log)
            gc.collect(1)


def _take_over(loader: _Loader, pure: PurePlayer, log):
    """The bot's adapter, carrying on the game the stand-in has played so far (the next lines
    are the following turn's, or a new game's); None when the bot could not be loaded (the
    stand-in plays on)."""
    if loader.error is not None:
        print(f"[{loader.bot_name}] could not load ({type(loader.error).__name__}: {loader.error}); "
              "the pure-Python stand-in plays on", file=log, flush=True)
        loader.error = None
        return None
    if loader.bot is None:  # reported already
        return None
    from .base import Player

    player = Player(loader.bot, log=log)
    if pure.turn:  # in the middle of a game
        player.resume(pure.colour, pure.turn)
    gc.collect()  # numba's import left many objects: collect them once, and never look at them again
    gc.freeze()
    print(f"[{loader.bot_name}] ready after {loader.seconds:.2f} s: it takes over from the "
          "pure-Python stand-in", file=log, flush=True)
    return player


if __name__ == "__main__":
    play(sys.argv[1])
