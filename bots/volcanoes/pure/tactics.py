"""Forced wins within the mover's next two moves, found by looking at every move (pure Python): what
the pure search uses at its root, before and after searching.

Each player moves twice in a row, one growth between (blue, orange, growth, orange, blue, growth):
a player about to move twice wins by force when some move of its first either connects (by a
placement, or an eruption, the growth's included) or leaves a move that does. The tree proves such
wins too, but only once it has expanded the node after the right first move, and at a turn's few
hundred iterations it often has not (how often, and what this look gains: the `tactics` record in
docs/experiments/pure-mcts.md, `python -m bots.volcanoes.proven_wins`).

A win by a raise that erupts is missed by `rules.winning_placements` (the decisive moves of the
tree and the playouts), so `winning_moves` plays each raise that tops a volcano.
"""

from __future__ import annotations

from . import rules

NO_WIN = -1


def winning_moves(board, turns: int) -> list[int]:
    """The moves of the player to move after `turns` turns that win at once: placements that
    connect, then raises that erupt into a connection (in tile order within each)."""
    mover = rules.ACTORS[turns]
    found = rules.winning_placements(board, mover)
    top = rules.BLUE_TOP - 1 if mover > 0 else rules.ORANGE_TOP + 1  # a raise from here erupts
    win = rules.WIN_FOR[mover]
    tile = board.find(top)
    while 0 <= tile < rules.N_TILES:
        if rules.play(bytearray(board), mover, tile) == win:
            found.append(tile)
        tile = board.find(top, tile + 1)
    return found


def wins_by_force(board, turns: int, tile: int) -> bool:
    """Whether `tile` wins within the mover's next two moves: at once, by the growth after it, or
    by a move of the mover's after that growth."""
    mover = rules.ACTORS[turns]
    after, played, outcome = rules.after_move(board, turns, tile)
    if outcome != rules.ONGOING:
        return outcome == rules.WIN_FOR[mover]
    return rules.ACTORS[played] == mover and bool(winning_moves(after, played))


def forced_win(board, turns: int) -> int:
    """A move with which the player to move after `turns` turns (in an ongoing game) wins by force
    within its next two moves: one that wins at once, else, when it moves again after the growth,
    one after which the growth connects it or a move does; NO_WIN if there is none."""
    found = winning_moves(board, turns)
    if found:
        return found[0]
    if rules.ACTORS[turns + 1] != rules.GROWTH:  # the opponent moves next: no second move to look at
        return NO_WIN
    for tile in rules.legal_moves(board, rules.ACTORS[turns]):
        if wins_by_force(board, turns, tile):
            return tile
    return NO_WIN
