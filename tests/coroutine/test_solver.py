import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data" / "coroutine"


def solver(text, *args):
    command = [sys.executable, "-m", "bots.coroutine.solver", *args]
    return subprocess.run(command, input=text, capture_output=True, text=True, timeout=60)


def test_solver_prints_the_optimal_answer():
    run = solver((DATA / "published.txt").read_text())
    assert run.returncode == 0
    assert run.stdout == "A2 B- A2 B0 A6 B5 A5 B1 A3 B7 A1 B6 A5 B- A0\n"


def test_solver_prints_none_when_no_answer_exists():
    assert solver("- - -\n- - -\n- - -\n").stdout == "NONE\n"


def test_trace_shows_each_turn_for_checking_by_hand():
    lines = solver((DATA / "published.txt").read_text(), "--trace").stdout.splitlines()
    assert lines[2] == "15 turns: 13 steps, 2 forced passes"
    assert lines[3].split() == ["turn", "token", "from", "to", "other", "token", "on", "arrows", "there", "direction"]
    assert lines[4].split() == ["1", "A", "top-left", "top", "bottom-right", "N", "E", "NW", "E", "(2)"]
    assert lines[5].split() == ["2", "B", "bottom-right", "bottom-right", "top", "NE", "E", "S", "SW", "pass"]
    assert lines[-1].split() == ["15", "A", "bottom", "centre", "top-left", "N", "S", "SW", "N", "(0)"]


def test_solver_rejects_a_malformed_puzzle():
    run = solver("045 1245 0145\n1457 - 136\n")
    assert run.returncode == 2 and "got 2 lines" in run.stderr and "Traceback" not in run.stderr
