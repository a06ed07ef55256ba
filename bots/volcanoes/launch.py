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
numba loads; its answers stay on time because it plays by the clock. Compiling, though, holds the
lock for up to half a second at a time: on an empty cache the thread has a child process compile
the kernels into the cache, and then loads them from there. This module must not import
numba, numpy or anything that does, before the first answer.
"""
from __future__ import annotations

import gc
import os
import subprocess
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
                if _uncompiled_modules():
                    _compile_in_a_child(self.bot_name)
                bot.warm_up()
            self.bot = bot
        except BaseException as exc:  # reported by the main thread, which keeps the stand-in
            self.error = exc
        self.seconds = time.perf_counter() - started


def _uncompiled_modules() -> list[str]:
    """The imported modules of this project with numba kernels none of which is in numba's cache
    yet (a fresh install): compiling them in this process would hold the interpreter lock for up
    to half a second at a time, and the stand-in would miss turns. (Reads numba's private cache
    paths; when that fails, nothing is reported and the kernels compile here.)"""
    try:
        from numba.core.registry import CPUDispatcher

        cold = []
        for module in list(sys.modules.values()):
            name = getattr(module, "__name__", "")
            if not name.startswith(("bots.", "referee.")):
                continue
            kernels = [k for k in vars(module).values() if isinstance(k, CPUDispatcher) and k._cache]
            if kernels and not any(os.path.exists(k._cache._cache_file._index_path) for k in kernels):
                cold.append(name)
        return cold
    except Exception:  # noqa: BLE001 - a numba without these internals: compile here
        return []


def _compile_in_a_child(name: str) -> None:
    """Compile bot `name`'s kernels into numba's cache in a child process: it runs on another core
    and never takes this interpreter's lock (waiting for it releases the lock)."""
    done = subprocess.run([sys.executable, "-m", "bots.volcanoes.warmup", name], stdin=subprocess.DEVNULL,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:  # the warm-up in this process will show the error
        last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        print(f"[{name}] compiling the kernels in a child process failed: {last}", file=sys.stderr, flush=True)


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
    # What numba's import and the stand-in made is never looked at again. No collection first: a
    # full one takes 60 ms and more on a busy machine, and the opponent's turn, which pays for the
    # switch, may be over in a few milliseconds (the referee's clock for our next turn then runs).
    gc.freeze()
    print(f"[{loader.bot_name}] ready after {loader.seconds:.2f} s: it takes over from the "
          "pure-Python stand-in", file=log, flush=True)
    return player


if __name__ == "__main__":
    play(sys.argv[1])
