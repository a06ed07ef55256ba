"""The older numba playout loop, the bench's baseline (arena/bench/playout_baseline.py): its lean rules
step agrees with the rules engine (itself checked against the reference) turn by turn on random
games, and its random moves are legal (its winning tile: test_bitboard.py, beside the bitboard core's)."""

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.bench import playout_baseline as playout
from referee.volcanoes import reference, rules
from referee.volcanoes.board import N_TILES


def _play_both(pick, max_turns=200):
    """Play a game in the reference and in `playout.step`, choosing each move with `pick(legal)`."""
    pos = reference.Position()
    levels, dormant = rules.new_state()
    scratch = playout.new_scratch()
    buf = np.empty(N_TILES, dtype=np.int64)
    for turn in range(1, max_turns + 1):
        who = reference.actor(turn)
        tile = 0
        if who == reference.GROWTH:
            expected = reference.grow(pos)
        else:
            legal = reference.legal_moves(pos, who)
            n = playout.legal_moves(levels, who, buf)
            assert list(buf[:n]) == legal, f"turn {turn}"
            if not legal:
                return
            tile = pick(legal)
            expected = reference.play(pos, tile)
        got = playout.step(levels, dormant, turn, tile, scratch)
        assert got == expected, f"turn {turn}"
        assert list(levels) == pos.levels, f"turn {turn}"
        assert list(dormant) == pos.dormant, f"turn {turn}"
        if expected != reference.ONGOING:
            return


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_random_games_agree(data):
    _play_both(lambda legal: legal[data.draw(st.integers(0, len(legal) - 1))])


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, N_TILES - 1), min_size=1, max_size=60))
def test_crowded_boards_agree(tiles):
    """Concentrated play (few tiles, many raises) makes chain eruptions and mixed overflows."""
    wishes = itertools.cycle(tiles)

    def nearest_to_wish(legal):
        wish = next(wishes)
        return min(legal, key=lambda t: (t - wish) % N_TILES)

    _play_both(nearest_to_wish)


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**31 - 1), st.booleans())
def test_playouts_end_like_the_rules(seed, decisive):
    """A playout's moves are legal and its reported outcome is the rules' outcome."""
    levels, dormant = rules.new_state()
    scratch = playout.new_scratch()
    playout.seed(seed)
    turn = 0
    result = rules.ONGOING
    while result == rules.ONGOING and turn < 200:
        turn += 1
        who = rules.actor(turn)
        if who == rules.GROWTH:
            tile = 0
        else:
            tile = playout.random_move(levels, who, scratch)
        if who != rules.GROWTH:
            assert rules.is_legal(levels, dormant, who, tile)
        check_levels, check_dormant = levels.copy(), dormant.copy()
        result = playout.step(levels, dormant, turn, tile, scratch)
        assert result == rules.take_turn(check_levels, check_dormant, turn, tile)
        assert np.array_equal(levels, check_levels) and np.array_equal(dormant, check_dormant)
    levels, dormant = rules.new_state()
    playout.seed(seed)
    outcome, turns = playout.playout(levels, dormant, 0, 200, decisive, scratch)
    assert outcome in (rules.BLUE_WINS, rules.ORANGE_WINS, rules.DRAW)
    assert rules.outcome(levels, 0) == outcome or outcome == rules.DRAW
    assert 0 < turns <= 200


def test_min_chain_is_the_shortest_way_round():
    """`winning_tile` skips players with fewer than MIN_CHAIN - 1 volcanoes: no chain is shorter."""
    from collections import deque

    from referee.volcanoes.board import HALF, NEIGHBOURS

    def tiles_on_shortest_path(source):
        depth = {source: 1}
        queue = deque([source])
        while queue:
            tile = queue.popleft()
            for n in NEIGHBOURS[tile]:
                if n not in depth:
                    depth[n] = depth[tile] + 1
                    queue.append(n)
        return depth[source + HALF]

    assert min(tiles_on_shortest_path(k) for k in range(HALF)) == playout.MIN_CHAIN
