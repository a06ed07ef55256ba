"""Positions labelled by numba `mcts`'s searches, to fit the pure search's knowledge offline
(`bots/volcanoes/fit_prior.py`): a tool that uses both engines, so it stands above them, as
`make_book` does. Not bundled.

`python -m bots.volcanoes.make_prior_data PART PARTS GAMES OUT.npz` plays GAMES games of numba
`mcts` against itself (share PART of PARTS: each game seeded by its number, so the shares of one
run never repeat a game, and the same command writes the same file on any machine). Every position
where a player is to move gets a fresh search of `--iterations`, whose statistics are the labels:
for each legal move, its visits, mean score and AMAF figures, and the root's mean. The move played
is the search's best at some positions, one drawn in proportion to the visits at others, a uniform
random one at a few, and the game opens with a few random moves, so that the positions are as varied
as those a search's tree meets, not only the lines of best play. Each position also records the
game's outcome.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import numpy as np

from referee.platform.errors import UserError
from referee.platform.commands import CommandParser, report
from referee.platform.files import write_atomic

from .mcts import MctsBot
from .pure import rules
from .search import bitboard, tree

ITERATIONS = 10_000  # a search (numba mcts searches some 14,000 in a 100 ms turn)
RANDOM_OPENING = 6  # the most random moves (players' turns) a game opens with
UNIFORM = 0.12  # the chance that a move is a uniform random one
BY_VISITS = 0.38  # the chance that it is drawn in proportion to the search's visits (else the best)


class Labeller:
    """numba mcts's search of a position, in a tree of our own, fresh for each position."""

    def __init__(self, iterations: int):
        self.iterations = iterations
        self.options = MctsBot(capacity=1024).options
        self.nodes, self.reward, self.meta = tree.new_tree(1 << 22)
        self.root = bitboard.new_board()

    def search(self, board, turns: int, seed: int) -> dict:
        """The root's statistics after a fresh search of the position (a `pure.rules` board)."""
        mover = rules.ACTORS[turns]
        work = tree.new_work(seed)
        bitboard.from_levels(np.array(rules.to_levels(board), dtype=np.int64), self.root)
        tree.reset(self.nodes, self.reward, self.meta, -mover)
        tree.search(self.nodes, self.reward, self.meta, self.root, turns, self.iterations, self.options, work)
        nodes, reward = self.nodes, self.reward
        top = self.meta[tree.ROOT]
        first, n = nodes[top, tree.FIRST], nodes[top, tree.N_CHILDREN]
        stats = np.zeros((4, rules.N_TILES), dtype=np.float32)  # visits, score, amaf visits, amaf score
        proven = np.zeros(rules.N_TILES, dtype=np.int8)
        for child in range(first, first + n) if first >= 0 else ():
            t = nodes[child, tree.MOVE]
            stats[:, t] = (
                nodes[child, tree.VISITS],
                reward[child, tree.SCORE],
                nodes[child, tree.AMAF_VISITS],
                reward[child, tree.AMAF_SCORE],
            )
            proven[t] = nodes[child, tree.PROOF]
        best = tree.best_child(nodes, self.meta, True)
        return {
            "stats": stats,
            "proven": proven,
            "best": int(nodes[best, tree.MOVE]) if best >= 0 else -1,
            "root_proof": int(nodes[top, tree.PROOF]),
        }


def play_game(labeller: Labeller, seed: int) -> list[dict]:
    """One game of varied play; every searched position with its labels and the game's outcome."""
    rng = np.random.default_rng(seed)
    board = rules.new_board()
    turns = 0
    records = []
    opening = int(rng.integers(0, RANDOM_OPENING + 1))
    moves_made = 0
    outcome = rules.ONGOING
    while outcome == rules.ONGOING and turns < rules.MAX_TURNS:
        who = rules.ACTORS[turns]
        if who == rules.GROWTH:
            outcome = rules.grow(board)
            turns += 1
            continue
        legal = rules.legal_moves(board, who)
        if not legal:
            outcome = rules.ORANGE_WINS if who > 0 else rules.BLUE_WINS
            break
        if moves_made < opening:
            move = int(rng.choice(legal))
        else:
            found = labeller.search(board, turns, int(rng.integers(1, 2**62)))
            records.append({"levels": rules.to_levels(board), "turns": turns, **found})
            visits = found["stats"][0]
            draw = rng.random()
            if draw < UNIFORM or visits.sum() == 0:
                move = int(rng.choice(legal))
            elif draw < UNIFORM + BY_VISITS:
                move = int(rng.choice(rules.N_TILES, p=visits / visits.sum()))
            else:
                move = found["best"]
        moves_made += 1
        outcome = rules.play(board, who, move)
        turns += 1
    if outcome == rules.ONGOING:
        outcome = rules.DRAW
    for record in records:
        record["outcome"] = outcome
    return records


def compute(part: int, parts: int, games: int, iterations: int, log=None) -> dict:
    """The labelled positions of games part, part + parts, ... below `games` * `parts`, as arrays."""
    log = log or sys.stderr
    labeller = Labeller(iterations)
    records = []
    for g in range(games):
        number = part + g * parts
        records += play_game(labeller, 1_000_003 * number + 17)
        print(f"game {g + 1}/{games}: {len(records)} positions", file=log, flush=True)
    return {
        "levels": np.array([r["levels"] for r in records], dtype=np.int8).reshape(-1, rules.N_TILES),
        "turns": np.array([r["turns"] for r in records], dtype=np.int16),
        "stats": np.array([r["stats"] for r in records], dtype=np.float32).reshape(-1, 4, rules.N_TILES),
        "proven": np.array([r["proven"] for r in records], dtype=np.int8).reshape(-1, rules.N_TILES),
        "best": np.array([r["best"] for r in records], dtype=np.int8),
        "root_proof": np.array([r["root_proof"] for r in records], dtype=np.int8),
        "outcome": np.array([r["outcome"] for r in records], dtype=np.int8),
        "iterations": np.array(iterations),
    }


def main(argv: list[str] | None = None) -> int:
    parser = CommandParser(prog="python -m bots.volcanoes.make_prior_data", description=__doc__)
    parser.add_argument("part", type=int, help="this share (from 0)")
    parser.add_argument("parts", type=int, help="how many shares the run has")
    parser.add_argument("games", type=int, help="games in this share")
    parser.add_argument("out", type=Path, help="the .npz file to write")
    parser.add_argument("--iterations", type=int, default=ITERATIONS, help=f"a search (default {ITERATIONS:,})")
    args = parser.parse_args(argv)
    try:
        if not 0 <= args.part < args.parts or args.games < 1 or args.iterations < 1:
            raise UserError("give 0 <= PART < PARTS, GAMES >= 1 and --iterations >= 1")
        data = compute(args.part, args.parts, args.games, args.iterations)
        write_atomic(args.out, _npz_bytes(data))
    except UserError as exc:
        return report(args, exc)
    except OSError as exc:
        return report(args, UserError(f"cannot write {args.out}: {exc.strerror or exc}"))
    return 0


def _npz_bytes(data: dict) -> bytes:
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **data)
    return buffer.getvalue()


if __name__ == "__main__":
    sys.exit(main())
