"""IQ-Twist solver: `python -m bots.iqtwist.solver`.

Reads challenges from stdin, one placement string a line, and answers each in turn: every canonical
solution, one a line, sorted, then an empty line. A challenge that is malformed or invalid gets no
solution (just the empty line), a message on stderr, and exit status 2 once every line is answered. `--count` prints the number of solutions
of the empty board instead, and the search time on stderr.
"""
from __future__ import annotations

import argparse
import sys
import time

from referee.errors import InputFormatError, shorten
from referee.iqtwist.rules import State, parse_state
from referee.iqtwist.search import count_solutions, solutions, warm_up


def answer(line: str) -> list[str] | None:
    """The answer lines for one challenge line (without the closing empty line); None when the
    line is not a challenge (a message on stderr says why)."""
    try:
        state = parse_state(line)
    except InputFormatError as exc:
        print(f"iqtwist solver: challenge {shorten(line)}: {exc}", file=sys.stderr)
        return None
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
    bad_input = False
    try:
        for line in sys.stdin:
            line = line.strip()
            if not line:
                continue
            lines = answer(line)
            bad_input |= lines is None
            sys.stdout.write("".join(solution + "\n" for solution in lines or []) + "\n")
            sys.stdout.flush()
    except UnicodeDecodeError:
        print("iqtwist solver: the input is not UTF-8 text", file=sys.stderr)
        return 2
    return 2 if bad_input else 0


if __name__ == "__main__":
    sys.exit(main())
