"""The compiled search against the plain-Python rules and search, and on the 60 official objectives."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bots.vikings import search
from referee.vikings import rules
from bots.vikings.generate import random_board


def objectives_on_random_boards():
    """A random valid board and a random target for some of its boats (often unreachable)."""

    def deal(seed: int) -> rules.Objective:
        rng = random.Random(seed)
        board = random_board(rng, rng.randint(1, 4))
        chosen = rng.sample(board.boats, rng.randint(1, len(board.boats)))
        edges = rng.sample(sorted(rules.BOUNDARY_EDGES), len(chosen))
        return rules.Objective(board, tuple((c, e) for (c, _), e in zip(chosen, edges, strict=True)))

    return st.integers(0, 2**32).map(deal)


@given(st.integers(0, 2**32))
@settings(max_examples=200, deadline=None)
def test_compiled_moves_match_the_rules(seed):
    rng = random.Random(seed)
    board = random_board(rng, rng.randint(1, 4))
    state, n_tiles, n_boats = search.encode(board)
    assert search.decode(state, board) == board
    children = np.empty(9, np.int64)
    tiles = np.empty(9, np.int8)
    tables = search.closed_table(n_tiles), search.TILE_EDGE_MASK, search.EDGE_TILE_MASK
    count = search._children(state, n_boats, 1, *tables, search.NEXT_EDGE, children, tiles)
    assert list(tiles[:count]) == rules.rotatable_tiles(board)
    for child, tile in zip(children[:count], tiles[:count], strict=True):
        assert search.decode(int(child), board) == rules.rotate(board, int(tile))
    # Backwards: the anticlockwise turns, each undone by one clockwise turn.
    count = search._children(state, n_boats, 3, *tables, search.PREV_EDGE, children, tiles)
    assert list(tiles[:count]) == rules.rotatable_tiles(board)
    for child, tile in zip(children[:count], tiles[:count], strict=True):
        assert rules.rotate(search.decode(int(child), board), int(tile)) == board


@given(objectives_on_random_boards())
@settings(max_examples=150, deadline=None)
def test_compiled_search_matches_the_reference_search(objective):
    assume(search.reachable(objective.board)[0].size <= 20_000)  # the reference is slow on big ones
    slow = search.reference_solution(objective)
    assert search.breadth_first_solution(objective) == slow  # the same search, tiles in the same order
    fast = search.shortest_solution(objective)
    assert (fast is None) == (slow is None)
    if fast is not None:
        assert len(fast) == len(slow)
        board, error = rules.replay(objective, rules.parse_moves(fast))
        assert error is None and rules.is_solved(board, objective.targets)


def test_reference_search_on_small_official_objectives(official):
    for recorded in official[:5] + official[7:8]:  # the reference is slow; these are small
        objective = rules.parse_objective(recorded.line)
        assert len(search.reference_solution(objective)) == recorded.min_moves


def test_no_solution_is_proved_by_exhausting_the_reachable_states():
    # Tile 0 cannot turn (tile 1 closes edge e), so the boat at d never moves.
    objective = rules.parse_objective("N0O1N1N0O0O1N0N3N1Bd Ba")
    assert search.shortest_solution(objective) is None
    assert search.breadth_first_solution(objective) is None
    assert search.reference_solution(objective) is None
    assert search.shortest_solution(rules.parse_objective("N0O1N1N0O0O1N0N3N1Bd Bd")) == ""


def test_official_objectives_solved_in_the_fewest_moves(official):
    for recorded in official:
        objective = rules.parse_objective(recorded.line)
        solution = search.shortest_solution(objective)
        assert len(solution) == recorded.min_moves, recorded.index
        board, error = rules.replay(objective, rules.parse_moves(solution))
        assert error is None and rules.is_solved(board, objective.targets), recorded.index
        # The recorded solutions came from breadth-first search trying tiles 0 to 8: the same one.
        assert search.breadth_first_solution(objective) == recorded.bfs_solution, recorded.index


def test_reachable_states_come_in_order_of_distance(official):
    states, depths = search.reachable(rules.parse_board(official[5].board))
    assert states.size == 3072 and len(set(states.tolist())) == 3072  # counted by the plain BFS too
    assert depths[0] == 0 and np.all(np.diff(depths) >= 0)


def test_the_a_star_bound_never_overestimates():
    """Against true distances (a backward search from a target's states) on a board with many."""
    rng = random.Random(3)
    board = next(b for b in (random_board(rng, 3) for _ in range(2000)) if search.reachable(b)[0].size > 20_000)
    states, _ = search.reachable(board)
    placement = int(rng.choice(sorted(set((states >> search.BOAT_SHIFT).tolist()))))
    targets = tuple((colour, (placement >> (search.BOAT_BITS * i)) & 31) for i, (colour, _) in enumerate(board.boats))
    before, distance = search.distances_to(states[(states >> search.BOAT_SHIFT) == placement], board)
    for listed in (targets, targets[1:]):  # all boats, and some of them
        slots, table = search.heuristic(rules.Objective(board, listed))
        bound = np.array([search._estimate(int(s), slots, table) for s in before])
        assert np.all(bound <= distance) and bound.max() > 0
