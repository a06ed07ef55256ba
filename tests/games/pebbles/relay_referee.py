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
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import faults  # noqa: E402
import rules  # noqa: E402
from faults import read  # noqa: E402


def options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    faults.add_flags(parser)
    parser.add_argument("--bad-end", action="store_true", help="end on a result that places nobody")
    return parser.parse_args()


def result(scores: list[int], out: int | None) -> str:
    """`###End` and the players by place, those with equal scores in one group, the out player last."""
    order = sorted({score for i, score in enumerate(scores) if i != out}, reverse=True)
    groups = ["".join(str(i) for i, score in enumerate(scores) if score == value and i != out) for value in order]
    return " ".join(["###End", *groups, *([str(out)] if out is not None else [])])


def main() -> int:
    args = options()
    faults.spawn(args)
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
        faults.misbehave(args, round_, "Exception in thread main: crash-at")
        print("\n".join([f"###Input {mover}", *rules.turn_input(state), f"###Output {mover} 1"]), flush=True)
        error = rules.play(state, read())
        if error is not None:
            print(f"###Error {mover} InvalidInput {error}", flush=True)
            out = mover
    print("###End 9" if args.bad_end else result(rules.final_scores(state, out), out), flush=True)
    return args.exit_code


if __name__ == "__main__":
    sys.exit(main())
