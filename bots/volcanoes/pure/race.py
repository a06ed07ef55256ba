"""The connection race in pure Python: for one player, how many empty tiles the shortest connection
through each tile still needs (`routes`), for the learned prior's race features (`prior.py`).

A connection joins some tile k to its antipode k + 40 through the player's pieces (free) and empty
tiles (one each); enemy pieces block. The searches from all 80 tiles run at once, one bit per source
in a Python int: after layer d, a tile's set holds the sources from which it is reached for at most
d (its own cost and the source's included). The player's connected pieces share one set (crossing
them is free), so a layer is an OR of three neighbours' sets for each empty tile, then one OR per
group. A tile t lies on a connection of k to k + 40 of total cost a + b - cost(t) when k reaches it
for a and k + 40 for b: the set of layer a meets that of layer b shifted down by 40.
"""

from __future__ import annotations

from referee.volcanoes.board import HALF, N_TILES, NEIGHBOURS

NONE = 99  # no route: the tile is the enemy's, or no connection passes it within the layers searched
LAYERS = 16  # the longest route searched (a connection of an empty board needs 12 tiles)
_LOW = (1 << HALF) - 1
_BIT = tuple(1 << t for t in range(N_TILES))
_ALL = (1 << N_TILES) - 1


def routes(v, mine, span: int = 4) -> tuple[list[int], int]:
    """(for each tile, the empty tiles that the cheapest connection through it needs, NONE where
    none or more than `span` above the cheapest; the cheapest of all, NONE if none), for the
    player whose tiles are those where `mine[cell]` is 1 on the board view `v` (80 cells; EMPTY
    is 4)."""
    nb = NEIGHBOURS
    # Nodes: each empty tile is its own; each group of the player's pieces is one (its tiles share it).
    node = [-1] * N_TILES
    empties = []
    groups = []  # each group's tiles
    for t in range(N_TILES):
        c = v[t]
        if c == 4:
            node[t] = t
            empties.append(t)
        elif mine[c] and node[t] < 0:
            g = N_TILES + len(groups)
            node[t] = g
            members = [t]
            for x in members:
                for n in nb[x]:
                    if node[n] < 0 and mine[v[n]]:
                        node[n] = g
                        members.append(n)
            groups.append(members)
    n_nodes = N_TILES + len(groups)
    reach = [0] * (n_nodes + 1)  # the last: enemy tiles' empty set
    blocked = n_nodes
    reads = [tuple(node[n] if node[n] >= 0 else blocked for n in nb[e]) for e in empties]
    group_seed = []
    group_empties = []
    for members in groups:
        seed = 0
        near = set()
        for x in members:
            seed |= _BIT[x]
            for n in nb[x]:
                if v[n] == 4:
                    near.add(n)
        group_seed.append(seed)
        group_empties.append(tuple(near))
    for i, seed in enumerate(group_seed):
        reach[N_TILES + i] = seed
    layers = [reach]  # layer 0: each group reaches its own tiles
    # The cheapest connection: the first layer in which some tile's set holds its antipode. Layers
    # past it by more than span + 1 are not needed.
    best = NONE
    anti = [(node[t], t + HALF) for t in range(HALF) if node[t] >= 0]
    while True:
        last = layers[-1]
        if best == NONE:
            for x, shift in anti:
                if last[x] >> shift & 1:
                    best = len(layers) - 1
                    break
        if len(layers) > min(best + span + 1, LAYERS):
            break
        now = last[:]
        for e, (a, b, c) in zip(empties, reads, strict=True):
            now[e] = last[e] | _BIT[e] | last[a] | last[b] | last[c]
        for i, near in enumerate(group_empties):
            g = N_TILES + i
            x = now[g]
            for e in near:
                x |= now[e]
            now[g] = x
        if now == last:
            break
        layers.append(now)
    depth = len(layers)
    via = [NONE] * N_TILES
    if best == NONE:
        return via, NONE
    found_at = {}
    last = 2 * depth - 2
    for t in range(N_TILES):
        x = node[t]
        if x < 0:
            continue
        if x in found_at:
            via[t] = found_at[x]
            continue
        cost = 1 if x == t else 0
        first = 0
        while first < depth and not layers[first][x]:
            first += 1
        found = NONE
        sets = [layer[x] for layer in layers]
        for total in range(best + cost, min(best + cost + span, last) + 1):
            # k < 40 reached for a and k + 40 for total - a (the pairs the other way round are
            # the same test with a and total - a exchanged, in the same loop)
            for a in range(max(first, total - depth + 1), min(total - first, depth - 1) + 1):
                if sets[a] & (sets[total - a] >> HALF) & _LOW:
                    found = total - cost
                    break
            if found != NONE:
                break
        found_at[x] = via[t] = found
    return via, best
