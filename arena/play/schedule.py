"""Which games to play: lineups (a match, a round robin, a ladder, a gauntlet) and their units.

A lineup is the players of one game, in the schedule's order. A *unit* is one seed played by a
lineup in several seatings (`arena.stats.units.seatings`: by default a seat-swapped pair for two
players): the games of one seed depend on each other, so the statistics count units, not games.
A job is one game: its lineup, its unit, its seating.

Seeds come from the run seed and the place in the schedule alone, so a run resumed from its
database plays exactly the games it had not finished. Unit k of every lineup uses the same game seed
(the same random choices of the referee for everyone); each player's bot gets its own seed for unit k.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations

from arena.stats.units import seatings


@dataclass(frozen=True)
class Job:
    lineup: tuple[str, ...]  # the unit's players, by label, in the schedule's order
    unit: int  # index of the unit (its seed) within the lineup's units
    seating: int  # which of the unit's seatings this game is (0: the lineup's own order)
    seats: tuple[str, ...]  # who sits where, seat 0 (the first player) first
    seed: int  # the referee's seed, shared by every game of the unit
    bot_seeds: tuple[int, ...]  # each seat's bot's seed

    @property
    def key(self) -> tuple[tuple[str, ...], int, int]:
        return self.lineup, self.unit, self.seating


def derive_seed(run_seed: int, *parts) -> int:
    """A 31-bit seed from the run seed and a place in the schedule (stable across Python versions)."""
    text = ":".join(str(p) for p in (run_seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big") & 0x7FFFFFFF


def round_robin(labels: list[str], seats: int = 2) -> list[tuple[str, ...]]:
    """Every lineup of `seats` players drawn from `labels`."""
    return list(combinations(labels, seats))


def ladder(labels: list[str], reach: int = 2) -> list[tuple[str, str]]:
    """Each player against the next `reach` players of `labels` (ordered by expected strength):
    games go where the result is in doubt, between neighbours, and a player two rungs away ties
    the ratings together, rather than to walkovers between the ends of the ladder."""
    return [(a, b) for i, a in enumerate(labels) for b in labels[i + 1 : i + 1 + reach]]


def gauntlet(hero: str, labels: list[str], seats: int = 2) -> list[tuple[str, ...]]:
    """The hero with every lineup of the others that fills a game."""
    others = [label for label in labels if label != hero]
    return [(hero, *rest) for rest in combinations(others, seats - 1)]


def unit_seed(run_seed: int, k: int, seeds: list[int] | None = None) -> int:
    """The referee's seed of unit k: the k-th of the run's seed list where it has one (`--seeds
    FILE`), else derived from the run seed."""
    return seeds[k] if seeds else derive_seed(run_seed, "game", k)


def jobs(
    lineups: list[tuple[str, ...]],
    run_seed: int,
    units: Iterable[int],
    how: str = "rotations",
    seeds: list[int] | None = None,
) -> Iterator[Job]:
    """The games, unit index by unit index, so a partial run covers every lineup evenly; unit k's
    seed is `unit_seed(run_seed, k, seeds)`."""
    for k in units:
        seed = unit_seed(run_seed, k, seeds)
        for lineup in lineups:
            lineup = tuple(lineup)
            bot_seed = {label: derive_seed(run_seed, "bot", label, k) for label in lineup}
            for s, seats in enumerate(seatings(lineup, how)):
                yield Job(lineup, k, s, seats, seed, tuple(bot_seed[label] for label in seats))
