"""Every puzzle's judge and solver keep the same rules for what is wrong (one test for them all):
a judge exits 1 when any answer it checks is wrong, 2 with one line for a file that is not the
puzzle's text (not UTF-8 included) and for an oracle that fails, breaks the rules or is proved
wrong; `--oracle` takes any command; a solver never echoes a huge input line back. Run as
processes: the in-process contract is test_puzzle_contract.py."""

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import referee.cli
from referee import puzzle as contract

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = contract.NAMES


def examples_file(name: str, tmp_path: Path) -> Path:
    """A file of the puzzle's documented examples, as `judge FILE` reads them."""
    puzzle = contract.load(name)
    file = tmp_path / "puzzles.txt"
    file.write_text(("\n\n" if "\n" in puzzle.examples[0] else "\n").join(puzzle.examples) + "\n")
    return file


GARBAGE = f"{sys.executable} -c \"import sys\nfor line in sys.stdin: print('garbage', flush=True)\""
# Garbage then an empty line: a whole answer of every puzzle (IQ-Twist's ends with the empty line).
GARBAGE_ANSWER = f"{sys.executable} -c \"import sys\nfor line in sys.stdin: print('garbage\\n', flush=True)\""


# A solver that prints, for each instance it reads, what the project's solver printed for the first
# example, run with the same arguments (Stormy Seas' oracle runs once per --metric).
REPLAYER = """import sys
printed = {printed!r}
lines = {lines}
arguments = " ".join(sys.argv[1:])
while True:
    read = [sys.stdin.readline() for _ in range(lines)]
    if not read[-1]:
        break
    sys.stdout.write(printed[arguments])
    sys.stdout.flush()
"""


def replayer(tmp_path: Path, name: str, printed: dict[str, str]) -> str:
    """The command of a REPLAYER printing `printed[ARGUMENTS]`."""
    script = tmp_path / f"{name}_replayer_{len(list(tmp_path.glob('*_replayer_*')))}.py"
    script.write_text(REPLAYER.format(printed=printed, lines=contract.load(name).instance_lines))
    return shlex.join([sys.executable, str(script)])


def first_example(name: str, tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A file holding the puzzle's first example, and what the project's solver prints for it with
    each run's arguments (and with none)."""
    puzzle = contract.load(name)
    file = tmp_path / "first.txt"
    file.write_text(puzzle.examples[0] + "\n")
    printed = {}
    for arguments in {(), *puzzle.judge.oracle_runs()}:
        done = subprocess.run(
            [sys.executable, "-m", f"bots.{name}.solver", *arguments],
            input=puzzle.examples[0] + "\n",
            capture_output=True,
            text=True,
            timeout=120,
            cwd=ROOT,
        )
        assert done.returncode == 0, done.stderr
        printed[" ".join(arguments)] = done.stdout
    return file, printed


def judge(puzzle: str, file: Path, solver: str, *options: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "referee.cli", puzzle, "judge", str(file), solver, "--time-ms", "5000", *options],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_a_judge_exits_1_when_an_answer_is_wrong(puzzle, tmp_path):
    done = judge(puzzle, examples_file(puzzle, tmp_path), GARBAGE_ANSWER)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "answers wrong" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_a_judge_refuses_a_file_that_is_not_utf8_in_one_line(puzzle, tmp_path):
    file = tmp_path / "binary.txt"
    file.write_bytes(b"\xff\xfe\x00garbage" + examples_file(puzzle, tmp_path).read_bytes())
    done = judge(puzzle, file, GARBAGE)
    assert done.returncode == 2 and "not UTF-8" in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_a_solver_says_where_its_input_is_not_utf8_as_a_judge_does(puzzle):
    first = contract.load(puzzle).examples[0]
    done = subprocess.run(
        [sys.executable, "-m", f"bots.{puzzle}.solver"],
        input=f"{first}\n".encode() + b"\xff" + first.encode()[1:] + b"\n",
        capture_output=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 2 and done.stdout.count(b"\n") >= 1  # the first instance answered
    byte = len(first.encode()) + 1
    assert done.stderr.decode() == f"{puzzle} solver: the input is not UTF-8 text (byte {byte})\n"


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_a_solver_says_a_huge_bad_line_is_bad_without_echoing_it(puzzle):
    huge = "x" * 1_000_000
    done = subprocess.run(
        [sys.executable, "-m", f"bots.{puzzle}.solver"],
        input=huge + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 2
    assert len(done.stderr) < 1000 and "1,000,000 characters" in done.stderr


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_the_oracle_is_any_command_given_with_oracle(puzzle, tmp_path):
    file, printed = first_example(puzzle, tmp_path)
    same = replayer(tmp_path, puzzle, printed)
    done = judge(puzzle, file, same, "--oracle", same, "--json")
    assert done.returncode == 0, done.stderr
    none = replayer(tmp_path, puzzle, {key: contract.load(puzzle).no_solution_answer + "\n" for key in printed})
    done = judge(puzzle, file, same, "--oracle", none)  # the solver's answer proves that oracle wrong
    item = contract.load(puzzle).item
    assert done.returncode == 2 and done.stderr.startswith(f"referee {puzzle} judge: oracle wrong on {item} 1: ")
    assert len(done.stderr.splitlines()) == 1, done.stderr


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_an_oracle_that_breaks_the_rules_or_cannot_start_stops_the_judge_in_one_line(puzzle, tmp_path):
    file, printed = first_example(puzzle, tmp_path)
    solver = replayer(tmp_path, puzzle, printed)
    item = contract.load(puzzle).item
    done = judge(puzzle, file, solver, "--oracle", GARBAGE_ANSWER, "--oracle-time-ms", "20000")
    assert done.returncode == 2 and done.stderr.startswith(f"referee {puzzle} judge: oracle wrong on {item} 1: its ")
    assert len(done.stderr.splitlines()) == 1 and "garbage" in done.stderr, done.stderr
    done = judge(puzzle, file, solver, "--oracle", "/no/such/oracle")
    assert done.returncode == 2 and done.stderr.startswith(f"referee {puzzle} judge: oracle cannot start: ")
    assert len(done.stderr.splitlines()) == 1, done.stderr


@pytest.mark.parametrize(
    "show",
    [
        ["vikings", "show", "N0O1N1N0O0O1N0N3N1Rt", "Rv"],
        ["iqtwist", "show", "a7A7b6A7i6B0j2B0"],
        ["stormyseas", "show", str(ROOT / "tests" / "data" / "stormyseas" / "cards.txt")],
    ],
)
def test_show_refuses_an_empty_svg_file_name(show, capsys):
    with pytest.raises(SystemExit) as exit_:
        referee.cli.main([*show, "--svg", "", "--no-color"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert (
        err == f"referee {show[0]} show: argument --svg: is empty: give a value (see referee {show[0]} show --help)\n"
    )
