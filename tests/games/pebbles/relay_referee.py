"""Pebbles refereed in the pre-2018 relay protocol (see arena/games/relay.py for the protocol and
its sources), with the game's rules from rules.py: `###Seed N` (optional) and `###Start N` in, then
`###Input k` blocks, `###Output k 1` requests and a `###End` line out. A player that answers what
is no pebble is reported (`###Error k`) and the game ends, that player last.

Flags make it misbehave for tests; ROUND counts the `###Output` requests, from 1.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import rules  # noqa: E402


def options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ignore-seed", action="store_true", help="draw the game from os.urandom")
    parser.add_argument("--crash-at", type=int, metavar="ROUND", help="die there")
    parser.add_argument("--hang-at", type=int, metavar="ROUND", help="stop answering there")
    parser.add_argument("--garbage-at", type=int, metavar="ROUND", help="print what is no command there")
    parser.add_argument("--bad-end", action="store_true", help="end on a result that places nobody")
    parser.add_argument("--exit-code", type=int, default=0, help="exit with it after the result")
    parser.add_argument("--spawn", metavar="FILE", help="start a process in a session of its own; its pid to FILE")
    return parser.parse_args()


def read() -> str:
    line = sys.stdin.readline()
    if not line:
        sys.exit("the runner closed our input")
    return line.rstrip("\r\n")


def result(scores: list[int], out: int | None) -> str:
    """`###End` and the players by place, those with equal scores in one group, the out player last."""
    order = sorted({score for i, score in enumerate(scores) if i != out}, reverse=True)
    groups = ["".join(str(i) for i, score in enumerate(scores) if score == value and i != out) for value in order]
    return " ".join(["###End", *groups, *([str(out)] if out is not None else [])])


def main() -> int:
    args = options()
    if args.spawn:
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"], start_new_session=True)
        Path(args.spawn).write_text(str(child.pid))
    line = read()
    seed = random.getrandbits(63)
    if line.startswith("###Seed "):
        seed = int(line.split()[1])
        line = read()
    if not line.startswith("###Start "):
        print(f"expected ###Start, got {line!r}", file=sys.stderr)
        return 1
    state = rules.new_game(int.from_bytes(os.urandom(8)) if args.ignore_seed else seed, int(line.split()[1]))
    out = None
    round_ = 0
    while not state.over and out is None:
        mover = state.to_move
        round_ += 1
        if round_ == args.crash_at:
            print("Exception in thread main: crash-at", file=sys.stderr, flush=True)
            os._exit(1)
        if round_ == args.hang_at:
            time.sleep(3600)
        if round_ == args.garbage_at:
            print("Hello from the referee!")
        print("\n".join([f"###Input {mover}", *rules.turn_input(state), f"###Output {mover} 1"]), flush=True)
        error = rules.play(state, read())
        if error is not None:
            print(f"###Error {mover} InvalidInput {error}", flush=True)
            out = mover
    print("###End 9" if args.bad_end else result(rules.final_scores(state, out), out), flush=True)
    return args.exit_code


if __name__ == "__main__":
    sys.exit(main())
