"""`arena analyse --db RUN --player NAME`: a player's games of a run analysed, with its mistakes."""
import json

import pytest

from arena.cli import main
from arena.store import Store


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    db = tmp_path_factory.mktemp("run") / "m.sqlite"
    assert main(["match", "random", "greedy", "--pairs", "1", "--seed", "4", "--workers", "1", "--db", str(db),
                 "--turn-ms", "1000", "--quiet"]) == 0
    return db


def test_a_players_games_are_analysed_with_a_summary_of_its_mistakes(run, tmp_path, capsys):
    out = tmp_path / "analysed"
    assert main(["analyse", "--db", str(run), "--player", "random", "--games", "all", "--iterations", "200",
                 "--workers", "1", "--quiet", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    games = Store.open(run).games()
    for game in games:
        replay = json.loads((out / f"game-{game['id']}.json").read_text())
        assert replay["moves"] == game["moves"] and replay["analysis"]["iterations"] == 200
        assert len(replay["analysis"]["frames"]) == len(game["moves"].split()) + 1
        assert (out / f"game-{game['id']}.html").is_file()
    assert "random: " in printed and "mistakes" in printed and "opening (turns 1-30)" in printed


def test_mistakes_of_a_run_are_refused_with_one_line(run, capsys):
    assert main(["analyse", "--db", str(run), "--player", "nobody"]) == 2
    assert capsys.readouterr().err.strip() == "arena: --player: give one of the run's players: random, greedy"
    assert main(["analyse", "--db", str(run)]) == 2  # which player?
    assert main(["analyse"]) == 2
    assert "give replay files" in capsys.readouterr().err
