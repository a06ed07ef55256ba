"""`arena bench --bot CMD --game NAME` records its turns from real games: a version under test that
loses one of them by its own error fails the bench (as it fails on CodinGame, and as the same turns
replayed from a file fail it), an opponent's error is said and its cut-short turns are not saved, and
a game the machine made late is played again rather than charged to the bot."""

import dataclasses
import json
import shlex
import sys
from pathlib import Path

import pytest

from arena.bench import transcripts
from arena.cli import main
from arena.games.base import Player
from arena.games.protocols import make

ROOT = Path(__file__).resolve().parents[2]
REFEREE = f"{sys.executable} -m tests.games.pebbles.sdk_referee"
GAME = ["--referee", REFEREE, "--protocol", "sdk"]
# Pebbles' greedy bot, which from its turn `fails_from` on does `failure` instead of answering.
GREEDY = """
import os, sys, time
sys.stdin.readline()
turn = 0
while sys.stdin.readline():
    sys.stdin.readline()
    values = [int(v) for v in sys.stdin.readline().split()]
    turn += 1
    if turn >= {fails_from}:
        {failure}
    print(values.index(max(values)), flush=True)
"""
NEVER = 10**6


@pytest.fixture(autouse=True)
def at_the_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # the referee runs as `python -m tests.games.pebbles...`


def bot(folder: Path, name: str, failure: str = "pass", fails_from: int = NEVER) -> str:
    (folder / f"{name}.py").write_text(GREEDY.format(failure=failure, fails_from=fails_from))
    return shlex.join([sys.executable, str(folder / f"{name}.py")])


@pytest.mark.parametrize(
    "failure, error",
    [("os.kill(os.getpid(), 11)", "crash"), ("time.sleep(2)", "timeout")],
)
def test_a_version_that_fails_a_recorded_game_fails_the_bench(tmp_path, capsys, failure, error):
    new, old = bot(tmp_path, "new", failure, fails_from=3), bot(tmp_path, "old")
    assert main(["bench", "--bot", new, "--against-bot", old, *GAME, "--rounds", "4"]) == 2
    err = capsys.readouterr().err
    assert "recording game 1 (seed " in err and f"the bot lost by {error}" in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("arena bench: the version under test") and f"by {error}" in last
    assert "replaying" not in err  # nothing timed on the turns before its failure alone


def test_an_opponents_failure_is_said_and_its_cut_turns_are_not_saved(tmp_path, capsys):
    greedy, crasher = bot(tmp_path, "greedy"), bot(tmp_path, "crasher", "os.kill(os.getpid(), 11)", fails_from=3)
    base = ["bench", "--bot", greedy, "--against-bot", greedy, *GAME, "--rounds", "4", "--opponent", crasher]
    saved = tmp_path / "turns.json"
    assert main([*base, "--record", str(saved)]) == 2
    err = capsys.readouterr().err
    assert f"its opponent {crasher} lost by crash" in err
    assert f"arena bench: not saving the turns to {saved}" in err and not saved.exists()
    assert main(base) in (0, 1)  # timed on the turns there are (1: noise between a bot and itself)
    assert f"its opponent {crasher} lost by crash" in capsys.readouterr().err


def test_a_game_the_machine_made_late_is_played_again_not_charged_to_the_bot(tmp_path, monkeypatch, capsys):
    game = make({"protocol": "sdk", "name": "pebbles", "command": REFEREE})
    greedy = bot(tmp_path, "greedy")
    player = Player("greedy", greedy, "command", greedy, "test")
    played = []
    honest_play = game.play

    def late_once(seed, seated, bot_seeds):
        outcome = honest_play(seed, seated, bot_seeds)
        played.append(seed)
        if len(played) == 1:  # as the arena marks a timeout while the bot waited for a processor
            late = "player 0 timed out waiting 40 ms for a processor"
            return dataclasses.replace(outcome, errors=["timeout", None], late=late)
        return outcome

    monkeypatch.setattr(game, "play", late_once)
    recording = transcripts.record(game, player, None, 1, seed=3, log=sys.stderr)
    assert len(played) == 2 and played[0] == played[1] and recording.forfeits == []
    err = capsys.readouterr().err
    assert "the machine's fault, not the bot's" in err and "playing it again" in err

    monkeypatch.setattr(game, "play", lambda *a: dataclasses.replace(honest_play(*a), late="player 0 waited"))
    with pytest.raises(transcripts.TranscriptError, match="the machine's fault, not the bot's.*quieter machine"):
        transcripts.record(game, player, None, 1, seed=3, log=sys.stderr)


def test_a_baseline_of_saved_turns_names_their_game(tmp_path, capsys):
    """It said "25 turns of Volcanoes' fixed positions" for Pebbles' turns given by --turns; and turns
    saved again from saved turns lost their game."""
    (tmp_path / "echo.py").write_text("import sys\nfor line in sys.stdin:\n    print(0, flush=True)\n")
    echo = shlex.join([sys.executable, str(tmp_path / "echo.py")])
    turns, again, base = (str(tmp_path / name) for name in ("turns.json", "again.json", "base.json"))
    script = transcripts.Transcript(tuple(transcripts.Turn((str(i),), ("0",)) for i in range(3)))
    transcripts.save(turns, [script], {"protocol": "sdk", "name": "pebbles", "command": REFEREE})
    bench = ["bench", "--bot", echo, "--turns", turns, "--rounds", "4"]
    assert main([*bench, "--save", base, "--record", again]) == 0
    assert json.loads(Path(base).read_text())["timed"]["what"] == "3 turns of pebbles"
    assert transcripts.read(again).game["name"] == "pebbles"
