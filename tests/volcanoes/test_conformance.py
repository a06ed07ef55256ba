"""Both rules engines replay the 800 games recorded from CodinGame's referee, line for line."""

import numpy as np
import pytest

from bots.volcanoes.search import bitboard
from referee.volcanoes import reference, rules
from referee.volcanoes.board import INDEX, N_TILES, NAMES
from referee.volcanoes.protocol import position_line, valid_line

WINNERS = {rules.BLUE_WINS: "blue", rules.ORANGE_WINS: "orange", rules.DRAW: "draw"}


def _final(game):
    levels, dormant = game["final_levels"], game["final_dormant"]
    levels = [int(x) for x in levels.split()] if isinstance(levels, str) else levels
    dormant = dormant.split() if isinstance(dormant, str) else dormant
    return levels, sorted(dormant)


class ReferenceEngine:
    def __init__(self):
        self.pos = reference.Position()

    def lines(self, player):
        return position_line(self.pos.levels, player), valid_line(reference.legal_moves(self.pos, player))

    def step(self, move):
        return reference.grow(self.pos) if move == "GROW" else reference.play(self.pos, INDEX[move])

    def state(self):
        return list(self.pos.levels), sorted(NAMES[t] for t in range(N_TILES) if self.pos.dormant[t])


class NumbaEngine:
    def __init__(self):
        self.levels, self.dormant = rules.new_state()
        self.turn = 0
        self.buf = np.empty(N_TILES, dtype=np.int64)

    def lines(self, player):
        n = rules.legal_moves(self.levels, self.dormant, player, self.buf)
        return position_line(self.levels, player), valid_line(list(self.buf[:n]))

    def step(self, move):
        self.turn += 1
        tile = -1 if move == "GROW" else INDEX[move]
        assert (rules.actor(self.turn) == rules.GROWTH) == (move == "GROW")
        return rules.take_turn(self.levels, self.dormant, self.turn, tile)

    def state(self):
        return [int(x) for x in self.levels], sorted(NAMES[t] for t in range(N_TILES) if self.dormant[t])


class BitboardEngine(NumbaEngine):
    """The search's bitboard core (`bots/volcanoes/search/bitboard.py`), seen through levels."""

    def __init__(self):
        super().__init__()
        self.board, self.scratch = bitboard.new_board(), bitboard.new_scratch()

    def lines(self, player):
        n = bitboard.legal_moves(self.board, player, self.buf)
        bitboard.to_levels(self.board, self.levels)
        return position_line(self.levels, player), valid_line(list(self.buf[:n]))

    def step(self, move):
        self.turn += 1
        return bitboard.step(self.board, self.turn, -1 if move == "GROW" else INDEX[move], self.scratch)

    def state(self):
        bitboard.to_levels(self.board, self.levels)
        return [int(x) for x in self.levels], sorted(NAMES[t] for t in range(N_TILES) if abs(self.levels[t]) == 4)


@pytest.mark.parametrize("engine_class", [ReferenceEngine, NumbaEngine, BitboardEngine])
def test_all_recorded_games_replay_exactly(conformance_games, engine_class):
    for game in conformance_games:
        engine = engine_class()
        recorded = {turn[0]: turn for turn in game["turns"]}
        moves = game["moves"].split()
        outcome = rules.ONGOING
        for number, move in enumerate(moves, 1):
            assert outcome == rules.ONGOING, f"game {game['game']} should have ended before turn {number}"
            if move != "GROW":
                _, mover, position, valid, played = recorded[number]
                player = rules.BLUE if mover == "blue" else rules.ORANGE
                assert rules.actor(number) == player
                assert engine.lines(player) == (position, valid), f"game {game['game']}, turn {number}"
                assert played == move
            outcome = engine.step(move)
        assert engine.state() == _final(game), f"game {game['game']}: final position"
        assert WINNERS.get(outcome) == game["winner"], f"game {game['game']}: winner"


def test_recorded_games_cover_the_hard_cases(conformance_games):
    """The data exercises chain eruptions, mixed-sign overflows and simultaneous connections."""
    draws = sum(game["winner"] == "draw" for game in conformance_games)
    assert draws > 10
    most_eruptions = 0
    for game in conformance_games[:200]:
        pos = reference.Position()
        for move in game["moves"].split():
            before = pos.copy()
            reference.grow(pos) if move == "GROW" else reference.play(pos, INDEX[move])
            erupted = sum(1 for t in range(N_TILES) if pos.dormant[t] and not before.dormant[t])
            most_eruptions = max(most_eruptions, erupted)
    assert most_eruptions >= 3  # some turn sets off several eruptions
