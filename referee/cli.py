"""The `referee` command: one subcommand group per game, each defined in `referee/<game>/cli.py`."""
from __future__ import annotations

import argparse
import importlib
import sys

# Each module here has `register(subparsers)`, adding its game's group (`referee GAME ...`).
GAMES = ("volcanoes", "coroutine", "iqtwist", "vikings", "stormyseas")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="referee", description="Referees and judges for Caldera's games.")
    groups = parser.add_subparsers(dest="game", required=True, metavar="GAME")
    for game in GAMES:
        importlib.import_module(f"referee.{game}.cli").register(groups)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
