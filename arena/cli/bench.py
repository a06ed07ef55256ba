"""`arena bench`: timing regression tests (arena/bench/timing.py), and `arena bench --stress`, many games
at once from an empty numba cache (arena/bench/stress.py)."""

from __future__ import annotations

import argparse

from referee.platform.options import count, given, number, positive_seconds
from referee.volcanoes.constants import MAX_TURNS

from arena.bench import stress, timing
from arena.bench.versions import BenchError
from arena.cli.options import add_game_options, game_of, names_a_game
from arena.games.base import Game


def register(commands) -> None:
    bench = commands.add_parser(
        "bench",
        help="timing regression tests: two versions (or two bots) on this machine, in one run",
        description=timing.__doc__,
    )
    what = bench.add_argument_group("what to compare")
    what.add_argument(
        "--against",
        metavar="REV",
        type=given,
        help="compare with this git revision (main, HEAD~1, a tag) or a directory holding a copy "
        "of the project; with --bot, that bot (a registered one, or the files of this project its command names) at REV",
    )
    what.add_argument(
        "--tree", metavar="DIR", type=given, default=None, help="the new version (default: this working tree)"
    )
    what.add_argument(
        "--bot",
        metavar="SPEC",
        type=given,
        help='time a bot through the protocol: a command line ("python my_bot.py"), a file, '
        "a registered bot or NAME@REV",
    )
    what.add_argument("--against-bot", metavar="SPEC", type=given, help="the older bot to compare --bot with")
    what.add_argument(
        "--only",
        nargs="+",
        type=given,
        metavar="WORD",
        help="only the kernel figures whose name contains one of these words (pure, numba, mcts...)",
    )
    how = bench.add_argument_group("how")
    how.add_argument("--quick", action="store_true", help="fewer, shorter rounds (for CI)")
    how.add_argument("--rounds", type=int, help="alternating rounds (default 12, 8 with --quick)")
    how.add_argument(
        "--seconds",
        type=positive_seconds,
        help="CPU seconds per kernel figure per version per round (default 0.25, 0.1 with --quick)",
    )
    how.add_argument(
        "--positions",
        type=count(1),
        help="positions per bot run (default 20, 10 with --quick); with a game's turns, the first N "
        "turns of each recorded transcript (default: all)",
    )
    how.add_argument(
        "--threshold",
        type=fraction,
        default=timing.DEFAULT_THRESHOLD,
        help="a figure regresses when worse with 95%% confidence AND by more than this (default %(default)s = 5%%)",
    )
    saved = bench.add_argument_group("saved baselines (this machine only)")
    saved.add_argument("--save", metavar="FILE", type=given, help="store the figures, with this machine's description")
    saved.add_argument("--compare", metavar="FILE", type=given, help="exit 1 if a figure regressed against FILE")
    saved.add_argument(
        "--any-machine",
        action="store_true",
        help="compare with FILE although it came from another machine (a warning, not a refusal)",
    )
    recorded = bench.add_argument_group(
        "a bot of any game (--bot with --game NAME or --referee CMD): timed on turns recorded from its games"
    )
    recorded.add_argument(
        "--opponent",
        metavar="SPEC",
        type=given,
        help="the bot's opponent in the recorded games (default: the bot itself)",
    )
    recorded.add_argument(
        "--seed", type=int, default=1, help="the recorded games' seeds derive from it (default %(default)s)"
    )
    recorded.add_argument(
        "--record", metavar="FILE", type=given, help="save the turns timed to FILE (JSON), for --turns"
    )
    recorded.add_argument(
        "--turns", metavar="FILE", type=given, help="time the bot on the turns saved in FILE by --record"
    )
    add_game_options(bench)
    bench.add_argument("--json", action="store_true", help="print every measured value as JSON")
    bench.add_argument("--list", action="store_true", help="list the figures (for --only) and exit")
    stress_options(bench)
    bench.set_defaults(run=cmd_bench)


def fraction(text: str) -> float:
    """--threshold: a fraction from 0 to 1 (0.05 = 5%); `5`, meant as 5%, was taken as 500%."""
    value = number(float, least=0)(text)
    if value > 1:
        raise argparse.ArgumentTypeError(f"must be a fraction from 0 to 1 (0.05 for 5%), not {text}")
    return value


def stress_options(bench: argparse.ArgumentParser) -> None:
    """`--stress` and its options (--turn-ms and --first-turn-ms are the game options `arena bench`
    already has, default None)."""
    group = bench.add_argument_group(
        "stress (--stress): many games at once, bots as processes, from an empty numba cache"
    )
    group.add_argument("--stress", action="store_true", help="run the stress benchmark instead")
    group.add_argument(
        "--games",
        type=count(1),
        help="games in all (default: as many as --parallel); with --bot and a game, the games recorded (default 2)",
    )
    group.add_argument("--parallel", type=count(1), help="games at once (default: twice the cores)")
    group.add_argument(
        "--cache",
        choices=("fresh", "per-game", "warm"),
        default="fresh",
        help="numba's cache: one empty for the run (default), an empty one per game, or compiled before the first game",
    )
    group.add_argument(
        "--load-first",
        action=argparse.BooleanOptionalAction,
        help="load each engine before its game's first turn (the arena's way), not behind its stand-in "
        "(default: with --cache warm)",
    )
    group.add_argument(
        "--engines", nargs="+", metavar="NAME", help=f"the bots (default: {' '.join(stress.default_bots())})"
    )
    group.add_argument(
        "--max-turns",
        type=count(1),
        default=MAX_TURNS,
        help="turns before a draw (default %(default)s: whole games)",
    )


def cmd_bench(args: argparse.Namespace) -> int:
    if args.stress:
        return stress.run(args)
    return timing.main(args, chosen_game(args))


def chosen_game(args: argparse.Namespace) -> Game | None:
    """The game whose recorded turns time a bot (`--game`, `--referee`), or None: Volcanoes' fixed
    positions. The options that go with it are refused without a bot to time."""
    named = names_a_game(args)
    if not args.bot:
        given = [
            flag
            for flag, value in (
                ("--game/--referee", named),
                ("--turns", args.turns),
                ("--record", args.record),
                ("--opponent", args.opponent),
            )
            if value
        ]
        if given:
            raise BenchError(f"{given[0]} goes with --bot CMD (the bot to time on a game's turns)")
        return None
    if named and args.turns:
        raise BenchError("--turns FILE replays saved turns, --game/--referee records new ones: give one or the other")
    if args.opponent and not named:
        raise BenchError("--opponent goes with --game or --referee (the games to record)")
    return game_of(args) if named else None
