"""The tree-search bots: immediate wins, the solver's proofs, and whole games as
processes through the referee (legal moves within the budget: tests/contracts/test_bot_contract.py)."""
import sys
from collections import deque

import numpy as np
import pytest

from bots.volcanoes.mcts import MctsBot
from bots.volcanoes.search import bitboard, playout, tree
from bots.volcanoes.state import GameState
from bots.volcanoes.uct import UctBot
from referee.process import BotProcess
from referee.volcanoes import rules
from referee.volcanoes.board import NEIGHBOURS
from referee.volcanoes.match import Settings, play_game

BOTS = [UctBot, MctsBot]


@pytest.fixture(scope="module", autouse=True)
def compiled():
    """Compile (or load) every kernel once, and fill numba's cache for the process tests."""
    for bot_class in BOTS:
        bot_class().warm_up()


def shortest_path(source, target, avoid=()):
    """Tiles of a shortest path on the board from `source` to `target` not using `avoid`."""
    previous = {source: None}
    queue = deque([source])
    while queue:
        tile = queue.popleft()
        for n in NEIGHBOURS[tile]:
            n = int(n)
            if n not in previous and n not in avoid:
                previous[n] = tile
                queue.append(n)
    path = [target]
    while previous[path[-1]] is not None:
        path.append(previous[path[-1]])
    return path[::-1]


def chain_with_gaps():
    """Blue level-1 volcanoes joining N01 to S01 but for one tile `gap`, plus a detour around
    `gap` missing one other tile `detour_gap`: two ways to finish the chain."""
    path = shortest_path(0, 40)
    gap = path[len(path) // 2]
    before, after = path[len(path) // 2 - 1], path[len(path) // 2 + 1]
    detour = shortest_path(before, after, avoid=set(path) - {before, after})
    detour_gap = detour[len(detour) // 2]
    levels, dormant = rules.new_state()
    for tile in path + detour:
        levels[tile] = 1
    levels[gap] = levels[detour_gap] = 0
    assert not rules.connects(levels, rules.BLUE)
    return levels, dormant, gap, detour_gap


def orange_chain_with_gap(levels):
    """Orange level-1 volcanoes joining some tile to its antipode but for one tile, avoiding
    blue's volcanoes and blue's gaps; returns orange's gap."""
    taken = set(np.flatnonzero(levels).tolist())
    paths = []
    for k in range(40):
        if k not in taken and k + 40 not in taken:
            paths.append(shortest_path(k, k + 40, avoid=taken))
    path = min(paths, key=len)
    for tile in path:
        levels[tile] = -1
    gap = path[len(path) // 2]
    levels[gap] = 0
    return gap


@pytest.mark.parametrize("bot_class", BOTS)
def test_takes_an_immediate_win(bot_class):
    """A race: blue wins now by filling the detour's gap, or orange fills its own gap next turn."""
    levels, dormant, gap, detour_gap = chain_with_gaps()
    levels[gap] = -1  # blocked: the detour is the only way now
    blue_gaps = levels.copy()
    blue_gaps[detour_gap] = 2  # keep orange's chain off blue's gap
    orange_gap = orange_chain_with_gap(blue_gaps)
    levels[blue_gaps < 0] = -1
    assert not rules.connects(levels, rules.ORANGE)
    state = GameState(levels, dormant, 6)  # blue moves on turn 7, orange on turn 8
    bot = bot_class(seed=1)
    bot.start(rules.BLUE)
    assert bot.choose(state, 0.05) == detour_gap
    check = levels.copy()
    assert rules.play(check, dormant.copy(), rules.ORANGE, orange_gap) == rules.ORANGE_WINS


def test_solver_proves_a_win_against_any_reply():
    """Orange to move cannot stop both ways of finishing blue's chain: proven lost."""
    levels, dormant, _, _ = chain_with_gaps()
    bot = MctsBot(seed=2)
    bot.start(rules.ORANGE)
    bot.choose(GameState(levels.copy(), dormant.copy(), 3), 2.0)  # orange moves on turn 4
    assert bot.nodes[0, tree.PROOF] == rules.BLUE_WINS


def test_solver_proves_a_double_move_win():
    """Blue moves on turns 5 and 7 (a growth between): two gaps to fill is a forced win."""
    levels, dormant, _, _ = chain_with_gaps()
    levels[shortest_path(0, 40)[2]] = 0  # a second gap on the main path
    levels[[5, 50]] = -1
    bot = MctsBot(seed=4)
    bot.start(rules.BLUE)
    tile = bot.choose(GameState(levels, dormant, 4), 2.0)
    assert bot.nodes[0, tree.PROOF] == rules.BLUE_WINS
    after, after_dormant = levels.copy(), dormant.copy()
    assert rules.take_turn(after, after_dormant, 5, tile) == rules.ONGOING
    assert rules.take_turn(after, after_dormant, 6, 0) == rules.ONGOING
    assert playout.winning_tile(after, rules.BLUE, playout.new_scratch()) >= 0  # on turn 7


@pytest.mark.parametrize("module", ["uct", "mcts"])
def test_plays_as_a_process_through_the_referee(module):
    """A short game against random at 100 ms a turn: no timeout, nothing on stderr."""
    command = [sys.executable, "-m", f"bots.volcanoes.{module}"]
    random_command = [sys.executable, "-m", "bots.volcanoes.random"]
    settings = Settings(first_turn_ms=10_000, max_turns=40)  # first turn: a loaded CI machine
    with BotProcess(command) as bot, BotProcess(random_command) as other:
        result = play_game(bot, other, seed=7, settings=settings)
    assert result.reason in ("connection", "max-turns")
    assert all(not turn.stderr for turn in result.turn_log), [t.stderr for t in result.turn_log]
    assert max(t.time_ms for t in result.turn_log[2:] if t.actor == "blue") < 100


def test_a_threatened_player_searches_only_the_answers():
    """Orange to move on turn 4, blue next, blue one placement from connecting on either of two
    tiles: with `threats` the root's children are those tiles and the raise of orange's level-3
    volcano (its eruption might break blue's chain), every other move being lost at once, and the
    root is proven lost; without it, every legal move is a child."""
    levels, dormant, gap, detour_gap = chain_with_gaps()
    volcano = next(t for t in range(len(levels)) if levels[t] == 0 and t not in (gap, detour_gap)
                   and all(levels[n] == 0 for n in NEIGHBOURS[t]))
    levels[volcano] = -3
    answers = {gap, detour_gap, volcano}
    for threats in (1, 0):
        bot = MctsBot(seed=2, threats=threats)
        bot.start(rules.ORANGE)
        bot.choose(GameState(levels.copy(), dormant.copy(), 3), 2.0)
        first, n = bot.nodes[0, tree.FIRST], bot.nodes[0, tree.N_CHILDREN]
        children = set(bot.nodes[first:first + n, tree.MOVE].tolist())
        if threats:
            assert children == answers
        else:
            assert children > answers and len(children) == len(GameState(levels, dormant, 3).legal_moves())
        assert bot.nodes[0, tree.PROOF] == rules.BLUE_WINS


def subtree(nodes, reward, node, path=()):
    """{moves from `node`: (visits, score, AMAF visits, proof)} over `node`'s subtree."""
    table = {path: (int(nodes[node, tree.VISITS]), float(reward[node, tree.SCORE]),
                    int(nodes[node, tree.AMAF_VISITS]), int(nodes[node, tree.PROOF]))}
    first = nodes[node, tree.FIRST]
    for child in range(first, first + nodes[node, tree.N_CHILDREN]) if first >= 0 else ():
        assert nodes[child, tree.PARENT] == node
        table.update(subtree(nodes, reward, child, path + (int(nodes[child, tree.MOVE]),)))
    return table


def test_keep_subtree_makes_a_subtree_the_whole_tree():
    """After a search, a grandchild's subtree kept: the same nodes with the same statistics, the
    root at row 0 without a parent, every child linked to its parent, nothing else left; and the
    search goes on from there."""
    bot = MctsBot(seed=5, iterations=20_000)
    bot.start(rules.BLUE)
    bot.choose(GameState(*rules.new_state(), 0), 1.0)
    nodes, reward, meta = bot.nodes, bot.reward, bot.meta
    child = tree.best_child(nodes, True)
    grandchild = max(range(nodes[child, tree.FIRST], nodes[child, tree.FIRST] + nodes[child, tree.N_CHILDREN]),
                     key=lambda row: nodes[row, tree.VISITS])
    before = subtree(nodes, reward, grandchild)
    assert len(before) > 200
    tree.keep_subtree(nodes, reward, meta, grandchild, tree.new_index(len(nodes)))
    assert nodes[0, tree.PARENT] == -1
    assert subtree(nodes, reward, 0) == before
    assert meta[tree.N_NODES] == len(before)
    board = bitboard.new_board()
    for turn, tile in ((1, nodes[child, tree.MOVE]), (2, nodes[0, tree.MOVE]), (3, 0)):
        bitboard.step(board, turn, tile, bot.work.scratch)
    visits = nodes[0, tree.VISITS]
    assert tree.search(nodes, reward, meta, board, 3, 500, bot.options, bot.work) == 500
    assert nodes[0, tree.VISITS] == visits + 500


def test_reuse_starts_from_the_subtree_of_the_position_shown():
    """Blue moves on turns 5 and 7, a growth between: with `reuse`, the search of turn 7 starts
    from the visits turn 5's search gave that position; a position other than the one the rules
    lead to (a wrong growth) gets a new tree."""
    levels, dormant, _, _ = chain_with_gaps()
    levels[levels > 0] = 0  # a quiet middle game: a few pieces each
    levels[[3, 30, 61]], levels[[10, 44, 70]] = 1, -1
    for reuse, wrong in ((1, False), (0, False), (1, True)):
        bot = MctsBot(seed=6, reuse=reuse, iterations=2000)
        bot.start(rules.BLUE)
        tile = bot.choose(GameState(levels.copy(), dormant.copy(), 4), 1.0)
        kept = bot.nodes[tree.find_child(bot.nodes, 0, tile), tree.VISITS]
        assert kept > 100
        after, after_dormant = levels.copy(), dormant.copy()
        rules.take_turn(after, after_dormant, 5, tile)
        rules.take_turn(after, after_dormant, 6, 0)
        if wrong:
            after[after > 0] += 1  # grown twice
            after_dormant = np.abs(after) == rules.MAX_LEVEL
        bot.choose(GameState(after, after_dormant, 6, (-1,)), 1.0)
        assert bot.nodes[0, tree.VISITS] == 2000 + (kept if reuse and not wrong else 0)


def test_a_full_tree_keeps_searching():
    """A tree with room for a few hundred nodes: every iteration still runs (its leaves valued by
    playouts), and the tree stays within its rows."""
    nodes, reward, meta = tree.new_tree(300)
    tree.reset(nodes, reward, meta, rules.ORANGE)
    bot = MctsBot(seed=7)
    assert tree.search(nodes, reward, meta, bitboard.new_board(), 0, 3000, bot.options, bot.work) == 3000
    assert nodes[0, tree.VISITS] == 3000 and meta[tree.N_NODES] <= 300


def test_a_leaf_gets_children_after_expand_visits():
    """With `expand` = 4 a node below the root has children only once four playouts have valued
    it (the fifth visit expands it); with 1, at its second visit."""
    for expand, fewest in ((4, 5), (1, 2)):
        bot = MctsBot(seed=9, expand=expand)
        nodes, reward, meta = tree.new_tree(1 << 16)
        tree.reset(nodes, reward, meta, rules.ORANGE)
        tree.search(nodes, reward, meta, bitboard.new_board(), 0, 5000, bot.options, bot.work)
        expanded = nodes[1:meta[tree.N_NODES]]
        expanded = expanded[expanded[:, tree.FIRST] >= 0]
        assert len(expanded) > 10
        assert expanded[:, tree.VISITS].min() == fewest


def test_last_good_replies_are_learnt_and_played():
    """The winner's placements become the replies to the placements before them (told apart by
    whose they were), a loser's stored reply is forgotten; a playout plays a stored legal reply."""
    work = tree.new_work(10)
    blue, orange = rules.BLUE, rules.ORANGE
    work.replies[0, 0, 9] = 11  # blue's reply to orange's 9, about to be forgotten
    line = np.array([(5, blue), (7, orange), (9, orange), (11, blue)] + [(0, 0)] * 10)
    tree._learn_replies(work.replies, line, 4, rules.ORANGE_WINS)
    assert work.replies[1, 0, 5] == 7 and work.replies[1, 1, 7] == 9 and work.replies[0, 0, 9] == -1
    assert (work.replies >= 0).sum() == 2
    board = bitboard.new_board()
    bitboard.step(board, 1, 40, work.scratch)  # blue's first placement
    work.replies[1, 0, 40] = 33
    work.line[0] = (40, blue)
    _, placed = tree._playout(board, 1, True, work.scratch, work.rng, work.replies, work.line, 1)
    assert placed > 2 and tuple(work.line[1]) == (33, orange)
