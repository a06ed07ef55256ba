"""A player (or solver) whose processes try to outlive it. usage: escaper.py MODE MARKER [DIR [DELAY]]

Before it answers anything it starts its escape, in a session of its own, then plays: RANDOM to
each Volcanoes turn, and to each line of a solver's instance (judged wrong).
Every process of the escape carries MARKER in its command line (so a test can find any that is
left) and ends by itself after LIFETIME seconds (so a failed test leaves nothing for long). With
DIR, the escape's first process writes DIR/escaped.<pid> once it runs: the attack is real. With DELAY, it waits DELAY seconds before each
answer (a game that lasts, to be killed in the middle of).

MODE:
  chain  a child leaves the session (setsid), then forks a new generation as fast as it can,
         each parent exiting after its fork: a process tree that is never the same twice.
  bare   a grandchild leaves the session, is orphaned, and runs with an empty environment.
  none   no escape (a plain player).
  killparent  kills the process that started it (an arena worker) on its first turn, with SIGKILL,
         as the OOM killer might.
"""

import os
import signal
import sys
import time

LIFETIME = 60.0
mode, marker = sys.argv[1], sys.argv[2]
report = sys.argv[3] if len(sys.argv) > 3 else None
delay = float(sys.argv[4]) if len(sys.argv) > 4 else 0.0
born = time.monotonic()


def say_escaped() -> None:
    if report:
        path = os.path.join(report, f"escaped.{os.getpid()}")
        with open(path + ".part", "w") as f:
            f.write(marker)
        os.rename(path + ".part", path)


def chain() -> None:
    os.setsid()
    say_escaped()
    while time.monotonic() - born < LIFETIME:
        if os.fork() != 0:
            os._exit(0)  # the parent goes; its child carries on
    os._exit(0)


def bare() -> None:
    os.setsid()
    if os.fork() != 0:
        os._exit(0)  # orphans the grandchild
    say_escaped()
    code = f"import time; time.sleep({LIFETIME})"
    os.execve(sys.executable, [sys.executable, "-S", "-c", code, marker], {})


if mode in ("chain", "bare"):
    if os.fork() == 0:
        try:
            chain() if mode == "chain" else bare()
        finally:
            os._exit(0)
    while report and not any(name.startswith("escaped.") for name in os.listdir(report)):
        time.sleep(0.005)
while True:
    line = sys.stdin.readline()
    if not line:
        break
    if line.strip() == "80":  # a Volcanoes game's first input: the board, then the first turn
        for _ in range(80):
            sys.stdin.readline()
        line = sys.stdin.readline()
    if len(line.split()) == 80:  # a Volcanoes turn: the position, then the valid moves
        sys.stdin.readline()
    if mode == "killparent":
        os.kill(os.getppid(), signal.SIGKILL)
    time.sleep(delay)
    print("RANDOM", flush=True)
