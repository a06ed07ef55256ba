"""Ctrl+C (SIGINT) and SIGTERM stop any command the same way, wherever it stands: what it was doing
cleans up on its way out, and it ends with one line, `PROG: interrupted`, and status 130. Before,
Ctrl+C while a run's players were prepared or built, or during `referee volcanoes play`, ended in a
traceback, and SIGTERM killed the command where it stood: a build's compiler ran on, orphaned, and
its half-made folder stayed in the cache. A league's or a match's pool workers are out of the
command's process group, so that a signal sent to the group (`timeout`, a terminal's job control)
is the main process's to handle: they no longer die with the games they play."""

from __future__ import annotations

import os
import secrets
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee import puzzle
from tests.games.pebbles.harness import games_stored, until
from tests.processes import holding, kill_holding, lingering

ROOT = Path(__file__).resolve().parents[2]
SLOW_BOT = """import pathlib, sys, time
n = int(input())
for _ in range(n):
    input()
while True:
    input(); input()
    pathlib.Path(sys.argv[1]).touch()  # the game has begun
    time.sleep(0.05)
    print("RANDOM", flush=True)
"""


def started(args: list[str], cwd: Path, env: dict | None = None, **popen) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", *args],
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        **popen,
    )


def wait_for(marker: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not holding(marker, "cmdline"):
        assert time.monotonic() < deadline, f"no process with {marker} started"
        time.sleep(0.05)


def interrupted(proc: subprocess.Popen, prog: str, signum: int) -> str:
    """Send `signum` to the command's own process; assert it ended as interrupted; its stderr."""
    proc.send_signal(signum)
    try:
        err = proc.communicate(timeout=60)[1]
    finally:
        proc.kill()
    # 130, or killed by SIGINT (as a shell, that is 130 too): CPython ends so once a KeyboardInterrupt
    # went through some of its C paths (an extension's import), even though the command caught it.
    assert proc.returncode in (130, -signal.SIGINT), (proc.returncode, err)
    assert "Traceback" not in err, err
    assert err.strip().splitlines()[-1] == f"{prog}: interrupted", err
    return err


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_run_stopped_while_a_player_builds_ends_the_build_and_keeps_nothing(signum, tmp_path):
    marker = f"caldera-build-{secrets.token_hex(4)}"
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "bot.c").write_text("int main(void) { return 0; }\n")
    (tmp_path / "arena.toml").write_text(
        f'[players.slow]\nsource = "bot/"\nbuild = "sleep 60 # {marker}\\ncc -o bot bot.c"\nrun = "./bot"\n'
    )
    cache = tmp_path / "cache"
    proc = started(
        ["arena.cli", "match", "slow", "random", "--pairs", "1", "--quiet"], tmp_path, {"XDG_CACHE_HOME": str(cache)}
    )
    try:
        wait_for(marker)
        interrupted(proc, "arena match", signum)
        assert lingering(marker, "cmdline") == [], "the build's processes outlived the command"
    finally:
        kill_holding(marker, "cmdline")
    builds = cache / "caldera" / "builds"
    assert not [p.name for p in builds.iterdir() if p.name.startswith(".")], "a half-made build was left"
    assert not list((tmp_path / "arena-runs").glob("*.sqlite")), "the run that never began was kept"


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_game_of_the_referee_stopped_ends_its_bots_and_says_so(signum, tmp_path):
    marker = f"caldera-slow-{secrets.token_hex(4)}.py"
    bot = tmp_path / marker
    bot.write_text(SLOW_BOT)
    begun = tmp_path / "begun"
    command = shlex.join([sys.executable, str(bot), str(begun)])
    proc = started(["referee.cli", "volcanoes", "play", command, command], tmp_path)
    try:
        deadline = time.monotonic() + 120  # (a cold numba cache: the referee compiles first)
        while not begun.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)  # in the middle of the game
        interrupted(proc, "referee volcanoes play", signum)
        assert lingering(marker, "cmdline") == []
    finally:
        kill_holding(marker, "cmdline")


def test_a_league_stopped_by_a_signal_to_its_group_lets_the_games_in_play_end(tmp_path):
    """`timeout 1h arena league ...` sends SIGTERM to the whole process group: the pool's workers,
    which were in it, died with their games ("a worker process died; N games will be played
    again")."""
    bots = ROOT / "tests" / "games" / "pebbles" / "bots"
    slow = tmp_path / "slow.py"  # (its games outlast the two signals: the first alone ends none of them)
    slow.write_text(
        f"import sys, time\nsys.path.insert(0, {str(bots)!r})\nfrom _common import play\n"
        "play(lambda values, scores, me: time.sleep(0.05) or 0)\n"
    )
    db = tmp_path / "league.sqlite"
    args = ["arena.cli", "league", f"slow=python {slow}", f"first=python {bots / 'first.py'}"]
    args += ["--referee", f"{sys.executable} -m tests.games.pebbles.relay_referee", "--protocol", "relay"]
    proc = started([*args, "--db", str(db), "--workers", "2", "--quiet"], ROOT, start_new_session=True)
    try:
        until(lambda: games_stored(db) >= 4, timeout=120, what="the league's first games")
        os.killpg(proc.pid, signal.SIGTERM)
        err = proc.communicate(timeout=120)[1]
    finally:
        proc.kill()
    assert "[league] stopped" in err and "worker process died" not in err, err


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_puzzle_solver_stopped_says_so(signum, tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "bots.coroutine.solver"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    proc.stdin.write(puzzle.load("coroutine").examples[0] + "\n\n")
    proc.stdin.flush()
    assert proc.stdout.readline()  # its first answer: now it waits for the next puzzle
    proc.send_signal(signum)
    err = proc.stderr.read()
    assert proc.wait(timeout=60) in (130, -signal.SIGINT) and "Traceback" not in err, err
    assert err.strip().splitlines()[-1] == "coroutine solver: interrupted", err


def test_the_referee_stopped_while_it_starts_says_so(monkeypatch, capsys):
    """Its parser imports Volcanoes' rules (numba's kernels: seconds on a cold cache): stopped then, it
    ended in a traceback (Ctrl+C) or silently (SIGTERM). A fresh clone's CI run showed both."""
    import referee.cli

    def stopped():
        raise KeyboardInterrupt

    monkeypatch.setattr(referee.cli, "build_parser", stopped)
    assert referee.cli.main(["volcanoes", "play", "a", "b"]) == 130
    assert capsys.readouterr().err.strip() == "referee: interrupted"


INTERRUPTED_IMPORTS = """import os, signal, sys

class CtrlC:  # Ctrl+C as the commands' modules are imported
    def find_spec(self, name, path=None, target=None):
        if name == "arena.cli.league":
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, CtrlC())
from arena.cli import main  # as the console script does
sys.exit(main())
"""


def test_arena_stopped_while_it_imports_its_commands_says_so(tmp_path):
    """Ctrl+C in the first 1.8 s of `arena league add ...`, while Python imported the commands'
    modules (numpy, numba...), ended in a KeyboardInterrupt's traceback: `arena.cli` imported them
    before its `main` could catch it. It names the command, as a later Ctrl+C does (it said `arena`)."""
    proc = subprocess.run(
        [sys.executable, "-c", INTERRUPTED_IMPORTS, "league", "status"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )
    assert proc.returncode in (130, -signal.SIGINT) and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == "arena league: interrupted", proc.stderr


HANGING_REFEREE = """import pathlib, sys, time
if pathlib.Path("hang").exists():
    time.sleep(3600)  # (a referee that hangs: its game ends at the game's time limit, 300 s)
seed = next(a for a in sys.argv if a.startswith("seed="))
print(1); print(0); print(seed)
"""


def test_a_run_stopped_while_its_referees_hang_ends_at_once(tmp_path):
    """With --workers 2 the pool was shut down waiting for the games in play, whose results are
    thrown away: an interrupted run went on until its referees' time limit (5 minutes)."""
    referee = f"hanging-{secrets.token_hex(4)}.py"  # (not referee.py: `python -m arena.cli` would import it)
    (tmp_path / referee).write_text(HANGING_REFEREE)
    (tmp_path / "arena.toml").write_text(
        f'[games.hangs]\nprotocol = "cli"\ncommand = "{sys.executable} {referee}"\nplayers = 2\nlog = false\n'
    )
    bots = ROOT / "tests" / "games" / "pebbles" / "bots"
    args = ["arena.cli", "match", f"python {bots / 'greedy.py'}", f"python {bots / 'first.py'}", "--pairs", "500"]
    proc = started([*args, "--game", "hangs", "--workers", "2", "--quiet", "--db", "run.sqlite"], tmp_path)
    try:
        for line in proc.stderr:  # the seed's check played (before any game hangs)
            if line.startswith("  seed") and "played twice" in line:
                break
        (tmp_path / "hang").touch()
        wait_for(referee)
        time.sleep(0.5)
        began = time.monotonic()
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)
        assert proc.returncode == 130 and time.monotonic() - began < 20
        assert lingering(referee, "cmdline", seconds=2.0) == []
    finally:
        proc.kill()
        kill_holding(referee, "cmdline")


def test_three_quick_interrupts_of_a_pooled_run_end_it(tmp_path):
    """Three Ctrl+C in a row (a hand on the keys): the second cut the pool's shutdown short, leaving
    its workers waiting for an end that never came, and the third, during Python's exit, hung the
    command for good."""
    bots = ROOT / "tests" / "games" / "pebbles" / "bots"
    db = tmp_path / "run.sqlite"
    args = ["arena.cli", "match", f"python {bots / 'greedy.py'}", f"python {bots / 'first.py'}", "--pairs", "500"]
    args += ["--referee", f"{sys.executable} -m tests.games.pebbles.relay_referee", "--protocol", "relay"]
    proc = started([*args, "--workers", "2", "--quiet", "--db", str(db)], ROOT)
    try:
        until(lambda: games_stored(db) >= 4, timeout=120, what="the run's first games")
        for _ in range(3):
            proc.send_signal(signal.SIGINT)
            time.sleep(0.1)
        proc.wait(timeout=60)
        assert proc.returncode in (130, -signal.SIGINT), proc.stderr.read()
    finally:
        proc.kill()


def test_a_league_stopped_twice_says_that_its_games_in_play_were_dropped(tmp_path):
    """The first Ctrl+C lets the games in play end; the second drops them, and the league said the
    same `[league] stopped: ...` as after a clean stop."""
    bots = ROOT / "tests" / "games" / "pebbles" / "bots"
    db = tmp_path / "league.sqlite"
    args = ["arena.cli", "league", f"greedy=python {bots / 'greedy.py'}", f"first=python {bots / 'first.py'}"]
    args += ["--referee", f"{sys.executable} -m tests.games.pebbles.relay_referee", "--protocol", "relay"]
    proc = started([*args, "--workers", "2", "--quiet", "--db", str(db)], ROOT)
    try:
        until(lambda: games_stored(db) >= 2, timeout=120, what="the league's first games")
        proc.send_signal(signal.SIGINT)
        time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 130, err
        assert "[league] stopped (the games in play dropped: they are played when it goes on): " in err, err
    finally:
        proc.kill()
