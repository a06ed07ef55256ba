"""Vikings - Brainstorm under the puzzle contract (referee/puzzle.py): an instance is an Objective, a
state a Board, a step the tile to turn a quarter clockwise."""

from __future__ import annotations

from referee.answers import IllegalStep
from referee.platform.errors import InputFormatError
from referee.puzzle import Puzzle
from referee.vikings import rules
from referee.vikings.judge import VikingsJudge


class Vikings(Puzzle):
    name = "vikings"
    title = "Vikings - Brainstorm: turn sea tiles to carry boats to targets"
    item = "objective"
    file_help = "objectives, `BOARD TARGET` a line"
    default_ms = 10_000
    judge = VikingsJudge()
    examples = ("N0O1N1N0O0O1N0N3N1Rt Rv", "N0O1N1N0O0O1N0N3N1Bd Ba", "O1O0O1N1N2N2N3N3N3BuGcRjYk BrGdRcYn")
    malformed = (
        ("N0O1N1N0X0O1N0N3N1Rt Rv", "tile 4"),
        ("N0O1N1N0O0O1N0N3N1Rt Rz", "character 23"),  # counted from the line's start, as the board's
        ("N0O1N1N0O0O1N0N3N1R# Rv", "character 20"),
    )

    def parse_instance(self, text, where=None):
        try:
            return rules.parse_objective(text)
        except InputFormatError as exc:
            raise InputFormatError(str(exc), where) if where else exc from None

    def format_instance(self, instance):
        return str(instance)

    def parse_answer(self, instance, text):
        return rules.parse_moves(text.strip())

    def format_answer(self, answer):
        return "".join(map(str, answer))

    def start(self, instance):
        return instance.board

    def legal_steps(self, instance, state):
        return rules.rotatable_tiles(state)

    def apply(self, instance, state, step):
        problem = rules.turn_problem(state, step)
        if problem:
            raise IllegalStep(problem)
        return rules.rotate(state, step)

    def is_solved(self, instance, state):
        return rules.is_solved(state, instance.targets)


PUZZLE = Vikings()
