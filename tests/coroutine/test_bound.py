import subprocess
import sys

import numpy as np

from bots.coroutine.bound import bound, surviving_lines
from bots.coroutine.fast import optimal_turns
from bots.coroutine.generate import LONGEST_POSSIBLE, generate
from tests.coroutine import brute


def agrees_with_a_line(board, lines):
    shown, hidden = lines
    masks = np.array(board, np.int64)
    return bool(np.any(np.all((masks & shown) == shown, axis=1) & np.all((masks & hidden) == 0, axis=1)))


def test_every_random_board_needing_7_turns_or_more_agrees_with_a_surviving_line():
    lines = surviving_lines(7)
    long_boards = [board for board in brute.random_boards(3000, seed=8) if optimal_turns(board) >= 7]
    assert len(long_boards) > 20
    assert all(agrees_with_a_line(board, lines) for board in long_boards)


def test_every_generated_board_needing_26_turns_or_more_agrees_with_a_surviving_line():
    lines = surviving_lines(26)
    boards = [board for turns in (26, 27, 28, 29) for board in generate(turns, count=3, seed=turns)]
    assert len(boards) == 12
    assert all(agrees_with_a_line(board, lines) for board in boards)


def test_no_board_needs_30_turns_and_one_needs_29():
    assert bound(30).longest == 29 == LONGEST_POSSIBLE  # `hardest` stops on reaching it
    found = bound(29)
    assert found.longest == 29 == brute.optimum(found.board)[0]


def test_bound_command_states_the_proof():
    run = subprocess.run(
        [sys.executable, "-m", "bots.coroutine.bound", "--turns", "30"], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("no board needs 30 turns or more:")
