"""`referee vikings ...`: judge a solver, generate objectives, show a board."""
from __future__ import annotations

import argparse
import random
import statistics
import sys

from referee.errors import InputFormatError
from referee.vikings import rules, view
from referee.vikings.generate import MAX_BOARDS, generate
from referee.judging import add_judge_command, report_verdicts
from referee.vikings.judge import Verdict, judge


def register(subparsers) -> None:
    game = subparsers.add_parser("vikings", help="Vikings - Brainstorm: turn sea tiles to carry boats to targets")
    commands = game.add_subparsers(dest="command", required=True, metavar="COMMAND")

    add_judge_command(commands, item="objective", file_help="objectives, `BOARD TARGET` a line",
                      default_ms=10_000, run=run_judge)

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


def read_objectives(path: str) -> list[str]:
    """The objectives of FILE: `BOARD TARGET` a line; blank lines and `#` comments skipped."""
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except OSError as exc:
        raise InputFormatError(f"cannot read: {exc.strerror}", path) from None
    objectives = []
    for number, line in enumerate(lines, start=1):
        line = " ".join(line.split())
        if line and not line.startswith("#"):
            try:
                rules.parse_objective(line)
            except InputFormatError as exc:
                raise InputFormatError(str(exc), f"{path}, line {number}") from None
            objectives.append(line)
    if not objectives:
        raise InputFormatError("no objective in the file", path)
    return objectives


def _answered(v: Verdict) -> str:
    if v.answer is None:
        return "no answer"
    if v.answer.strip() == "NONE":
        return "NONE"
    return "not a move string" if v.length is None else f"{v.length} moves"


def _describe(v: Verdict) -> str:
    best = "no solution" if v.optimum is None else f"optimum {v.optimum}"
    got = _answered(v)
    timing = f" in {v.time_ms:.1f} ms" if v.time_ms is not None else ""
    head = f"objective {v.puzzle} {v.objective}: "
    if v.solved:
        quality = "optimal" if v.optimal else "NOT optimal"
        return head + f"solved, {got}, {best}, {quality}{timing}"
    return head + f"FAILED ({got}, {best}{timing}): {v.error}"


def _summary(verdicts: list[Verdict]) -> str:
    solved = sum(v.solved for v in verdicts)
    optimal = sum(v.optimal for v in verdicts)
    line = f"solved {solved} of {len(verdicts)}, {optimal} optimal"
    times = [v.time_ms for v in verdicts if v.time_ms is not None]
    if times:
        line += (f"; time per objective: median {statistics.median(times):.1f} ms, max {max(times):.1f} ms,"
                 f" total {sum(times) / 1000:.2f} s (the first includes the solver's start-up)")
    return line


def run_judge(args: argparse.Namespace) -> int:
    return report_verdicts("vikings", args.file, lambda: judge(read_objectives(args.file), args.solver, args.time_ms),
                           args.json, Verdict.to_dict, _describe, _summary)


def run_generate(args: argparse.Namespace) -> int:
    if min(args.moves, args.count, args.boards) < 1:
        print("vikings generate: --moves, --count and --boards must be at least 1", file=sys.stderr)
        return 2
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
        print(f"vikings show: {exc}", file=sys.stderr)
        return 2
    color = sys.stdout.isatty() if args.color is None else args.color
    print(view.text(board, targets, color=color))
    if error:
        print(f"stopped at {error}")
    if args.svg:
        try:
            with open(args.svg, "w", encoding="utf-8") as handle:
                handle.write(view.svg(board, targets))
        except OSError as exc:
            print(f"vikings show: cannot write {args.svg}: {exc.strerror}", file=sys.stderr)
            return 2
    return 1 if error else 0
