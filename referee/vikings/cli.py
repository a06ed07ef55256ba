"""`referee vikings ...`: generate objectives, show a board (`judge` is the one judge runner's,
referee/judging.py)."""
from __future__ import annotations

import argparse
import random
import sys

from referee.errors import InputFormatError, refuse
from referee.vikings import rules, view
from referee.vikings.generate import MAX_BOARDS, generate


def register(commands) -> None:
    """The commands of `referee vikings` beyond `judge`."""
    generate_cmd = commands.add_parser("generate", help="print new objectives whose optimum is exactly N moves")
    generate_cmd.add_argument("--moves", type=int, required=True, metavar="N", help="the optimum, in quarter-turns")
    generate_cmd.add_argument("--boats", type=int, choices=range(1, rules.MAX_BOATS + 1), metavar="K",
                              help="boats per objective, 1-4 (default: random)")
    generate_cmd.add_argument("--count", type=int, default=1, help="how many objectives (default 1)")
    generate_cmd.add_argument("--seed", type=int, help="random seed, for the same objectives again")
    generate_cmd.add_argument("--boards", type=int, default=MAX_BOARDS,
                              help=f"random boards to try per objective before giving up (default {MAX_BOARDS})")
    generate_cmd.set_defaults(run=run_generate)

    show_cmd = commands.add_parser("show", help="draw a board (and its targets) in the terminal or as SVG")
    show_cmd.add_argument("board", metavar="BOARD", help="a board string, e.g. O1O0O1N1N2N2N3N3N3BuGcRjYk")
    show_cmd.add_argument("target", metavar="TARGET", nargs="?", help="targets to mark, e.g. BrGdRcYn")
    show_cmd.add_argument("--moves", metavar="DIGITS", default="", help="turn these tiles first, e.g. 8547776")
    show_cmd.add_argument("--svg", metavar="FILE", help="write an SVG image to FILE")
    show_cmd.add_argument("--color", action=argparse.BooleanOptionalAction, default=None,
                          help="colour boats (default: when writing to a terminal)")
    show_cmd.set_defaults(run=run_show)


def run_generate(args: argparse.Namespace) -> int:
    if min(args.moves, args.count, args.boards) < 1:
        return refuse(args, "--moves, --count and --boards must be at least 1")
    rng = random.Random(args.seed)
    printed: set[str] = set()
    tries = 0
    while len(printed) < args.count and tries < 3 * args.count:
        tries += 1
        objective = generate(args.moves, rng, args.boats, args.boards)
        if objective is None:
            break
        if str(objective) not in printed:
            printed.add(str(objective))
            print(objective, flush=True)
    if len(printed) < args.count:
        boats = f"{args.boats} boat(s)" if args.boats else "1-4 boats"
        print(f"vikings generate: found {len(printed)} of {args.count} objectives with optimum {args.moves} "
              f"and {boats} ({args.boards} random boards each); try fewer moves or more --boards", file=sys.stderr)
        return 1
    return 0


def run_show(args: argparse.Namespace) -> int:
    try:
        board = rules.parse_valid_board(args.board)
        targets = rules.parse_targets(args.target) if args.target else ()
        missing = [c for c, _ in targets if c not in dict(board.boats)]
        if missing:
            raise InputFormatError(f"target names boat {missing[0]}, which is not on the board")
        board, error = rules.replay(rules.Objective(board, targets), rules.parse_moves(args.moves))
    except InputFormatError as exc:
        return refuse(args, str(exc))
    color = sys.stdout.isatty() if args.color is None else args.color
    print(view.text(board, targets, color=color))
    if error:
        print(f"stopped at {error}")
    if args.svg:
        try:
            with open(args.svg, "w", encoding="utf-8") as handle:
                handle.write(view.svg(board, targets))
        except OSError as exc:
            return refuse(args, f"cannot write {args.svg}: {exc.strerror}")
    return 1 if error else 0
