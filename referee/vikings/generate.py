"""New objectives whose optimum is exactly N moves.

Deal a random valid board (tiles shuffled, orientations drawn until no two tiles overlap, boats on
distinct edges), search every state reachable from it, and keep the boat placements with all boats on
the boundary: the first time breadth-first search meets a placement is its fewest moves. Any
placement first met at depth N is a target with optimum N.
"""
from __future__ import annotations

import random

import numpy as np

from referee.vikings import rules, search

BOUNDARY_MASK = sum(1 << e for e in rules.BOUNDARY_EDGES)
MAX_BOARDS = 300  # boards dealt per objective asked for, before giving up
SWEEPS = 4  # searches from ever farther states of one board


def random_board(rng: random.Random, n_boats: int) -> rules.Board:
    """A valid board: the nine tiles in random places and orientations, `n_boats` boats of random
    colours on random distinct edges."""
    types = list("NNNNNNOOO")
    rng.shuffle(types)
    colours = sorted(rng.sample(rules.COLOURS, n_boats), key=rules.COLOURS.index)
    edges = rng.sample(range(len(rules.EDGES)), n_boats)
    while True:
        orientations = tuple(rng.randrange(4) for _ in range(9))
        board = rules.Board(tuple(types), orientations, tuple(zip(colours, edges)))
        if rules.validity_problem(board) is None:
            return board


def targets_at_distance(board: rules.Board, moves: int,
                        reached: tuple[np.ndarray, np.ndarray] | None = None) -> list[tuple[tuple[str, int], ...]]:
    """Every target (all the board's boats on boundary edges) whose fewest moves is `moves`;
    `reached` is `search.reachable(board)` when already known."""
    states, depths = reached if reached is not None else search.reachable(board)
    boats = states >> search.BOAT_SHIFT
    on_boundary = np.ones(states.size, np.bool_)
    for i in range(len(board.boats)):
        edge = (boats >> (search.BOAT_BITS * i)) & 31
        on_boundary &= ((BOUNDARY_MASK >> edge) & 1).astype(np.bool_)
    # States come in order of depth, so a placement's first index holds its fewest moves.
    placements, first = np.unique(boats[on_boundary], return_index=True)
    chosen = placements[depths[on_boundary][first] == moves]
    return [tuple((colour, int(p >> (search.BOAT_BITS * i)) & 31) for i, (colour, _) in enumerate(board.boats))
            for p in chosen]


def generate(moves: int, rng: random.Random, n_boats: int | None = None,
             max_boards: int = MAX_BOARDS) -> rules.Objective | None:
    """A random valid objective whose optimum is exactly `moves`, with `n_boats` boats (1-4, random
    when None); None when `max_boards` boards dealt had none.

    Most dealt boards barely move (their boats' tiles are blocked); a board that moves far is kept,
    and the search restarts from one of the states farthest from it (which are farther still from
    others), up to SWEEPS times, to reach long optima.
    """
    for _ in range(max_boards):
        board = random_board(rng, n_boats or rng.randint(1, rules.MAX_BOATS))
        for _ in range(SWEEPS):
            states, depths = reached = search.reachable(board)
            targets = targets_at_distance(board, moves, reached)
            if targets:
                return rules.Objective(board, rng.choice(targets))
            if 2 * int(depths[-1]) < moves:  # no two states of this component are `moves` apart
                break
            board = search.decode(int(rng.choice(states[depths == depths[-1]])), board)
    return None
