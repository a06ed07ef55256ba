"""The bitboard core's pieces against naive versions. Whole games against the reference: the engine
contract (tests/contracts/test_engine_contract.py) and the 800 recorded games (test_conformance.py)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.bench import playout_baseline
from bots.volcanoes.search import bitboard
from referee.volcanoes import reference, rules
from referee.volcanoes.board import N_TILES, NEIGHBOURS
from tests.volcanoes.plain import after_random_turns, lowest_connecting_placement


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-4, 4), min_size=N_TILES, max_size=N_TILES))
def test_levels_round_trip_and_connections(levels):
    levels = np.array(levels, dtype=np.int8)
    board = bitboard.new_board()
    bitboard.from_levels(levels, board)
    back = np.empty(N_TILES, dtype=np.int8)
    bitboard.to_levels(board, back)
    assert np.array_equal(back, levels)
    assert bitboard.connects(board, 0) == rules.connects(levels, rules.BLUE)
    assert bitboard.connects(board, 1) == rules.connects(levels, rules.ORANGE)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.booleans(), min_size=N_TILES, max_size=N_TILES), st.integers(0, N_TILES - 1))
def test_a_component_is_what_a_plain_search_finds(owned, tile):
    """The component of a tile in a set (the tile itself with it), and the tiles next to it, as a
    plain breadth-first search over the board's neighbours finds them."""
    owned[tile] = True
    component, queue = {tile}, [tile]
    while queue:
        t = queue.pop()
        for n in NEIGHBOURS[t]:
            if owned[n] and n not in component:
                component.add(n)
                queue.append(n)
    around = {n for t in component for n in NEIGHBOURS[t]}

    def bits(tiles):
        return np.uint64(sum(1 << t for t in tiles if t < 64)), np.uint64(sum(1 << (t - 64) for t in tiles if t >= 64))

    o_lo, o_hi = bits([t for t in range(N_TILES) if owned[t]])
    assert bitboard.component(tile, o_lo, o_hi) == (*bits(component), *bits(around))


@settings(max_examples=100, deadline=None)
@given(st.integers(1, N_TILES), st.integers(0, 2**31 - 1))
def test_a_shuffle_draws_as_random_below_does(n, seed):
    """`shuffle` is Fisher-Yates with `random_below`'s draws: the same permutation, and the
    generator left in the same state."""
    items, rng = np.arange(N_TILES, dtype=np.int64), bitboard.new_rng(seed)
    expected, expected_rng = list(range(N_TILES)), rng.copy()
    for i in range(n - 1, 0, -1):
        j = bitboard.random_below(expected_rng, i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    bitboard.shuffle(items, n, rng)
    assert items.tolist() == expected and rng[0] == expected_rng[0]


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 2**64 - 1), st.data())
def test_select_finds_the_rth_set_bit(word, data):
    bits = [i for i in range(64) if word >> i & 1]
    r = data.draw(st.integers(0, len(bits) - 1))
    assert bitboard._select(np.uint64(word), r) == bits[r]


def test_random_moves_are_legal_and_uniform():
    """On a board with 50 legal tiles for blue, 50,000 draws hit each legal tile about 1,000
    times (a chi-square test at p = 1e-6) and never an illegal one."""
    levels = np.zeros(N_TILES, dtype=np.int8)
    levels[::3] = -1  # orange: not blue's
    levels[1::8] = 4  # dormant
    levels[2::8] = 2  # blue, can rise
    board = bitboard.new_board()
    bitboard.from_levels(levels, board)
    legal = [t for t in range(N_TILES) if rules.is_legal(levels, np.abs(levels) == 4, rules.BLUE, t)]
    rng = bitboard.new_rng(7)
    draws = 1000 * len(legal)
    counts = np.bincount([bitboard.random_move(board, rules.BLUE, rng) for _ in range(draws)], minlength=N_TILES)
    assert set(np.flatnonzero(counts)) == set(legal)
    expected = draws / len(legal)
    chi2 = float(((counts[legal] - expected) ** 2 / expected).sum())
    assert chi2 < len(legal) + 6 * np.sqrt(2 * len(legal)), chi2  # well beyond p = 1e-6 for ~50 dof


def _bitboard_winning_tile(levels, player) -> int:
    board = bitboard.new_board()
    bitboard.from_levels(levels, board)
    return bitboard.winning_tile(board, player, bitboard.new_scratch())


def _baseline_winning_tile(levels, player) -> int:
    return playout_baseline.winning_tile(levels, player, playout_baseline.new_scratch())


# The bitboard core's, and that of the older playout loop that `arena bench` keeps as its baseline.
WINNING_TILE = {"bitboard": _bitboard_winning_tile, "baseline": _baseline_winning_tile}


@pytest.mark.parametrize("engine", WINNING_TILE)
@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(-1, 1), min_size=N_TILES, max_size=N_TILES), st.sampled_from([1, -1]))
def test_winning_tile_is_the_lowest_connecting_placement(engine, signs, player):
    """On a random board (not connected for `player`), the lowest empty tile whose placement
    connects the player, or -1."""
    levels = np.array(signs, dtype=np.int8)
    if rules.connects(levels, player):
        return
    assert WINNING_TILE[engine](levels, player) == lowest_connecting_placement(levels, player)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(0, 30))
def test_decisive_playouts_take_a_win_then_a_block_then_a_random_move(seed, opening):
    """From a position after `opening` random turns, a decisive playout plays what the rules do,
    played step by step: the mover's lowest winning placement, else (when the opponent moves next)
    the lowest one of the opponent's, else a random move (the same random draws, the same final
    board)."""
    scratch, rng = bitboard.new_scratch(), bitboard.new_rng(seed)
    board, turn = after_random_turns(opening, rng, scratch), opening
    if board is None:
        return
    fresh, fresh_rng = board.copy(), rng.copy()
    outcome, turns = bitboard.playout(board, turn, rules.MAX_TURNS, True, scratch, rng)
    while turn < rules.MAX_TURNS:  # the same playout, step by step
        turn += 1
        who = reference.actor(turn)
        tile = 0
        if who != reference.GROWTH:
            tile = bitboard.winning_tile(fresh, who, scratch)
            if tile < 0 and reference.actor(turn + 1) == -who:
                tile = bitboard.winning_tile(fresh, -who, scratch)
            if tile < 0:
                tile = bitboard.random_move(fresh, who, fresh_rng)
            if tile < 0:
                expected = rules.ORANGE_WINS if who == rules.BLUE else rules.BLUE_WINS
                break
        expected = bitboard.step(fresh, turn, tile, scratch)
        if expected != rules.ONGOING:
            break
    else:
        expected = rules.DRAW  # the turn limit
    assert (outcome, turns) == (expected, turn)
    assert (board == fresh).all() and rng[0] == fresh_rng[0]


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**31 - 1), st.booleans())
def test_playouts_end_like_the_rules(seed, decisive):
    """A playout's moves are legal and its outcome is the rules' outcome on the final board."""
    board, scratch, rng = bitboard.new_board(), bitboard.new_scratch(), bitboard.new_rng(seed)
    pos = reference.Position()
    for turn in range(1, 201):  # random moves, step by step, against the reference
        who = reference.actor(turn)
        tile = 0 if who == reference.GROWTH else bitboard.random_move(board, who, rng)
        if who != reference.GROWTH:
            assert tile in reference.legal_moves(pos, who)
        expected = reference.grow(pos) if who == reference.GROWTH else reference.play(pos, tile)
        assert bitboard.step(board, turn, tile, scratch) == expected
        if expected != reference.ONGOING:
            break
    board = bitboard.new_board()
    outcome, turns = bitboard.playout(board, 0, 200, decisive, scratch, rng)
    levels = np.empty(N_TILES, dtype=np.int8)
    bitboard.to_levels(board, levels)
    assert 0 < turns <= 200
    assert rules.outcome(levels, 0) == outcome or (outcome == rules.DRAW and turns == 200)
