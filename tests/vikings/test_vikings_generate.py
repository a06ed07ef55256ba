"""The generator: every objective it prints has exactly the optimum asked for."""

from __future__ import annotations

import random

import pytest

from referee.vikings import rules
from bots.vikings import search
from bots.vikings import generate as generate_module
from bots.vikings.generate import boundary_placements, generate, random_board, targets_of
from bots.vikings.search import shortest_solution


@pytest.mark.parametrize("moves, boats, seed", [(1, 1, 0), (12, 1, 1), (20, 2, 2), (40, 3, 3), (50, 4, 4)])
def test_generated_objectives_have_the_requested_optimum(moves, boats, seed):
    objective = generate(moves, random.Random(seed), boats)
    assert objective is not None
    again = rules.parse_objective(str(objective))  # valid, targets on boundary edges
    assert len(again.board.boats) == len(again.targets) == boats
    assert len(shortest_solution(again)) == moves


def test_distances_backwards_are_the_optima_forwards():
    rng = random.Random(7)
    board = next(b for b in (random_board(rng, 2) for _ in range(1000)) if search.reachable(b)[0].size > 500)
    states, _ = search.reachable(board)
    placement = boundary_placements(states, 2)[0]
    goals = states[(states >> search.BOAT_SHIFT) == placement]
    before, distance = search.distances_to(goals, board)
    assert set(before.tolist()) == set(states.tolist())  # every move can be undone: one component
    targets = targets_of(int(placement), board)
    for i in rng.sample(range(before.size), 30):
        start = search.decode(int(before[i]), board)
        assert len(shortest_solution(rules.Objective(start, targets))) == distance[i]


def generate_command(*argv: str) -> int:
    """`python -m bots.vikings.generate ...`, in this process."""
    return generate_module.main(list(argv))


def test_the_command_prints_distinct_objectives_and_repeats_with_a_seed(capsys):
    assert generate_command("--moves", "10", "--boats", "2", "--count", "3", "--seed", "5") == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(set(lines)) == 3
    for line in lines:
        assert len(shortest_solution(rules.parse_objective(line))) == 10
    assert generate_command("--moves", "10", "--boats", "2", "--count", "3", "--seed", "5") == 0
    assert capsys.readouterr().out.splitlines() == lines


def test_an_optimum_out_of_reach_is_reported(capsys):
    assert generate_command("--moves", "200", "--boats", "1", "--seed", "1", "--boards", "200") == 1
    assert "found 0 of 1 objectives with optimum 200 and 1 boat(s) (200 random boards each)" in capsys.readouterr().err
    assert generate_command("--moves", "0") == 2
    assert (
        capsys.readouterr().err == "python -m bots.vikings.generate: --moves, --count and --boards must be at least 1\n"
    )
