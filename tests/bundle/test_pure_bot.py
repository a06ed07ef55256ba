"""The pure-Python adapter and MCTS: seat, turn and dormancy tracking on the referee's own lines,
legal answers through whole games, a win in one found, the tree kept between turns."""

import time

import pytest

from bots.volcanoes.bot import Bot, Player
from bots.volcanoes.pure import rules as pure
from bots.volcanoes.pure.bench import playouts_per_second
from bots.volcanoes.pure.mcts import MCTSBot
from bots.volcanoes.random import RandomBot
from bots.volcanoes.seat import open_seat
from referee.volcanoes.board import INDEX, init_block
from referee.platform.limits import Limits
from referee.volcanoes.match import Settings, play_game
from referee.volcanoes.protocol import position_line, valid_line

RELAXED = Settings(turn_ms=10_000, first_turn_ms=10_000)  # protocol here, not timing


class Scripted(Bot):
    """Plays a recorded game's moves and notes what the adapter tells it."""

    def __init__(self, moves):
        self.moves = moves
        self.seen = []
        self.colours = []

    def start(self, colour):
        self.colours.append(colour)

    def choose(self, state, budget):
        self.seen.append((state.turns_played, bytes(pure.from_levels(state.levels))))
        return INDEX[self.moves[state.turns_played]]


def test_the_adapter_tracks_seat_turn_and_dormancy_on_recorded_games(conformance_games):
    for game in conformance_games[:100]:
        moves = game["moves"].split()
        for colour, name in ((pure.BLUE, "blue"), (pure.ORANGE, "orange")):
            bot = Scripted(moves)
            player = Player(bot)
            board, expected = pure.new_board(), []
            first = True
            for number, move in enumerate(moves, 1):
                if pure.actor(number) == colour:
                    expected.append((number - 1, bytes(board)))
                    lines = (init_block() if first else []) + [
                        position_line(pure.to_levels(board), colour),
                        valid_line(pure.legal_moves(board, colour)),
                    ]
                    assert player.answer(lines) == move
                    first = False
                pure.take_turn(board, number - 1, -1 if move == "GROW" else INDEX[move])
            assert bot.colours == [colour], f"game {game['game']}: {name}'s seat"
            assert bot.seen == expected, f"game {game['game']}: {name}'s turns or position"


@pytest.mark.parametrize("seat", [0, 1])
def test_mcts_plays_whole_games_through_the_referee(seat):
    me = open_seat(MCTSBot(seed=seat), Limits(turn_ms=7, first_turn_ms=70))  # a few ms a turn; the clock relaxed
    other = open_seat(RandomBot(seed=seat))
    blue, orange = (me, other) if seat == 0 else (other, me)
    result = play_game(blue, orange, seed=seat, settings=RELAXED)
    assert result.reason in ("connection", "simultaneous", "eruptions", "max-turns"), result.detail


def _position_before_a_winning_move(conformance_games):
    """A recorded position where the mover's next move joins a tile to its antipode."""
    for game in conformance_games:
        if game["winner"] == "draw":
            continue
        moves = game["moves"].split()
        board = pure.new_board()
        for number, move in enumerate(moves[:-1], 1):
            pure.take_turn(board, number - 1, -1 if move == "GROW" else INDEX[move])
        if moves[-1] != "GROW":
            return board, len(moves) - 1
    raise AssertionError("no game ends with a winning move")


def test_mcts_takes_a_win_in_one(conformance_games):
    board, turns = _position_before_a_winning_move(conformance_games)
    mover = pure.ACTORS[turns]
    bot = MCTSBot(seed=1)
    tile = bot.best_move(bytearray(board), turns, time.perf_counter() + 0.3)
    after = bytearray(board)
    assert pure.play(after, mover, tile) == (pure.BLUE_WINS if mover == pure.BLUE else pure.ORANGE_WINS)


def test_mcts_keeps_its_tree_between_turns():
    """Blue plays turn 5, growth, then turn 7: its next position is a node of the last search."""
    board = pure.new_board()
    for turns, tile in enumerate([0, 40, -1, 41]):
        pure.take_turn(board, turns, tile)
    bot = MCTSBot(seed=2)
    bot.start(pure.BLUE)
    bot.best_move(board, 4, time.perf_counter() + 0.1)
    kept = bot.root
    assert kept.turns == 6 and kept.visits > 0
    bot.best_move(bytearray(kept.board), 6, time.perf_counter() + 0.05)
    assert bot.root in kept.tried, "the search went on from the kept node"


def test_mcts_answers_within_its_deadline():
    bot = MCTSBot(seed=3)
    started = time.perf_counter()
    bot.best_move(pure.new_board(), 0, started + 0.05)
    assert bot.iterations > 0
    assert time.perf_counter() - started < 0.5  # generous: the machine is shared


def test_playouts_per_second_is_measured():
    assert playouts_per_second(0.2) > 0
    with pytest.raises(ValueError):
        playouts_per_second(0)


def _position_with_one_threat():
    """A random game's position where the opponent moves next and has exactly one winning
    placement, and the mover has none (and no volcano about to erupt)."""
    from random import Random

    rng = Random(11)
    while True:
        board, turns, outcome = pure.new_board(), 0, pure.ONGOING
        while outcome == pure.ONGOING and turns < pure.MAX_TURNS - 1:
            mover = pure.ACTORS[turns]
            if mover and pure.ACTORS[turns + 1] == -mover:
                threats = pure.winning_placements(board, -mover)
                top = pure.BLUE_TOP - 1 if mover > 0 else pure.ORANGE_TOP + 1
                if len(threats) == 1 and not pure.winning_placements(board, mover) and top not in board:
                    return board, turns, threats[0]
            moves = pure.legal_moves(board, mover) if mover else [-1]
            if not moves:
                break
            outcome = pure.take_turn(board, turns, rng.choice(moves))
            turns += 1


def test_mcts_blocks_the_opponents_win_in_one():
    board, turns, threat = _position_with_one_threat()
    bot = MCTSBot(seed=4, iterations=30)
    bot.start(pure.ACTORS[turns])
    assert bot.best_move(bytearray(board), turns, 0.0) == threat


def _wins_in_one(board, mover):
    """Whether some move of `mover` wins at once (a placement, or an eruption that connects)."""
    won = pure.BLUE_WINS if mover > 0 else pure.ORANGE_WINS
    return any(pure.play(bytearray(board), mover, t) == won for t in pure.legal_moves(board, mover))


def _positions_with_a_win_in_two(count):
    """Random games' positions where the mover cannot win at once but moves again after the growth
    turn, and some move leaves it a win then: a win the opponent cannot stop."""
    from random import Random

    rng = Random(12)
    found = []
    while len(found) < count:
        board, turns, outcome = pure.new_board(), 0, pure.ONGOING
        while outcome == pure.ONGOING and turns < pure.MAX_TURNS - 2:
            mover = pure.ACTORS[turns]
            if mover and pure.ACTORS[turns + 2] == mover and not _wins_in_one(board, mover):
                winning = []
                for tile in pure.legal_moves(board, mover):
                    after = bytearray(board)
                    if (
                        pure.play(after, mover, tile) == pure.ONGOING
                        and pure.grow(after) == pure.ONGOING
                        and _wins_in_one(after, mover)
                    ):
                        winning.append(tile)
                if winning:
                    found.append((bytes(board), turns, winning))
                    break
            moves = pure.legal_moves(board, mover) if mover else [-1]
            if not moves:
                break
            outcome = pure.take_turn(board, turns, rng.choice(moves))
            turns += 1
    return found


def test_the_solver_proves_a_win_in_two_and_plays_a_proven_win():
    """Each player moves on both sides of a growth turn (blue 5 and 7, orange 2 and 4). From
    positions where two moves in a row win, the solver proves the root won, and the move it plays
    is one of those or a win it proved deeper (after an eruption, say)."""
    for board, turns, winning in _positions_with_a_win_in_two(5):
        won = pure.BLUE_WINS if pure.ACTORS[turns] > 0 else pure.ORANGE_WINS
        # (tactics off: the look at the root would play these wins without a search; the last
        # position's proof takes 591 of the iterations)
        bot = MCTSBot(seed=5, iterations=800, tactics=0)
        bot.start(pure.ACTORS[turns])
        tile = bot.best_move(bytearray(board), turns, 0.0)
        assert bot._searched.proof == won
        assert tile in winning or bot._searched.children[tile].proof == won


def _searched_tree(iterations=600):
    """The root of a search from a few moves into a game, and every node below it."""
    board = pure.new_board()
    for turns, tile in enumerate([0, 40, -1, 41, 5, -1]):
        pure.take_turn(board, turns, tile)
    bot = MCTSBot(seed=4, iterations=iterations)
    bot.start(pure.BLUE)
    bot.best_move(board, 6, 0.0)
    nodes, stack = [], [bot._searched]
    while stack:
        node = stack.pop()
        nodes.append(node)
        stack.extend(node.tried)
    return bot, nodes


def test_mcts_expands_a_node_on_its_second_visit():
    """A leaf visited once has only its board (its playout needs no more); a node visited again
    has its moves and their statistics."""
    _, nodes = _searched_tree()
    ongoing = [node for node in nodes if node.proof == pure.ONGOING]
    leaves = [node for node in ongoing if node.visits == 1]
    inner = [node for node in ongoing if node.visits >= 2]
    assert leaves and inner
    assert all(node.moves is None and not node.tried for node in leaves)
    assert all(node.moves and len(node.amaf_visits) == pure.N_TILES for node in inner)


def test_mcts_selects_the_move_of_best_value():
    """`_select` keeps the untried moves' best by its AMAF mean alone; it still picks a move whose
    blend of own and AMAF means plus exploration is the highest, each move valued in full."""
    from math import log, sqrt

    bot, nodes = _searched_tree()
    checked = 0
    for node in nodes:
        if node.moves is None or node.proof != pure.ONGOING or len(node.moves) < 2:
            continue
        scale = bot.exploration * sqrt(log(node.visits + 1))
        lost = pure.ORANGE_WINS if pure.ACTORS[node.turns] == pure.BLUE else pure.BLUE_WINS
        values = {}
        for move in node.moves:
            rn = node.amaf_visits[move]
            rq = node.amaf_wins[move] / rn
            child = node.children[move]
            if child is None:
                values[move] = rq + scale
            elif child.proof != lost:
                n, q = child.visits, child.wins / child.visits
                beta = rn / (rn + n + bot.rave_bias * rn * n)
                values[move] = q + beta * (rq - q) + scale / sqrt(n)
        assert values[bot._select(node)] == pytest.approx(max(values.values()), abs=1e-12)
        checked += 1
    assert checked >= 20


def test_the_prior_values_a_lone_raise_as_a_tile_alone():
    """Raising an own volcano that no enemy touches gets the lone-raise mean; one touching an
    enemy, and a placement next to an own piece, the near-own mean; in either player's view."""
    from bots.volcanoes.pure.mcts import _prior

    for mover in (pure.BLUE, pure.ORANGE):
        board = pure.new_board()
        lone, contact = 0, 40
        enemy = pure._NB[contact][0]
        board[lone] = pure.EMPTY + 2 * mover
        board[contact] = pure.EMPTY + mover  # (raised to level 2 only: no eruption, not a strike)
        board[enemy] = pure.EMPTY - mover
        beside = next(n for n in pure._NB[lone] if board[n] == pure.EMPTY)
        far = next(t for t in pure.TILES if board[t] == pure.EMPTY and all(board[n] == pure.EMPTY for n in pure._NB[t]))
        bot = MCTSBot(prior=10, prior_own=0.6, prior_enemy=0.5, prior_alone=0.4, prior_raise=0.3)
        visits, wins = [0] * pure.N_TILES, [0.0] * pure.N_TILES
        moves = [lone, contact, beside, far]
        _prior(board, mover, moves, bot.prior, visits, wins)
        assert [visits[t] for t in moves] == [10] * 4
        assert [wins[t] / 10 for t in moves] == pytest.approx([0.3, 0.6, 0.6, 0.4])


def test_the_prior_values_a_tile_that_an_own_eruption_will_take_as_beside_erupting():
    """An empty tile whose own neighbours all erupt at the next growth (level 3) gets the
    beside-erupting mean; one beside a lower own volcano, the near-own mean."""
    from bots.volcanoes.pure.mcts import _prior

    for mover in (pure.BLUE, pure.ORANGE):
        board = pure.new_board()
        erupting, low = 0, 40
        board[erupting] = pure.EMPTY + 3 * mover
        board[low] = pure.EMPTY + 2 * mover
        taken = next(n for n in pure._NB[erupting] if all(board[m] == pure.EMPTY for m in pure._NB[n] if m != erupting))
        beside_low = next(n for n in pure._NB[low] if board[n] == pure.EMPTY)
        bot = MCTSBot(prior=10, prior_own=0.6, prior_erupting=0.3)
        visits, wins = [0] * pure.N_TILES, [0.0] * pure.N_TILES
        _prior(board, mover, [taken, beside_low], bot.prior, visits, wins)
        assert [wins[t] / 10 for t in (taken, beside_low)] == pytest.approx([0.3, 0.6])


def test_the_prior_values_a_raise_that_erupts_beside_an_enemy_as_a_strike():
    """Raising an own volcano that touches an enemy to level 3 or 4 (it erupts, at the next growth
    or at once) gets the strike mean; raising it from level 1, the near-own mean."""
    from bots.volcanoes.pure.mcts import _prior

    for mover in (pure.BLUE, pure.ORANGE):
        board = pure.new_board()
        volcanoes = {0: 1, 40: 2, 20: 3}  # tile: level
        for tile, level in volcanoes.items():
            board[tile] = pure.EMPTY + level * mover
            board[pure._NB[tile][0]] = pure.EMPTY - mover
        bot = MCTSBot(prior=10, prior_own=0.6, prior_strike=0.8)
        visits, wins = [0] * pure.N_TILES, [0.0] * pure.N_TILES
        _prior(board, mover, list(volcanoes), bot.prior, visits, wins)
        assert [wins[t] / 10 for t in volcanoes] == pytest.approx([0.6, 0.8, 0.8])
