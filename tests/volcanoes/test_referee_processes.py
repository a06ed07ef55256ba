"""The referee with real processes: recorded games replayed by scripted bots, and hostile bots."""

import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from referee.platform.bot_errors import BotExited
from referee.platform.process import BotProcess
from referee.volcanoes.match import Settings, play_game

SCRIPTS = Path(__file__).parent / "scripts"
PYTHON = [sys.executable, "-S"]  # no site: quicker to start


def scripted(log: Path, moves: list[str]) -> list[str]:
    return PYTHON + [str(SCRIPTS / "scripted.py"), str(log)] + moves


def hostile(mode: str, *extra: str) -> list[str]:
    return PYTHON + [str(SCRIPTS / "hostile.py"), mode, *extra]


def live_group_members(pgid: int) -> list[int]:
    """Processes of the group that are still running (zombies do not count)."""
    live = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2 :].split()
            if int(fields[2]) == pgid and fields[0] != "Z":
                live.append(int(entry.name))
    return live


def _replay_through_processes(game, tmp: Path):
    moves = {"blue": [], "orange": []}
    for _, mover, _, _, move in game["turns"]:
        moves[mover].append(move)
    logs = {colour: tmp / f"{game['game']}-{colour}.log" for colour in moves}
    # Generous limits: these bots answer at once; timing is not what is tested here.
    settings = Settings(turn_ms=2000, first_turn_ms=5000)
    with (
        BotProcess(scripted(logs["blue"], moves["blue"])) as blue,
        BotProcess(scripted(logs["orange"], moves["orange"])) as orange,
    ):
        result = play_game(blue, orange, seed=game["game"], settings=settings)
    received = {colour: logs[colour].read_text().splitlines() for colour in logs}
    return result, received


def _through_processes_sample(games: list[dict]) -> list[dict]:
    """The recorded games replayed through processes: every draw, the 20 longest and every 16th
    (101 of 800). Every game is checked line for line in-process (test_conformance.py); here
    what is tested is the process plumbing, which a game's length and ending exercise, not its moves."""
    longest = sorted(games, key=lambda g: len(g["moves"].split()))[-20:]
    picked = [g for g in games if g["winner"] == "draw"] + longest + games[::16]
    return list({g["game"]: g for g in picked}.values())


def test_recorded_games_through_processes_receive_the_recorded_lines(conformance_games, tmp_path):
    init = (Path(__file__).parents[1] / "data" / "volcanoes" / "init-block.txt").read_text().splitlines()

    def check(game):
        result, received = _replay_through_processes(game, tmp_path)
        expected = {"blue": [], "orange": []}
        for _, mover, position, valid, _move in game["turns"]:
            if not expected[mover]:
                expected[mover] += init
            expected[mover] += [position, valid]
        assert received == expected, f"game {game['game']}"
        assert result.winner == game["winner"], f"game {game['game']}"
        assert result.moves == game["moves"].split()
        final = game["final_levels"]
        final = [int(x) for x in final.split()] if isinstance(final, str) else final
        assert result.turn_log[-1].levels == final

    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(check, _through_processes_sample(conformance_games)))


def test_cli_plays_a_recorded_game_and_writes_its_replay(conformance_games, tmp_path, referee_game):
    game = next(g for g in conformance_games if g["winner"] == "orange")
    moves = {"blue": [], "orange": []}
    for _, mover, _, _, move in game["turns"]:
        moves[mover].append(move)
    commands = [" ".join(scripted(tmp_path / f"{c}.log", moves[c])) for c in ("blue", "orange")]
    played = referee_game(*commands, seed=7, first_turn_ms=5000, turn_ms=2000, timeout=120)
    summary = played.result
    assert summary["winner"] == "orange" and summary["reason"] == "connection"
    assert summary["seed"] == 7 and summary["turns"] == len(game["moves"].split())
    assert played.replay["moves"] == game["moves"]
    player_turns = [t for t in played.turn_log if t["actor"] != "growth"]
    assert [t["sent"][-2:] for t in player_turns] == [[t[2], t[3]] for t in game["turns"]]


def test_cli_says_clearly_when_a_command_cannot_start(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "referee.cli", "volcanoes", "play", "no-such-bot-command", "true"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode != 0
    assert "no-such-bot-command: no such command (not on PATH)" in out.stderr
    assert "Traceback" not in out.stderr


def _hostile_game(blue_cmd, orange_cmd, **settings):
    start = time.monotonic()
    with BotProcess(blue_cmd) as blue, BotProcess(orange_cmd) as orange:
        groups = [blue.pid, orange.pid]
        result = play_game(blue, orange, seed=11, settings=Settings(**settings))
    elapsed = time.monotonic() - start
    time.sleep(0.2)  # let the kernel finish tearing the groups down
    assert [live_group_members(g) for g in groups] == [[], []], "a bot process outlived its game"
    return result, elapsed


# (mode, seat of the hostile bot, expected winner, expected reason)
FORFEITS = [
    ("silent", "blue", "orange", "timeout"),
    ("late3", "orange", "blue", "timeout"),
    ("exit", "blue", "orange", "crash"),
    ("invalid", "orange", "blue", "invalid"),
    ("empty", "blue", "orange", "invalid"),
    ("flood", "orange", "blue", "timeout"),
]


@pytest.mark.parametrize("mode,seat,winner,reason", FORFEITS)
def test_hostile_bot_forfeits_with_the_right_reason(mode, seat, winner, reason):
    normal = hostile("normal")
    blue, orange = (hostile(mode), normal) if seat == "blue" else (normal, hostile(mode))
    result, elapsed = _hostile_game(blue, orange, first_turn_ms=3000, turn_ms=300)
    assert (result.winner, result.reason) == (winner, reason), result.detail
    assert result.detail.startswith(seat)
    assert elapsed < 20


def test_late_answer_on_turn_three_is_its_third_turn():
    result, _ = _hostile_game(hostile("normal"), hostile("late3"), first_turn_ms=3000, turn_ms=300)
    orange_turns = [t for t in result.turn_log if t.actor == "orange"]
    assert len(orange_turns) == 3 and orange_turns[-1].received is None


def test_lowercase_answers_are_accepted():
    result, _ = _hostile_game(hostile("lowercase"), hostile("normal"), first_turn_ms=3000, turn_ms=300)
    assert result.reason in ("connection", "simultaneous", "eruptions")
    assert result.turn_log[0].received == "n01" and result.turn_log[0].move == "N01"


def _until_exited(bot: BotProcess, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while bot.running() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not bot.running()


def test_an_answer_written_by_a_bot_that_then_exited_unread_is_its_answer():
    """A solver that prints a known answer without reading its input, and exits: the input finds no
    reader (a broken pipe), yet what it wrote is read as its answer; one that wrote nothing exited."""
    with BotProcess([sys.executable, "-S", "-c", "print('A2 B3')"]) as answers:
        _until_exited(answers)  # (gone before it is asked)
        line, _ = answers.ask(["x" * 100_000], 5.0)
    assert line == "A2 B3"
    with BotProcess([sys.executable, "-S", "-c", "pass"]) as silent:
        _until_exited(silent)
        with pytest.raises(BotExited, match="exited with code 0"):
            silent.ask(["x" * 100_000], 5.0)


def test_a_megabyte_of_stderr_a_turn_is_drained_and_bounded():
    result, elapsed = _hostile_game(hostile("stderr1mb"), hostile("normal"), first_turn_ms=3000, turn_ms=1000)
    assert result.reason in ("connection", "simultaneous", "eruptions")
    blue_turns = [t for t in result.turn_log if t.actor == "blue"]
    assert all(len(t.stderr) < 5000 for t in blue_turns)
    assert all("more bytes of stderr not kept" in t.stderr for t in blue_turns)
    assert all(t.stderr == "" for t in result.turn_log if t.actor == "orange")


def test_bot_ignoring_sigterm_with_a_child_leaves_nothing_behind(tmp_path):
    pgid_file = tmp_path / "pgid"
    result, elapsed = _hostile_game(
        hostile("sigterm-child", str(pgid_file)), hostile("normal"), first_turn_ms=3000, turn_ms=300
    )
    assert (result.winner, result.reason) == ("orange", "timeout")
    assert live_group_members(int(pgid_file.read_text())) == []
    assert elapsed < 20


def test_soft_timeouts_forgive_two_overruns_and_forfeit_the_third():
    # With the limit at 0 ms every answer overruns, yet arrives within the 50 ms grace... mostly:
    # give the grace room so only the overrun count decides.
    result, _ = _hostile_game(
        hostile("normal"), hostile("normal"), first_turn_ms=0, turn_ms=0, soft_timeouts=True, grace_ms=3000
    )
    assert (result.winner, result.reason) == ("orange", "timeout")
    assert "overran its time 3 times" in result.detail
    assert [t.actor for t in result.turn_log if t.actor != "growth"] == ["blue", "orange", "orange", "blue", "blue"]


def test_a_game_without_a_winner_is_a_draw_at_the_turn_limit():
    result, _ = _hostile_game(hostile("normal"), hostile("normal"), first_turn_ms=3000, turn_ms=1000, max_turns=9)
    assert (result.winner, result.reason, result.turns) == ("draw", "max-turns", 9)
    assert [t.actor for t in result.turn_log] == ["blue", "orange", "growth", "orange", "blue", "growth"] + [
        "blue",
        "orange",
        "growth",
    ]
