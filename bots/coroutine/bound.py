"""The longest optimum any Coroutine board can have, by exhaustive search: a proof, not a sample.

A board whose optimum is at least N turns has an optimal line whose states s_0 .. s_{N-2} (a state
is (mover's square, other's square), as in fast.py) are distinct, reached first at exactly turns
0 .. N-2, and from which no step reaches the centre; no state reached within N-2 turns may step
onto the centre either. A depth-first search over such lines decides arrows as it goes (a step
shows its arrow, a pass hides every arrow the mover could use, a non-winning state hides the arrow
to the centre, an earlier state of the line must not step straight to a later one) and drops a line
as soon as a breadth-first search over the moves already known to exist reaches a state of the
line too early or a winning state within N-2 turns. Every board with an optimum of N or more agrees
with the arrows decided for some surviving line; trying every way to set the undecided arrows of
every surviving line therefore finds the longest optimum if it is N or more, and proves there is
none otherwise.

    python -m bots.coroutine.bound [--turns 30]
"""

from __future__ import annotations

import sys
from typing import NamedTuple

import numpy as np
from numba import njit

from bots import puzzle_solver
from bots.coroutine.fast import MOST_TURNS, NEIGHBOUR, START_STATE, enqueue, fewest_turns
from referee.coroutine.puzzle import PUZZLE
from referee.coroutine.rules import CENTRE, Board, format_puzzle, neighbour
from referee.platform.commands import run_command
from referee.platform.errors import UserError

# The direction from each square to the centre: the arrow under the other token that wins.
TO_CENTRE = np.array([next((d for d in range(8) if neighbour(s, d) == CENTRE), -1) for s in range(9)], np.int64)
_MAX_LINES = 1_000_000  # surviving lines kept; the search stops with an error beyond that


class Bound(NamedTuple):
    turns: int  # the N asked about
    lines: int  # lines of N-1 states that survive the search
    longest: int  # the longest optimum among boards agreeing with a surviving line (-1: none)
    board: Board | None  # a board with that optimum


def bound(turns: int) -> Bound:
    """Search every board that could need `turns` or more; `longest < turns` proves none does."""
    shown, hidden = surviving_lines(turns)
    longest, best = -1, np.zeros(9, np.int64)
    for line in range(len(shown)):
        longest = max(longest, _longest_completion(shown[line], hidden[line], NEIGHBOUR, best))
    board = tuple(int(m) for m in best) if longest >= 0 else None
    return Bound(turns, len(shown), longest, board)


def surviving_lines(turns: int) -> tuple[np.ndarray, np.ndarray]:
    """The arrows decided shown and hidden (9 masks each) for each line that survives the search."""
    if turns < 2:
        raise ValueError(f"ask about 2 turns or more, not {turns}")
    shown = np.zeros((_MAX_LINES, 9), np.int64)
    hidden = np.zeros((_MAX_LINES, 9), np.int64)
    count = _surviving_lines(turns, NEIGHBOUR, TO_CENTRE, shown, hidden)
    if count > _MAX_LINES:
        raise RuntimeError(f"{count:,} lines survive for {turns} turns: too many to keep")
    return shown[:count].copy(), hidden[:count].copy()


@njit(cache=True)
def _known_distances_ok(line, last, shown, hidden, neighbour, to_centre, horizon):
    """Breadth-first search over the moves known to exist; hide the winning arrow of every state it
    reaches within `horizon` turns (repeating while that uncovers new forced passes). False when a
    state of the line (indices 0..last) is reached before its turn or a known win is within reach."""
    turns = np.empty(81, np.int64)
    queue = np.empty(81, np.int64)
    while True:
        turns[:] = -1
        turns[line[0]] = 0
        queue[0] = line[0]
        head, tail = 0, 1
        changed = False
        while head < tail:
            state = queue[head]
            head += 1
            here, there = state // 9, state % 9
            win = 1 << to_centre[here]
            if turns[state] <= horizon:
                if shown[there] & win:
                    return False
                if not hidden[there] & win:
                    hidden[there] |= win
                    changed = True
            must_pass = hidden[there] & win != 0
            for d in range(8):
                to = neighbour[here, d]
                if to < 0 or to == there or to == CENTRE:
                    continue
                if shown[there] >> d & 1:
                    must_pass = False
                    tail = enqueue(turns, queue, tail, state, there * 9 + to)
                elif not hidden[there] >> d & 1:
                    must_pass = False
            if must_pass:
                tail = enqueue(turns, queue, tail, state, there * 9 + here)
        for index in range(last + 1):
            if 0 <= turns[line[index]] < index:
                return False
        if not changed:
            return True


@njit(cache=True)
def _surviving_lines(target, neighbour, to_centre, out_shown, out_hidden):
    """Depth-first search over lines s_0 .. s_{target-2}; stores each survivor's decided arrows."""
    last = target - 2
    line = np.zeros(last + 1, np.int64)
    shown = np.zeros((last + 1, 9), np.int64)  # arrows decided at each depth
    hidden = np.zeros((last + 1, 9), np.int64)
    next_choice = np.zeros(last + 1, np.int64)  # 0..7: step in that direction, 8: pass
    line[0] = START_STATE
    hidden[0, CENTRE] = 255
    if not _known_distances_ok(line, 0, shown[0], hidden[0], neighbour, to_centre, last):
        return 0
    found = 0
    depth = 0
    while depth >= 0:
        if depth == last:
            if found < out_shown.shape[0]:
                out_shown[found] = shown[depth]
                out_hidden[found] = hidden[depth]
            found += 1
            depth -= 1
            continue
        choice = next_choice[depth]
        if choice > 8:
            depth -= 1
            continue
        next_choice[depth] += 1
        here, there = line[depth] // 9, line[depth] % 9
        on, off = shown[depth + 1], hidden[depth + 1]
        on[:] = shown[depth]
        off[:] = hidden[depth]
        if choice < 8:  # a step: its arrow is shown
            to = neighbour[here, choice]
            if to < 0 or to == there or to == CENTRE or off[there] >> choice & 1:
                continue
            on[there] |= 1 << choice
            nxt = there * 9 + to
        else:  # a forced pass: every arrow the mover could use is hidden
            usable = 0
            for d in range(8):
                to = neighbour[here, d]
                if to >= 0 and to != there:
                    usable |= 1 << d
            if on[there] & usable:
                continue
            off[there] |= usable
            nxt = there * 9 + here
        fresh = True
        for index in range(depth + 1):
            fresh = fresh and line[index] != nxt
        if not fresh:
            continue
        line[depth + 1] = nxt
        # no earlier state of the line may step straight to nxt (it would be reached too early)
        contradiction = False
        for index in range(depth):
            here_i, there_i = line[index] // 9, line[index] % 9
            if nxt // 9 == there_i:
                for d in range(8):
                    if neighbour[here_i, d] == nxt % 9:
                        contradiction = contradiction or on[there_i] >> d & 1 == 1
                        off[there_i] |= 1 << d
        if contradiction or not _known_distances_ok(line, depth + 1, on, off, neighbour, to_centre, last):
            continue
        depth += 1
        next_choice[depth] = 0
    return found


@njit(cache=True)
def _longest_completion(shown, hidden, neighbour, best):
    """The longest optimum over every way to set the undecided arrows; writes a board with it into
    `best` when it beats the optimum of the board already there."""
    free = np.empty(64, np.int64)
    count = 0
    for square in range(9):
        for d in range(8):
            if square != CENTRE and not (shown[square] | hidden[square]) >> d & 1:
                free[count] = square * 8 + d
                count += 1
    longest = -1
    masks = np.empty(9, np.int64)
    for subset in range(1 << count):
        masks[:] = shown
        for i in range(count):
            if subset >> i & 1:
                masks[free[i] // 8] |= 1 << (free[i] % 8)
        turns = fewest_turns(masks, neighbour)
        if turns > longest:
            longest = turns
            if turns > fewest_turns(best, neighbour):
                best[:] = masks
    return longest


def main(argv: list[str] | None = None) -> int:
    parser = puzzle_solver.parser(
        PUZZLE, "Prove by exhaustive search whether any board needs N turns or more.", "bound"
    )
    parser.add_argument("--turns", type=int, default=30, metavar="N", help="(default 30)")
    parser.set_defaults(run=run_bound)
    return run_command(parser.parse_args(argv))


def run_bound(args) -> int:
    if not 2 <= args.turns <= MOST_TURNS:
        raise UserError(f"--turns must be 2 to {MOST_TURNS}")
    result = bound(args.turns)
    searched = f"{result.lines:,} lines of {args.turns - 1} states survive the search"
    if result.longest < args.turns:
        print(f"no board needs {args.turns} turns or more: {searched}, and none of their completions needs "
              f"more than {result.longest} turns")  # fmt: skip
    else:
        print(f"the longest optimum of any board is {result.longest} turns ({searched}):")
        print(format_puzzle(result.board))
    return 0


if __name__ == "__main__":
    sys.exit(main())
