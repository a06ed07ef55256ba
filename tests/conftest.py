import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections import deque
from pathlib import Path
from types import SimpleNamespace

import pytest

from bots.volcanoes.launch import TAKE_OVER_NOTE
from tests.kernels import GROUPS

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).resolve().parents[1]
# What a bot that loads behind a pure-Python stand-in says when it takes over (on an empty numba
# cache): the one stderr line a game's bots may write without complaining.
TAKEOVER_NOTE = re.compile(r"\[\w+\] ready after [\d.]+ s: " + re.escape(TAKE_OVER_NOTE))


def pytest_sessionstart(session):
    """Before the workers of a parallel run start (`-n`, pytest-xdist), compile the numba kernels the
    tests use into numba's cache, in two processes at once (`tests/kernels.py`): else each worker
    compiles the same kernels, on an empty cache some 80 s of processor time each. The workers then
    load them (a warm cache makes this a few seconds)."""
    config = session.config
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return
    started = time.perf_counter()
    command = [sys.executable, "-m", "tests.kernels"]
    groups = {
        group: subprocess.Popen(
            [*command, group], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        for group in GROUPS
    }
    failed = []
    for group, process in groups.items():
        stderr = process.communicate()[1]
        if process.returncode:
            failed.append(f"{group} ({(stderr.strip().splitlines() or ['no message'])[-1]})")
    said = f"numba kernels compiled or loaded in {time.perf_counter() - started:.0f} s"
    print(f"\n{said}" + (f"; these failed, the tests compile them: {', '.join(failed)}" if failed else ""))


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config):
    """`-n auto`: one worker more than this process may use cores. The suite's tests wait a sixth of
    their time on bots' clocks, timeouts and sleeps rather than compute; a worker more fills that
    wait (the whole suite 440 s against 467 s on 2 cores, same tree). PYTEST_XDIST_AUTO_NUM_WORKERS
    still decides when set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # pytest-xdist's own reading of it
    return len(os.sched_getaffinity(0)) + 1 if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1) + 1


@pytest.fixture(scope="session")
def solver():
    """A function: puzzle NAME's solver command (`python -m bots.NAME.solver ARGS...`) run on `stdin`."""

    def run(name: str, stdin: str, *args: str) -> subprocess.CompletedProcess:
        command = [sys.executable, "-m", f"bots.{name}.solver", *args]
        return subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=120, cwd=ROOT)

    return run


@pytest.fixture(scope="session")
def conformance_games():
    """The 800 games recorded from CodinGame's Volcanoes referee (see tests/data/volcanoes)."""
    with gzip.open(DATA / "volcanoes" / "conformance.jsonl.gz", "rt") as f:
        return [json.loads(line) for line in f]


@pytest.fixture(scope="session")
def recorded_replay():
    """A function: a recorded game (of `conformance_games`) that ended on a connection, as a replay
    of seed 1 between `players` (colour -> name)."""
    from referee.volcanoes.replay import replay_from_moves

    def replay(recorded: dict, players: dict[str, str]) -> dict:
        moves = recorded["moves"].split()
        return replay_from_moves(
            moves, seed=1, players=players, winner=recorded["winner"], reason="connection", detail="", turns=len(moves)
        )

    return replay


@pytest.fixture(scope="session")
def shortest_path():
    """A function: the tiles of a shortest path on the Volcanoes board from `start` to `goal`."""
    from referee.volcanoes.board import NEIGHBOURS

    def path(start: int, goal: int) -> list[int]:
        parent = {start: None}
        queue = deque([start])
        while queue:
            t = queue.popleft()
            for n in NEIGHBOURS[t]:
                if n not in parent:
                    parent[n] = t
                    queue.append(n)
        tiles = [goal]
        while parent[tiles[-1]] is not None:
            tiles.append(parent[tiles[-1]])
        return tiles

    return path


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium driven by Selenium (Debian's chromium and chromium-driver)."""
    webdriver = pytest.importorskip("selenium.webdriver")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    chromedriver = shutil.which("chromedriver")
    if not (chromium and chromedriver):
        pytest.skip("needs Debian's chromium and chromium-driver (.ci/run installs them)")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--window-size=1000,800",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(chromedriver))
    yield driver
    driver.quit()


@pytest.fixture
def referee_game(tmp_path):
    """A function: one Volcanoes game between two bot commands through `referee volcanoes play`, as
    a user runs it (limits generous unless given). It returns the JSON result, the replay and its
    turn log, and the stderr lines of the bots other than takeover notes (a complaint or a crash)."""

    def play(blue: str, orange: str, *, seed: int, first_turn_ms=10000, turn_ms=1000, timeout=180):
        replay = tmp_path / "replay.json"
        command = [sys.executable, "-m", "referee.cli", "volcanoes", "play", blue, orange, "--seed", str(seed)]
        command += ["--first-turn-ms", str(first_turn_ms), "--turn-ms", str(turn_ms), "--json", "--replay", str(replay)]
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        assert done.returncode == 0, done.stderr
        saved = json.loads(replay.read_text())
        turn_log = saved["turn_log"]
        stderr = [line for turn in turn_log for line in turn["stderr"].splitlines()]
        return SimpleNamespace(
            result=json.loads(done.stdout),
            replay=saved,
            turn_log=turn_log,
            complaints=[line for line in stderr if not TAKEOVER_NOTE.fullmatch(line)],
        )

    return play
