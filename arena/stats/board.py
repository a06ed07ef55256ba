"""A run's leaderboard kept up to date game by game, for the live views: `arena league` (its
matchmaking, `arena league status`), `arena serve`'s page, and `arena report --csv / --json`.

Its numbers are the text report's (`arena/stats/tables.py`): each player's W-D-L, score, errors and
time per turn (`count_game`), the Bradley-Terry ratings with their 95% intervals (`PairwiseResults`,
the fit of `bradley_terry_fit`), the cross-table's head-to-head scores; and besides, the mean of each
[PDATA] and [TDATA] a bot emitted (per player: over the games it played) and the ratings' history.

A board may look at part of the games: those among a subset of the players (every seat one of them),
and those whose emitted data meet a condition (`DataFilter`). The fit is what costs: it is made again
only once games were added since the last one (`fit()` caches by the count), never per look.
"""

from __future__ import annotations

import math
import operator
import re
from collections import defaultdict, deque
from collections.abc import Iterable

import numpy as np

from threadpoolctl import threadpool_limits

from arena.games.base import head_to_head
from arena.stats.ratings import BradleyTerryFit, PairwiseResults
from arena.stats.tables import ERROR_KINDS, PlayerLine, count_game

HISTORY_POINTS = 100  # the most points of the ratings' history a board keeps (thinned as games come)
_OPERATORS = {
    "=": operator.eq,
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
_CONDITION = re.compile(r"^\s*(tdata|pdata)\.([^=<>!]+?)\s*(==|=|!=|<=|>=|<|>)\s*(.*?)\s*$")
# and, or, & or | followed by another condition's name or operator: a second condition, not a text value
_ANOTHER = re.compile(r"(\band\b|\bor\b|&|\|).*(\b(tdata|pdata)\.|[=<>])", re.IGNORECASE)


def one_blas_thread() -> None:
    """Keep BLAS to one thread in this process from now on. A live view refits matrices of a few
    hundred rows at most, where BLAS's threads only contend with each other and with the games being
    played (a 100-player fit took seconds instead of a tenth on a busy machine)."""
    threadpool_limits(1, user_api="blas")


class DataFilterError(ValueError):
    """A data condition that cannot be read; the message says how to write one."""


class DataFilter:
    """`tdata.NAME OP VALUE` or `pdata.NAME OP VALUE` (OP one of = != < <= > >=): a game passes when
    its [TDATA] NAME (or any seat's [PDATA] NAME) compares so with VALUE; a game without NAME does
    not. VALUE is a number where it reads as one (then only numbers compare), else text. One
    condition only: two joined by and/or (& or |) are refused, not read as a text value."""

    def __init__(self, text: str):
        match = _CONDITION.match(text)
        if not match:
            raise DataFilterError(f"not a data condition: {text!r} (write e.g. tdata.size >= 10 or pdata.depth = 3)")
        self.text = text.strip()
        self.kind, self.name, op, value = match.groups()
        if not value:
            raise DataFilterError(f"{text!r}: a value is missing after {op}")
        if _ANOTHER.search(f"{self.name} {value}"):
            raise DataFilterError(f"{text!r}: one condition only (and/or are not supported)")
        self.compare = _OPERATORS[op]
        try:
            self.value: float | str = float(value)
        except ValueError:
            if op not in ("=", "==", "!="):
                raise DataFilterError(f"{text!r}: text compares with = or != only") from None
            self.value = value

    def _holds(self, value) -> bool:
        if isinstance(self.value, float):
            return isinstance(value, int | float) and self.compare(value, self.value)
        return isinstance(value, str) and self.compare(value, self.value)

    def passes(self, game: dict) -> bool:
        data = game.get("data") or {}
        if self.kind == "tdata":
            tdata = data.get("tdata") or {}
            return self.name in tdata and self._holds(tdata[self.name])
        return any(self.name in seat and self._holds(seat[self.name]) for seat in data.get("pdata") or [])


class Board:
    """The leaderboard of the games added so far (those among `players` if given, and passing
    `where` if given). `expected` games sets the spacing of the history's points when a whole file is
    read at once; `latest` is how many of the last games it keeps (as given) for a list."""

    def __init__(
        self,
        players: Iterable[str] | None = None,
        where: DataFilter | None = None,
        *,
        expected: int = 0,
        history: bool = True,
        latest: int = 0,
    ):
        self.subset = None if players is None else set(players)
        self.where = where
        self.results = PairwiseResults(sorted(self.subset) if self.subset is not None else ())
        self.lines: dict[str, PlayerLine] = {label: PlayerLine(label) for label in self.results.labels}
        self.cross: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0])  # points, games
        self.tdata: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(lambda: [0.0, 0]))
        self.data_names: set[str] = set()  # "pdata.NAME" and "tdata.NAME" seen
        self.count = 0
        self.latest: deque[dict] = deque(maxlen=latest or None) if latest else deque(maxlen=0)
        self.history: list[tuple[int, np.ndarray]] | None = [] if history else None
        self._step = max(1, math.ceil(expected / HISTORY_POINTS))
        self._timings: dict[str, tuple[int, dict]] = {}
        self._fit: BradleyTerryFit | None = None
        self._fitted_at = -1

    def know(self, label: str) -> None:
        """List `label` among the players even before its first game."""
        if label not in self.lines:
            self.lines[label] = PlayerLine(label)
            self.results.add_label(label)

    def wants(self, game: dict) -> bool:
        if self.subset is not None and not self.subset.issuperset(game["seats"]):
            return False
        return self.where is None or self.where.passes(game)

    def add(self, game: dict) -> bool:
        """Take one game in (a store's record); False if the board does not look at it."""
        if not self.wants(game):
            return False
        seats = game["seats"]
        for label in seats:
            self.know(label)
        count_game(self.lines, game)
        self.results.add(game)
        ranks = game["ranks"]
        for i, me in enumerate(seats):
            for j, them in enumerate(seats):
                if i != j:
                    cell = self.cross[me, them]
                    cell[0] += head_to_head(ranks, i, j)
                    cell[1] += 1
        data = game.get("data") or {}
        for seat in data.get("pdata") or []:
            self.data_names.update(f"pdata.{name}" for name in seat)
        for name, value in (data.get("tdata") or {}).items():
            self.data_names.add(f"tdata.{name}")
            if isinstance(value, int | float):
                for label in seats:
                    cell = self.tdata[label][name]
                    cell[0] += value
                    cell[1] += 1
        self.count += 1
        if self.latest.maxlen:
            self.latest.append(game)
        if self.history is not None and self.count % self._step == 0:
            self._snapshot()
        return True

    def _snapshot(self) -> None:
        start = self.history[-1][1] if self.history else None
        self.history.append((self.count, self.results.elos(start)))
        if len(self.history) > HISTORY_POINTS:  # twice as far apart from now on
            self._step *= 2
            self.history = [(n, elos) for n, elos in self.history if n % self._step == 0]

    def fit(self) -> BradleyTerryFit:
        """The Bradley-Terry fit of the games so far (made again only when games were added)."""
        if self._fitted_at != self.count:
            self._fit = self.results.fit()
            self._fitted_at = self.count
        return self._fit

    def order(self) -> list[str]:
        """The players best first by Elo (those without a game last, by name)."""
        ratings = self.fit().ratings
        played = [label for label in self.lines if self.lines[label].games]
        idle = sorted(label for label in self.lines if not self.lines[label].games)
        return sorted(played, key=lambda label: -ratings[label].elo) + idle

    def rows(self) -> list[dict]:
        """One row per player, best first: rank, Elo, its standard error and 95% interval, the gap to
        the next player down with its interval, results, errors, time per turn after the first
        (ms: median, p99, max; None where the referee kept the clock) and the first turn's max, and
        the means of its [PDATA] and of the [TDATA] of its games."""
        ratings, fit = self.fit().ratings, self.fit()
        order = self.order()
        rows = []
        for k, label in enumerate(order):
            line = self.lines[label]
            row: dict = {"rank": k + 1 if line.games else None, "label": label, "games": line.games}
            if line.games:
                r = ratings[label]
                row.update(elo=r.elo, stderr=r.stderr, low=r.interval[0], high=r.interval[1])
            else:
                row.update(elo=None, stderr=None, low=None, high=None)
            below = order[k + 1] if k + 1 < len(order) else None
            if line.games and below and self.lines[below].games:
                gap = fit.gap(label, below)
                row["gap"] = {"elo": gap.elo, "low": gap.interval[0], "high": gap.interval[1]}
            else:
                row["gap"] = None
            row.update(
                wins=line.wins,
                draws=line.draws,
                losses=line.losses,
                score=line.score if line.games else None,
                **{kind: line.errors[kind] for kind in ERROR_KINDS},
                forfeits=sum(line.errors.values()),
            )
            row.update(self._timing(line))
            data = {f"pdata.{name}": sum(v) / len(v) for name, v in line.data.items() if v}
            data.update({f"tdata.{name}": s / n for name, (s, n) in self.tdata.get(label, {}).items() if n})
            row["data"] = data
            row["versions"] = sorted(v for v in line.versions if v)
            rows.append(row)
        return rows

    def _timing(self, line: PlayerLine) -> dict:
        """A player's time per turn after the first (median, p99, max: `tables.quantile`'s nearest
        ranks, found by partition) and its first turn's max; made again only when it played since."""
        cached = self._timings.get(line.label)
        if cached is not None and cached[0] == len(line.later_turns) + len(line.first_turns):
            return cached[1]
        later = np.asarray(line.later_turns, dtype=float)
        n = len(later)
        timing = {"ms_median": None, "ms_p99": None, "ms_max": None}
        if n:
            ranks = [max(0, math.ceil(q * n) - 1) for q in (0.5, 0.99)] + [n - 1]
            picked = np.partition(later, ranks)[ranks]
            timing = dict(zip(("ms_median", "ms_p99", "ms_max"), map(float, picked), strict=True))
        timing["first_turn_max"] = max(line.first_turns) if line.first_turns else None
        self._timings[line.label] = (len(line.later_turns) + len(line.first_turns), timing)
        return timing

    def cross_table(self, order: list[str]) -> dict:
        """{"order": players, "score": [[row's score against column, or None]], "games": [[n]]}."""
        score, games = [], []
        for me in order:
            cells = [self.cross.get((me, them)) if me != them else None for them in order]
            score.append([c[0] / c[1] if c and c[1] else None for c in cells])
            games.append([c[1] if c else 0 for c in cells])
        return {"order": order, "score": score, "games": games}

    def history_series(self, labels: list[str]) -> dict:
        """{"games": [count at each point], "elo": {label: [Elo at each point, None before it played]}}."""
        points = list(self.history or [])
        if self.count and (not points or points[-1][0] != self.count):
            points.append((self.count, self.results.elos(points[-1][1] if points else None)))
        index = self.results.index
        series = {}
        for label in labels:
            i = index.get(label)
            series[label] = [float(elos[i]) if i is not None and i < len(elos) else None for _, elos in points]
        return {"games": [n for n, _ in points], "elo": series}
