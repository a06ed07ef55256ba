"""The rules beyond the course's vectors: error messages, objectives, moves and their invariants."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.platform.errors import InputFormatError
from referee.vikings import rules
from bots.vikings.generate import random_board

SEED = "O1O0O1N1N2N2N3N3N3BuGcRjYk"  # the course README's example, target BrGdRcYn


def boards(max_boats: int = 4):
    """Random valid boards (hypothesis draws the seed of the dealer)."""
    return st.tuples(st.integers(0, 2**32), st.integers(1, max_boats)).map(
        lambda args: random_board(random.Random(args[0]), args[1])
    )


def test_geometry_matches_the_data_readme():
    assert "".join(rules.EDGES[e] for e in sorted(rules.BOUNDARY_EDGES)) == "abcdgknruvwx"
    assert rules.NEIGHBOURS[4] == (1, 5, 7, 3)
    assert rules.NEIGHBOURS[0] == (None, 1, 3, None)
    # Open sides: N at right and bottom, O at left and right, turning clockwise.
    assert rules.open_sides("N", 0) == {rules.RIGHT, rules.BOTTOM}
    assert rules.open_sides("N", 3) == {rules.TOP, rules.RIGHT}
    assert rules.open_sides("O", 1) == {rules.TOP, rules.BOTTOM}


def test_the_readme_example():
    board = rules.parse_board(SEED)
    assert rules.turn_problem(board, 6) == "no boat on tile 6's edges"
    with_boat = rules.parse_board(SEED.replace("Yk", "Yr"))
    assert rules.turn_problem(with_boat, 6) == "tile 7 is closed at edge s"
    assert rules.can_rotate(board, 3)
    turned = rules.rotate(board, 3)
    assert turned.boat_at(rules.EDGES.index("h")) == "Y" and turned.boat_at(rules.EDGES.index("k")) is None
    assert rules.turn_problem(board, 4) == "no boat on tile 4's edges"


@pytest.mark.parametrize(
    "parse, text, message",
    [
        (rules.parse_board, "O1O0O1N1N2N2N3N3N3", "a board string is 9 tiles and 1-4 boats (20-26 characters), got 18"),
        (
            rules.parse_board,
            "O1O0O1N1N2N2N3N3N3Bu1",
            "character 21: boats must be colour-edge pairs, found an odd number of characters",
        ),
        (rules.parse_board, "O1O0O1N1N2N2N3N3N3Bz", "character 20: edge must be a letter a-x, not 'z'"),
        (rules.parse_board, "O1O0O1N1N2N2N3N3N3Xu", "character 19: boat colour must be one of B, G, R, Y, not 'X'"),
        (rules.parse_board, "O1O0O1N1N2N2N3N3N5Bu", "tile 8 (character 17): tile orientation must be 0-3, not '5'"),
        (rules.parse_board, "O1O0O1N1N2N2N3N3O3Bu", "a board has exactly 6 N and 3 O tiles, this one has 5 N"),
        (rules.parse_board, "O1O0O1N1N2N2N3N3N3GuBc", "boats must be distinct colours in B, G, R, Y order, got GB"),
        (rules.parse_board, "O1O0O1N1N2N2N3N3N3BuGcRjYkBa", "at most 4 boats, got 5"),
        (rules.parse_objective, SEED, "an objective is `BOARD TARGET`, got 1 word"),
        (rules.parse_objective, SEED + " BrGdRcYnBa", "a target names at most 4 boats, got 5"),
        (rules.parse_objective, SEED + " BrBd", "a target names each colour once, got BB"),
        (rules.parse_objective, "N0O1N1N0O0O1N0N3N1Rt Rz", "character 23: edge must be a letter a-x, not 'z'"),
        (
            rules.parse_objective,
            "N0O1N1N0O0O1N0N3N1Rt \t Pv",
            "character 24: boat colour must be one of B, G, R, Y, not 'P'",
        ),
        (rules.parse_objective, "N0O1N1N0O0O1N0N3N1Rt Bv", "target names boat B, which is not on the board"),
        (rules.parse_objective, "N0O1N1N0O0O1N0N3N1Rt Re", "target Re is not on the board's boundary edges"),
    ],
)
def test_malformed_boards_and_objectives_say_what_and_where(parse, text, message):
    with pytest.raises(InputFormatError) as error:
        parse(text)
    assert str(error.value) == message


def test_validity_problems_are_named():
    assert rules.validity_problem(rules.parse_board("O1O0O1N1N2N2N3N3N3BuGu")) == "two boats on edge u"
    board = rules.parse_board("O1O1N1N0N0O1N0N3N1Rt")
    assert rules.validity_problem(board) == "tiles 0 and 1 overlap (both closed at edge e)"
    with pytest.raises(InputFormatError, match="invalid board: tiles 0 and 1 overlap"):
        rules.parse_valid_board("O1O1N1N0N0O1N0N3N1Rt")


def test_targets_in_any_order_and_for_some_boats():
    objective = rules.parse_objective(SEED + " YnBrRcGd")
    assert rules.is_solved(rules.parse_board("O1O0O1N1N2N2N3N3N3BrGdRcYn"), objective.targets)
    partial = rules.parse_objective(SEED + " Bu")
    assert rules.is_solved(objective.board, partial.targets)
    assert str(objective) == SEED + " YnBrRcGd"


def test_moves_and_replay_errors():
    assert rules.parse_moves("8547776") == [8, 5, 4, 7, 7, 7, 6]
    assert rules.parse_moves("") == []
    with pytest.raises(InputFormatError, match="move 3: a move is a tile digit 0-8, not '9'"):
        rules.parse_moves("129")
    objective = rules.parse_objective("N0O1N1N0O0O1N0N3N1Rt Rv")
    board, error = rules.replay(objective, rules.parse_moves("8547776"))
    assert error is None and rules.is_solved(board, objective.targets)
    board, error = rules.replay(objective, rules.parse_moves("85477"))
    assert error is None and not rules.is_solved(board, objective.targets)
    _, error = rules.replay(objective, rules.parse_moves("850"))
    assert error == "move 3 (tile 0): no boat on tile 0's edges"


@given(boards())
@settings(max_examples=200, deadline=None)
def test_legal_moves_keep_the_board_valid_and_four_turns_undo_one(board):
    for tile in rules.rotatable_tiles(board):
        turned = rules.rotate(board, tile)
        assert rules.validity_problem(turned) is None
        assert rules.can_rotate(turned, tile)  # a turn can always be followed by another
        assert rules.rotate(rules.rotate(rules.rotate(turned, tile), tile), tile) == board
        # Only the tile's own edges change hands, and the boats keep their colours.
        assert [c for c, _ in turned.boats] == [c for c, _ in board.boats]
        assert all(
            b == a or b in rules.TILE_EDGES[tile] for (_, a), (_, b) in zip(board.boats, turned.boats, strict=True)
        )


@given(boards())
@settings(max_examples=100, deadline=None)
def test_board_strings_round_trip(board):
    text = rules.format_board(board)
    assert rules.parse_valid_board(text) == board
    assert rules.is_well_formed(text) and rules.is_valid(text)
