"""Which games to play: lineups (a match, a round robin, a ladder, a gauntlet) and their units.

A lineup is the players of one game, in the schedule's order. A *unit* is one seed played by a
lineup in several seatings: the games of one seed depend on each other, so the statistics count
units, not games. By default the seatings are *balanced*: for two players, a seat-swapped pair (each
player once on each side); for more, every rotation of the lineup and every rotation of it reversed
(2N games), so that each player sits in each seat equally often *and* each of two players moves
before the other equally often. Rotations alone (N games) give every seat to everyone but not every
order: in a rotation of (a, b, c), a moves before b in two games of three, which favours whoever
gains from moving first in a head-to-head. Every permutation (N! games) is the other choice.
A job is one game: its lineup, its unit, its seating.

Seeds come from the run seed and the place in the schedule alone, so a run resumed from its
database plays exactly the games it had not finished. Unit k of every lineup uses the same game seed
(the same random choices of the referee for everyone); each player's bot gets its own seed for unit k.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations, permutations

SEATINGS = ("balanced", "rotations", "permutations")  # how a unit seats its lineup


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


def seatings(lineup: tuple[str, ...], how: str = "balanced") -> list[tuple[str, ...]]:
    """The seatings of one unit (see the module's docstring); for two players each way gives the
    lineup and its swap."""
    if how not in SEATINGS:
        raise ValueError(f"unknown seating {how!r}: one of {', '.join(SEATINGS)}")
    if how == "permutations":
        return list(permutations(lineup))
    rotations = [lineup[r:] + lineup[:r] for r in range(len(lineup))]
    if how == "rotations" or len(lineup) == 2:
        return rotations
    backwards = lineup[::-1]
    return rotations + [backwards[r:] + backwards[:r] for r in range(len(lineup))]


def unit_games(seats: int, how: str = "balanced") -> int:
    """Games in one unit of a lineup of `seats` players."""
    return len(seatings(tuple(range(seats)), how))


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


def read_seeds(path: str) -> list[int]:
    """The seeds of a seed file, as CGBenchmark takes them: one integer a line (blank lines and
    `#` comments skipped). Unit k of a run plays the k-th; a run never plays more units than the
    file has seeds (a seed played twice would count the same game twice)."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as exc:
        raise ValueError(f"cannot read the seed file {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ValueError(f"the seed file {path} is not text") from None
    seeds = []
    for number, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            seeds.append(int(text))
        except ValueError:
            raise ValueError(f"{path}, line {number}: {text!r} is not an integer seed") from None
    if not seeds:
        raise ValueError(f"the seed file {path} has no seed")
    return seeds


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
