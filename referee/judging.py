"""The one command shape every solo puzzle's judge shares:

    referee NAME judge FILE SOLVER_CMD [--time-ms N] [--json]

The judge runs SOLVER_CMD as a process on each puzzle of FILE, replays its answer and prints a
line per puzzle (or, with --json, one JSON object per puzzle per line), then a summary.
"""
from __future__ import annotations

import argparse


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
