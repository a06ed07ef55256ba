import re

import pytest

from referee.coroutine.rules import (
    START,
    IllegalTurn,
    State,
    Turn,
    format_answer,
    format_puzzle,
    is_solved,
    legal_steps,
    parse_answer,
    parse_puzzle,
    parse_puzzles,
    play,
)
from referee.platform.errors import InputFormatError

PUBLISHED = "045 1245 0145\n1457 - 136\n067 157 027\n"
PUBLISHED_ANSWER = "A2 B- A2 B0 A6 B5 A5 B1 A3 B7 A1 B6 A5 B- A0"


def test_puzzle_text_round_trips():
    board = parse_puzzle(PUBLISHED)
    assert board[0] == 0b110001  # 0, 4, 5
    assert board[4] == 0
    assert format_puzzle(board) + "\n" == PUBLISHED


def test_cells_may_be_written_in_any_order_and_empty():
    assert parse_puzzle("540 - -\n- - -\n- - 7")[0] == parse_puzzle("045 - -\n- - -\n- - 7")[0]
    assert parse_puzzle("- - -\n- - -\n- - -") == (0,) * 9


@pytest.mark.parametrize(
    "text, where, what",
    [
        ("045 1245\n1457 - 136\n067 157 027", "line 1", "expected 3 cells, got 2"),
        ("045 1245 0145\n1457 - 136", "line 1", "got 2 lines"),
        ("045 1245 0145\n1457 - 136\n067 157 028", "line 3, cell 3", "'028'"),
        ("045 1245 0145\n1457 - 136\n067 157 x", "line 3, cell 3", "digits 0-7 or '-'"),
        ("045 1245 0145\n1457 3 136\n067 157 027", "line 2, cell 2", "centre"),
        ("0455 1245 0145\n1457 - 136\n067 157 027", "line 1, cell 1", "direction 5 appears twice"),
    ],
)
def test_malformed_puzzles_say_what_and_where(text, where, what):
    with pytest.raises(InputFormatError) as caught:
        parse_puzzle(text)
    assert caught.value.where == where
    assert what in caught.value.what


def test_a_huge_bad_cell_is_not_echoed_whole():
    """A cell of 5,000,000 characters made a 5 MB "one line" error."""
    with pytest.raises(InputFormatError) as caught:
        parse_puzzle("0" * 5_000_000 + " 1 2\n1 - 2\n1 2 3")
    assert len(str(caught.value)) < 200 and "(5,000,000 characters)" in caught.value.what


def test_a_file_of_puzzles_numbers_lines_from_its_top():
    boards = parse_puzzles(PUBLISHED + "\n\n" + PUBLISHED)
    assert len(boards) == 2
    with pytest.raises(InputFormatError) as caught:
        parse_puzzles(PUBLISHED + "\n- - -\n- - -\n- 9 -\n")
    assert caught.value.where == "line 7, cell 2"
    with pytest.raises(InputFormatError):
        parse_puzzles("\n\n")


def test_answers_in_digits_and_compass_names_agree():
    assert parse_answer("A2 B- A:NE B:sw A:-") == [
        Turn("A", 2),
        Turn("B", None),
        Turn("A", 1),
        Turn("B", 5),
        Turn("A", None),
    ]
    assert format_answer(parse_answer(PUBLISHED_ANSWER)) == PUBLISHED_ANSWER


@pytest.mark.parametrize(
    "text, where", [("A2 C3", "turn 2"), ("A8", "turn 1"), ("A2 B", "turn 2"), ("A2 BNN", "turn 2")]
)
def test_malformed_answers_name_the_turn(text, where):
    with pytest.raises(InputFormatError) as caught:
        parse_answer(text)
    assert caught.value.where == where


def test_empty_answer_is_malformed():
    with pytest.raises(InputFormatError, match="empty"):
        parse_answer("  ")


def test_published_answer_replays_to_a_on_the_centre():
    board = parse_puzzle(PUBLISHED)
    state = START
    for turn in parse_answer(PUBLISHED_ANSWER):
        state = play(board, state, turn)
    assert is_solved(state) and state.a == 4


def test_steps_use_the_arrows_under_the_other_token():
    board = parse_puzzle(PUBLISHED)
    # A on top-left, B on bottom-right (027: N, E, NW): from the corner only E stays on the board.
    assert legal_steps(board, START) == (2,)
    # B on bottom-right, A on top (1245): NE, E, S lead off the board, SW too: B must pass.
    assert legal_steps(board, State(1, 8, "B")) == ()


@pytest.mark.parametrize(
    "state, turn, message",
    [
        (START, Turn("B", 2), "it is A's turn"),
        (START, Turn("A", 4), "bottom-right (B's square) shows N, E, NW"),
        (START, Turn("A", 0), "leaves the board"),
        (State(1, 2, "A"), Turn("A", 2), "B stands there"),  # top-right shows E
        (State(1, 8, "A"), Turn("A", None), "A may not pass: it can step E"),
        (State(4, 8, "B"), Turn("B", None), "already solved"),
    ],
)
def test_illegal_turns_say_why(state, turn, message):
    board = parse_puzzle("- - 2\n- - -\n- - 027")
    with pytest.raises(IllegalTurn, match=re.escape(message)):
        play(board, state, turn)


def test_a_stuck_token_passes_and_the_other_moves_next():
    board = parse_puzzle("- - -\n- - -\n- - -")
    assert play(board, START, Turn("A", None)) == State(0, 8, "B")
