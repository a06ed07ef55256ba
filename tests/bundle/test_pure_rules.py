"""The pure-Python rules (what plays on CodinGame) agree with the 800 games recorded from
CodinGame's referee, turn by turn; so do their random playouts with the reference rules. (That they
agree with the reference on random games is the engine contract, tests/contracts/test_engine_contract.py.)"""

from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from bots.volcanoes.pure import rules as pure
from tests.bundle.positions import random_position_and_draws
from referee.volcanoes import reference
from referee.volcanoes.board import INDEX, N_TILES, NAMES
from referee.volcanoes.protocol import position_line, valid_line

WINNERS = {pure.BLUE_WINS: "blue", pure.ORANGE_WINS: "orange", pure.DRAW: "draw"}


def test_all_recorded_games_replay_exactly(conformance_games):
    for game in conformance_games:
        board = pure.new_board()
        recorded = {turn[0]: turn for turn in game["turns"]}
        outcome = pure.ONGOING
        for number, move in enumerate(game["moves"].split(), 1):
            assert outcome == pure.ONGOING, f"game {game['game']} should have ended before turn {number}"
            if move != "GROW":
                _, mover, position, valid, _ = recorded[number]
                player = pure.BLUE if mover == "blue" else pure.ORANGE
                assert pure.actor(number) == player
                lines = position_line(pure.to_levels(board), player), valid_line(pure.legal_moves(board, player))
                assert lines == (position, valid), f"game {game['game']}, turn {number}"
            else:
                assert pure.actor(number) == pure.GROWTH
            outcome = pure.take_turn(board, number - 1, -1 if move == "GROW" else INDEX[move])
        levels = game["final_levels"]
        levels = [int(x) for x in levels.split()] if isinstance(levels, str) else levels
        dormant = game["final_dormant"]
        dormant = dormant.split() if isinstance(dormant, str) else dormant
        assert pure.to_levels(board) == levels, f"game {game['game']}: final position"
        cut_short = outcome == pure.DRAW and not (pure.connects(board, pure.BLUE) and pure.connects(board, pure.ORANGE))
        if not cut_short:  # the eruption limit stops a turn before its last volcanoes go dormant
            top = sorted(NAMES[t] for t in range(N_TILES) if abs(levels[t]) == pure.MAX_LEVEL)
            assert top == sorted(dormant), f"game {game['game']}: dormant is not |level| == 4"
        assert WINNERS.get(outcome) == game["winner"], f"game {game['game']}: winner"


def _replay_playout_in_reference(board, turns_played, draws):
    """The outcome of a playout that took its candidate tiles from `draws`, by the reference rules:
    each move is the first drawn tile that is a legal move (what rejection sampling does)."""
    pos = reference.Position(pure.to_levels(board), _dormant_from(board), turns_played)
    draws = iter(draws)
    for turn in range(turns_played + 1, pure.MAX_TURNS + 1):
        who = reference.actor(turn)
        if who == reference.GROWTH:
            outcome = reference.grow(pos)
        else:
            legal = set(reference.legal_moves(pos, who))
            tile = next(t for t in draws if t in legal)
            outcome = reference.play(pos, tile)
        if outcome != reference.ONGOING:
            return outcome
    return reference.DRAW


def _dormant_from(board):
    return [abs(level) == 4 for level in pure.to_levels(board)]


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 40))
def test_random_playouts_play_exactly_by_the_rules(seed, opening_turns):
    """A playout from a random position, replayed in the reference with the same random draws,
    ends the same way (this checks the playout's inlined rules and union-find win checks)."""
    board, turns, bits, draws = random_position_and_draws(seed, opening_turns)
    before = bytes(board)
    outcome = pure.random_playout(board, turns, bits)
    assert bytes(board) == before, "a playout leaves its board alone"
    assert outcome == _replay_playout_in_reference(board, turns, draws)


def test_connects_agrees_with_the_reference(conformance_games):
    for game in conformance_games[:200]:
        levels = game["final_levels"]
        levels = [int(x) for x in levels.split()] if isinstance(levels, str) else levels
        board = pure.from_levels(levels)
        for player in (pure.BLUE, pure.ORANGE):
            assert pure.connects(board, player) == reference._connects(levels, player)


def test_boards_convert_both_ways():
    levels = [((t * 7) % 9) - 4 for t in range(N_TILES)]
    assert pure.to_levels(pure.from_levels(levels)) == levels
    assert pure.new_board() == pure.from_levels([0] * N_TILES)


def _random_positions(seed, count):
    """Positions from random games, late ones included (where wins in one placement appear)."""
    rng = Random(seed)
    positions = []
    while len(positions) < count:
        board, turns, outcome = pure.new_board(), 0, pure.ONGOING
        while outcome == pure.ONGOING and turns < pure.MAX_TURNS:
            who = pure.ACTORS[turns]
            moves = pure.legal_moves(board, who) if who else [-1]
            if not moves:
                break
            positions.append(bytes(board))
            outcome = pure.take_turn(board, turns, rng.choice(moves))
            turns += 1
    return positions


def test_winning_placements_agree_with_the_reference():
    """The bit-mask search for winning placements against the reference's connection test on each
    empty tile of random positions (a placement never erupts)."""
    found = 0
    for board in _random_positions(7, 2000)[::3]:
        levels = pure.to_levels(board)
        for player in (pure.BLUE, pure.ORANGE):
            expected = []
            for t in range(N_TILES):
                if levels[t] == 0:
                    after = list(levels)
                    after[t] = player
                    if reference._connects(after, player):
                        expected.append(t)
            assert pure.winning_placements(bytearray(board), player) == expected
            found += bool(expected)
    assert found > 10  # the positions did hold wins to find
