"""Vikings - Brainstorm solver: `python -m bots.vikings.solver`.

Reads objectives from stdin, `BOARD TARGET` a line, and answers each in turn with one line: a
shortest solution as tile digits (one a quarter-turn), or NONE when the objective cannot be met.
An objective that is malformed or invalid gets NONE and a message on stderr.
"""
from __future__ import annotations

import sys

from referee.errors import InputFormatError
from referee.vikings.rules import parse_objective
from referee.vikings.search import shortest_solution


def answer(line: str) -> str:
    try:
        objective = parse_objective(line)
    except InputFormatError as exc:
        print(f"objective {line!r}: {exc}", file=sys.stderr)
        return "NONE"
    solution = shortest_solution(objective)
    return "NONE" if solution is None else solution


def main() -> int:
    for line in sys.stdin:
        if line.strip():
            sys.stdout.write(answer(line.strip()) + "\n")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
