"""The learned prior (`pure.prior`) and the connection race it reads (`pure.race`): the race's routes
as a plain search from every tile finds them, the search's fast scores as the sum of the features'
weights, the weights as the file carries them."""

from collections import deque
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.volcanoes.pure import prior, prior_weights, race
from bots.volcanoes.pure.features import move_features
from bots.volcanoes.pure import rules as pure
from referee.volcanoes.board import HALF, N_TILES, NEIGHBOURS
from tests.bundle.positions import random_position_and_draws


def _plain_routes(board, player):
    """For each tile, the empty tiles the cheapest connection through it needs, by a 0-1 breadth-first
    search from every tile (pieces free, empty tiles one each, the enemy's blocked)."""
    far = 10**6
    cost = [0 if (c - pure.EMPTY) * player > 0 else 1 if c == pure.EMPTY else far for c in board[:N_TILES]]
    dist = []
    for source in range(N_TILES):
        d = [far] * N_TILES
        if cost[source] < far:
            d[source] = cost[source]
            queue = deque([source])
            while queue:
                x = queue.popleft()
                for n in NEIGHBOURS[x]:
                    if cost[n] < far and d[x] + cost[n] < d[n]:
                        d[n] = d[x] + cost[n]
                        queue.appendleft(n) if cost[n] == 0 else queue.append(n)
        dist.append(d)
    via = [
        min(dist[k][t] + dist[k + HALF][t] for k in range(HALF)) - cost[t] if cost[t] < far else far
        for t in range(N_TILES)
    ]
    return via, min(via)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 40))
def test_the_race_finds_the_routes_that_a_plain_search_finds(seed, opening_turns):
    board, _, _, _ = random_position_and_draws(seed, opening_turns)
    for player, cells in ((pure.BLUE, prior.BLUE_CELLS), (pure.ORANGE, prior.ORANGE_CELLS)):
        via, best = race.routes(board, cells)
        plain, plain_best = _plain_routes(board, player)
        if plain_best > race.LAYERS:  # (no connection within the layers searched)
            assert best == race.NONE
            continue
        assert best == plain_best
        for t in range(N_TILES):
            if plain[t] <= best + 4:
                assert via[t] == plain[t], f"tile {t}"
            else:
                assert via[t] == race.NONE, f"tile {t}"


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 40))
def test_the_search_scores_each_move_as_the_sum_of_its_features_weights(seed, opening_turns):
    board, turns, _, _ = random_position_and_draws(seed, opening_turns)
    if pure.ACTORS[turns] == pure.GROWTH:
        pure.grow(board)
        turns += 1
    rng = Random(seed)
    weights = [rng.uniform(-2, 2) for _ in range(prior.N_FEATURES)]
    moves = pure.legal_moves(board, pure.ACTORS[turns])
    on = prior.Race(board)
    expected = [sum(weights[i] for i in f) for f in move_features(board, turns, moves, on)]
    assert prior.Model(weights).scores(board, turns, moves, on) == pytest.approx(expected, abs=1e-9)
    for f in move_features(board, turns, moves, on):
        assert len(f) == len(prior.GROUPS)
        assert all(
            prior.OFFSETS[name] <= i < prior.OFFSETS[name] + count
            for i, (name, count) in zip(f, prior.GROUPS, strict=True)
        )


def test_each_side_reads_the_board_as_its_own():
    """A move is described alike for blue and for orange on the board with the colours exchanged."""
    board, turns, _, _ = random_position_and_draws(5, 20)
    while pure.ACTORS[turns] != pure.BLUE:
        pure.take_turn(board, turns, pure.legal_moves(board, pure.ACTORS[turns] or 1)[0])
        turns += 1
    mirrored = bytearray(board.translate(prior.MIRROR))
    orange_turns = turns + 3  # (orange, in the same phase: a growth next, or the opponent first)
    assert pure.ACTORS[orange_turns] == pure.ORANGE and prior.phase(orange_turns) == prior.phase(turns)
    moves = pure.legal_moves(board, pure.BLUE)
    assert move_features(board, turns, moves) == move_features(mirrored, orange_turns, moves)


def test_the_weights_travel_as_one_character_each_and_come_back():
    weights = [0.0, 1.5, -2.25, 100.0, -127.0, 0.015625]
    text = prior.encode(weights)
    assert len(text) == len(weights) and all(0x4E00 <= ord(ch) <= 0x9FFF for ch in text)
    assert prior.decode(text) == weights
    assert len(prior.decode(prior_weights.WEIGHTS)) == prior.N_FEATURES
