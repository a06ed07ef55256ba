"""SPSA's arithmetic (arena/stats/spsa.py): the schedules, the sides of an iteration, the default gain."""

import random
import statistics

import pytest

from arena.stats.spsa import C_END, WANDER, Spsa, Tuned, rounded

X = Tuned("x", 0.0, 10.0, 5.0)
N = Tuned("n", 1, 9, 4, integer=True)


def test_the_perturbation_shrinks_to_c_end_of_the_range():
    spsa = Spsa((X,), iterations=100, games=8)
    assert spsa.c(100)["x"] == pytest.approx(C_END * 10.0)
    assert spsa.c(1)["x"] == pytest.approx(C_END * 10.0 * 100**0.101)
    assert spsa.gain(1)["x"] > spsa.gain(50)["x"] > spsa.gain(100)["x"] > 0


def test_sides_are_theta_plus_and_minus_c_delta_within_the_range():
    spsa = Spsa((X, N), iterations=10, games=4)
    plan = spsa.plan({"x": 5.0, "n": 4.0}, 10, seed=3)
    assert plan.plus["x"] - plan.minus["x"] == pytest.approx(2 * plan.delta["x"] * plan.c["x"])
    assert all(isinstance(plan.plus["n"], int) and 1 <= side["n"] <= 9 for side in (plan.plus, plan.minus))
    assert plan == spsa.plan({"x": 5.0, "n": 4.0}, 10, seed=3)  # the seed decides
    edge = spsa.plan({"x": 0.0, "n": 4.0}, 10, seed=3)
    assert min(edge.plus["x"], edge.minus["x"]) == 0.0
    after = spsa.update({"x": 5.0, "n": 4.0}, plan, net=3)
    assert (after["x"] - 5.0) * plan.delta["x"] > 0 and (after["n"] - 4.0) * plan.delta["n"] > 0
    assert after["n"] != round(after["n"])  # theta moves by less than a unit; the sides round it


def test_coin_tosses_move_theta_a_tenth_of_its_range():
    """The default r_end: with every game a coin toss, theta ends WANDER of its range (one sd) away."""
    spsa = Spsa((X,), iterations=40, games=8)
    ends = []
    for run in range(400):
        rng, theta = random.Random(run), spsa.start()
        for k in range(1, 41):
            plan = spsa.plan(theta, k, rng.randrange(2**31))
            theta = spsa.update(theta, plan, sum(rng.choice((-1, 1)) for _ in range(8)))
        ends.append(theta["x"])
    assert statistics.stdev(ends) / X.span == pytest.approx(WANDER, rel=0.15)


def test_tuned_values_are_rounded_to_a_thousandth_of_the_range():
    assert rounded(3.14159, X) == 3.14
    assert rounded(1234.5678, Tuned("k", 100.0, 20000.0, 3000.0)) == 1230.0
    assert rounded(4.6, N) == 5
    assert rounded(10.0004, X) == 10.0


def test_a_tuned_value_keeps_three_significant_digits_on_a_wide_range():
    """A thousandth of rave_k's declared range (0 to 1e7) rounded 304 to 0: the tuned spec named
    another bot, and the confirmation played it."""
    wide = Tuned("rave_k", 0.0, 1e7, 304.0)
    assert rounded(304.2, wide) == 304.0
    assert rounded(844_912.0, wide) == 845_000.0
    assert rounded(0.0, wide) == 0.0
