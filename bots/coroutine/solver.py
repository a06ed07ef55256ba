"""Coroutine solver: read a puzzle (3 lines) on stdin, print an optimal answer, or NONE.

Optimal: fewest turns (forced passes count), then fewest steps. NONE is printed only after every
reachable state was explored. `--trace` adds a table, one row a turn, to check the answer by hand.
"""
from __future__ import annotations

import argparse
import sys

from referee.coroutine.rules import (
    DIRECTION_NAMES,
    SQUARE_NAMES,
    START,
    Board,
    Turn,
    arrows,
    format_answer,
    parse_puzzle,
    play,
)
from referee.coroutine.search import solve
from referee.errors import InputFormatError


def read_puzzle(stream) -> str:
    """The first 3 non-blank lines of `stream`; it is not read to its end (a judge keeps it open)."""
    lines = []
    while len(lines) < 3 and (line := stream.readline()):
        if line.strip():
            lines.append(line)
    return "".join(lines)


def trace(board: Board, turns: list[Turn]) -> str:
    """One row a turn: who moves, from and to, the other token's square, the arrows there, the direction."""
    rows = [("turn", "token", "from", "to", "other token on", "arrows there", "direction")]
    state = START
    for index, turn in enumerate(turns, start=1):
        other = state.square(state.other())
        after = play(board, state, turn)
        shown = " ".join(DIRECTION_NAMES[d] for d in arrows(board, other)) or "-"
        used = "pass" if turn.direction is None else f"{DIRECTION_NAMES[turn.direction]} ({turn.direction})"
        here, there = state.square(turn.token), after.square(turn.token)
        rows.append((str(index), turn.token, SQUARE_NAMES[here], SQUARE_NAMES[there], SQUARE_NAMES[other], shown, used))
        state = after
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bots.coroutine.solver", description=__doc__.splitlines()[0])
    parser.add_argument("--trace", action="store_true", help="after the answer, print a turn-by-turn table")
    args = parser.parse_args(argv)
    try:
        board = parse_puzzle(read_puzzle(sys.stdin))
    except InputFormatError as exc:
        print(f"coroutine solver: {exc}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print("coroutine solver: the input is not UTF-8 text", file=sys.stderr)
        return 2
    turns = solve(board)
    print("NONE" if turns is None else format_answer(turns), flush=True)
    if args.trace and turns is not None:
        steps = sum(turn.direction is not None for turn in turns)
        print(f"\n{len(turns)} turns: {steps} steps, {len(turns) - steps} forced passes\n{trace(board, turns)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
