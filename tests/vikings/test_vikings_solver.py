"""The solver bot as a process: one answer line per objective line, and its timing report."""

from __future__ import annotations


OBJECTIVES = "N0O1N1N0O0O1N0N3N1Rt Rv\n\nN0O1N1N0O0O1N0N3N1Bd Ba\nnot an objective\nO0O0N2O1N2N2N3N2N2GdRe GcRb\n"


def test_answers_and_times(solver):
    done = solver("vikings", OBJECTIVES, "--times")
    assert done.returncode == 2  # a line was not an objective; every other line is answered
    answers = done.stdout.splitlines()
    assert answers[:3] == ["8547776", "NONE", ""]  # NONE: a proof; the empty line: not an objective
    assert len(answers[3]) == 13  # official objective 5
    err = done.stderr.splitlines()
    assert "vikings solver: objective 'not an objective': an objective is `BOARD TARGET`, got 3 words" in err
    assert err[-1].startswith("4 objectives: total ") and "(CPU: total " in err[-1]


def test_breadth_first_search_gives_answers_as_short(solver):
    fast = solver("vikings", OBJECTIVES).stdout.splitlines()
    slow = solver("vikings", OBJECTIVES, "--search", "bfs").stdout.splitlines()
    assert [len(a) for a in fast] == [len(a) for a in slow]
