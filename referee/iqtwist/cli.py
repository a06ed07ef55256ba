"""`referee iqtwist ...`: check or show a placement string (`judge` is the one judge runner's,
referee/judging.py; `python -m bots.iqtwist.generate` makes new challenges)."""

from __future__ import annotations

import argparse
import os
import sys

from referee.platform.errors import UserError
from referee.platform.options import given
from referee.platform.files import refuse_replacing_a_non_svg, write_atomic
from referee.iqtwist.picture import svg_picture, text_picture
from referee.iqtwist.rules import (
    is_solved,
    parse_state,
    placement_string_error,
    solution_string,
    viable_placements,
)


def register(commands) -> None:
    """The commands of `referee iqtwist` beyond `judge`."""
    check_cmd = commands.add_parser("check", help="say whether a placement string is valid, and why not")
    check_cmd.add_argument("placements", metavar="PLACEMENTS", help="a placement string, e.g. a7A7b6A7i6B0")
    check_cmd.add_argument("--viable", action="store_true", help="also list the viable placements")
    check_cmd.set_defaults(run=run_check)

    show_cmd = commands.add_parser("show", help="draw a placement string: in the terminal, or as an SVG image")
    show_cmd.add_argument("placements", metavar="PLACEMENT", help="a placement string, e.g. a7A7b6A7i6B0")
    show_cmd.add_argument("--svg", metavar="FILE", type=given, help="also write the picture to FILE as SVG")
    show_cmd.add_argument("--no-color", action="store_true", help="plain letters, no ANSI colours")
    show_cmd.set_defaults(run=run_show)


def run_check(args: argparse.Namespace) -> int:
    problem = placement_string_error(args.placements)
    if problem:
        print(f"not valid: {problem}")
        return 1
    state = parse_state(args.placements)
    if is_solved(state):
        print(f"solved: {solution_string(state)}")
    else:
        print("valid, not solved")
    if args.viable:
        print(" ".join(sorted(viable_placements(state))) or "no viable placement")
    return 0


def _wants_colour(no_color: bool) -> bool:
    """Colour only on a terminal, unless --no-color or the NO_COLOR convention says otherwise."""
    return not no_color and not os.environ.get("NO_COLOR") and sys.stdout.isatty()


def run_show(args: argparse.Namespace) -> int:
    if args.svg:
        refuse_replacing_a_non_svg(args.svg)
    state = parse_state(args.placements)
    print(text_picture(state, coloured=_wants_colour(args.no_color)))
    if args.svg:
        try:
            write_atomic(args.svg, svg_picture(state))
        except OSError as exc:
            raise UserError(f"cannot write {args.svg}: {exc.strerror or exc}") from None
        print(f"wrote {args.svg}")
    return 0
