"""Ratings of every player from the games of a run, two ways, for games of two players or more.

A game is read in either shape: `{"seats": [labels, seat 0 first], "ranks": [0 best; equal ranks tie]}`
for any number of players, or the two-player `{"blue": label, "orange": label, "winner": "blue" |
"orange" | "draw"}` (blue is seat 0). Both functions give the same ratings for a two-player game in
either shape.

- OpenSkill (Weng-Lin Bayesian ratings, Plackett-Luce), which takes the ranks of any number of
  players: the games are taken in the order they ended, as recorded, so a run's ratings are the same
  every time they are rebuilt from its database. Each rating is a mean and a standard deviation on
  OpenSkill's scale (a new player starts at 25 +- 8.33).
- A Bradley-Terry fit on the Elo scale to the head-to-head results of every game: each pair of
  players in a game is a result, i scoring 1, 1/2 or 0 against j as i ranks above, level with or below
  j, with probability 1 / (1 + 10^((r_j - r_i) / 400)) of a win; the ratings r maximize the likelihood
  of those results, centred on 0. As BayesElo does, one virtual draw per pair of players who met keeps
  a player who won every game at a finite rating. For two-player games each game is one result and
  the standard errors come from the inverse of the Fisher information, as they always have.

  With three players or more, the results of one game are not independent (the winner beat everyone
  at once), so the Fisher information of independent results would understate the errors. The
  covariance is then the sandwich (Godambe) form of a composite likelihood, clustered by game:
  H^-1 J H^-1, where H is the Fisher information above and J the variance of the score (gradient),
  whose own-pair terms are H's and whose cross terms, between two results of one game, are estimated
  from the games themselves (the sum over games of the products of their pairs' score contributions).
  A two-player game has no cross terms, so its numbers are exactly those of the plain fit.

  Why this and not a Plackett-Luce maximum-likelihood fit: under Plackett-Luce with strengths
  10^(r / 400), i ranks above j with probability exactly 1 / (1 + 10^((r_j - r_i) / 400)) whoever else
  is at the table (the model orders players like independent exponential clocks with those rates), so
  this fit estimates the same ratings Plackett-Luce would (consistently; it is a little less efficient
  when the model holds exactly). What it adds: its intervals rest on the games' own dependence rather
  than on the model's, which real games (a bot good at not finishing last, a 2-against-1 game) need
  not follow; ties are half points, as in the cross-table, where Plackett-Luce has none; a rating
  difference is the Elo of the head-to-head score, the scale of `units.head_to_head_estimate` and of
  the SPRT between two players; and two-player results are unchanged.

  Not modelled: the games of one unit (one seed in every seat order) share their seed; they are taken
  as independent here, as two-player pairs' games always were.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations

import numpy as np
from openskill.models import PlackettLuce

from arena.games.base import head_to_head
from arena.stats.estimates import Z95
from arena.stats.units import seats_and_ranks

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


def ranked(game: dict) -> tuple[list[str], list[int]]:
    """(seats, ranks) of a game in either shape (see the module's docstring), checked."""
    if "seats" in game:
        return seats_and_ranks(game)
    return [game["blue"], game["orange"]], list(_RANKS[game["winner"]])


def openskill_ratings(games: list[dict], labels: list[str]) -> list[Rating]:
    """openskill_ratings(games, labels) -> [Rating(label, mu, sigma)], best first: OpenSkill's
    Plackett-Luce ratings after `games` (either shape, any number of seats) in their schedule's order
    where the games are a run's (`schedule_order`), else in theirs."""
    model = PlackettLuce()
    current = {label: model.rating(name=label) for label in labels}
    for game in schedule_order(games):
        seats, ranks = ranked(game)
        rated = model.rate([[current[label]] for label in seats], ranks=ranks)
        for label, [rating] in zip(seats, rated, strict=True):
            current[label] = rating
    ratings = [Rating(label, r.mu, r.sigma) for label, r in current.items()]
    return sorted(ratings, key=lambda r: r.mu, reverse=True)


def schedule_order(games: list[dict]) -> list[dict]:
    """A run's games in the order of its schedule (unit, lineup, seating), not the order they
    finished in: OpenSkill's ratings depend on the order of the games, and the same games of a run
    (played by two workers, or interrupted and resumed) rated the players differently, even in
    another order than their Elo. Games without a place in a schedule keep their order."""
    if not all("unit" in g and "lineup" in g and "seating" in g for g in games):
        return games
    return sorted(games, key=lambda g: (g["unit"], list(g["lineup"]), g["seating"]))


@dataclass(frozen=True)
class EloRating:
    label: str
    elo: float
    stderr: float

    @property
    def interval(self) -> tuple[float, float]:
        return self.elo - Z95 * self.stderr, self.elo + Z95 * self.stderr


def bradley_terry(games: list[dict], labels: list[str], prior_draws: float = 1.0) -> dict[str, EloRating]:
    """bradley_terry(games, labels, prior_draws=1.0) -> {label: EloRating(label, elo, stderr)}: Elo
    ratings (mean 0) with standard errors, by Newton's method on the log-likelihood."""
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
    """bradley_terry_fit(games, labels, prior_draws=1.0) -> BradleyTerryFit(ratings, covariance):
    `bradley_terry`'s ratings with their covariance, clustered by game where games have three seats
    or more (see the module's docstring). `games` in either shape, any number of seats."""
    results = PairwiseResults(labels)
    for game in games:
        results.add(game)
    return results.fit(prior_draws)


class PairwiseResults:
    """The head-to-head results of games as the Bradley-Terry fit reads them, kept up to date game
    by game, so that a live view (`arena league`, `arena serve`) refits without reading every game
    again. `fit()` after adding `games` is `bradley_terry_fit(games, labels)`, number for number."""

    def __init__(self, labels: list[str] = ()):
        self.labels: list[str] = []
        self.index: dict[str, int] = {}
        self.games = 0
        self._met: dict[tuple[int, int], list[float]] = {}  # (i, j), i < j -> [results, i's points]
        self._crowded: list[tuple[int, int, int, float]] = []  # (game, i, j, i's points) in games of 3+ seats
        for label in labels:
            self.add_label(label)

    def add_label(self, label: str) -> int:
        """`label`'s index, added (with no results) if it is new."""
        if label not in self.index:
            self.index[label] = len(self.labels)
            self.labels.append(label)
        return self.index[label]

    def add(self, game: dict) -> None:
        """Take one game in (either shape; its players must be labels already)."""
        seats, ranks = ranked(game)
        index, g = self.index, self.games
        for s, t in combinations(range(len(seats)), 2):
            i, j = index[seats[s]], index[seats[t]]
            got = head_to_head(ranks, s, t)
            if len(seats) > 2:
                self._crowded.append((g, i, j, got))
            if i > j:
                i, j, got = j, i, 1.0 - got
            tally = self._met.get((i, j))
            if tally is None:
                tally = self._met[i, j] = [0.0, 0.0]
            tally[0] += 1
            tally[1] += got
        self.games += 1

    def met(self, a: str, b: str) -> int:
        """Results between a and b so far (in N-player games, the games where both sat)."""
        i, j = sorted((self.index[a], self.index[b]))
        return int(self._met.get((i, j), (0, 0))[0])

    def _matrices(self, prior_draws: float) -> tuple[np.ndarray, np.ndarray]:
        n = len(self.labels)
        played = np.zeros((n, n))  # results between i and j
        scored = np.zeros((n, n))  # points of i against j
        for (i, j), (results, points) in self._met.items():
            played[i, j] = played[j, i] = results + prior_draws  # the prior: virtual draws
            scored[i, j] = points + prior_draws / 2
            scored[j, i] = results - points + prior_draws / 2
        return played, scored

    def elos(self, start: np.ndarray | None = None, prior_draws: float = 1.0) -> np.ndarray:
        """The fit's ratings alone, in `labels`' order, from `start` (earlier ratings: then a step
        or two): for a chart of ratings over time. Each Newton step solves the information with the
        ratings' sum pinned (and a ridge for players without games) instead of `fit()`'s
        pseudo-inverse: the same ratings to within 1e-6 Elo, at a fraction of the cost."""
        played, scored = self._matrices(prior_draws)
        n = len(self.labels)
        ratings = np.zeros(n)
        if start is not None:
            ratings[: len(start)] = start[:n]
        pin = np.full((n, n), 1.0 / max(n, 1)) + 1e-9 * np.eye(n)
        for _ in range(100):
            p = 1.0 / (1.0 + np.exp(-ELO_UNIT * (ratings[:, None] - ratings[None, :])))
            gradient = ELO_UNIT * (scored - played * p).sum(axis=1)
            weights = ELO_UNIT**2 * played * p * (1.0 - p)
            step = np.linalg.solve(np.diag(weights.sum(axis=1)) - weights + pin, gradient)
            ratings += step
            ratings -= ratings.mean()
            if np.abs(step).max() < 1e-9:
                break
        return ratings

    def fit(self, prior_draws: float = 1.0) -> BradleyTerryFit:
        n = len(self.labels)
        if not n:  # (a page with every player unticked, a league whose players all left)
            return BradleyTerryFit({}, np.zeros((0, 0)))
        played, scored = self._matrices(prior_draws)
        ratings = np.zeros(n)
        covariance = information = np.zeros((n, n))
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
        if self._crowded:
            covariance = _clustered(covariance, information, ratings, np.array(self._crowded), n)
        return BradleyTerryFit(
            {
                label: EloRating(label, float(ratings[i]), float(math.sqrt(max(covariance[i, i], 0.0))))
                for label, i in self.index.items()
            },
            covariance,
        )


def _clustered(covariance: np.ndarray, information: np.ndarray, ratings: np.ndarray, results: np.ndarray, n: int):
    """The sandwich covariance H^-1 J H^-1 (`covariance` is H^-1 on ratings that sum to 0) with
    J = H + the cross terms between results of one game: for each game, the products of its results'
    score contributions c (y - p) (e_i - e_j), two different results at a time. J is made positive
    semi-definite (negative eigenvalues, possible from few games, set to 0) so that every contrast
    has a variance."""
    game, i, j = (results[:, k].astype(int) for k in range(3))
    y = results[:, 3]
    residual = ELO_UNIT * (y - 1.0 / (1.0 + np.exp(-ELO_UNIT * (ratings[i] - ratings[j]))))
    per_game = np.zeros((int(game.max()) + 1, n))  # each game's score: its results' contributions summed
    np.add.at(per_game, (game, i), residual)
    np.add.at(per_game, (game, j), -residual)
    own = np.zeros((n, n))  # each result with itself, which H accounts for already
    r2 = residual**2
    np.add.at(own, (i, i), r2)
    np.add.at(own, (j, j), r2)
    np.add.at(own, (i, j), -r2)
    np.add.at(own, (j, i), -r2)
    score_variance = information + per_game.T @ per_game - own
    values, vectors = np.linalg.eigh(score_variance)
    score_variance = (vectors * np.clip(values, 0.0, None)) @ vectors.T
    return covariance @ score_variance @ covariance
