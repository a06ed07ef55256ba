"""The contract a newcomer follows to add a solo puzzle: its folder `referee/NAME/` (the puzzle's text,
rules and judge, referee/puzzle.py) and its solver `bots/NAME/solver.py`, nothing else. A throwaway
fifth puzzle written into a temporary folder, on PYTHONPATH (where the `referee` and `bots` packages
extend over it), is found, judged by the default judge it declares (`Judge()`, referee/judge.py),
solved by the one solver command shape, and passes the puzzle contract tests, with no file of the
project touched."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PUZZLE = '''"""Climb: from A to B, a step adding one (`+`) or doubling (`*`), never past B."""

from referee.answers import IllegalStep
from referee.judge import Judge
from referee.platform.errors import InputFormatError
from referee.puzzle import Puzzle


class Climb(Puzzle):
    name = "climb"
    title = "Climb: from A to B by +1 and *2"
    item = "climb"
    file_help = "climbs, `A B` a line"
    default_ms = 5000
    examples = ("1 5", "5 3", "3 20")
    malformed = (("1 x", "number 2"), ("1", "the line"))
    judge = Judge()

    def parse_instance(self, text, where=None):
        words = text.split()
        if len(words) != 2:
            raise InputFormatError("a climb is two numbers, A B", "the line").within(where)
        for number, word in enumerate(words, start=1):
            if not word.isdigit():
                raise InputFormatError(f"{word!r} is not a number", f"number {number}").within(where)
        return int(words[0]), int(words[1])

    def format_instance(self, instance):
        return f"{instance[0]} {instance[1]}"

    def parse_answer(self, instance, text):
        for number, step in enumerate(text, start=1):
            if step not in "+*":
                raise InputFormatError(f"{step!r} is not + nor *", f"step {number}")
        return list(text)

    def format_answer(self, answer):
        return "".join(answer)

    def start(self, instance):
        return instance[0]

    def legal_steps(self, instance, state):
        return [step for step in "+*" if self._next(state, step) <= instance[1]]

    def apply(self, instance, state, step):
        after = self._next(state, step)
        if after > instance[1]:
            raise IllegalStep(f"{step} takes {state} past {instance[1]}")
        return after

    def is_solved(self, instance, state):
        return state == instance[1]

    @staticmethod
    def _next(state, step):
        return state + 1 if step == "+" else state * 2


PUZZLE = Climb()
'''

SOLVER = '''"""Climb solver: a breadth-first search for the fewest steps."""

import sys

from bots import puzzle_solver
from referee.climb.puzzle import PUZZLE


def solve(instance):
    start, goal = instance
    paths, frontier = {start: []}, [start]
    for state in frontier:
        if state == goal:
            return paths[state]
        for step in PUZZLE.legal_steps(instance, state):
            after = PUZZLE.apply(instance, state, step)
            if after not in paths:
                paths[after] = paths[state] + [step]
                frontier.append(after)
    return None


def main(argv=None) -> int:
    puzzle_solver.parser(PUZZLE, __doc__).parse_args(argv)
    return puzzle_solver.run(PUZZLE, solve)


if __name__ == "__main__":
    sys.exit(main())
'''


@pytest.fixture(scope="module")
def env(tmp_path_factory) -> dict:
    """The environment of a process that sees the throwaway puzzle: its folders first on PYTHONPATH."""
    root = tmp_path_factory.mktemp("fifth")
    for package, module, text in (("referee", "puzzle", PUZZLE), ("bots", "solver", SOLVER)):
        folder = root / package / "climb"
        folder.mkdir(parents=True)
        (folder / "__init__.py").write_text("")
        (folder / f"{module}.py").write_text(text)
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(root), str(ROOT)]))


def run(env, *command, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=300, cwd=ROOT, env=env)


def test_the_judge_finds_it_and_judges_it_by_the_default_judge(env, tmp_path):
    listed = run(env, sys.executable, "-m", "referee.cli", "--help")
    assert "climb" in listed.stdout
    file = tmp_path / "climbs.txt"
    file.write_text("1 5\n5 3\n3 20\n")
    done = run(
        env, sys.executable, "-m", "referee.cli", "climb", "judge", str(file), f"{sys.executable} -m bots.climb.solver"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:2] == [line for line in done.stdout.splitlines()[:2] if "solved" in line]
    assert done.stdout.splitlines()[-1] == "solved 3 of 3, 3 optimal"
    wrong = run(
        env, sys.executable, "-m", "referee.cli", "climb", "judge", str(file), f"{sys.executable} -c 'print(1)'"
    )
    assert wrong.returncode == 1 and "3 of 3 answers wrong" in wrong.stderr
    file.write_text("1 5\n")
    longer = run(
        env, sys.executable, "-m", "referee.cli", "climb", "judge", str(file), f"{sys.executable} -c 'print(4 * \"+\")'"
    )
    assert longer.returncode == 1, longer.stdout  # the default judge: a solution in more steps is wrong
    assert longer.stderr.endswith("1 of 1 answer wrong (1 not optimal)\n")
    assert "1: solved, 4 steps, optimum 3 steps, NOT optimal" in longer.stdout


def test_the_solver_command_has_the_one_shape(env):
    done = run(env, sys.executable, "-m", "bots.climb.solver", stdin="1 5\n5 3\n1 x\n")
    assert done.returncode == 2
    assert done.stdout.splitlines() == ["+*+", "NONE", ""]
    assert done.stderr.startswith("climb solver: climb '1 x': number 2: ")


def test_the_puzzle_contract_tests_take_it_in(env):
    done = run(
        env,
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "-k",
        "climb",
        "tests/contracts/test_puzzle_contract.py",
        "tests/contracts/test_puzzle_commands.py",
        "tests/contracts/test_judging.py",
    )
    assert done.returncode == 0, done.stdout[-2000:]
    passed = int(done.stdout.split(" passed")[0].split()[-1])
    assert passed >= 20, done.stdout[-500:]


def test_a_folder_with_a_mistake_is_refused_where_used_and_the_rest_works(tmp_path):
    for name, text in (("nopuzzle", "X = 1\n"), ("typo", "def (\n")):
        (tmp_path / "referee" / name).mkdir(parents=True)
        (tmp_path / "referee" / name / "puzzle.py").write_text(text)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))
    version = run(env, sys.executable, "-m", "referee.cli", "--version")
    assert version.returncode == 0 and version.stdout.startswith("caldera "), version.stderr
    missing = run(env, sys.executable, "-m", "referee.cli", "nopuzzle", "judge", "a.txt", "solver")
    assert (missing.returncode, missing.stderr) == (
        2,
        f"referee nopuzzle: the puzzle folder {tmp_path / 'referee' / 'nopuzzle'} cannot be used: "
        "its puzzle.py holds no PUZZLE, a referee.puzzle.Puzzle\n",
    )
    typo = run(env, sys.executable, "-m", "referee.cli", "typo")
    assert typo.returncode == 2 and typo.stderr.endswith("cannot be used: puzzle.py, line 1: invalid syntax\n")
