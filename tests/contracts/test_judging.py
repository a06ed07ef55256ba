"""Every solo puzzle's judge has the same command shape and the same exit statuses (referee/judging.py)."""

import argparse
import json
from dataclasses import dataclass

import pytest

import referee.cli
import referee.puzzle
from referee.answers import OracleError, not_optimal
from referee.platform.errors import InputFormatError
from referee.platform.options import positive_ms
from referee import judge
from referee.judging import report_verdicts
from referee.platform.bot_errors import BotStartError

PUZZLES = [game for game in referee.cli.GAMES if game != "volcanoes"]


@pytest.mark.parametrize("game", PUZZLES)
def test_every_puzzle_judges_with_one_command_shape(game):
    args = referee.cli.build_parser().parse_args(
        [game, "judge", "puzzles.txt", "python -m solver", "--time-ms", "250", "--json"]
    )
    assert (args.file, args.solver, args.time_ms, args.json) == ("puzzles.txt", "python -m solver", 250.0, True)
    assert args.run.__module__ == "referee.judging"  # the one judge runner, for every puzzle


@pytest.mark.parametrize("game", PUZZLES)
def test_a_judge_that_starts_a_solver_for_each_instance_says_its_time_includes_the_start_up(game, capsys):
    with pytest.raises(SystemExit):
        referee.cli.main([game, "judge", "--help"])
    said = "start-up included" in " ".join(capsys.readouterr().out.split())
    assert said == referee.puzzle.load(game).one_solver_each


def test_time_must_be_a_positive_number():
    assert positive_ms("1.5") == 1.5
    for bad in ("0", "-3", "fast", "nan", "inf", "1e300"):
        with pytest.raises(argparse.ArgumentTypeError):
            positive_ms(bad)


@dataclass
class Verdict:
    puzzle: int
    error: str | None


def _report(verdicts, *, as_json=False, raises=None):
    def judging():
        yield from verdicts
        if raises is not None:
            raise raises

    return report_verdicts(
        "referee toy judge",
        "puzzles.txt",
        judging,
        as_json,
        lambda v: {"puzzle": v.puzzle, "error": v.error},
        lambda v: f"puzzle {v.puzzle}: {v.error or 'right'}",
        lambda vs: f"{len(vs)} puzzles",
    )


def test_all_right_exits_0_and_prints_each_verdict_then_the_summary(capsys):
    assert _report([Verdict(1, None), Verdict(2, None)]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == ["puzzle 1: right", "puzzle 2: right", "2 puzzles"]
    assert err == ""


@pytest.mark.parametrize("as_json", [False, True])
def test_one_wrong_answer_exits_1_and_says_how_many(capsys, as_json):
    assert _report([Verdict(1, None), Verdict(2, "timeout"), Verdict(3, None)], as_json=as_json) == 1
    out, err = capsys.readouterr()
    if as_json:
        assert [json.loads(line) for line in out.splitlines()] == [
            {"puzzle": 1, "error": None},
            {"puzzle": 2, "error": "timeout"},
            {"puzzle": 3, "error": None},
        ]
    else:
        assert "puzzle 2: timeout" in out.splitlines()
    assert err.strip() == "referee toy judge: 1 of 3 answers wrong"


def test_answers_that_solve_but_not_optimally_are_wrong_and_counted(capsys):
    slow = not_optimal("4 steps", "3 steps")
    assert _report([Verdict(1, slow), Verdict(2, "timeout"), Verdict(3, None)]) == 1
    assert capsys.readouterr().err == "referee toy judge: 2 of 3 answers wrong (1 not optimal)\n"


def test_every_answer_wrong_exits_1(capsys):
    assert _report([Verdict(1, "crashed"), Verdict(2, "wrong")]) == 1
    assert "2 of 2 answers wrong" in capsys.readouterr().err


@pytest.mark.parametrize(
    "failure, says",
    [
        (InputFormatError("line 3: 'x' is not a cell"), "referee toy judge: puzzles.txt: line 3: 'x' is not a cell"),
        (
            UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"),
            "referee toy judge: puzzles.txt is not UTF-8 text",
        ),
        (FileNotFoundError(2, "No such file or directory"), "referee toy judge: cannot read puzzles.txt: No such file"),
        (BotStartError("no such command"), "referee toy judge: solver cannot start: no such command"),
        (
            OracleError("oracle crash on puzzle 2: exited with code 1"),
            "referee toy judge: oracle crash on puzzle 2: exited",
        ),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, failure, says):
    assert _report([Verdict(1, None)], raises=failure) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and err.startswith(says), err


def test_the_default_judge_says_a_count_of_one_in_the_singular():
    assert (
        judge.Verdict(1, True, True, None, 1, 1, 2.0).describe()
        == "1: solved, 1 step, optimum 1 step, optimal in 2.0 ms"
    )


@pytest.mark.parametrize(
    "solver, says",
    [
        ("solver.js", "solver.js: no such command (not on PATH); solver.js is source code, not a program"),
        ("cpp/cor.cpp", "cpp/cor.cpp: cor.cpp is source code, not a program"),
        (
            "run.sh",
            "run.sh: no such command (not on PATH); the file here is ./run.sh, once executable (chmod +x run.sh)",
        ),
        ("./run.sh", "./run.sh is not executable: make it so (chmod +x ./run.sh)"),
    ],
)
def test_a_solver_that_is_a_file_here_but_no_program_is_told_what_to_run(tmp_path, monkeypatch, capsys, solver, says):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cpp").mkdir()
    (tmp_path / "cpp" / "cor.cpp").write_text("int main() {}\n")
    (tmp_path / "solver.js").write_text('console.log("8547776")\n')
    (tmp_path / "run.sh").write_text("#!/bin/sh\necho 8547776\n")
    (tmp_path / "v1.txt").write_text("N0O1N1N0O0O1N0N3N1Rt Rv\n")
    assert referee.cli.main(["vikings", "judge", "v1.txt", solver]) == 2
    err = capsys.readouterr().err
    assert err.startswith("referee vikings judge: solver cannot start: ") and says in err, err
    assert "No such file or directory" not in err and "Permission denied" not in err
