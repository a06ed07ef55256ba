"""Stormy Seas rules: card text, pushing, the port, rotation, replaying the recorded solutions."""

from __future__ import annotations

import pytest

from referee.platform.errors import InputFormatError
from tests.stormyseas.card_texts import CARD_3, ROOM_TO_TURN, SIDE_BY_SIDE
from referee.stormyseas.rules import (
    Move,
    Slide,
    apply_slide,
    at_port_mouth,
    format_solution,
    is_won,
    legal_moves,
    moves_from_slides,
    parse_card,
    parse_cards,
    parse_solution,
    render,
    slides_from_moves,
    try_move,
    unit_count,
)


def replay(card, line, rotation=False):
    state = card.start
    for slide in parse_solution(line, rotation=rotation):
        state, why = apply_slide(card, state, slide, rotation=rotation)
        assert why is None, f"{slide}: {why}"
    return state


def test_known_cards_parse_and_render_back(recorded, cards):
    for name, entry in recorded["cards"].items():
        assert render(cards[name], cards[name].start) == entry["rows"]


def test_card_3_trace_replays_state_by_state(recorded, cards):
    card = cards["card_3"]
    trace = recorded["card_3_state_trace"]["states"]
    slides = parse_solution("5L2, 4L2, XU3, XR2, 6L2, 7L1, 8R2, XD3")
    state = card.start
    seen = [render(card, state)]
    for move in moves_from_slides(slides):
        state, why = try_move(card, state, move)
        assert why is None
        seen.append(render(card, state))
    assert len(seen) == len(trace) == 18
    for step, (mine, theirs) in enumerate(zip(seen, trace, strict=True)):
        assert [row.replace("x", "X") for row in mine] == theirs, f"unit move {step}"
    assert at_port_mouth(card, state) and not is_won(card, state)
    state, why = apply_slide(card, state, Slide("X", "D", 2))
    assert why is None and is_won(card, state)


@pytest.mark.parametrize("key", ["repo_solution", "example_min_steps_line", "example_min_units_line"])
def test_recorded_solutions_solve_their_cards(recorded, cards, key):
    for name, entry in recorded["cards"].items():
        if key not in entry:
            continue
        state = replay(cards[name], entry[key])
        assert is_won(cards[name], state), name
        slides = parse_solution(entry[key])
        if key == "repo_solution":
            assert (unit_count(slides), len(slides)) == (entry["repo_solution_units"], entry["repo_solution_steps"])
        if key == "example_min_steps_line":
            assert len(slides) == entry["min_steps_incl_port"]
        if key == "example_min_units_line":
            assert unit_count(slides) == entry["min_units_incl_port"]


def test_a_boat_pushes_the_waves_it_straddles():
    card = parse_card(CARD_3)
    state = replay(card, "4L2, 5L2, XU3")
    after, why = try_move(card, state, Move("X", "R"))
    assert why is None
    assert after.offsets[3] == state.offsets[3] + 1 and after.offsets[4] == state.offsets[4] + 1
    assert after.offsets[:3] == state.offsets[:3] and after.offsets[5:] == state.offsets[5:]


def test_boats_never_push_boats():
    card = parse_card(SIDE_BY_SIDE)
    assert try_move(card, card.start, Move("A", "R")) == (None, "boat A would hit boat B (boats do not push boats)")
    # wave 1's blocks push B, which cannot push A
    assert try_move(card, card.start, Move("1", "L")) == (None, "boat B would hit boat A (boats do not push boats)")
    assert try_move(card, card.start, Move("B", "R")) == (None, "wave 1 would leave the board")
    assert try_move(card, card.start, Move("A", "L")) == (None, "boat A would leave the board")


def test_up_and_down_only_the_boat_moves(cards):
    card = cards["card_26"]
    assert try_move(card, card.start, Move("X", "D")) == (None, "boat X would hit a block of wave 3")
    assert try_move(card, card.start, Move("X", "U")) == (None, "boat X would leave the board")
    assert try_move(card, card.start, Move("H", "U")) == (None, "boat H would hit boat C")
    after, why = try_move(card, card.start, Move("E", "U"))
    assert why is None and after.offsets == card.start.offsets
    assert try_move(card, card.start, Move("4", "U")) == (None, "a wave only moves left or right")
    assert try_move(card, card.start, Move("Q", "U")) == (None, "there is no boat Q")
    assert try_move(card, card.start, Move("9", "L")) == (None, "there is no wave 9")


def test_the_port_takes_the_red_boat_bow_first_and_holds_it(cards):
    card = cards["card_3"]
    mouth = replay(card, "4L2, 5L2, XU3, 4R2, 6L2, 7L1, 8R2, XD3")
    half_in, why = try_move(card, mouth, Move("X", "D"))
    assert why is None and not is_won(card, half_in)
    assert try_move(card, half_in, Move("8", "L")) == (None, "boat X is in the port and cannot move sideways")
    back, why = try_move(card, half_in, Move("X", "U"))
    assert back == mouth
    won, _ = try_move(card, half_in, Move("X", "D"))
    assert is_won(card, won)
    assert legal_moves(card, won) == []
    assert try_move(card, won, Move("X", "U")) == (None, "the red boat is already in the port")


def test_pushes_are_not_undone_by_the_opposite_push(cards):
    """The move graph is directed: some move followed by its opposite leads elsewhere."""
    card = cards["card_26"]
    opposite = {"L": "R", "R": "L", "U": "D", "D": "U"}
    frontier, seen, irreversible = [card.start], {card.start}, []
    for _ in range(3):
        nxt = []
        for state in frontier:
            for move, after in legal_moves(card, state):
                back, _ = try_move(card, after, Move(move.piece, opposite[move.action]))
                if back != state:
                    irreversible.append((state, move))
                if after not in seen:
                    seen.add(after)
                    nxt.append(after)
        frontier = nxt
    assert irreversible


def test_turning_is_off_by_default_and_needs_open_water():
    card = parse_card(ROOM_TO_TURN)
    assert try_move(card, card.start, Move("X", "CS")) == (None, "turning needs the rotation rule")
    assert all(move.action in "UDLR" for move, _ in legal_moves(card, card.start))
    with pytest.raises(InputFormatError, match="rotation"):
        parse_solution("XCS")

    turned, why = try_move(card, card.start, Move("X", "CS"), rotation=True)  # the bow swings left
    assert why is None
    assert render(card, turned)[:2] == ["xX#-#-###", "--#-###-#"]
    assert try_move(card, card.start, Move("X", "AS"), rotation=True) == (None, "the turn would hit a block of wave 1")
    assert try_move(card, card.start, Move("X", "CB"), rotation=True) == (None, "the turn would hit a block of wave 2")
    about_bow, why = try_move(card, card.start, Move("X", "AB"), rotation=True)  # the stern swings left
    assert why is None
    assert render(card, about_bow)[:2] == ["--#-#-###", "Xx#-###-#"]
    assert try_move(card, turned, Move("X", "CS"), rotation=True) == (None, "the turn would sweep outside the board")
    assert (Move("X", "CS"), turned) in legal_moves(card, card.start, rotation=True)


def test_solution_text_round_trips():
    line = "4L2, 5L2, XU3, XR2, 6L2, 7L1, 8R2, XD5"
    slides = parse_solution(line)
    assert format_solution(slides) == line
    assert unit_count(slides) == 19
    assert slides_from_moves(moves_from_slides(slides)) == slides
    assert format_solution(parse_solution("XCB,XD1", rotation=True)) == "XCB, XD1"


@pytest.mark.parametrize(
    "line, message",
    [
        ("", "empty solution"),
        ("4L2, , XU3", "slide 2 ''"),
        ("4L2, 9L1", "slide 2 '9L1': the piece"),
        ("4Q2", "direction"),
        ("4L", "distance"),
        ("4L0", "distance"),
        ("XCQ", "a turn is"),
    ],
)
def test_malformed_solutions_are_rejected_with_the_slide_named(line, message):
    with pytest.raises(InputFormatError, match=message):
        parse_solution(line, rotation=True)


def bad(text):
    with pytest.raises(InputFormatError) as info:
        parse_card(text)
    return str(info.value)


def test_malformed_cards_say_what_and_where():
    lines = CARD_3.split("\n")
    assert bad("\n".join(lines[:7])) == "a card has 8 lines, this one has 7"
    assert bad("\n".join(lines[:3] + ["--#-#-###-"] + lines[4:])) == "line 4: a line has 9 characters, this one has 10"
    assert bad(CARD_3.replace("-##X##-#-", "-##X##-#?")) == "line 7, cell 9: unknown character '?' (use - # A-Z x)"
    assert bad(CARD_3.replace("x", "#")) == "the red boat has no bow 'x'"
    assert bad(CARD_3.replace("X", "-")) == "the red boat has 1 cell; it must have 2 (stern X and bow x)"
    assert "second bow" in bad(CARD_3.replace("X", "x"))
    assert bad(CARD_3.replace("###x###--", "###x###-A")) == "boat A: 1 cell; a boat has 2 or 3"
    # an L-shaped boat, and a boat with a gap
    l_shaped = "\n".join(["AA#-#-###", "A-#-###-#"] + lines[2:])
    assert bad(l_shaped) == (
        "boat A: not straight: its cells (line 1 cell 1, line 1 cell 2, line 2 cell 1) are not one unbroken line"
    )
    gap = "\n".join(["A-#-#-###", "--#-###-#", "A-#-##-##"] + lines[3:])
    assert "boat A: not straight" in bad(gap)
    # a boat letter standing where a wave's end block should be
    assert bad(CARD_3.replace("--#-###-#", "--#-###-A", 1)) == (
        "line 2: wave 2's blocks span 5 columns, a wave spans 7 (a boat letter where a block should be?)"
    )


def test_card_files_name_the_bad_card():
    assert len(parse_cards(CARD_3 + "\n\n" + SIDE_BY_SIDE + "\n")) == 2
    with pytest.raises(InputFormatError, match="^card 2, line 1: a line has 9"):
        parse_cards(CARD_3 + "\n\n" + SIDE_BY_SIDE.replace("AB#-#-###", "AB#-#-##"))
    with pytest.raises(InputFormatError, match="no card"):
        parse_cards("\n\n")


def test_a_distance_in_digits_of_another_script_is_malformed():
    """'²' is a digit to str.isdigit, not to int: `4L²` ended in a ValueError traceback."""
    with pytest.raises(InputFormatError, match="the distance is a whole number"):
        parse_solution("4L\u00b2")
