import functools
import json
import random
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from bots.coroutine.search import solve
from referee.answers import NONE, OracleError
from referee.coroutine.judge import Verdict
from referee.coroutine.puzzle import PUZZLE
from referee.coroutine.rules import START, format_answer, is_solved, parse_puzzle, successors
from referee.judging import judge_one
from referee.platform.bot_errors import BotStartError
from tests.processes import says_where_a_reader_sleeps

DATA = Path(__file__).resolve().parents[1] / "data" / "coroutine"
PUBLISHED = parse_puzzle((DATA / "published.txt").read_text())
ANSWER = "A2 B- A2 B0 A6 B5 A5 B1 A3 B7 A1 B6 A5 B- A0"
STUCK = parse_puzzle("- - -\n- - -\n- - -")
SOLVER = shlex.join([sys.executable, "-m", "bots.coroutine.solver"])
judge = functools.partial(judge_one, PUZZLE)


def verdict_for(board, line):
    """The verdict on `line`, the expectation taken from the project's search (as its solver, the
    default oracle, answers)."""
    best = solve(board)
    expected = PUZZLE.judge.expectation(PUZZLE, board, [NONE if best is None else format_answer(best)])
    return PUZZLE.judge.verdict(PUZZLE, 1, board, expected, line, None)


def random_answer(seed: int) -> list:
    """A random walk on the published board to the centre (every line of this board reaches it)."""
    rng = random.Random(seed)
    state, turns = START, []
    while not is_solved(state):
        turn, state = rng.choice(successors(PUBLISHED, state))
        turns.append(turn)
    return turns


def python(code):
    return shlex.join([sys.executable, "-c", code])


def test_the_published_answer_is_optimal():
    verdict = verdict_for(PUBLISHED, ANSWER)
    assert (verdict.solved, verdict.optimal, verdict.error) == (True, True, None)
    assert (verdict.turns, verdict.steps, verdict.passes) == (15, 13, 2)
    assert (verdict.optimal_turns, verdict.optimal_steps) == (15, 13)
    assert verdict_for(PUBLISHED, ANSWER.replace("A2", "A:E").replace("B-", "B:-")).optimal


@pytest.mark.parametrize(
    "answer, error",
    [
        (ANSWER.replace("B0", "B3", 1), "turn 4: B cannot step SE from bottom-right: top-right (A's square) shows"),
        (ANSWER.replace("B-", "B2", 1), "turn 2: B cannot step E"),
        (ANSWER.replace("B-", "A2", 1), "turn 2: it is B's turn, not A's"),
        (ANSWER.replace("B1 A3", "B- A3"), "turn 8: B may not pass"),
        (ANSWER.rsplit(" ", 1)[0], "after 14 turns no token stands on the centre"),
        (ANSWER + " B0", "turn 16: the puzzle was already solved at turn 15"),
        (ANSWER.replace("A6", "A9"), "turn 5: 'A9' is not a turn"),
        ("NONE", "answered NONE, but the puzzle is solved in 15 turns"),
    ],
)
def test_a_wrong_answer_names_the_turn_and_why(answer, error):
    verdict = verdict_for(PUBLISHED, answer)
    assert not verdict.solved and not verdict.optimal
    assert verdict.error.startswith(error)


def test_a_longer_answer_solves_but_is_not_optimal():
    turns = random_answer(3)
    verdict = verdict_for(PUBLISHED, format_answer(turns))
    assert verdict.solved and verdict.turns == len(turns) > 15
    assert not verdict.optimal
    assert verdict.error.startswith(f"not optimal: {len(turns)} turns (")
    assert verdict.error.endswith("; the optimum is 15 turns (13 steps)")


def test_none_is_the_right_answer_when_no_answer_exists():
    verdict = verdict_for(STUCK, "NONE")
    assert verdict.optimal and verdict.error is None and verdict.optimal_turns is None


def test_judging_the_solver_process():
    verdict = judge(PUBLISHED, SOLVER, time_ms=5000)
    assert verdict.optimal and verdict.time_ms > 0
    assert judge(STUCK, SOLVER, time_ms=5000).optimal


@pytest.mark.parametrize(
    "code, error",
    [
        (  # (the judge's words after the process's)
            "import sys; sys.stdin.read(); print('NONE')",
            "solver timeout: no answer in time: it waits for input | (the puzzle is 3 lines and stdin stays open)",
        ),
        ("import sys; sys.exit(3)", "solver crash: exited with code 3"),
        ("pass", "solver stopped: it exited (status 0) without answering"),
        ("print('A2 B- A2 B3')", "turn 4: B cannot step SE"),
    ],
)
def test_a_failing_solver_gets_a_stated_reason(code, error):
    verdict = judge(PUBLISHED, python(code), time_ms=500)
    head, _, tail = error.partition(" | ")
    if tail and not says_where_a_reader_sleeps():  # (the process's words then stop at "no answer in time")
        head = "solver timeout: no answer in time"
    assert not verdict.solved and verdict.error.startswith(head) and verdict.error.endswith(tail)


def test_a_solver_that_cannot_start():
    with pytest.raises(BotStartError):
        judge(PUBLISHED, "/nonexistent/solver")


def referee(*args):
    return subprocess.run([sys.executable, "-m", "referee.cli", "coroutine", *args], capture_output=True, text=True)


def test_judge_command_on_a_file_of_puzzles(tmp_path):
    puzzles = tmp_path / "puzzles.txt"
    puzzles.write_text((DATA / "published.txt").read_text() + "\n- - -\n- - -\n- - -\n")
    run = referee("judge", str(puzzles), SOLVER, "--time-ms", "5000", "--json")
    assert run.returncode == 0, run.stderr
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    verdicts = [(row["puzzle"], row["solved"], row["optimal"], row["error"]) for row in rows]
    assert verdicts == [(1, True, True, None), (2, False, True, None)]
    figures = ("turns", "steps", "passes", "optimal_turns", "optimal_steps")
    assert [rows[0][key] for key in figures] == [15, 13, 2, 15, 13]
    assert rows[0]["time_ms"] > 0 and rows[1]["optimal_turns"] is None
    text = referee("judge", str(puzzles), SOLVER, "--time-ms", "5000")
    assert text.stdout.splitlines()[-1] == "2 puzzles: 1 solved, 2 answered optimally"


def test_judge_command_rejects_a_malformed_file_or_solver(tmp_path):
    puzzles = tmp_path / "bad.txt"
    puzzles.write_text("045 1245 0145\n1457 - 136\n067 157 028\n")
    run = referee("judge", str(puzzles), SOLVER)
    assert run.returncode == 2 and "line 3, cell 3" in run.stderr and "Traceback" not in run.stderr
    run = referee("judge", str(DATA / "published.txt"), "/nonexistent/solver")
    assert run.returncode == 2 and "cannot start" in run.stderr and "Traceback" not in run.stderr
    run = referee("judge", str(tmp_path / "missing.txt"), SOLVER)
    assert run.returncode == 2 and "cannot read" in run.stderr


def test_the_oracles_answer_is_replayed_and_a_shorter_answer_proves_it_wrong():
    longer = format_answer(random_answer(3))
    assert len(longer.split()) > 15
    with pytest.raises(OracleError, match="solves the puzzle in 15 turns \\(13 steps\\), the oracle's in"):
        judge(PUBLISHED, python(f"print({ANSWER!r})"), time_ms=5000, oracle=python(f"print({longer!r})"))
    with pytest.raises(OracleError, match="it answered NONE, but the solver's answer solves the puzzle in 15 turns"):
        judge(PUBLISHED, python(f"print({ANSWER!r})"), time_ms=5000, oracle=python("print('NONE')"))
    with pytest.raises(OracleError, match="its answer 'A2 B3': turn 2: B cannot step"):
        judge(PUBLISHED, python(f"print({ANSWER!r})"), time_ms=5000, oracle=python("print('A2 B3')"))
    # An oracle that is right, though not the project's solver: the same verdict.
    verdict = judge(PUBLISHED, python(f"print({longer!r})"), time_ms=5000, oracle=python(f"print({ANSWER!r})"))
    assert verdict.solved and not verdict.optimal and verdict.optimal_turns == 15


def test_judge_command_names_an_oracle_proved_wrong(tmp_path):
    run = referee(
        "judge", str(DATA / "published.txt"), python(f"print({ANSWER!r})"), "--oracle", python("print('NONE')")
    )
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert run.stderr == (
        "referee coroutine judge: oracle wrong on puzzle 1: it answered NONE, but the solver's "
        "answer solves the puzzle in 15 turns\n"
    )
    assert run.stdout == ""  # no verdict on the solver: its answer was right


def test_a_count_of_one_is_said_in_the_singular():
    one = Verdict(1, True, True, None, 3, 2, 1, 1, 1, 5.0)
    assert one.describe() == "puzzle 1: solved in 3 turns (2 steps, 1 pass); optimum 1 turn (1 step): optimal; 5 ms"
    assert PUZZLE.judge.summary([one]) == "1 puzzle: 1 solved, 1 answered optimally"
