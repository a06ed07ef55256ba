"""A UCT search tree in preallocated arrays, searched by jitted batches of iterations.

Nodes are rows of `nodes` (int32 columns below) and `reward` (float32 columns); a node's children
are a contiguous block, allocated when the node is selected a second time. Each iteration adds
one node. An edge is one move plus the growth turn that follows it, so a player who moves twice
in a row across a growth turn simply has two edges in a row: each node records its `MOVER`, and
a node's statistics are from its mover's point of view.

`Options` (plain UCT has them off): `c`, the exploration constant; `solver` (MCTS-Solver: proven
wins, losses and draws are backed up and proven losses never selected; a node whose player can
connect by a placement is proven at once); `rave_k` (RAVE: AMAF values blended into the
selection, see `_select_rave`); `decisive` playouts (see `bitboard.playout`). Between turns a
bot may keep the subtree of the position it is shown next (`find_child`, then `reroot` in place
or `keep_subtree` into a second tree); `meta` says which row is the root.

Positions are boards of the bitboard rules core (`bitboard.py`); `Work` holds an iteration's board,
the core's scratch space and the random generator's state.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from referee.volcanoes.board import N_TILES
from referee.volcanoes.rules import BLUE, BLUE_WINS, CYCLE, DRAW, GROWTH, MAX_TURNS, ONGOING, ORANGE_WINS

from . import bitboard


TRY_FIRST = 1e9  # a `first_play` above any value: a child no simulation has valued is tried first


class Options(NamedTuple):
    """The search's options (a named tuple: numba passes it whole)."""

    c: float  # exploration constant
    solver: bool  # MCTS-Solver
    decisive: bool  # decisive playouts
    rave_k: float  # RAVE's k; 0 selects with plain UCB1
    expand: int = 1  # a leaf gets its children once it has this many visits (the root at once)
    first_play: float = TRY_FIRST  # RAVE's value of a child with neither visits nor AMAF visits


class Work(NamedTuple):
    """Scratch space for `search`: the position during an iteration, the bitboard core's scratch
    rows, the random generator's state (playouts and the children's order draw from it), and the
    children's values during a selection."""

    board: np.ndarray
    scratch: np.ndarray
    rng: np.ndarray
    values: np.ndarray


def new_work(seed: int) -> Work:
    return Work(
        bitboard.new_board(), bitboard.new_scratch(), bitboard.new_rng(seed), np.zeros(N_TILES, dtype=np.float32)
    )


# Columns of `nodes`.
PARENT, FIRST, N_CHILDREN, N_TRIED, MOVE, MOVER, VISITS, PROOF, AMAF_VISITS = range(9)
N_COLUMNS = 9
# Columns of `reward`: the mover's total score, and its total over AMAF updates (RAVE).
SCORE, AMAF_SCORE = 0, 1
# PROOF holds a proven outcome (BLUE_WINS, ORANGE_WINS, DRAW) or ONGOING (unknown).
# Entries of `meta`: the rows in use, and the root's row (0 but after `reroot`).
N_NODES, ROOT = 0, 1
N_META = 2


def new_tree(capacity: int, columns: bool = True):
    """(nodes, reward, meta): an empty tree (call `reset` before searching). With `columns`, laid
    out column by column (Fortran order): a node's children are a block of rows, so each column of
    a block is one run of memory, which RAVE's selection reads and an expansion writes in vector
    instructions (mcts: 1.2x the iterations a second). Plain UCB1 reads two columns a child and
    runs faster row by row (C order, `columns=False`), as uct's tree is."""
    order = "F" if columns else "C"
    nodes = np.zeros((capacity, N_COLUMNS), dtype=np.int32, order=order)
    reward = np.zeros((capacity, 2), dtype=np.float32, order=order)
    meta = np.zeros(N_META, dtype=np.int64)
    return nodes, reward, meta


@njit(cache=True)
def by_column(nodes):
    """Whether the tree is laid out column by column (see `new_tree`)."""
    return nodes.strides[0] == nodes.itemsize


@njit(cache=True)
def reset(nodes, reward, meta, mover):
    """Make the tree a lone root; `mover` is the player who made the root's last move."""
    nodes[0, PARENT] = -1
    nodes[0, FIRST] = -1
    nodes[0, N_CHILDREN] = 0
    nodes[0, N_TRIED] = 0
    nodes[0, MOVE] = -1
    nodes[0, MOVER] = mover
    nodes[0, VISITS] = 0
    nodes[0, PROOF] = ONGOING
    nodes[0, AMAF_VISITS] = 0
    reward[0, :] = 0.0
    meta[N_NODES] = 1
    meta[ROOT] = 0


@njit(cache=True)
def _score(outcome, player):
    """The player's score for a finished game: 1 a win, 0 a loss, 0.5 a draw."""
    if outcome == DRAW:
        return 0.5
    if (outcome == BLUE_WINS) == (player == BLUE):
        return 1.0
    return 0.0


@njit(cache=True)
def _win_for(player):
    return BLUE_WINS if player == BLUE else ORANGE_WINS


@njit(cache=True)
def edge(board, turn, player, tile, scratch):
    """Play `tile` on turn `turn` + 1 and the growth after it if there is one; returns
    (outcome, turns played after the edge). Past MAX_TURNS the game is a draw."""
    turn += 1
    result = bitboard.play(board, player, tile, scratch)
    if result == ONGOING and turn < MAX_TURNS and CYCLE[turn % 6] == GROWTH:
        turn += 1
        result = bitboard.grow(board, scratch)
    if result == ONGOING and turn >= MAX_TURNS:
        result = DRAW
    return result, turn


@njit(cache=True)
def _expand(nodes, reward, meta, node, player, solver, work):
    """Give `node` a block of children, one per legal move of `player` in `work.board`, in a
    shuffled order (plain UCT tries them in that order). With the solver, a placement that
    connects is found at once, and it and `node` are proven. Returns False when the tree is full."""
    board, scratch = work.board, work.scratch
    winning = bitboard.winning_tile(board, player, scratch) if solver else -1
    moves = scratch[bitboard.MOVES]
    n = bitboard.legal_moves(board, player, moves)
    first = meta[N_NODES]
    if first + n > nodes.shape[0]:
        return False
    bitboard.shuffle(moves, n, work.rng)
    if by_column(nodes):  # each column of the block is a run of memory: written in vector stores
        block = slice(first, first + n)
        nodes[block, PARENT] = node
        nodes[block, FIRST] = -1
        nodes[block, N_CHILDREN] = 0
        nodes[block, N_TRIED] = 0
        nodes[block, MOVE] = moves[:n]
        nodes[block, MOVER] = player
        nodes[block, VISITS] = 0
        nodes[block, PROOF] = ONGOING
        nodes[block, AMAF_VISITS] = 0
        reward[block, SCORE] = 0.0
        reward[block, AMAF_SCORE] = 0.0
    else:  # row by row
        for i in range(n):
            child = first + i
            nodes[child, PARENT] = node
            nodes[child, FIRST] = -1
            nodes[child, N_CHILDREN] = 0
            nodes[child, N_TRIED] = 0
            nodes[child, MOVE] = moves[i]
            nodes[child, MOVER] = player
            nodes[child, VISITS] = 0
            nodes[child, PROOF] = ONGOING
            nodes[child, AMAF_VISITS] = 0
            reward[child, :] = 0.0
    if winning >= 0:
        for i in range(n):
            if nodes[first + i, MOVE] == winning:
                nodes[first + i, PROOF] = _win_for(player)
                nodes[node, PROOF] = _win_for(player)
    nodes[node, FIRST] = first
    nodes[node, N_CHILDREN] = n
    meta[N_NODES] = first + n
    if n == 0:  # a player without a legal move loses
        nodes[node, PROOF] = _win_for(-player)
    return True


@njit(cache=True)
def _select(nodes, reward, node, c, solver):
    """The child of a fully tried node with the best UCB1 value (proven losses skipped)."""
    first = nodes[node, FIRST]
    n = nodes[node, N_CHILDREN]
    player = nodes[first, MOVER]
    loss = _win_for(-player)
    log_visits = math.log(nodes[node, VISITS])
    best = -1
    best_value = -1.0
    for child in range(first, first + n):
        if solver and nodes[child, PROOF] == loss:
            continue
        visits = nodes[child, VISITS]
        value = reward[child, SCORE] / visits + c * math.sqrt(log_visits / visits)
        if value > best_value:
            best_value = value
            best = child
    return best


@njit(cache=True, fastmath=True, error_model="numpy")
def _select_rave(nodes, reward, node, c, solver, rave_k, first_play, values):
    """The child with the best RAVE value: the mean score blended with the AMAF mean, weight
    beta = sqrt(k / (3 n + k)) on AMAF, plus UCB exploration. A child never played in any
    simulation through `node` is valued at `first_play` (TRY_FIRST: it comes first); an unvisited
    child is judged on AMAF alone. The values go through `values` (float32 scratch) in a loop
    without branches over the block's columns, which the compiler turns into vector instructions
    (numpy's error model: no check for a division by zero, which `max(..., 1)` rules out), then
    the first of the best is picked: a selection takes a quarter of the time it took row by row.
    The best value is taken as eight running maxima, which run side by side, where one maximum
    waits on each comparison before the next: 0.7x the time of a selection among 65 children."""
    first = nodes[node, FIRST]
    n = nodes[node, N_CHILDREN]
    loss = _win_for(-nodes[first, MOVER]) if solver else -1  # (-1: no proof is)
    explore = np.float32(c * math.sqrt(math.log(nodes[node, VISITS] + 1)))
    k = np.float32(rave_k)
    one, none_yet, lost = np.float32(1.0), np.float32(first_play), np.float32(-2.0)
    visits, amaf_visits = nodes[first : first + n, VISITS], nodes[first : first + n, AMAF_VISITS]
    score, amaf_score = reward[first : first + n, SCORE], reward[first : first + n, AMAF_SCORE]
    proof = nodes[first : first + n, PROOF]
    for i in range(n):
        v = np.float32(visits[i])
        a = np.float32(amaf_visits[i])
        v_or_1 = max(v, one)  # an unvisited child: its score is 0 and beta is 1
        amaf = (amaf_score[i] + (np.float32(0.5) if a == 0 else np.float32(0.0))) / max(a, one)
        beta = np.sqrt(k / (np.float32(3.0) * v + k))
        value = (one - beta) * (score[i] / v_or_1) + beta * amaf + explore / np.sqrt(v_or_1)
        value = none_yet if v + a == 0 else value
        values[i] = lost if proof[i] == loss else value
    m0 = m1 = m2 = m3 = m4 = m5 = m6 = m7 = lost
    whole = n & ~7
    for i in range(0, whole, 8):
        m0 = max(m0, values[i])
        m1 = max(m1, values[i + 1])
        m2 = max(m2, values[i + 2])
        m3 = max(m3, values[i + 3])
        m4 = max(m4, values[i + 4])
        m5 = max(m5, values[i + 5])
        m6 = max(m6, values[i + 6])
        m7 = max(m7, values[i + 7])
    best = max(max(max(m0, m1), max(m2, m3)), max(max(m4, m5), max(m6, m7)))
    for i in range(whole, n):
        best = max(best, values[i])
    if best <= lost:
        return -1
    for i in range(n):  # the first of equals, as a child without statistics must be
        if values[i] == best:
            return first + i
    return -1


@njit(cache=True)
def _prove(nodes, node):
    """After a child of `node` was proven: prove `node` too if the player to move there has a
    proven win, or once every child is proven (the best of them). Returns whether it did."""
    first = nodes[node, FIRST]
    n = nodes[node, N_CHILDREN]
    player = nodes[first, MOVER]
    win = _win_for(player)
    best = _win_for(-player)
    all_proven = True
    for child in range(first, first + n):
        proof = nodes[child, PROOF]
        if proof == win:
            nodes[node, PROOF] = win
            return True
        if proof == ONGOING:
            all_proven = False
        elif proof == DRAW:
            best = DRAW
    if all_proven:
        nodes[node, PROOF] = best
    return all_proven


@njit(cache=True)
def search(nodes, reward, meta, root, root_turns, iterations, options, work):
    """Run up to `iterations` iterations from the position `root` (a bitboard), the tree's root row
    (`meta`), with `Options` `options`; returns how many ran (fewer when the root is proven). Once
    the tree is full, the leaves it reaches are valued by playouts without growing it."""
    c, solver, decisive, rave_k = options.c, options.solver, options.decisive, options.rave_k
    expand_at = options.expand
    board, scratch = work.board, work.scratch
    played = scratch[bitboard.PLAYED]
    top = meta[ROOT]
    for done in range(iterations):
        if nodes[top, PROOF] != ONGOING:
            return done
        board[:] = root
        played[:] = 0
        node = top
        turn = root_turns
        while True:
            outcome = nodes[node, PROOF]
            if outcome != ONGOING:
                break
            player = CYCLE[turn % 6]
            if nodes[node, FIRST] < 0:
                if (node == top or nodes[node, VISITS] >= expand_at) and _expand(
                    nodes, reward, meta, node, player, solver, work
                ):
                    continue
                # A leaf not visited enough yet, or the tree is full: valued by a playout.
                outcome, _ = bitboard.playout(board, turn, MAX_TURNS, decisive, scratch, work.rng)
                break
            if rave_k > 0.0:
                child = _select_rave(nodes, reward, node, c, solver, rave_k, options.first_play, work.values)
            else:
                tried = nodes[node, N_TRIED]
                if tried < nodes[node, N_CHILDREN]:
                    child = nodes[node, FIRST] + tried
                    nodes[node, N_TRIED] = tried + 1
                else:
                    child = _select(nodes, reward, node, c, solver)
            node = child
            outcome, turn = edge(board, turn, player, nodes[node, MOVE], scratch)
            if nodes[node, VISITS] == 0:  # a new node: its outcome, or a playout
                if outcome != ONGOING:
                    nodes[node, PROOF] = outcome
                else:
                    outcome, _ = bitboard.playout(board, turn, MAX_TURNS, decisive, scratch, work.rng)
                break
        # Back up the outcome; with the solver, proofs climb while they can; with RAVE, each
        # child of a node on the path whose move its mover played later on gets an AMAF update.
        proving = solver and nodes[node, PROOF] != ONGOING
        while node >= 0:
            nodes[node, VISITS] += 1
            reward[node, SCORE] += _score(outcome, nodes[node, MOVER])
            parent = nodes[node, PARENT]
            if parent >= 0:
                if proving:
                    proving = _prove(nodes, parent)
                if rave_k > 0.0:
                    mover = nodes[node, MOVER]
                    bit = 1 if mover == BLUE else 2
                    played[nodes[node, MOVE]] |= bit
                    score = _score(outcome, mover)
                    first = nodes[parent, FIRST]
                    for sibling in range(first, first + nodes[parent, N_CHILDREN]):
                        if played[nodes[sibling, MOVE]] & bit:
                            nodes[sibling, AMAF_VISITS] += 1
                            reward[sibling, AMAF_SCORE] += score
            node = parent
    return iterations


@njit(cache=True)
def find_child(nodes, node, move):
    """The child of `node` reached by `move`, or -1 (none, or `node` has no children yet)."""
    first = nodes[node, FIRST]
    if first < 0:
        return -1
    for child in range(first, first + nodes[node, N_CHILDREN]):
        if nodes[child, MOVE] == move:
            return child
    return -1


@njit(cache=True)
def keep_subtree(nodes, reward, meta, top, kept_nodes, kept_reward):
    """Copy node `top`'s subtree into the empty tree (`kept_nodes`, `kept_reward`), `top` as its
    root, for tree reuse between turns; `meta` then counts the copy's rows. Breadth first, block
    of children by block: one read and one write of each kept row, whatever the tree's size.
    Returns how many rows were kept."""
    kept_nodes[0, :] = nodes[top, :]
    kept_reward[0, :] = reward[top, :]
    kept_nodes[0, PARENT] = -1
    kept = 1
    node = 0
    while node < kept:
        first, n = kept_nodes[node, FIRST], kept_nodes[node, N_CHILDREN]
        if first >= 0:  # the old rows of its children
            kept_nodes[kept : kept + n, :] = nodes[first : first + n, :]
            kept_reward[kept : kept + n, :] = reward[first : first + n, :]
            kept_nodes[kept : kept + n, PARENT] = node
            kept_nodes[node, FIRST] = kept
            kept += n
        node += 1
    meta[N_NODES] = kept
    meta[ROOT] = 0
    return kept


@njit(cache=True)
def reroot(nodes, meta, top):
    """Make node `top` the root in place, for tree reuse without a copy: the rows above it and
    beside it stay allocated, unreachable, until a later turn's `keep_subtree` copies what is kept
    into the second tree (`UctBot._copy_kept` says when)."""
    nodes[top, PARENT] = -1
    meta[ROOT] = top


@njit(cache=True)
def best_child(nodes, meta, solver):
    """The root's move: a proven win if the solver found one, else the most visited child
    (avoiding proven losses when there is another choice). -1 if the root has no children."""
    top = meta[ROOT]
    first = nodes[top, FIRST]
    n = nodes[top, N_CHILDREN]
    if first < 0 or n == 0:
        return -1
    player = nodes[first, MOVER]
    win = _win_for(player)
    loss = _win_for(-player)
    best = -1
    best_key = -3.0
    for child in range(first, first + n):
        proof = nodes[child, PROOF]
        if solver and proof == win:
            return child
        key = float(nodes[child, VISITS])
        if solver and proof == loss:
            key = -2.0 + key / 1e9  # only if every child is a proven loss
        if key > best_key:
            best_key = key
            best = child
    return best
