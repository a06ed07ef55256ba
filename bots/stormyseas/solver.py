"""Stormy Seas solver: reads cards (8 lines each) on stdin, prints an optimal solution line to each, or NONE.

    python -m bots.stormyseas.solver [--metric units|slides] [--rotation] < card.txt

The search, bots.stormyseas.search, is exact: this solver is the judge's default oracle for the
optima (run once with each --metric); NONE is printed only when it has exhausted every reachable
position. The command's shape
(input, NONE, bad input, exit statuses) is every solver's: bots/puzzle_solver.py.
"""

from __future__ import annotations

import functools
import sys

from bots import puzzle_solver
from referee.stormyseas.puzzle import PUZZLE
from bots.stormyseas.search import METRICS, solve as search


def solve(card, metric: str = "units", rotation: bool = False):
    """An optimal solution's slides, or None when the card has no solution."""
    solution = search(card, metric, rotation=rotation)
    return None if solution is None else solution.slides


def main(argv: list[str] | None = None) -> int:
    parser = puzzle_solver.parser(PUZZLE, __doc__.splitlines()[0])
    parser.add_argument("--metric", choices=METRICS, default="units", help="what to minimise (default: unit moves)")
    parser.add_argument("--rotation", action="store_true", help="the red boat may turn (the physical game's rule)")
    args = parser.parse_args(argv)
    return puzzle_solver.run(PUZZLE, functools.partial(solve, metric=args.metric, rotation=args.rotation))


if __name__ == "__main__":
    sys.exit(main())
