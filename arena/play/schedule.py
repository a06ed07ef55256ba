"""Which games to play: pairings (a match, a round robin, a ladder, a gauntlet) and their seat-swapped pairs.

A job is one game. Its seeds come from the run seed and its place in the schedule alone, so a run
resumed from its database plays exactly the games it had not finished. Pair k of every pairing uses
the same game seed (the same random choices of the referee for everyone), played once with each
player in each seat; each player's bot gets its own seed for pair k.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations


@dataclass(frozen=True)
class Job:
    a: str  # the pairing's players, by label
    b: str
    pair: int  # index of the seat-swapped pair within the pairing
    swap: int  # 0: a plays blue (first), 1: b plays blue
    seed: int  # the referee's seed, shared by both games of the pair
    seed_a: int  # the bots' seeds
    seed_b: int

    @property
    def key(self) -> tuple[str, str, int, int]:
        return self.a, self.b, self.pair, self.swap

    @property
    def blue(self) -> str:
        return self.b if self.swap else self.a

    @property
    def orange(self) -> str:
        return self.a if self.swap else self.b

    @property
    def blue_seed(self) -> int:
        return self.seed_b if self.swap else self.seed_a

    @property
    def orange_seed(self) -> int:
        return self.seed_a if self.swap else self.seed_b


def derive_seed(run_seed: int, *parts) -> int:
    """A 31-bit seed from the run seed and a place in the schedule (stable across Python versions)."""
    text = ":".join(str(p) for p in (run_seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big") & 0x7FFFFFFF


def round_robin(labels: list[str]) -> list[tuple[str, str]]:
    return list(combinations(labels, 2))


def ladder(labels: list[str], reach: int = 2) -> list[tuple[str, str]]:
    """Each player against the next `reach` players of `labels` (ordered by expected strength):
    games go where the result is in doubt, between neighbours, and a player two rungs away ties
    the ratings together, rather than to walkovers between the ends of the ladder."""
    return [(a, b) for i, a in enumerate(labels) for b in labels[i + 1 : i + 1 + reach]]


def gauntlet(hero: str, labels: list[str]) -> list[tuple[str, str]]:
    return [(hero, other) for other in labels if other != hero]


def jobs(pairings: list[tuple[str, str]], run_seed: int, pairs: Iterable[int]) -> Iterator[Job]:
    """The games, pair index by pair index, so a partial run covers every pairing evenly."""
    for k in pairs:
        seed = derive_seed(run_seed, "game", k)
        for a, b in pairings:
            seed_a, seed_b = derive_seed(run_seed, "bot", a, k), derive_seed(run_seed, "bot", b, k)
            for swap in (0, 1):
                yield Job(a, b, k, swap, seed, seed_a, seed_b)
