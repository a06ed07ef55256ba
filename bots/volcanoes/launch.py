"""A bot's process that never loses a turn to its own start-up: `python -m bots.volcanoes.NAME`.

Importing numba takes about half a second, and loading a bot's kernels from numba's cache a few
tenths more; on a fresh install (an empty cache) compiling them takes many seconds, longer still on
a busy machine. CodinGame allows 1000 ms for the first answer, counted from when the referee sent
the first turn, right after starting the process. So the process answers with a stand-in from the
first turn: the pure-Python engine (`bots.volcanoes.pure`, the program we submit to CodinGame),
which imports in a few milliseconds, while a child process (`--serve NAME`) imports the bot and
compiles or loads its kernels. Once the child says it is ready, this process tells it the seat and
turn number the stand-in's adapter has tracked, and the child plays the rest of the game on this
process's stdin and stdout, which it inherited (the switch is logged on stderr); if the child dies,
the stand-in plays on.

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

from .bot import Budget, Player, ending_on_bad_input, read_turns
from referee.platform.bot_env import given_seed

from .registry import stand_in

# Set by a referee that can wait before the game's first turn (the arena, for the bots it starts):
# load the bot first, say READY_LINE on stderr, and only then read the first turn; no stand-in.
LOAD_FIRST_VARIABLE = "CALDERA_LOAD_FIRST"
READY_LINE = "ready: the bot takes over from the first turn"
# On stderr when the bot takes over from the stand-in during a game (after the stand-in's answer).
TAKE_OVER_NOTE = "it takes over from the pure-Python stand-in"
# The stand-in's budget, shorter than the submission's: it plays only while the engine loads, which
# shares the machine, and on a busy machine it is where the slowest turns were (the measurements:
# docs/experiments/budgets.md).
STAND_IN_BUDGET = Budget(share=0.25, first_share=0.15, reserve_s=0.0)
# How long a loading child runs at the idle priority (`can_load_idle`) before it goes on at the usual
# one: loading from a warm cache takes about a second of processor time, compiling 10 to 30.
IDLE_LOAD_SECONDS = 5.0


class _Engine:
    """The bot in a child process (`python -m bots.volcanoes.launch --serve NAME IN OUT`), which
    imports numba and compiles or loads the kernels on its own interpreter lock: a loading thread in
    this process held the lock for tens of milliseconds at a time, and longer when the machine was so
    busy that the OS paused it while it held the lock (the stand-in then missed turns).

    Once it says "ready" and is told where the game stands, the child reads the game's input and
    writes its answers itself, on copies of this process's stdin and stdout that it inherited: no
    turn waits for this process to pass lines on (each such hop is a wait for a processor on a busy
    machine). It tells this process the seat and turn it has answered, so that if it dies the
    stand-in plays on from there."""

    def __init__(self, name: str, game_in, game_out, idle: bool = False):
        """`idle`: load at the idle scheduling priority (see `can_load_idle`)."""
        self.name = name
        self.started = time.perf_counter()
        game = (os.dup(game_in.fileno()), os.dup(game_out.fileno()))
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "bots.volcanoes.launch", "--serve", name, *map(str, game)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                bufsize=1,
                pass_fds=game,
            )
        finally:
            for fd in game:
                os.close(fd)
        self.idle = idle
        if idle:
            try:
                os.sched_setscheduler(self.proc.pid, os.SCHED_IDLE, os.sched_param(0))
            except OSError:  # it loads at the usual priority
                self.idle = False
        self.ready = False  # it has loaded
        self.playing = False  # it has the game
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
            print(
                f"[{self.name}] could not load (exit status {self.proc.wait()}); the pure-Python stand-in plays on",
                file=log,
                flush=True,
            )
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
        """Let a paused child load on; one that has loaded idle for IDLE_LOAD_SECONDS goes on at
        the usual priority (it is compiling, or the machine has no idle processor: at the idle
        priority it might never finish, and a child that never finishes never fills numba's
        cache for the next game either)."""
        if self.idle and self._loading() and time.perf_counter() - self.started > IDLE_LOAD_SECONDS:
            self.idle = False
            try:
                os.sched_setscheduler(self.proc.pid, os.SCHED_OTHER, os.sched_param(0))
            except OSError:  # it has just ended
                pass
        if self.paused:
            self.paused = False
            if self.proc is not None:
                self.proc.send_signal(signal.SIGCONT)

    def _loading(self) -> bool:
        return self.proc is not None and not self.ready and self.proc.poll() is None

    def take_over(self, pure: Player, log) -> None:
        """Hand the game to the child, telling it where the game stands (seat and turn, or none
        before the first turn)."""
        self.proc.stdin.write(f"resume {pure.colour} {pure.turn}\n")
        self.playing = True
        print(
            f"[{self.name}] ready after {time.perf_counter() - self.started:.2f} s: {TAKE_OVER_NOTE}",
            file=log,
            flush=True,
        )

    def follow(self, pure: Player, log) -> bool:
        """Wait while the child plays: False when the game's input ended (it says "end"); True when
        it died first (its stderr says why), with `pure` set to the seat and turn it last answered,
        from where the stand-in plays on."""
        colour = turn = 0
        for line in self.proc.stdout:
            said = line.split()
            if said == ["end"]:
                return False
            if len(said) == 3 and said[0] == "turn":
                colour, turn = int(said[1]), int(said[2])
        if turn:  # (else the stand-in's game has not begun: its next lines start it)
            pure.resume(colour, turn)
        print(f"[{self.name}] its process ended; the pure-Python stand-in plays on", file=log, flush=True)
        self.proc.wait()
        self.proc, self.ready, self.playing = None, False, False
        return True

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


_CAP_SYS_NICE = 23  # the capability's bit (linux/capability.h)


def can_load_idle() -> bool:
    """Whether a loading child can run at Linux's idle scheduling priority and come back from it.

    At the idle priority (SCHED_IDLE) a process runs only on a processor nothing else wants, so a
    loading child no longer takes time from the turns of this game's stand-in, nor from any other
    game's bots: with twice as many games as cores (`arena bench --stress --cache warm --parallel
    4`, 600 games on 2 cores, one run each) the later turns' p99 fell from 88 to 73 ms. But the child must play at
    the usual priority once loaded, and leaving SCHED_IDLE takes the right to raise one's priority:
    CAP_SYS_NICE, or an RLIMIT_NICE of 20 or more. Without it the child loads at the usual priority,
    stopped while the stand-in thinks (`_Engine.pause`)."""
    if not hasattr(os, "SCHED_IDLE"):
        return False
    try:
        import resource  # (Unix only)

        if resource.getrlimit(resource.RLIMIT_NICE)[0] >= 20 - os.getpriority(os.PRIO_PROCESS, 0):
            return True
        with open("/proc/self/status") as status:
            capabilities = next(line for line in status if line.startswith("CapEff:")).split()[1]
        return bool(int(capabilities, 16) >> _CAP_SYS_NICE & 1)
    except (ImportError, OSError, StopIteration, ValueError, IndexError):
        return False


def play_command_line(name: str) -> None:
    """`python -m bots.volcanoes.NAME`: play registered bot `name` on stdin and stdout. It takes no
    arguments: one given (`--help`) is refused, where it was ignored and the bot waited for a game."""
    if sys.argv[1:]:
        print(
            f"python -m bots.volcanoes.{name}: it takes no arguments ({' '.join(sys.argv[1:])}): it plays Volcanoes "
            f"on stdin and stdout, as CodinGame runs a bot (docs/volcanoes.md); its options are the arena's "
            f"({name}:OPTION=VALUE, which `arena bots` lists)",
            file=sys.stderr,
        )
        sys.exit(2)
    play(name)


def play(name: str, stdin=None, stdout=None, log=None) -> None:
    """Play registered bot `name` on stdin/stdout (real files: the child inherits them), the
    stand-in answering until the bot is ready."""
    stdin, stdout, log = stdin or sys.stdin, stdout or sys.stdout, log or sys.stderr
    try:
        pure = Player(stand_in(name), budget=STAND_IN_BUDGET)
    except ImportError:  # a single-file bundle of the bot alone carries no stand-in: play it directly
        from .base import main
        from .registry import bot_class

        main(bot_class(name)(seed=given_seed()))
        return
    load_first = bool(os.environ.get(LOAD_FIRST_VARIABLE))  # (nothing waits on it then: usual priority)
    engine = _Engine(name, stdin, stdout, idle=not load_first and can_load_idle())
    try:
        if load_first:
            while not engine.poll_ready(log, wait=True):
                if engine.proc is None:  # it could not load: the stand-in plays
                    break
            else:
                engine.take_over(pure, log)
                print(READY_LINE, file=log, flush=True)
        _play(name, pure, engine, stdin, stdout, log)
    finally:  # the input ended, or was not CodinGame's: the child goes too
        engine.close()


def _play(name: str, pure: Player, engine: _Engine, stdin, stdout, log) -> None:
    gc.disable()  # collections run after answering, never inside a timed turn
    turns = read_turns(stdin)
    with ending_on_bad_input(name):
        while True:
            if engine.playing and not engine.follow(pure, log):
                return
            turn = next(turns, None)
            if turn is None:
                return
            engine.pause()
            answer = pure.answer(*turn)
            print(answer, file=stdout, flush=True)
            engine.carry_on()
            if engine.poll_ready(log):  # the opponent's turn pays for the switch
                engine.take_over(pure, log)
            gc.collect(1)


def _leave_idle() -> None:
    """Run this thread at the usual priority if it runs at the idle one (`can_load_idle`)."""
    if hasattr(os, "SCHED_IDLE") and os.sched_getscheduler(0) == os.SCHED_IDLE:
        os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))


def _leaving_idle_to_compile():
    """A context in which the thread leaves the idle priority when numba compiles a kernel: numba
    says "numba:compile" only for a kernel not in its cache, and compiling takes 10 to 30 s of
    processor time, which at the idle priority on a busy machine might not end within a game, nor
    then fill the cache for the next one. So a child loads idle from a warm cache but compiles at the
    usual priority (still stopped while the stand-in thinks)."""
    from numba.core import event  # (numba: the child alone imports it, while the stand-in answers)

    class Compiling(event.Listener):
        def on_start(self, _event) -> None:
            _leave_idle()

        def on_end(self, _event) -> None:
            pass

    return event.install_listener("numba:compile", Compiling())


def serve(name: str, game_in: int, game_out: int) -> None:
    """The child's side: load the bot, say "ready", learn where the game stands, then play it on
    the game's own input and output (file descriptors `game_in`, `game_out`), saying after each
    answer which seat and turn it answered, and "end" when the input ended."""
    # The engine and its rules (numba): imported here, by the child, while the stand-in answers.
    from referee.volcanoes import rules

    from .base import hiding_scipy
    from .registry import bot_class
    from .state import GameState

    with hiding_scipy(), _leaving_idle_to_compile():
        bot = bot_class(name)(seed=given_seed())
        bot.warm_up()
    # A few turns' searches before the first real one: the tree's and tables' memory is touched
    # here, not in a timed turn (a first search into fresh pages took 140 to 190 ms).
    levels, dormant = rules.new_state()
    for _ in range(3):
        bot.choose(GameState(levels, dormant, 0), 0.08)
    gc.collect()
    gc.freeze()  # what the imports made is never looked at again
    _leave_idle()  # loaded idle: it plays at the usual priority
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

    def report() -> None:
        print(f"turn {player.colour} {player.turn}", flush=True)

    with open(game_in, closefd=True) as stdin, open(game_out, "w", closefd=True) as stdout:
        player.run(stdin, stdout, answered=report)
    print("end", flush=True)


def _usage_error(message: str) -> None:
    print(f"python -m bots.volcanoes.launch: {message}", file=sys.stderr)
    sys.exit(2)


if __name__ == "__main__":
    from .registry import BOTS

    args = sys.argv[1:]
    if args[:1] == ["--serve"]:  # (the engine's child, as _Engine starts it)
        if len(args) != 4 or args[1] not in BOTS or not (args[2].isdigit() and args[3].isdigit()):
            _usage_error("--serve NAME IN_FD OUT_FD: a registered bot and two file descriptors")
        serve(args[1], int(args[2]), int(args[3]))
    elif len(args) != 1 or args[0] not in BOTS:
        _usage_error(f"give one registered bot to play: {', '.join(BOTS)}")
    else:
        play(args[0])
