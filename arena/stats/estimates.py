"""Match statistics: scores, Elo differences with 95% intervals, and the SPRT, over units of games.

A seed is played as a *unit*: every rotation of the seats (for two players, a seat-swapped pair), so
that each player takes each seat once on the same seed. The games of a unit share their seed's luck
and are not independent; the units are. So the unit of observation is a unit's score of one player
against another, on the per-game scale [0, 1]: with m games to a unit, one of the 2m + 1 values k / 2m
(k half-points). Counting units by those values removes the seat and seed luck shared by the games of
a unit from the variance, as chess engine testing frameworks do with pairs. For two players (m = 2)
the counts are the pentanomial: pairs by 0, 1/2, 1, 3/2 or 2 points (`arena/stats/units.py` turns N-player
games into such counts).

The SPRT is the generalized SPRT with the normal approximation of its log-likelihood ratio (Fishtest's
LLR_alt2; M. Van den Bergh, "A GSPRT approximation"): with unit scores x, sample mean m and sample
variance v over N units, and s0, s1 the expected scores of the two hypotheses' Elo differences,

    LLR = N * (s1 - s0) * (2 m - s0 - s1) / (2 v)

and the test stops when LLR leaves [log(beta / (1 - alpha)), log((1 - beta) / alpha)], but not before
MIN_UNITS units: the approximation needs a variance estimated from more than a handful of units (after
one pair won twice the estimated variance is nearly 0 and the LLR is in the tens).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054  # the 97.5% quantile of the standard normal
Z95_COVERAGE = 0.95  # what an interval built with Z95 covers
PENTANOMIAL_POINTS = (0.0, 0.5, 1.0, 1.5, 2.0)  # the points of a pair, index = points * 2
REGULARIZE = 1e-3  # an empty class of unit scores counts this much (Fishtest's regularization)
MIN_UNITS = 10


def expected_score(elo: float) -> float:
    """The logistic expected score of an Elo difference."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_from_score(score: float) -> float:
    """The Elo difference whose expected score is `score` (infinite at 0 and 1)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


@dataclass(frozen=True)
class Estimate:
    """A score (per game, 0..1) with its standard error, and the Elo difference it implies."""

    score: float
    stderr: float
    n: int  # observations (games or pairs) behind it

    @property
    def score_interval(self) -> tuple[float, float]:
        """The 95% interval of the score. Where every observation scored the same (`stderr` 0: a
        clean sweep, or every pair split by colour) the data show no spread to build one from: the
        bound is then that of `sweep_bound`, p, on the share of observations that would score
        otherwise, each at worst 0 or 1 ([s - p s, s + p (1 - s)] about the score s; [0, p] for a
        sweep lost). It was [s, s], a zero-width interval from a single pair."""
        if self.n and self.stderr == 0.0:
            p = sweep_bound(self.n)
            return self.score * (1.0 - p), self.score + p * (1.0 - self.score)
        low, high = max(self.score - Z95 * self.stderr, 0.0), min(self.score + Z95 * self.stderr, 1.0)
        if self.n and math.isfinite(self.stderr):
            # Never surer than a clean sweep of as many: one unit short of it, the normal interval
            # (its spread nearly none) gave a lower bound far above the sweep's (23-0-1 in 8 units of
            # 3 games: +349 Elo; 24-0-0: +93): a better result must not read as less certain.
            p = sweep_bound(self.n)
            low, high = min(low, 1.0 - p), max(high, p)
        return low, high

    @property
    def elo(self) -> float:
        return elo_from_score(self.score)

    @property
    def elo_interval(self) -> tuple[float, float]:
        """The 95% interval of the Elo difference; one end is infinite where the score's interval
        reaches 0 or 1 (a one-sided bound, as for a clean sweep)."""
        low, high = self.score_interval
        return elo_from_score(low), elo_from_score(high)


def sweep_bound(n: int) -> float:
    """The score that n observations that all scored 0 lie below with 95% confidence, as the upper
    end of a two-sided 95% interval: 1 - 0.025^(1/n), the Clopper-Pearson bound at zero successes
    (the exact form of the rule of three). For seat-swapped pairs n counts pairs, not games: the two
    games of a pair share a seed, so pairs are the independent observations."""
    return 1.0 - ((1.0 - Z95_COVERAGE) / 2.0) ** (1.0 / n)


def _mean_var(values_probs: list[tuple[float, float]]) -> tuple[float, float]:
    mean = sum(v * p for v, p in values_probs)
    var = sum(p * (v - mean) ** 2 for v, p in values_probs)
    return mean, var


def trinomial_estimate(wins: int, draws: int, losses: int) -> Estimate:
    """Score and standard error from independent games (no pairing)."""
    n = wins + draws + losses
    if n == 0:
        return Estimate(0.5, math.inf, 0)
    mean, var = _mean_var([(1.0, wins / n), (0.5, draws / n), (0.0, losses / n)])
    return Estimate(mean, math.sqrt(var / n), n)


def unit_estimate(counts: list[int] | tuple[int, ...]) -> Estimate:
    """Score and standard error from units; counts[k] = units that scored k / (len(counts) - 1) per
    game (a unit of m games has 2m + 1 classes). The error comes from the spread of the unit scores."""
    _check_unit_counts(counts)
    n = sum(counts)
    if n == 0:
        return Estimate(0.5, math.inf, 0)
    top = len(counts) - 1
    mean, var = _mean_var([(k / top, c / n) for k, c in enumerate(counts)])
    return Estimate(mean, math.sqrt(var / n), n)


def unit_llr(counts: list[int] | tuple[int, ...], elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio of H1 (Elo difference elo1) against H0 (elo0), normal
    approximation, from unit counts as `unit_estimate` takes them (empty classes regularized as
    Fishtest does the pentanomial's)."""
    _check_unit_counts(counts)
    if sum(counts) == 0:
        return 0.0
    regular = [c if c > 0 else REGULARIZE for c in counts]
    n = sum(regular)
    top = len(counts) - 1
    mean, var = _mean_var([(k / top, c / n) for k, c in enumerate(regular)])
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)


def pentanomial_estimate(counts: list[int] | tuple[int, ...]) -> Estimate:
    """Score and standard error from seat-swapped pairs; counts[i] = pairs that scored i/2 points."""
    _check_counts(counts)
    return unit_estimate(counts)


def pentanomial_llr(counts: list[int] | tuple[int, ...], elo0: float, elo1: float) -> float:
    """`unit_llr` of pentanomial pair counts."""
    _check_counts(counts)
    return unit_llr(counts, elo0, elo1)


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """(lower, upper): accept H0 at or below lower, H1 at or above upper."""
    if not (0.0 < alpha < 1.0 and 0.0 < beta < 1.0):
        raise ValueError("alpha and beta must lie strictly between 0 and 1")
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


@dataclass(frozen=True)
class SprtState:
    llr: float
    lower: float
    upper: float
    units: int

    @property
    def pairs(self) -> int:
        """`units`, by its name for two players."""
        return self.units

    @property
    def verdict(self) -> str | None:
        """ "H0", "H1", or None while the test goes on."""
        if self.units < MIN_UNITS:
            return None
        if self.llr >= self.upper:
            return "H1"
        if self.llr <= self.lower:
            return "H0"
        return None


def unit_sprt_state(counts, elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05) -> SprtState:
    """The SPRT's state after the units counted as `unit_estimate` takes them."""
    if not elo1 > elo0:
        raise ValueError(f"elo1 ({elo1}) must be greater than elo0 ({elo0})")
    lower, upper = sprt_bounds(alpha, beta)
    return SprtState(unit_llr(counts, elo0, elo1), lower, upper, sum(counts))


def sprt_state(counts, elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05) -> SprtState:
    """The SPRT's state after seat-swapped pairs counted as a pentanomial."""
    _check_counts(counts)
    return unit_sprt_state(counts, elo0, elo1, alpha, beta)


def _check_counts(counts) -> None:
    if len(counts) != 5 or any(c < 0 for c in counts):
        raise ValueError(f"a pentanomial is five non-negative counts, not {list(counts)}")


def _check_unit_counts(counts) -> None:
    if len(counts) < 3 or len(counts) % 2 == 0 or any(c < 0 for c in counts):
        raise ValueError(f"unit counts are 2m + 1 non-negative counts (m games a unit), not {list(counts)}")
