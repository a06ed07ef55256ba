"""The `referee` command: one subcommand group per game, each defined in `referee/<game>/cli.py`.

Volcanoes' `register(groups)` adds its group; every puzzle's group is made here, with the one
`judge` command (referee/judging.py), and its `register(commands)`, where it has a cli.py, adds the
puzzle's other commands (what needs no search: commands that search are in `bots/NAME/`). A user's
mistake is one line, `referee GAME COMMAND: message`, and exit status 2 (referee/platform/errors.py).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys

from referee import puzzle
from referee.platform.commands import CommandParser, interrupted, run_command, terminate_as_interrupt
from referee.platform.version import VersionAction
from referee.judging import add_judge_command

GAMES = ("volcanoes", *puzzle.NAMES)


def build_parser() -> argparse.ArgumentParser:
    parser = CommandParser(prog="referee", description="Referees and judges for Caldera's games.")
    parser.add_argument("--version", action=VersionAction)
    groups = parser.add_subparsers(dest="game", required=True, metavar="GAME")
    importlib.import_module("referee.volcanoes.cli").register(groups)
    for name in puzzle.NAMES:
        try:
            game = puzzle.load(name)
        except puzzle.PuzzleFolderError as exc:  # (a folder of the user's: only its own commands fail)
            add_refusal(groups, name, exc)
            continue
        commands = groups.add_parser(name, help=game.title).add_subparsers(
            dest="command", required=True, metavar="COMMAND"
        )
        add_judge_command(commands, game)
        if importlib.util.find_spec(f"referee.{name}.cli"):  # the puzzle's commands beyond `judge`
            importlib.import_module(f"referee.{name}.cli").register(commands)
    return parser


def add_refusal(groups, name: str, error: puzzle.PuzzleFolderError) -> None:
    """The group of a puzzle whose folder cannot be used: any of its commands says why, in one line."""
    refused = groups.add_parser(name, help=str(error))
    refused.add_argument("ignored", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)

    def refuse(args):
        raise error

    refused.set_defaults(run=refuse)


def main(argv: list[str] | None = None) -> int:
    with terminate_as_interrupt():  # (the parser imports Volcanoes' rules, numba's: seconds on a cold cache)
        try:
            args = build_parser().parse_args(argv)
        except KeyboardInterrupt:
            return interrupted("referee")
        return run_command(args)


if __name__ == "__main__":
    sys.exit(main())
