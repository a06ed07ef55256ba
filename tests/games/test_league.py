"""`arena league` as a user runs it: a process playing Pebbles through an external referee (protocol
(A), the fastest), players added, removed and paused from another shell while it plays, killed with
SIGKILL and started again: every finished game is kept once, none lost or played twice; a bot that
crashes at start-up is paused with its reason while the league goes on."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.cli import main
from arena.play.store import Store

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "tests" / "games" / "pebbles" / "bots"
REFEREE = ["--referee", f"{sys.executable} -m tests.games.pebbles.cli_referee", "--protocol", "cli"]


def bot(label: str, name: str, *args: str) -> str:
    return f"{label}={' '.join([sys.executable, str(BOTS / f'{name}.py'), *args])}"


@pytest.fixture(autouse=True)
def at_the_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # the referee runs as `python -m tests.games.pebbles...`


def start_league(db: Path, *players: str, log: Path) -> subprocess.Popen:
    command = [sys.executable, "-m", "arena.cli", "league", *players, *REFEREE, "--db", str(db)]
    command += ["--workers", "2", "--seed", "11", "--quiet"]
    return subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=open(log, "ab"), start_new_session=True
    )


def read(db: Path) -> tuple[list[dict], dict, list[dict]]:
    """(games, standings, failures), [] and {} while the file is not there yet."""
    if not db.exists():
        return [], {}, []
    try:
        store = Store.open(db, readonly=True)
    except Exception:  # noqa: BLE001 - not created yet
        return [], {}, []
    try:
        return store.games(), store.league_players(), store.failures()
    finally:
        store.close()


def wait_for(what, db: Path, proc: subprocess.Popen, timeout: float = 120.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = what(*read(db))
        if got:
            return got
        assert proc.poll() is None, f"the league exited ({proc.returncode})"
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting: {what.__doc__}")


def key(game: dict) -> tuple:
    return tuple(game["lineup"]), game["unit"], game["seating"]


def test_a_league_plays_on_through_changes_a_crashing_bot_and_sigkill(tmp_path, leftovers, capsys):
    db, log = tmp_path / "league.sqlite", tmp_path / "league.log"
    proc = start_league(db, bot("greedy", "greedy"), bot("first", "first"), log=log)
    try:
        wait_for(lambda games, *_: len(games) >= 4, db, proc)

        # From another shell, while it plays: a new bot and one that crashes at start-up.
        assert main(["league", "add", bot("worst", "worst"), bot("crashy", "hostile", "crash"), "--db", str(db)]) == 0

        def crashy_paused(games, standing, failures):
            """crashy paused"""
            return standing["crashy"]["status"] == "paused"

        wait_for(crashy_paused, db, proc)
        games, standing, _ = read(db)
        assert "failed before its first answer in its last 3 games" in standing["crashy"]["reason"]
        assert "crash" in standing["crashy"]["reason"]
        crashy_games = [g for g in games if "crashy" in g["seats"]]
        assert crashy_games and all(g["errors"][g["seats"].index("crashy")] == "crash" for g in crashy_games)

        def worst_played(games, *_):
            """the newcomer played"""
            return any("worst" in g["seats"] for g in games)

        wait_for(worst_played, db, proc)
        assert main(["league", "remove", "first", "--db", str(db)]) == 0
        removed_at = len(read(db)[0])

        def on_without_first(games, *_):
            """six games after the removal"""
            # the games in flight (4, and a unit begun) may have `first`
            return len(games) >= removed_at + 6 + 6 and games

        games = wait_for(on_without_first, db, proc)
        assert all("first" not in g["seats"] for g in games[removed_at + 6 :])
        assert all("crashy" not in g["seats"] for g in games[len(games) - 4 :])  # the league went on without it

        # SIGKILL, with games in flight: whatever was stored is kept, once.
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        before, _, _ = read(db)
        assert len({key(g) for g in before}) == len(before)

        # Started again (a plain `arena league --db`): it goes on, completing a unit cut short.
        proc = start_league(db, log=log)
        wait_for(lambda games, *_: len(games) >= len(before) + 6, db, proc)
        proc.send_signal(signal.SIGTERM)  # stops gracefully: the games in flight end and are stored
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()

    after, standing, failures = read(db)
    assert [{k: g[k] for k in g} for g in after[: len(before)]] == before  # none lost, none changed
    assert len({key(g) for g in after}) == len(after)  # none played twice
    units: dict[tuple, set] = {}
    for g in after:
        units.setdefault((tuple(g["lineup"]), g["unit"]), set()).add(g["seating"])
    cut_short = [u for u, seatings in units.items() if len(seatings) < 2]
    assert len(cut_short) <= 2, f"units left short: {cut_short}"  # at most those in flight at the last stop
    assert standing["first"]["status"] == "removed" and standing["crashy"]["status"] == "paused"
    assert not failures

    assert main(["league", "status", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "crashy paused: failed before its first answer in its last 3 games" in out
    assert "greedy" in out and "worst" in out and "first" not in out.split("\n\n")[0]


def test_a_league_backs_off_failed_games_and_plays_them_again(tmp_path, leftovers):
    """A referee that crashes on odd seeds: those games are failures, played again after a back-off;
    the league neither stops nor pauses a bot (every bot's games fail alike)."""
    db, log = tmp_path / "league.sqlite", tmp_path / "league.log"
    command = [sys.executable, "-m", "arena.cli", "league", bot("greedy", "greedy"), bot("first", "first")]
    command += ["--referee", f"{sys.executable} -m tests.games.pebbles.cli_referee --misbehave crash-odd"]
    command += ["--protocol", "cli", "--db", str(db), "--workers", "2", "--seed", "2", "--quiet"]
    proc = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=open(log, "ab"), start_new_session=True
    )
    try:

        def retried(games, standing, failures):
            """a failed game played again"""
            keys = [key(f) for f in failures]
            return len(games) >= 4 and len(keys) > len(set(keys))

        games, standing, failures = wait_for(lambda *state: retried(*state) and state, db, proc)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    assert all(f["kind"] == "referee" for f in failures)
    assert all(g["seed"] % 2 == 0 for g in games)
    assert {row["status"] for row in standing.values()} == {"active"}
    text = log.read_text()
    assert "played again in 5 s" in text and "played again in 10 s" in text
