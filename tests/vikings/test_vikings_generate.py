"""The generator: every objective it prints has exactly the optimum asked for."""
from __future__ import annotations

import random

import pytest

from referee.vikings import rules
from referee.vikings.generate import generate, random_board, targets_at_distance
from referee.vikings.search import shortest_solution


@pytest.mark.parametrize("moves, boats, seed", [(1, 1, 0), (8, 1, 1), (15, 2, 2), (25, 3, 3), (35, 4, 4)])
def test_generated_objectives_have_the_requested_optimum(moves, boats, seed):
    objective = generate(moves, random.Random(seed), boats)
    assert objective is not None
    again = rules.parse_objective(str(objective))  # valid, targets on boundary edges
    assert len(again.board.boats) == len(again.targets) == boats
    assert len(shortest_solution(again)) == moves


def test_every_target_of_a_board_at_a_distance_has_that_optimum():
    rng = random.Random(7)
    board = next(b for b in (random_board(rng, 2) for _ in range(500)) if targets_at_distance(b, 6))
    for targets in targets_at_distance(board, 6)[:20]:
        assert len(shortest_solution(rules.Objective(board, targets))) == 6


def test_the_command_prints_distinct_objectives_and_repeats_with_a_seed(run_cli, capsys):
    assert run_cli("vikings", "generate", "--moves", "10", "--boats", "2", "--count", "3", "--seed", "5") == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(set(lines)) == 3
    for line in lines:
        assert len(shortest_solution(rules.parse_objective(line))) == 10
    assert run_cli("vikings", "generate", "--moves", "10", "--boats", "2", "--count", "3", "--seed", "5") == 0
    assert capsys.readouterr().out.splitlines() == lines


def test_an_optimum_out_of_reach_is_reported(run_cli, capsys):
    assert run_cli("vikings", "generate", "--moves", "200", "--boats", "1", "--seed", "1") == 1
    assert "found 0 of 1 objectives with optimum 200 and 1 boat(s)" in capsys.readouterr().err
    assert run_cli("vikings", "generate", "--moves", "0") == 2
