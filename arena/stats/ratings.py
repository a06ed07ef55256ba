"""Ratings of every player from the games of a run, two ways.

- OpenSkill (Weng-Lin Bayesian ratings, Plackett-Luce): the games are taken in the order they ended,
  as recorded, so a run's ratings are the same every time they are rebuilt from its database. Each
  rating is a mean and a standard deviation on OpenSkill's scale (a new player starts at 25 +- 8.33).
- A Bradley-Terry fit on the Elo scale: the ratings r maximizing the likelihood of the games, where
  i scores against j with probability 1 / (1 + 10^((r_j - r_i) / 400)) (a draw is half a win each),
  centred on 0, with standard errors from the inverse of the Fisher information. As BayesElo does,
  one virtual draw per pairing keeps a player who won every game at a finite rating.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

import numpy as np
from openskill.models import PlackettLuce

from arena.stats.estimates import Z95

ELO_UNIT = math.log(10) / 400  # logistic slope per Elo point


@dataclass(frozen=True)
class Rating:
    label: str
    mu: float
    sigma: float

    @property
    def interval(self) -> tuple[float, float]:
        return self.mu - Z95 * self.sigma, self.mu + Z95 * self.sigma


_RANKS = {"blue": [0, 1], "orange": [1, 0], "draw": [0, 0]}  # lower rank is better


def openskill_ratings(games: list[dict], labels: list[str]) -> list[Rating]:
    """Ratings, best first."""
    model = PlackettLuce()
    current = {label: model.rating(name=label) for label in labels}
    for game in games:
        blue, orange = current[game["blue"]], current[game["orange"]]
        [[blue], [orange]] = model.rate([[blue], [orange]], ranks=_RANKS[game["winner"]])
        current[game["blue"]], current[game["orange"]] = blue, orange
    ratings = [Rating(label, r.mu, r.sigma) for label, r in current.items()]
    return sorted(ratings, key=lambda r: r.mu, reverse=True)


@dataclass(frozen=True)
class EloRating:
    label: str
    elo: float
    stderr: float

    @property
    def interval(self) -> tuple[float, float]:
        return self.elo - Z95 * self.stderr, self.elo + Z95 * self.stderr


def bradley_terry(games: list[dict], labels: list[str], prior_draws: float = 1.0) -> dict[str, EloRating]:
    """Elo ratings (mean 0) with standard errors, by Newton's method on the log-likelihood."""
    return bradley_terry_fit(games, labels, prior_draws).ratings


@dataclass(frozen=True)
class BradleyTerryFit:
    ratings: dict[str, EloRating]
    covariance: np.ndarray  # of the ratings, in `ratings`' order

    def gap(self, a: str, b: str) -> EloRating:
        """a's rating minus b's, with its standard error: the ratings' errors are correlated (every
        game moves two of them), so the difference's error is not the two errors combined."""
        i, j = list(self.ratings).index(a), list(self.ratings).index(b)
        c = self.covariance
        variance = c[i, i] + c[j, j] - 2.0 * c[i, j]
        return EloRating(f"{a} - {b}", self.ratings[a].elo - self.ratings[b].elo, math.sqrt(max(variance, 0.0)))


def bradley_terry_fit(games: list[dict], labels: list[str], prior_draws: float = 1.0) -> BradleyTerryFit:
    """`bradley_terry`'s ratings with their covariance."""
    index = {label: i for i, label in enumerate(labels)}
    n = len(labels)
    played = np.zeros((n, n))  # games between i and j
    scored = np.zeros((n, n))  # points of i against j
    pairs = defaultdict(int)
    for game in games:
        i, j = index[game["blue"]], index[game["orange"]]
        pairs[min(i, j), max(i, j)] += 1
        blue = {"blue": 1.0, "orange": 0.0, "draw": 0.5}[game["winner"]]
        played[i, j] += 1
        played[j, i] += 1
        scored[i, j] += blue
        scored[j, i] += 1.0 - blue
    for i, j in pairs:  # the prior: virtual draws
        played[i, j] += prior_draws
        played[j, i] += prior_draws
        scored[i, j] += prior_draws / 2
        scored[j, i] += prior_draws / 2
    ratings = np.zeros(n)
    covariance = np.zeros((n, n))
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-ELO_UNIT * (ratings[:, None] - ratings[None, :])))
        gradient = ELO_UNIT * (scored - played * p).sum(axis=1)
        weights = ELO_UNIT**2 * played * p * (1.0 - p)
        information = np.diag(weights.sum(axis=1)) - weights  # singular along (1, .., 1): ratings are relative
        covariance = np.linalg.pinv(information)  # the inverse on ratings that sum to 0
        step = covariance @ gradient
        ratings += step
        ratings -= ratings.mean()
        if np.abs(step).max() < 1e-9:
            break
    return BradleyTerryFit(
        {
            label: EloRating(label, float(ratings[i]), float(math.sqrt(max(covariance[i, i], 0.0))))
            for label, i in index.items()
        },
        covariance,
    )
