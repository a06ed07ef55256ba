"""`referee coroutine ...`: judge a solver, generate puzzles, search for the hardest board, prove a bound."""
from __future__ import annotations

import sys

from referee.coroutine.rules import format_answer, format_puzzle
from referee.coroutine.search import solve
from referee.errors import refuse


def register(commands) -> None:
    """The commands of `referee coroutine` beyond `judge`."""
    generate = commands.add_parser("generate", help="random puzzles whose optimum is exactly N turns")
    generate.add_argument("--turns", type=int, required=True, metavar="N")
    generate.add_argument("--count", type=int, default=1, metavar="K")
    generate.add_argument("--seed", type=int, default=None, metavar="S")
    generate.add_argument("--effort", type=int, default=50_000_000, help="boards to evaluate at most (default 5e7)")
    generate.set_defaults(run=run_generate)

    hardest = commands.add_parser("hardest", help="search for the board with the longest optimal answer")
    hardest.add_argument("--seconds", type=float, default=60, metavar="T", help="search time (default 60)")
    hardest.add_argument("--seed", type=int, default=None, metavar="S")
    hardest.set_defaults(run=run_hardest)

    bound = commands.add_parser("bound", help="prove by exhaustive search whether any board needs N turns or more")
    bound.add_argument("--turns", type=int, default=30, metavar="N", help="(default 30)")
    bound.set_defaults(run=run_bound)


def run_generate(args) -> int:
    from referee.coroutine.fast import MOST_TURNS
    from referee.coroutine.generate import generate

    if not 1 <= args.turns <= MOST_TURNS:
        return refuse(args, f"--turns must be 1 to {MOST_TURNS}: an optimal line visits each of {MOST_TURNS} states at most once")
    if args.count < 1:
        return refuse(args, "--count must be at least 1")
    boards = generate(args.turns, args.count, args.seed, args.effort)
    print("\n\n".join(format_puzzle(board) for board in boards))
    if len(boards) < args.count:
        print(f"found {len(boards)} of {args.count} puzzles with an optimum of {args.turns} turns "
              f"within {args.effort:,} boards", file=sys.stderr)  # fmt: skip
        return 1
    return 0


def run_hardest(args) -> int:
    from referee.coroutine.generate import LONGEST_POSSIBLE, hardest

    def report(board, turns, elapsed):
        print(f"{elapsed:7.1f} s: {turns} turns", file=sys.stderr, flush=True)

    board, _ = hardest(args.seconds, args.seed, report)
    line = solve(board)
    steps = sum(turn.direction is not None for turn in line)
    longest = " (the longest possible: see `referee coroutine bound`)" if len(line) == LONGEST_POSSIBLE else ""
    print(format_puzzle(board))
    print(f"\noptimum: {len(line)} turns ({steps} steps, {len(line) - steps} forced passes){longest}")
    print(format_answer(line))
    return 0


def run_bound(args) -> int:
    from referee.coroutine.bound import bound
    from referee.coroutine.fast import MOST_TURNS

    if not 2 <= args.turns <= MOST_TURNS:
        return refuse(args, f"--turns must be 2 to {MOST_TURNS}")
    result = bound(args.turns)
    searched = f"{result.lines:,} lines of {args.turns - 1} states survive the search"
    if result.longest < args.turns:
        print(f"no board needs {args.turns} turns or more: {searched}, and none of their completions needs "
              f"more than {result.longest} turns")  # fmt: skip
    else:
        print(f"the longest optimum of any board is {result.longest} turns ({searched}):")
        print(format_puzzle(result.board))
    return 0

