"""The solver bot as a process: reads a card on stdin, prints an optimal solution line."""

from __future__ import annotations


import pytest

from referee.stormyseas import judge

OPTIMA = {"card_10": (29, 14), "card_31": (52, 30)}


@pytest.mark.parametrize("metric", ["units", "slides"])
@pytest.mark.parametrize("name", sorted(OPTIMA))
def test_solver_answers_are_legal_and_optimal(solver, recorded, cards, name, metric):
    done = solver("stormyseas", "\n".join(recorded["cards"][name]["rows"]) + "\n", "--metric", metric)
    assert done.returncode == 0, done.stderr
    result = judge.replay(cards[name], done.stdout.strip())
    assert result.solved, result.error
    units, slides = OPTIMA[name]
    assert (result.units if metric == "units" else result.slides) == (units if metric == "units" else slides)


def test_solver_rejects_a_bad_card(solver):
    done = solver("stormyseas", "--#-#-###\n" * 8)
    assert done.returncode == 2
    assert done.stderr.strip() == "stormyseas solver: bad card (card 1 of the input): no red boat 'X'"


def test_solver_reads_a_card_with_trailing_spaces_as_the_judge_does(solver, recorded, cards):
    spaced = "".join(row + "  \n" for row in recorded["cards"]["card_10"]["rows"])
    done = solver("stormyseas", spaced)
    assert done.returncode == 0, done.stderr
    assert judge.replay(cards["card_10"], done.stdout.strip()).solved


def test_solver_says_when_there_is_no_solution(solver, recorded):
    rows = "\n".join(recorded["cards"]["card_3"]["rows"])
    bow_up = rows.replace("X", "?").replace("x", "X").replace("?", "x")
    done = solver("stormyseas", bow_up + "\n")
    assert done.returncode == 0
    assert done.stdout == "NONE\n"  # proven: every reachable position searched
    turned = solver("stormyseas", bow_up + "\n", "--rotation")
    assert turned.returncode == 0
    assert "XC" in turned.stdout or "XA" in turned.stdout
