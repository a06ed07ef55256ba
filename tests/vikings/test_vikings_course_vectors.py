"""The course's unit tests (ANU COMP1110 2020 S1 assignment 1), ported one for one: a test here per
JUnit class, over the same vectors (tests/data/vikings/test-vectors.txt and the 60 objectives).

FindSolutionTest compared strings, some of them wrong (see the data README): its vectors are checked
by property instead (legal, reaches the target, minimal length).
"""

from __future__ import annotations

import itertools

from referee.vikings import rules
from bots.vikings.search import shortest_solution


def pair(field: str) -> tuple[int, int]:
    first, second = field.split(",")
    return int(first), int(second)


def tiles(field: str) -> list[int]:
    return [] if field == "-" else [int(t) for t in field.split()]


def board_of(field: str, official) -> str:
    """A vector names a board directly or as an objective index."""
    return official[int(field)].board if field.isdigit() else field


def test_location_from_edge(vectors):
    """LocationFromEdgeTest: every edge's point on the 7x7 grid."""
    fields = [field for row in vectors["EDGE_LOCATIONS"] for field in row]
    assert len(fields) == 24
    for field in fields:
        edge, point = field.split()
        assert rules.edge_location(edge) == pair(point), field


def test_location_is_equal():
    """LocationIsEqualTest: points are equal when x and y are; edges have distinct points, and the
    data's index formula gives the edge back."""
    points = {rules.edge_location(e): e for e in rules.EDGES}
    assert len(points) == 24
    for (x, y), edge in points.items():
        assert 0 <= x <= 6 and 0 <= y <= 6 and (x + y) % 2 == 1
        assert rules.EDGES[int(3.5 * y + (x - 1) / 2)] == edge
    grid = list(itertools.product(range(7), repeat=2))
    assert sum(a == b for a in grid for b in grid) == 49


def test_board_string_well_formed(vectors, official):
    """IsBoardStringWellFormedTest."""
    for objective in official:
        assert rules.is_well_formed(objective.board), objective.board
    for (board,) in vectors["WELL_FORMED_FALSE"]:
        assert not rules.is_well_formed(board), board


def test_tiles_overlap(vectors, official):
    """DoTilesOverlapTest: the listed pairs overlap (either way round); no pair of tiles, adjacent or
    not, overlaps on an objective's board."""
    for board, tile_pair in vectors["OVERLAP_TRUE"]:
        parsed = rules.parse_tiles(board)  # some of these boards list their boats out of order
        first, second = pair(tile_pair)
        assert rules.tiles_overlap(parsed, first, second), (board, tile_pair)
        assert rules.tiles_overlap(parsed, second, first), (board, tile_pair)
    for objective in official:
        parsed = rules.parse_board(objective.board)
        for first, second in itertools.permutations(range(9), 2):
            assert not rules.tiles_overlap(parsed, first, second), (objective.board, first, second)


def test_board_string_valid(vectors, official):
    """IsBoardStringValidTest: the VALID_FALSE boards, every OVERLAP_TRUE board but the first, and
    objective 0's board with its O tiles renamed Q are invalid; the 60 objectives' boards are valid."""
    overlapping = [row[0] for row in vectors["OVERLAP_TRUE"]][1:]
    invalid = [row[0] for row in vectors["VALID_FALSE"]] + overlapping + [official[0].board.replace("O", "Q")]
    assert len(invalid) == 10 + 12 + 1
    for board in invalid:
        assert not rules.is_valid(board), board
    for objective in official:
        assert rules.is_valid(objective.board), objective.board


def test_tiles_interlock(vectors, official):
    """DoTilesInterlockTest."""
    for index, tile_pair in vectors["INTERLOCK_TRUE"]:
        assert rules.tiles_interlock(rules.parse_board(board_of(index, official)), *pair(tile_pair)), index
    for index, tile_pair in vectors["INTERLOCK_FALSE"]:
        assert not rules.tiles_interlock(rules.parse_board(board_of(index, official)), *pair(tile_pair)), index


def test_can_rotate_tile(vectors, official):
    """CanRotateTileTest."""
    for index, turning, blocked in vectors["CAN_ROTATE"]:
        board = rules.parse_board(board_of(index, official))
        for tile in tiles(turning):
            assert rules.can_rotate(board, tile), (index, tile)
        for tile in tiles(blocked):
            assert not rules.can_rotate(board, tile), (index, tile)


def test_rotate_tile(vectors, official):
    """RotateTileTest: objective 0 solved move by move, and one move from each expert objective."""
    assert len(vectors["ROTATE"]) == 8 + 15
    for start, tile, result in vectors["ROTATE"]:
        board = rules.parse_board(board_of(start, official))
        assert rules.can_rotate(board, int(tile)), (start, tile)
        assert rules.format_board(rules.rotate(board, int(tile))) == result


def test_find_solution(vectors, official):
    """FindSolutionTest, by property: the answer is legal, meets the objective, and is as short as
    the recorded minimum (and as the course's string where that string is itself a solution)."""
    cases = [
        (f"{board} {target}", expected, len(expected))
        for (target, board), expected in ((row[0].split(), row[1]) for row in vectors["FIND_SOLUTION"])
    ]
    cases += [(o.line, o.official_solution, o.min_moves) for o in official[:15]]
    for line, expected, fewest in cases:
        objective = rules.parse_objective(line)
        answer = shortest_solution(objective)
        board, error = rules.replay(objective, rules.parse_moves(answer))
        assert error is None and rules.is_solved(board, objective.targets), line
        assert len(answer) == fewest, line
        board, error = rules.replay(objective, rules.parse_moves(expected))
        if error is None and rules.is_solved(board, objective.targets):
            assert len(answer) <= len(expected), line
