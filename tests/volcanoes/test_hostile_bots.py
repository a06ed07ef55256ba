"""Bots that attack the referee: a grandchild in a session of its own that keeps the pipes open,
payloads in stderr, bad command lines. Each game must end in bounded time, with no process of the
bot left (checked by pid), and each bad input must get one line and a non-zero exit."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.platform.process import BotProcess
from referee.volcanoes.match import Settings, play_game
from tests.processes import alive

SCRIPTS = Path(__file__).parent / "scripts"
HOSTILE = [sys.executable, "-S", str(SCRIPTS / "hostile.py")]
ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")


def grandchildren(prefix: Path) -> list[int]:
    """The pids the hostile bots' grandchildren reported (one file each)."""
    return [int(p.read_text()) for p in prefix.parent.glob(prefix.name + ".*") if not p.name.endswith(".part")]


def gone_within(pids: list[int], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not any(alive(pid) for pid in pids)


@pytest.mark.parametrize("mode", ["setsid", "setsid-exit"])
def test_a_grandchild_in_its_own_session_is_killed_and_the_game_ends(mode, tmp_path):
    prefix = tmp_path / "grandchild"
    settings = Settings(first_turn_ms=3000, turn_ms=500)
    start = time.monotonic()
    try:
        with BotProcess(HOSTILE + [mode, str(prefix)]) as blue, BotProcess(HOSTILE + ["normal"]) as orange:
            result = play_game(blue, orange, seed=11, settings=settings)
            ended = time.monotonic()
            [pid] = grandchildren(prefix)
            assert alive(pid)  # the attack is real: it outlived the bot's process group so far
        closed = time.monotonic()
        assert not alive(pid), "the grandchild outlived the game"
        assert closed - ended < 5, "closing the bot waited on its grandchild"
        if mode == "setsid-exit":  # the bot left on its second turn; its output stayed open
            assert (result.winner, result.reason) == ("orange", "timeout")
        else:
            assert result.reason in ("connection", "simultaneous", "eruptions")
        assert closed - start < 60
    finally:
        for pid in grandchildren(prefix):
            if alive(pid):
                os.kill(pid, 9)


def _referee(*args, timeout=60):
    return subprocess.run(
        [sys.executable, "-m", "referee.cli", "volcanoes", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=ENV,
        cwd=ROOT,
    )


def test_referee_command_ends_and_kills_a_grandchild_that_dropped_its_environment(tmp_path):
    # No token in its environment, another session, orphaned: only the subreaper finds it.
    prefix = tmp_path / "grandchild"
    bot = " ".join(HOSTILE + ["setsid-bare", str(prefix)])
    normal = " ".join(HOSTILE + ["normal"])
    try:
        out = _referee("play", bot, normal, "--first-turn-ms", "3000", "--turn-ms", "500", "--json")
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout)["reason"] in ("connection", "simultaneous", "eruptions")
        pids = grandchildren(prefix)  # the game's, and the start check's if the bot got that far in it
        assert 1 <= len(pids) <= 2
        assert gone_within(pids, 2), "a grandchild outlived the referee"
    finally:
        for pid in grandchildren(prefix):
            if alive(pid):
                os.kill(pid, 9)


@pytest.mark.parametrize("mode", ["setsid", "setsid-bare"])  # bare: only the workers' subreaper finds it
def test_arena_match_on_two_workers_ends_and_leaves_no_grandchild(mode, tmp_path):
    prefix = tmp_path / "grandchild"
    bot = "setsid=" + " ".join(HOSTILE + [mode, str(prefix)])
    db = tmp_path / "m.sqlite"
    try:
        out = subprocess.run(
            [
                sys.executable,
                "-m",
                "arena.cli",
                "match",
                bot,
                "random",
                "--pairs",
                "2",
                "--workers",
                "2",
                "--seed",
                "5",
                "--turn-ms",
                "1000",
                "--first-turn-ms",
                "5000",
                "--db",
                str(db),
                "--quiet",
            ],
            capture_output=True,
            text=True,
            timeout=240,
            env=ENV,
            cwd=tmp_path,
        )
        assert out.returncode == 0, out.stderr
        pids = grandchildren(prefix)
        assert 4 <= len(pids) <= 5  # one per game, and the start check's if the bot got that far in it
        assert gone_within(pids, 2), "a grandchild outlived its game or the start check"
        assert "random vs setsid" in out.stdout or "setsid vs random" in out.stdout
    finally:
        for pid in grandchildren(prefix):
            if alive(pid):
                os.kill(pid, 9)


# ---------------------------------------------------------------- bad command lines and options


@pytest.mark.parametrize(
    "args,reason",
    [
        (["play", 'python "x', "true"], "cannot split the command"),
        (["play", "true", "true", "--turn-ms", "-5"], "--turn-ms"),
        (["play", "true", "true", "--first-turn-ms", "0"], "--first-turn-ms"),
        (["play", "true", "true", "--max-turns", "0"], "--max-turns"),
    ],
)
def test_bad_command_lines_and_options_get_one_line(args, reason):
    out = _referee(*args)
    assert out.returncode == 2
    assert reason in out.stderr.strip().splitlines()[-1]  # after argparse's usage, if any
    assert "Traceback" not in out.stderr


# ---------------------------------------------------------------- bad input to the built-in bots

EMPTY = " ".join(["0"] * 80)
BAD_INPUTS = {
    "truncated init block": "80\nN01 2 3 4\n",
    "truncated turn": EMPTY + "\n",
    "garbled position": "80\n" + "x\n" * 80 + "1 two 3\nN01\n",
    "level out of range": " ".join(["9"] * 80) + "\nN01\n",
    "not UTF-8": "\udcff\udcfe\n",
}


@pytest.mark.parametrize("module", ["bots.volcanoes.mcts", "bots.volcanoes.pure.mcts"])
@pytest.mark.parametrize("name", list(BAD_INPUTS))
def test_a_built_in_bot_answers_bad_input_with_one_line(module, name):
    data = BAD_INPUTS[name].encode("utf-8", "surrogateescape")
    out = subprocess.run(
        [sys.executable, "-m", module], input=data, capture_output=True, timeout=120, env=ENV, cwd=ROOT
    )
    err = out.stderr.decode(errors="replace")
    assert out.returncode == 1, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert out.stdout == b""


def test_a_position_without_a_legal_move_is_bad_input():
    out = subprocess.run(
        [sys.executable, "-m", "bots.volcanoes.mcts"],
        input=" ".join(["4"] * 80) + "\n\n",
        capture_output=True,
        text=True,
        timeout=120,
        env=ENV,
        cwd=ROOT,
    )
    assert out.returncode == 1 and "no legal move" in out.stderr and "Traceback" not in out.stderr


def test_a_built_in_bot_still_plays_a_whole_game_from_its_input():
    prefix = "80\n" + "\n".join(f"{i} x" for i in range(80)) + "\n"
    out = subprocess.run(
        [sys.executable, "-m", "bots.volcanoes.mcts"],
        input=prefix + EMPTY + "\nN01\n",
        capture_output=True,
        text=True,
        timeout=120,
        env=ENV,
        cwd=ROOT,
    )
    assert out.returncode == 0 and len(out.stdout.split()) == 1, out.stderr


# ---------------------------------------------------------------- overruns are a soft-mode rule


class _SlowSeat:
    """Answers RANDOM and says each answer took `seconds` (as a seat read just in time may)."""

    def __init__(self, seconds):
        self.seconds = seconds

    def ask(self, lines, timeout):
        return "RANDOM", self.seconds

    def take_stderr(self):
        return ""

    def close(self):
        pass


def test_answers_a_hair_over_the_limit_are_overruns_only_in_the_soft_mode():
    over = 1.001  # a hair over the 1000 ms first turn and over every later 100 ms turn
    hard = play_game(_SlowSeat(over), _SlowSeat(over), seed=3, settings=Settings(turn_ms=1000))
    assert hard.reason != "timeout", hard.detail
    soft = play_game(_SlowSeat(over), _SlowSeat(over), seed=3, settings=Settings(turn_ms=1000, soft_timeouts=True))
    assert (soft.reason, soft.winner) == ("timeout", "orange") and "overran its time 3 times" in soft.detail


@pytest.mark.parametrize(
    "content,reason",
    [
        (b"\xff\xfe", "not a replay file"),
        (b"[1, 2]", "no list of turns"),
        (b'{"turn_log": [7]}', "is not a turn"),
        (b'{"turn_log": [{"turn": 1, "actor": "blue", "levels": [9]}]}', "levels are not 80 levels"),
        (b'{"turn_log": [{"turn": 1, "actor": "blue", "dormant": ["Z99"]}]}', "not tile names"),
    ],
)
def test_a_file_that_is_not_a_replay_gets_one_line(content, reason, tmp_path):
    (tmp_path / "r.json").write_bytes(content)
    out = _referee("view", str(tmp_path / "r.json"))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and reason in out.stderr, out.stderr
    assert not (tmp_path / "r.html").exists()


def test_a_replay_that_cannot_be_written_gets_one_line(tmp_path):
    normal = " ".join(HOSTILE + ["normal"])
    out = _referee("play", normal, normal, "--max-turns", "3", "--replay", str(tmp_path / "no" / "r.json"))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert f"cannot write {tmp_path / 'no' / 'r.json'}: its folder {tmp_path / 'no'} does not exist" in out.stderr


@pytest.mark.parametrize("chosen", ["-1", "3.7", "None", "80", "True"])
def test_a_bot_whose_choice_is_no_tile_crashes_saying_what_it_returned(chosen, tmp_path):
    """A bot written on `bots.volcanoes.bot.Bot` whose choose() returned -1 or 3.7 played S40 or N04
    (Python's indexing), a tile it never chose; 80 and None crashed inside the adapter."""
    (tmp_path / "mine.py").write_text(
        "from bots.volcanoes.bot import Bot, main\n"
        "class Mine(Bot):\n    name = 'mine'\n"
        f"    def choose(self, state, budget):\n        return {chosen}\n"
        "main(Mine())\n"
    )
    prefix = "80\n" + "\n".join(f"{i} x" for i in range(80)) + "\n"
    out = subprocess.run(
        [sys.executable, str(tmp_path / "mine.py")],
        input=prefix + EMPTY + "\nN01 N02\n",
        capture_output=True,
        text=True,
        timeout=120,
        env=ENV,
    )
    assert out.stdout == "" and out.returncode != 0
    assert out.stderr.strip().splitlines()[-1] == (
        f"ValueError: mine: choose() returned {chosen}, not a tile index (0 to 79)"
    )
