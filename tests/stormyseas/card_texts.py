"""Card texts for the tests: card 3 as the puzzle documents it (its contract's examples), and cards
that differ from it in a few rows, each named for what the change makes."""

from __future__ import annotations

from referee.stormyseas.puzzle import PUZZLE

CARD_3 = PUZZLE.examples[0]
BOW_UP = PUZZLE.examples[1]  # card 3 with the red boat's bow up: no solution without turning


def card_3_with(rows: dict[int, str]) -> str:
    """Card 3's text with some rows (numbered from 1) replaced."""
    lines = CARD_3.split("\n")
    for number, row in rows.items():
        lines[number - 1] = row
    return "\n".join(lines)


SIDE_BY_SIDE = card_3_with({1: "AB#-#-###", 2: "AB#-###-#"})  # boats A and B in the top-left corner
# The red boat in the top rows with open water on its left: room to turn.
ROOM_TO_TURN = card_3_with({1: "-X#-#-###", 2: "-x#-###-#", 7: "--#-#-###", 8: "--#-#-###"})
HORIZONTAL = card_3_with({8: "###x###HH"})  # a horizontal boat beside the red boat's bow (no known card has one)
