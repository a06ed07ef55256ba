"""The one judge runner of every solo puzzle (each puzzle is a `referee.puzzle.Puzzle`):

    referee NAME judge FILE SOLVER_CMD [--time-ms N] [--json]

The judge runs SOLVER_CMD as a process on each instance of FILE, replays its answer and prints a
line per instance (or, with --json, one JSON object per instance per line), then a summary. One
solver process answers every instance in turn (a fresh one after a timeout or a crash), or a fresh
one answers each where the puzzle says so (`one_solver_each`: its solvers read a single instance).
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Iterator

from .errors import InputFormatError
from .process import BotError, BotProcess, BotStartError
from .puzzle import Puzzle


def positive_ms(text: str) -> float:
    """An argparse type: a time in milliseconds, above zero."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of milliseconds") from None
    if value <= 0:
        raise argparse.ArgumentTypeError("--time-ms must be positive")
    return value


def add_judge_command(commands, puzzle: Puzzle) -> argparse.ArgumentParser:
    """Add `judge FILE SOLVER_CMD [--time-ms N] [--json]` (and the puzzle's own judge options) to a
    puzzle's subcommands."""
    item, default_ms = puzzle.item, puzzle.default_ms
    judge = commands.add_parser("judge", help=f"run a solver on every {item} of FILE and check its answers")
    judge.add_argument("file", metavar="FILE", help=puzzle.file_help)
    judge.add_argument("solver", metavar="SOLVER_CMD", help="the solver's command line, one argument (quote it)")
    judge.add_argument("--time-ms", type=positive_ms, default=default_ms,
                       help=f"time for each answer{puzzle.time_help} (default {default_ms:g})")
    judge.add_argument("--json", action="store_true", help=f"one JSON object per {item} per line")
    puzzle.add_judge_options(judge)
    judge.set_defaults(run=lambda args: run_judge(puzzle, args))
    return judge


def run_judge(puzzle: Puzzle, args: argparse.Namespace) -> int:
    """`referee NAME judge ...`: judge every instance of the file, report, return the exit status."""
    options = puzzle.judge_options(args)

    def judging():
        with open(args.file, encoding="utf-8") as file:
            instances = puzzle.parse_instances(file.read(), args.file)
        return judge(puzzle, instances, args.solver, args.time_ms, **options)

    return report_verdicts(puzzle.name, args.file, judging, args.json, puzzle.as_dict, puzzle.describe,
                           puzzle.summary)


def judge_one(puzzle: Puzzle, instance, command: str, time_ms: float | None = None, **options):
    """The verdict on `command`'s answer to one instance (time_ms: the puzzle's default)."""
    return next(judge(puzzle, [instance], command, time_ms or puzzle.default_ms, **options))


def judge(puzzle: Puzzle, instances: list, command: str, time_ms: float, **options) -> Iterator:
    """Yield a verdict per instance, the solver's answer checked against the puzzle's oracle.
    BotStartError when the command cannot start."""
    bot = None
    try:
        for number, instance in enumerate(instances, start=1):
            expected = puzzle.oracle(instance, **options)
            if bot is None:
                bot = BotProcess(command)
            read: list[str] = []
            try:
                answer, seconds = puzzle.read_answer(bot, instance, time_ms / 1000, read)
            except BotError as exc:
                failure = puzzle.failure(exc, bot.take_stderr(), read)
                bot.close()
                bot = None
                yield puzzle.failed(number, instance, expected, failure, read, **options)
                continue
            if puzzle.one_solver_each:
                bot.close()
                bot = None
            yield puzzle.verdict(number, instance, expected, answer, seconds, **options)
    finally:
        if bot is not None:
            bot.close()


def report_verdicts(game: str, source: str, judging: Callable[[], Iterable], as_json: bool,
                    to_dict: Callable, describe: Callable, summary: Callable) -> int:
    """Print each verdict as `judging()` yields it (a line, or a JSON object with `as_json`), then
    the summary of them all. Exit status: 0 when every answer is right, 1 when any is wrong (or
    missing: a timeout, a crash), 2 for a file that is not the puzzle's text (malformed, not UTF-8)
    or a solver that cannot start, with a one-line message. A verdict is right when its `error`
    is None."""
    verdicts = []
    try:
        for verdict in judging():
            verdicts.append(verdict)
            print(json.dumps(to_dict(verdict)) if as_json else describe(verdict), flush=True)
    except InputFormatError as exc:
        where = "" if str(exc).startswith(source) else f"{source}: "  # (a reader may name it already)
        print(f"{game} judge: {where}{exc}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as exc:
        print(f"{game} judge: {source} is not UTF-8 text (byte {exc.start})", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"{game} judge: cannot read {source}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except BotStartError as exc:
        print(f"{game} judge: solver cannot start: {exc}", file=sys.stderr)
        return 2
    if not as_json:
        print(summary(verdicts))
    wrong = sum(verdict.error is not None for verdict in verdicts)
    if wrong:
        print(f"{game} judge: {wrong} of {len(verdicts)} answers wrong", file=sys.stderr)
    return 1 if wrong else 0
