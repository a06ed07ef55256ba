"""Our Volcanoes referee in the community's tools, with our exact rules and CodinGame's limits
(`match.play_game`, the bots as BotProcess seats, warmed up before any clock runs, as `referee
volcanoes play` plays them):

- protocol (A), brutaltester's referee command line (referee/platform/brutaltester.py):
      referee volcanoes -p1 CMD -p2 CMD [-d seed=N | -seed N] [-l LOG.json]
  prints the two scores, blue's first (1 for a win, 0 for a loss or a draw, -1 for a player that
  failed: a timeout, an invalid move, a crash, a command that cannot start), then `seed=N`; with -l
  it writes the SDK runner's result JSON. For cg-brutaltester: `-r "referee volcanoes"`. Its stderr
  stays empty unless something is wrong (brutaltester reports any as an error).
- psyleague's and CGArena's play-one-game command:
      referee volcanoes psyleague [--seed N] CMD1 CMD2
  prints one JSON object: `ranks` and `errors` (both tools), psyleague's `test_data` (seed, turns,
  reason) and `player_data` (points, max_turn_ms, mean_turn_ms: numbers, which psyleague averages),
  CGArena's `attributes` (the same, as match attributes).
Without a seed, one is drawn (and printed).
"""

from __future__ import annotations

import argparse
import io
import json
import random
import statistics
from contextlib import ExitStack
from dataclasses import dataclass

from ..platform import brutaltester
from ..platform.errors import UserError
from ..platform.files import check_writable, files_named, refuse_overwriting
from ..platform.bot_commands import warm_up
from ..platform.bot_errors import BotError
from ..platform.process import BotProcess
from ..platform.process_tree import claim_orphans
from . import rules
from .board import N_TILES
from .match import COLOURS, Result, Settings, play_game

SEATS = (COLOURS[rules.BLUE], COLOURS[rules.ORANGE])  # "blue", "orange": blue plays first
# match.py's ends where no player failed; any other reason is the loser's fault (a forfeit).
NORMAL_ENDS = ("connection", "simultaneous", "eruptions", "max-turns")


def register(parser: argparse.ArgumentParser, commands) -> None:
    """The community's commands on `referee volcanoes` (its parser, its subcommands)."""
    brutaltester.add_options(parser, players=len(SEATS))
    commands.required = False  # `referee volcanoes -p1 CMD -p2 CMD` plays without a COMMAND
    parser.epilog = (
        "Without a COMMAND, -p1 CMD -p2 CMD [-d seed=N | -seed N] [-l LOG.json] plays one game as\n"
        "brutaltester's referees do: it prints the two scores (1 a win, 0 a loss or a draw, -1 a player\n"
        "that failed), then seed=N; -l writes the SDK runner's result JSON."
    )
    parser.set_defaults(run=run_brutaltester)
    one = commands.add_parser(
        "psyleague", help="play one game, print psyleague's (and CGArena's) JSON: ranks, errors, test_data..."
    )
    one.add_argument("players", nargs=2, metavar="CMD", help="the players' command lines, blue first")
    one.add_argument("--seed", type=int, help="the game's seed (default: drawn, and reported)")
    one.set_defaults(run=run_psyleague)


@dataclass
class Played:
    result: Result
    failed: list[bool]  # blue's, orange's: lost by their own fault

    def scores(self) -> list[int]:
        return [
            brutaltester.FAILED_SCORE if failed else int(self.result.winner == seat)
            for seat, failed in zip(SEATS, self.failed, strict=True)
        ]

    def ranks(self) -> list[int]:
        keys = [(failed, -score) for failed, score in zip(self.failed, self.scores(), strict=True)]
        return [sum(other < mine for other in keys) for mine in keys]


def play(commands: list[str], seed: int) -> Played:
    """One game between the two commands; every bot process is gone when it returns."""
    rules.warm_up()
    claim_orphans()  # this process runs nothing but the two bots: their orphans are its to kill
    cannot = [None, None]
    for i, command in enumerate(commands):  # before any clock runs
        try:
            warm_up(command, log=io.StringIO())
        except BotError as exc:
            cannot[i] = str(exc)
    with ExitStack() as stack:
        seats = []
        for i, command in enumerate(commands):
            try:
                seats.append(stack.enter_context(BotProcess(command)) if cannot[i] is None else None)
            except BotError as exc:
                cannot[i] = str(exc)
        if any(cannot):
            return _unstarted(seed, cannot)
        result = play_game(seats[0], seats[1], seed, Settings())
    failed = [result.reason not in NORMAL_ENDS and result.winner != seat for seat in SEATS]
    return Played(result, failed)


def _unstarted(seed: int, cannot: list[str | None]) -> Played:
    """A game lost before its first turn by the player(s) that could not start."""
    failed = [problem is not None for problem in cannot]
    winner = "draw" if all(failed) else SEATS[failed.index(False)]
    detail = "; ".join(
        f"{seat} cannot start: {problem}" for seat, problem in zip(SEATS, cannot, strict=True) if problem
    )
    return Played(Result(seed, winner, "start", detail, 0, [], []), failed)


def sdk_log(played: Played, commands: list[str]) -> brutaltester.SdkLog:
    """The game as the SDK runner's result JSON: a frame per turn (growth's too, with no player),
    its view the position the turn started from (blue positive)."""
    result = played.result
    log = brutaltester.SdkLog(len(SEATS), names=commands)
    log.start(["", ""])
    levels: list[int] = [0] * N_TILES
    dormant: list[str] = []
    for turn in result.turn_log:
        player = SEATS.index(turn.actor) if turn.actor in SEATS else None
        view = json.dumps({"turn": turn.turn, "levels": levels, "dormant": dormant})
        if turn.actor == "growth":
            summary = "growth"
        elif turn.move is not None:
            summary = f"${player} plays {turn.move}"
        else:
            summary = f"${player} {result.reason}: {result.detail}"
        log.turn(player, turn.received, turn.stderr, summary, view)
        if turn.levels:  # a turn that ended in a forfeit left the position as it was
            levels, dormant = turn.levels, turn.dormant
    for seat, failed in enumerate(played.failed):
        if failed:
            log.tooltip(seat, f"${seat} {result.reason}: {result.detail}")
    log.end(played.scores(), {"seed": result.seed}, {"winner": result.winner, "reason": result.reason})
    return log


def psyleague_result(played: Played) -> dict:
    """psyleague's JSON for the game (which CGArena reads too: ranks, errors, attributes)."""
    result = played.result
    test_data = {"seed": result.seed, "turns": result.turns, "reason": result.reason}
    player_data = []
    for seat in SEATS:
        times = [t.time_ms for t in result.turn_log if t.actor == seat and t.time_ms is not None]
        points = 0.5 if result.winner == "draw" else float(result.winner == seat)
        player_data.append(
            {
                "points": points,
                "max_turn_ms": max(times, default=0.0),
                "mean_turn_ms": round(statistics.fmean(times), 3) if times else 0.0,
            }
        )
    attributes = [{"name": k, "player": None, "turn": None, "value": v} for k, v in test_data.items()]
    attributes += [
        {"name": k, "player": i, "turn": None, "value": v}
        for i, data in enumerate(player_data)
        for k, v in data.items()
    ]
    return {
        "ranks": played.ranks(),
        "errors": [int(failed) for failed in played.failed],
        "test_data": test_data,
        "player_data": player_data,
        "attributes": attributes,
    }


def _seed(given: int | None) -> int:
    return random.randrange(2**31) if given is None else given


def run_brutaltester(args: argparse.Namespace) -> int:
    if not brutaltester.given(args):
        raise UserError("choose a COMMAND, or play one game as brutaltester's referees do: -p1 CMD -p2 CMD")
    commands = brutaltester.player_commands(args, range(len(SEATS), len(SEATS) + 1))
    if args.cg_log is not None:  # (a bot's own file, named by its command, is an input: never written over)
        check_writable(args.cg_log, "-l")
        refuse_overwriting(args.cg_log, *files_named(*commands))
    seed = _seed(brutaltester.seed(args))
    played = play(commands, seed)
    if args.cg_log:
        sdk_log(played, commands).write(args.cg_log)
    brutaltester.print_result(played.scores(), {"seed": seed})
    return 0


def run_psyleague(args: argparse.Namespace) -> int:
    played = play(args.players, _seed(args.seed))
    print(json.dumps(psyleague_result(played)), flush=True)
    return 0
