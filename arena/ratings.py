"""Ratings of every player from the games of a run, through OpenSkill (Weng-Lin Bayesian ratings).

The games are taken in the order they ended, as recorded, so the ratings of a run are the same every
time they are rebuilt from its database. Each rating is a mean and a standard deviation on
OpenSkill's scale (a new player starts at 25 +- 8.33); the 95% interval is mu +- 1.96 sigma.
"""
from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

from .stats import Z95


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
