"""The judge: its checks on answers, and whole runs against the solver bot and misbehaving ones."""

from __future__ import annotations

import json
import shlex
import sys
import textwrap

import pytest

import referee.cli
from bots.iqtwist.generate import main as generate_main
from bots.iqtwist.search import solutions
from referee import judging
from referee.answers import OracleError
from referee.iqtwist.judge import check_answer
from referee.iqtwist.puzzle import PUZZLE
from referee.iqtwist.rules import parse_state

SOLVER = f"{sys.executable} -m bots.iqtwist.solver"
BOOKLET_1 = "f3C4i6B0j2B0j1C0k3C0l4B0l5C0"
BOOKLET_1_SOLUTION = "a7A7b6A7c1A3d2A6e2C3f3C2g4A7h6D0"
# Two solutions with these pegs (the course's MULTI vector).
TWO = "c1A3d2A6e2C3f3C2g4A7h6D0j2B0j1C0k3C0l4B0l5C0"
TWO_SOLUTIONS = ["a6A0b6B0c1A3d2A6e2C3f3C2g4A7h6D0", "a7A7b6A5c1A3d2A6e2C3f3C2g4A7h6D0"]


def run_cli(*argv: str) -> int:
    return referee.cli.main(list(argv))


def judge(challenges: list[str], command: str, time_ms: float = PUZZLE.default_ms, oracle: str | None = None):
    return judging.verdicts(PUZZLE, [PUZZLE.parse_instance(text) for text in challenges], command, time_ms, oracle)


def printing(*lines: str) -> str:
    """A solver that answers every challenge with these solution lines."""
    code = f"import sys\nfor _ in sys.stdin:\n    print(*{list(lines)!r}, '', sep=chr(10), flush=True)"
    return shlex.join([sys.executable, "-c", code])


def test_iqtwist_is_a_game_of_the_referee_command():
    assert referee.cli.GAMES[0] == "volcanoes"
    assert "iqtwist" in referee.cli.GAMES


def test_a_right_answer_passes_every_check():
    checks = check_answer(parse_state(TWO), TWO_SOLUTIONS, TWO_SOLUTIONS)
    assert checks.solved and checks.error is None
    assert checks.valid and checks.complete and checks.consistent and checks.canonical and checks.all_found


@pytest.mark.parametrize(
    "challenge, lines, flag, error",
    [
        (TWO, TWO_SOLUTIONS[:1], "all_found", "found 1 of 2 solutions; missing a7A7b6A5"),
        (TWO, TWO_SOLUTIONS + TWO_SOLUTIONS[:1], "all_found", "solution 3 repeats solution 1"),
        (TWO, ["hello"] + TWO_SOLUTIONS, "valid", "solution 1 'hello': not a placement string: length 5"),
        (TWO, [TWO_SOLUTIONS[0] + "i1A0"], "valid", "has the peg i1A0; a solution lists the pieces only"),
        (TWO, ["NONE"], "valid", "solution 1 'NONE': IQ-Twist answers no solution with the empty line alone, not NONE"),
        (
            BOOKLET_1,
            ["a7A7b6A5" + BOOKLET_1_SOLUTION[8:]],
            "valid",
            "invalid with the challenge's pegs: placement 2 b6A5: its filled loop at 6B would cover the peg",
        ),
        (BOOKLET_1, [BOOKLET_1_SOLUTION[:28]], "complete", "incomplete: piece h missing"),
        (
            BOOKLET_1,
            [BOOKLET_1_SOLUTION.replace("f3C2", "f3C4")],
            "canonical",
            "f3C4 is not canonical: f3C2 covers the same cells",
        ),
        ("a7A7" + TWO, TWO_SOLUTIONS, "consistent", "a6A0 does not cover the cells of the challenge's a7A7"),
    ],
)
def test_each_check_fails_with_its_reason(challenge, lines, flag, error):
    all_solutions = {TWO: TWO_SOLUTIONS, BOOKLET_1: [BOOKLET_1_SOLUTION], "a7A7" + TWO: TWO_SOLUTIONS[1:]}
    expected = all_solutions[challenge]
    checks = check_answer(parse_state(challenge), lines, expected)
    assert not checks.solved
    assert getattr(checks, flag) is False
    assert error in checks.error


@pytest.mark.parametrize(
    "lines, flags, solutions",
    [
        (["zz"], (False, None, None, None), 0),  # no placement string: nothing else checked
        (["j3B0j5C0"], (False, None, None, None), 0),  # the challenge's pegs: no pieces to count
        (["zz", BOOKLET_1_SOLUTION], (False, None, None, None), 1),  # not checked on line 1
        ([BOOKLET_1_SOLUTION[:28]], (True, False, None, None), 0),
        ([], (None, None, None, None), 0),  # no line: nothing checked
        ([BOOKLET_1_SOLUTION] * 2, (True, True, True, True), 1),  # a solution counted once
    ],
)
def test_a_check_not_made_is_neither_passed_nor_failed(lines, flags, solutions):
    checks = check_answer(parse_state(BOOKLET_1), lines, [BOOKLET_1_SOLUTION])
    assert (checks.valid, checks.complete, checks.consistent, checks.canonical) == flags
    assert checks.solutions == solutions


def test_checks_not_made_are_null_in_json_and_a_dash_in_the_table(tmp_path, capsys):
    file = tmp_path / "challenges.txt"
    file.write_text("j3B0j5C0\n")
    assert run_cli("iqtwist", "judge", str(file), printing("zz"), "--json") == 1
    verdict = json.loads(capsys.readouterr().out)
    flags = [verdict[flag] for flag in ("valid", "complete", "consistent", "canonical", "all_found")]
    assert flags == [False, None, None, None, False] and verdict["solutions"] == 0
    assert run_cli("iqtwist", "judge", str(file), printing("zz")) == 1
    row = capsys.readouterr().out.splitlines()[2]
    assert row.split()[:7] == ["1", "NO", "-", "-", "-", "NO", "0/1"]


def test_the_solver_bot_solves_all_108_recorded_challenges(challenges):
    verdicts = list(judge([row["challenge"] for row in challenges], SOLVER))
    assert len(verdicts) == 108
    for verdict, row in zip(verdicts, challenges, strict=True):
        assert verdict.solved, (row["id"], verdict.error)
        assert (verdict.solutions, verdict.expected) == (1, 1)
        assert verdict.time_ms is not None


FAKE_SOLVER = """
import sys, time
answers = {answers!r}
for line in sys.stdin:
    challenge = line.strip()
    if challenge.startswith("f"):
        time.sleep(60)
    if challenge.startswith("i7D0"):
        print("oops", file=sys.stderr)
        sys.exit(3)
    print("".join(a + "\\n" for a in answers.get(challenge, [])), flush=True)
"""


def test_a_solver_that_hangs_or_crashes_is_replaced_for_the_next_challenge(tmp_path, challenges):
    answers = {row["challenge"]: [row["solution"]] for row in challenges[:4]}
    answers[challenges[3]["challenge"]] *= 2
    script = tmp_path / "fake.py"
    script.write_text(textwrap.dedent(FAKE_SOLVER.format(answers=answers)))
    chosen = [row["challenge"] for row in challenges[:4]]
    assert chosen[0].startswith("f") and chosen[1].startswith("i7D0")
    verdicts = list(judge(chosen, f"{sys.executable} {script}", time_ms=1500))
    assert [v.solved for v in verdicts] == [False, False, True, False]
    assert verdicts[0].error == "timeout after 0 lines: no answer in time"
    assert verdicts[0].time_ms is None
    assert verdicts[1].error == "crash after 0 lines: exited with code 3 (last stderr line: oops)"
    assert verdicts[3].error == "solution 2 repeats solution 1"


def test_cli_judge_prints_a_line_per_challenge_and_a_summary(tmp_path, capsys):
    file = tmp_path / "challenges.txt"
    file.write_text(f"# two challenges\n{BOOKLET_1}\n\n{TWO}\n")
    assert run_cli("iqtwist", "judge", str(file), SOLVER) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"challenge 1 {BOOKLET_1}: solved, 1 of 1 solution found in ")
    assert out[1].startswith(f"challenge 2 {TWO}: solved, 2 of 2 solutions found in ")
    assert out[2].split() == "# valid complete consistent canonical all found found ms".split()
    assert out[4].split()[:7] == ["2", "yes", "yes", "yes", "yes", "yes", "2/2"]
    assert out[5].startswith("solved 2 of 2; time per challenge: median ")


def test_cli_judge_json_lines(tmp_path, capsys):
    file = tmp_path / "challenges.txt"
    file.write_text(f"{TWO}\n")
    assert run_cli("iqtwist", "judge", str(file), f"{sys.executable} -c 'print(\"junk\")'", "--json") == 1
    (line,) = capsys.readouterr().out.splitlines()
    verdict = json.loads(line)
    assert verdict["puzzle"] == 1 and verdict["solved"] is False
    assert verdict["error"].startswith("solution 1 'junk': not a placement string")  # (its output ended its answer)
    fields = "valid complete consistent canonical all_found solutions expected time_ms"
    assert set(fields.split()) <= set(verdict)


@pytest.mark.parametrize(
    "content, message",
    [
        ("a9A1\n", "line 1: placement 1 'a9A1': column '9' is not 1-8"),
        (f"{BOOKLET_1}\ni3B0j3B0\n", "line 2: placement 2 j3B0: peg i3B0 is already at 3B"),
        ("# nothing\n", "no challenge in the file"),
    ],
)
def test_cli_judge_refuses_a_malformed_file(tmp_path, capsys, content, message):
    file = tmp_path / "challenges.txt"
    file.write_text(content)
    assert run_cli("iqtwist", "judge", str(file), SOLVER) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_cli_judge_refuses_a_solver_that_cannot_start(tmp_path, capsys):
    file = tmp_path / "challenges.txt"
    file.write_text(f"{BOOKLET_1}\n")
    assert run_cli("iqtwist", "judge", str(file), "/nonexistent/solver") == 2
    assert "solver cannot start" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:  # refused while the arguments are read
        run_cli("iqtwist", "judge", str(file), SOLVER, "--time-ms", "0")
    assert stop.value.code == 2
    assert "argument --time-ms: must be above 0" in capsys.readouterr().err


def test_cli_generate_and_check(capsys):
    assert generate_main(["--level", "expert", "--count", "2", "--seed", "1"]) == 0
    generated = capsys.readouterr().out.split()
    assert len(generated) == 2
    for challenge in generated:
        assert run_cli("iqtwist", "check", challenge) == 0
        assert capsys.readouterr().out == "valid, not solved\n"
        assert len(solutions(parse_state(challenge))) == 1
    assert generate_main(["--level", "expert", "--count", "0"]) == 2
    assert capsys.readouterr().err == "python -m bots.iqtwist.generate: --count must be at least 1\n"
    assert run_cli("iqtwist", "check", "a7A7b6A5i6B0") == 1
    reason = "placement 2 b6A5: its filled loop at 6B would cover the peg i6B0"
    assert capsys.readouterr().out == f"not valid: {reason}\n"
    assert run_cli("iqtwist", "check", BOOKLET_1_SOLUTION + BOOKLET_1[4:]) == 0
    assert capsys.readouterr().out == f"solved: {BOOKLET_1_SOLUTION}\n"
    assert run_cli("iqtwist", "check", "c1A3d2A6e2C3f3C4g4A7h6D0i6B0j2B0j1C0k3C0l4B0l5C0", "--viable") == 0
    assert capsys.readouterr().out.splitlines()[1].split()[:3] == ["a6A0", "a6A2", "a6A4"]


def test_the_oracles_solutions_are_checked_and_one_it_missed_proves_it_wrong():
    (verdict,) = judge([TWO], SOLVER, oracle=printing(*TWO_SOLUTIONS))  # a right oracle, not the project's
    assert verdict.solved and (verdict.solutions, verdict.expected) == (2, 2)
    (verdict,) = judge([TWO], printing(TWO_SOLUTIONS[1]), oracle=printing(*TWO_SOLUTIONS))
    assert not verdict.solved and verdict.error.startswith("found 1 of 2 solutions")
    with pytest.raises(
        OracleError,
        match=f"the solver's solution {TWO_SOLUTIONS[1]} passes every check and is not in the oracle's 1 solution",
    ):
        list(judge([TWO], SOLVER, oracle=printing(TWO_SOLUTIONS[0])))
    with pytest.raises(OracleError, match="oracle wrong on challenge 1: its solution 2 repeats its solution 1"):
        list(judge([TWO], SOLVER, oracle=printing(TWO_SOLUTIONS[0], TWO_SOLUTIONS[0])))
    with pytest.raises(OracleError, match="its solution 1 'a7A7b6A5c1A3d2A6e2C3f3C2g4A7h6D0i1A0': has the peg"):
        list(judge([TWO], SOLVER, oracle=printing(TWO_SOLUTIONS[1] + "i1A0")))


def test_a_solver_that_prints_its_lines_and_exits_ends_its_answer_so(tmp_path):
    """Its last answer's closing empty line left out, exit 0: judged a crash ("exited with code 0")."""
    solver = tmp_path / "once.py"
    solver.write_text("import sys\nsys.stdin.readline()\nprint('a7B1b2C4c1B2d4C4e1C3f4A0g6A1h1A0')\n")
    [verdict] = list(judge(["j3B0j5C0"], f"{sys.executable} {solver}", time_ms=5000))
    assert verdict.solved and verdict.error is None
    solver.write_text("import sys\nsys.stdin.readline()\nprint('a7B1b2C4c1B2d4C4e1C3f4A0g6A1h1A0')\nsys.exit(3)\n")
    [verdict] = list(judge(["j3B0j5C0"], f"{sys.executable} {solver}", time_ms=5000))
    assert not verdict.solved and verdict.error == "crash after 1 line: exited with code 3"


def test_a_solver_that_answers_none_alone_is_told_how_iqtwist_answers_no_solution(tmp_path):
    """`NONE` alone, the other puzzles' answer of no solution, without IQ-Twist's closing empty line:
    it timed out ("timeout after 1 line"), and the hint for NONE was never given."""
    solver = tmp_path / "none.py"
    solver.write_text("import sys\nfor line in sys.stdin:\n    print('NONE', flush=True)\n")
    [verdict] = list(judge(["j3B0j5C0"], f"{sys.executable} {solver}", time_ms=500))
    assert verdict.error == "solution 1 'NONE': IQ-Twist answers no solution with the empty line alone, not NONE"
