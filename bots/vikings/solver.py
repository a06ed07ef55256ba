"""Vikings - Brainstorm solver: `python -m bots.vikings.solver`.

Reads objectives from stdin, `BOARD TARGET` a line, and answers each in turn with one line: a
shortest solution as tile digits (one a quarter-turn), or NONE when the objective cannot be met.
An objective that is malformed or invalid gets an empty line, a message on stderr, and exit status 2
once every line is answered (NONE is only ever a proof that the objective cannot be met). `--times` also
writes each objective's solve time on stderr, then the total, median and maximum (wall clock, and
the process's CPU time). `--search bfs` uses breadth-first search instead of A*, for comparison.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time

from referee.errors import InputFormatError, shorten
from referee.vikings.rules import parse_objective
from referee.vikings.search import breadth_first_solution, shortest_solution

SEARCHES = {"astar": shortest_solution, "bfs": breadth_first_solution}


def answer(line: str, search=shortest_solution) -> str | None:
    """A shortest solution of one objective line, NONE when it cannot be met, None when the line
    is not an objective (a message on stderr says why)."""
    try:
        objective = parse_objective(line)
    except InputFormatError as exc:
        print(f"vikings solver: objective {shorten(line)}: {exc}", file=sys.stderr)
        return None
    solution = search(objective)
    return "NONE" if solution is None else solution


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bots.vikings.solver",
                                     description="Print a shortest solution of each objective read from stdin.")
    parser.add_argument("--times", action="store_true", help="solve times on stderr")
    parser.add_argument("--search", choices=SEARCHES, default="astar", help="the search (default astar)")
    args = parser.parse_args(argv)
    search = SEARCHES[args.search]
    search(parse_objective("N0O1N1N0O0O1N0N3N1Rt Rv"))  # compile, or load numba's cache, before timing
    times, cpu = [], []
    bad_input = False
    lines = _lines(sys.stdin)
    for line in lines:
        start, start_cpu = time.perf_counter(), time.process_time()
        solution = answer(line, search)
        times.append(1000 * (time.perf_counter() - start))
        cpu.append(1000 * (time.process_time() - start_cpu))
        bad_input |= solution is None
        sys.stdout.write((solution or "") + "\n")  # an empty line for a line that is no objective
        sys.stdout.flush()
        if args.times and solution is not None:
            found = "NONE" if solution == "NONE" else f"{len(solution)} moves"
            print(f"{times[-1]:.1f} ms  {found}  {line}", file=sys.stderr)
    if args.times and times:
        print(f"{len(times)} objectives: total {sum(times) / 1000:.2f} s, median {statistics.median(times):.1f} ms,"
              f" max {max(times):.1f} ms (CPU: total {sum(cpu) / 1000:.2f} s, median {statistics.median(cpu):.1f} ms,"
              f" max {max(cpu):.1f} ms)", file=sys.stderr)
    return 2 if bad_input or lines.not_text else 0


class _lines:
    """The non-empty lines of `stream`, stripped; stops at text that is not UTF-8 (and says so)."""

    def __init__(self, stream):
        self.stream, self.not_text = stream, False

    def __iter__(self):
        try:
            for line in self.stream:
                if line.strip():
                    yield line.strip()
        except UnicodeDecodeError:
            print("vikings solver: the input is not UTF-8 text", file=sys.stderr)
            self.not_text = True


if __name__ == "__main__":
    sys.exit(main())
