"""The judge: its checks on answers, and whole runs against the solver bot and misbehaving ones."""

from __future__ import annotations

import json
import sys

import pytest

import referee.cli
from referee.vikings import rules
from referee.vikings.judge import check_answer
from bots.vikings.search import shortest_solution

SOLVER = f"{sys.executable} -m bots.vikings.solver"
FIRST = "N0O1N1N0O0O1N0N3N1Rt Rv"  # official objective 0, solved by 8547776
STUCK = "N0O1N1N0O0O1N0N3N1Bd Ba"  # the boat's only tile is held by its neighbour: no solution


def python_bot(tmp_path, body: str) -> str:
    """A command running a small Python bot (one answer per line read, as the protocol says)."""
    path = tmp_path / "bot.py"
    path.write_text("import sys\n" + body)
    return f"{sys.executable} {path}"


def test_vikings_is_a_game_of_the_referee_command():
    assert referee.cli.GAMES[0] == "volcanoes"
    assert "vikings" in referee.cli.GAMES


@pytest.mark.parametrize(
    "line, answer, solved, length, error",
    [
        (FIRST, "8547776", True, 7, None),
        (FIRST, " 8547776 ", True, 7, None),
        (FIRST, "85477766666", True, 11, None),  # legal and reaches the target, only not optimal
        (FIRST, "854777", False, 6, "after 6 moves (N0O1N1N0O1O2N0N2N2Rs) boats are not on target: Rv"),
        (FIRST, "85478", False, 5, "move 5 (tile 8): tile 5 is closed at edge q"),
        (FIRST, "85a", False, None, "not a move string: move 3: a move is a tile digit 0-8, not 'a'"),
        (FIRST, "NONE", False, None, "answered NONE, but a solution of 7 moves exists"),
        (STUCK, "NONE", True, None, None),
        (STUCK, "", False, 0, "after 0 moves (N0O1N1N0O0O1N0N3N1Bd) boats are not on target: Ba"),
    ],
)
def test_answers_are_replayed_move_by_move(line, answer, solved, length, error):
    objective = rules.parse_objective(line)
    assert check_answer(objective, answer, shortest_solution(objective)) == (solved, length, error)


def test_the_judge_accepts_the_solver_on_all_60_official_objectives(run_cli, official, data_dir, capsys):
    assert run_cli("vikings", "judge", str(data_dir / "objectives.txt"), SOLVER, "--json") == 0
    verdicts = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [v["puzzle"] for v in verdicts] == list(range(1, 61))
    for verdict, recorded in zip(verdicts, official, strict=True):
        assert verdict["objective"] == recorded.line
        assert verdict["solved"] and verdict["optimal"] and verdict["error"] is None
        assert verdict["length"] == verdict["optimum"] == recorded.min_moves


def test_readable_report_and_a_wrong_none(run_cli, tmp_path, capsys):
    path = tmp_path / "two.txt"
    path.write_text(f"{FIRST}\n\n{STUCK}\n")
    bot = python_bot(tmp_path, "for line in sys.stdin:\n    print('NONE', flush=True)\n")
    assert run_cli("vikings", "judge", str(path), bot) == 1  # one NONE is wrong
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        f"objective 1 {FIRST}: FAILED (NONE, optimum 7 in {out[0].split(' in ')[1].split(')')[0]}): "
        "answered NONE, but a solution of 7 moves exists"
    )
    assert out[1].startswith(f"objective 2 {STUCK}: solved, NONE, no solution, optimal in ")
    assert out[2].startswith("solved 1 of 2, 1 optimal; time per objective: median ")


def test_a_longer_solution_is_wrong_and_counted_as_not_optimal(run_cli, tmp_path, capsys):
    path = tmp_path / "first.txt"
    path.write_text(FIRST + "\n")
    longer = python_bot(tmp_path, "for line in sys.stdin:\n    print('88888547776', flush=True)\n")
    assert run_cli("vikings", "judge", str(path), longer, "--json") == 1
    out, err = capsys.readouterr()
    verdict = json.loads(out)
    assert verdict["solved"] and not verdict["optimal"]
    assert verdict["error"] == "not optimal: 11 moves; the optimum is 7 moves"
    assert err == "referee vikings judge: 1 of 1 answer wrong (1 not optimal)\n"


def test_a_solver_that_answers_once_and_exits_is_told_one_process_answers_every_line(run_cli, tmp_path, capsys):
    path = tmp_path / "three.txt"
    path.write_text(f"{FIRST}\n{FIRST}\n{FIRST}\n")
    once = python_bot(tmp_path, "sys.stdin.readline()\nprint('8547776')\n")  # as on CodinGame
    assert run_cli("vikings", "judge", str(path), once, "--json") == 1
    first, second, third = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first["solved"] and third["solved"]  # (a fresh process after the failure)
    assert second["error"] == (
        "stopped: it exited (status 0) after answering objective 1; the judge sends every objective to one "
        "solver process in turn, so a solver answers each objective it reads until its input ends"
    )


def test_a_crash_and_a_timeout_are_reported_and_the_next_objective_gets_a_fresh_solver(run_cli, tmp_path, capsys):
    path = tmp_path / "three.txt"
    path.write_text(f"{FIRST}\n{FIRST}\n{FIRST}\n")
    # Each process answers its first objective according to a counter file: crash, hang, answer.
    counter = tmp_path / "count"
    counter.write_text("0")
    bot = python_bot(
        tmp_path,
        f"""import time, pathlib
c = pathlib.Path({str(counter)!r}); n = int(c.read_text()); c.write_text(str(n + 1))
sys.stdin.readline()
if n == 0:
    print('dying', file=sys.stderr); sys.exit(3)
if n == 1:
    time.sleep(30)
print('8547776', flush=True)
""",
    )
    assert run_cli("vikings", "judge", str(path), bot, "--json", "--time-ms", "1500") == 1  # a crash, a timeout
    first, second, third = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert not first["solved"] and first["error"] == "crash: exited with code 3 (last stderr line: dying)"
    assert not second["solved"] and second["error"].startswith("timeout: ")
    assert second["optimum"] == 7 and second["time_ms"] is None
    assert third["solved"] and third["optimal"]


def test_malformed_file_and_unstartable_solver_exit_2(run_cli, tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text(f"{FIRST}\nO1O1N1N0N0O1N0N3N1Rt Rv\n")
    assert run_cli("vikings", "judge", str(path), SOLVER) == 2
    assert capsys.readouterr().err.strip() == (
        f"referee vikings judge: {path}, line 2: invalid board: tiles 0 and 1 overlap (both closed at edge e)"
    )
    path.write_text(FIRST + "\n")
    assert run_cli("vikings", "judge", str(path), str(tmp_path / "no-such-solver")) == 2
    assert "solver cannot start" in capsys.readouterr().err
    assert run_cli("vikings", "judge", str(tmp_path / "missing.txt"), SOLVER) == 2


def test_an_oracle_with_a_longer_answer_is_proved_wrong_by_a_shorter_one(run_cli, tmp_path, capsys):
    path = tmp_path / "first.txt"
    path.write_text(FIRST + "\n")
    longer = python_bot(tmp_path, "for line in sys.stdin:\n    print('85477766666', flush=True)\n")
    assert run_cli("vikings", "judge", str(path), SOLVER, "--oracle", longer) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == (
        "referee vikings judge: oracle wrong on objective 1: the solver's answer meets the objective in 7 moves; "
        "the oracle answered 11 moves\n"
    )


def test_another_search_can_be_the_oracle(run_cli, tmp_path, capsys):
    path = tmp_path / "two.txt"
    path.write_text(f"{FIRST}\n{STUCK}\n")
    assert run_cli("vikings", "judge", str(path), SOLVER, "--json", "--oracle", SOLVER + " --search bfs") == 0
    verdicts = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(v["solved"], v["optimal"], v["optimum"]) for v in verdicts] == [(True, True, 7), (True, True, None)]
