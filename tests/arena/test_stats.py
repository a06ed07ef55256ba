"""The statistics against values computed by hand from the published formulas."""

import math

import numpy as np
import pytest

from arena.stats.estimates import (
    elo_from_score,
    expected_score,
    pentanomial_estimate,
    pentanomial_llr,
    sprt_bounds,
    sprt_state,
    sweep_bound,
    trinomial_estimate,
)


def test_logistic_elo_both_ways():
    assert expected_score(0) == 0.5
    assert elo_from_score(0.75) == pytest.approx(400 * math.log10(3))  # 190.85: 3 to 1 odds
    assert elo_from_score(expected_score(123.4)) == pytest.approx(123.4)
    assert elo_from_score(0.0) == -math.inf and elo_from_score(1.0) == math.inf


def test_a_clean_sweep_has_a_one_sided_bound():
    # 16 pairs all lost: the score is below 1 - 0.025^(1/16) = 0.205907 at 95% (two-sided), an Elo
    # difference below -400 log10(1 / 0.205907 - 1) = -234.48; all won: above +234.48.
    assert sweep_bound(16) == pytest.approx(0.205907, abs=1e-6)
    lost, won = pentanomial_estimate([16, 0, 0, 0, 0]), pentanomial_estimate([0, 0, 0, 0, 16])
    assert lost.elo_interval == (-math.inf, pytest.approx(-234.48, abs=0.01))
    assert won.elo_interval == (pytest.approx(234.48, abs=0.01), math.inf)
    assert sweep_bound(64) < sweep_bound(16)  # more pairs, a tighter bound


def test_pairs_that_all_scored_alike_have_an_interval_not_a_point():
    """Every pair split by colour (1 point of 2): no spread in the data, and the interval was
    [+0, +0], even from one pair. With the sweep's bound p on the share of pairs that would score
    otherwise (at worst 0 or 1): [0.5 - 0.5 p, 0.5 + 0.5 p]."""
    one, thirty = pentanomial_estimate([0, 0, 1, 0, 0]), pentanomial_estimate([0, 0, 30, 0, 0])
    p = sweep_bound(30)  # 0.1155
    assert thirty.score_interval == pytest.approx((0.5 - 0.5 * p, 0.5 + 0.5 * p))
    assert thirty.elo_interval == pytest.approx((-40.38, 40.38), abs=0.01)
    assert one.elo_interval[1] > 700 and one.elo_interval[0] == pytest.approx(-one.elo_interval[1])
    low, high = pentanomial_estimate([0, 20, 0, 0, 0]).elo_interval  # every pair 1/2 point of 2
    assert low < elo_from_score(0.25) < high


def test_trinomial_interval_by_hand():
    # 60 wins, 40 losses: score 0.6, variance 0.6 * 0.4 = 0.24, standard error sqrt(0.24 / 100).
    est = trinomial_estimate(60, 0, 40)
    assert est.score == pytest.approx(0.6)
    assert est.stderr == pytest.approx(0.0489898, rel=1e-5)
    low, high = est.score_interval
    assert (low, high) == pytest.approx((0.6 - 1.959964 * 0.0489898, 0.6 + 1.959964 * 0.0489898), rel=1e-5)
    assert est.elo == pytest.approx(70.4365, rel=1e-5)  # -400 log10(1/0.6 - 1)
    # The interval's ends, 0.503981 and 0.696019, as Elo: -400 log10(1/0.503981 - 1) and so on.
    assert est.elo_interval == pytest.approx((2.7669, 143.9092), abs=1e-3)


def test_pentanomial_estimate_by_hand():
    # Pairs scoring 0, 1/4, 1/2, 3/4, 1 (per game) seen 1, 2, 3, 4, 5 times:
    # mean = (0 + 0.5 + 1.5 + 3 + 5) / 15 = 2/3; E[x^2] = (0.125 + 0.75 + 2.25 + 5) / 15 = 8.125 / 15;
    # variance = 8.125 / 15 - 4/9 = 0.0972222; standard error = sqrt(0.0972222 / 15) = 0.0805076.
    est = pentanomial_estimate([1, 2, 3, 4, 5])
    assert est.n == 15
    assert est.score == pytest.approx(2 / 3)
    assert est.stderr == pytest.approx(0.0805076, rel=1e-5)


def test_pentanomial_llr_by_hand():
    # s0 = 1/2, s1 = 1 / (1 + 10^(-10/400)) = 0.5143872; with the mean and variance above:
    # LLR = 15 * (s1 - s0) * (2 * 2/3 - s0 - s1) / (2 * 0.0972222) = 0.3539883.
    assert pentanomial_llr([1, 2, 3, 4, 5], 0, 10) == pytest.approx(0.3539883, rel=1e-6)
    # Symmetric results halfway between the hypotheses' scores give LLR 0 at elo0 = -elo1.
    assert pentanomial_llr([3, 1, 5, 1, 3], -10, 10) == pytest.approx(0.0, abs=1e-12)


def test_empty_classes_are_regularized():
    # Ten pairs all won: the empty classes count 1e-3 each (N = 10.004), so the variance is not 0.
    # mean = (1e-3 * (0 + 1/4 + 1/2 + 3/4) + 10) / 10.004; E[x^2] = (1e-3 * (1/16 + 1/4 + 9/16) + 10) / 10.004.
    n = 10.004
    mean = (1e-3 * 1.5 + 10) / n
    var = (1e-3 * (1 / 16 + 1 / 4 + 9 / 16) + 10) / n - mean**2
    s1 = 1 / (1 + 10 ** (-10 / 400))
    assert pentanomial_llr([0, 0, 0, 0, 10], 0, 10) == pytest.approx(n * (s1 - 0.5) * (2 * mean - 0.5 - s1) / (2 * var))
    assert pentanomial_llr([0, 0, 0, 0, 0], 0, 10) == 0.0


def test_bounds_and_verdicts():
    lower, upper = sprt_bounds(0.05, 0.05)
    assert lower == pytest.approx(math.log(0.05 / 0.95)) and upper == pytest.approx(-lower)
    assert lower == pytest.approx(-2.944439, rel=1e-6)
    assert sprt_state([0, 0, 0, 0, 10], 0, 10).verdict == "H1"
    assert sprt_state([10, 0, 0, 0, 0], 0, 10).verdict == "H0"
    assert sprt_state([1, 2, 3, 4, 5], 0, 10).verdict is None
    assert sprt_state([0, 0, 0, 0, 9], 0, 10).llr > 100  # but too few pairs to trust the variance
    assert sprt_state([0, 0, 0, 0, 9], 0, 10).verdict is None
    with pytest.raises(ValueError):
        sprt_state([1, 1, 1, 1, 1], 10, 0)
    with pytest.raises(ValueError):
        pentanomial_llr([1, 2, 3], 0, 10)


def _simulated_verdicts(probs, runs, max_pairs, rng):
    """Run `runs` SPRTs (elo0 0, elo1 10) on pairs drawn from `probs`; the verdict of each."""
    verdicts = []
    for _ in range(runs):
        outcomes = rng.choice(5, size=max_pairs, p=probs)
        counts = np.zeros(5, dtype=int)
        verdict = None
        for i, o in enumerate(outcomes):
            counts[o] += 1
            if i % 8 == 7:  # checking every 8 pairs keeps the test fast; the walk barely overshoots
                verdict = sprt_state(list(counts), 0, 10).verdict
                if verdict:
                    break
        verdicts.append(verdict)
    return verdicts


def test_error_rates_on_simulated_pairs():
    """Equal players (true Elo 0 = elo0): H1 is accepted about alpha of the time at most; players
    that are elo1 apart: H1 is accepted about 1 - beta of the time. Pair outcomes without draws."""
    rng = np.random.default_rng(2024)
    equal = np.array([0.2, 0.0, 0.6, 0.0, 0.2])  # score 1/2
    even = _simulated_verdicts(equal, 60, 6000, rng)
    assert even.count("H1") <= 6  # alpha = 0.05: 3 expected
    assert even.count("H0") >= 50
    # Shift 0 -> 2 points so that the score is s1 = 0.5143872 (Elo +10).
    shift = 1 / (1 + 10 ** (-10 / 400)) - 0.5
    better = np.array([0.2 - shift, 0.0, 0.6, 0.0, 0.2 + shift])
    ahead = _simulated_verdicts(better, 60, 6000, rng)
    assert ahead.count("H1") >= 50  # 1 - beta = 0.95: 57 expected


def test_an_sprt_says_where_it_was_decided_and_how_many_pairs_were_in_play_then():
    """It said `LLR 14.609 in [-2.944, 2.944] after 11 pairs`, an LLR "in" bounds it lay outside,
    then `accepted H1 after 10 pairs` with another LLR: the pairs in play at the decision finish."""
    from arena.stats.tables import sprt_lines

    config = {"lineups": [["a", "b"]], "sprt": {"elo0": 0, "elo1": 100, "alpha": 0.05, "beta": 0.05}, "units": 100}
    games = [
        {"lineup": ["a", "b"], "unit": unit, "seating": seating, "seats": seats, "ranks": [0, 1]}
        for unit in range(12)
        for seating, seats in enumerate((["a", "b"], ["b", "a"]))
    ]
    for game in games:
        game["ranks"] = [0, 1] if game["seats"][0] == "a" else [1, 0]
    head, state, end = sprt_lines(games, config).splitlines()
    assert state.startswith("LLR ") and "after 12 pairs (bounds -2.944 and 2.944)" in state
    decided = int(end.split(" after ")[1].split()[0])
    assert end.startswith("accepted H1 after") and decided < 12
    assert end.endswith(f"; the {12 - decided} more were in play then")


def test_a_result_short_of_a_sweep_is_never_surer_than_the_sweep():
    """23-0-1 in 8 units of 3 games read +545 [> +349], the sweep 24-0-0 [> +93]: the normal interval
    one unit short of a sweep has nearly no spread."""
    from arena.stats.estimates import unit_estimate

    sweep = unit_estimate([0, 0, 0, 0, 0, 0, 8])  # units of 3 games: 7 classes, k/6 a game
    short = unit_estimate([0, 0, 0, 0, 1, 0, 7])
    assert short.score_interval[0] <= sweep.score_interval[0]
    assert short.elo_interval[0] <= sweep.elo_interval[0]
    lost = unit_estimate([8, 0, 0, 0, 0, 0, 0])
    nearly = unit_estimate([7, 0, 1, 0, 0, 0, 0])
    assert nearly.score_interval[1] >= lost.score_interval[1]
    wide = unit_estimate([30, 0, 40, 0, 30, 0, 0])  # far from either end: the normal interval, untouched
    assert wide.score_interval[0] == pytest.approx(wide.score - 1.959963984540054 * wide.stderr)


def test_an_sprt_short_of_its_minimum_says_why_a_crossed_bound_decides_nothing():
    """`LLR 3.623 after 4 pairs (bounds -2.944 and 2.944)` then `no decision within 4 pairs`, unsaid
    why: the test decides from its tenth pair on."""
    from arena.stats.tables import sprt_lines

    config = {"lineups": [["a", "b"]], "sprt": {"elo0": 0, "elo1": 100, "alpha": 0.05, "beta": 0.05}, "units": 4}
    games = [
        {"lineup": ["a", "b"], "unit": unit, "seating": seating, "seats": seats, "ranks": [0, 1] if seating else [1, 0]}
        for unit in range(4)
        for seating, seats in enumerate((["b", "a"], ["a", "b"]))
    ]
    end = sprt_lines(games, config).splitlines()[-1]
    assert end == "no decision within 4 pairs (a bound is crossed, but the test decides from its 10th pair on)"
