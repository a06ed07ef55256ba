"""`referee volcanoes ...`: play a game between two commands, as CodinGame would."""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import ExitStack
from pathlib import Path

from ..platform.errors import UserError
from ..platform.files import (
    check_writable,
    files_named,
    refuse_overwriting,
    refuse_replacing_a_non_page,
    refuse_replacing_another_kind,
    write_atomic,
)
from ..platform.options import count, given, positive_ms
from ..platform.bot_commands import check_command, warm_up
from ..platform.bot_errors import BotError
from ..platform.process import BotProcess
from . import community, rules
from ..platform.limits import FIRST_TURN_MS, GRACE_MS, OVERRUNS_ALLOWED, TURN_MS
from .constants import MAX_TURNS
from .match import Settings, play_game
from .replay import REPLAY_KEYS, read_replay
from .view import render


def register(groups) -> None:
    parser = groups.add_parser("volcanoes", help="the Volcanoes multiplayer game")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    play = commands.add_parser("play", help="play one game between two bot commands")
    play.add_argument("blue", metavar="BLUE_CMD", help="command line of the first player (blue)")
    play.add_argument("orange", metavar="ORANGE_CMD", help="command line of the second player (orange)")
    play.add_argument("--seed", type=int, default=0, help="game seed (drives RANDOM answers)")
    play.add_argument(
        "--turn-ms", type=positive_ms, default=TURN_MS, help="time per turn after the first (default %(default)g)"
    )
    play.add_argument(
        "--first-turn-ms",
        type=positive_ms,
        default=FIRST_TURN_MS,
        help="time for a player's first turn (default %(default)g)",
    )
    play.add_argument(
        "--max-turns",
        type=count(1),
        default=MAX_TURNS,
        help="turns before a draw, growth counts (default %(default)s)",
    )
    play.add_argument(
        "--soft-timeouts",
        action="store_true",
        help=f"CodinGame's newer mode: {GRACE_MS:g} ms of grace, overrun {OVERRUNS_ALLOWED + 1} times and lose",
    )
    play.add_argument("--replay", metavar="FILE", help="write the replay (JSON) here")
    play.add_argument("--json", action="store_true", help="print the result as one JSON object")
    play.set_defaults(run=run_play)
    view = commands.add_parser("view", help="write a replay as a self-contained HTML page")
    view.add_argument("replay", metavar="REPLAY", help="a replay file written by `play --replay`")
    view.add_argument(
        "-o", "--output", type=given, metavar="HTML", help="the page to write (default: REPLAY with .html)"
    )
    view.set_defaults(run=run_view)
    community.register(parser, commands)  # -p1 CMD -p2 CMD (brutaltester's), psyleague


def run_play(args: argparse.Namespace) -> int:
    settings = Settings(args.turn_ms, args.first_turn_ms, args.max_turns, args.soft_timeouts)
    rules.warm_up()
    commands = list(dict.fromkeys((args.blue, args.orange)))
    if args.replay is not None:  # (a bot's own file, named by its command, is an input: never written over)
        check_writable(args.replay, "--replay")
        refuse_overwriting(args.replay, *files_named(*commands))
        refuse_replacing_another_kind(args.replay, "a replay", REPLAY_KEYS)
    try:
        for command in commands:  # both checked before any warm-up, both ready before any clock runs
            check_command(command)
        for command in commands:
            warm_up(command)
        with ExitStack() as stack:
            blue = stack.enter_context(BotProcess(args.blue))
            orange = stack.enter_context(BotProcess(args.orange))
            result = play_game(blue, orange, args.seed, settings)
    except BotError as exc:  # a command that cannot start
        raise UserError(str(exc)) from None
    if args.replay:
        try:
            write_atomic(args.replay, json.dumps(result.replay({"blue": args.blue, "orange": args.orange})))
        except OSError as exc:
            raise UserError(f"cannot write the replay {args.replay}: {exc.strerror or exc}") from None
    if args.json:
        print(
            json.dumps(
                {
                    "winner": result.winner,
                    "reason": result.reason,
                    "detail": result.detail,
                    "turns": result.turns,
                    "seed": result.seed,
                    "moves": " ".join(result.moves),
                    "late": result.late,  # "" unless the timeout was the machine's fault
                }
            )
        )
    else:
        print(
            f"winner: {result.winner} ({result.reason}: {result.detail}) after {result.turns} turns, seed {result.seed}"
        )
    if result.late:
        print(
            f"{result.late}: the machine's fault, not the bot's (it was busy); play the game again on a quieter one",
            file=sys.stderr,
        )
    return 0


def run_view(args: argparse.Namespace) -> int:
    source = Path(args.replay)
    replay = read_replay(source)
    page = render(replay)
    target = Path(args.output) if args.output else source.with_suffix(".html")
    refuse_overwriting(target, source)
    refuse_replacing_a_non_page(target, "a replay's page")
    try:
        write_atomic(target, page)
    except OSError as exc:
        raise UserError(f"cannot write {target}: {exc.strerror or exc}") from None
    print(f"wrote {target}")
    return 0
