"""IQ-Twist under the puzzle contract (referee/puzzle.py): an instance is a challenge (its text as
written, and its state), a step the placement of a piece, an answer every canonical solution."""

from __future__ import annotations

from typing import NamedTuple

from referee.answers import IllegalStep
from referee.iqtwist import rules
from referee.iqtwist.judge import IQTwistJudge
from referee.puzzle import Puzzle


class Challenge(NamedTuple):
    text: str  # as written (pegs of one colour may come in either order)
    state: rules.State


class IQTwist(Puzzle):
    name = "iqtwist"
    title = "IQ-Twist: place pieces with holes over coloured pegs"
    item = "challenge"
    file_help = "challenges, one placement string a line"
    default_ms = 10_000
    no_solution_answer = ""  # no solution line before the empty line that closes every answer
    judge = IQTwistJudge()
    examples = ("f3C4i6B0j2B0j1C0k3C0l4B0l5C0", "c1A3d2A6e2C3f3C2g4A7h6D0j2B0j1C0k3C0l4B0l5C0", "a7A7b6A7i6B0j2B0")
    malformed = (("a7A7b9A7", "placement 2"), ("a7A7b6A7i6B0j2B0a1A0", "placement 5"), ("a7A7b6A5i6B0", "placement 2"))

    def parse_instance(self, text, where=None):
        return Challenge(text, rules.parse_state(text, where))

    def format_instance(self, instance):
        return instance.text

    def parse_answer(self, instance, text):
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        for number, line in enumerate(lines, start=1):
            rules.parse_placement_string(line, f"solution {number}")
        return lines

    def format_answer(self, answer):
        return "".join(solution + "\n" for solution in answer)  # the runner's newline closes it

    def start(self, instance):
        return instance.state

    def legal_steps(self, instance, state):
        return sorted(rules.parse_placement(text) for text in rules.viable_placements(state))

    def apply(self, instance, state, step):
        try:
            return rules.apply(state, step)
        except ValueError as exc:
            raise IllegalStep(str(exc)) from None

    def is_solved(self, instance, state):
        return rules.is_solved(state)

    def solutions(self, instance, answer):
        given = {piece.letter for piece in instance.state.pieces}
        return [[p for p in rules.parse_placement_string(line) if p.letter not in given] for line in answer]


PUZZLE = IQTwist()
