from hypothesis import given, settings
from hypothesis import strategies as st

from bots.coroutine.fast import optimal_turns
from referee.coroutine.rules import START, parse_puzzle, play
from bots.coroutine.search import optimum, solve
from tests.coroutine import brute

PUBLISHED = "045 1245 0145\n1457 - 136\n067 157 027"
LONGEST_FOUND = "26 036 14\n- - 2\n014 05 47"  # 29 turns, found by `python -m bots.coroutine.generate --hardest`


def test_published_puzzle_optimum_is_15_turns_13_steps_a_on_the_centre():
    board = parse_puzzle(PUBLISHED)
    line = solve(board)
    assert optimum(board) == (15, 13) == brute.optimum(board)
    state = START
    for turn in line:
        state = play(board, state, turn)
    assert state.a == 4
    assert brute.count_lines(board, 13) == 1
    assert min(k for k in range(30) if brute.count_lines(board, k)) == 13


def check_against_brute_force(board):
    line = solve(board)
    best = brute.optimum(board)
    if best is None:
        assert line is None
    else:
        assert brute.replay(board, [(t.token, t.direction) for t in line]) == best
    return best


def test_solver_is_optimal_on_thousands_of_random_boards():
    outcomes = [check_against_brute_force(board) for board in brute.random_boards(2000, seed=6)]
    unsolvable = outcomes.count(None)
    longest = max(best[0] for best in outcomes if best)
    assert 50 < unsolvable < 1950 and longest >= 8  # the sample reaches both kinds and long lines


def test_solver_is_optimal_on_long_boards():
    board = parse_puzzle(LONGEST_FOUND)
    assert check_against_brute_force(board)[0] == 29


def test_a_board_with_both_tokens_stuck_has_no_answer():
    assert solve(parse_puzzle("- - -\n- - -\n- - -")) is None
    assert brute.optimum(parse_puzzle("- - -\n- - -\n- - -")) is None


masks = st.integers(0, 255)
boards = st.tuples(*[masks] * 4, st.just(0), *[masks] * 4)
sparse_boards = st.lists(st.integers(0, 7), max_size=3).map(lambda ds: sum(1 << d for d in ds))


@settings(max_examples=500, deadline=None)
@given(st.one_of(boards, st.tuples(*[sparse_boards] * 4, st.just(0), *[sparse_boards] * 4)))
def test_numba_turns_agree_with_plain_search(board):
    best = optimum(board)
    assert optimal_turns(board) == (best[0] if best else -1)
