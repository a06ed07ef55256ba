"""The alpha-beta bot: its hashing, its evaluation's distances, its search against plain minimax,
and its play (legal moves, wins, blocks, a game through the referee as a process)."""
import json
import subprocess
import sys

import numpy as np
import pytest

from bots.volcanoes.alphabeta import AlphaBetaBot
from referee.volcanoes.constants import MAX_TURNS
from bots.volcanoes.search.distance import BLOCKED, connection_distance
from bots.volcanoes.search import evaluate as evaluation
from bots.volcanoes.search.evaluate import WEIGHTS, distance, evaluate, new_scratch
from bots.volcanoes.search.ordering import new_layers, routes_through
from bots.volcanoes.search.minimax import (INFINITY, NODE_LIMIT, Workspace, search_root,
                                           terminal_value)
from bots.volcanoes.search.zobrist import update_hash, zobrist_hash
from bots.volcanoes.state import GameState
from referee.volcanoes import rules
from referee.volcanoes.board import NEIGHBOURS


def _random_positions(n_games, seed, every=1):
    """(levels, dormant, turns_played) after each turn of random games, the finished ones left out."""
    rng = np.random.default_rng(seed)
    moves = np.empty(80, dtype=np.int64)
    for _ in range(n_games):
        levels, dormant = rules.new_state()
        turn = 0
        while True:
            turn += 1
            who = rules.actor(turn)
            if who == rules.GROWTH:
                result = rules.grow(levels, dormant)
            else:
                n = rules.legal_moves(levels, dormant, who, moves)
                result = rules.play(levels, dormant, who, moves[rng.integers(n)])
            if result != rules.ONGOING:
                break
            if turn % every == 0:
                yield levels.copy(), dormant.copy(), turn


def _player_turn(levels, dormant, turns):
    """The position moved on to the next player's turn (through a growth if one is due)."""
    if rules.actor(turns + 1) == rules.GROWTH:
        if rules.grow(levels, dormant) != rules.ONGOING:
            return None
        turns += 1
    return levels, dormant, turns


def test_incremental_zobrist_hash_equals_the_hash_from_scratch():
    rng = np.random.default_rng(3)
    moves = np.empty(80, dtype=np.int64)
    for _ in range(20):
        levels, dormant = rules.new_state()
        h = zobrist_hash(levels, 0)
        for turn in range(1, MAX_TURNS + 1):
            before = levels.copy()
            who = rules.actor(turn)
            if who == rules.GROWTH:
                result = rules.grow(levels, dormant)
            else:
                n = rules.legal_moves(levels, dormant, who, moves)
                result = rules.play(levels, dormant, who, moves[rng.integers(n)])
            h = update_hash(np.uint64(h), before, levels, turn - 1)  # keys are unsigned
            assert h == zobrist_hash(levels, turn)
            if result != rules.ONGOING:
                break


def test_hash_tells_apart_positions_and_turns():
    levels, _ = rules.new_state()
    other = levels.copy()
    other[7] = -2
    assert zobrist_hash(levels, 3) != zobrist_hash(other, 3)
    assert zobrist_hash(levels, 3) != zobrist_hash(levels, 4)


def test_fast_distance_equals_the_plain_connection_distance():
    scratch = new_scratch()
    for levels, _, _ in _random_positions(40, seed=11):
        for player in (rules.BLUE, rules.ORANGE):
            expected = connection_distance(levels, player)
            found, routes = distance(levels, player, scratch, 99)
            assert found == (99 if expected == BLOCKED else expected)
            assert (routes > 0) == (expected != BLOCKED)
            assert distance(levels, player, scratch, 3)[0] == min(expected, 3)


def _cheapest(levels, player, source):
    """Dijkstra from `source`: the empty tiles (counting both ends) to each tile, None if blocked."""
    import heapq

    if levels[source] * player < 0:
        return [None] * 80
    cost = [None] * 80
    cost[source] = 0 if levels[source] * player > 0 else 1
    heap = [(cost[source], source)]
    while heap:
        c, t = heapq.heappop(heap)
        if c > cost[t]:
            continue
        for n in NEIGHBOURS[t]:
            if levels[n] * player < 0:
                continue
            step = c + (0 if levels[n] * player > 0 else 1)
            if cost[n] is None or step < cost[n]:
                cost[n] = step
                heapq.heappush(heap, (step, n))
    return cost


def test_routes_through_counts_the_pairs_with_a_cheapest_route_through_each_tile():
    scratch, layers = new_scratch(), new_layers()
    for levels, _, _ in _random_positions(6, seed=2, every=4):
        for player in (rules.BLUE, rules.ORANGE):
            best = distance(levels, player, scratch, 99)[0]
            expected = np.zeros(80, dtype=np.int64)
            if 0 < best < 12:
                for k in range(40):
                    there, back = _cheapest(levels, player, k), _cheapest(levels, player, k + 40)
                    if there[k + 40] != best:
                        continue
                    for t in range(80):
                        if levels[t] == 0 and there[t] is not None and back[t] is not None:
                            expected[t] += there[t] + back[t] - 1 == best
            found = np.zeros(80, dtype=np.int64)
            routes_through(levels, player, scratch, layers, found)
            assert np.array_equal(found, expected)


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
        return int(evaluate(levels, turns, ply, scratch, WEIGHTS))
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
    work.levels[0], work.dormant[0] = levels, dormant
    moves = np.empty(80, dtype=np.int64)
    moves = moves[: rules.legal_moves(levels, dormant, rules.actor(turns + 1), moves)]
    values = np.zeros(moves.size, dtype=np.int64)
    for d in range(1, depth + 1):
        work.stats[:] = 0
        work.stats[NODE_LIMIT] = 1 << 40
        done = search_root(*work.arrays(), turns, d, moves, values, 0, -INFINITY, INFINITY,
                           MAX_TURNS)
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


def test_runs_as_a_process_through_the_referee(tmp_path):
    # Generous limits: this checks the process loop and the tracking, not the machine's speed.
    replay = tmp_path / "replay.json"
    out = subprocess.run(
        [sys.executable, "-m", "referee.cli", "volcanoes", "play",
         f"{sys.executable} -m bots.volcanoes.alphabeta", f"{sys.executable} -m bots.volcanoes.random",
         "--seed", "4", "--first-turn-ms", "10000", "--turn-ms", "1000", "--json", "--replay", str(replay)],
        capture_output=True, text=True, timeout=180, check=True,
    )
    result = json.loads(out.stdout)
    assert result["winner"] == "blue" and result["reason"] == "connection", result
    log = json.loads(replay.read_text())["turn_log"]
    assert all(turn["stderr"] == "" for turn in log), "a bot complained or crashed"
    # The bot keeps to its own 100 ms clock, not the referee's generous one (with room for load).
    later_turns = [turn["time_ms"] for turn in log if turn["actor"] == "blue"][1:]
    assert later_turns and max(later_turns) < 1000
