"""The bot interface, the CodinGame adapter's tracking, and the baseline bots."""

import io
import sys

import numpy as np
import pytest

from bots.volcanoes.base import NumbaBot
from bots.volcanoes.bot import Player
from bots.volcanoes.boss import EQUATOR_TILES, BossBot
from bots.volcanoes.greedy import GreedyBot
from bots.volcanoes.random import RandomBot
from bots.volcanoes.state import GameState
from referee.volcanoes import rules
from referee.volcanoes.board import INDEX, NAMES
from bots.volcanoes.seat import open_seat
from referee.volcanoes.match import Settings, play_game


class Scripted(NumbaBot):
    """Plays given moves and remembers what the adapter told it."""

    name = "scripted"

    def __init__(self, moves):
        self.moves = list(moves)
        self.seen = []

    def choose(self, state, budget):
        self.seen.append(state.copy())
        return INDEX[self.moves.pop(0)]


def _recorded_moves(game):
    moves = {"blue": [], "orange": []}
    for _, mover, _, _, move in game["turns"]:
        moves[mover].append(move)
    return moves


def test_adapter_tracks_seat_turn_and_opponent_moves_on_recorded_games(conformance_games):
    slow = Settings(turn_ms=5000, first_turn_ms=5000)
    for game in conformance_games[:60]:
        moves = _recorded_moves(game)
        bots = {colour: Scripted(moves[colour]) for colour in moves}
        seats = {colour: open_seat(bots[colour]) for colour in moves}
        result = play_game(seats["blue"], seats["orange"], seed=1, settings=slow)
        assert result.winner == game["winner"]
        for colour, seat in seats.items():
            assert seat.take_stderr() == "", f"game {game['game']}: {colour} complained"
        for colour, bot in bots.items():
            player = rules.BLUE if colour == "blue" else rules.ORANGE
            mine = moves[colour]
            for i, state in enumerate(bot.seen):
                assert state.player == player
                assert np.array_equal(state.dormant, np.abs(state.levels) == 4)
                if i == 0:
                    assert state.last_moves == ()
                    continue
                # Our previous move, then the turns the tracker inferred, give this position
                # (two orders of the opponent's moves can give the same one; either will do).
                before = bot.seen[i - 1]
                levels, dormant = before.levels.copy(), before.dormant.copy()
                rules.play(levels, dormant, player, INDEX[mine[i - 1]])
                turn = before.turns_played + 1
                for move in state.last_moves:
                    turn += 1
                    assert (move < 0) == (rules.actor(turn) == rules.GROWTH)
                    rules.take_turn(levels, dormant, turn, move)
                assert turn == state.turns_played
                assert np.array_equal(levels, state.levels)


def test_adapter_says_on_stderr_when_a_position_is_impossible():
    log = io.StringIO()
    player = Player(RandomBot(seed=1), log=log)
    zeros = ["0"] * 80
    from referee.volcanoes.board import init_block

    player.answer(init_block() + [" ".join(zeros), " ".join(NAMES)])
    # Whatever blue played, a board where nothing at all happened cannot follow.
    player.answer([" ".join(zeros), " ".join(NAMES)])
    assert "no legal sequence of turns leads to this position" in log.getvalue()


def test_boss_prefers_an_empty_equator_tile_then_the_highest_empty_tile():
    levels, dormant = rules.new_state()
    state = GameState(levels, dormant, 0)
    assert BossBot(seed=3).choose(state, 0.1) in set(EQUATOR_TILES.tolist())
    levels[EQUATOR_TILES] = -1
    assert BossBot(seed=3).choose(GameState(levels, dormant, 0), 0.1) == INDEX["S39"]


def test_greedy_takes_an_immediate_win(shortest_path):
    # Blue volcanoes on a shortest path from N01 to its antipode S01, but one tile: greedy must
    # fill exactly the gap.
    path = shortest_path(0, 40)
    levels, dormant = rules.new_state()
    levels[path] = 1
    gap = path[5]
    levels[gap] = 0
    state = GameState(levels, dormant, 0)
    assert GreedyBot(seed=0).choose(state, 0.1) == gap


def test_greedy_scores_each_move_by_the_plain_distances_after_it(conformance_games):
    """A win scores WIN, any other move the opponent's connection distance minus the mover's
    after it (BLOCKED for a player who can never connect), by the reference rules and Dijkstra."""
    from bots.volcanoes import greedy
    from referee.volcanoes import reference
    from tests.volcanoes.plain import board_of, connection

    def plain_score(pos, player, tile):
        after = pos.copy()
        outcome = reference.play(after, tile)
        if outcome == (reference.BLUE_WINS if player == reference.BLUE else reference.ORANGE_WINS):
            return greedy.WIN
        assert outcome == reference.ONGOING
        theirs, ours = connection(after.levels, -player)[0], connection(after.levels, player)[0]
        return (greedy.BLOCKED if theirs is None else theirs) - (greedy.BLOCKED if ours is None else ours)

    bot, checked = GreedyBot(seed=0), 0
    for game in conformance_games[:3]:
        pos = reference.Position()
        for move in game["moves"].split()[:-1]:  # each position before the last move is ongoing
            if move == "GROW":
                reference.grow(pos)
                continue
            player = pos.next_actor
            if pos.turns_played % 9 in (1, 4):  # a few positions of each game, either player to move
                moves = np.array(reference.legal_moves(pos, player))
                scores = np.empty(moves.size, dtype=np.int64)
                greedy.score_moves(board_of(pos.levels), player, moves, scores, bot.scratch, bot.rules_scratch)
                assert scores.tolist() == [plain_score(pos, player, int(t)) for t in moves]
                checked += 1
            reference.play(pos, INDEX[move])
    assert checked >= 6


@pytest.mark.parametrize("name", ["random", "boss", "greedy"])
def test_baselines_run_as_processes_through_the_referee(name, referee_game):
    game = referee_game(
        f"{sys.executable} -m bots.volcanoes.{name}", f"{sys.executable} -m bots.volcanoes.random", seed=5
    )
    assert game.result["reason"] in ("connection", "simultaneous", "eruptions"), game.result
    assert not game.complaints, f"a bot complained or crashed: {game.complaints}"
