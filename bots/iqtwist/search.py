"""Every canonical solution of a state: an exact-cover search over 32-bit cell masks.

The candidates are the canonical placements of the pieces not yet placed that fit the free cells
and the pegs: one per (piece, cells), at the lowest orientation valid with the pegs, so each
canonical solution is found exactly once. The search fills the lowest empty cell first, trying only
the candidates whose lowest cell it is (all lower cells are full, so no other candidate fits there).
`_search` is the numba kernel; `reference_solutions` searches the same way in plain Python on the
rules' own functions, the oracle the kernel is tested against.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from referee.iqtwist.pieces import CELLS, FOOTPRINTS, FULL_BOARD, PIECES, colour, footprint
from referee.iqtwist.rules import (
    Placement,
    State,
    apply,
    canonical,
    covered,
    is_solved,
    parse_placement,
    piece_problem,
    solution_string,
    viable_placements,
)

INITIAL_CAPACITY = 8192  # the empty board has 5992 solutions


class Candidates(NamedTuple):
    placements: list[Placement]  # sorted by lowest cell, then piece, then orientation
    piece: np.ndarray  # int64 piece index 0-7, per candidate
    mask: np.ndarray  # int64 cells covered, per candidate
    starts: np.ndarray  # int64 [CELLS + 1]: candidates whose lowest cell is c are starts[c]:starts[c+1]


def candidates(state: State) -> Candidates:
    """The canonical placements of the unplaced pieces that fit the free cells and the pegs."""
    piece, orientation, column, row, cells, holes = FOOTPRINTS
    peg_cells = 0
    pegs_by_colour = np.zeros(4, np.int64)
    for peg in state.pegs:
        peg_cells |= 1 << peg.cell
        pegs_by_colour[colour(peg.letter)] |= 1 << peg.cell
    # A footprint may cover a peg only with a hole of the peg's colour (pieces 2c, 2c+1 have colour c).
    allowed_on_pegs = holes & pegs_by_colour[piece // 2]
    fits = (
        ((_used_pieces(state) >> piece) & 1 == 0)
        & (cells & covered(state) == 0)
        & (cells & peg_cells & ~allowed_on_pegs == 0)
    )
    index = np.flatnonzero(fits)
    # FOOTPRINTS lists each piece's orientations in increasing order, so the first footprint of each
    # (piece, cells) is the canonical one.
    _, first = np.unique((piece[index] << CELLS) | cells[index], return_index=True)
    index = index[first]
    lowest = np.log2(cells[index] & -cells[index]).astype(np.int64)  # exact: powers of two
    order = np.lexsort((orientation[index], piece[index], lowest))
    index, lowest = index[order], lowest[order]
    return Candidates(
        placements=[Placement(PIECES[piece[i]], int(column[i]), int(row[i]), int(orientation[i])) for i in index],
        piece=piece[index],
        mask=cells[index],
        starts=np.searchsorted(lowest, np.arange(CELLS + 1)).astype(np.int64),
    )


def _lowest_cell(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _used_pieces(state: State) -> int:
    return sum(1 << PIECES.index(piece.letter) for piece in state.pieces)


@njit(cache=True)
def _lowest_empty_cell(occupied):
    cell = 0
    while (occupied >> cell) & 1:
        cell += 1
    return cell


@njit(cache=True)
def _search(starts, piece, mask, occupied, used, full, limit, out):
    """Count the exact covers of the free cells of `occupied` by candidates of unused pieces (bit p
    of `used` = piece p placed), stopping at `limit` (0 = no limit). The first len(out) covers are
    written to `out`, one row of candidate indices each (-1 where a piece was placed beforehand)."""
    if occupied == full:
        if out.shape[0] > 0:
            out[0, :] = -1
        return 1
    depth_max = out.shape[1]
    next_candidate = np.empty(depth_max, np.int64)
    stop = np.empty(depth_max, np.int64)
    chosen = np.empty(depth_max, np.int64)
    filled = np.empty(depth_max, np.int64)
    pieces_used = np.empty(depth_max, np.int64)
    count = 0
    depth = 0
    filled[0] = occupied
    pieces_used[0] = used
    cell = _lowest_empty_cell(occupied)
    next_candidate[0] = starts[cell]
    stop[0] = starts[cell + 1]
    while depth >= 0:
        if next_candidate[depth] == stop[depth]:
            depth -= 1
            continue
        i = next_candidate[depth]
        next_candidate[depth] += 1
        if mask[i] & filled[depth] or (pieces_used[depth] >> piece[i]) & 1:
            continue
        chosen[depth] = i
        now_filled = filled[depth] | mask[i]
        if now_filled == full:
            if count < out.shape[0]:
                out[count, :] = -1
                out[count, : depth + 1] = chosen[: depth + 1]
            count += 1
            if count == limit:
                return count
            continue
        depth += 1
        filled[depth] = now_filled
        pieces_used[depth] = pieces_used[depth - 1] | (1 << piece[i])
        cell = _lowest_empty_cell(now_filled)
        next_candidate[depth] = starts[cell]
        stop[depth] = starts[cell + 1]
    return count


def _run(state: State, limit: int, capacity: int) -> tuple[int, np.ndarray, Candidates]:
    table = candidates(state)
    out = np.empty((capacity, len(PIECES)), np.int64)
    count = _search(table.starts, table.piece, table.mask, covered(state), _used_pieces(state), FULL_BOARD, limit, out)
    return count, out, table


def count_solutions(state: State, limit: int = 0) -> int:
    """How many canonical solutions `state` has, counting no further than `limit` (0 = all)."""
    return _run(state, limit, 0)[0]


def solutions(state: State, limit: int = 0) -> list[str]:
    """The canonical solution strings of `state`, sorted (at most `limit` of them; 0 = all)."""
    count, out, table = _run(state, limit, limit or INITIAL_CAPACITY)
    if count > out.shape[0]:
        count, out, table = _run(state, limit, count)
    given = [canonical(piece, state.pegs) for piece in state.pieces]
    found = []
    for row in out[:count]:
        chosen = given + [table.placements[i] for i in row if i >= 0]
        found.append("".join(str(p) for p in sorted(chosen)))
    return sorted(found)


def warm_up() -> None:
    """Compile (or load from the cache) the kernel, so that later calls time the search alone."""
    count_solutions(State(), limit=1)


def reference_solutions(state: State) -> list[str]:
    """The same search in plain Python on the rules' own functions (viable placements, apply):
    slow, readable, and independent of the candidate table and the kernel; the oracle in tests."""
    options = [parse_placement(text) for text in viable_placements(state)]
    found: list[str] = []

    def extend(current: State) -> None:
        if is_solved(current):
            found.append(solution_string(current))
            return
        empty = _lowest_cell(~covered(current) & FULL_BOARD)
        for placement in options:
            if footprint(*placement).cells >> empty & 1 and piece_problem(current, placement) is None:
                extend(apply(current, placement))

    extend(state)
    return sorted(found)
