"""The `arena` command: matches, tournaments and SPRT tests between bots, the tuning of a bot's
parameters, leagues, reports, timing benchmarks, the bundler and the analysis of games. `arena
tournament` with no argument plays a ladder of the project's own bots.

Each command's parser is in a module of its own here, and only its parser: the work is in the rooms
below (arena/play, arena/bench, arena/bundle, arena/web...), which import nothing of the command line.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from referee.platform.commands import CommandParser, interrupted, run_command, terminate_as_interrupt
from referee.platform.version import VersionAction

# The commands' modules, in the order of the help. What they import (numpy, numba, uvicorn...) takes
# seconds on a cold machine, so `build_parser` imports them, within `main`'s handling of Ctrl+C: when
# this module imported them, Ctrl+C then ended in a traceback.
COMMANDS = ("play", "report", "league", "serve", "replay", "bench", "bundle", "analyse")


def main(argv: list[str] | None = None) -> int:
    with terminate_as_interrupt():
        try:
            parser = build_parser()
        except KeyboardInterrupt:
            return interrupted(_prog_before_parsing(sys.argv[1:] if argv is None else argv))
        args = parser.parse_args(argv)  # (arguments no command takes are said by the command given them)
        if not hasattr(args, "run"):
            parser.print_help(sys.stderr)
            return 2
        status = run_command(args)  # (a user's mistake is one line, `arena COMMAND: message`; a bug, a traceback)
    from arena.play.cluster import lost_cluster  # (here: like the commands, once main handles Ctrl+C)

    if lost_cluster():  # (said why already; Ray's threads would crash the interpreter's end)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    return status


def _prog_before_parsing(argv: list[str]) -> str:
    """The command as its usage will name it (`arena match`), told before its parser is built:
    a word that is no option, first, is the command's name."""
    first = argv[0] if argv else ""
    return f"arena {first}" if first.isidentifier() else "arena"


def build_parser() -> argparse.ArgumentParser:
    parser = CommandParser(prog="arena", description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", action=VersionAction)
    sub = parser.add_subparsers(title="commands")
    for name in COMMANDS:
        importlib.import_module(f"arena.cli.{name}").register(sub)
    return parser
