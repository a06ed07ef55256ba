"""Two players' head-to-head results in N-player games, unit by unit: the score, its Elo difference
with a 95% interval, and the SPRT between them.

A game, as these functions read it, is a dict with at least

    seats: list[str]   the players' labels, seat 0 first (each label at most once)
    ranks: list[int]   each seat's rank, 0 best; equal ranks tie
    unit:  hashable    the unit it belongs to (JSON's lists are taken as tuples)

A *unit* is one seed played by a lineup in several seatings, the same players in every game of it,
each in every seat. By default the seatings are *balanced*: for two players, a seat-swapped pair (each
player once on each side); for more, every rotation of the lineup and every rotation of it reversed
(2N games), so that each player sits in each seat equally often *and* each of two players moves
before the other equally often. Rotations alone (N games) give every seat to everyone but not every
order: in a rotation of (a, b, c), a moves before b in two games of three, which favours whoever
gains from moving first in a head-to-head. Every permutation (N! games) is the other choice. A unit counts only once all its `unit_games` games are in; a unit left short by
a referee failure never counts, since its players would not have sat in every seat.

The statistic. In one game, a scores 1, 1/2 or 0 against b as a ranks above, level with or below b
(`arena.games.base.head_to_head`; the other players' places do not matter). A unit's score of a
against b is the mean of that over the unit's games: one of the 2m + 1 values k / 2m for m games. The
units where both sit are the observations; their mean estimates a's expected score against b, and the
spread of the unit scores gives its error (`estimates.unit_estimate`). The SPRT is Fishtest's
generalized SPRT with the normal approximation, on the empirical distribution of the unit scores
(`estimates.unit_llr`): for two players this is the pentanomial SPRT, number for number.

Why units and not games: the games of one seed are dependent. A seed that favours a seat, or suits one
bot's strategy, moves every game of its unit together, so counting games as independent would misstate
the variance; counting whole units keeps each seed's shared luck inside one observation (and, because
every player takes every seat, cancels the seats' advantage out of its mean).

The Elo of a head-to-head score s is the difference d with 1 / (1 + 10^(-d / 400)) = s. If the games
follow a Plackett-Luce model with strengths 10^(r / 400), a ranks above b with probability exactly
1 / (1 + 10^((r_b - r_a) / 400)) whoever else sits at the table (Plackett-Luce orders the players like
independent exponential clocks with those rates), so d is then the difference of the players'
ratings (`ratings.bradley_terry_fit`), and elo0, elo1 of the SPRT are read on that scale.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from itertools import permutations

from arena.games.base import head_to_head
from arena.stats.estimates import Estimate, SprtState, unit_estimate, unit_sprt_state

SEATINGS = ("balanced", "rotations", "permutations")  # how a unit seats its lineup


def game_key(record: dict) -> tuple[tuple[str, ...], int, int]:
    """A stored game's or failure's place in its schedule, (lineup, unit, seating): `Job.key`'s."""
    return tuple(record["lineup"]), record["unit"], record["seating"]


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


def seats_and_ranks(game: dict) -> tuple[list[str], list[int]]:
    """A game's (seats, ranks), checked: as many ranks as seats, each player in one seat."""
    seats, ranks = list(game["seats"]), list(game["ranks"])
    if len(seats) < 2 or len(seats) != len(ranks):
        raise ValueError(f"a game has two or more seats and a rank for each, not seats {seats} and ranks {ranks}")
    if len(set(seats)) != len(seats):
        raise ValueError(f"a player sits in one seat of a game, not in several: {seats}")
    return seats, ranks


def _key(unit) -> Hashable:
    return tuple(unit) if isinstance(unit, list) else unit


@dataclass
class _Partial:
    players: frozenset[str]
    games: int = 0
    half_points: int = 0  # a's against b, in the games so far (when both sit)


class HeadToHead:
    """The head-to-head unit counts of a against b, kept up to date game by game (in the order the
    games ended, so that an SPRT's course can be replayed): `counts[k]` = complete units where both
    sit in which a scored k / (2 * unit_games) per game against b. `len(counts)` is 2 * unit_games + 1;
    for two players (unit_games 2) the counts are the pentanomial."""

    def __init__(self, a: str, b: str, unit_games: int):
        if a == b:
            raise ValueError(f"a head-to-head needs two players, not {a} twice")
        if unit_games < 1:
            raise ValueError(f"a unit has one game or more, not {unit_games}")
        self.a, self.b, self.unit_games = a, b, unit_games
        self.counts = [0] * (2 * unit_games + 1)
        self._open: dict[Hashable, _Partial] = {}
        self._done: set[Hashable] = set()

    def add(self, game: dict) -> bool:
        """Take `game` in; True when it completed a unit where both a and b sit."""
        seats, ranks = seats_and_ranks(game)
        key = _key(game["unit"])
        if key in self._done:
            raise ValueError(f"unit {key!r} has more than its {self.unit_games} games")
        players = frozenset(seats)
        unit = self._open.setdefault(key, _Partial(players))
        if unit.players != players:
            raise ValueError(f"unit {key!r} seats {sorted(unit.players)} in one game and {sorted(players)} in another")
        unit.games += 1
        both = self.a in players and self.b in players
        if both:
            unit.half_points += round(2 * head_to_head(ranks, seats.index(self.a), seats.index(self.b)))
        if unit.games < self.unit_games:
            return False
        del self._open[key]
        self._done.add(key)
        if both:
            self.counts[unit.half_points] += 1
        return both


def head_to_head_counts(games: Iterable[dict], a: str, b: str, unit_games: int) -> list[int]:
    """counts[k] = complete units where both a and b sit in which a scored k / (2 * unit_games) per
    game against b (2 * unit_games + 1 counts; the pentanomial for two-player pairs)."""
    counter = HeadToHead(a, b, unit_games)
    for game in games:
        counter.add(game)
    return counter.counts


def head_to_head_estimate(games: Iterable[dict], a: str, b: str, unit_games: int) -> Estimate:
    """a's score against b per game (0..1) over the complete units where both sit, its standard error
    from the spread of the unit scores, and the Elo difference with its 95% interval
    (`Estimate.elo`, `Estimate.elo_interval`); `n` counts units. For two-player pairs it is
    `pentanomial_estimate` of their pentanomial, exactly."""
    return unit_estimate(head_to_head_counts(games, a, b, unit_games))


def head_to_head_sprt(
    games: Iterable[dict],
    a: str,
    b: str,
    unit_games: int,
    elo0: float,
    elo1: float,
    alpha: float = 0.05,
    beta: float = 0.05,
) -> SprtState:
    """The SPRT of H1 (a is elo1 stronger than b) against H0 (elo0) after the complete units where both
    sit; `verdict` is "H1", "H0" or None. For two-player pairs it is `sprt_state` of their pentanomial,
    exactly. To follow the test as games end, feed a `HeadToHead` and call
    `unit_sprt_state(counter.counts, elo0, elo1, alpha, beta)` whenever `add` returns True."""
    return unit_sprt_state(head_to_head_counts(games, a, b, unit_games), elo0, elo1, alpha, beta)
