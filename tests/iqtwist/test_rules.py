"""IQ-Twist rules: the orientation rule, reasons for invalid placements, apply, canonical form."""

from __future__ import annotations

import pytest

from referee.platform.errors import InputFormatError
from referee.iqtwist.pieces import FOOTPRINTS, PIECES, SHAPES, footprint, oriented_shape
from referee.iqtwist.rules import (
    Placement,
    State,
    apply,
    canonical,
    is_solved,
    parse_placement,
    parse_state,
    placement_string_error,
    solution_string,
)

WORKED = "a7A7b6A7c1A3d2A6e2C3f3C4g4A7h6D0i6B0j2B0j1C0k3C0l4B0l5C0"


def test_orientation_mirrors_top_to_bottom_then_turns_clockwise():
    assert oriented_shape("a", 0) == ("OXO", "..X")
    assert oriented_shape("a", 1) == (".O", ".X", "XO")
    assert oriented_shape("a", 2) == ("X..", "OXO")
    assert oriented_shape("a", 4) == ("..X", "OXO")
    assert oriented_shape("a", 5) == ("O.", "X.", "OX")
    assert oriented_shape("g", 3) == (".X.", ".XO", "OO.")


def test_footprint_table_lists_every_on_board_footprint():
    piece, orientation, column, row, cells, holes = FOOTPRINTS
    for i in range(0, len(piece), 37):
        shape = footprint(PIECES[piece[i]], column[i], row[i], orientation[i])
        assert (shape.cells, shape.holes) == (cells[i], holes[i])
    sizes = {letter: sum(line.count("X") + line.count("O") for line in SHAPES[letter]) for letter in PIECES}
    assert sum(sizes.values()) == 32
    for index, letter in enumerate(PIECES):
        assert all(bin(c).count("1") == sizes[letter] for c in cells[piece == index])


def test_worked_check_covers_the_board_and_its_canonical_form_turns_f():
    state = parse_state(WORKED)
    assert is_solved(state)
    assert solution_string(state) == "a7A7b6A7c1A3d2A6e2C3f3C2g4A7h6D0"


def test_the_course_solutions_are_solved_and_canonical(good):
    for placement in good:
        state = parse_state(placement)
        assert is_solved(state)
        assert solution_string(state) == placement[:32]


@pytest.mark.parametrize(
    "text, reason",
    [
        ("", "empty placement string"),
        ("a7A7b", "length 5 is not a multiple of 4"),
        ("a7A7b9A1", "placement 2 'b9A1': column '9' is not 1-8"),
        ("a7A7bxA1", "placement 2 'bxA1': column 'x' is not 1-8"),
        ("a7E7", "placement 1 'a7E7': row 'E' is not A-D"),
        ("a7A8", "placement 1 'a7A8': orientation '8' is not 0-7"),
        ("i7A1", "placement 1 'i7A1': a peg's orientation must be 0, not '1'"),
        ("m7A1", "placement 1 'm7A1': 'm' is not a piece (a-h) or a peg (i-l)"),
        ("b6A7a7A7", "placement 2 'a7A7': 'a' comes after 'b'; letters must be in order a-l"),
        ("a7A7a6A0", "placement 2 'a6A0': piece 'a' appears twice"),
        ("i1A0i2A0", "placement 2 'i2A0': more than 1 red peg"),
        ("k1A0k2A0k3A0", "placement 3 'k3A0': more than 2 green pegs"),
        ("a1A0" + "i1A0" * 15, "16 placements, at most 15"),
    ],
)
def test_malformed_strings_say_what_and_where(text, reason):
    assert placement_string_error(text) == reason
    with pytest.raises(InputFormatError, match="line 3") as caught:
        parse_state(text, "line 3")
    assert caught.value.what == reason


@pytest.mark.parametrize(
    "text, reason",
    [
        ("a7D7", "placement 1 a7D7: its loop at 8E is off the board"),
        ("h7A2", "placement 1 h7A2: its loop at 9A is off the board"),
        ("a7A7b7A7", "placement 2 b7A7: cell 7A is already covered by a7A7"),
        ("b6A0i7A0", "placement 1 b6A0: its filled loop at 7A would cover the peg i7A0"),
        ("a7A7j8A0", "placement 1 a7A7: its red hole at 8A would cover the blue peg j8A0"),
        ("i3B0j3B0", "placement 2 j3B0: peg i3B0 is already at 3B"),
        ("j3B0j3B0", "placement 2 j3B0: peg j3B0 is already at 3B"),
    ],
)
def test_invalid_strings_name_the_placement_the_cell_and_the_peg(text, reason):
    assert placement_string_error(text) == reason


def test_apply_adds_a_piece_or_says_why_not():
    state = parse_state("i6B0")
    state = apply(state, parse_placement("a7A7"))
    assert str(state) == "a7A7i6B0"
    with pytest.raises(ValueError, match="b6A5: its filled loop at 6B would cover the peg i6B0"):
        apply(state, parse_placement("b6A5"))
    with pytest.raises(ValueError, match="piece 'a' is already placed as a7A7"):
        apply(state, parse_placement("a1A0"))
    with pytest.raises(ValueError, match="is a peg"):
        apply(state, parse_placement("j1A0"))
    state = apply(state, parse_placement("b6A7"))
    assert str(state) == "a7A7b6A7i6B0"
    assert not is_solved(state)
    with pytest.raises(ValueError, match="not solved"):
        solution_string(state)


def test_canonical_is_the_lowest_orientation_valid_with_the_pegs():
    b = parse_placement("b6A7")
    assert canonical(b, ()) == Placement("b", 5, 0, 5)  # b6A5 covers the same cells
    assert canonical(b, parse_state("i6B0").pegs) == b  # ... but its filled loop would sit on the peg
    assert canonical(parse_placement("f3C4"), ()) == parse_placement("f3C2")
    assert canonical(parse_placement("h1A0"), ()) == parse_placement("h1A0")
    assert canonical(parse_placement("h3A2"), ()) == parse_placement("h1A0")._replace(column=2)


def test_state_prints_as_its_placement_string():
    assert str(parse_state("a7A7b6A7i6B0j1C0j2B0")) == "a7A7b6A7i6B0j1C0j2B0"
    assert str(parse_state("a7A7b6A7i6B0j2B0j1C0")) == "a7A7b6A7i6B0j1C0j2B0"  # pegs of a colour sorted
    assert str(State()) == ""
