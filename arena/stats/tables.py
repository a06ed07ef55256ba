"""Text reports, computed from a run's games alone: per-player results with errors counted apart,
ratings with intervals, the cross-table, each pairing's Elo difference, and the SPRT's course."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from arena.stats.ratings import bradley_terry_fit, openskill_ratings
from arena.stats.estimates import SprtState, pentanomial_estimate, sprt_state

ERROR_KINDS = ("timeout", "invalid", "crash")  # a bot that cannot start counts as a crash


def points(game: dict, label: str) -> float:
    """What `label` scored in `game`: 1, 0.5 or 0."""
    if game["winner"] == "draw":
        return 0.5
    return 1.0 if game[game["winner"]] == label else 0.0


@dataclass
class PlayerLine:
    label: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    errors: Counter = field(default_factory=Counter)
    first_turns: list = field(default_factory=list)  # ms of each game's first turn
    later_turns: list = field(default_factory=list)  # ms of every other turn
    versions: set = field(default_factory=set)

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else math.nan


def player_lines(games: list[dict], labels: list[str]) -> dict[str, PlayerLine]:
    lines = {label: PlayerLine(label) for label in labels}
    for game in games:
        for colour in ("blue", "orange"):
            line = lines[game[colour]]
            line.games += 1
            line.versions.add(game[f"{colour}_version"])
            p = points(game, game[colour])
            line.wins += p == 1.0
            line.draws += p == 0.5
            line.losses += p == 0.0
            error = game[f"{colour}_error"]
            if error:
                line.errors["crash" if error not in ERROR_KINDS else error] += 1
            times = [float(t) for t in (game[f"{colour}_ms"] or "").split()]
            line.first_turns += times[:1]
            line.later_turns += times[1:]
    return lines


class PairCounter:
    """The pentanomial of the pairing (a, b), kept up to date game by game: pairs by a's points in
    the pair (0, 1/2, .., 2 -> index 0..4). A pair with one game played so far does not count."""

    def __init__(self, a: str, b: str):
        self.a, self.b = a, b
        self.counts = [0] * 5
        self._half: dict[int, float] = {}

    def add(self, game: dict) -> bool:
        """Count `game` if it belongs to the pairing; True when it completed a pair."""
        if game["a"] != self.a or game["b"] != self.b:
            return False
        k, got = game["pair"], points(game, self.a)
        if k not in self._half:
            self._half[k] = got
            return False
        self.counts[round(2 * (self._half.pop(k) + got))] += 1
        return True


def pentanomial(games: list[dict], a: str, b: str) -> list[int]:
    counter = PairCounter(a, b)
    for game in games:
        counter.add(game)
    return counter.counts


class SprtCourse:
    """The SPRT of the pairing (a, b) as the run saw it: pairs counted in the order they completed;
    `decided` is the state when a bound was first crossed (None until then)."""

    def __init__(self, a: str, b: str, elo0: float, elo1: float, alpha: float, beta: float):
        self.pairs = PairCounter(a, b)
        self.params = elo0, elo1, alpha, beta
        self.state = sprt_state(self.pairs.counts, *self.params)
        self.decided: SprtState | None = None
        self.history: list[SprtState] = []  # the state after each completed pair

    def add(self, game: dict) -> None:
        if self.pairs.add(game):
            self.state = sprt_state(self.pairs.counts, *self.params)
            self.history.append(self.state)
            if self.decided is None and self.state.verdict:
                self.decided = self.state


def sprt_course(games: list[dict], config: dict) -> SprtCourse:
    (a, b), sprt = config["pairings"][0], config["sprt"]
    course = SprtCourse(a, b, sprt["elo0"], sprt["elo1"], sprt["alpha"], sprt["beta"])
    for game in games:
        course.add(game)
    return course


# ---------------------------------------------------------------- formatting


def fmt_elo(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{round(value):+d}"


def fmt_elo_interval(low: float, high: float) -> str:
    """`[low, high]`, or a one-sided bound (`< -234`) where one end is infinite."""
    if math.isinf(low) and math.isinf(high):
        return "unbounded"
    if math.isinf(low):
        return f"< {fmt_elo(high)}"
    if math.isinf(high):
        return f"> {fmt_elo(low)}"
    return f"[{fmt_elo(low)}, {fmt_elo(high)}]"


def fmt_estimate(est) -> tuple[str, str]:
    """(Elo, its 95% interval) of a score estimate as the tables show them. At 0% or 100% the Elo
    difference itself is infinite, so the Elo column shows the interval's one-sided bound."""
    if not est.n:
        return "-", "-"
    interval = fmt_elo_interval(*est.elo_interval)
    if math.isinf(est.elo):
        return interval, "one-sided"
    return fmt_elo(est.elo), interval


def table(rows: list[list[str]], header: list[str]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    lines = [
        "  ".join(str(c).rjust(w) if i else str(c).ljust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True)))
        for r in [header, *rows]
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def players_table(games: list[dict], labels: list[str], order: list[str]) -> str:
    return table(*players_rows(games, labels, order))


def _quantile(ordered: list[float], q: float) -> float:
    """The q-quantile of sorted values (nearest rank)."""
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def players_rows(games: list[dict], labels: list[str], order: list[str]) -> tuple[list[list], list[str]]:
    """Each player's results, errors apart, and its time per turn as the referee measured it (after
    the first turn; the first turn's limit is ten times longer): (rows, header)."""
    lines = player_lines(games, labels)
    rows = []
    for label in order:
        line = lines[label]
        later = sorted(line.later_turns)
        median, p99 = (_quantile(later, 0.5), _quantile(later, 0.99)) if later else (math.nan, math.nan)
        worst = later[-1] if later else math.nan
        first = max(line.first_turns, default=math.nan)
        score = f"{100 * line.score:.1f}%" if line.games else "-"
        rows.append(
            [
                label,
                line.games,
                f"{line.wins}-{line.draws}-{line.losses}",
                score,
                *(line.errors[k] for k in ERROR_KINDS),
                f"{median:.1f}",
                f"{p99:.1f}",
                f"{worst:.1f}",
                f"{first:.1f}",
                " ".join(sorted(v for v in line.versions if v)) or "-",
            ]
        )
    header = [
        "player",
        "games",
        "W-D-L",
        "score",
        "timeouts",
        "invalid",
        "crashes",
        "ms median",
        "ms p99",
        "ms max",
        "1st turn max",
        "version",
    ]
    return rows, header


def ratings_table(games: list[dict], labels: list[str]) -> tuple[str, list[str]]:
    """OpenSkill and Bradley-Terry ratings side by side, best first by Elo; and that order."""
    rows, header, order = ratings_rows(games, labels)
    return table(rows, header), order


def ratings_rows(games: list[dict], labels: list[str]) -> tuple[list[list], list[str], list[str]]:
    """The ratings table's (rows, header), and the players best first."""
    skill = {r.label: r for r in openskill_ratings(games, labels)}
    fit = bradley_terry_fit(games, labels)
    # Best first by Elo: the fit weighs every game alike, where OpenSkill's updates depend on the
    # order games ended in; and each row's gap over the next is then a difference of the fit's own.
    order = sorted(labels, key=lambda label: -fit.ratings[label].elo)
    rows = []
    for i, label in enumerate(order):
        r, e = skill[label], fit.ratings[label]
        gap = "-"  # over the next player down the table: neighbours told apart when it excludes 0
        if i + 1 < len(order):
            g = fit.gap(label, order[i + 1])
            gap = f"{fmt_elo(g.elo)} {fmt_elo_interval(*g.interval)}"
        rows.append(
            [
                i + 1,
                label,
                fmt_elo(e.elo),
                f"{e.stderr:.0f}",
                fmt_elo_interval(*e.interval),
                gap,
                f"{r.mu:.2f}",
                f"{r.sigma:.2f}",
                f"[{r.interval[0]:.2f}, {r.interval[1]:.2f}]",
            ]
        )
    header = [
        "#",
        "player",
        "Elo",
        "+-se",
        "95% interval",
        "Elo over the next (95% interval)",
        "mu",
        "sigma",
        "95% interval",
    ]
    return rows, header, order


def cross_table(games: list[dict], order: list[str]) -> str:
    """Row player's score against the column player, over all their games."""
    return table(*cross_rows(games, order))


def cross_rows(games: list[dict], order: list[str]) -> tuple[list[list], list[str]]:
    got: dict[tuple[str, str], list[float]] = defaultdict(list)
    for game in games:
        for me, them in ((game["blue"], game["orange"]), (game["orange"], game["blue"])):
            got[me, them].append(points(game, me))
    rows = []
    for me in order:
        cells = []
        for them in order:
            scores = got.get((me, them))
            if me == them:
                cells.append("")
            elif scores:
                cells.append(f"{100 * sum(scores) / len(scores):.0f}% /{len(scores)}")
            else:
                cells.append("-")
        rows.append([me, *cells])
    return rows, ["score of row vs column (/games)", *order]


def pairings_table(games: list[dict], pairings: list[tuple[str, str]]) -> str:
    return table(*pairings_rows(games, pairings))


def pairings_rows(games: list[dict], pairings: list[tuple[str, str]]) -> tuple[list[list], list[str]]:
    rows = []
    for a, b in pairings:
        counts = pentanomial(games, a, b)
        est = pentanomial_estimate(counts)
        got = Counter(points(g, a) for g in games if g["a"] == a and g["b"] == b)
        wins, draws, losses = got[1.0], got[0.5], got[0.0]
        elo, interval = fmt_estimate(est)
        rows.append([f"{a} vs {b}", f"{wins}-{draws}-{losses}", est.n, " ".join(map(str, counts)), elo, interval])
    return rows, ["pairing", "W-D-L", "pairs", "pentanomial 0..2", "Elo", "95% interval"]


def sprt_lines(games: list[dict], config: dict) -> str:
    (a, b), sprt = config["pairings"][0], config["sprt"]
    course = sprt_course(games, config)
    current, verdict = course.state, course.decided
    head = (
        f"SPRT {a} vs {b}: H0 Elo {sprt['elo0']:g}, H1 Elo {sprt['elo1']:g}, "
        f"alpha {sprt['alpha']:g}, beta {sprt['beta']:g}"
    )
    state = f"LLR {current.llr:.3f} in [{current.lower:.3f}, {current.upper:.3f}] after {current.pairs} pairs"
    if verdict:
        end = f"accepted {verdict.verdict} after {verdict.pairs} pairs (LLR {verdict.llr:.3f})"
    elif current.pairs >= config["pairs"]:
        end = f"no decision within {config['pairs']} pairs"
    else:
        end = "not decided yet"
    return "\n".join([head, state, end])


def text_report(config: dict, labels: list[str], games: list[dict]) -> str:
    pairings = [tuple(p) for p in config["pairings"]]
    ratings, order = ratings_table(games, labels)
    parts = [f"{config['command']}: {len(games)} games, seed {config['seed']}"]
    if config["command"] == "sprt":
        parts += ["", sprt_lines(games, config)]
    parts += [
        "",
        "Pairings (Elo of the first against the second, from seat-swapped pairs):",
        pairings_table(games, pairings),
    ]
    if config["command"] == "tournament":
        parts += [
            "",
            "Ratings, best first by Elo (a Bradley-Terry fit, mean 0), and OpenSkill's (Plackett-Luce mu and sigma):",
            ratings,
            "",
            "Cross-table:",
            cross_table(games, order),
        ]
    parts += [
        "",
        "Players (errors score as losses, as on CodinGame; times in ms after the first turn):",
        players_table(games, labels, order),
    ]
    return "\n".join(parts)
