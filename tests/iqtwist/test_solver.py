"""The solver bot as a process: its protocol, `--count`, and bad challenge lines."""

from __future__ import annotations


def answers(stdout: str) -> list[list[str]]:
    """The solver's output as one list of solution lines per challenge."""
    blocks, current = [], []
    for line in stdout.splitlines():
        if line:
            current.append(line)
        else:
            blocks.append(current)
            current = []
    assert current == [], "output must end with an empty line"
    return blocks


def test_answers_each_challenge_in_turn(solver, vectors, challenges):
    multi_start, multi_expected = vectors["MULTI"][0]
    lines = [challenges[0]["challenge"], "", multi_start, challenges[1]["challenge"], "a9A1", "i1A0i2A0"]
    done = solver("iqtwist", "\n".join(lines) + "\n")
    assert done.returncode == 2  # two lines are not challenges: answered with no solution, then said
    assert answers(done.stdout) == [
        [challenges[0]["solution"]],
        sorted(multi_expected.split()),
        [challenges[1]["solution"]],
        [],  # malformed: no solution, and a message on stderr
        [],
    ]
    assert "'a9A1': column '9' is not 1-8" in done.stderr
    assert "more than 1 red peg" in done.stderr


def test_count_gives_the_number_of_solutions_of_the_empty_board(solver):
    done = solver("iqtwist", "", "--count")
    assert done.returncode == 0
    assert done.stdout == "5992\n"
    assert "5992 solutions of the empty board in" in done.stderr
