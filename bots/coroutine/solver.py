"""Coroutine solver: read puzzles (3 lines each) on stdin, print an optimal answer to each, or NONE.

Optimal: fewest turns (forced passes count), then fewest steps. NONE is printed only after every
reachable state was explored. `--trace` adds a table, one row a turn, to check the answer by hand.
The command's shape (input, NONE, bad input, exit statuses) is every solver's: bots/puzzle_solver.py.
"""

from __future__ import annotations

import sys

from bots import puzzle_solver
from referee.coroutine.puzzle import PUZZLE
from referee.coroutine.rules import DIRECTION_NAMES, SQUARE_NAMES, START, Board, Turn, arrows, play
from bots.coroutine.search import solve


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


def _print_trace(text, board, turns, seconds, cpu_seconds) -> None:
    if turns is not None and board is not None:
        steps = sum(turn.direction is not None for turn in turns)
        print(
            f"\n{len(turns)} turns: {steps} steps, {len(turns) - steps} forced passes\n{trace(board, turns)}",
            flush=True,
        )


def main(argv: list[str] | None = None) -> int:
    parser = puzzle_solver.parser(PUZZLE, __doc__.splitlines()[0])
    parser.add_argument("--trace", action="store_true", help="after each answer, print a turn-by-turn table")
    args = parser.parse_args(argv)
    return puzzle_solver.run(PUZZLE, solve, _print_trace if args.trace else None)


if __name__ == "__main__":
    sys.exit(main())
