"""Compile the numba kernels that the tests use into numba's cache before a parallel run, so that the
test workers load them instead of each compiling the same ones (tests/conftest.py starts both groups
at once, one a core): `python -m tests.kernels GROUP`.

The two groups take about as long from an empty cache (36 s and 33 s at once on the 2-core machine
the README's figure comes from, where a group of every bot and one of the rest took 45 s and 28 s).
`engines` begins with `random`, which compiles Volcanoes' rules and state; `searches` reaches its
bots after its other steps, by when it loads those kernels instead of compiling them a second time."""

from __future__ import annotations

import importlib
import sys


def _bots(*names: str) -> None:
    from bots.volcanoes import warmup

    if warmup.main(list(names)):
        raise SystemExit(f"the warm-up of {', '.join(names)} failed")


def _puzzles(names) -> None:
    """Each puzzle's solver, on the puzzle's examples."""
    from referee import puzzle

    for name in names:
        game, solver = puzzle.load(name), importlib.import_module(f"bots.{name}.solver")
        for example in game.examples:
            solver.solve(game.parse_instance(example))


SEARCHES_PUZZLES = ("stormyseas",)  # the heaviest solver's kernels: in the group with fewer bots


def engines() -> None:
    from bots.coroutine.bound import surviving_lines
    from bots.coroutine.fast import optimal_turns
    from bots.coroutine.generate import generate
    from bots.iqtwist import search as iqtwist
    from referee import puzzle

    _bots("random", "alphabeta", "boss")
    iqtwist.warm_up()
    _puzzles(name for name in puzzle.NAMES if name not in SEARCHES_PUZZLES)  # a new puzzle's here too
    optimal_turns(generate(4, seed=1)[0])
    surviving_lines(7)


def searches() -> None:
    from arena.bench import playout_baseline
    from bots.volcanoes.search import bitboard

    playout_baseline.warm_up()
    _puzzles(SEARCHES_PUZZLES)
    _bots("greedy", "uct", "mcts")  # after the other group's `random` has compiled the rules
    bitboard.warm_up()


GROUPS = {"engines": engines, "searches": searches}


def main(group: str) -> int:
    GROUPS[group]()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
