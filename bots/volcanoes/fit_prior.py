"""Fit the pure search's move prior (`pure/prior.py`) to numba `mcts`'s searches, offline.

`python -m bots.volcanoes.fit_prior DATA.npz... [--write]` reads positions labelled by
`make_prior_data`, describes each legal move by `features.features`, and fits the weights of a softmax
over the moves (the chance of each move is proportional to exp of its score) to the share of the
search's visits each move got: cross-entropy, an L2 penalty, full-batch Adam. It prints the fit on a
held-out tenth of the positions (every tenth game's: its positions are not independent): the
cross-entropy, and how often the prior's first move is the search's, beside those of the search's
own hand-made prior (`mcts._prior`'s means, as scores). `--write` then writes `pure/prior_weights.py`.
Not bundled (it needs numpy; `pure/prior.py` and `pure/prior_weights.py` are bundled).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from referee.platform.errors import UserError
from referee.platform.commands import CommandParser, report
from referee.platform.files import write_atomic

from .pure import mcts, prior, rules
from .pure.features import move_features

WEIGHTS_FILE = Path(prior.__file__).with_name("prior_weights.py")
L2 = 1e-4  # per position, on every weight
STEPS = 400
RATE = 0.05
POWER = 1.0


def load(paths) -> dict:
    """The positions of the files, joined; each keeps its game's number in the run (`game`)."""
    parts = []
    for path in paths:
        try:
            with np.load(path) as data:
                parts.append({key: data[key] for key in data.files})
        except (OSError, ValueError) as exc:
            raise UserError(f"cannot read {path}: {exc}") from None
    keys = ("levels", "turns", "stats", "proven", "best", "root_proof", "outcome")
    joined = {key: np.concatenate([p[key] for p in parts]) for key in keys}
    # A game's positions are consecutive, its first has the fewest turns: number the games.
    turns = joined["turns"].astype(np.int64)
    starts = np.r_[True, turns[1:] <= turns[:-1]]
    joined["game"] = np.cumsum(starts) - 1
    return joined


def examples(data: dict, power: float = 1.0, stale: bool = False):
    """(features: int32[M, G], position of each move: int64[M], target share: float64[M], the
    positions kept) over the positions where the search ran and did not prove the root."""
    visits = data["stats"][:, 0, :]
    keep = np.flatnonzero((visits.sum(1) > 0) & (data["root_proof"] == rules.ONGOING) & ((visits > 0).sum(1) > 1))
    rows, owner, target = [], [], []
    for j, i in enumerate(keep):
        board = rules.from_levels(data["levels"][i])
        turns = int(data["turns"][i])
        moves = rules.legal_moves(board, rules.ACTORS[turns])
        v = visits[i, moves].astype(np.float64) ** power
        race = None
        if stale:  # the race on the game's position before this one
            before = i - 1 if i > 0 and data["game"][i - 1] == data["game"][i] else i
            race = prior.Race(rules.from_levels(data["levels"][before]))
        rows += move_features(board, turns, moves, race)
        owner += [j] * len(moves)
        target.append(v / v.sum())
    return np.array(rows, dtype=np.int32), np.array(owner), np.concatenate(target), keep


def _softmax_by(scores, owner, n):
    top = np.full(n, -np.inf)
    np.maximum.at(top, owner, scores)
    e = np.exp(scores - top[owner])
    total = np.bincount(owner, weights=e, minlength=n)
    return e / total[owner]


def fit(features, owner, target, steps: int = STEPS, rate: float = RATE, l2: float = L2, log=None):
    """The weights that fit the softmax of the moves' summed weights to `target` (Adam)."""
    log = log or sys.stderr
    n = owner.max() + 1
    w = np.zeros(prior.N_FEATURES)
    m = np.zeros_like(w)
    s = np.zeros_like(w)
    flat = features.ravel()
    for step in range(1, steps + 1):
        p = _softmax_by(w[features].sum(1), owner, n)
        g = np.bincount(flat, weights=np.repeat(p - target, features.shape[1]), minlength=w.size) / n + l2 * w
        m = 0.9 * m + 0.1 * g
        s = 0.999 * s + 0.001 * g * g
        w -= rate * (m / (1 - 0.9**step)) / (np.sqrt(s / (1 - 0.999**step)) + 1e-8)
        if step % 100 == 0:
            print(f"step {step}: cross-entropy {cross_entropy(w[features].sum(1), owner, target):.4f}", file=log)
    return w


def cross_entropy(scores, owner, target) -> float:
    n = owner.max() + 1
    p = _softmax_by(scores, owner, n)
    return float(-(target * np.log(p + 1e-12)).sum() / n)


def agreement(scores, owner, target) -> float:
    """How often the best-scored move is the one the search visited most (ties: the first)."""
    n = owner.max() + 1
    hits = 0
    start = 0
    counts = np.bincount(owner, minlength=n)
    for k in range(n):
        end = start + counts[k]
        hits += np.argmax(scores[start:end]) == np.argmax(target[start:end])
        start = end
    return hits / n


def hand_scores(data: dict, keep) -> np.ndarray:
    """The search's hand-made prior (`mcts._prior` at its defaults) as scores: each move's mean."""
    means = mcts.MCTSBot().prior
    out = []
    for i in keep:
        board = rules.from_levels(data["levels"][i])
        turns = int(data["turns"][i])
        mover = rules.ACTORS[turns]
        moves = rules.legal_moves(board, mover)
        visits, wins = [0] * rules.N_TILES, [0.0] * rules.N_TILES
        mcts._prior(board, mover, moves, means, visits, wins)
        out += [wins[t] / visits[t] for t in moves]
    return 20 * np.array(out)  # (a scale for the cross-entropy: about the best for these means)


def write(w, path: Path = WEIGHTS_FILE, width: int = 100) -> None:
    """The weights into `prior_weights.py`, as `prior.encode` writes them, in rows of `width`."""
    text = prior.encode(w)
    rows = "".join(f'    "{text[i : i + width]}"\n' for i in range(0, len(text), width))
    write_atomic(
        path,
        f'"""Written by `fit_prior.py`: the weights of the move prior (see `prior.py`)."""\n\nWEIGHTS = (\n{rows})\n',
    )


def main(argv: list[str] | None = None) -> int:
    parser = CommandParser(prog="python -m bots.volcanoes.fit_prior", description=__doc__)
    parser.add_argument("data", nargs="+", type=Path, help="files written by make_prior_data")
    parser.add_argument("--write", action="store_true", help="write the weights into pure/prior_weights.py")
    parser.add_argument("--steps", type=int, default=STEPS)
    parser.add_argument("--l2", type=float, default=L2)
    parser.add_argument("--stale", action="store_true", help="measure the race on the position before")
    parser.add_argument(
        "--power", type=float, default=POWER, help="the target: each move's visits to this power, as shares"
    )
    args = parser.parse_args(argv)
    try:
        data = load(args.data)
        features, owner, target, keep = examples(data, args.power, args.stale)
        held = data["game"][keep] % 10 == 9
        moves_held = held[owner]
        print(f"{len(keep):,} positions ({held.sum():,} held out), {len(owner):,} moves", file=sys.stderr)
        train_owner = np.unique(owner[~moves_held], return_inverse=True)[1]
        w = fit(features[~moves_held], train_owner, target[~moves_held], args.steps, RATE, args.l2)
        test_owner = np.unique(owner[moves_held], return_inverse=True)[1]
        learned = w[features[moves_held]].sum(1)
        hand = hand_scores(data, keep[held])
        for name, scores in (("learned", learned), ("hand-made", hand), ("uniform", 0 * hand)):
            print(
                f"held out, {name}: cross-entropy {cross_entropy(scores, test_owner, target[moves_held]):.4f}, "
                f"first move the search's {agreement(scores, test_owner, target[moves_held]):.1%}"
            )
        if args.write:
            w = fit(features, owner, target, args.steps, RATE, args.l2)
            write(w)
    except UserError as exc:
        return report(args, exc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
