"""arena/bench/stress.py: the schedule and the report (the games themselves are the benchmark)."""

from __future__ import annotations

import io
from collections import Counter

from arena.cli import build_parser
from arena.bench.stress import FORFEITS, loads_first, play_one, report, schedule, seat_turns
from bots.volcanoes.launch import TAKE_OVER_NOTE
from referee.volcanoes.match import Settings, Turn


def test_schedule_gives_every_bot_its_share_in_both_colours():
    jobs = schedule(["mcts", "alphabeta", "uct"], 12)
    assert len(jobs) == 12 and len({seed for _, _, seed in jobs}) == 12
    games = Counter(b for blue, orange, _ in jobs for b in (blue, orange))
    assert games == {"mcts": 8, "alphabeta": 8, "uct": 8}
    assert Counter(blue for blue, _, _ in jobs) == {"mcts": 4, "alphabeta": 4, "uct": 4}


def _game(blue: str, orange: str, times: dict, **changes) -> dict:
    """A record of `play_one`: by default a game blue won by connection, with `times` by seat."""
    record = {"blue": blue, "orange": orange, "seed": 0, "reason": "connection", "winner": "blue"}
    record.update(loser=orange, detail="", turns=20, times=times, own={"blue": 0, "orange": 0}, stderr="")
    return {**record, **changes}


def test_report_counts_and_names_every_forfeit():
    records = [
        _game("mcts", "uct", {"blue": [300.0, 50, 60], "orange": [200.0, 40]}),
        _game(
            "uct",
            "mcts",
            {"blue": [210.0, 45], "orange": [250.0]},
            seed=1,
            reason="timeout",
            detail="orange no answer in time",
            turns=4,
            stderr="[mcts] something\n",
        ),
    ]
    out = io.StringIO()
    assert report(records, Settings(), out) == 1
    text = out.getvalue()
    assert "FORFEIT seed 1 uct (blue) v mcts (orange): mcts timeout at turn 4" in text
    assert "[mcts] something" in text
    assert "its turns before, ms: 250.0\n" in text  # the forfeiting bot's answered turns
    rows = {line.split()[0]: line.split() for line in text.splitlines() if line.startswith(("mcts", "uct"))}
    assert rows["mcts"][1:3] == ["2", "1"] and rows["uct"][1:3] == ["2", "0"]


def test_a_bot_playing_itself_has_two_first_turns_a_game():
    """Both seats' first answers are first turns (start-up), not later turns over the limit."""
    record = _game("uct", "uct", {"blue": [230.0, 40, 41], "orange": [220.0, 42]}, turns=9)
    out = io.StringIO()
    assert report([record], Settings(), out) == 0
    row = next(line.split() for line in out.getvalue().splitlines() if line.startswith("uct"))
    # bot, games, forfeits, first median, first max, later median, p99, max, >100, turns, own
    assert row[4] == "230.0" and row[7] == "42.0" and row[8:] == ["0", "3", "0%"]


def test_report_says_what_share_of_later_turns_the_engines_answered_themselves():
    """The rest were the stand-in's, while the engine loaded."""
    records = [
        _game("mcts", "uct", {"blue": [300.0, 50, 60, 61], "orange": [200.0, 40]}, own={"blue": 2, "orange": 0}),
        _game("uct", "mcts", {"blue": [210.0, 45], "orange": [250.0, 44]}, own={"blue": 1, "orange": 0}),
    ]
    out = io.StringIO()
    report(records, Settings(), out)
    rows = {line.split()[0]: line.split() for line in out.getvalue().splitlines() if line.startswith(("mcts", "uct"))}
    assert rows["mcts"][-2:] == ["4", "50%"] and rows["uct"][-2:] == ["2", "50%"]


def test_the_turns_after_the_take_over_note_are_the_engines():
    """Blue's engine took over after its second answer (the note came with its third turn's
    stderr); orange's never did. Growth turns are no one's."""
    log = []
    for i in range(5):
        log.append(Turn(3 * i + 1, "blue", time_ms=10.0 + i, stderr=f"[mcts] {TAKE_OVER_NOTE}\n" if i == 2 else ""))
        log.append(Turn(3 * i + 2, "orange", time_ms=20.0 + i))
        log.append(Turn(3 * i + 3, "growth"))
    times, own = seat_turns(log, {"blue": False, "orange": False})
    assert times == {"blue": [10.0, 11.0, 12.0, 13.0, 14.0], "orange": [20.0, 21.0, 22.0, 23.0, 24.0]}
    assert own == {"blue": 2, "orange": 0}
    assert seat_turns(log, {"blue": True, "orange": True})[1] == {"blue": 4, "orange": 4}


def test_bots_loaded_before_a_real_game_answer_every_later_turn_themselves():
    """`play_one` with `load_first`, on a real game (of the bot with the fewest kernels to compile
    from the game's empty cache, against itself)."""
    settings = Settings(max_turns=12)
    record = play_one("random", "random", 5, settings, cache=None, load_first=True)
    assert record["reason"] not in FORFEITS
    assert record["own"] == {seat: len(record["times"][seat]) - 1 for seat in ("blue", "orange")}


def test_a_warm_cache_loads_the_engines_first_unless_told_not_to():
    """A warm cache measures play: behind their stand-ins the engines would rarely get to play."""

    def load_first(*options: str) -> bool:
        return loads_first(build_parser().parse_args(["bench", "--stress", *options]))

    assert load_first("--cache", "warm")
    assert not load_first("--cache", "warm", "--no-load-first")
    assert not load_first()  # an empty cache: what a user's first run looks like
    assert load_first("--load-first")
