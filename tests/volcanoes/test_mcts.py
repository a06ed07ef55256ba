"""The tree-search bots: immediate wins, the solver's proofs, and whole games as
processes through the referee (legal moves within the budget: tests/contracts/test_bot_contract.py)."""

import gc
import math
import sys
from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.volcanoes.mcts import MctsBot
from bots.volcanoes.pure import book
from bots.volcanoes.search import bitboard, tree
from bots.volcanoes.state import GameState
from bots.volcanoes.uct import UctBot
from referee.platform.process import BotProcess
from referee.volcanoes import rules
from referee.volcanoes.board import NEIGHBOURS
from referee.volcanoes.match import Settings, play_game
from tests.volcanoes.plain import after_random_turns

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
    board = bitboard.new_board()
    bitboard.from_levels(after, board)
    assert bitboard.winning_tile(board, rules.BLUE, bitboard.new_scratch()) >= 0  # on turn 7


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
        expanded = nodes[1 : meta[tree.N_NODES]]
        expanded = expanded[expanded[:, tree.FIRST] >= 0]
        assert len(expanded) > 10
        assert expanded[:, tree.VISITS].min() == fewest


@pytest.mark.parametrize("first_play, chosen", [(tree.TRY_FIRST, 2), (0.99, 2), (0.6, 1)])
def test_a_child_without_statistics_is_valued_at_first_play(first_play, chosen):
    """RAVE's selection values a child with neither visits nor AMAF visits at `first_play`: one
    scoring 0.9 over 10 visits (about 0.95 with its exploration) loses to it at 0.99, beats it at
    0.6 (mcts's default); TRY_FIRST, the old rule, tries every such child first."""
    nodes, reward, meta = tree.new_tree(4)
    tree.reset(nodes, reward, meta, rules.ORANGE)
    nodes[0, tree.FIRST], nodes[0, tree.N_CHILDREN], nodes[0, tree.VISITS] = 1, 2, 11
    for child in (1, 2):
        nodes[child, tree.MOVER], nodes[child, tree.PROOF], nodes[child, tree.MOVE] = rules.BLUE, rules.ONGOING, child
    nodes[1, tree.VISITS] = nodes[1, tree.AMAF_VISITS] = 10
    reward[1, tree.SCORE] = reward[1, tree.AMAF_SCORE] = 9.0
    values = np.zeros(4, dtype=np.float32)
    assert tree._select_rave(nodes, reward, 0, 0.1, True, 300.0, first_play, values) == chosen


def _rave_value(visits, amaf_visits, score, amaf_score, parent_visits, c, k):
    """RAVE's value of a child with statistics, as `tree._select_rave` documents it, in float64."""
    beta = math.sqrt(k / (3 * visits + k))
    amaf = (amaf_score + (0.5 if amaf_visits == 0 else 0.0)) / max(amaf_visits, 1)
    explore = c * math.sqrt(math.log(parent_visits + 1)) / math.sqrt(max(visits, 1))
    return (1 - beta) * score / max(visits, 1) + beta * amaf + explore


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 80), st.sampled_from([0.0, 0.3, 0.6, tree.TRY_FIRST]))
def test_rave_selection_picks_what_a_plain_reference_picks(seed, n, first_play):
    """The vectorised selection over a block of children, against its formula in plain float64:
    its child is the best to within float32 rounding, proven losses are never picked (-1 when all
    are), and of equal values (children valued at `first_play`) the first is."""
    rng = np.random.default_rng(seed)
    nodes, reward, meta = tree.new_tree(n + 1)
    tree.reset(nodes, reward, meta, rules.ORANGE)
    nodes[0, tree.FIRST], nodes[0, tree.N_CHILDREN] = 1, n
    children = np.arange(1, n + 1)
    visits = rng.integers(0, 3, n) * rng.integers(0, 500, n)  # a third unvisited
    amaf_visits = rng.integers(0, 3, n) * rng.integers(0, 900, n)
    nodes[children, tree.VISITS], nodes[children, tree.AMAF_VISITS] = visits, amaf_visits
    reward[children, tree.SCORE] = visits * rng.random(n)
    reward[children, tree.AMAF_SCORE] = amaf_visits * rng.random(n)
    nodes[children, tree.MOVER], nodes[children, tree.MOVE] = rules.BLUE, children - 1
    lost = rng.random(n) < rng.choice([0.0, 0.3, 1.0])
    nodes[children, tree.PROOF] = np.where(lost, rules.ORANGE_WINS, rules.ONGOING)
    nodes[0, tree.VISITS] = parent_visits = int(visits.sum()) + 1
    c, k = 0.1026, 304.0
    expected = [
        -math.inf
        if lost[i]
        else first_play
        if visits[i] == amaf_visits[i] == 0
        else _rave_value(visits[i], amaf_visits[i], *reward[1 + i], parent_visits, c, k)
        for i in range(n)
    ]
    chosen = tree._select_rave(nodes, reward, 0, c, True, k, first_play, np.zeros(n, dtype=np.float32))
    best = max(expected)
    if best == -math.inf:
        assert chosen == -1
        return
    assert 1 <= chosen <= n and not lost[chosen - 1]
    assert expected[chosen - 1] >= best - 1e-5 * max(1.0, abs(best))
    if best == first_play:
        assert chosen - 1 == expected.index(best)


def test_a_tree_by_column_grows_as_one_by_row():
    """The layout changes no statistic: plain UCT (exact arithmetic) grows the same tree, row for
    row, in a tree laid out by column and in one by row."""
    grown = []
    for columns in (True, False):
        bot = UctBot(seed=3)
        nodes, reward, meta = tree.new_tree(1 << 14, columns)
        tree.reset(nodes, reward, meta, rules.ORANGE)
        tree.search(nodes, reward, meta, bitboard.new_board(), 0, 2000, bot.options, bot.work)
        grown.append((nodes[: meta[tree.N_NODES]].tolist(), reward[: meta[tree.N_NODES]].tolist()))
    assert grown[0] == grown[1] and len(grown[0][0]) > 1000
    assert tree.by_column(tree.new_tree(8)[0]) and not tree.by_column(tree.new_tree(8, False)[0])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(0, 24))
def test_an_iteration_gives_amaf_updates_to_the_moves_its_movers_played(seed, opening):
    """After one iteration from a lone root (its children are made, one is tried, a playout runs),
    each child's AMAF visits and score grew by one visit and the simulation's score for its mover
    exactly when that mover played its tile in the simulation (the PLAYED row of the scratch
    space, bit 1 blue, bit 2 orange), whichever colour moves at the root."""
    board, turn = after_random_turns(opening, bitboard.new_rng(seed), bitboard.new_scratch()), opening
    if board is None:
        return
    bot = MctsBot(seed=seed, capacity=1 << 10)
    player = int(rules.CYCLE[turn % 6])
    tree.reset(bot.nodes, bot.reward, bot.meta, -player)
    assert tree.search(bot.nodes, bot.reward, bot.meta, board, turn, 1, bot.options, bot.work) == 1
    nodes, reward = bot.nodes, bot.reward
    if nodes[0, tree.PROOF] != rules.ONGOING:  # a win in one, or no move: no child was tried
        return
    tried = [c for c in range(1, nodes[0, tree.N_CHILDREN] + 1) if nodes[c, tree.VISITS]]
    assert len(tried) == 1 and nodes[0, tree.FIRST] == 1
    score = reward[tried[0], tree.SCORE]  # the mover's score of the one simulation
    played = bot.work.scratch[bitboard.PLAYED]
    bit = 1 if player == rules.BLUE else 2
    for child in range(1, nodes[0, tree.N_CHILDREN] + 1):
        hit = bool(played[nodes[child, tree.MOVE]] & bit)
        assert nodes[child, tree.MOVER] == player
        assert (nodes[child, tree.AMAF_VISITS], reward[child, tree.AMAF_SCORE]) == ((1, score) if hit else (0, 0.0))
    assert played[nodes[tried[0], tree.MOVE]] & bit  # the tried move itself was played


def _subtree(nodes, reward, node, path=()):
    """{path of moves from `node`: (visits, AMAF visits, proof, mover, score, AMAF score)} over
    `node`'s subtree, by a plain walk."""
    out = {
        path: tuple(int(nodes[node, c]) for c in (tree.VISITS, tree.AMAF_VISITS, tree.PROOF, tree.MOVER))
        + tuple(float(x) for x in reward[node])
    }
    first = nodes[node, tree.FIRST]
    for child in range(first, first + nodes[node, tree.N_CHILDREN]) if first >= 0 else ():
        out.update(_subtree(nodes, reward, child, path + (int(nodes[child, tree.MOVE]),)))
    return out


def _most_visited_child(nodes, node):
    first = nodes[node, tree.FIRST]
    assert first >= 0, "the node has no children"
    return max(range(first, first + nodes[node, tree.N_CHILDREN]), key=lambda child: nodes[child, tree.VISITS])


def test_keeping_a_subtree_keeps_its_statistics_and_links():
    """`keep_subtree` copies a grandchild of the root and its subtree into an empty tree, with
    it as the root: every node with its statistics, its parent and its block of children."""
    bot = MctsBot(seed=5)
    nodes, reward, meta = tree.new_tree(1 << 17)
    tree.reset(nodes, reward, meta, rules.ORANGE)
    tree.search(nodes, reward, meta, bitboard.new_board(), 0, 3000, bot.options, bot.work)
    top = _most_visited_child(nodes, tree.best_child(nodes, meta, True))
    expected = _subtree(nodes, reward, top)
    assert len(expected) > 100
    kept_nodes, kept_reward, _ = tree.new_tree(len(nodes))
    kept = tree.keep_subtree(nodes, reward, meta, top, kept_nodes, kept_reward)
    assert kept == meta[tree.N_NODES] == len(expected)
    nodes, reward = kept_nodes, kept_reward
    assert _subtree(nodes, reward, 0) == expected
    assert nodes[0, tree.PARENT] == -1
    for node in range(1, kept):
        parent = nodes[node, tree.PARENT]
        assert nodes[parent, tree.FIRST] <= node < nodes[parent, tree.FIRST] + nodes[parent, tree.N_CHILDREN]


def test_a_subtree_rerooted_in_place_searches_as_its_copy():
    """Searching on from a grandchild made the root in place (`reroot`) grows the same subtree, node
    for node, as searching on from its copy (`keep_subtree`) with the same random state."""
    bot = MctsBot(seed=6)
    nodes, reward, meta = tree.new_tree(1 << 19)  # (room for both searches: neither tree fills)
    tree.reset(nodes, reward, meta, rules.ORANGE)
    tree.search(nodes, reward, meta, bitboard.new_board(), 0, 3000, bot.options, bot.work)
    ours = tree.best_child(nodes, meta, True)
    top = _most_visited_child(nodes, ours)
    board = bitboard.new_board()
    turn = 0
    for node in (ours, top):
        _, turn = tree.edge(board, turn, int(nodes[node, tree.MOVER]), int(nodes[node, tree.MOVE]), bot.work.scratch)
    copy_nodes, copy_reward, copy_meta = tree.new_tree(len(nodes))
    tree.keep_subtree(nodes, reward, copy_meta, top, copy_nodes, copy_reward)
    tree.reroot(nodes, meta, top)
    assert meta[tree.ROOT] == top and nodes[top, tree.PARENT] == -1
    rng = bot.work.rng.copy()
    grown = []
    for n, r, m in ((nodes, reward, meta), (copy_nodes, copy_reward, copy_meta)):
        bot.work.rng[:] = rng
        assert tree.search(n, r, m, board, turn, 2000, bot.options, bot.work) == 2000
        grown.append(_subtree(n, r, m[tree.ROOT]))
        assert n[tree.best_child(n, m, True), tree.MOVE] == n[_most_visited_child(n, m[tree.ROOT]), tree.MOVE]
    assert meta[tree.N_NODES] < len(nodes)
    assert grown[0] == grown[1]
    assert grown[0][()][0] > 2000  # (the kept visits, and this search's)


@pytest.mark.parametrize("capacity", [1 << 21, 1 << 17])
def test_reuse_starts_from_the_last_turns_subtree(capacity):
    """With `reuse`, the search after our move and the opponent's two replies starts from the
    subtree that the last search grew there (its root has more visits than this search ran),
    copied into the second tree (a small subtree: the copy is cheap); a position reached otherwise
    (here: the moves since are unknown) gets a fresh tree."""
    for known in (True, False):
        bot = MctsBot(seed=3, reuse=True, iterations=4000, capacity=capacity, opening=0)
        bot.start(rules.BLUE)
        levels, dormant = rules.new_state()
        ours = bot.choose(GameState(levels.copy(), dormant.copy(), 0), 1.0)
        reply = _most_visited_child(bot.nodes, tree.find_child(bot.nodes, 0, ours))
        second = int(bot.nodes[_most_visited_child(bot.nodes, reply), tree.MOVE])
        reply = int(bot.nodes[reply, tree.MOVE])
        for turn, tile in enumerate((ours, reply, -1, second), start=1):
            rules.take_turn(levels, dormant, turn, tile)
        since = (reply, -1, second) if known else ()
        bot.choose(GameState(levels, dormant, 4, since), 1.0)
        assert bot.last_search["iterations"] == 4000
        assert bot.meta[tree.ROOT] == 0
        assert (bot.nodes[0, tree.VISITS] > 4000) == known


@pytest.mark.parametrize("capacity, in_place", [(1 << 21, True), (1 << 17, False)])
def test_a_player_moving_twice_keeps_its_subtree_in_place_while_half_the_tree_is_free(capacity, in_place):
    """Blue moves on turns 5 and 7, a growth between: the subtree kept for turn 7 is that of its
    own move, a large one, made the root in place, unless more than half the tree is in use (the
    smaller tree here fills within a turn), when it is copied into the second tree."""
    levels, dormant = rules.new_state()
    for turn, tile in enumerate((0, 40, -1, 41), start=1):
        rules.take_turn(levels, dormant, turn, tile)
    bot = MctsBot(seed=4, reuse=True, iterations=4000, capacity=capacity, opening=0)
    bot.start(rules.BLUE)
    ours = bot.choose(GameState(levels.copy(), dormant.copy(), 4, (40, -1, 41)), 1.0)
    node = tree.find_child(bot.nodes, 0, ours)
    assert bot.nodes[node, tree.VISITS] * 8 > bot.nodes[0, tree.VISITS]  # (large: not copied for its size)
    visits = int(bot.nodes[node, tree.VISITS])
    for turn, tile in ((5, ours), (6, -1)):
        rules.take_turn(levels, dormant, turn, tile)
    bot.choose(GameState(levels, dormant, 6, (-1,)), 1.0)
    root = bot.meta[tree.ROOT]
    assert (root == node) == in_place and (root == 0) != in_place
    assert bot.nodes[root, tree.VISITS] == visits + 4000


def test_the_first_moves_come_from_the_opening_book_unless_told_not_to():
    levels, dormant = rules.new_state()
    bot = MctsBot(seed=1, iterations=300)  # (on by default)
    bot.start(rules.BLUE)
    assert bot.choose(GameState(levels.copy(), dormant.copy(), 0), 1.0) == book.FIRST
    assert bot.last_search == {}  # (no search)
    bot = MctsBot(seed=1, iterations=300, opening=0)
    bot.start(rules.BLUE)
    bot.choose(GameState(levels.copy(), dormant.copy(), 0), 1.0)
    assert bot.last_search["iterations"] == 300


def test_a_bot_that_is_gone_leaves_its_trees_to_the_next():
    """A new bot takes the trees of one that is gone (their pages already written: an arena makes
    new bots for every game), and never those of a bot still playing."""
    bot = MctsBot(seed=1)
    trees = {id(bot.nodes), id(bot.spare[0])}
    other = MctsBot(seed=2)
    assert not trees & {id(other.nodes), id(other.spare[0])}
    del bot
    gc.collect()
    assert {id(MctsBot(seed=3).nodes), id(MctsBot(seed=4).spare[0])} <= trees
