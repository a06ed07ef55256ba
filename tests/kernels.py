"""Compile the numba kernels that the tests use into numba's cache before a parallel run, so that the
test workers load them instead of each compiling the same ones (tests/conftest.py starts both groups
at once, one a core): `python -m tests.kernels bots` (every registered numba bot's, as
`python -m bots.volcanoes.warmup` does) or `python -m tests.kernels others` (the rest)."""

from __future__ import annotations

import importlib
import sys

GROUPS = ("bots", "others")


def others() -> None:
    from arena.bench import playout_baseline
    from bots.coroutine.bound import surviving_lines
    from bots.coroutine.fast import optimal_turns
    from bots.coroutine.generate import generate
    from bots.iqtwist import search as iqtwist
    from bots.volcanoes.search import bitboard
    from referee import puzzle

    playout_baseline.warm_up()
    iqtwist.warm_up()
    for name in puzzle.NAMES:  # every puzzle's solver, on the puzzle's examples
        game, solver = puzzle.load(name), importlib.import_module(f"bots.{name}.solver")
        for example in game.examples:
            solver.solve(game.parse_instance(example))
    optimal_turns(generate(4, seed=1)[0])
    surviving_lines(7)
    bitboard.warm_up()  # last: the other group compiles its core first


def main(group: str) -> int:
    if group == "bots":
        from bots.volcanoes import warmup

        return warmup.main([])
    others()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
