"""The text report at the extremes: a clean sweep reads as a one-sided bound, never as infinity, the
ratings table gives each player's Elo over the next one down, and games that are copies of one are named."""

import csv
import json
import sys

from arena.cli import main
from arena.stats import export
from arena.stats.tables import fmt_elo_interval, ratings_rows, text_report


def _game(a, b, pair, swap, winner_label):
    seats = [b, a] if swap else [a, b]
    ranks = [0, 0] if winner_label is None else [0, 1] if winner_label == seats[0] else [1, 0]
    return {
        "lineup": [a, b],
        "unit": pair,
        "seating": swap,
        "seats": seats,
        "ranks": ranks,
        "versions": ["v", "v"],
        "errors": [None, None],
        "times": [[10.0, 5.0], [10.0, 5.0]],
    }


def test_a_clean_sweep_shows_a_one_sided_bound_and_no_infinity():
    games = [_game("strong", "weak", pair, swap, "strong") for pair in range(16) for swap in (0, 1)]
    games += [
        _game("weak", "middle", pair, swap, "weak" if pair % 4 == 0 else "middle")
        for pair in range(16)
        for swap in (0, 1)
    ]
    config = {"command": "tournament", "seed": 1, "lineups": [["strong", "weak"], ["weak", "middle"]], "units": 16}
    config["game"] = {"protocol": "volcanoes"}
    report = text_report(config, ["strong", "weak", "middle"], games)
    assert "inf" not in report
    row = next(line for line in report.splitlines() if line.startswith("strong vs weak"))
    assert row.split()[-3:] == [">", "+234", "one-sided"]  # 16 pairs all won: above +234.48 at 95%
    rows, header, order = ratings_rows(games, ["strong", "weak", "middle"])
    gap = header.index("Elo over the next (95% interval)")
    assert order == ["strong", "middle", "weak"]  # best first by Elo
    assert rows[0][gap].startswith("+") and rows[0][gap].endswith("]")  # strong over middle, with its interval
    assert rows[-1][gap] == "-"  # nobody below the last


def test_intervals_read_at_both_ends():
    inf = float("inf")
    assert fmt_elo_interval(-12.4, 30.6) == "[-12, +31]"
    assert fmt_elo_interval(-inf, -234.6) == "< -235"
    assert fmt_elo_interval(10, inf) == "> +10"
    assert fmt_elo_interval(-inf, inf) == "unbounded"


# Plays the valid tile at index argv[1] of each turn's list, whatever the seed.
FIXED_BOT = """
import sys
for line in sys.stdin:
    words = line.split()
    if words and words[0][0] in "NS" and len(words) != 4:  # the valid tiles' line
        print(words[int(sys.argv[1])], flush=True)
"""


def test_games_that_repeat_move_for_move_are_named(tmp_path, capsys):
    """Two bots that play alike whatever the seed play one Volcanoes game again and again (the seed
    draws only RANDOM answers); the report gave its intervals over the copies, unsaid."""
    bot = tmp_path / "fixed.py"
    bot.write_text(FIXED_BOT)
    first, last = (f"{name}={sys.executable} -S {bot} {index}" for name, index in (("first", 0), ("last", -1)))
    argv = ["match", first, last, "--pairs", "3", "--seed", "1", "--db", str(tmp_path / "r.sqlite"), "--quiet"]
    assert main(argv) == 0
    assert "warning: 4 of the 6 games repeat an earlier game move for move" in capsys.readouterr().out
    assert main(["match", "greedy", "random", "--pairs", "2", "--seed", "1", "--db", str(tmp_path / "g.sqlite")]) == 0
    assert "repeat an earlier game" not in capsys.readouterr().out


def test_the_report_says_why_a_player_s_games_were_lost_by_errors(tmp_path, capsys):
    """It counted timeouts, invalid moves and crashes, and said why nowhere but in the HTML pages."""
    bot = tmp_path / "fixed.py"
    bot.write_text(FIXED_BOT)
    bad = tmp_path / "bad.py"
    bad.write_text("import sys\nfor line in sys.stdin:\n    print('Z99', flush=True)\n")
    players = [f"bad={sys.executable} -S {bad}", f"first={sys.executable} -S {bot} 0"]
    assert main(["match", *players, "--pairs", "1", "--seed", "1", "--db", str(tmp_path / "r.sqlite"), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "Errors (each a lost game; the last of each kind" in out
    assert "  bad: 2 invalid moves, the last in game 2: " in out and "'Z99' is not a tile name nor RANDOM" in out
    assert "  first:" not in out


def test_a_copy_or_so_among_many_games_is_chance_not_a_warning():
    """The README's tournament warned of 1 game of 176 (a book's line met a deterministic search);
    copies are counted where they are half of a seating's games or more, and two or more."""
    from arena.stats.tables import repeated_games

    def games(moves: list[str], seats=("a", "b")) -> list[dict]:
        return [{"seats": list(seats), "versions": ["v", "v"], "data": {"moves": m}} for m in moves]

    assert repeated_games(games(["N01 N02", "N01 N02", *(f"S{i:02d}" for i in range(1, 7))])) == 0  # 1 of 8
    assert repeated_games(games(["N01 N02"] * 3)) == 2  # every game one
    assert repeated_games(games(["N01 N02"] * 3) + games(["N01 N02"] * 3, ("b", "a"))) == 4
    assert repeated_games(games(["N01", "N01", "N01", "S01", "S02", "S03"])) == 0  # 2 of 6: less than half


def test_the_exports_hold_openskill_s_rating_as_the_report_prints_it_after_the_other_columns(tmp_path):
    games = [
        _game("strong", "weak", pair, swap, "strong" if pair % 3 else "weak") for pair in range(6) for swap in (0, 1)
    ]
    config = {
        "command": "match",
        "seed": 1,
        "lineups": [["strong", "weak"]],
        "units": 6,
        "game": {"protocol": "volcanoes"},
    }
    labels = ["strong", "weak"]
    export.export(config, labels, games, [], tmp_path / "r.csv", tmp_path / "r.json")
    rows, header, _ = ratings_rows(games, labels)
    printed = {row[header.index("player")]: row for row in rows}
    head, *table = list(csv.reader((tmp_path / "r.csv").open()))
    assert head[-5:] == ["vs weak", "mu", "sigma", "mu_low", "mu_high"]  # new columns last: old positions hold
    players = json.loads((tmp_path / "r.json").read_text())["players"]
    for line, player in zip(table, players, strict=True):
        row = printed[player["label"]]
        assert f"{float(line[-4]):.2f}" == f"{player['mu']:.2f}" == row[header.index("mu")]
        assert f"{float(line[-3]):.2f}" == f"{player['sigma']:.2f}" == row[header.index("sigma")]
        assert f"[{player['mu_low']:.2f}, {player['mu_high']:.2f}]" == row[-1]  # (mu's interval, the table's last)


def test_failed_games_are_counted_once_however_often_they_failed():
    """Four games that failed twice each (a --resume failed them again) were "8 games failed and
    count for nobody", while the run said "4 failed games are still to play"."""
    from arena.stats.tables import failures_lines

    failures = [
        {"lineup": ["a", "b"], "unit": unit, "seating": seating, "kind": "referee", "detail": f"try {attempt}"}
        for attempt in (1, 2)
        for unit in (0, 1)
        for seating in (0, 1)
    ]
    said = failures_lines(failures)
    assert said.startswith("4 games (8 attempts) failed and count for nobody (played again by --resume):\n")
    assert "  8 by the referee; the last: try 2" in said
    assert failures_lines(failures[:4]).startswith("4 games failed and count for nobody")


def test_a_lineup_s_w_d_l_is_of_its_complete_pairs_alone():
    """An SPRT stopped with a pair half played showed "17-0-6  11 pairs  0 0 5 0 6": the W-D-L held
    the lone game, the pentanomial and the Elo did not (17-0-5)."""
    from arena.stats.tables import lineups_rows

    games = [_game("new", "old", pair, swap, "new" if pair else "old") for pair in range(3) for swap in (0, 1)]
    games.append(_game("new", "old", 3, 0, "old"))  # its pair's other game never played
    config = {"command": "sprt", "seed": 1, "lineups": [["new", "old"]], "units": 4, "game": {"protocol": "x"}}
    rows, header = lineups_rows(games, config)
    assert rows[0][1:4] == ["4-0-2", 3, "1 0 0 0 2"], rows
