"""Vikings - Brainstorm solver: `python -m bots.vikings.solver`.

Reads objectives from stdin, `BOARD TARGET` a line, and answers each in turn with one line: a
shortest solution as tile digits (one a quarter-turn), or NONE when the objective cannot be met (a
proof: the search exhausted the reachable states). The command's shape (input, NONE, bad input,
exit statuses) is every solver's: bots/puzzle_solver.py. `--times` also writes each objective's
solve time on stderr, then the total, median and maximum (wall clock, and the process's CPU time).
`--search bfs` uses breadth-first search instead of A*, for comparison.
"""

from __future__ import annotations

import functools
import statistics
import sys

from bots import puzzle_solver
from referee.vikings.puzzle import PUZZLE
from referee.vikings.rules import parse_moves
from bots.vikings.search import breadth_first_solution, shortest_solution

SEARCHES = {"astar": shortest_solution, "bfs": breadth_first_solution}


def solve(objective, search=shortest_solution) -> list[int] | None:
    """A shortest solution (the tiles to turn), or None when the objective cannot be met."""
    solution = search(objective)
    return None if solution is None else parse_moves(solution)


class _Times:
    """`--times`: a line per objective on stderr as it is answered, then the totals."""

    def __init__(self):
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def __call__(self, text, objective, moves, seconds, cpu_seconds) -> None:
        self.wall.append(1000 * seconds)
        self.cpu.append(1000 * cpu_seconds)
        if objective is not None:
            found = "NONE" if moves is None else f"{len(moves)} moves"
            print(f"{self.wall[-1]:.1f} ms  {found}  {text}", file=sys.stderr)

    def totals(self) -> str:
        wall, cpu = self.wall, self.cpu
        return (
            f"{len(wall)} objectives: total {sum(wall) / 1000:.2f} s, median {statistics.median(wall):.1f} ms,"
            f" max {max(wall):.1f} ms (CPU: total {sum(cpu) / 1000:.2f} s, median {statistics.median(cpu):.1f} ms,"
            f" max {max(cpu):.1f} ms)"
        )


def main(argv: list[str] | None = None) -> int:
    parser = puzzle_solver.parser(PUZZLE, "Print a shortest solution of each objective read from stdin.")
    parser.add_argument("--times", action="store_true", help="solve times on stderr")
    parser.add_argument("--search", choices=SEARCHES, default="astar", help="the search (default astar)")
    args = parser.parse_args(argv)
    search = SEARCHES[args.search]
    search(PUZZLE.parse_instance("N0O1N1N0O0O1N0N3N1Rt Rv"))  # compile, or load numba's cache, before timing

    times = _Times() if args.times else None
    status = puzzle_solver.run(PUZZLE, functools.partial(solve, search=search), times)
    if times is not None and times.wall:
        print(times.totals(), file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
