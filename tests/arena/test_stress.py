"""arena/stress.py: the schedule and the report (the games themselves are the benchmark)."""

from __future__ import annotations

import io
from collections import Counter

from arena.stress import report, schedule
from referee.volcanoes.match import Settings


def test_schedule_gives_every_bot_its_share_in_both_colours():
    jobs = schedule(["mcts", "alphabeta", "uct"], 12)
    assert len(jobs) == 12 and len({seed for _, _, seed in jobs}) == 12
    games = Counter(b for blue, orange, _ in jobs for b in (blue, orange))
    assert games == {"mcts": 8, "alphabeta": 8, "uct": 8}
    assert Counter(blue for blue, _, _ in jobs) == {"mcts": 4, "alphabeta": 4, "uct": 4}


def test_report_counts_and_names_every_forfeit():
    records = [
        {
            "blue": "mcts",
            "orange": "uct",
            "seed": 0,
            "reason": "connection",
            "winner": "blue",
            "loser": "uct",
            "detail": "",
            "turns": 20,
            "times": {"mcts": [300.0, 50, 60], "uct": [200.0, 40]},
            "stderr": "",
        },
        {
            "blue": "uct",
            "orange": "mcts",
            "seed": 1,
            "reason": "timeout",
            "winner": "blue",
            "loser": "mcts",
            "detail": "orange no answer in time",
            "turns": 4,
            "times": {"mcts": [250.0], "uct": [210.0, 45]},
            "stderr": "[mcts] something\n",
        },
    ]
    out = io.StringIO()
    assert report(records, Settings(), out) == 1
    text = out.getvalue()
    assert "FORFEIT seed 1 uct (blue) v mcts (orange): mcts timeout at turn 4" in text
    assert "[mcts] something" in text
    assert "its turns before, ms: 250.0\n" in text  # the forfeiting bot's answered turns
    rows = {line.split()[0]: line.split() for line in text.splitlines() if line.startswith(("mcts", "uct"))}
    assert rows["mcts"][1:3] == ["2", "1"] and rows["uct"][1:3] == ["2", "0"]
