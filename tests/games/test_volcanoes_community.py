"""Our Volcanoes referee in the community's tools (referee/volcanoes/community.py): brutaltester's
referee command line (`referee volcanoes -p1 CMD -p2 CMD ...`), the play-one-game JSON of psyleague
and CGArena (`referee volcanoes psyleague CMD1 CMD2`), both driven by the arena's external games,
and a small psyleague league of our bots run by psyleague itself."""

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from arena.games.base import Player
from arena.games.cli import CliGame
from arena.games.json_game import JsonGame
from tests.games.pebbles.harness import ROOT

REFEREE = [sys.executable, "-m", "referee.cli", "volcanoes"]
HOSTILE = Path(__file__).parents[1] / "volcanoes" / "scripts" / "hostile.py"


def bot(mode: str = "random") -> str:
    """A quick bot: it answers RANDOM (which the referee resolves with the game's seed), or
    misbehaves as `mode` says (tests/volcanoes/scripts/hostile.py)."""
    return shlex.join([sys.executable, "-S", str(HOSTILE), mode])


def referee(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*REFEREE, *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


def as_player(command: str) -> Player:
    return Player(command, command, "command", command, "test")


def test_brutaltesters_command_line_prints_the_scores_and_the_seed_and_writes_the_sdk_log(tmp_path):
    log_path = tmp_path / "game.json"
    done = referee("-p1", bot(), "-p2", bot(), "-d", "seed=3", "-l", str(log_path))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # brutaltester takes anything on a referee's stderr for an error
    blue, orange, seed_line = done.stdout.splitlines()
    played = json.loads(referee("play", bot(), bot(), "--seed", "3", "--json").stdout)
    assert [int(blue), int(orange)] == {"blue": [1, 0], "orange": [0, 1], "draw": [0, 0]}[played["winner"]]
    assert seed_line == "seed=3"
    log = json.loads(log_path.read_text())
    assert log["scores"] == {"0": int(blue), "1": int(orange)}
    assert log["uinput"] == ["seed=3"] and log["failCause"] is None
    assert len(log["summaries"]) == len(log["views"]) == played["turns"]
    for seat in ("0", "1"):  # the start frame, then one a turn
        assert len(log["errors"][seat]) == len(log["outputs"][seat]) == 1 + played["turns"]
    moves = [s.split()[-1] for s in log["summaries"] if s.startswith("$")]
    assert moves == [m for m in played["moves"].split() if m != "GROW"]
    assert json.loads(log["views"][0])["levels"] == [0] * 80  # the first frame: the empty board


def test_a_forfeit_is_a_negative_score_with_its_reason_in_the_log(tmp_path):
    log_path = tmp_path / "game.json"
    done = referee("-p1", bot(), "-p2", bot("invalid"), "-seed", "4", "-l", str(log_path))
    assert done.stdout.splitlines() == ["1", "-1", "seed=4"]
    log = json.loads(log_path.read_text())
    (tooltip,) = log["tooltips"]
    assert tooltip["event"] == 1 and tooltip["text"].startswith("$1 invalid: ")


@pytest.mark.parametrize(
    "args, says",
    [
        ([], "choose a COMMAND, or play one game"),
        (["-p1", "x"], "for 2 players, not 1"),
        (["-p1", "x", "-p2", "y", "-seed", "many"], "-seed takes an integer seed"),
        (["-p1", "x", "-p2", "y", "-d", "seed"], "-d takes key=value"),
        (["-p1", "x", "-p2", "y", "-p3", "z"], "for 2 players, not 3"),
        (["-p1", "x", "-p3", "z"], "-p3 without -p2"),
    ],
)
def test_a_mistake_on_the_command_line_is_one_line_and_status_2(args, says):
    done = referee(*args)
    assert done.returncode == 2
    assert done.stderr.startswith("referee volcanoes: ") and says in done.stderr
    assert done.stderr.count("\n") == 1


def test_the_psyleague_command_prints_what_psyleague_and_cgarena_read():
    done = referee("psyleague", bot(), bot("invalid"))
    result = json.loads(done.stdout)
    assert result["ranks"] == [0, 1] and result["errors"] == [0, 1]
    assert result["test_data"]["reason"] == "invalid" and isinstance(result["test_data"]["seed"], int)
    # psyleague averages player data as numbers: every value is one.
    assert all(isinstance(v, int | float) for data in result["player_data"] for v in data.values())
    assert {"name": "seed", "player": None, "turn": None, "value": result["test_data"]["seed"]} in result["attributes"]


def test_a_command_that_cannot_start_loses_as_it_would_on_codingame():
    result = json.loads(referee("psyleague", "/nonexistent/bot", bot(), "--seed", "2").stdout)
    assert result["ranks"] == [1, 0] and result["errors"] == [1, 0]
    assert result["test_data"]["reason"] == "start"


def test_the_arena_plays_our_referee_through_both_protocols_alike(leftovers):
    through_cli = CliGame(shlex.join(REFEREE), name="volcanoes", cwd=str(ROOT))
    through_json = JsonGame(
        shlex.join([*REFEREE, "psyleague", "--seed", "{seed}", "{p1}", "{p2}"]), name="volcanoes", cwd=str(ROOT)
    )
    players = [as_player(bot()), as_player(bot())]
    prints = set()
    for seed in (5, 6):
        a = through_cli.play(seed, players, [0, 0])
        b = through_json.play(seed, players, [0, 0])
        assert a.ranks == b.ranks and a.errors == b.errors == [None, None]
        assert a.fingerprint.startswith(f"seed={seed} view:")
        assert b.fingerprint == f"seed={seed}"
        assert a.turns == b.data["test_data"]["turns"]
        prints.add(a.fingerprint)
    assert len(prints) == 2
    forfeit = through_cli.play(5, [as_player(bot()), as_player(bot("invalid"))], [0, 0])
    assert forfeit.errors == [None, "invalid"] and forfeit.ranks == [0, 1]
    timeout = through_cli.play(5, [as_player(bot("silent")), as_player(bot())], [0, 0])
    assert timeout.errors == ["timeout", None]
    assert not leftovers()


def test_psyleague_runs_a_league_of_our_bots_through_our_referee(tmp_path):
    pytest.importorskip("psyleague.psyleague", reason="psyleague is not installed (pip install psyleague)")
    toml = pytest.importorskip("toml")  # psyleague's own dependency

    def psyleague(*args: str) -> subprocess.CompletedProcess:
        done = subprocess.run(
            [sys.executable, "-m", "psyleague.psyleague", *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return done

    psyleague("config")
    config = toml.loads((tmp_path / "psyleague.cfg").read_text())
    python = shlex.quote(sys.executable)
    config["cmd_bot_setup"] = "true"  # our bots need no building
    config["cmd_play_game"] = (
        f"cd {shlex.quote(str(ROOT))} && {python} -m referee.cli volcanoes psyleague "
        f'"{python} -m bots.volcanoes.%P1%" "{python} -m bots.volcanoes.%P2%"'
    )
    (tmp_path / "psyleague.cfg").write_text(toml.dumps(config))
    for name in ("random", "greedy"):
        psyleague("bot", "add", name)
    psyleague("run", "--games", "3", "--silent")

    games = [json.loads(line) for line in (tmp_path / "psyleague.games").read_text().splitlines()]
    assert len(games) == 3
    for game in games:
        assert sorted(game["players"]) == ["greedy", "random"]
        assert game["ranks"] in ([0, 1], [1, 0], [0, 0]) and game["errors"] == [0, 0]
        assert isinstance(game["test_data"]["seed"], int) and game["test_data"]["turns"] > 0
    shown = psyleague("show").stdout
    assert "greedy" in shown and "random" in shown and "points" in shown
