"""Every puzzle's judge and solver keep the same rules for what is wrong (one test for all four):
a judge exits 1 when any answer it checks is wrong, 2 with one line for a file that is not the
puzzle's text (not UTF-8 included); a solver never echoes a huge input line back. Run as processes:
the in-process contract is test_puzzle_contract.py."""
import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1] / "data"
ROOT = Path(__file__).resolve().parents[2]


def _first_challenge() -> str:
    rows = [line for line in (DATA / "iqtwist" / "challenges.tsv").read_text().splitlines() if not line.startswith("#")]
    return rows[0].split("\t")[3] + "\n"


# puzzle -> (a file of valid puzzles, extra judge options)
PUZZLES = {
    "coroutine": (lambda: (DATA / "coroutine" / "published.txt").read_text(), []),
    "iqtwist": (_first_challenge, []),
    "vikings": (lambda: "N0O1N1N0O0O1N0N3N1Rt Rv\n", []),
    "stormyseas": (lambda: (DATA / "stormyseas" / "cards.txt").read_text().split("\n\n")[0] + "\n", ["--no-optima"]),
}
GARBAGE = f"{sys.executable} -c \"import sys\nfor line in sys.stdin: print('garbage', flush=True)\""


def judge(puzzle: str, file: Path, solver: str, *options: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "referee.cli", puzzle, "judge", str(file), solver, "--time-ms",
                           "5000", *options], capture_output=True, text=True, timeout=300, cwd=ROOT)


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_a_judge_exits_1_when_an_answer_is_wrong(puzzle, tmp_path):
    text, options = PUZZLES[puzzle]
    file = tmp_path / "puzzles.txt"
    file.write_text(text())
    done = judge(puzzle, file, GARBAGE, *options)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "answers wrong" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_a_judge_refuses_a_file_that_is_not_utf8_in_one_line(puzzle, tmp_path):
    text, options = PUZZLES[puzzle]
    file = tmp_path / "binary.txt"
    file.write_bytes(b"\xff\xfe\x00garbage" + text().encode())
    done = judge(puzzle, file, GARBAGE, *options)
    assert done.returncode == 2 and "not UTF-8" in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_a_solver_says_a_huge_bad_line_is_bad_without_echoing_it(puzzle):
    huge = "x" * 1_000_000
    done = subprocess.run([sys.executable, "-m", f"bots.{puzzle}.solver"], input=huge + "\n", capture_output=True,
                          text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 2
    assert len(done.stderr) < 1000 and "1,000,000 characters" in done.stderr
