"""The exact-cover search: the recorded challenges, the empty board, and the numba kernel against
the plain Python search on random positions (hypothesis)."""

from __future__ import annotations

from functools import lru_cache

from hypothesis import given, settings
from hypothesis import strategies as st

from bots.iqtwist import search
from referee.iqtwist.pieces import PEG_LIMITS, PEGS, colour, footprint
from referee.iqtwist.rules import (
    Placement,
    State,
    is_solved,
    parse_placement,
    parse_state,
    validity_problem,
    viable_placements,
)
from bots.iqtwist.search import candidates, count_solutions, reference_solutions, solutions


@lru_cache(maxsize=1)
def empty_board_solutions() -> list[str]:
    return solutions(State())


def test_each_recorded_challenge_has_exactly_its_recorded_solution(challenges):
    assert len(challenges) == 108
    for row in challenges:
        assert solutions(parse_state(row["challenge"])) == [row["solution"]], row["id"]


def test_the_empty_board_has_5992_distinct_solutions():
    found = empty_board_solutions()
    assert len(found) == len(set(found)) == count_solutions(State()) == 5992
    assert found == sorted(found)
    for text in found[::97]:
        assert is_solved(parse_state(text))


def test_limit_stops_the_count():
    assert count_solutions(State(), limit=10) == 10
    assert len(solutions(State(), limit=3)) == 3


def test_more_solutions_than_the_first_buffer_are_all_kept(monkeypatch):
    monkeypatch.setattr(search, "INITIAL_CAPACITY", 100)
    assert solutions(State()) == empty_board_solutions()


def test_a_full_board_is_its_own_solution(good):
    state = parse_state(good[0])
    assert solutions(state) == [good[0][:32]]
    assert count_solutions(state) == 1


def _covers(placement: Placement, cells: int) -> bool:
    shape = footprint(*placement)
    return shape is not None and shape.cells == cells


@st.composite
def positions(draw, max_free_pieces: int = 5) -> State:
    """Part of a random solution of the empty board, each piece at any orientation covering its
    cells, with pegs on free cells or under holes of their colour (so the position is valid)."""
    text = draw(st.sampled_from(empty_board_solutions()))
    pieces = []
    for i in range(0, 32, 4):
        placement = parse_placement(text[i : i + 4])
        cells = footprint(*placement).cells
        turns = [o for o in range(8) if _covers(placement._replace(orientation=o), cells)]
        pieces.append(placement._replace(orientation=draw(st.sampled_from(turns))))
    free = draw(st.integers(1, max_free_pieces))
    kept = sorted(draw(st.permutations(pieces))[free:])
    spots = []  # (cell, peg letter) where a peg may go
    taken = 0
    for piece in kept:
        shape = footprint(*piece)
        taken |= shape.cells
        spots += [(cell, PEGS[colour(piece.letter)]) for cell in range(32) if shape.holes >> cell & 1]
    spots += [(cell, letter) for cell in range(32) if not taken >> cell & 1 for letter in PEGS]
    chosen = draw(st.lists(st.sampled_from(spots), max_size=7, unique_by=lambda spot: spot[0]))
    pegs, count = [], [0, 0, 0, 0]
    for cell, letter in chosen:
        if count[colour(letter)] < PEG_LIMITS[colour(letter)]:
            count[colour(letter)] += 1
            pegs.append(Placement(letter, cell % 8, cell // 8, 0))
    state = State(tuple(kept), tuple(sorted(pegs)))
    assert validity_problem(state.pieces + state.pegs) is None
    return state


@settings(max_examples=60, deadline=None)
@given(positions(max_free_pieces=8))
def test_candidate_table_equals_the_rules_viable_placements(state):
    assert {str(p) for p in candidates(state).placements} == viable_placements(state)


@settings(max_examples=40, deadline=None)
@given(positions())
def test_kernel_finds_what_the_plain_search_finds(state):
    expected = reference_solutions(state)
    assert solutions(state) == expected
    assert count_solutions(state) == len(expected)
