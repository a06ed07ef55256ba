"""New objectives whose optimum is exactly N moves.

Deal a random valid board (tiles shuffled, orientations drawn until no two tiles overlap, boats on
distinct edges) and search every state reachable from it. Pick a target among the boat placements
met there with all boats on boundary edges, and search backwards from the states that meet it: each
state reached is a start whose optimum is its distance. Any start at distance N makes an objective.
(Most dealt boards barely move, their boats' tiles being blocked; they are dealt again.)

    python -m bots.vikings.generate --moves 30 [--boats 3] [--count 5] [--seed 1] [--boards N]
"""

from __future__ import annotations

import random
import sys

import numpy as np

from bots import puzzle_solver
from bots.vikings import search
from referee.platform.commands import run_command
from referee.platform.errors import UserError
from referee.vikings import rules
from referee.vikings.puzzle import PUZZLE

BOUNDARY_MASK = sum(1 << e for e in rules.BOUNDARY_EDGES)
MAX_BOARDS = 3000  # boards dealt per objective asked for, before giving up (a few seconds)
TARGETS_PER_BOARD = 3  # targets tried on one board


def random_board(rng: random.Random, n_boats: int) -> rules.Board:
    """A valid board: the nine tiles in random places and orientations, `n_boats` boats of random
    colours on random distinct edges."""
    types = list("NNNNNNOOO")
    rng.shuffle(types)
    colours = sorted(rng.sample(rules.COLOURS, n_boats), key=rules.COLOURS.index)
    edges = rng.sample(range(len(rules.EDGES)), n_boats)
    while True:
        orientations = tuple(rng.randrange(4) for _ in range(9))
        board = rules.Board(tuple(types), orientations, tuple(zip(colours, edges, strict=True)))
        if rules.validity_problem(board) is None:
            return board


def boundary_placements(states: np.ndarray, n_boats: int) -> np.ndarray:
    """The distinct boat placements (a state's boat bits) among `states` with every boat on a
    boundary edge: the possible targets."""
    boats = states >> search.BOAT_SHIFT
    on_boundary = np.ones(states.size, np.bool_)
    for i in range(n_boats):
        edge = (boats >> (search.BOAT_BITS * i)) & 31
        on_boundary &= ((BOUNDARY_MASK >> edge) & 1).astype(np.bool_)
    return np.unique(boats[on_boundary])


def targets_of(placement: int, board: rules.Board) -> tuple[tuple[str, int], ...]:
    return tuple((colour, (placement >> (search.BOAT_BITS * i)) & 31) for i, (colour, _) in enumerate(board.boats))


def generate(
    moves: int, rng: random.Random, n_boats: int | None = None, max_boards: int = MAX_BOARDS
) -> rules.Objective | None:
    """A random valid objective whose optimum is exactly `moves`, with `n_boats` boats (1-4, random
    when None); None when `max_boards` boards dealt had none."""
    for _ in range(max_boards):
        board = random_board(rng, n_boats or rng.randint(1, rules.MAX_BOATS))
        states, _ = search.reachable(board)
        if states.size <= moves:  # too few states for a shortest path of `moves` moves
            continue
        placements = boundary_placements(states, len(board.boats)).tolist()
        for placement in rng.sample(placements, min(TARGETS_PER_BOARD, len(placements))):
            goals = states[(states >> search.BOAT_SHIFT) == placement]
            before, distance = search.distances_to(goals, board)
            starts = before[distance == moves]
            if starts.size:
                start = search.decode(int(starts[rng.randrange(starts.size)]), board)
                return rules.Objective(start, targets_of(placement, board))
    return None


def main(argv: list[str] | None = None) -> int:
    parser = puzzle_solver.parser(PUZZLE, "Print new objectives whose optimum is exactly N moves.", "generate")
    parser.add_argument("--moves", type=int, required=True, metavar="N", help="the optimum, in quarter-turns")
    parser.add_argument(
        "--boats",
        type=int,
        choices=range(1, rules.MAX_BOATS + 1),
        metavar="K",
        help="boats per objective, 1-4 (default: random)",
    )
    parser.add_argument("--count", type=int, default=1, help="how many objectives (default 1)")
    parser.add_argument("--seed", type=int, help="random seed, for the same objectives again")
    parser.add_argument(
        "--boards",
        type=int,
        default=MAX_BOARDS,
        help=f"random boards to try per objective before giving up (default {MAX_BOARDS})",
    )
    parser.set_defaults(run=run_generate)
    return run_command(parser.parse_args(argv))


def run_generate(args) -> int:
    if min(args.moves, args.count, args.boards) < 1:
        raise UserError("--moves, --count and --boards must be at least 1")
    rng = random.Random(args.seed)
    printed: set[str] = set()
    tries = 0
    while len(printed) < args.count and tries < 3 * args.count:
        tries += 1
        objective = generate(args.moves, rng, args.boats, args.boards)
        if objective is None:
            break
        if str(objective) not in printed:
            printed.add(str(objective))
            print(objective, flush=True)
    if len(printed) < args.count:
        boats = f"{args.boats} boat(s)" if args.boats else "1-4 boats"
        print(
            f"{args.prog}: found {len(printed)} of {args.count} objectives with optimum {args.moves} "
            f"and {boats} ({args.boards} random boards each); try fewer moves or more --boards",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
