"""New Coroutine puzzles: random boards with an optimum of exactly N turns, and the longest we can find.

    python -m bots.coroutine.generate --turns 20 [--count 5] [--seed 1] [--effort N]
    python -m bots.coroutine.generate --hardest [--seconds 60] [--seed 1]

Both run fast.py's hill climb (flip one arrow, keep the board if its optimum gets no further from
the goal, restart from a new random board when stuck), in batches with seeds drawn from one seed.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

import numpy as np

from bots import puzzle_solver
from bots.coroutine.fast import MOST_TURNS, NEIGHBOUR, climb, optimal_turns
from bots.coroutine.search import solve
from referee.coroutine.puzzle import PUZZLE
from referee.coroutine.rules import Board, format_answer, format_puzzle
from referee.platform.commands import run_command
from referee.platform.errors import UserError
from referee.platform.options import count, positive_seconds

DENSITY = 0.3  # a restart's board shows each arrow with this probability: sparse boards run long
PATIENCE = 2000  # flips without getting closer before a restart
BATCH = 200_000  # boards evaluated per kernel call (about 0.2-0.5 s)
LONGEST = MOST_TURNS + 1  # a target above every possible optimum: climb towards the longest
LONGEST_POSSIBLE = 29  # proved by bound.py: no board needs 30 turns (`python -m bots.coroutine.bound`, tested)


def generate(turns: int, count: int = 1, seed: int | None = None, effort: int = 50_000_000) -> list[Board]:
    """Up to `count` distinct boards whose optimum is exactly `turns`, within `effort` evaluations."""
    if not 1 <= turns <= LONGEST_POSSIBLE:
        raise ValueError(f"an optimum is 1 to {LONGEST_POSSIBLE} turns, not {turns}")
    seeds = random.Random(seed)
    found: list[Board] = []
    used = 0
    while len(found) < count and used < effort:
        budget = min(BATCH, effort - used)
        board, distance = _run_climb(turns, budget, seeds.getrandbits(32))
        used += budget
        if distance == 0 and board not in found:
            found.append(board)
    return found


def hardest(
    seconds: float, seed: int | None = None, report: Callable[[Board, int, float], None] | None = None
) -> tuple[Board, int]:
    """The board with the longest optimum found within `seconds` (or as soon as one has the longest
    possible), and that optimum. `report(board, turns, elapsed)` is called on each new record.
    """
    seeds = random.Random(seed)
    start = time.perf_counter()
    best: Board | None = None
    best_turns = -1
    while best is None or (best_turns < LONGEST_POSSIBLE and time.perf_counter() - start < seconds):
        board, _ = _run_climb(LONGEST, BATCH, seeds.getrandbits(32))
        turns = optimal_turns(board)
        if turns > best_turns:
            best, best_turns = board, turns
            if report:
                report(board, turns, time.perf_counter() - start)
    return best, best_turns


def _run_climb(target: int, evaluations: int, seed: int) -> tuple[Board, int]:
    masks = np.zeros(9, np.int64)
    distance = climb(target, evaluations, PATIENCE, DENSITY, seed, NEIGHBOUR, masks)
    return tuple(int(m) for m in masks), int(distance)


def main(argv: list[str] | None = None) -> int:
    parser = puzzle_solver.parser(
        PUZZLE, "Random puzzles whose optimum is exactly N turns, or the hardest board found.", "generate"
    )
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--turns", type=int, metavar="N", help="print puzzles whose optimum is exactly N turns")
    what.add_argument("--hardest", action="store_true", help="search for the board with the longest optimum")
    parser.add_argument(
        "--count", type=int, default=None, metavar="K", help="with --turns: how many puzzles (default 1)"
    )
    parser.add_argument("--seed", type=int, default=None, metavar="S")
    parser.add_argument("--effort", type=count(1), default=50_000_000, help="boards to evaluate at most (default 5e7)")
    parser.add_argument(
        "--seconds", type=positive_seconds, default=60, metavar="T", help="with --hardest: the search time (default 60)"
    )
    args = parser.parse_args(argv)
    args.run = run_hardest if args.hardest else run_generate
    return run_command(args)


def run_generate(args) -> int:
    if not 1 <= args.turns <= LONGEST_POSSIBLE:
        raise UserError(
            f"--turns must be 1 to {LONGEST_POSSIBLE}: no board needs more than {LONGEST_POSSIBLE} turns "
            f"(an exhaustive search proves it: python -m bots.coroutine.bound --turns {LONGEST_POSSIBLE + 1})"
        )
    wanted = 1 if args.count is None else args.count
    if wanted < 1:
        raise UserError("--count must be at least 1")
    boards = generate(args.turns, wanted, args.seed, args.effort)
    print("\n\n".join(format_puzzle(board) for board in boards))
    if len(boards) < wanted:
        print(f"found {len(boards)} of {wanted} puzzles with an optimum of {args.turns} turns "
              f"within {args.effort:,} boards", file=sys.stderr)  # fmt: skip
        return 1
    return 0


def run_hardest(args) -> int:
    if args.count is not None:
        raise UserError("--count goes with --turns: --hardest prints one board, the hardest it finds")

    def report(board, turns, elapsed):
        print(f"{elapsed:7.1f} s: {turns} turns", file=sys.stderr, flush=True)

    board, _ = hardest(args.seconds, args.seed, report)
    line = solve(board)
    steps = sum(turn.direction is not None for turn in line)
    longest = " (the longest possible: see `python -m bots.coroutine.bound`)" if len(line) == LONGEST_POSSIBLE else ""
    print(format_puzzle(board))
    print(f"\noptimum: {len(line)} turns ({steps} steps, {len(line) - steps} forced passes){longest}")
    print(format_answer(line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
