"""Stormy Seas under the puzzle contract (referee/puzzle.py): an instance is a Card, a step a unit
Move, an answer a line of slides. The contract's rules are the standard game's (no rotation); the
judge takes `--rotation` and `--no-optima`."""

from __future__ import annotations

from referee.answers import IllegalStep
from referee.platform.errors import InputFormatError
from referee.puzzle import Puzzle
from referee.stormyseas import rules
from referee.stormyseas.judge import StormySeasJudge


class StormySeas(Puzzle):
    name = "stormyseas"
    title = "Stormy Seas: the sliding-block puzzle of waves and boats"
    item = "card"
    file_help = "cards: 8 lines of 9 characters each, separated by blank lines"
    default_ms = 60_000
    time_help = ", start-up included"
    instance_lines = rules.ROWS
    one_solver_each = True  # a solver reads one card (8 lines) and answers once
    judge = StormySeasJudge()
    examples = (
        "--#-#-###\n--#-###-#\n--#-##-##\n--#-#-###\n--#-#-###\n--#-###-#\n-##X##-#-\n###x###--",
        "--#-#-###\n--#-###-#\n--#-##-##\n--#-#-###\n--#-#-###\n--#-###-#\n-##x##-#-\n###X###--",
    )
    malformed = (
        ("--#-#-###\n--#-###-#\n--#-##-##\n--#-#-###\n--#-#-###\n--#-###-#\n-##X#?-#-\n###x###--", "line 7, cell 6"),
        ("--#-#-###\n--#-###-#\n--#-##-##\n--#-#-##\n--#-#-###\n--#-###-#\n-##X##-#-\n###x###--", "line 4"),
    )

    def parse_instance(self, text, where=None):
        try:
            return rules.parse_card(text)
        except InputFormatError as exc:
            raise exc.within(where) from None

    def format_instance(self, instance):
        return "\n".join(rules.render(instance, instance.start))

    def parse_instances(self, text, source):
        return rules.parse_cards(text)

    def parse_answer(self, instance, text):
        return rules.parse_solution(text)

    def format_answer(self, answer):
        return rules.format_solution(answer)

    def start(self, instance):
        return instance.start

    def legal_steps(self, instance, state):
        return [move for move, _ in rules.legal_moves(instance, state)]

    def apply(self, instance, state, step):
        after, why = rules.try_move(instance, state, step)
        if after is None:
            raise IllegalStep(why)
        return after

    def is_solved(self, instance, state):
        return rules.is_won(instance, state)

    def solutions(self, instance, answer):
        return [rules.moves_from_slides(answer)]


PUZZLE = StormySeas()
