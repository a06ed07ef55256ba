"""`arena report DB --csv FILE --json FILE`: a run's ratings and cross-table as data, for any run
(match, tournament, sprt, tune, league), computed as the live page computes them (`board.Board`).

The CSV has one row per player, best first: its rank, Elo with standard error and 95% interval,
results, errors, time per turn, the means of its [PDATA]/[TDATA], then one column per opponent,
`vs LABEL`: its head-to-head score against that player (0..1, empty where they never met). The JSON
holds the same rows, the cross-table with each cell's count of games, and the run's description.
"""

from __future__ import annotations

import csv
import io
import json
import math

from referee.platform.files import write_atomic

from arena.stats.board import Board

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


def board_of(games: list[dict], labels: list[str]) -> Board:
    board = Board(history=False)
    for label in labels:
        board.know(label)
    for game in games:
        board.add(game)
    return board


def _finite(value):
    """JSON and CSV have no infinity or NaN: None (empty) instead."""
    return None if isinstance(value, float) and not math.isfinite(value) else value


def as_json(config: dict, board: Board, failures: list[dict]) -> dict:
    rows = board.rows()
    order = [row["label"] for row in rows]
    for row in rows:
        for key, value in row.items():
            row[key] = _finite(value)
    return {
        "run": {
            "command": config["command"],
            "game": config.get("game", {}).get("name") or config.get("game", {}).get("protocol"),
            "seed": config.get("seed"),
            "games": board.count,
            "failures": len(failures),
        },
        "players": rows,
        "cross": board.cross_table(order),
    }


def as_csv(board: Board) -> str:
    rows = board.rows()
    order = [row["label"] for row in rows]
    names = sorted({name for row in rows for name in row["data"]})
    cross = board.cross_table(order)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([*_FIELDS, *names, *(f"vs {label}" for label in order)])
    for row, scores in zip(rows, cross["score"], strict=True):
        cells = [_finite(row[field]) for field in _FIELDS]
        cells += [row["data"].get(name) for name in names]
        cells += scores
        writer.writerow(["" if c is None else c for c in cells])
    return out.getvalue()


def export(config: dict, labels: list[str], games: list[dict], failures: list[dict], csv_path, json_path) -> None:
    board = board_of(games, labels)
    if csv_path:
        write_atomic(csv_path, as_csv(board))
    if json_path:
        write_atomic(json_path, json.dumps(as_json(config, board, failures), indent=1) + "\n")
