"""`referee iqtwist ...`: generate challenges, check or show a placement string, time the search
(`judge` is the one judge runner's, referee/judging.py)."""
from __future__ import annotations

import argparse
import os
import random
import sys

from referee.errors import InputFormatError, refuse
from referee.iqtwist import bench
from referee.iqtwist.generate import LEVELS, generate
from referee.iqtwist.picture import svg_picture, text_picture
from referee.iqtwist.rules import (
    is_solved,
    parse_state,
    placement_string_error,
    solution_string,
    viable_placements,
)
from referee.iqtwist.search import count_solutions


def register(commands) -> None:
    """The commands of `referee iqtwist` beyond `judge`."""
    generate_cmd = commands.add_parser("generate", help="print new challenges with exactly one solution")
    generate_cmd.add_argument("--level", choices=list(LEVELS), required=True)
    generate_cmd.add_argument("--count", type=int, default=1, help="how many challenges (default 1)")
    generate_cmd.add_argument("--seed", type=int, help="random seed, for the same challenges again")
    generate_cmd.set_defaults(run=run_generate)

    check_cmd = commands.add_parser("check", help="say whether a placement string is valid, and why not")
    check_cmd.add_argument("placements", metavar="PLACEMENTS", help="a placement string, e.g. a7A7b6A7i6B0")
    check_cmd.add_argument("--viable", action="store_true", help="also list the viable placements")
    check_cmd.set_defaults(run=run_check)

    show_cmd = commands.add_parser("show", help="draw a placement string: in the terminal, or as an SVG image")
    show_cmd.add_argument("placements", metavar="PLACEMENT", help="a placement string, e.g. a7A7b6A7i6B0")
    show_cmd.add_argument("--svg", metavar="FILE", help="also write the picture to FILE as SVG")
    show_cmd.add_argument("--no-color", action="store_true", help="plain letters, no ANSI colours")
    show_cmd.set_defaults(run=run_show)

    bench_cmd = commands.add_parser("bench", help="time the search: challenges solved to the end, the empty board")
    bench_cmd.add_argument(
        "file",
        metavar="FILE",
        nargs="?",
        default=bench.RECORDED_CHALLENGES,
        help="challenges, one a line, or rows of challenges.tsv (default: the 108 recorded challenges)",
    )
    bench_cmd.set_defaults(run=run_bench)


def run_generate(args: argparse.Namespace) -> int:
    if args.count < 1:
        return refuse(args, "--count must be at least 1")
    rng = random.Random(args.seed)
    for _ in range(args.count):
        print(generate(args.level, rng), flush=True)
    return 0


def run_check(args: argparse.Namespace) -> int:
    problem = placement_string_error(args.placements)
    if problem:
        print(f"not valid: {problem}")
        return 1
    state = parse_state(args.placements)
    if is_solved(state):
        print(f"solved: {solution_string(state)}")
    else:
        print(f"valid, not solved; {count_solutions(state)} solution(s)")
    if args.viable:
        print(" ".join(sorted(viable_placements(state))) or "no viable placement")
    return 0


def _wants_colour(no_color: bool) -> bool:
    """Colour only on a terminal, unless --no-color or the NO_COLOR convention says otherwise."""
    return not no_color and not os.environ.get("NO_COLOR") and sys.stdout.isatty()


def run_show(args: argparse.Namespace) -> int:
    try:
        state = parse_state(args.placements)
    except InputFormatError as exc:
        return refuse(args, str(exc))
    print(text_picture(state, coloured=_wants_colour(args.no_color)))
    if args.svg:
        try:
            with open(args.svg, "w", encoding="utf-8") as handle:
                handle.write(svg_picture(state))
        except OSError as exc:
            return refuse(args, f"cannot write {args.svg}: {exc.strerror}")
        print(f"wrote {args.svg}")
    return 0


def run_bench(args: argparse.Namespace) -> int:
    try:
        lines, all_good = bench.run(args.file)
    except InputFormatError as exc:
        return refuse(args, str(exc))
    print("\n".join(lines))
    return 0 if all_good else 1
