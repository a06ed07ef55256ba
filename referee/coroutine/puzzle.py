"""Coroutine under the puzzle contract (referee/puzzle.py): an instance is a Board, a step a Turn."""

from __future__ import annotations

from referee.answers import IllegalStep
from referee.coroutine import rules
from referee.coroutine.judge import CoroutineJudge
from referee.platform.errors import InputFormatError
from referee.puzzle import Puzzle


class Coroutine(Puzzle):
    name = "coroutine"
    title = "the Coroutine puzzle"
    item = "puzzle"
    file_help = "puzzles of 3 lines, separated by blank lines"
    default_ms = 1000
    time_help = ", start-up included"  # (a fresh process for every puzzle)
    instance_lines = 3
    one_solver_each = True  # a solver reads 3 lines and answers once
    judge = CoroutineJudge()
    examples = ("045 1245 0145\n1457 - 136\n067 157 027", "- - -\n- - -\n- - -")
    malformed = (
        ("045 1245 0145\n1457 - 136\n067 157 028", "line 3, cell 3"),
        ("045 1245\n1457 - 136\n067 157 027", "line 1"),
        ("045 1245 0145\n1457 5 136\n067 157 027", "line 2, cell 2"),
    )

    def parse_instance(self, text, where=None):
        try:
            return rules.parse_puzzle(text)
        except InputFormatError as exc:
            raise exc.within(where) from None

    def format_instance(self, instance):
        return rules.format_puzzle(instance)

    def parse_instances(self, text, source):
        return rules.parse_puzzles(text)

    def parse_answer(self, instance, text):
        return rules.parse_answer(text)

    def format_answer(self, answer):
        return rules.format_answer(answer)

    def start(self, instance):
        return rules.START

    def legal_steps(self, instance, state):
        return [turn for turn, _ in rules.successors(instance, state)]

    def apply(self, instance, state, step):
        try:
            return rules.play(instance, state, step)
        except rules.IllegalTurn as exc:
            raise IllegalStep(str(exc)) from None

    def is_solved(self, instance, state):
        return rules.is_solved(state)


PUZZLE = Coroutine()
