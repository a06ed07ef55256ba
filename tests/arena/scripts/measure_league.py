"""The league's own cost: games per minute of `arena league` against `arena tournament` playing the
same players on the same game (Pebbles through its protocol-(A) referee, 2 workers), between their
10th and their 100th game (start-up and the end left out), and the CPU the playing process itself
used over that stretch (matchmaking, refits, storing), as a share of the machine. Runs alternate.

    python tests/arena/scripts/measure_league.py [ROUNDS]
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
BOTS = ROOT / "tests" / "games" / "pebbles" / "bots"
PLAYERS = [f"{name}={sys.executable} {BOTS / f'{name}.py'}" for name in ("greedy", "first", "worst", "emitter")]
GAME = ["--referee", f"{sys.executable} -m tests.games.pebbles.cli_referee", "--protocol", "cli"]
FROM, TO = 10, 100


def finished(db: Path) -> list[float]:
    try:
        db_ = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        rows = db_.execute("SELECT finished_at FROM games ORDER BY id").fetchall()
        db_.close()
    except sqlite3.Error:
        return []
    return [datetime.fromisoformat(r[0]).timestamp() for r in rows]


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime of the process itself


def measure(kind: str, folder: Path, seed: int) -> tuple[float, float]:
    db = folder / f"{kind}-{seed}.sqlite"
    command = [sys.executable, "-m", "arena.cli", kind, *PLAYERS, *GAME, "--db", str(db), "--seed", str(seed)]
    command += ["--workers", "2", "--quiet"] + (["--pairs", "20"] if kind == "tournament" else [])
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    marks = {}
    while True:
        times = finished(db)
        for n in (FROM, TO):
            if len(times) >= n and n not in marks:
                marks[n] = cpu_s(proc.pid)
        if len(times) >= TO:
            break
        time.sleep(0.02)
    proc.send_signal(signal.SIGTERM if kind == "league" else signal.SIGINT)
    proc.wait()
    times = finished(db)
    wall = times[TO - 1] - times[FROM - 1]
    return (TO - FROM) / wall * 60, (marks[TO] - marks[FROM]) / (wall * os.cpu_count())


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    with tempfile.TemporaryDirectory() as folder:
        for r in range(rounds):
            for kind in ("tournament", "league"):
                rate, share = measure(kind, Path(folder), 100 + r)
                print(f"{kind:10}  {rate:6.1f} games/min   its own process: {100 * share:.2f}% of the machine")


if __name__ == "__main__":
    main()
