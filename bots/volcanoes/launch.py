"""A bot's process that never loses a turn to its own start-up: `python -m bots.volcanoes.NAME`.

Importing numba takes about half a second, and loading a bot's kernels from numba's cache a few
tenths more; on a fresh install (an empty cache) compiling them takes many seconds, longer still on
a busy machine. CodinGame allows 1000 ms for the first answer, counted from when the referee sent
the first turn, right after starting the process. So the process answers with a stand-in from the
first turn: the pure-Python engine (`bots.volcanoes.pure`, the program we submit to CodinGame),
which imports in a few milliseconds, while a child process (`--serve NAME`) imports the bot and
compiles or loads its kernels. Once the child says it is ready, this process tells it the seat and
turn number the stand-in's adapter has tracked and relays every later turn's lines to it and its
answer back (the switch is logged on stderr); if the child dies, the stand-in plays on.

Why a child and not a thread: a loading thread shares the interpreter lock with the stand-in;
compiling held it for up to half a second at a time, and on a busy machine the OS can pause a
thread while it holds the lock, so the stand-in missed turns (measured with `arena bench
--stress`). This module must not import numba, numpy or anything that does, before the first
answer.
"""
from __future__ import annotations

import gc
import os
import select
import signal
import subprocess
import sys
import time

from .pure.player import PurePlayer, ending_on_bad_input, read_turns
from .pure.rules import BLUE, N_TILES, ORANGE
from .registry import stand_in

# Set by a referee that can wait before the game's first turn (the arena, for the bots it starts):
# load the bot first, say READY_LINE on stderr, and only then read the first turn; no stand-in.
LOAD_FIRST_VARIABLE = "CALDERA_LOAD_FIRST"
READY_LINE = "ready: the bot takes over from the first turn"
STAND_IN_TURN_SECONDS = 0.035
STAND_IN_FIRST_TURN_SECONDS = 0.150


def process_age() -> float:
    """Seconds since this process started (Linux); 0 where that cannot be read."""
    try:
        with open("/proc/self/stat") as stat, open("/proc/uptime") as uptime:
            started_ticks = int(stat.read().rsplit(")", 1)[1].split()[19])
            return float(uptime.read().split()[0]) - started_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


class _Engine:
    """The bot in a child process (`python -m bots.volcanoes.launch --serve NAME`), which imports
    numba and compiles or loads the kernels on its own interpreter lock: a loading thread in this
    process held the lock for tens of milliseconds at a time, and longer when the machine was so
    busy that the OS paused it while it held the lock (the stand-in then missed turns). Once it
    says "ready", this process relays each turn's lines to it and its answer back."""

    def __init__(self, name: str):
        self.name = name
        self.started = time.perf_counter()
        self.proc = subprocess.Popen([sys.executable, "-m", "bots.volcanoes.launch", "--serve", name],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.ready = False
        self.paused = False

    def poll_ready(self, log, wait: bool = False) -> bool:
        """Whether the child has said "ready" (waits a second at most with `wait`, else never);
        False for good when it died."""
        if self.ready or self.proc is None:
            return self.ready
        if not select.select([self.proc.stdout], [], [], 1.0 if wait else 0)[0]:
            return False
        line = self.proc.stdout.readline()
        if line.strip() != "ready":
            print(f"[{self.name}] could not load (exit status {self.proc.wait()}); the pure-Python "
                  "stand-in plays on", file=log, flush=True)
            self.proc = None
            return False
        self.ready = True
        return True

    def pause(self) -> None:
        """Stop a loading child while the stand-in thinks: on a busy machine a loading child (numba's
        import, the kernels) took the stand-in's processor time and made it miss turns. It loads
        while the opponent thinks. (Where signals cannot stop a process, it loads on regardless.)"""
        if self._loading() and hasattr(signal, "SIGSTOP"):
            self.proc.send_signal(signal.SIGSTOP)
            self.paused = True

    def carry_on(self) -> None:
        """Let a paused child load on."""
        if self.paused:
            self.paused = False
            if self.proc is not None:
                self.proc.send_signal(signal.SIGCONT)

    def _loading(self) -> bool:
        return self.proc is not None and not self.ready and self.proc.poll() is None

    def take_over(self, pure: PurePlayer, log) -> None:
        """Tell the child where the game stands (seat and turn, or none between games)."""
        self.proc.stdin.write(f"resume {pure.colour} {pure.turn}\n")
        print(f"[{self.name}] ready after {time.perf_counter() - self.started:.2f} s: it takes over "
              "from the pure-Python stand-in", file=log, flush=True)

    def answer(self, lines: list[str], started: float) -> str | None:
        """The child's answer to this turn, whose first line this process read at `started` (a
        `time.perf_counter()` instant: the clock is the system's, the same in both processes, so
        the child's budget counts the relay's time too); None when it has died (said on its stderr)."""
        try:
            self.proc.stdin.write(f"{started!r} {len(lines)}\n" + "\n".join(lines) + "\n")
            answer = self.proc.stdout.readline()
        except OSError:
            answer = ""
        if not answer:
            self.proc, self.ready = None, False
            return None
        return answer.rstrip("\n")

    def close(self) -> None:
        self.carry_on()  # a stopped process would not see its input end
        if self.proc is not None:
            if not self.ready:  # still loading: no need to wait for it
                self.proc.kill()
            try:
                self.proc.stdin.close()
            except OSError:  # it is gone already
                pass
            self.proc.wait()


def play(name: str, stdin=None, stdout=None, log=None) -> None:
    """Play registered bot `name` on stdin/stdout, the stand-in answering until it is ready."""
    stdin, stdout, log = stdin or sys.stdin, stdout or sys.stdout, log or sys.stderr
    try:
        # Shorter turns than the submission's: the loading child shares the machine.
        pure = PurePlayer(stand_in(name), turn_seconds=STAND_IN_TURN_SECONDS,
                          first_turn_seconds=STAND_IN_FIRST_TURN_SECONDS)
    except ImportError:  # a single-file bundle of the bot alone carries no stand-in: play it directly
        from .base import main
        from .registry import bot_class

        main(bot_class(name)())
        return
    engine = _Engine(name)
    try:
        if os.environ.get(LOAD_FIRST_VARIABLE):
            while not engine.poll_ready(log, wait=True):
                if engine.proc is None:  # it could not load: the stand-in plays
                    break
            else:
                engine.take_over(pure, log)
                print(READY_LINE, file=log, flush=True)
        _play(name, pure, engine, stdin, stdout, log, relaying=engine.ready)
    finally:  # the input ended, or was not CodinGame's: the child goes too
        engine.close()


def _play(name: str, pure: PurePlayer, engine: _Engine, stdin, stdout, log, relaying: bool) -> None:
    gc.disable()  # collections run after answering, never inside a timed turn
    with ending_on_bad_input(name):
        for lines, started in read_turns(stdin):
            answer = engine.answer(lines, started) if relaying else None
            if relaying and answer is None:  # the child died (its stderr says why)
                print(f"[{name}] its process ended; the pure-Python stand-in plays on", file=log, flush=True)
                relaying = False
            if answer is None:
                engine.pause()
                answer = pure.answer(lines, started)
            else:
                _follow(pure, lines)
            print(answer, file=stdout, flush=True)
            engine.carry_on()
            if not relaying and engine.poll_ready(log):  # the opponent's turn pays for the switch
                engine.take_over(pure, log)
                relaying = True
            gc.collect(1)


def _follow(pure: PurePlayer, lines: list[str]) -> None:
    """Keep the stand-in's seat and turn count in step while the child plays, so that it can play
    on from here if the child dies."""
    if lines[0].strip() == str(N_TILES):  # a new game
        observed = lines[N_TILES + 1].split()
        pure.colour = BLUE if all(x == "0" for x in observed) else ORANGE
        pure.turn = 1 if pure.colour == BLUE else 2
    else:
        pure.turn += 4 if pure.turn % 6 in (1, 4) else 2


def serve(name: str) -> None:
    """The child's side: load the bot, say "ready", learn where the game stands, then play the
    relayed turns with the numba adapter."""
    from .base import Player, hiding_scipy
    from .registry import bot_class

    from referee.volcanoes import rules

    from .state import GameState

    with hiding_scipy():
        bot = bot_class(name)()
        bot.warm_up()
    # A few turns' searches before the first real one: the tree's and tables' memory is touched
    # here, not in a timed turn (a first search into fresh pages took 140 to 190 ms).
    levels, dormant = rules.new_state()
    for _ in range(3):
        bot.choose(GameState(levels, dormant, 0), 0.08)
    gc.collect()
    gc.freeze()  # what the imports made is never looked at again
    try:
        print("ready", flush=True)
    except BrokenPipeError:  # the game is over already
        return
    resume = sys.stdin.readline().split()
    if len(resume) != 3:  # the game ended before the take-over
        return
    player = Player(bot)
    colour, turn = int(resume[1]), int(resume[2])
    if turn:
        player.resume(colour, turn)
    player.run(sys.stdin, sys.stdout, turns=_relayed_turns(sys.stdin))


def _relayed_turns(stdin):
    """The child's side of `_Engine.answer`: each turn's lines and the instant the parent read them."""
    for header in stdin:
        started, count = header.split()
        yield [stdin.readline().rstrip("\n") for _ in range(int(count))], float(started)


if __name__ == "__main__":
    if sys.argv[1] == "--serve":
        serve(sys.argv[2])
    else:
        play(sys.argv[1])
