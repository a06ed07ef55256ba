"""A league's database filled with synthetic games through the Store API, to measure the live page
on a big file: N bots of known strength (Elo spread evenly over 800 points), G two-player games in
seat-swapped units between neighbours and random pairs, each with times per turn, PDATA and TDATA.

    python tests/arena/scripts/fill_league.py DB [--bots 100] [--games 100000] [--seed 1]
    python tests/arena/scripts/fill_league.py DB --more 20   # 20 more games in an existing file
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from arena.games.base import Player  # noqa: E402
from arena.play.store import Store  # noqa: E402


def game(rng: random.Random, lineup: tuple[str, str], unit: int, seating: int, elo: dict[str, float]) -> dict:
    seats = list(lineup) if seating == 0 else list(reversed(lineup))
    a, b = seats
    p = 1 / (1 + 10 ** ((elo[b] - elo[a]) / 400))
    draw = rng.random() < 0.1
    ranks = [0, 0] if draw else ([0, 1] if rng.random() < p else [1, 0])
    turns = rng.randint(8, 30)
    times = [[rng.uniform(20, 90)] + [rng.gammavariate(4, 10) for _ in range(turns - 1)] for _ in seats]
    forfeit = rng.random() < 0.01
    return {
        "lineup": list(lineup),
        "unit": unit,
        "seating": seating,
        "seats": seats,
        "versions": ["synthetic"] * 2,
        "seed": unit,
        "bot_seeds": [1, 2],
        "ranks": [1, 0] if forfeit else ranks,
        "scores": None,
        "errors": ["timeout", None] if forfeit else [None, None],
        "reason": "timeout" if forfeit else "score",
        "detail": "",
        "turns": 2 * turns,
        "times": times,
        "data": {"pdata": [{"depth": rng.randint(3, 9)} for _ in seats], "tdata": {"size": rng.choice((8, 10, 12))}},
        "seconds": 0.5,
        "worker": "synthetic",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("db")
    parser.add_argument("--bots", type=int, default=100)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--more", type=int, help="add this many games to an existing file")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    if args.more:
        store = Store.open(args.db)
        labels = [p.label for p in store.players()]
        start = store.db.execute("SELECT coalesce(max(unit), 0) + 1 FROM games").fetchone()[0]
        count = args.more
    else:
        labels = [f"bot{i:03d}" for i in range(args.bots)]
        config = {"command": "league", "game": {"name": "synthetic", "protocol": "cli"}, "seed": args.seed}
        config.update(players=labels, lineups=[], units=None, seatings="balanced", sprt=None, mode="uncertain")
        store = Store.create(args.db, config, [])
        for label in labels:
            store.join_league(Player(label, label, "command", f"./{label}", "synthetic"))
        start, count = 0, args.games
    elo = {label: 400 - 800 * i / max(len(labels) - 1, 1) for i, label in enumerate(labels)}
    unit = start
    for _ in range(count // 2):
        i = rng.randrange(len(labels))
        j = min(len(labels) - 1, i + rng.randint(1, 3)) if rng.random() < 0.7 else rng.randrange(len(labels))
        if i == j:
            j = (i + 1) % len(labels)
        lineup = (labels[min(i, j)], labels[max(i, j)])
        for seating in (0, 1):
            store.add_game(game(rng, lineup, unit, seating, elo))  # each in its transaction, as a league does
        unit += 1
    store.close()


if __name__ == "__main__":
    main()
