"""Every Volcanoes rules engine plays exactly as the plain-Python reference (referee/volcanoes/
reference.py), turn by turn on random games: the numba kernels (referee/volcanoes/rules.py) and the
pure-Python engine that plays on CodinGame (bots/volcanoes/pure/rules.py). Each turn compares who
acts, the legal moves, the outcome, the levels, the dormant flags and both players' connections.
The search's bitboard core (bots/volcanoes/search/bitboard.py) plays too.

An engine enters the test through a small adapter below (its own state and calls); the games are
drawn by hypothesis: uniform random moves, raise-heavy play (chain eruptions, mixed pushes,
simultaneous wins), and crowded play around a few tiles.
"""

from __future__ import annotations

import itertools
from random import Random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.volcanoes.pure import rules as pure
from bots.volcanoes.search import bitboard
from referee.volcanoes import reference, rules
from referee.volcanoes.board import N_TILES
from referee.volcanoes.constants import BLUE, GROWTH, MAX_LEVEL, MAX_TURNS, ONGOING, ORANGE


class Reference:
    def __init__(self):
        self.pos = reference.Position()

    actor = staticmethod(reference.actor)

    def legal(self, who):
        return reference.legal_moves(self.pos, who)

    def play(self, who, tile):
        return reference.play(self.pos, tile)

    def grow(self):
        return reference.grow(self.pos)

    def levels(self):
        return list(self.pos.levels)

    def dormant(self):
        return list(self.pos.dormant)

    def connects(self, who):
        return reference._connects(self.pos.levels, who)


class Numba:
    def __init__(self):
        self.levels_, self.dormant_ = rules.new_state()
        self.buf = np.empty(N_TILES, dtype=np.int64)

    actor = staticmethod(rules.actor)

    def legal(self, who):
        n = rules.legal_moves(self.levels_, self.dormant_, who, self.buf)
        return [int(t) for t in self.buf[:n]]

    def play(self, who, tile):
        assert rules.is_legal(self.levels_, self.dormant_, who, tile)
        return rules.play(self.levels_, self.dormant_, who, tile)

    def grow(self):
        return rules.grow(self.levels_, self.dormant_)

    def levels(self):
        return [int(x) for x in self.levels_]

    def dormant(self):
        return [bool(x) for x in self.dormant_]

    def connects(self, who):
        return rules.connects(self.levels_, who)


class Pure:
    def __init__(self):
        self.board = pure.new_board()

    actor = staticmethod(pure.actor)

    def legal(self, who):
        return pure.legal_moves(self.board, who)

    def play(self, who, tile):
        assert pure.is_legal(self.board, who, tile)
        return pure.play(self.board, who, tile)

    def grow(self):
        return pure.grow(self.board)

    def levels(self):
        return pure.to_levels(self.board)

    def dormant(self):  # the pure engine keeps no flags: a volcano at the top level is dormant
        return [abs(level) == MAX_LEVEL for level in pure.to_levels(self.board)]

    def connects(self, who):
        return pure.connects(self.board, who)


class Bitboard:
    def __init__(self):
        self.board, self.scratch = bitboard.new_board(), bitboard.new_scratch()
        self.buf = np.empty(N_TILES, dtype=np.int64)
        self.levels_ = np.empty(N_TILES, dtype=np.int8)

    actor = staticmethod(rules.actor)  # the core has no actor of its own: `step` reads the cycle

    def legal(self, who):
        n = bitboard.legal_moves(self.board, who, self.buf)
        return [int(t) for t in self.buf[:n]]

    def play(self, who, tile):
        return bitboard.play(self.board, who, tile, self.scratch)

    def grow(self):
        return bitboard.grow(self.board, self.scratch)

    def levels(self):
        bitboard.to_levels(self.board, self.levels_)
        return [int(x) for x in self.levels_]

    def dormant(self):  # no flags either: a volcano at the top level is dormant
        return [abs(level) == MAX_LEVEL for level in self.levels()]

    def connects(self, who):
        return bool(bitboard.connects(self.board, 0 if who == BLUE else 1))


ENGINES = {"numba": Numba, "pure": Pure, "bitboard": Bitboard}


def play_both(engine, choose) -> None:
    """One game in the reference and in `engine`; `choose(legal, levels)` picks each move."""
    oracle, other = Reference(), engine()
    for turn in range(1, MAX_TURNS + 1):
        who = oracle.actor(turn)
        assert other.actor(turn) == who, f"turn {turn}"
        if who == GROWTH:
            expected, got = oracle.grow(), other.grow()
        else:
            legal = oracle.legal(who)
            assert other.legal(who) == legal, f"turn {turn}"
            if not legal:
                return
            tile = choose(legal, oracle.levels())
            expected, got = oracle.play(who, tile), other.play(who, tile)
        assert got == expected, f"turn {turn}"
        assert other.levels() == oracle.levels(), f"turn {turn}"
        if expected != ONGOING:  # (a turn cut short by the eruption limit leaves some flags unset)
            return
        assert other.dormant() == oracle.dormant(), f"turn {turn}"
        for player in (BLUE, ORANGE):
            assert other.connects(player) == oracle.connects(player) is False, f"turn {turn}"


@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), raise_rate=st.sampled_from([0.0, 0.0, 0.5, 0.9]))
def test_random_and_eruption_heavy_games_agree_with_the_reference(engine, seed, raise_rate):
    rng = Random(seed)

    def choose(legal, levels):
        own = [t for t in legal if levels[t] != 0]
        return rng.choice(own) if own and rng.random() < raise_rate else rng.choice(legal)

    play_both(ENGINES[engine], choose)


@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, N_TILES - 1), min_size=1, max_size=60))
def test_crowded_games_agree_with_the_reference(engine, tiles):
    """Concentrated play (few tiles, many raises) makes chain eruptions and mixed overflows."""
    wishes = itertools.cycle(tiles)

    def nearest_to_wish(legal, levels):
        wish = next(wishes)
        return min(legal, key=lambda t: (t - wish) % N_TILES)

    play_both(ENGINES[engine], nearest_to_wish)
