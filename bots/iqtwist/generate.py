"""New challenges with exactly one solution, at five levels defined by the number of givens.

| level   | givens                |
| ------- | --------------------- |
| starter | one piece and 6 pegs  |
| junior  | 6 pegs                |
| expert  | 5 pegs                |
| master  | 4 pegs                |
| wizard  | 3 pegs                |

These follow the recorded challenges: the booklet's have 6-7 givens at starter and junior, 2 or 7
at expert, 3-5 at master and wizard; the three student difficulty sets have 5-7, 4-5 and 2-3.

How: take a random solution of the empty board, turn each piece to a random orientation covering
the same cells (the holes move), put pegs under random holes of their colour, as many as the peg
limits allow (up to 7; none under a given piece), keep it only if that has one solution, then take
pegs away in random order while the solution stays unique, down to the level's count. Start again
from another solution when stuck.

    python -m bots.iqtwist.generate --level wizard [--count 5] [--seed 1]
"""

from __future__ import annotations

import random
import sys
from functools import lru_cache

from bots import puzzle_solver

from referee.iqtwist.pieces import CELLS, COLUMNS, PEG_LIMITS, PEGS, colour, footprint
from referee.iqtwist.rules import Placement, State, canonical, parse_placement
from bots.iqtwist.search import count_solutions, solutions
from referee.platform.commands import run_command
from referee.platform.errors import UserError
from referee.iqtwist.puzzle import PUZZLE

# level -> (pieces given, pegs given)
LEVELS = {
    "starter": (1, 6),
    "junior": (0, 6),
    "expert": (0, 5),
    "master": (0, 4),
    "wizard": (0, 3),
}
MAX_ATTEMPTS = 10_000


@lru_cache(maxsize=1)
def _empty_board_solutions() -> tuple[str, ...]:
    return tuple(solutions(State()))


def _same_cells_orientations(placement: Placement) -> list[Placement]:
    cells = footprint(*placement).cells
    return [
        placement._replace(orientation=o)
        for o in range(8)
        if (shape := footprint(*placement._replace(orientation=o))) is not None and shape.cells == cells
    ]


def _random_pegs(pieces: list[Placement], rng: random.Random) -> list[Placement]:
    """As many pegs as the limits allow, each under a random hole of its colour in `pieces`."""
    holes_by_colour: list[list[int]] = [[], [], [], []]
    for piece in pieces:
        holes = footprint(*piece).holes
        holes_by_colour[colour(piece.letter)] += [cell for cell in range(CELLS) if holes >> cell & 1]
    pegs = []
    for hue, cells in enumerate(holes_by_colour):
        for cell in rng.sample(cells, min(PEG_LIMITS[hue], len(cells))):
            pegs.append(Placement(PEGS[hue], cell % COLUMNS, cell // COLUMNS, 0))
    return pegs


def _unique(pieces: list[Placement], pegs: list[Placement]) -> bool:
    return count_solutions(State(tuple(sorted(pieces)), tuple(sorted(pegs))), limit=2) == 1


def _attempt(pieces_given: int, pegs_given: int, rng: random.Random) -> str | None:
    text = rng.choice(_empty_board_solutions())
    placements = [parse_placement(text[i : i + 4]) for i in range(0, 32, 4)]
    solution = [rng.choice(_same_cells_orientations(placement)) for placement in placements]
    given = rng.sample(solution, pieces_given)
    pegs = _random_pegs([piece for piece in solution if piece not in given], rng)
    if len(pegs) < pegs_given or not _unique(given, pegs):
        return None
    rng.shuffle(pegs)
    while len(pegs) > pegs_given:
        for peg in pegs:
            fewer = [other for other in pegs if other is not peg]
            if _unique(given, fewer):
                pegs = fewer
                break
        else:
            return None  # every peg left is needed
    pegs.sort()
    pieces = sorted(canonical(piece, tuple(pegs)) for piece in given)
    return "".join(str(p) for p in pieces + pegs)


def generate(level: str, rng: random.Random) -> str:
    """One challenge of `level` with exactly one solution."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
    pieces_given, pegs_given = LEVELS[level]
    for _ in range(MAX_ATTEMPTS):
        challenge = _attempt(pieces_given, pegs_given, rng)
        if challenge is not None:
            return challenge
    raise RuntimeError(f"no {level} challenge found in {MAX_ATTEMPTS} attempts")  # pragma: no cover


def main(argv: list[str] | None = None) -> int:
    parser = puzzle_solver.parser(PUZZLE, "Print new challenges with exactly one solution.", "generate")
    parser.add_argument("--level", choices=list(LEVELS), required=True)
    parser.add_argument("--count", type=int, default=1, help="how many challenges (default 1)")
    parser.add_argument("--seed", type=int, help="random seed, for the same challenges again")
    parser.set_defaults(run=run_generate)
    return run_command(parser.parse_args(argv))


def run_generate(args) -> int:
    if args.count < 1:
        raise UserError("--count must be at least 1")
    rng = random.Random(args.seed)
    for _ in range(args.count):
        print(generate(args.level, rng), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
