"""Compile every bot's kernels into numba's cache ahead of play: `python -m bots.volcanoes.warmup`.

Run it once on a fresh checkout (or after editing a kernel) so that no bot compiles during a game.
"""

from __future__ import annotations

import sys
import time

from referee.platform.commands import CommandParser

from .registry import BOTS, bot_class, is_pure


def main(argv: list[str] | None = None) -> int:
    parser = CommandParser(prog="python -m bots.volcanoes.warmup", description=__doc__)
    parser.add_argument("names", nargs="*", metavar="NAME", help="the bots (default: every bot with kernels)")
    names = parser.parse_args(argv).names
    unknown = [name for name in names if name not in BOTS]
    if unknown:
        parser.error(f"no bot named {unknown[0]!r}; known bots: {', '.join(BOTS)}")
    for name in names or [name for name in BOTS if not is_pure(name)]:
        if is_pure(name):  # nothing to compile
            continue
        start = time.perf_counter()
        bot_class(name)().warm_up()
        print(f"{name}: ready in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
