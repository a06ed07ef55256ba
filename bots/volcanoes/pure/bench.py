"""How fast the pure-Python engine plays: random playouts per CPU second from the opening, the
figure that bounds the pure-Python MCTS on CodinGame, and the decisive playouts that it searches with.
`python -m bots.volcanoes.pure.bench [SECONDS]`."""

from __future__ import annotations

import sys
import time
from random import Random

from referee.platform.commands import CommandParser
from referee.platform.options import positive_seconds

from . import rules


def playouts_per_second(seconds: float = 2.0, seed: int = 0, playout=rules.random_playout) -> float:
    """`playout`s from the empty board for about `seconds` of this process's CPU time; the rate per
    CPU second (CPU time, so other work on a shared machine does not lower the figure)."""
    if seconds <= 0:
        raise ValueError("seconds must be positive")
    bits = Random(seed).getrandbits
    board = rules.new_board()
    clock = time.process_time
    count = 0
    started = clock()
    end = started + seconds
    while True:
        for _ in range(20):
            playout(board, 0, bits)
        count += 20
        now = clock()
        if now >= end:
            return count / (now - started)


def main(argv: list[str] | None = None) -> int:
    parser = CommandParser(prog="python -m bots.volcanoes.pure.bench", description=__doc__)
    parser.add_argument(
        "seconds", nargs="?", type=positive_seconds, default=5.0, help="CPU seconds per figure (default 5)"
    )
    seconds = parser.parse_args(argv).seconds
    print(f"{playouts_per_second(seconds):.0f} random playouts/s from the opening (pure Python)")
    from .decisive import decisive_playout  # (only here: the random figure runs without its tables)

    print(f"{playouts_per_second(seconds, playout=decisive_playout):.0f} decisive playouts/s from the opening")
    return 0


if __name__ == "__main__":
    sys.exit(main())
