"""Shortest solutions over compact integer states, compiled with numba: A* for one objective,
breadth-first search for every state reachable from a board, forwards or backwards (the generator's).

A state is one int64: tile t's orientation in bits 2t..2t+1 (18 bits), then boat i's edge (0-23) in
the 5 bits from 18 + 5i, boats in the board's colour order. Tile types never change, so they are a
search parameter (`n_tiles`: bit t set when tile t is an N tile), not part of the state.

Every move can be undone (three more turns of the same tile), so the reachable states are at most a
few hundred thousand (506,880 for the largest official objective), and a search that exhausts them
proves there is no solution. A*'s bound is the fewest moves carrying the listed boats to their
targets if every tile could always turn (a move turns one tile, carrying only the boats on it),
found by a small breadth-first search over boat placements alone. On the 60 official objectives it
takes about a third of breadth-first search's time. `reference_solution` is plain breadth-first
search over `rules.Board`, the oracle in tests.
"""

from __future__ import annotations

import functools
from collections import deque

import numpy as np
from numba import njit

from referee.vikings import rules

BOAT_SHIFT = 18
BOAT_BITS = 5
INDEX_SHIFT = 38  # A*'s hash table keeps a state (38 bits) and its index in one int64
STATE_MASK = (1 << INDEX_SHIFT) - 1


def _tables():
    """CLOSED_EDGES[type, orientation, tile]: the edges (24-bit mask) a tile of that type and
    orientation closes (type 0 = N, 1 = O); TILE_EDGE_MASK[tile]: its four edges; NEXT_EDGE[tile, edge]:
    where a boat on `edge` goes when `tile` turns (itself if not on the tile)."""
    closed = np.zeros((2, 4, 9), np.int64)
    for kind, name in enumerate(rules.TILE_TYPES):
        for orientation in range(4):
            shut = set(range(4)) - rules.open_sides(name, orientation)
            for tile, edges in enumerate(rules.TILE_EDGES):
                closed[kind, orientation, tile] = sum(1 << edges[side] for side in shut)
    tile_edge_mask = np.array([sum(1 << e for e in edges) for edges in rules.TILE_EDGES], np.int64)
    next_edge = np.tile(np.arange(24, dtype=np.int64), (9, 1))
    for tile, edges in enumerate(rules.TILE_EDGES):
        for side in range(4):
            next_edge[tile, edges[side]] = edges[(side + 1) % 4]
    return closed, tile_edge_mask, next_edge


CLOSED_EDGES, TILE_EDGE_MASK, NEXT_EDGE = _tables()
# Where a boat comes from when a tile turns: for searching backwards (a turn is allowed in the state
# before it exactly when it is allowed in the state after, as the neighbours and the boats on the
# tile are the same, so the predecessors of a state are its anticlockwise turns).
PREV_EDGE = np.argsort(NEXT_EDGE, axis=1).astype(np.int64)
EDGE_TILE_MASK = np.array([sum(1 << t for t, _ in rules.EDGE_TILES[e]) for e in range(24)], np.int64)
UNREACHABLE = 99  # a distance no placement has


def closed_table(n_tiles: int) -> np.ndarray:
    """closed[4 * tile + orientation]: the edges that tile closes, for this board's tile types."""
    return np.array([CLOSED_EDGES[0 if (n_tiles >> t) & 1 else 1, o, t] for t in range(9) for o in range(4)], np.int64)


# --- encoding ------------------------------------------------------------------------------------


def encode(board: rules.Board) -> tuple[int, int, int]:
    """(state, n_tiles, n_boats) for a board."""
    state = 0
    for tile, orientation in enumerate(board.orientations):
        state |= orientation << (2 * tile)
    for i, (_, edge) in enumerate(board.boats):
        state |= edge << (BOAT_SHIFT + BOAT_BITS * i)
    n_tiles = sum(1 << t for t, kind in enumerate(board.types) if kind == "N")
    return state, n_tiles, len(board.boats)


def decode(state: int, like: rules.Board) -> rules.Board:
    """The board of `state`, with the tile types and boat colours of `like`."""
    orientations = tuple((state >> (2 * t)) & 3 for t in range(9))
    boats = tuple((colour, (state >> (BOAT_SHIFT + BOAT_BITS * i)) & 31) for i, (colour, _) in enumerate(like.boats))
    return rules.Board(like.types, orientations, boats)


def goal_mask_and_key(objective: rules.Objective) -> tuple[int, int]:
    """A state meets the objective when `state & mask == key`."""
    slot = {colour: i for i, (colour, _) in enumerate(objective.board.boats)}
    mask = key = 0
    for colour, edge in objective.targets:
        shift = BOAT_SHIFT + BOAT_BITS * slot[colour]
        mask |= 31 << shift
        key |= edge << shift
    return mask, key


# --- the compiled search -------------------------------------------------------------------------


@njit(cache=True)
def _children(state, n_boats, turn, closed, tile_edge_mask, edge_tile_mask, next_edge, children, tiles):
    """Write the states one move from `state` into `children` (the tiles turned into `tiles`);
    return how many. A tile turns when it carries a boat and no neighbour closes one of its edges.
    `turn` 1 with NEXT_EDGE is the clockwise move; 3 with PREV_EDGE undoes it."""
    shut = 0
    for tile in range(9):
        shut |= closed[4 * tile + ((state >> (2 * tile)) & 3)]
    carrying = 0
    for i in range(n_boats):
        carrying |= edge_tile_mask[(state >> (BOAT_SHIFT + BOAT_BITS * i)) & 31]
    count = 0
    for tile in range(9):
        own = closed[4 * tile + ((state >> (2 * tile)) & 3)]
        # On a valid board no edge is closed twice, so `shut & ~own` is what the neighbours close.
        if not (carrying >> tile) & 1 or shut & ~own & tile_edge_mask[tile]:
            continue
        shift = 2 * tile
        child = (state & ~(3 << shift)) | ((((state >> shift) & 3) + turn) & 3) << shift
        for i in range(n_boats):
            shift = BOAT_SHIFT + BOAT_BITS * i
            edge = (state >> shift) & 31
            child = (child & ~(31 << shift)) | (next_edge[tile, edge] << shift)
        children[count] = child
        tiles[count] = tile
        count += 1
    return count


@njit(cache=True)
def _slot(table, state):
    """The slot of `state` in an open-addressing table (its own, or the empty one to put it in)."""
    mask = table.size - 1
    h = (np.uint64(state) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(32)
    i = np.int64(h) & mask
    while table[i] != state and table[i] != -1:
        i = (i + 1) & mask
    return i


@njit(cache=True)
def _grow(array, size):
    bigger = np.empty(size, array.dtype)
    bigger[: array.size] = array
    return bigger


@njit(cache=True)
def _bfs(starts, n_boats, goal_mask, goal_key, stop_at_goal, turn, closed, tile_edge_mask, edge_tile_mask, next_edge):
    """Breadth-first search from the distinct states `starts` (moves as in `_children`).

    Returns (states, parents, moves, depths, count, goal): the first `count` entries are the
    reachable states in order of discovery, each with its parent's index, the tile turned to reach
    it and its depth; `goal` is the index of the first state meeting the goal, or -1. With
    `stop_at_goal` the search ends there; otherwise it visits every reachable state.
    """
    capacity = 1 << 12
    while capacity < 2 * starts.size:
        capacity *= 2
    states = np.empty(capacity, np.int64)
    parents = np.empty(capacity, np.int32)
    moves = np.empty(capacity, np.int8)
    depths = np.empty(capacity, np.int16)
    table = np.full(4 * capacity, -1, np.int64)
    goal = -1
    for count in range(starts.size):
        states[count], parents[count], moves[count], depths[count] = starts[count], -1, -1, 0
        table[_slot(table, starts[count])] = starts[count]
        if goal < 0 and (starts[count] & goal_mask) == goal_key:
            goal = count
    count = starts.size
    if goal >= 0 and stop_at_goal:
        return states, parents, moves, depths, count, goal
    children = np.empty(9, np.int64)
    tiles = np.empty(9, np.int8)
    head = 0
    while head < count:
        n_children = _children(
            states[head], n_boats, turn, closed, tile_edge_mask, edge_tile_mask, next_edge, children, tiles
        )
        for c in range(n_children):
            child = children[c]
            i = _slot(table, child)
            if table[i] == child:
                continue
            table[i] = child
            if count == states.size:
                size = 2 * states.size
                states, parents = _grow(states, size), _grow(parents, size)
                moves, depths = _grow(moves, size), _grow(depths, size)
                table = np.full(4 * size, -1, np.int64)
                for j in range(count):
                    table[_slot(table, states[j])] = states[j]
                table[_slot(table, child)] = child
            states[count], parents[count], moves[count] = child, head, tiles[c]
            depths[count] = depths[head] + 1
            if goal < 0 and (child & goal_mask) == goal_key:
                goal = count
                if stop_at_goal:
                    return states, parents, moves, depths, count + 1, goal
            count += 1
        head += 1
    return states, parents, moves, depths, count, goal


@njit(cache=True)
def _relaxed_distances(targets, prev_edge):
    """The fewest turns carrying boats from each placement to `targets` (their edges) when every
    tile may always turn: a lower bound on the real moves, as each move turns one tile and carries
    only the boats on it. Indexed by the placement's edges, 5 bits a boat; UNREACHABLE elsewhere."""
    n = targets.size
    distance = np.full(1 << (BOAT_BITS * n), UNREACHABLE, np.int8)
    queue = np.empty(24**n, np.int64)
    goal = 0
    for j in range(n):
        goal |= targets[j] << (BOAT_BITS * j)
    distance[goal] = 0
    queue[0] = goal
    head, tail = 0, 1
    while head < tail:
        placement = queue[head]
        head += 1
        for tile in range(9):
            before = 0
            for j in range(n):
                before |= prev_edge[tile, (placement >> (BOAT_BITS * j)) & 31] << (BOAT_BITS * j)
            if distance[before] == UNREACHABLE:
                distance[before] = distance[placement] + 1
                queue[tail] = before
                tail += 1
    return distance


@njit(cache=True)
def _estimate(state, slots, distance):
    """A lower bound on the moves left: the relaxed distance of the listed boats (in `slots`)."""
    placement = 0
    for j in range(slots.size):
        placement |= ((state >> (BOAT_SHIFT + BOAT_BITS * slots[j])) & 31) << (BOAT_BITS * j)
    return distance[placement]


@njit(cache=True)
def _packed_slot(table, state):
    """Like `_slot`, for a table of `state | index << INDEX_SHIFT` entries."""
    mask = table.size - 1
    h = (np.uint64(state) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(32)
    i = np.int64(h) & mask
    while table[i] != -1 and (table[i] & STATE_MASK) != state:
        i = (i + 1) & mask
    return i


@njit(cache=True)
def _astar(start, n_boats, goal_mask, goal_key, slots, distance, closed, tile_edge_mask, edge_tile_mask, next_edge):
    """A* from `start` with the consistent bound `_estimate`, states kept in buckets by f = g + h
    (last in, first out within a bucket, so ties go deep first).

    Returns (states, parents, moves, goal) like `_bfs`; goal is -1 when the goal cannot be reached
    (every state from which it might be was expanded). The hash table holds each state with its
    index, and an expanded state's cost is stored negated, so that a lookup touches little memory.
    """
    capacity = 1 << 12
    states = np.empty(capacity, np.int64)
    parents = np.empty(capacity, np.int32)
    moves = np.empty(capacity, np.int8)
    costs = np.empty(capacity, np.int32)  # g, or -1 - g once expanded
    table = np.full(4 * capacity, -1, np.int64)
    entry_node = np.empty(capacity, np.int32)
    entry_cost = np.empty(capacity, np.int32)
    entry_next = np.empty(capacity, np.int32)
    heads = np.full(1 << 8, -1, np.int32)  # bucket f: a stack of entries, linked by entry_next
    children = np.empty(9, np.int64)
    tiles = np.empty(9, np.int8)
    bound = _estimate(start, slots, distance)
    if bound >= UNREACHABLE:
        return states, parents, moves, -1
    states[0], parents[0], moves[0], costs[0] = start, -1, -1, 0
    table[_packed_slot(table, start)] = start
    count = 1
    entry_node[0], entry_cost[0], entry_next[0] = 0, 0, -1
    heads[bound] = 0
    entries = 1
    f = bound
    while f < heads.size:
        entry = heads[f]
        if entry < 0:
            f += 1
            continue
        heads[f] = entry_next[entry]
        node = entry_node[entry]
        if entry_cost[entry] != costs[node]:
            continue  # expanded already, or reached more cheaply since this entry
        state = states[node]
        if (state & goal_mask) == goal_key:
            return states, parents, moves, node
        cost = costs[node] + 1
        costs[node] = -cost
        n_children = _children(state, n_boats, 1, closed, tile_edge_mask, edge_tile_mask, next_edge, children, tiles)
        for c in range(n_children):
            child = children[c]
            left = _estimate(child, slots, distance)
            if left >= UNREACHABLE:
                continue
            i = _packed_slot(table, child)
            if table[i] != -1:
                index = table[i] >> INDEX_SHIFT
                if costs[index] < 0 or costs[index] <= cost:
                    continue
            else:
                if count == states.size:
                    size = 2 * states.size
                    states, parents, moves = _grow(states, size), _grow(parents, size), _grow(moves, size)
                    costs = _grow(costs, size)
                    table = np.full(4 * size, -1, np.int64)
                    for j in range(count):
                        table[_packed_slot(table, states[j])] = states[j] | (np.int64(j) << INDEX_SHIFT)
                    i = _packed_slot(table, child)
                index = count
                count += 1
                table[i] = child | (np.int64(index) << INDEX_SHIFT)
                states[index] = child
            parents[index], moves[index], costs[index] = node, tiles[c], cost
            if entries == entry_node.size:
                size = 2 * entry_node.size
                entry_node, entry_cost = _grow(entry_node, size), _grow(entry_cost, size)
                entry_next = _grow(entry_next, size)
            if cost + left >= heads.size:
                more = np.full(2 * (cost + left), -1, np.int32)
                more[: heads.size] = heads
                heads = more
            entry_node[entries], entry_cost[entries] = index, cost
            entry_next[entries] = heads[cost + left]
            heads[cost + left] = entries
            entries += 1
    return states, parents, moves, -1


# --- the public search ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=32)
def _relaxed_table(targets: tuple[int, ...]) -> np.ndarray:
    return _relaxed_distances(np.array(targets, np.int64), PREV_EDGE)


def heuristic(objective: rules.Objective) -> tuple[np.ndarray, np.ndarray]:
    """(slots, distance) for `_estimate`: the listed boats' slots in the state, and the relaxed
    distances to their targets (which depend on the targets only, so they are cached)."""
    slot = {colour: i for i, (colour, _) in enumerate(objective.board.boats)}
    listed = sorted((slot[colour], edge) for colour, edge in objective.targets)
    slots = np.array([s for s, _ in listed], np.int64)
    return slots, _relaxed_table(tuple(edge for _, edge in listed))


def _path(parents: np.ndarray, moves: np.ndarray, node: int) -> str:
    path = []
    while parents[node] >= 0:
        path.append(str(moves[node]))
        node = parents[node]
    return "".join(reversed(path))


def shortest_solution(objective: rules.Objective) -> str | None:
    """A shortest solution as tile digits ('' when already met), or None when there is none (A*)."""
    mask, key = goal_mask_and_key(objective)
    state, n_tiles, n_boats = encode(objective.board)
    _, parents, moves, goal = _astar(
        state,
        n_boats,
        mask,
        key,
        *heuristic(objective),
        closed_table(n_tiles),
        TILE_EDGE_MASK,
        EDGE_TILE_MASK,
        NEXT_EDGE,
    )
    return None if goal < 0 else _path(parents, moves, goal)


def _breadth_first(board: rules.Board, goal_mask: int, goal_key: int, stop_at_goal: bool):
    state, n_tiles, n_boats = encode(board)
    return _bfs(
        np.array([state], np.int64),
        n_boats,
        goal_mask,
        goal_key,
        stop_at_goal,
        1,
        closed_table(n_tiles),
        TILE_EDGE_MASK,
        EDGE_TILE_MASK,
        NEXT_EDGE,
    )


def breadth_first_solution(objective: rules.Objective) -> str | None:
    """Like `shortest_solution`, by breadth-first search (tiles tried 0 to 8): a second opinion."""
    mask, key = goal_mask_and_key(objective)
    _, parents, moves, _, _, goal = _breadth_first(objective.board, mask, key, True)
    return None if goal < 0 else _path(parents, moves, goal)


def reachable(board: rules.Board) -> tuple[np.ndarray, np.ndarray]:
    """Every state reachable from `board` and its distance (fewest moves), in order of distance."""
    states, _, _, depths, count, _ = _breadth_first(board, 0, 1, False)
    return states[:count], depths[:count]


def distances_to(goals: np.ndarray, like: rules.Board) -> tuple[np.ndarray, np.ndarray]:
    """Every state from which one of the states `goals` (distinct, with the tiles and boats of
    `like`) can be reached, and its fewest moves to one, in order of distance."""
    _, n_tiles, n_boats = encode(like)
    states, _, _, depths, count, _ = _bfs(
        goals.astype(np.int64),
        n_boats,
        0,
        1,
        False,
        3,
        closed_table(n_tiles),
        TILE_EDGE_MASK,
        EDGE_TILE_MASK,
        PREV_EDGE,
    )
    return states[:count], depths[:count]


def reference_solution(objective: rules.Objective) -> str | None:
    """Breadth-first search over `rules.Board`, in plain Python: slow, the oracle in tests."""
    start = objective.board
    if rules.is_solved(start, objective.targets):
        return ""
    came_from = {start: None}
    queue = deque([start])
    while queue:
        board = queue.popleft()
        for tile in rules.rotatable_tiles(board):
            child = rules.rotate(board, tile)
            if child in came_from:
                continue
            came_from[child] = (board, tile)
            if rules.is_solved(child, objective.targets):
                path = []
                while came_from[child] is not None:
                    child, turned = came_from[child]
                    path.append(str(turned))
                return "".join(reversed(path))
            queue.append(child)
    return None
