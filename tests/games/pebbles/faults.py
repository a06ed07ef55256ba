"""What Pebbles' referees that the arena drives (sdk_referee.py, relay_referee.py) share: reading
the runner's lines, and the flags that make them misbehave for tests, ROUND counting the runner's
requests from 1."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path


def add_flags(parser) -> None:
    parser.add_argument("--ignore-seed", action="store_true", help="draw the game from os.urandom")
    parser.add_argument("--crash-at", type=int, metavar="ROUND", help="die there, saying nothing on stdout")
    parser.add_argument("--hang-at", type=int, metavar="ROUND", help="stop answering there")
    parser.add_argument("--garbage-at", type=int, metavar="ROUND", help="print what the protocol lacks there")
    parser.add_argument("--exit-code", type=int, default=0, help="exit with it after the result")
    parser.add_argument("--spawn", metavar="FILE", help="start a process in a session of its own; its pid to FILE")


def spawn(args) -> None:
    """With --spawn, a child that outlives us unless killed: its pid to the file."""
    if args.spawn:
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"], start_new_session=True)
        Path(args.spawn).write_text(str(child.pid))


def read() -> str:
    """The runner's next line; its input's end ends us."""
    line = sys.stdin.readline()
    if not line:
        sys.exit("the runner closed our input")
    return line.rstrip("\r\n")


def misbehave(args, round_: int, crash: str) -> None:
    """At round `round_`, what the flags say: crash (`crash` its last words on stderr), hang, or
    print garbage."""
    if round_ == args.crash_at:
        print(crash, file=sys.stderr, flush=True)
        os._exit(1)
    if round_ == args.hang_at:
        time.sleep(3600)
    if round_ == args.garbage_at:
        print("Hello from the referee!", flush=True)
