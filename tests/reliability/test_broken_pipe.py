"""A command whose reader leaves (`... | head -1`) stops quietly: exit status 0 (an SPRT's, its verdict),
no traceback, no "Exception ignored" at exit. For every puzzle's solver and generator (found, not listed)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from arena.play.runs import SPRT_STATUS
from referee import puzzle
from tests.reliability.commands import ROOT

ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
GENERATOR_ARGS = {  # enough output that it outlasts its reader
    "coroutine": ["--turns", "5", "--count", "40", "--seed", "1"],
    "iqtwist": ["--level", "starter", "--count", "200", "--seed", "1"],
    "vikings": ["--moves", "2", "--count", "40", "--seed", "1"],
}
GENERATORS = sorted(p.parent.name for p in (ROOT / "bots").glob("*/generate.py"))
SOLVERS = sorted(p.parent.name for p in (ROOT / "bots").glob("*/solver.py"))


def _first_line_then_leave(command: list[str], stdin: str = "") -> subprocess.CompletedProcess:
    """Run `command`, read one line of its output, close the pipe; the finished process."""
    with subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
        cwd=ROOT,
    ) as proc:
        proc.stdin.write(stdin.encode())
        proc.stdin.close()
        assert proc.stdout.readline(), "no output at all"
        proc.stdout.close()
        err = proc.stderr.read().decode(errors="replace")
        status = proc.wait(timeout=120)
    return subprocess.CompletedProcess(command, status, "", err)


def test_every_generator_is_tried():
    assert GENERATORS == sorted(GENERATOR_ARGS)


@pytest.mark.parametrize("name", GENERATORS)
def test_a_generator_stops_quietly_when_its_reader_leaves(name):
    done = _first_line_then_leave([sys.executable, "-m", f"bots.{name}.generate", *GENERATOR_ARGS[name]])
    assert done.returncode == 0 and "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, done


@pytest.mark.parametrize("name", SOLVERS)
def test_a_solver_stops_quietly_when_its_reader_leaves(name):
    example = puzzle.load(name).examples[0]
    done = _first_line_then_leave([sys.executable, "-m", f"bots.{name}.solver"], "\n\n".join([example] * 20))
    assert done.returncode == 0 and "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, done


@pytest.mark.parametrize("name", SOLVERS)
def test_a_judge_stops_quietly_when_its_reader_leaves(name, tmp_path):
    """It said "cannot read FILE: Broken pipe", blaming the puzzle file for the reader's leaving."""
    source = tmp_path / "puzzles.txt"
    source.write_text("\n\n".join([puzzle.load(name).examples[0]] * 20) + "\n")
    solver = f"{sys.executable} -m bots.{name}.solver"
    done = _first_line_then_leave([sys.executable, "-m", "referee.cli", name, "judge", str(source), solver])
    assert done.returncode == 0 and not done.stderr, done


def test_an_sprt_whose_reader_left_exits_with_its_verdict(tmp_path):
    """`arena sprt ... | head -c 10` exited 0 (H1 accepted, for a script) now and then for an SPRT that
    decided nothing (3): the reader, gone before the report was written, cut the run short there."""
    command = [sys.executable, "-m", "arena.cli", "sprt", "greedy", "random", "--max-pairs", "1"]
    command += ["--workers", "1", "--quiet", "--db", str(tmp_path / "s.sqlite")]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV, cwd=tmp_path) as proc:
        proc.stdout.close()  # the reader gone before the first line
        err = proc.stderr.read().decode(errors="replace")
        status = proc.wait(timeout=120)
    assert status == SPRT_STATUS[None] and "Traceback" not in err and "Exception ignored" not in err, err
    assert "Database: " in err  # what follows the report on stderr is still said
