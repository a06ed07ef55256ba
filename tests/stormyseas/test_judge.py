"""The judge (replaying answers, real solver processes) and the `referee stormyseas` subcommands."""

from __future__ import annotations

import functools
import json
import shlex
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import referee.cli as referee_cli
from referee.answers import OracleError
from referee.judging import judge_one
from referee.stormyseas import judge
from referee.stormyseas.judge import StormySeasJudge
from referee.stormyseas.puzzle import PUZZLE
from referee.stormyseas.rules import parse_card

CARDS_FILE = Path(__file__).resolve().parents[1] / "data" / "stormyseas" / "cards.txt"
SOLVER = shlex.join([sys.executable, "-m", "bots.stormyseas.solver"])
OPTIMAL_3 = "4L2, 5L2, XU3, 4R2, 6L2, 7L1, 8R2, XD5"


def referee(*argv: str) -> int:
    """`referee stormyseas ...`, in this process."""
    return referee_cli.main(["stormyseas", *argv])


judge_card = functools.partial(judge_one, PUZZLE)


def python_bot(code: str) -> str:
    return shlex.join([sys.executable, "-c", code])


@pytest.fixture
def card_files(tmp_path, recorded):
    """Card 3 alone, and cards 3 and 31 together."""
    rows = {name: "\n".join(entry["rows"]) for name, entry in recorded["cards"].items()}
    one = tmp_path / "card3.txt"
    one.write_text(rows["card_3"] + "\n")
    two = tmp_path / "two.txt"
    two.write_text(rows["card_3"] + "\n\n" + rows["card_31"] + "\n")
    return one, two


@pytest.mark.parametrize(
    "answer, error",
    [
        ("XU7", "slide 1 'XU7': cell 7 of 7: boat X would leave the board"),
        (
            "4L2, 5L2, XU3, 4R2, 6L2, 7L1, 8R2, XD3",
            "(it is at the port mouth: the 2 moves down into the port are missing)",
        ),
        (OPTIMAL_3 + ", 1L1", "slide 9 '1L1': the red boat is already in the port"),
        ("4L2, hello", "slide 2 'hello': the piece is a wave 1-8 or a boat letter A-Z"),
        ("", "empty solution"),
    ],
)
def test_replay_names_the_first_bad_slide(cards, answer, error):
    result = judge.replay(cards["card_3"], answer)
    assert not result.solved
    assert result.error.endswith(error)


def test_replay_counts_units_and_slides(cards):
    result = judge.replay(cards["card_3"], OPTIMAL_3)
    assert (result.solved, result.error, result.units, result.slides) == (True, None, 19, 8)
    assert len(result.states) == 9


def test_judge_with_the_solver(cards):
    verdict = judge_card(cards["card_3"], SOLVER + " --metric slides")
    assert verdict.solved and verdict.error is None
    assert (verdict.units, verdict.slides, verdict.optimum_units, verdict.optimum_slides) == (19, 8, 19, 8)
    assert verdict.describe().startswith("card 1: solved in 19 unit moves (optimal), 8 slides (optimal) (")


@pytest.mark.parametrize(
    "code, error",
    [
        ("print('hello')", "slide 1 'hello': the piece is a wave 1-8 or a boat letter A-Z"),
        ("import sys; sys.exit(3)", "solver crash: exited with code 3"),
        ("import time; time.sleep(30)", "solver timeout: no answer in time"),
        ("import sys; sys.stderr.write('lost at sea\\n'); sys.exit(1)", "(last stderr line: lost at sea)"),
    ],
)
def test_judge_states_why_a_solver_failed(cards, code, error):
    verdict = judge_card(cards["card_3"], python_bot(code), time_ms=1500, judge=StormySeasJudge(with_optima=False))
    assert not verdict.solved
    assert verdict.error.endswith(error)


def test_judge_command_json(card_files, capsys):
    _, two = card_files
    assert referee("judge", str(two), SOLVER, "--json") == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["puzzle"] for line in lines] == [1, 2]
    for line, (units, slides) in zip(lines, [(19, 8), (52, 30)], strict=True):
        assert line["solved"] and line["error"] is None
        assert (line["units"], line["optimum_units"], line["optimum_slides"]) == (units, units, slides)
        assert line["time_ms"] >= 0


def test_judge_command_text_and_summary(card_files, capsys):
    one, _ = card_files
    assert referee("judge", str(one), python_bot(f"print({OPTIMAL_3!r})"), "--no-optima") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("card 1: solved in 19 unit moves, 8 slides (")
    assert out[1].startswith("solved 1/1; on those: 19 unit moves, 8 slides; solver time")


def test_judge_command_bad_input(card_files, tmp_path, capsys):
    one, _ = card_files
    assert referee("judge", str(one), "/no/such/solver") == 2
    assert "cannot start" in capsys.readouterr().err
    bad = tmp_path / "bad.txt"
    bad.write_text("--#-#-###\n")
    assert referee("judge", str(bad), SOLVER) == 2
    assert (
        capsys.readouterr().err.strip()
        == f"referee stormyseas judge: {bad}: card 1: a card has 8 lines, this one has 1"
    )
    assert referee("judge", str(tmp_path / "missing.txt"), SOLVER) == 2
    assert "cannot read" in capsys.readouterr().err


# Card 3's optimal line with its first slide cut in two: as few unit moves, one slide more.
SPLIT_3 = "4L1, 4L1, 5L2, XU3, 4R2, 6L2, 7L1, 8R2, XD5"


def metric_oracle(units: str, slides: str, *, needs_rotation: bool = False) -> str:
    """An oracle that reads a card and prints `units` when run with `--metric units`, `slides` with
    `--metric slides` (and exits 3 without `--rotation` when it needs it)."""
    code = (
        f"import sys\nsys.stdin.read(1)\nargs = sys.argv[1:]\n"
        f"if {needs_rotation} and '--rotation' not in args: sys.exit(3)\n"
        f"print({units!r} if args[args.index('--metric') + 1] == 'units' else {slides!r})"
    )
    return python_bot(code)


def test_the_oracle_runs_once_a_metric_and_a_better_answer_proves_it_wrong(cards):
    answer = python_bot(f"print({OPTIMAL_3!r})")
    verdict = judge_card(cards["card_3"], answer, oracle=metric_oracle(OPTIMAL_3, OPTIMAL_3))
    assert verdict.solved and (verdict.optimum_units, verdict.optimum_slides) == (19, 8)
    with pytest.raises(
        OracleError,
        match="oracle wrong on card 1: the solver's answer takes 19 unit moves and 8 "
        "slides, the oracle's fewest are 19 and 9",
    ):
        judge_card(cards["card_3"], answer, oracle=metric_oracle(OPTIMAL_3, SPLIT_3))
    with pytest.raises(OracleError, match="its answer by slides '4L2': the red boat is not in the port"):
        judge_card(cards["card_3"], answer, oracle=metric_oracle(OPTIMAL_3, "4L2"))
    with pytest.raises(OracleError, match="it answered NONE by units, but solved the card by the other metric"):
        judge_card(cards["card_3"], answer, oracle=metric_oracle("NONE", OPTIMAL_3))
    verdict = judge_card(
        cards["card_3"],
        answer,
        oracle=metric_oracle(OPTIMAL_3, OPTIMAL_3, needs_rotation=True),
        judge=StormySeasJudge(rotation=True),
    )
    assert verdict.solved and verdict.optimum_slides == 8


def test_a_solution_optimal_by_neither_metric_is_wrong_and_by_either_is_right(card_files, capsys):
    one, _ = card_files
    oracle = ["--oracle", metric_oracle(OPTIMAL_3, OPTIMAL_3)]
    assert referee("judge", str(one), python_bot(f"print({'1L1, 1R1, ' + OPTIMAL_3!r})"), *oracle) == 1
    out, err = capsys.readouterr()
    assert out.startswith("card 1: solved in 21 unit moves (optimum 19), 10 slides (optimum 8): NOT optimal (")
    assert err == "referee stormyseas judge: 1 of 1 answer wrong (1 not optimal)\n"
    assert referee("judge", str(one), python_bot(f"print({SPLIT_3!r})"), *oracle) == 0  # the fewest unit moves
    assert referee("judge", str(one), python_bot(f"print({'1L1, 1R1, ' + OPTIMAL_3!r})"), "--no-optima") == 0


def test_without_optima_the_oracle_only_checks_a_none(card_files, capsys):
    one, _ = card_files
    absent = ["--no-optima", "--oracle", "/no/such/oracle"]
    assert referee("judge", str(one), python_bot(f"print({OPTIMAL_3!r})"), *absent) == 0
    assert referee("judge", str(one), python_bot("print('NONE')"), *absent) == 2
    assert capsys.readouterr().err.startswith("referee stormyseas judge: oracle cannot start: ")
    assert referee("judge", str(one), python_bot("print('NONE')"), "--no-optima") == 1
    assert "card 1: not solved: answered NONE, but the card is solved in 19 unit moves" in capsys.readouterr().out


def test_show_steps_through_a_solution_and_writes_svg(card_files, tmp_path, capsys):
    one, _ = card_files
    svg = tmp_path / "frames.svg"
    assert referee("show", str(one), "--solution", OPTIMAL_3, "--svg", str(svg), "--color", "never") == 0
    out = capsys.readouterr().out
    assert out.count("    1 2 3 4 5 6 7 8 9") == 9
    assert "slide 8/8 XD5 (19 units) solved" in out
    assert "\x1b[" not in out
    root = ET.parse(svg).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert len(root.findall("{http://www.w3.org/2000/svg}g")) == 9


def test_show_stops_at_an_illegal_slide(card_files, capsys):
    one, _ = card_files
    assert referee("show", str(one), "--solution", "4L2, XD1") == 2
    captured = capsys.readouterr()
    assert captured.out.count("    1 2 3 4 5 6 7 8 9") == 2
    assert captured.err == "referee stormyseas show: slide 2 'XD1' is illegal: boat X would leave the board\n"
    assert referee("show", str(one), "--card", "2") == 2
    assert capsys.readouterr().err.endswith("the file has 1 card\n")
    assert referee("show", str(one), "--solution", "XZ") == 2


def test_show_colours_on_request(card_files, capsys):
    one, _ = card_files
    assert referee("show", str(one), "--color", "always") == 0
    assert "\x1b[41;97;1mX" in capsys.readouterr().out


def test_the_cards_file_holds_the_known_cards(recorded):
    text = CARDS_FILE.read_text().strip().split("\n\n")
    assert [parse_card(block) for block in text] == [
        parse_card("\n".join(entry["rows"])) for entry in recorded["cards"].values()
    ]
