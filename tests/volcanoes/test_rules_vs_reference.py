"""The numba kernels agree with the plain-Python reference, turn by turn, on random games."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.volcanoes import reference, rules
from referee.volcanoes.board import N_TILES


def _play_both(choices, max_turns=200):
    pos = reference.Position()
    levels, dormant = rules.new_state()
    buf = np.empty(N_TILES, dtype=np.int64)
    for turn in range(1, max_turns + 1):
        who = reference.actor(turn)
        assert rules.actor(turn) == who
        if who == reference.GROWTH:
            expected, got = reference.grow(pos), rules.grow(levels, dormant)
        else:
            legal = reference.legal_moves(pos, who)
            n = rules.legal_moves(levels, dormant, who, buf)
            assert list(buf[:n]) == legal
            if not legal:
                return
            tile = legal[choices.draw(st.integers(0, len(legal) - 1))]
            expected, got = reference.play(pos, tile), rules.play(levels, dormant, who, tile)
        assert got == expected, f"turn {turn}"
        assert list(levels) == pos.levels, f"turn {turn}"
        assert list(dormant) == pos.dormant, f"turn {turn}"
        if expected != reference.ONGOING:
            return


@settings(max_examples=1500, deadline=None)
@given(st.data())
def test_random_games_agree(data):
    _play_both(data)


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.integers(0, N_TILES - 1), min_size=0, max_size=60))
def test_crowded_boards_agree(tiles):
    """Concentrated play (few tiles, many raises) makes chain eruptions and mixed overflows."""
    pos = reference.Position()
    levels, dormant = rules.new_state()
    for turn, wish in enumerate(tiles * 3, 1):
        who = reference.actor(turn)
        if who == reference.GROWTH:
            expected, got = reference.grow(pos), rules.grow(levels, dormant)
        else:
            legal = reference.legal_moves(pos, who)
            if not legal:
                return
            tile = min(legal, key=lambda t: (t - wish) % N_TILES)
            expected, got = reference.play(pos, tile), rules.play(levels, dormant, who, tile)
        assert (got, list(levels), list(dormant)) == (expected, pos.levels, pos.dormant)
        if expected != reference.ONGOING:
            return


def test_eruption_phase_limit_is_a_draw():
    """Past 100 eruption phases in one turn the game is a draw, in both engines."""
    # Two adjacent friendly volcanoes cannot ping-pong (a tile already at the top does not erupt
    # again), so the limit is reached only through the counter: check the counting directly.
    pos = reference.Position()
    assert reference._outcome(pos, reference.MAX_ERUPTION_PHASES + 1) == reference.DRAW
    assert reference._outcome(pos, reference.MAX_ERUPTION_PHASES) == reference.ONGOING
    levels, _ = rules.new_state()
    assert rules.outcome(levels, rules.MAX_ERUPTION_PHASES + 1) == rules.DRAW
    assert rules.outcome(levels, rules.MAX_ERUPTION_PHASES) == rules.ONGOING
