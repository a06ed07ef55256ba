"""The challenge generator: givens per level, and exactly one solution, as the solver bot says."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from bots.iqtwist.generate import LEVELS, generate
from referee.iqtwist.judge import check_solution
from referee.iqtwist.rules import parse_state
from bots.iqtwist.search import count_solutions


def test_levels_have_fewer_givens_as_they_get_harder():
    givens = [sum(LEVELS[level]) for level in ("starter", "junior", "expert", "master", "wizard")]
    assert givens == sorted(givens, reverse=True)
    assert len(set(givens[1:])) == 4


@pytest.mark.parametrize("level", list(LEVELS))
def test_each_level_gives_its_number_of_pieces_and_pegs(level):
    rng = random.Random(7)
    for _ in range(3):
        state = parse_state(generate(level, rng))
        assert (len(state.pieces), len(state.pegs)) == LEVELS[level]
        assert count_solutions(state) == 1


def test_same_seed_same_challenges():
    assert generate("master", random.Random(3)) == generate("master", random.Random(3))


def test_unknown_level_is_refused():
    with pytest.raises(ValueError, match="unknown level 'genius'"):
        generate("genius", random.Random(0))


def test_the_solver_bot_finds_exactly_one_solution_of_generated_challenges():
    rng = random.Random(2026)
    generated = [generate(level, rng) for level in LEVELS for _ in range(2)]
    done = subprocess.run(
        [sys.executable, "-m", "bots.iqtwist.solver"],
        input="".join(c + "\n" for c in generated),
        capture_output=True,
        text=True,
        timeout=120,
    )
    blocks = done.stdout.split("\n\n")
    assert blocks[-1] == ""
    for challenge, block in zip(generated, blocks[:-1], strict=True):
        assert len(block.split("\n")) == 1, (challenge, block)
        assert check_solution(parse_state(challenge), block) is None
