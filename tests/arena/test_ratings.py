"""Ratings: the Bradley-Terry fit against its closed form for two players, and OpenSkill's order."""

import random

import pytest

from arena.stats.ratings import bradley_terry, bradley_terry_fit, openskill_ratings


def game(blue, orange, winner):
    return {"blue": blue, "orange": orange, "winner": winner}


def test_bradley_terry_two_players_by_hand():
    # a beats b 6 times and loses twice; with the prior's virtual draw a scores 6.5 of 9, p = 0.72222.
    # Elo difference d = 400 log10(p / (1 - p)) = 400 log10(2.6) = 165.989, so a = +82.995, b = -82.995.
    # Fisher information of d: c^2 n p (1 - p) with c = ln(10) / 400 and n = 9, so se(d) = 129.282;
    # each rating is d / 2 from the mean: se = 64.641.
    games = [game("a", "b", "blue")] * 3 + [game("b", "a", "orange")] * 3 + [game("a", "b", "orange")] * 2
    fit = bradley_terry(games, ["a", "b"])
    assert fit["a"].elo == pytest.approx(82.995, abs=1e-3)
    assert fit["b"].elo == pytest.approx(-82.995, abs=1e-3)
    assert fit["a"].stderr == pytest.approx(64.641, abs=1e-3)
    assert fit["a"].interval == pytest.approx((82.995 - 1.95996 * 64.641, 82.995 + 1.95996 * 64.641), abs=1e-2)


def test_bradley_terry_is_finite_for_a_clean_sweep_and_ignores_order():
    games = [game("a", "b", "blue"), game("b", "a", "orange")] * 5 + [game("b", "c", "draw"), game("c", "a", "blue")]
    fit = bradley_terry(games, ["a", "b", "c"])
    assert sum(r.elo for r in fit.values()) == pytest.approx(0, abs=1e-6)
    assert all(abs(r.elo) < 1000 and r.stderr > 0 for r in fit.values())
    shuffled = games[:]
    random.Random(1).shuffle(shuffled)
    again = bradley_terry(shuffled, ["a", "b", "c"])
    assert all(again[k].elo == pytest.approx(fit[k].elo) for k in fit)


def test_openskill_ranks_the_winner_first_and_narrows_with_games():
    few = openskill_ratings([game("a", "b", "blue")], ["a", "b"])
    many = openskill_ratings([game("a", "b", "blue"), game("b", "a", "orange")] * 10, ["a", "b"])
    assert [r.label for r in many] == ["a", "b"]
    assert many[0].sigma < few[0].sigma
    low, high = many[0].interval
    assert low < many[0].mu < high


def test_the_gap_between_two_players_has_the_error_of_their_difference():
    # Two players: ratings are +d/2 and -d/2, so the gap is d with se(d) = 129.282 (see above), twice
    # each rating's error, not their errors combined (sqrt(2) * 64.641 = 91.4).
    games = [game("a", "b", "blue")] * 3 + [game("b", "a", "orange")] * 3 + [game("a", "b", "orange")] * 2
    gap = bradley_terry_fit(games, ["a", "b"]).gap("a", "b")
    assert gap.elo == pytest.approx(165.989, abs=1e-3)
    assert gap.stderr == pytest.approx(129.282, abs=1e-3)
