import subprocess
import sys

import pytest

from bots.coroutine.generate import generate, hardest
from referee.coroutine.rules import parse_puzzle, parse_puzzles
from tests.coroutine import brute


def generate_command(*args):
    return subprocess.run([sys.executable, "-m", "bots.coroutine.generate", *args], capture_output=True, text=True)


def test_generated_puzzles_have_exactly_the_asked_optimum():
    boards = generate(12, count=4, seed=5)
    assert len(set(boards)) == 4
    assert all(brute.optimum(board)[0] == 12 for board in boards)
    assert generate(12, count=4, seed=5) == boards  # a seed gives the same puzzles again


def test_generate_command_prints_five_distinct_puzzles_of_20_turns():
    run = generate_command("--turns", "20", "--count", "5", "--seed", "1")
    assert run.returncode == 0, run.stderr
    boards = parse_puzzles(run.stdout)
    assert len(set(boards)) == 5
    assert all(brute.optimum(board)[0] == 20 for board in boards)


def test_generate_says_so_when_its_effort_runs_out():
    run = generate_command("--turns", "29", "--effort", "1000", "--seed", "1")
    assert run.returncode == 1 and "found 0 of 1 puzzles" in run.stderr


def test_hardest_reports_a_board_and_its_true_optimum():
    records = []
    board, turns = hardest(1, seed=2, report=lambda b, t, elapsed: records.append(t))
    assert brute.optimum(board)[0] == turns == records[-1] >= 20
    assert records == sorted(records)


def test_hardest_command_prints_the_board_its_optimum_and_an_answer():
    run = generate_command("--hardest", "--seconds", "1", "--seed", "3")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    board = parse_puzzle("\n".join(lines[:3]))
    turns, steps = brute.optimum(board)
    assert lines[4].startswith(f"optimum: {turns} turns ({steps} steps, {turns - steps} forced passes)")
    assert brute.replay(board, [(word[0], None if word[1] == "-" else int(word[1])) for word in lines[5].split()])


@pytest.mark.parametrize("turns", ["30", "57", "0"])
def test_generate_rejects_a_length_no_board_has_at_once(turns):
    run = generate_command("--turns", turns)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr == (
        "python -m bots.coroutine.generate: --turns must be 1 to 29: no board needs more than 29 turns "
        "(an exhaustive search proves it: python -m bots.coroutine.bound --turns 30)\n"
    )


def test_hardest_refuses_a_count():
    run = generate_command("--hardest", "--count", "2")
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr == (
        "python -m bots.coroutine.generate: --count goes with --turns: --hardest prints one board, the hardest it finds\n"
    )
