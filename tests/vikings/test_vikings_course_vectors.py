"""The course's unit tests (ANU COMP1110 2020 S1 assignment 1), vector for vector.

Each Java test becomes one test here over the same data (tests/data/vikings/test-vectors.txt and the
60 objectives). FindSolutionTest compared strings, some of them wrong (see the data README): its
vectors are checked by property instead (legal, reaches the target, minimal length).
"""
from __future__ import annotations

import itertools

import pytest

from referee.vikings import rules
from referee.vikings.search import shortest_solution
from vikings_helpers import objectives, vector_sections

OBJECTIVES = objectives()
SECTIONS = vector_sections()
BOARDS = [o.board for o in OBJECTIVES]


def board_of(field: str) -> str:
    """A vector names a board directly or as an objective index."""
    return BOARDS[int(field)] if field.isdigit() else field


def pair(field: str) -> tuple[int, int]:
    first, second = field.split(",")
    return int(first), int(second)


def tiles(field: str) -> list[int]:
    return [] if field == "-" else [int(t) for t in field.split()]


# LocationFromEdgeTest, LocationIsEqualTest
@pytest.mark.parametrize("field", [f for row in SECTIONS["EDGE_LOCATIONS"] for f in row])
def test_edge_location(field):
    edge, point = field.split()
    assert rules.edge_location(edge) == pair(point)


def test_edge_locations_are_distinct_points():
    points = [rules.edge_location(e) for e in rules.EDGES]
    assert len(set(points)) == 24
    assert all(0 <= x <= 6 and 0 <= y <= 6 and (x + y) % 2 == 1 for x, y in points)
    for x, y in points:  # the data's index formula
        assert rules.EDGES[int(3.5 * y + (x - 1) / 2)] == next(e for e in rules.EDGES if rules.edge_location(e) == (x, y))


# IsBoardStringWellFormedTest
@pytest.mark.parametrize("board", BOARDS)
def test_objective_boards_are_well_formed(board):
    assert rules.is_well_formed(board)


@pytest.mark.parametrize("board", [row[0] for row in SECTIONS["WELL_FORMED_FALSE"]])
def test_not_well_formed(board):
    assert not rules.is_well_formed(board)
    with pytest.raises(rules.InputFormatError):
        rules.parse_board(board)


# DoTilesOverlapTest
@pytest.mark.parametrize("board,tiles_field", SECTIONS["OVERLAP_TRUE"])
def test_overlap(board, tiles_field):
    first, second = pair(tiles_field)
    parsed = rules.parse_tiles(board)  # some of these boards list their boats out of order
    assert rules.tiles_overlap(parsed, first, second)
    assert rules.tiles_overlap(parsed, second, first)


@pytest.mark.parametrize("board", BOARDS)
def test_no_overlap_on_objective_boards(board):
    parsed = rules.parse_board(board)
    for first, second in itertools.permutations(range(9), 2):
        assert not rules.tiles_overlap(parsed, first, second)


# IsBoardStringValidTest
def invalid_boards() -> list[str]:
    overlapping = [row[0] for row in SECTIONS["OVERLAP_TRUE"]][1:]
    return [row[0] for row in SECTIONS["VALID_FALSE"]] + overlapping + [BOARDS[0].replace("O", "Q")]


@pytest.mark.parametrize("board", invalid_boards())
def test_not_valid(board):
    assert not rules.is_valid(board)


@pytest.mark.parametrize("board", BOARDS)
def test_objective_boards_are_valid(board):
    assert rules.is_valid(board)


# DoTilesInterlockTest
@pytest.mark.parametrize("index,tiles_field", SECTIONS["INTERLOCK_TRUE"])
def test_interlock(index, tiles_field):
    assert rules.tiles_interlock(rules.parse_board(board_of(index)), *pair(tiles_field))


@pytest.mark.parametrize("index,tiles_field", SECTIONS["INTERLOCK_FALSE"])
def test_no_interlock(index, tiles_field):
    assert not rules.tiles_interlock(rules.parse_board(board_of(index)), *pair(tiles_field))


# CanRotateTileTest
@pytest.mark.parametrize("index,turning,blocked", SECTIONS["CAN_ROTATE"])
def test_can_rotate(index, turning, blocked):
    board = rules.parse_board(board_of(index))
    for tile in tiles(turning):
        assert rules.can_rotate(board, tile)
    for tile in tiles(blocked):
        assert not rules.can_rotate(board, tile)


# RotateTileTest
@pytest.mark.parametrize("start,tile,result", SECTIONS["ROTATE"])
def test_rotate(start, tile, result):
    board = rules.parse_board(board_of(start))
    assert rules.can_rotate(board, int(tile))
    assert rules.format_board(rules.rotate(board, int(tile))) == result


# FindSolutionTest, by property: the answer is legal, reaches the target, and is as short as the
# course's expected string when that string is itself a correct minimal solution.
def find_solution_cases():
    cases = [(objective_line.split()[1] + " " + objective_line.split()[0], expected)
             for objective_line, expected in SECTIONS["FIND_SOLUTION"]]
    cases += [(f"{o.board} {o.target}", o.official_solution) for o in OBJECTIVES[:15]]
    return cases


@pytest.mark.parametrize("line,expected", find_solution_cases())
def test_find_solution(line, expected):
    objective = rules.parse_objective(line)
    answer = shortest_solution(objective)
    board, error = rules.replay(objective, rules.parse_moves(answer))
    assert error is None
    assert rules.is_solved(board, objective.targets)
    expected_board, expected_error = rules.replay(objective, rules.parse_moves(expected))
    if expected_error is None and rules.is_solved(expected_board, objective.targets):
        assert len(answer) <= len(expected)
