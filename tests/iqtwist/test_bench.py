"""`referee iqtwist bench` runs and names its figures (their values are the bench's business)."""
from __future__ import annotations

import subprocess
import sys

import referee.cli

FIGURES = ("warm-up", "per challenge median:", "per challenge max:", "challenges total:", "empty board:")


def test_bench_times_the_recorded_challenges_and_the_empty_board():
    done = subprocess.run(
        [sys.executable, "-m", "referee.cli", "iqtwist", "bench"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    for name in FIGURES:
        assert name in done.stdout
    assert "108 solved with a unique solution" in done.stdout
    assert "empty board: 5992 solutions" in done.stdout


def test_bench_names_a_challenge_without_a_unique_solution(tmp_path, capsys):
    challenges = tmp_path / "challenges.txt"
    challenges.write_text("# two pegs: many solutions\ni6B0j2B0\nf3C4i6B0j2B0j1C0k3C0l4B0l5C0\n")
    assert referee.cli.main(["iqtwist", "bench", str(challenges)]) == 1
    out = capsys.readouterr().out
    assert "challenges: 2 from" in out and "1 solved with a unique solution" in out
    assert "line 2 i6B0j2B0: 215 solutions, not exactly one" in out


def test_bench_refuses_a_malformed_file(tmp_path, capsys):
    challenges = tmp_path / "challenges.txt"
    challenges.write_text("i6B0j2B\n")
    assert referee.cli.main(["iqtwist", "bench", str(challenges)]) == 2
    assert capsys.readouterr().err == f"iqtwist bench: {challenges}, line 1: length 7 is not a multiple of 4\n"
