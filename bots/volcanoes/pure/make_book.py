"""Compute the pure search's opening book (`book.py`) with long numba `mcts` searches.

`python -m bots.volcanoes.pure.make_book PART PARTS OUT.json` computes the PART-th of PARTS shares
of the blue lines (share 0 also does orange's; run the shares at once, one a core), then `python -m
bots.volcanoes.pure.make_book --write OUT.json...` joins them into `opening_book.py`. Each position
gets a fresh tree seeded by its line: the same book on every machine. Needs numba (this module is
not bundled: `book.py` and `opening_book.py` are).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from bots.volcanoes.mcts import MctsBot
from bots.volcanoes.search import bitboard, tree

from . import book, rules

# Iterations a search: blue's first move, played in every game as blue, gets ten times those of the
# 12,800 other positions (numba mcts searches some 14,000 iterations in a 100 ms turn, the pure
# search some 400). All of them: about 40 CPU minutes.
FIRST_ITERATIONS = 300_000
LINE_ITERATIONS = 30_000


class Searcher:
    def __init__(self):
        self.options = MctsBot(capacity=1024).options  # (its search, in a tree of our own)
        self.nodes, self.reward, self.meta = tree.new_tree(1 << 22)
        self.root = bitboard.new_board()

    def best(self, moves: list[int], iterations: int) -> int:
        """numba mcts's move after `moves` (GROWTH_TURN for a growth), searched afresh."""
        board, turns = book.replay(moves)
        mover = rules.ACTORS[turns]
        work = tree.new_work(1 + sum((i + 1) * (m + 2) for i, m in enumerate(moves)))  # (seeded by the line)
        bitboard.from_levels(np.array(rules.to_levels(board), dtype=np.int64), self.root)
        tree.reset(self.nodes, self.reward, self.meta, -mover)
        tree.search(self.nodes, self.reward, self.meta, self.root, turns, iterations, self.options, work)
        return int(self.nodes[tree.best_child(self.nodes, True), tree.MOVE])


def compute(part: int, parts: int) -> dict:
    s = Searcher()
    g = book.GROWTH_TURN
    first = s.best([], FIRST_ITERATIONS)
    out = {"first": first, "lines": {}}
    if part == 0:  # orange's first two moves, after each blue opening
        out["orange"] = {}
        for b in rules.TILES:
            o2 = s.best([b], LINE_ITERATIONS)
            o4 = s.best([b, o2, g], LINE_ITERATIONS)
            out["orange"][b] = [o2, o4]
    for o1 in range(part, rules.N_TILES, parts):
        if o1 == first:
            continue
        for o2 in rules.TILES:
            if o2 == first:
                continue
            b5 = s.best([first, o1, g, o2], LINE_ITERATIONS)
            line = [first, o1, g, o2, b5, g]
            if book.replay(line)[1] < 0:  # (the game ended: no move to book)
                b7 = book.NO_MOVE
            else:
                b7 = s.best(line, LINE_ITERATIONS)
            out["lines"][o1 * rules.N_TILES + o2] = [b5, b7]
        print(f"o1 {o1} done", file=sys.stderr, flush=True)
    return out


BOOK_FILE = Path(book.__file__).with_name("opening_book.py")


def write(parts: list[dict], path: Path = BOOK_FILE) -> None:
    """Join the parts' moves into `opening_book.py`."""
    first = parts[0]["first"]
    orange = next(p["orange"] for p in parts if "orange" in p)
    lines = {int(k): v for p in parts for k, v in p["lines"].items()}
    n = rules.N_TILES
    blue = [lines.get(i, [book.NO_MOVE, book.NO_MOVE]) for i in range(n * n)]
    text = (
        '"""Written by `make_book.py`: the opening book\'s moves (see `book.py`)."""\n\n'
        f'FIRST = "{book.encode([first])}"\n'
        f'ORANGE = "{book.encode(m for b in rules.TILES for m in orange[str(b)])}"\n'
        "BLUE = (\n"
        + "".join(f'    "{book.encode(m for pair in blue[i : i + 50] for m in pair)}"\n' for i in range(0, n * n, 50))
        + ")\n"
    )
    path.write_text(text)


if __name__ == "__main__":
    if sys.argv[1] == "--write":
        write([json.loads(Path(p).read_text()) for p in sys.argv[2:]])
    else:
        Path(sys.argv[3]).write_text(json.dumps(compute(int(sys.argv[1]), int(sys.argv[2]))))
