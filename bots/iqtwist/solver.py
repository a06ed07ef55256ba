"""IQ-Twist solver: `python -m bots.iqtwist.solver`.

Reads challenges from stdin, one placement string a line, and answers each in turn: every canonical
solution, one a line, sorted, then an empty line. A challenge that is malformed or invalid gets no
solution (just the empty line) and a message on stderr. `--count` prints the number of solutions
of the empty board instead, and the search time on stderr.
"""
from __future__ import annotations

import argparse
import sys
import time

from referee.errors import InputFormatError
from referee.iqtwist.rules import State, parse_state
from referee.iqtwist.search import count_solutions, solutions, warm_up


def answer(line: str) -> list[str]:
    """The answer lines for one challenge line (without the closing empty line)."""
    try:
        state = parse_state(line)
    except InputFormatError as exc:
        print(f"challenge {line!r}: {exc}", file=sys.stderr)
        return []
    return solutions(state)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bots.iqtwist.solver",
        description="Print every canonical solution of each challenge read from stdin.",
    )
    parser.add_argument("--count", action="store_true", help="count the solutions of the empty board")
    args = parser.parse_args(argv)
    warm_up()
    if args.count:
        start = time.perf_counter()
        count = count_solutions(State())
        print(count)
        ms = 1000 * (time.perf_counter() - start)
        print(f"{count} solutions of the empty board in {ms:.1f} ms", file=sys.stderr)
        return 0
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        sys.stdout.write("".join(solution + "\n" for solution in answer(line)) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
