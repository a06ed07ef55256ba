"""The course's official unit tests, ported one for one (JUnit class and method in each docstring).

The originals pick a random piece in ViablePlacementsTest.test0/test1; here every piece is taken in
turn. Where the course's getViablePiecePlacements returned null, `viable_placements` returns an
empty set.
"""

from __future__ import annotations

from referee.iqtwist.rules import (
    is_placement_string_valid,
    is_placement_string_well_formed,
    is_placement_well_formed,
    parse_state,
    viable_placements,
)
from bots.iqtwist.search import solutions


def _column(vectors, section):
    return [row[0] for row in vectors[section]]


# --- PlacementWellFormedTest ----------------------------------------------------------------


def test_placement_four_characters(good):
    assert is_placement_well_formed(good[0][0:4])
    assert not is_placement_well_formed(good[1][0:2])
    assert is_placement_well_formed(good[3][0:4])
    assert not is_placement_well_formed(good[4][0:6])


def _shifted_placements(good):
    for i in range(0, len(good[0]) - 4, 4):
        assert is_placement_well_formed(good[0][i : i + 4])
        assert not is_placement_well_formed(good[0][i + 1 : i + 5])


def test_placement_first_character(good):
    _shifted_placements(good)
    for code in range(ord("Z"), ord("z")):
        assert is_placement_well_formed(chr(code) + "1A0") == ("a" <= chr(code) <= "l")


def test_placement_second_character(good):
    _shifted_placements(good)
    for c in "0123456789":
        assert is_placement_well_formed("a" + c + "A0") == ("1" <= c <= "8")


def test_placement_third_character(good):
    _shifted_placements(good)
    for code in range(ord("0"), ord("Z") + 1):
        assert is_placement_well_formed("a4" + chr(code) + "0") == ("A" <= chr(code) <= "D")


def test_placement_fourth_character():
    for p in "abcdefghijkl":
        for code in range(ord("-"), ord("D") + 1):
            r = chr(code)
            expected = ("a" <= p <= "h" and "0" <= r <= "7") or ("i" <= p <= "l" and r == "0")
            assert is_placement_well_formed(p + "4A" + r) == expected, p + "4A" + r


# --- PlacementStringWellFormedTest ----------------------------------------------------------


def test_string_n_pieces(good):
    assert not is_placement_string_well_formed("")
    assert is_placement_string_well_formed(good[0][0:8])
    assert not is_placement_string_well_formed(good[1] + "a")
    assert is_placement_string_well_formed(good[1])


def test_string_pieces_well_formed(good, vectors):
    bad_pieces = _column(vectors, "BAD_PIECES")
    for i, placement in enumerate(good):
        for j in range(4, len(placement), 4):
            assert is_placement_string_well_formed(placement[:j])
            assert not is_placement_string_well_formed(placement[: j - 4] + bad_pieces[i % len(bad_pieces)])


def test_string_pieces_ordered(good):
    for placement in good:
        for j in range(8, len(placement), 4):
            assert is_placement_string_well_formed(placement[:j])
            assert not is_placement_string_well_formed(placement[-4:] + placement[: j - 4])


def test_string_duplicates_a(good):
    for i, placement in enumerate(good):
        pieces = [placement[j : j + 4] for j in range(0, len(placement), 4)]
        # As the original computes it: the i-th placement, once for every placement.
        bad = pieces[i] * len(pieces)
        assert is_placement_string_well_formed(placement)
        assert not is_placement_string_well_formed(bad)


def test_string_duplicates_b(good, vectors):
    bad_pegs = _column(vectors, "BAD_PEGS")
    for i, placement in enumerate(good):
        assert is_placement_string_well_formed(placement)
        assert not is_placement_string_well_formed(placement[:32] + bad_pegs[i % len(bad_pegs)])


# --- PlacementStringValidTest ---------------------------------------------------------------


def test_valid_off_board_a(good, vectors):
    off_board = _column(vectors, "OFF_BOARD")
    for i, placement in enumerate(good):
        bad_piece = i % 8
        assert is_placement_string_valid(placement[bad_piece * 4 : bad_piece * 4 + 4])
        assert not is_placement_string_valid(off_board[bad_piece])


def test_valid_off_board_b(good, vectors):
    off_board = _column(vectors, "OFF_BOARD")
    for i, placement in enumerate(good):
        bad_piece = i % 8
        bad = placement[: bad_piece * 4] + off_board[bad_piece] + placement[bad_piece * 4 + 4 :]
        assert is_placement_string_valid(placement)
        assert not is_placement_string_valid(bad), bad


def test_valid_overlap_a(good, vectors):
    overlap = _column(vectors, "OVERLAP")
    for i, placement in enumerate(good):
        a, b = i % 8, (i + 1) % 8
        if a == 7:
            a, b = 0, 7
        assert is_placement_string_valid(placement[a * 4 : a * 4 + 4] + placement[b * 4 : b * 4 + 4])
        assert not is_placement_string_valid(overlap[i % 8])


def test_valid_overlap_b(good, vectors):
    overlaps = _column(vectors, "OVERLAP")
    for i, placement in enumerate(good):
        overlap = overlaps[i % 8]
        bad = ""
        for p in range(8):
            piece = placement[p * 4]
            if piece == overlap[0]:
                bad += overlap[0:4]
            elif piece == overlap[4]:
                bad += overlap[4:8]
            else:
                bad += placement[p * 4 : p * 4 + 4]
        bad += placement[32:]
        assert is_placement_string_valid(placement)
        assert not is_placement_string_valid(bad), bad


def test_valid_bad_pegs(good, vectors):
    invalid_pegs = _column(vectors, "INVALID_PEGS")
    for i, placement in enumerate(good):
        assert is_placement_string_valid(placement)
        assert not is_placement_string_valid(invalid_pegs[i % len(invalid_pegs)])


# --- ViablePlacementsTest -------------------------------------------------------------------


def _viable(start: str) -> set[str]:
    return viable_placements(parse_state(start))


def _without_each_piece(placement: str):
    for target in range(8):
        yield placement[: target * 4] + placement[target * 4 + 4 :], placement[target * 4 : target * 4 + 4]


def test_viable_0(good, vectors):
    for i, start in enumerate(_column(vectors, "NO_VIABLE")):
        assert _viable(start) == set(), start
        for rest, piece in _without_each_piece(good[i]):
            assert _viable(rest) == {piece}


def test_viable_1(good):
    for placement in good:
        for rest, piece in _without_each_piece(placement):
            assert _viable(rest) == {piece}


def _constrained(good, vectors, three: bool):
    for placement, (row,) in zip(good, vectors["CONSTRAINED"], strict=True):
        removed = {row[0:4], row[4:8]}
        if three and len(row) == 12:
            removed.add(row[8:12])
        pieces = [placement[p * 4 : p * 4 + 4] for p in range(8)]
        start = "".join(piece for piece in pieces if piece not in removed) + placement[32:]
        assert _viable(start) == removed, start


def test_viable_2(good, vectors):
    _constrained(good, vectors, three=False)


def test_viable_3(good, vectors):
    _constrained(good, vectors, three=True)


def test_viable_4(vectors):
    ((start, expected),) = vectors["VIABLE_TEST4"]
    assert _viable(start) == set(expected.split())
    assert start == "c1A3d2A6e2C3f3C4g4A7h6D0i6B0j2B0j1C0k3C0l4B0l5C0"
    assert len(expected.split()) == 13


# --- SolutionsTest --------------------------------------------------------------------------


def _single(good, vectors, group: int):
    for placement, (start,) in zip(good, vectors["SINGLE"], strict=True):
        # Group 0 lacks pieces a and b; groups 1 and 2 also lack c, then c and d.
        for letter in "cd"[:group]:
            cut = start.index(letter)
            start = start[:cut] + start[cut + 4 :]
        assert start[0] == "cde"[group]
        assert solutions(parse_state(start)) == [placement[:32]], start


def test_solutions_single_2(good, vectors):
    _single(good, vectors, 0)


def test_solutions_single_3(good, vectors):
    _single(good, vectors, 1)


def test_solutions_single_4(good, vectors):
    _single(good, vectors, 2)


def test_solutions_multi_a(vectors):
    start, expected = vectors["MULTI"][0]
    assert solutions(parse_state(start)) == sorted(expected.split())


def test_solutions_multi_b(vectors):
    start, expected = vectors["MULTI"][1]
    assert solutions(parse_state(start)) == sorted(expected.split())
