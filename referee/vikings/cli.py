"""`referee vikings ...`: show a board (`judge` is the one judge runner's, referee/judging.py;
`python -m bots.vikings.generate` makes new objectives)."""

from __future__ import annotations

import argparse
import re
import sys

from referee.platform.errors import InputFormatError, UserError, shorten
from referee.platform.options import given
from referee.platform.files import refuse_replacing_a_non_svg, write_atomic
from referee.vikings import rules, view


def register(commands) -> None:
    """The commands of `referee vikings` beyond `judge`."""
    show_cmd = commands.add_parser("show", help="draw a board (and its targets) in the terminal or as SVG")
    show_cmd.add_argument("board", metavar="BOARD", help="a board string, e.g. O1O0O1N1N2N2N3N3N3BuGcRjYk")
    show_cmd.add_argument("target", metavar="TARGET", nargs="?", help="targets to mark, e.g. BrGdRcYn")
    show_cmd.add_argument("--moves", metavar="DIGITS", default="", help="turn these tiles first, e.g. 8547776")
    show_cmd.add_argument("--svg", metavar="FILE", type=given, help="write an SVG image to FILE")
    show_cmd.add_argument(
        "--color",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="colour boats (default: when writing to a terminal)",
    )
    show_cmd.set_defaults(run=run_show)


def _argument(parse, text: str, name: str):
    """`parse(text)`; its error names the argument, as both count their characters from 1."""
    try:
        return parse(text)
    except InputFormatError as exc:
        raise exc.within(f"{name} {shorten(text)}") from None


def run_show(args: argparse.Namespace) -> int:
    if args.svg:
        refuse_replacing_a_non_svg(args.svg)
    space = re.search(r"\s", args.board)
    if space:  # (`show "BOARD TARGET"`, an objective's line quoted whole)
        raise InputFormatError(
            "a board string has no space: BOARD and TARGET are two arguments (quote neither, or each alone)",
            f"BOARD {shorten(args.board)}, character {space.start() + 1}",
        )
    board = _argument(rules.parse_valid_board, args.board, "BOARD")
    targets = _argument(rules.parse_targets, args.target, "TARGET") if args.target else ()
    missing = [c for c, _ in targets if c not in dict(board.boats)]
    if missing:
        raise InputFormatError(f"target names boat {missing[0]}, which is not on the board")
    board, error = rules.replay(rules.Objective(board, targets), rules.parse_moves(args.moves))
    color = sys.stdout.isatty() if args.color is None else args.color
    print(view.text(board, targets, color=color))
    if args.svg:
        try:
            write_atomic(args.svg, view.svg(board, targets))
        except OSError as exc:
            raise UserError(f"cannot write {args.svg}: {exc.strerror or exc}") from None
    if error:  # a user's mistake, said once the board before it is drawn
        raise UserError(f"stopped at {error}")
    return 0
