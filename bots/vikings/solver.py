"""Vikings - Brainstorm solver: `python -m bots.vikings.solver`.

Reads objectives from stdin, `BOARD TARGET` a line, and answers each in turn with one line: a
shortest solution as tile digits (one a quarter-turn), or NONE when the objective cannot be met.
An objective that is malformed or invalid gets NONE and a message on stderr. `--times` also
writes each objective's solve time on stderr, then the total, median and maximum (wall clock, and
the process's CPU time). `--search bfs` uses breadth-first search instead of A*, for comparison.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time

from referee.errors import InputFormatError
from referee.vikings.rules import parse_objective
from referee.vikings.search import breadth_first_solution, shortest_solution

SEARCHES = {"astar": shortest_solution, "bfs": breadth_first_solution}


def answer(line: str, search=shortest_solution) -> str:
    try:
        objective = parse_objective(line)
    except InputFormatError as exc:
        print(f"objective {line!r}: {exc}", file=sys.stderr)
        return "NONE"
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
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        start, start_cpu = time.perf_counter(), time.process_time()
        solution = answer(line, search)
        times.append(1000 * (time.perf_counter() - start))
        cpu.append(1000 * (time.process_time() - start_cpu))
        sys.stdout.write(solution + "\n")
        sys.stdout.flush()
        if args.times:
            found = "NONE" if solution == "NONE" else f"{len(solution)} moves"
            print(f"{times[-1]:.1f} ms  {found}  {line}", file=sys.stderr)
    if args.times and times:
        print(f"{len(times)} objectives: total {sum(times) / 1000:.2f} s, median {statistics.median(times):.1f} ms,"
              f" max {max(times):.1f} ms (CPU: total {sum(cpu) / 1000:.2f} s, median {statistics.median(cpu):.1f} ms,"
              f" max {max(cpu):.1f} ms)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
