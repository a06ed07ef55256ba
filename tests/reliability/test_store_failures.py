"""What the arena (arena/play/store.py, run.py, runs.py) does when the machine fails a
run: a full disk, a worker killed, a killed run's WAL in a read-only folder, a path that is a folder.
The shared pieces are referee.platform.files, referee.platform.options and referee.platform.process."""

from __future__ import annotations

import os
import shlex
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from arena.play.store import Store, StoreError
from tests.reliability.commands import one_line, run

ESCAPER = [sys.executable, "-S", str(Path(__file__).parent / "scripts" / "escaper.py")]
MATCH = ["match", "random", "boss", "--pairs", "1", "--workers", "1", "--seed", "3", "--quiet"]


def _games(db: Path) -> int:
    with sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True) as connection:
        return connection.execute("SELECT count(*) FROM games").fetchone()[0]


def test_a_run_on_a_full_disk_is_one_line_and_leaves_no_database(small_disk):
    db = small_disk.path / "run.sqlite"
    small_disk.fill()
    done = run("arena.cli", *MATCH, "--db", str(db), cwd=small_disk.path.parent)
    one_line(done, "arena match", "full")
    assert not db.exists(), "an empty database blocks the next run: 'exists: resume it'"


def test_a_database_made_on_a_nearly_full_disk_is_made_whole_or_not_at_all(small_disk):
    # From a full disk to one with room, a page at a time: between the two lies the space where the
    # run's first transaction fits in the WAL but not once more in the file, where the file was
    # linked into place without what its WAL held, and every command after said it was damaged.
    db = small_disk.path / "run.sqlite"
    config = {"command": "match", "game": {"protocol": "volcanoes"}, "players": [], "notes": "x" * 8000}
    small_disk.fill()
    filler = small_disk.filler.stat().st_size
    for freed in range(0, filler, 4096):
        os.truncate(small_disk.filler, filler - freed)
        try:
            store = Store.create(db, config, [])
        except StoreError as exc:
            assert "its disk is full" in str(exc) and "start the run again" in str(exc), exc
            assert sorted(p.name for p in small_disk.path.iterdir()) == ["filler"], f"{freed} bytes freed"
            continue
        store.close()
        store = Store.open(db, readonly=True)
        try:
            assert store.config == config, f"{freed} bytes freed"
        finally:
            store.close()
        break
    else:
        raise AssertionError("no database was made, even with the disk emptied")


def test_a_disk_that_fills_during_a_run_is_one_line_and_the_run_resumes(small_disk):
    db = small_disk.path / "run.sqlite"
    assert run("arena.cli", *MATCH, "--db", str(db), cwd=small_disk.path.parent).returncode == 0
    small_disk.fill()
    more = ["--resume", "--db", str(db), "--pairs", "3", "--quiet"]
    done = run("arena.cli", "match", *more, cwd=small_disk.path.parent)
    one_line(done, "arena match", "full")
    small_disk.free()
    assert run("arena.cli", "match", *more, cwd=small_disk.path.parent).returncode == 0
    assert _games(db) == 6


def test_report_reads_a_killed_runs_wal_in_a_read_only_folder(arena_run, small_disk):
    db = small_disk.path / "run.sqlite"
    # A run killed before any checkpoint: its games are all in the WAL, the main file nearly empty.
    code = (
        "import os, sqlite3, sys; src = sqlite3.connect(sys.argv[1]); "
        "dst = sqlite3.connect(sys.argv[2], isolation_level=None); dst.execute('PRAGMA journal_mode=WAL'); "
        "dst.execute('PRAGMA wal_autocheckpoint=0'); src.backup(dst); os._exit(0)"
    )
    subprocess.run([sys.executable, "-c", code, str(arena_run), str(db)], check=True)
    Path(f"{db}-shm").unlink()
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk.path)], check=True)
    done = run("arena.cli", "report", str(db))
    assert done.returncode == 0 and "not an arena database" not in done.stderr, done.stderr
    assert done.stdout == run("arena.cli", "report", str(arena_run)).stdout


def test_a_db_path_that_is_a_folder_is_said_so(tmp_path):
    (tmp_path / "runs").mkdir()
    line = one_line(run("arena.cli", *MATCH, "--db", str(tmp_path / "runs"), cwd=tmp_path), "arena match", "runs")
    assert "resume" not in line and "folder" in line


def test_report_says_when_its_games_folder_is_a_file(arena_run, tmp_path):
    (tmp_path / "page_games").write_text("a file where the replays' folder goes")
    line = one_line(run("arena.cli", "report", str(arena_run), "-o", str(tmp_path / "page.html")), "arena report")
    assert "page_games" in line and "it is a file" in line


def test_report_leaves_nothing_beside_the_database_it_reads(arena_run, tmp_path):
    db = tmp_path / "run.sqlite"
    shutil.copy(arena_run, db)
    assert run("arena.cli", "report", str(db)).returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.sqlite"]


def test_a_bot_that_kills_its_worker_does_not_end_the_run(tmp_path):
    """Its worker dies (and again when its games are played once more, alone): the games are the
    machine's failures, kept to be played again on resume; the run goes on with a new worker, its
    other games stored, and says so."""
    killer = shlex.join([*ESCAPER, "killparent", "caldera-killer"])
    db = tmp_path / "run.sqlite"
    done = run(
        "arena.cli", "tournament", f"killer={killer}", "random", "boss", "--pairs", "1", "--workers", "2",
        "--seed", "3", "--quiet", "--db", str(db), cwd=tmp_path, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "worker process died" in done.stderr and "by the machine" in done.stdout
    assert _games(db) == 2  # random against boss
    with sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True) as connection:
        kinds = connection.execute("SELECT kind, seats FROM failures").fetchall()
    assert len(kinds) == 4 and all(kind == "machine" and "killer" in seats for kind, seats in kinds)
