"""Which lineup a league plays next: games go where they inform.

A league plays whole units (one seed in every seating of a lineup: a seat-swapped pair for two
players), and before each unit it asks `choose` for the lineup, in this order:

1. A newcomer first. An active player with fewer than NEW_UNITS units plays at once, the one with
   fewest first; its opponents are the active players whose current Elo is nearest its own (a
   newcomer without games sits at the mean, 0), each unit already played against it counting as
   PLAYED_PENALTY Elo further away: it climbs or falls through the table like a binary search and
   meets several players on its way. (`--mode leader`: it plays the leader instead.)
2. `--mode leader` only: the newest active player whose place against the leader (the best of the
   others) is still in doubt, the 95% interval of their Elo gap holding 0, plays the leader, until
   that interval excludes 0 or they have played LEADER_UNITS units together.
3. Otherwise, where the order is least certain. The active players are put in the Bradley-Terry
   order; the candidates are the lineups of N players drawn from N + 1 neighbours in that order (for
   two players: each player with the next and the one after it, the ladder of `arena tournament`).
   A lineup's doubt is the largest, over its members next to each other in the order, of

       Z95 * stderr(gap) / max(|gap|, RESOLUTION)

   the half-width of the 95% interval of their Elo gap relative to the gap itself: above 1 while the
   games have settled neither their order (the interval holds 0) nor their gap to within RESOLUTION
   Elo either side, at most 1 once they have settled either. So two bots of equal strength, whose
   order no number of games settles, stop taking games from the pairs still open once they are known
   to be within RESOLUTION of each other. The interval is the narrower of the fit's and the pair's
   own units' (`UnitResults`): the fit counts every game as independent, but the games of a unit
   share their seed, and two bots that play a seed the same way each time (deterministic bots) split
   every seat-swapped pair, which their units show and the fit never does. (Two such bots, equal,
   took 226 of 438 games of a league, their gap settled by their units at +0 [-11, +11] while the fit
   still said +-45, and their doubt, over |gap| + RESOLUTION then, fell below 1 only past 1,100 games.)
   Units already in flight count as played (a pair's stderr shrinks as 1 / sqrt(units)), so that
   the workers' games spread over the doubtful pairs rather than all going to the first.

A lineup whose seeds are used up (a league on a seed file) is never chosen; `choose` returns None
when no lineup can be played (fewer active players than seats).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations

from arena.stats.estimates import Z95
from arena.stats.ratings import BradleyTerryFit
from arena.stats.tables import UnitCounter

NEW_UNITS = 4  # units a newcomer plays before the uncertainty rule takes over
PLAYED_PENALTY = 25.0  # Elo: how much further a newcomer's past opponent counts, per unit they played
LEADER_UNITS = 100  # units of a version against the leader, at most, in --mode leader
RESOLUTION = 20.0  # Elo: a gap this small is as good as none
MODES = ("uncertain", "leader")


class UnitResults:
    """The head-to-head of every two players over the complete units where both sat, kept up to
    date game by game (`arena.stats.tables.UnitCounter`): their own games' evidence, each unit one
    observation."""

    def __init__(self, unit_games: int):
        self.unit_games = unit_games  # games in one unit of the league
        self._pairs: dict[tuple[str, str], UnitCounter] = {}

    def add(self, record: dict) -> None:
        """Take one stored game in (its lineup and unit say which unit it is of)."""
        for a, b in combinations(sorted(record["seats"]), 2):
            pair = self._pairs.get((a, b))
            if pair is None:
                pair = self._pairs[a, b] = UnitCounter(a, b, self.unit_games)
            pair.add(record)

    def half_width(self, a: str, b: str) -> float:
        """Half the width of the 95% interval of a's Elo over b from their complete units together
        (infinite before their first, or while the interval reaches a sweep's infinite end)."""
        pair = self._pairs.get(tuple(sorted((a, b))))
        if pair is None or not sum(pair.counts):
            return math.inf
        low, high = pair.estimate().elo_interval
        return (high - low) / 2


@dataclass
class Standing:
    """What matchmaking knows of the league now."""

    active: list[str]  # the players that may play, in the order they joined
    seats: int
    fit: BradleyTerryFit | None  # the current ratings (None before any game)
    units: dict[tuple[str, ...], int] = field(default_factory=dict)  # lineup -> units begun (in flight too)
    in_flight: dict[tuple[str, ...], int] = field(default_factory=dict)  # lineup -> units not finished
    playable: Callable[[tuple[str, ...]], bool] = lambda lineup: True  # False once its seeds are used up
    unit_results: UnitResults | None = None  # the pairs' own units (None: the fit's intervals alone)

    def lineup(self, players) -> tuple[str, ...]:
        """A lineup's one spelling: its players in the order they joined."""
        joined = {label: i for i, label in enumerate(self.active)}
        return tuple(sorted(players, key=joined.__getitem__))

    def units_of(self, label: str) -> int:
        return sum(n for lineup, n in self.units.items() if label in lineup)

    def together(self, a: str, b: str) -> int:
        """Units begun where both a and b sit."""
        return sum(n for lineup, n in self.units.items() if a in lineup and b in lineup)

    def elo(self, label: str) -> float:
        if self.fit is None or label not in self.fit.ratings:
            return 0.0
        return self.fit.ratings[label].elo

    def order(self) -> list[str]:
        """The active players best first (those the fit does not know yet at the mean)."""
        return sorted(self.active, key=lambda label: -self.elo(label))


def choose(state: Standing, mode: str = "uncertain") -> tuple[str, ...] | None:
    """The lineup of the next unit (see the module's docstring), or None."""
    if len(state.active) < state.seats:
        return None
    for newcomer in sorted(
        (label for label in state.active if state.units_of(label) < NEW_UNITS),
        key=lambda label: (state.units_of(label), state.active.index(label)),
    ):
        lineup = _newcomer(state, newcomer, mode)
        if lineup:
            return lineup
    if mode == "leader":
        lineup = _against_leader(state)
        if lineup:
            return lineup
    return _most_doubtful(state)


def _newcomer(state: Standing, hero: str, mode: str) -> tuple[str, ...] | None:
    others = [label for label in state.active if label != hero]
    if mode == "leader":
        ranked = [label for label in state.order() if label != hero]
        options = [ranked[: state.seats - 1]]
    else:
        mine = state.elo(hero)

        def distance(label: str) -> tuple[float, int]:
            return abs(state.elo(label) - mine) + PLAYED_PENALTY * state.together(hero, label), others.index(label)

        nearest = sorted(others, key=distance)
        # The nearest that fill a game; if their lineup's seeds are used up, the next nearest.
        options = [nearest[i : i + state.seats - 1] for i in range(len(nearest) - state.seats + 2)]
    for option in options:
        lineup = state.lineup([hero, *option])
        if len(lineup) == state.seats and state.playable(lineup):
            return lineup
    return None


def gap_doubt(state: Standing, a: str, b: str) -> float:
    """The half-width of the 95% interval of a's gap to b (the fit's, or their units' where narrower)
    over max(|gap|, RESOLUTION), their units in flight counted as played."""
    if state.fit is None or a not in state.fit.ratings or b not in state.fit.ratings:
        return math.inf
    gap = state.fit.gap(a, b)
    half_width = Z95 * gap.stderr
    if state.unit_results is not None:
        half_width = min(half_width, state.unit_results.half_width(a, b))
    flying = sum(n for lineup, n in state.in_flight.items() if a in lineup and b in lineup)
    played = max(state.together(a, b) - flying, 1)
    return half_width * math.sqrt(played / (played + flying)) / max(abs(gap.elo), RESOLUTION)


def _most_doubtful(state: Standing) -> tuple[str, ...] | None:
    order = state.order()
    n = state.seats
    best, best_doubt = None, -1.0
    seen = set()
    for start in range(max(1, len(order) - n)):
        window = order[start : start + n + 1]
        for members in combinations(window, n):  # in the order's order
            lineup = state.lineup(members)
            if lineup in seen or len(lineup) < n or not state.playable(lineup):
                continue
            seen.add(lineup)
            doubt = max(gap_doubt(state, a, b) for a, b in zip(members, members[1:], strict=False))
            if doubt > best_doubt:
                best, best_doubt = lineup, doubt
    return best


def _against_leader(state: Standing) -> tuple[str, ...] | None:
    order = state.order()
    for hero in reversed(state.active):  # the newest first
        others = [label for label in order if label != hero]
        leader = others[0]
        if state.together(hero, leader) >= LEADER_UNITS:
            continue
        if state.fit is not None and hero in state.fit.ratings and leader in state.fit.ratings:
            low, high = state.fit.gap(hero, leader).interval
            if low > 0 or high < 0:
                continue  # settled
        lineup = state.lineup([hero, *others[: state.seats - 1]])
        if state.playable(lineup):
            return lineup
    return None
