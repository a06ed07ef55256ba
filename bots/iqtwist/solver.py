"""IQ-Twist solver: `python -m bots.iqtwist.solver`.

Reads challenges from stdin, one placement string a line, and answers each in turn: every canonical
solution, one a line, sorted, then an empty line (so a challenge with no solution gets the empty line
alone). The command's shape (input, bad input, exit statuses) is every solver's:
bots/puzzle_solver.py. `--count` prints the number of solutions of the empty board instead, and the
search time on stderr.
"""

from __future__ import annotations

import sys
import time

from bots import puzzle_solver
from referee.iqtwist.puzzle import PUZZLE
from referee.iqtwist.rules import State
from bots.iqtwist.search import count_solutions, solutions, warm_up
from referee.platform.commands import reader_gone


def solve(challenge) -> list[str]:
    """Every canonical solution of a challenge, sorted (none: the empty list)."""
    return solutions(challenge.state)


def main(argv: list[str] | None = None) -> int:
    parser = puzzle_solver.parser(PUZZLE, "Print every canonical solution of each challenge read from stdin.")
    parser.add_argument("--count", action="store_true", help="count the solutions of the empty board")
    args = parser.parse_args(argv)
    warm_up()
    if args.count:
        start = time.perf_counter()
        count = count_solutions(State())
        try:
            print(count, flush=True)
        except BrokenPipeError:  # `... --count | head -c 0`: the reader has what it wanted
            return reader_gone()
        ms = 1000 * (time.perf_counter() - start)
        print(f"{count} solutions of the empty board in {ms:.1f} ms", file=sys.stderr)
        return 0
    return puzzle_solver.run(PUZZLE, solve)


if __name__ == "__main__":
    sys.exit(main())
