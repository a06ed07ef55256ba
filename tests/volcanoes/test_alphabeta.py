"""The alpha-beta bot: its hashing, its evaluation and distances (on the bitboard core) against
plain-Python oracles (tests/volcanoes/plain.py), its search against plain minimax, and its play
(legal moves, wins, blocks, a game through the referee as a process)."""

import subprocess
import sys
from types import SimpleNamespace

import numpy as np
import pytest

from bots.volcanoes.alphabeta import AlphaBetaBot
from bots.volcanoes.search import evaluate as evaluation
from bots.volcanoes.search.distance import BLOCKED, connection_distance, distance
from bots.volcanoes.search.evaluate import WEIGHTS, evaluate, new_scratch
from bots.volcanoes.search.minimax import INFINITY, NODE_LIMIT, Workspace, search_root, terminal_value
from bots.volcanoes.search.ordering import ROUTE_CAP, new_layers, routes_through
from bots.volcanoes.search.zobrist import LEVEL_KEYS, TURN_KEYS, update_hash, zobrist_hash
from bots.volcanoes.state import GameState
from referee.volcanoes import rules
from referee.volcanoes.constants import MAX_TURNS
from tests.volcanoes import plain
from tests.volcanoes.plain import board_of


def _random_positions(n_games, seed, every=1):
    """(levels, dormant, turns_played) after each turn of random games, the finished ones left out."""
    rng = np.random.default_rng(seed)
    moves = np.empty(80, dtype=np.int64)
    for _ in range(n_games):
        levels, dormant = rules.new_state()
        turn = 0
        while True:
            turn += 1
            result = _random_turn(levels, dormant, turn, rng, moves)
            if result != rules.ONGOING:
                break
            if turn % every == 0:
                yield levels.copy(), dormant.copy(), turn


def _random_turn(levels, dormant, turn, rng, moves):
    """Play turn `turn` (1-based) of a random game in place, the growth or a uniformly random move;
    return the outcome."""
    who = rules.actor(turn)
    if who == rules.GROWTH:
        return rules.grow(levels, dormant)
    n = rules.legal_moves(levels, dormant, who, moves)
    return rules.play(levels, dormant, who, moves[rng.integers(n)])


def _player_turn(levels, dormant, turns):
    """The position moved on to the next player's turn (through a growth if one is due)."""
    if rules.actor(turns + 1) == rules.GROWTH:
        if rules.grow(levels, dormant) != rules.ONGOING:
            return None
        turns += 1
    return levels, dormant, turns


def _plain_hash(levels, turns):
    h = int(TURN_KEYS[turns])
    for t, level in enumerate(levels):
        h ^= int(LEVEL_KEYS[t, level + 4])
    return h


def test_incremental_zobrist_hash_equals_the_hash_from_scratch():
    rng = np.random.default_rng(3)
    moves = np.empty(80, dtype=np.int64)
    for _ in range(20):
        levels, dormant = rules.new_state()
        board = board_of(levels)
        h = zobrist_hash(board, 0)
        for turn in range(1, MAX_TURNS + 1):
            result = _random_turn(levels, dormant, turn, rng, moves)
            before, board = board, board_of(levels)
            h = update_hash(np.uint64(h), before, board, turn - 1)  # keys are unsigned
            assert h == zobrist_hash(board, turn) == _plain_hash(levels, turn)
            if result != rules.ONGOING:
                break


def test_hash_tells_apart_positions_and_turns():
    levels, _ = rules.new_state()
    other = levels.copy()
    other[7] = -2
    assert zobrist_hash(board_of(levels), 3) != zobrist_hash(board_of(other), 3)
    assert zobrist_hash(board_of(levels), 3) != zobrist_hash(board_of(levels), 4)


def _crowded_boards(n, seed):
    """Random boards from empty to full (any levels, a random share of empty tiles): groups of
    every size, blocked players, connected ones."""
    rng = np.random.default_rng(seed)
    for _ in range(n):
        levels = rng.integers(-4, 5, 80).astype(np.int8)
        levels[rng.random(80) < rng.random()] = 0
        yield levels


def test_distances_are_the_fewest_empty_tiles_to_connect_and_count_the_routes():
    scratch = new_scratch()
    positions = [levels for levels, _, _ in _random_positions(20, seed=11, every=3)]
    for levels in positions + list(_crowded_boards(150, seed=12)):
        board = board_of(levels)
        for player in (rules.BLUE, rules.ORANGE):
            expected, routes = plain.connection(levels, player)
            assert distance(board, player, scratch, 99) == ((99, 0) if expected is None else (expected, routes))
            assert distance(board, player, scratch, 3) == plain.capped(levels, player, 3)
            assert connection_distance(board, player, scratch) == (BLOCKED if expected is None else expected)


def test_routes_through_counts_the_pairs_with_a_cheapest_route_through_each_tile():
    scratch, layers = new_scratch(), new_layers()
    for levels, _, _ in _random_positions(6, seed=2, every=4):
        for player in (rules.BLUE, rules.ORANGE):
            best = plain.capped(levels, player, 99)[0]
            expected = np.zeros(80, dtype=np.int64)
            if 0 < best < ROUTE_CAP:
                for k in range(40):
                    there, back = plain.cheapest(levels, player, k), plain.cheapest(levels, player, k + 40)
                    if there[k + 40] != best:
                        continue
                    for t in range(80):
                        if levels[t] == 0 and there[t] is not None and back[t] is not None:
                            expected[t] += there[t] + back[t] - 1 == best
            found = np.zeros(80, dtype=np.int64)
            routes_through(board_of(levels), player, scratch, layers, found)
            assert np.array_equal(found, expected)


def test_evaluation_equals_the_plain_evaluation():
    """Positions of random games and crowded boards (coming eruptions, near wins, blocked
    players), each with a player to move."""
    scratch = new_scratch()
    positions = [
        (levels, turns)
        for levels, _, turns in _random_positions(30, seed=7, every=2)
        if rules.actor(turns + 1) != rules.GROWTH
    ]
    positions += [(levels, turn) for levels, turn in zip(_crowded_boards(60, seed=8), [0, 1, 3, 4] * 15, strict=True)]
    for levels, turns in positions:
        for ply in (0, 3):
            assert evaluate(board_of(levels), turns, ply, scratch, WEIGHTS) == plain.evaluate(levels, turns, ply)


def _minimax(levels, dormant, turns, depth, ply, scratch):
    """Plain minimax, no pruning and no table, over the same turn order and evaluation."""
    if turns >= MAX_TURNS:
        return 0
    who = rules.actor(turns + 1)
    if who == rules.GROWTH:
        levels, dormant = levels.copy(), dormant.copy()
        result = rules.grow(levels, dormant)
        if result != rules.ONGOING:
            return int(terminal_value(result, ply + 1))
        return _minimax(levels, dormant, turns + 1, depth, ply + 1, scratch)
    if depth == 0:
        return int(evaluate(board_of(levels), turns, ply, scratch, WEIGHTS))
    moves = np.empty(80, dtype=np.int64)
    values = []
    for move in moves[: rules.legal_moves(levels, dormant, who, moves)]:
        after, after_dormant = levels.copy(), dormant.copy()
        result = rules.play(after, after_dormant, who, move)
        if result != rules.ONGOING:
            values.append(int(terminal_value(result, ply + 1)))
        else:
            values.append(_minimax(after, after_dormant, turns + 1, depth - 1, ply + 1, scratch))
    return max(values) if who == rules.BLUE else min(values)


def _alphabeta_value(work, levels, dormant, turns, depth):
    """The root value of the bot's search: iterative deepening to `depth` in one workspace, so
    that later depths read what earlier ones stored in the table."""
    moves = np.empty(80, dtype=np.int64)
    moves = moves[: rules.legal_moves(levels, dormant, rules.actor(turns + 1), moves)]
    values = np.zeros(moves.size, dtype=np.int64)
    for d in range(1, depth + 1):
        work.boards[0] = board_of(levels)
        work.stats[:] = 0
        work.stats[NODE_LIMIT] = 1 << 40
        done = search_root(*work.arrays(), turns, d, moves, values, 0, -INFINITY, INFINITY, MAX_TURNS)
        assert done == moves.size
    return int(values.max() if rules.actor(turns + 1) == rules.BLUE else values.min())


@pytest.mark.parametrize("depth, every, limit", [(2, 7, 8), (3, 29, 3)])
def test_search_with_table_finds_the_plain_minimax_value(depth, every, limit):
    scratch = new_scratch()
    checked = 0
    for levels, dormant, turns in _random_positions(30, seed=5, every=every):
        position = _player_turn(levels, dormant, turns)
        if position is None:
            continue
        levels, dormant, turns = position
        expected = _minimax(levels, dormant, turns, depth, 0, scratch)
        work = Workspace(tt_bits=12)  # small: collisions must be harmless too
        work.weights[evaluation.QUIET_MOVES] = 0  # no forward pruning: the value must be exact
        assert _alphabeta_value(work, levels, dormant, turns, depth) == expected
        # A second search in the same table (every node a hit) agrees as well.
        assert _alphabeta_value(work, levels, dormant, turns, depth) == expected
        checked += 1
        if checked == limit:
            break
    assert checked == limit


@pytest.fixture(scope="module")
def bot():
    bot = AlphaBetaBot(seed=1)
    bot.warm_up()
    return bot


@pytest.mark.parametrize("turns, missing", [(0, 3), (4, 6)])
def test_takes_an_immediate_win(bot, turns, missing, shortest_path):
    # Blue volcanoes on a shortest path from N01 to S01, one tile left empty.
    path = shortest_path(0, 40)
    levels, dormant = rules.new_state()
    levels[path] = 1
    levels[path[missing]] = 0
    bot.start(rules.BLUE)
    move = bot.choose(GameState(levels, dormant, turns), 0.05)
    after, after_dormant = levels.copy(), dormant.copy()
    assert rules.play(after, after_dormant, rules.BLUE, move) == rules.BLUE_WINS


def test_blocks_the_only_gap_in_the_opponents_chain(bot, shortest_path):
    # Orange is one tile from a chain N05..S05; blue, to move just before orange, must fill it.
    path = shortest_path(4, 44)
    levels, dormant = rules.new_state()
    levels[path] = -1
    gap = path[len(path) // 2]
    levels[gap] = 0
    bot.start(rules.BLUE)
    assert bot.choose(GameState(levels, dormant, 0), 0.05) == gap


def test_runs_as_a_process_through_the_referee(referee_game):
    # Generous limits: this checks the process loop and the tracking, not the machine's speed.
    game = referee_game(
        f"{sys.executable} -m bots.volcanoes.alphabeta", f"{sys.executable} -m bots.volcanoes.random", seed=4
    )
    # The game ends by the rules, not by a forfeit (an answer the tracking got wrong is an invalid
    # move). Who wins is not asked: the search's depth in 100 ms depends on the machine's load, and
    # one busy run drew by a simultaneous connection.
    assert game.result["reason"] in ("connection", "simultaneous", "eruptions"), game.result
    assert not game.complaints, f"a bot complained or crashed: {game.complaints}"
    # The bot keeps to its own 100 ms clock, not the referee's generous one (with room for load).
    later_turns = [turn["time_ms"] for turn in game.turn_log if turn["actor"] == "blue"][1:]
    assert later_turns and max(later_turns) < 1000


def test_node_rate_holds_when_slices_are_short_and_the_cpu_is_lost_now_and_then(monkeypatch):
    """The bot sizes its slices by the node rate it measures. On a fake clock where a node costs
    3 us and one slice in ten loses the CPU for 15 ms, the estimate ends the turn near the true
    rate over the turn (two thirds of 333,000 nodes a second); timed slice by slice, only the slow
    slices were long enough to count, and it fell below 10,000 within a turn."""
    from bots.volcanoes import alphabeta
    from bots.volcanoes.search.minimax import NODES

    clock, slices = [0.0], [0]
    search = alphabeta.search_root

    def timed_search(*args):
        done = search(*args)
        slices[0] += 1
        clock[0] += 3e-6 * int(args[8][NODES]) + (0.015 if slices[0] % 10 == 0 else 0.0)  # args[8]: stats
        return done

    def perf_counter():
        clock[0] += 1e-6
        return clock[0]

    monkeypatch.setattr(alphabeta, "search_root", timed_search)
    monkeypatch.setattr(alphabeta, "time", SimpleNamespace(perf_counter=perf_counter))
    bot = AlphaBetaBot(seed=1)
    bot.first_turn = False
    levels, dormant, turns = next(p for p in _random_positions(1, seed=9) if p[2] == 7)
    bot.choose(GameState(levels, dormant, turns), 1.0)
    assert slices[0] > 50
    assert 100_000 < bot.nodes_per_second < 400_000


def test_warm_up_loads_the_search_whatever_the_clock():
    """In a fresh process whose clock jumps 10 ms at every reading, so that a turn's deadline has
    passed before its first slice, `warm_up` still loads the search kernel (it searched one
    slice of a turn, and a busy machine could leave it to load inside the first timed turn)."""
    script = (
        "import itertools, types\n"
        "from bots.volcanoes import alphabeta\n"
        "from bots.volcanoes.search import minimax\n"
        "ticks = itertools.count()\n"
        "alphabeta.time = types.SimpleNamespace(perf_counter=lambda: 0.01 * next(ticks))\n"
        "alphabeta.AlphaBetaBot(seed=1).warm_up()\n"
        "print(len(minimax.search_root.signatures))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True)
    assert out.stdout.split() == ["1"]
