"""Pebbles' play-one-game command in protocol (B), psyleague's and CGArena's, for the tests of the
arena's `json` game. From the checkout's root:

    python -m tests.games.pebbles.json_referee [--seed N] CMD1 CMD2 [CMD3 [CMD4]]

It prints one JSON object: `ranks` (0 first, equal for a tie), `errors` (1 for a player that failed,
else 0), psyleague's `test_data` (`seed`, `turns`) and `player_data` (each player's `score`), and
`scores`. Without a seed it draws one. `--first-turn-ms` and `--turn-ms` set the bots' limits.

`--misbehave HOW` makes it fail as a referee: ignore-seed (draws its own seed whatever it is given,
and reports that one), crash (an exception once the bots run: a traceback, status 1), hang (starts
the bots, then never ends), garbage (what is no JSON), exit (a good result, then status 3),
missing-score (one rank short).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from contextlib import ExitStack

from referee.platform.process import BotProcess
from referee.platform.process_tree import claim_orphans

from . import host

MISBEHAVIOURS = ("ignore-seed", "crash", "hang", "garbage", "exit", "missing-score")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pebbles-json-referee", description=__doc__)
    parser.add_argument("commands", nargs="+", metavar="CMD", help="the players' commands, player 0 first")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--first-turn-ms", type=float, default=2000.0)
    parser.add_argument("--turn-ms", type=float, default=500.0)
    parser.add_argument("--misbehave", choices=MISBEHAVIOURS)
    args = parser.parse_args(argv)
    if not 2 <= len(args.commands) <= 4:
        parser.error(f"pebbles is for 2 to 4 players, not {len(args.commands)}")
    seed = random.randrange(2**31) if args.seed is None or args.misbehave == "ignore-seed" else args.seed
    claim_orphans()  # this process runs nothing but bots
    if args.misbehave in ("crash", "hang"):
        with ExitStack() as stack:
            for command in args.commands:
                stack.enter_context(BotProcess(command))
            if args.misbehave == "crash":
                raise RuntimeError("the referee's own bug (--misbehave crash)")
            time.sleep(3600)
    played = host.play(args.commands, seed, args.first_turn_ms / 1000, args.turn_ms / 1000)
    if args.misbehave == "garbage":
        print("{'ranks': [0, 1]")
        return 0
    keys = [(seat == played.out, -score) for seat, score in enumerate(played.scores)]
    ranks = [sum(other < mine for other in keys) for mine in keys]
    result = {
        "ranks": ranks[:-1] if args.misbehave == "missing-score" else ranks,
        "errors": [int(seat == played.out) for seat in range(len(played.scores))],
        "scores": played.scores,
        "test_data": {"seed": seed, "turns": len(played.turns)},
        "player_data": [{"score": score} for score in played.scores],
    }
    print(json.dumps(result), flush=True)
    return 3 if args.misbehave == "exit" else 0


if __name__ == "__main__":
    sys.exit(main())
