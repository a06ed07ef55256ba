"""`arena report DB --csv FILE --json FILE`: a run's ratings and cross-table as data, for any run
(match, tournament, sprt, tune, league), computed as the live page computes them (`board.Board`).

The CSV has one row per player, best first: its rank, Elo with standard error and 95% interval,
results, errors, time per turn, the means of its [PDATA]/[TDATA], then one column per opponent,
`vs LABEL`: its head-to-head score against that player (0..1, empty where they never met), and last
OpenSkill's rating as the report prints it: `mu`, `sigma` and its 95% interval (`mu_low`, `mu_high`);
last, so that a script reading the columns by position still finds the earlier ones. In games of
three or four players `wins`, `draws` and `losses` count the games a player was first alone, first
shared and not first (the report's 1st-shared-not), and `score` is the mean of its head-to-head
results (docs/arena.md). The JSON holds the same rows, the cross-table with each cell's count of
games, the run's description, and for an SPRT its test (`sprt`: bounds, log-likelihood ratio,
verdict).
"""

from __future__ import annotations

import csv
import io
import json
import math

from referee.platform.files import write_atomic

from arena.stats.board import Board
from arena.stats.ratings import Rating, openskill_ratings, ranked
from arena.stats.tables import sprt_course

_FIELDS = (
    "rank",
    "label",
    "elo",
    "stderr",
    "low",
    "high",
    "games",
    "wins",
    "draws",
    "losses",
    "score",
    "timeout",
    "invalid",
    "crash",
    "forfeits",
    "ms_median",
    "ms_p99",
    "ms_max",
    "first_turn_max",
)
_OPENSKILL_FIELDS = ("mu", "sigma", "mu_low", "mu_high")  # after every other column (see the docstring)


def board_of(games: list[dict], labels: list[str]) -> Board:
    board = Board(history=False)
    for label in labels:
        board.know(label)
    for game in games:
        board.add(game)
    return board


def openskill_of(games: list[dict], labels: list[str]) -> dict[str, dict]:
    """Each player's OpenSkill rating, as the report's ratings table gives it: {label: {mu, sigma,
    mu_low, mu_high}}; every player seated in `games` among them, as the board rows them (a tune's
    games seat its two sides, which are no run's players)."""
    seated = dict.fromkeys([*labels, *(label for game in games for label in ranked(game)[0])])
    return {rating.label: _openskill_fields(rating) for rating in openskill_ratings(games, list(seated))}


def _openskill_fields(rating: Rating) -> dict:
    low, high = rating.interval
    return dict(zip(_OPENSKILL_FIELDS, (rating.mu, rating.sigma, low, high), strict=True))


def _finite(value):
    """JSON and CSV have no infinity or NaN: None (empty) instead."""
    return None if isinstance(value, float) and not math.isfinite(value) else value


def sprt_of(config: dict, games: list[dict]) -> dict | None:
    """An SPRT run's test as data: its bounds, where its log-likelihood ratio stands, and what it
    decided (`verdict`: "H1", "H0", or None: undecided so far or within its pairs) after how many
    pairs or units (`decided_after`). None for another run."""
    if config["command"] != "sprt":
        return None
    course = sprt_course(games, config)
    state, decided = course.state, course.decided
    return {
        **config["sprt"],
        "players": config["lineups"][0][:2],
        "llr": state.llr,
        "lower": state.lower,
        "upper": state.upper,
        "units": state.units,
        "max_units": config["units"],
        "verdict": decided.verdict if decided else None,
        "decided_after": decided.units if decided else None,
    }


# A league's report leaves out its removed players and their games, as its standings do: the run's
# configuration, as reported, says which (`{"players": [...], "games": N}`)
LEFT_OUT = "left_out"


def left_out_line(left_out: dict) -> str:
    """What a report says of the players and games it leaves out."""
    return (
        f"removed from the league: {', '.join(left_out['players'])}; their {left_out['games']} games are left "
        "out, as in the league's standings"
    )


def as_json(config: dict, board: Board, failures: list[dict], sprt: dict | None, openskill: dict[str, dict]) -> dict:
    rows = board.rows()
    order = [row["label"] for row in rows]
    for row in rows:
        row.update(openskill[row["label"]])
        for key, value in row.items():
            row[key] = _finite(value)
    return {
        "run": {
            "command": config["command"],
            "game": config.get("game", {}).get("name") or config.get("game", {}).get("protocol"),
            "seed": config.get("seed"),
            "games": board.count,
            "failures": len(failures),
            **({LEFT_OUT: config[LEFT_OUT]} if config.get(LEFT_OUT) else {}),
        },
        "players": rows,
        "cross": board.cross_table(order),
        **({"sprt": sprt} if sprt else {}),
    }


CSV_HEAD = ",".join(_FIELDS[:2])  # how the CSV begins (an earlier one may be written over)


def as_csv(board: Board, openskill: dict[str, dict]) -> str:
    rows = board.rows()
    order = [row["label"] for row in rows]
    names = sorted({name for row in rows for name in row["data"]})
    cross = board.cross_table(order)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([*_FIELDS, *names, *(f"vs {label}" for label in order), *_OPENSKILL_FIELDS])
    for row, scores in zip(rows, cross["score"], strict=True):
        cells = [_finite(row[field]) for field in _FIELDS]
        cells += [row["data"].get(name) for name in names]
        cells += scores
        cells += [openskill[row["label"]][field] for field in _OPENSKILL_FIELDS]
        writer.writerow(["" if c is None else c for c in cells])
    return out.getvalue()


def export(config: dict, labels: list[str], games: list[dict], failures: list[dict], csv_path, json_path) -> None:
    board = board_of(games, labels)
    openskill = openskill_of(games, labels)
    if csv_path:
        write_atomic(csv_path, as_csv(board, openskill))
    if json_path:
        document = as_json(config, board, failures, sprt_of(config, games), openskill)
        write_atomic(json_path, json.dumps(document, indent=1) + "\n")
