"""The numba kernels and the plain-Python reference at the eruption limit. (That they agree turn by
turn on random games is the engine contract, tests/contracts/test_engine_contract.py.)"""

from referee.volcanoes import reference, rules


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
