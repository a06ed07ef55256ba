"""Stormy Seas solver: reads a card (8 lines) on stdin, prints an optimal solution line, or NONE.

    python -m bots.stormyseas.solver [--metric units|slides] [--rotation] < card.txt

The search itself is referee.stormyseas.search (the judge uses it too, for the optima).
"""
from __future__ import annotations

import argparse
import sys

from referee.errors import InputFormatError
from referee.stormyseas.rules import ROWS, format_solution, parse_card
from referee.stormyseas.search import METRICS, solve


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bots.stormyseas.solver", description=__doc__.splitlines()[0])
    parser.add_argument("--metric", choices=METRICS, default="units", help="what to minimise (default: unit moves)")
    parser.add_argument("--rotation", action="store_true", help="the red boat may turn (the physical game's rule)")
    args = parser.parse_args(argv)
    try:
        lines = [sys.stdin.readline() for _ in range(ROWS)]  # exactly one card: the judge keeps stdin open
        card = parse_card("".join(lines))
    except InputFormatError as exc:
        print(f"stormyseas solver: bad card: {exc}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print("stormyseas solver: the input is not UTF-8 text", file=sys.stderr)
        return 2
    solution = solve(card, args.metric, rotation=args.rotation)
    if solution is None:  # proven: the search exhausted every reachable position
        print("NONE", flush=True)
        return 0
    print(format_solution(solution.slides), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
