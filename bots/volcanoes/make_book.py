"""Compute the pure search's opening book (`pure/book.py`) with long numba `mcts` searches: a tool
that uses both engines, so it stands above them (the pure engine imports nothing of numba's).

`python -m bots.volcanoes.make_book PART PARTS OUT.json` computes the PART-th of PARTS shares of the
lines (each also searches orange's first two moves, which its lines follow; run the shares at once,
one a core), then `python -m bots.volcanoes.make_book --write OUT.json...` joins them into
`pure/opening_book.py`. Each position gets a fresh tree seeded by its line: the same book on every
machine. Not bundled (`pure/book.py` and `pure/opening_book.py` are).
"""

from __future__ import annotations

import json
import sys
from itertools import permutations
from pathlib import Path

import numpy as np

from referee.platform.errors import UserError
from referee.platform.commands import CommandParser, report
from referee.platform.files import write_atomic

from .mcts import MctsBot
from .pure import book, rules
from .search import bitboard, tree

# Iterations a search (numba mcts searches some 14,000 in a 100 ms turn, the pure search some 400):
# blue's first move, played in every game as blue, gets ten times those of the 12,800 positions of
# blue's next two moves; orange's third and fourth moves, 25,600 positions, half. All of them: about
# 60 CPU minutes.
FIRST_ITERATIONS = 300_000
LINE_ITERATIONS = 30_000
DEEP_ITERATIONS = 15_000


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
        return int(self.nodes[tree.best_child(self.nodes, self.meta, True), tree.MOVE])


def generators() -> list[list[int]]:
    """Permutations of the tiles that generate the board's 120 symmetries (those that keep
    adjacency; they keep antipodes too), found by a backtracking search."""
    found = []

    def extend(image: dict, inverse: dict, queue: list) -> None:
        while queue and all(n in image for n in rules._NB[queue[0]]):
            queue = queue[1:]
        if not queue:
            if len(image) == rules.N_TILES:
                found.append([image[t] for t in rules.TILES])
            return
        t = queue[0]
        todo = [n for n in rules._NB[t] if n not in image]
        free = [n for n in rules._NB[image[t]] if n not in inverse]
        if len(free) != len(todo):
            return
        for targets in permutations(free):
            extend(
                {**image, **dict(zip(todo, targets, strict=True))},
                {**inverse, **dict(zip(targets, todo, strict=True))},
                queue + todo,
            )

    for x in rules.TILES:
        extend({0: x}, {x: 0}, [0])
    found = [
        a for a in found if all(sorted(a[n] for n in rules._NB[t]) == sorted(rules._NB[a[t]]) for t in rules.TILES)
    ]
    chosen = []
    made = book.group(chosen)
    for a in found:  # add each symmetry that the chosen ones do not make yet
        if len(made) == len(found):
            break
        if a not in made:
            chosen.append(a)
            made = book.group(chosen)
    return chosen


def compute(part: int, parts: int) -> dict:
    """The PART-th share of the book's positions (see the module's docstring)."""
    s = Searcher()
    g = book.GROWTH_TURN
    first = s.best([], FIRST_ITERATIONS)
    out = {"first": first, "lines": {}}
    reps = sorted({sigma[b] for b, sigma in enumerate(book.symmetries(generators()))})
    orange = {r: s.best([r], LINE_ITERATIONS) for r in reps}
    orange = {r: [o2, s.best([r, o2, g], LINE_ITERATIONS)] for r, o2 in orange.items()}
    out["orange"] = orange
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
    out["deep"] = compute_deep(s, part, parts, orange)
    return out


def compute_deep(s: Searcher, part: int, parts: int, orange: dict) -> dict:
    """Orange's third and fourth moves (either side of a growth) on the lines from each class's
    first tile: c * 6400 + b5 * 80 + b7 -> [o7, o9] (none where the line is not legal)."""
    g, n = book.GROWTH_TURN, rules.N_TILES
    deep = {}
    for c, r in enumerate(sorted(orange)):
        o2, o4 = orange[r]
        for b5 in range(part, n, parts):
            for b7 in rules.TILES:
                line = [r, o2, g, o4, b5, g, b7]
                if book.replay(line)[1] == len(line):
                    o7 = s.best(line, DEEP_ITERATIONS)
                    on = line + [o7, g]
                    deep[c * n * n + b5 * n + b7] = [
                        o7,
                        s.best(on, DEEP_ITERATIONS) if book.replay(on)[1] > 0 else book.NO_MOVE,
                    ]
            print(f"class {c} b5 {b5} done", file=sys.stderr, flush=True)
    return deep


BOOK_FILE = Path(book.__file__).with_name("opening_book.py")


def _rows(tiles: list[int], width: int = 100) -> str:
    text = book.encode(tiles)
    if len(text) <= width:
        return f'"{text}"\n'
    return "(\n" + "".join(f'    "{text[i : i + width]}"\n' for i in range(0, len(text), width)) + ")\n"


def write(parts: list[dict], path: Path = BOOK_FILE) -> None:
    """Join the parts' moves into `opening_book.py`."""
    n, none = rules.N_TILES, [book.NO_MOVE, book.NO_MOVE]
    gens = generators()
    sigma = book.symmetries(gens)
    first = parts[0]["first"]
    computed = {int(r): v for r, v in next(p["orange"] for p in parts if "orange" in p).items()}
    orange_reps = {r: computed[r] for r in sorted({sigma[b][b] for b in rules.TILES})}
    orange = []  # each tile's: its class's first tile's moves, taken back by the symmetry
    for b in rules.TILES:
        back = book.inverse(sigma[b])
        orange += [back[m] for m in orange_reps[sigma[b][b]]]
    lines = {int(k): v for p in parts for k, v in p["lines"].items()}
    deep = {int(k): v for p in parts for k, v in p.get("deep", {}).items()}
    text = (
        '"""Written by `make_book.py`: the opening book\'s moves (see `book.py`)."""\n\n'
        f'FIRST = "{book.encode([first])}"\n'
        f"ORANGE = {_rows(orange)}"
        f"BLUE = {_rows([m for i in range(n * n) for m in lines.get(i, none)])}"
        f"DEEP = {_rows([m for i in range(len(orange_reps) * n * n) for m in deep.get(i, none)])}"
        f"GENERATORS = {_rows([t for g in gens for t in g])}"
    )
    write_atomic(path, text)


def main(argv: list[str] | None = None) -> int:
    parser = CommandParser(prog="python -m bots.volcanoes.pure.make_book", description=__doc__)
    parser.add_argument("share", nargs="*", metavar="PART PARTS OUT.json", help="compute share PART (from 0) of PARTS")
    parser.add_argument("--write", nargs="+", metavar="OUT.json", help="join the computed shares into opening_book.py")
    args = parser.parse_args(argv)
    try:
        if args.write:
            if args.share:
                raise UserError("either PART PARTS OUT.json or --write OUT.json...")
            parts = []
            for name in args.write:
                try:
                    parts.append(json.loads(Path(name).read_text()))
                except (OSError, ValueError) as exc:
                    raise UserError(f"cannot read the share {name}: {getattr(exc, 'strerror', None) or exc}") from None
            try:
                write(parts)
            except (KeyError, TypeError, ValueError, StopIteration, AttributeError):
                raise UserError("the shares are not files written by make_book PART PARTS OUT.json") from None
            return 0
        if len(args.share) != 3 or not all(x.isdigit() for x in args.share[:2]):
            raise UserError("give PART PARTS OUT.json (0 <= PART < PARTS), or --write OUT.json...")
        part, parts, out = int(args.share[0]), int(args.share[1]), args.share[2]
        if not part < parts:
            raise UserError(f"PART must be below PARTS, not {part} of {parts}")
        write_atomic(out, json.dumps(compute(part, parts)))
    except UserError as exc:
        return report(args, exc)
    except OSError as exc:
        return report(args, UserError(f"cannot write: {exc.strerror or exc}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
