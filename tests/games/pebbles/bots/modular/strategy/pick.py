"""One of the two most valuable pebbles, drawn by a generator seeded with the game's seed."""

import os
import random

from . import ranking

_rng = random.Random(int(os.environ.get("CALDERA_BOT_SEED", "0")))


def choose(values: list[int]) -> int:
    return _rng.choice(ranking.best(values, 2))
