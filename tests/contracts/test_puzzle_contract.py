"""The puzzle contract (referee/puzzle.py), one test for every puzzle: each puzzle's documented
examples round-trip, its solver's answers replay under its rules and pass its judge (`Puzzle.judge`),
mutated answers fail it, malformed text is refused with the position, and its solver command reads,
answers, says NONE and refuses bad input the same way. A new puzzle is tested as soon as its folder
is there (referee/NAME/puzzle.py: referee.puzzle.NAMES finds it)."""

from __future__ import annotations

import contextlib
import functools
import importlib
import io
import re
import sys

import pytest

from bots import puzzle_solver
from referee import puzzle as contract
from referee.answers import NONE, IllegalStep, OracleError
from referee.platform.errors import InputFormatError
from referee.platform.bot_errors import BotExited

NAMES = contract.NAMES
EXAMPLES = [(name, text) for name in NAMES for text in contract.load(name).examples]
MALFORMED = [(name, text, where) for name in NAMES for text, where in contract.load(name).malformed]


def oracle_answers(name: str, puzzle, instance) -> list[str]:
    """The default oracle's answers to one instance, one a run (`Judge.oracle_runs`): the project's
    solver command with the run's arguments, in this process, as the judge reads them."""
    main = importlib.import_module(f"bots.{name}.solver").main
    answers = []
    for arguments in puzzle.judge.oracle_runs():
        stdin, stdout = sys.stdin, io.StringIO()
        sys.stdin = io.StringIO(puzzle.format_instance(instance) + "\n")
        try:
            with contextlib.redirect_stdout(stdout):
                assert main(list(arguments)) == 0
        finally:
            sys.stdin = stdin
        answers.append(stdout.getvalue().rstrip("\n"))  # (a judge reads up to the end of the answer)
    return answers


@functools.cache
def solved(name: str, text: str):
    """(puzzle, instance, the solver's answer (None: NONE), the expectation from the oracle's answers)."""
    puzzle = contract.load(name)
    instance = puzzle.parse_instance(text)
    answer = importlib.import_module(f"bots.{name}.solver").solve(instance)
    return puzzle, instance, answer, puzzle.judge.expectation(puzzle, instance, oracle_answers(name, puzzle, instance))


def answer_text(puzzle, answer) -> str:
    return NONE if answer is None else puzzle.format_answer(answer)


@pytest.mark.parametrize("name", NAMES)
def test_every_puzzle_has_examples_with_and_without_solutions(name):
    """Two examples at least, one with a solution, and one without where the puzzle answers NONE
    (IQ-Twist's answer lists every solution: none is the empty list)."""
    puzzle = contract.load(name)
    assert puzzle.name == name and len(puzzle.examples) >= 2 and puzzle.malformed
    answers = [solved(name, text)[2] for text in puzzle.examples]
    assert any(answers), f"{name} has no example with a solution"
    if puzzle.no_solution_answer == NONE:
        assert None in answers, f"{name} has no example without a solution"


@pytest.mark.parametrize("name, text", EXAMPLES)
def test_an_instance_and_an_answer_round_trip_through_their_text(name, text):
    puzzle, instance, answer, _ = solved(name, text)
    assert puzzle.format_instance(instance) == text
    assert puzzle.format_instance(puzzle.parse_instance(puzzle.format_instance(instance))) == text
    if answer is not None:
        again = puzzle.parse_answer(instance, puzzle.format_answer(answer))
        assert puzzle.format_answer(again) == puzzle.format_answer(answer)


@pytest.mark.parametrize("name, text", EXAMPLES)
def test_the_solvers_answer_replays_step_by_step_under_the_rules(name, text):
    puzzle, instance, answer, _ = solved(name, text)
    start = puzzle.start(instance)
    if answer is None:
        assert not puzzle.is_solved(instance, start)
        return
    sequences = puzzle.solutions(instance, answer)
    assert sequences
    for index, steps in enumerate(sequences):
        state = start
        for step in steps:
            if index == 0:  # (legal_steps can be slow: IQ-Twist's tries every placement)
                assert step in puzzle.legal_steps(instance, state), (step, state)
            state = puzzle.apply(instance, state, step)
        assert puzzle.is_solved(instance, state)


@pytest.mark.parametrize("name", NAMES)
def test_a_step_the_rules_forbid_is_refused_saying_why(name):
    """Along the solver's first solution, some step of that solution is illegal at some state:
    `apply` refuses it with a reason, and `legal_steps` leaves it out."""
    puzzle = contract.load(name)
    for text in puzzle.examples:
        _, instance, answer, _ = solved(name, text)
        if answer is None:
            continue
        steps = puzzle.solutions(instance, answer)[0]
        state = puzzle.start(instance)
        for step in steps:
            for other in dict.fromkeys(steps):
                try:
                    puzzle.apply(instance, state, other)
                except IllegalStep as refused:
                    assert str(refused)
                    assert other not in puzzle.legal_steps(instance, state)
                    return
            state = puzzle.apply(instance, state, step)
    pytest.fail(f"no step of {name}'s solutions is ever illegal")


@pytest.mark.parametrize("name, text", EXAMPLES)
def test_the_judge_accepts_the_solvers_answer(name, text):
    puzzle, instance, answer, expected = solved(name, text)
    verdict = puzzle.judge.verdict(puzzle, 1, instance, expected, answer_text(puzzle, answer), 0.01)
    assert verdict.error is None, verdict
    assert puzzle.judge.describe(verdict).strip() and puzzle.judge.summary([verdict]).strip()
    assert puzzle.judge.as_dict(verdict)["error"] is None


@pytest.mark.parametrize("name, text", EXAMPLES)
def test_the_judge_rejects_mutated_answers(name, text):
    puzzle, instance, answer, expected = solved(name, text)
    if answer is None:
        wrong = ["?", puzzle.format_answer([])]
    else:
        wrong = ["?", NONE, puzzle.format_answer(answer[:-1])]
    for line in wrong:
        verdict = puzzle.judge.verdict(puzzle, 1, instance, expected, line, 0.01)
        assert verdict.error, (line, verdict)


@pytest.mark.parametrize("name, text", EXAMPLES[:1] + EXAMPLES[-1:])
def test_a_solver_that_fails_gets_a_verdict_with_the_reason(name, text):
    puzzle, instance, _, expected = solved(name, text)
    verdict = puzzle.judge.failed(puzzle, 1, instance, expected, "solver crash: exited with code 3", [])
    assert verdict.error and "exited with code 3" in verdict.error


@pytest.mark.parametrize("name", NAMES)
def test_every_judge_says_a_crashed_solvers_stderr_the_same_way(name):
    failure = contract.load(name).judge.failure(BotExited("exited with code 3"), "starting\nboom\n", [])
    assert "exited with code 3" in failure and failure.endswith(" (last stderr line: boom)")


@pytest.mark.parametrize("name, text, where", MALFORMED)
def test_malformed_text_is_refused_with_what_and_where(name, text, where):
    puzzle = contract.load(name)
    with pytest.raises(InputFormatError) as refused:
        puzzle.parse_instance(text)
    assert where in str(refused.value)
    with pytest.raises(InputFormatError) as in_a_file:
        puzzle.parse_instance(text, "puzzles.txt, line 4")
    assert str(in_a_file.value).startswith("puzzles.txt, line 4") and where in str(in_a_file.value)


@pytest.mark.parametrize("name", NAMES)
def test_a_file_of_instances_is_read_in_order(name):
    puzzle = contract.load(name)
    separator = "\n\n" if "\n" in puzzle.examples[0] else "\n"
    instances = puzzle.parse_instances(separator.join(puzzle.examples) + "\n", "puzzles.txt")
    assert [puzzle.format_instance(instance) for instance in instances] == list(puzzle.examples)
    with pytest.raises(InputFormatError):
        puzzle.parse_instances("\n\n", "puzzles.txt")


@pytest.mark.parametrize("name", NAMES)
def test_the_solver_command_answers_each_instance_says_none_and_refuses_bad_input(name, capsys):
    puzzle = contract.load(name)
    separator = "\n\n" if "\n" in puzzle.examples[0] else "\n"
    bad = puzzle.malformed[0][0]
    stdin = io.StringIO(separator.join((*puzzle.examples, bad, puzzle.examples[0])) + "\n")
    stdout = io.StringIO()
    status = puzzle_solver.run(puzzle, importlib.import_module(f"bots.{name}.solver").solve, stdin=stdin, stdout=stdout)
    assert status == 2
    expected = [answer_text(puzzle, solved(name, text)[2]) for text in puzzle.examples]
    expected += ["", expected[0]]  # the bad instance: an empty answer line, then the next is answered
    assert stdout.getvalue() == "".join(line + "\n" for line in expected)
    (message,) = capsys.readouterr().err.splitlines()
    where = puzzle.malformed[0][1]
    if separator == "\n\n":  # a block of lines: its place is said as the input's line, and which it is
        before = sum(len(text.splitlines()) + 1 for text in puzzle.examples)
        line, rest = re.fullmatch(r"line (\d+)(.*)", where).groups()
        where = f"line {before + int(line)}{rest}"
        assert f"({puzzle.item} {len(puzzle.examples) + 1} of the input)" in message
    assert message.startswith(f"{name} solver: ") and where in message


@pytest.mark.parametrize("name, text", EXAMPLES)
def test_an_oracle_answer_that_breaks_the_rules_is_the_oracles_error(name, text):
    puzzle, instance, _, _ = solved(name, text)
    with pytest.raises(OracleError, match="its"):
        puzzle.judge.expectation(puzzle, instance, ["?"] * len(puzzle.judge.oracle_runs()))


@pytest.mark.parametrize("name, text", EXAMPLES)
def test_a_solution_where_the_oracle_said_none_proves_the_oracle_wrong(name, text):
    puzzle, instance, answer, _ = solved(name, text)
    if not answer:  # (None, or IQ-Twist's empty list of solutions)
        return
    none = puzzle.judge.expectation(puzzle, instance, [puzzle.no_solution_answer] * len(puzzle.judge.oracle_runs()))
    with pytest.raises(OracleError):
        puzzle.judge.verdict(puzzle, 1, instance, none, answer_text(puzzle, answer), 0.01)
    assert puzzle.judge.verdict(puzzle, 1, instance, none, puzzle.no_solution_answer, 0.01).error is None
