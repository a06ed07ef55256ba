"""The one command shape every solo puzzle's judge shares:

    referee NAME judge FILE SOLVER_CMD [--time-ms N] [--json]

The judge runs SOLVER_CMD as a process on each puzzle of FILE, replays its answer and prints a
line per puzzle (or, with --json, one JSON object per puzzle per line), then a summary.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable

from .errors import InputFormatError
from .process import BotStartError


def positive_ms(text: str) -> float:
    """An argparse type: a time in milliseconds, above zero."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of milliseconds") from None
    if value <= 0:
        raise argparse.ArgumentTypeError("--time-ms must be positive")
    return value


def add_judge_command(commands, *, item: str, file_help: str, default_ms: float, run,
                      time_help: str = "") -> argparse.ArgumentParser:
    """Add `judge FILE SOLVER_CMD [--time-ms N] [--json]` to a puzzle's subcommands; `item` names
    one puzzle of FILE (puzzle, challenge, objective, card). Returns the parser for extra options."""
    judge = commands.add_parser("judge", help=f"run a solver on every {item} of FILE and check its answers")
    judge.add_argument("file", metavar="FILE", help=file_help)
    judge.add_argument("solver", metavar="SOLVER_CMD", help="the solver's command line, one argument (quote it)")
    judge.add_argument("--time-ms", type=positive_ms, default=default_ms,
                       help=f"time for each answer{time_help} (default {default_ms:g})")
    judge.add_argument("--json", action="store_true", help=f"one JSON object per {item} per line")
    judge.set_defaults(run=run)
    return judge


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
