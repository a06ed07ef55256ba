"""A command started with its output closed (`cmd >&-`, `2>&-`), or whose output cannot encode a
name (PYTHONIOENCODING=ascii, LC_ALL=C), runs as any other, its output lost or escaped. Before, a
closed stdout made `referee volcanoes play` hang for good (a bot's pipe took the output's number, and
the bot wrote its answers where no one read them), a closed stderr made `arena match` exit 1 without
a word or a database, and a report with an accented name ended in a UnicodeEncodeError."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOT = """import os, sys
lines = sys.stdin.buffer
if lines.readline().strip() == b"80":
    for _ in range(80):
        lines.readline()
    lines.readline()
while True:
    valid = lines.readline().split()
    if not valid:
        break
    os.write(1, valid[-1] + b"\\r\\n")
    lines.readline()
"""


def run(args: list[str], cwd: Path, closed: str) -> subprocess.CompletedProcess:
    """`python -m ARGS` with the standard streams numbered in `closed` (of "012") closed, as a
    shell's `>&-` does; the others on /dev/null."""
    code = "import os, sys\nfor fd in sys.argv[1]: os.close(int(fd))\nos.execv(sys.argv[2], sys.argv[2:])"
    return subprocess.run(
        [sys.executable, "-c", code, closed, sys.executable, "-m", *args],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def test_a_game_with_its_output_closed_ends(tmp_path):
    (tmp_path / "bot.py").write_text(BOT)
    bot = shlex.join([sys.executable, "bot.py"])
    args = ["referee.cli", "volcanoes", "play", bot, "python -m bots.volcanoes.random", "--replay", "game.json"]
    assert run(args, tmp_path, "1").returncode == 0
    assert (tmp_path / "game.json").exists()


def test_a_run_with_its_errors_closed_plays_and_stores_its_games(tmp_path):
    (tmp_path / "bot.py").write_text(BOT)
    args = ["arena.cli", "match", "bot.py", "random", "--pairs", "1", "--workers", "1", "--db", "run.sqlite"]
    assert run(args, tmp_path, "2").returncode == 0
    assert run(args[:2] + ["--resume", "--db", "run.sqlite"], tmp_path, "12").returncode == 0
    assert (tmp_path / "run.sqlite").exists()


def test_a_report_that_cannot_encode_a_name_escapes_it(tmp_path):
    (tmp_path / "élan.py").write_text(BOT)
    args = ["arena.cli", "match", "élan.py", "random", "--pairs", "1", "--workers", "1", "--db", "run.sqlite"]
    done = subprocess.run(
        [sys.executable, "-m", *args],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "ascii"},
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert b"\\xe9lan" in done.stdout and b"Traceback" not in done.stderr
