"""Pebbles' referee in protocol (A), the brutaltester command line, for the tests of the arena's `cli`
game. From the checkout's root:

    python -m tests.games.pebbles.cli_referee -p1 CMD -p2 CMD [-p3 CMD [-p4 CMD]]
        [-d seed=N | -seed N] [-league N] [-l LOG.json]

It prints each player's score (-1 for a player that failed), then `seed=N` (and `league=N` when
given), and with -l writes the SDK runner's result JSON (referee/platform/brutaltester.py). Without a seed it
draws one. `--first-turn-ms` and `--turn-ms` set the bots' limits.

`--chatter` prints lines of its own on stdout before the result, as a real referee that logs with
System.out does (Legends of Code and Magic: the SDK's runner plays it in its own JVM).

`--misbehave HOW` makes it fail as a referee: ignore-seed (draws its own seed whatever it is given,
and echoes that one), crash (an exception once the bots run: a traceback, status 1), hang (starts
the bots, then never ends), garbage (a line that is no score), exit (a good result, then status 3),
missing-score (one score short), crash-odd (crash on odd seeds only: a bug some games bring out).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from contextlib import ExitStack

from referee.platform import brutaltester
from referee.platform.errors import UserError
from referee.platform.process import BotProcess
from referee.platform.process_tree import claim_orphans

from . import host

MISBEHAVIOURS = ("ignore-seed", "crash", "hang", "garbage", "exit", "missing-score", "crash-odd")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pebbles-cli-referee", description=__doc__)
    brutaltester.add_options(parser)
    parser.add_argument("-league", type=int, metavar="N", help="echoed as league=N (pebbles has no leagues)")
    parser.add_argument("--first-turn-ms", type=float, default=2000.0)
    parser.add_argument("--turn-ms", type=float, default=500.0)
    parser.add_argument("--chatter", action="store_true", help="log lines on stdout before the result")
    parser.add_argument("--misbehave", choices=MISBEHAVIOURS)
    args = parser.parse_args(argv)
    try:
        commands = brutaltester.player_commands(args, range(2, 5))
        seed = brutaltester.seed(args)
    except UserError as exc:
        parser.error(str(exc))
    if seed is None or args.misbehave == "ignore-seed":
        seed = random.randrange(2**31)
    if args.misbehave == "crash-odd":  # some games only: a referee with a bug the seed brings out
        args.misbehave = "crash" if seed % 2 else None
    claim_orphans()  # this process runs nothing but bots
    if args.misbehave in ("crash", "hang"):
        with ExitStack() as stack:
            for command in commands:
                stack.enter_context(BotProcess(command))
            if args.misbehave == "crash":
                raise RuntimeError("the referee's own bug (--misbehave crash)")
            time.sleep(3600)
    if args.chatter:  # numbers and key=value lines too: only the result's place tells it
        print("New game\n   Draft phase\n7\n   seed=not this one", flush=True)
    played = host.play(commands, seed, args.first_turn_ms / 1000, args.turn_ms / 1000)
    if args.chatter:
        print(f"   Game finished.\n   Scores: {' '.join(map(str, played.scores))}", flush=True)
    parameters = {"seed": seed} | ({} if args.league is None else {"league": args.league})
    if args.cg_log:
        write_log(args.cg_log, played, parameters)
    if args.misbehave == "garbage":
        print("the game is over, thanks for playing")
        return 0
    scores = played.scores[:-1] if args.misbehave == "missing-score" else played.scores
    brutaltester.print_result(scores, parameters)
    return 3 if args.misbehave == "exit" else 0


def write_log(path: str, played: host.Played, parameters: dict) -> None:
    """The SDK runner's result, as it records an SDK game: view k is the referee's frame of round k,
    which draws what round k-1's answer did, with that round's summary; the last one, the position
    the game ended in, is a round in which nobody plays (the runner adds no player's entry)."""
    players = len(played.scores)
    log = brutaltester.SdkLog(players)
    log.start([""] * players)
    views = view_frames(played, players)
    summary = ""
    for k, turn in enumerate(played.turns):
        log.turn(turn.player, turn.answer, turn.stderr, summary, views[k])
        summary = turn.summary
    if played.turns:  # (SdkLog has no call for a round without a player's turn)
        log.views.append(views[-1])
        log.summaries.append(summary)
    if played.out is not None:
        log.tooltip(played.out, f"${played.out} {played.failure}: {played.detail}")
    log.end(played.scores, parameters)
    log.write(path)


def view_frames(played: host.Played, players: int) -> list[str]:
    """The view frame of each round and of the end, as sdk_referee.py sends them for the stand-in
    viewer (tests/games/pebbles/viewer): `KEY_FRAME k`, then the first `{global, frame}`, the later
    ones `{pebbles}`. The end is the last position with the last answer applied (none where it
    failed: an answer that puts a player out changes nothing)."""
    positions = [json.loads(turn.view) for turn in played.turns]
    if positions:
        positions.append(positions[-1] if played.out is not None else {"pebbles": [], "scores": played.scores})
    frames = [{"global": {"pebbles": {"players": players}}, "frame": {"pebbles": positions[0]}}] if positions else []
    frames += [{"pebbles": position} for position in positions[1:]]
    return [f"KEY_FRAME {k}\n{json.dumps(frame)}" for k, frame in enumerate(frames)]


if __name__ == "__main__":
    sys.exit(main())
