"""Text reports, computed from a run's games alone, whatever the game: per-player results with errors
counted apart, ratings with intervals, the cross-table, each lineup's Elo difference, the SPRT's course.

A game is a record of the store: `seats` (labels, seat 0 first), `ranks` (0 best, equal ranks tie),
`errors`, `times` (ms per turn per seat, None where the referee kept the clock), `lineup`, `unit`,
`seating`. Two players are compared on their head-to-head results (1, 1/2 or 0 a game, from their
ranks) in the units where both sit: a unit is one seed in every seating of its lineup, and only a
complete unit counts (the games of one seed depend on each other; a unit with a failed game is out).
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from referee.platform.bot_env import SEED_VARIABLE

from arena.games.base import head_to_head
from arena.stats.estimates import MIN_UNITS, Estimate, SprtState, unit_estimate, unit_sprt_state
from arena.stats.ratings import bradley_terry_fit, openskill_ratings
from arena.stats.units import HeadToHead, game_key, unit_games

ERROR_KINDS = ("timeout", "invalid", "crash")  # a bot that cannot start counts as a crash
ERROR_NAMES = {
    "timeout": ("timeout", "timeouts"),
    "invalid": ("invalid move", "invalid moves"),
    "crash": ("crash", "crashes"),
}


def seat(game: dict, label: str) -> int | None:
    """`label`'s seat in `game` (None if it did not play)."""
    try:
        return game["seats"].index(label)
    except ValueError:
        return None


def versus(game: dict, a: str, b: str) -> float | None:
    """What `a` scored against `b` in `game`: 1, 0.5 or 0 (None unless both played)."""
    i, j = seat(game, a), seat(game, b)
    if i is None or j is None:
        return None
    return head_to_head(game["ranks"], i, j)


def points(game: dict, label: str) -> float:
    """What `label` scored in `game` against the others: the mean of its head-to-head results
    (in a 2-player game, 1, 0.5 or 0)."""
    i = seat(game, label)
    others = [head_to_head(game["ranks"], i, j) for j in range(len(game["seats"])) if j != i]
    return sum(others) / len(others)


# The name of a player's results in every table that knows the game's player count: with two
# players, won, drawn and lost; with more, first alone, first shared and not first (docs/arena.md)
TWO_PLAYER_RESULTS = "W-D-L"
N_PLAYER_RESULTS = "1st-shared-not"


def results_name(games: list[dict]) -> str:
    """What a player's wins-draws-losses are called in a table of these games."""
    return TWO_PLAYER_RESULTS if all(len(g["seats"]) == 2 for g in games) else N_PLAYER_RESULTS


@dataclass
class PlayerLine:
    label: str
    games: int = 0
    wins: int = 0  # first place alone
    draws: int = 0  # first place shared (2 players: a draw)
    losses: int = 0
    points: float = 0.0  # head-to-head points against every opponent in every game, per game
    errors: Counter = field(default_factory=Counter)
    last_errors: dict = field(default_factory=dict)  # kind -> (the game's id, what its referee said)
    first_turns: list = field(default_factory=list)  # ms of each game's first turn
    later_turns: list = field(default_factory=list)  # ms of every other turn
    versions: set = field(default_factory=set)
    data: dict = field(default_factory=lambda: defaultdict(list))  # [PDATA] name -> values

    @property
    def score(self) -> float:
        return self.points / self.games if self.games else math.nan


def player_lines(games: list[dict], labels: list[str]) -> dict[str, PlayerLine]:
    lines = {label: PlayerLine(label) for label in labels}
    for game in games:
        count_game(lines, game)
    return lines


def won(ranks: list[int], seat: int) -> bool:
    """Whether `seat` won its game: first place alone (a draw for first is no win)."""
    return ranks[seat] == min(ranks) and ranks.count(ranks[seat]) == 1


def count_game(lines: dict[str, PlayerLine], game: dict) -> None:
    """Add one game to its players' lines (a live view adds each game as it ends)."""
    ranks = game["ranks"]
    pdata = (game.get("data") or {}).get("pdata") or [{}] * len(ranks)
    for i, label in enumerate(game["seats"]):
        line = lines[label]
        line.games += 1
        line.versions.add(game["versions"][i])
        line.points += points(game, label)
        first = ranks[i] == min(ranks)
        alone = won(ranks, i)
        line.wins += alone
        line.draws += first and not alone
        line.losses += not first
        error = game["errors"][i]
        if error:
            kind = "crash" if error not in ERROR_KINDS else error
            line.errors[kind] += 1
            line.last_errors[kind] = (game.get("id"), game.get("detail") or game.get("reason") or "")
        times = (game.get("times") or [None] * len(ranks))[i] or []
        line.first_turns += times[:1]
        line.later_turns += times[1:]
        for name, value in pdata[i].items():
            if isinstance(value, int | float):
                line.data[name].append(value)


class UnitCounter:
    """The head-to-head of players a and b over the complete units where both sit, kept up to date
    game by game (`arena/stats/units.py`): `counts[k]` = units in which a scored k / (2 * per_unit)
    a game against b; in 2-player games a unit is a seat-swapped pair and the counts are the
    pentanomial (pairs by a's points, 0, 1/2, .., 2). `results` counts a's results against b (1,
    0.5, 0) in the games of those units: the W-D-L of the same games as the counts."""

    def __init__(self, a: str, b: str, per_unit: int = 2):
        self.a, self.b, self.per_unit = a, b, per_unit
        self._counter = HeadToHead(a, b, per_unit)
        self.results: Counter[float] = Counter()
        self._open: dict[tuple, list[float]] = defaultdict(list)  # the results of units not complete yet

    def add(self, game: dict) -> bool:
        """Take `game` in; True when it completed a unit where both play."""
        unit = (tuple(game["lineup"]), game["unit"]) + ((game["seating"],) if self.per_unit == 1 else ())
        got = versus(game, self.a, self.b)
        if got is not None:
            self._open[unit].append(got)
        if not self._counter.add({"seats": game["seats"], "ranks": game["ranks"], "unit": unit}):
            return False
        self.results.update(self._open.pop(unit))
        return True

    @property
    def counts(self) -> list[int]:
        return self._counter.counts

    def estimate(self) -> Estimate:
        return unit_estimate(self.counts)


def units_of(config: dict) -> int:
    """Games in one complete unit of the run (1 where its referee ignores the seed: then no two
    games are a unit)."""
    if config.get("unpaired"):
        return 1
    seats = len(config["lineups"][0]) if config.get("lineups") else 2
    return unit_games(seats, config.get("seatings", "balanced"))


def unit_counter(games: list[dict], config: dict, a: str, b: str) -> UnitCounter:
    counter = UnitCounter(a, b, units_of(config))
    for game in games:
        counter.add(game)
    return counter


class SprtCourse:
    """The SPRT of a against b as the run saw it: units counted in the order they completed;
    `decided` is the state when a bound was first crossed (None until then)."""

    def __init__(self, a: str, b: str, elo0: float, elo1: float, alpha: float, beta: float, per_unit: int = 2):
        self.units = UnitCounter(a, b, per_unit)
        self.params = elo0, elo1, alpha, beta
        self.state = unit_sprt_state(self.units.counts, *self.params)
        self.decided: SprtState | None = None
        self.history: list[SprtState] = []  # the state after each completed unit

    def add(self, game: dict) -> None:
        if self.units.add(game):
            self.state = unit_sprt_state(self.units.counts, *self.params)
            self.history.append(self.state)
            if self.decided is None and self.state.verdict:
                self.decided = self.state


def sprt_course(games: list[dict], config: dict) -> SprtCourse:
    (a, b, *_), sprt = config["lineups"][0], config["sprt"]
    course = SprtCourse(a, b, sprt["elo0"], sprt["elo1"], sprt["alpha"], sprt["beta"], units_of(config))
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


def errors_lines(games: list[dict], labels: list[str]) -> str:
    """Why each player's games were lost by an error, the last game of each kind with what its
    referee said (the players' table counts them): "" where none was."""
    lines = player_lines(games, labels)
    said = [
        f"  {label}: {count} {ERROR_NAMES[kind][count > 1]}, the last in game {game}: {detail}"
        for label in labels
        for kind, count in lines[label].errors.items()
        for game, detail in [lines[label].last_errors[kind]]
    ]
    counted = f"; {PLAYERS_FROM_0}" if any(names_a_player(line) for line in said) else ""
    head = f"Errors (each a lost game; the last of each kind, which `arena replay DB GAME -o FOLDER` shows{counted}):"
    return "\n".join([head, *said]) if said else ""


# The referee runners' error lines name players as their protocols number them, from 0, where the
# report's and the pages' seats count from 1: said wherever such a line is shown (stored lines stay)
PLAYERS_FROM_0 = "players counted from 0, player 0 in seat 1"
_PLAYER_NUMBER = re.compile(r"\bplayer \d")


def names_a_player(detail: str | None) -> bool:
    """Whether a game's detail names a player by its number (from 0)."""
    return bool(detail) and _PLAYER_NUMBER.search(detail) is not None


def quantile(ordered: list[float], q: float) -> float:
    """The q-quantile of sorted values (nearest rank)."""
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def players_rows(games: list[dict], labels: list[str], order: list[str]) -> tuple[list[list], list[str]]:
    """Each player's results, errors apart, its time per turn as the arena measured it (after the
    first turn, whose limit is ten times longer; "-" where the referee kept the clock), and the mean
    of every [PDATA] its bot emitted: (rows, header)."""
    lines = player_lines(games, labels)
    names = sorted({name for line in lines.values() for name in line.data})
    rows = []
    for label in order:
        line = lines[label]
        later = sorted(line.later_turns)
        median, p99 = (f"{quantile(later, 0.5):.1f}", f"{quantile(later, 0.99):.1f}") if later else ("-", "-")
        worst = f"{later[-1]:.1f}" if later else "-"
        first = f"{max(line.first_turns):.1f}" if line.first_turns else "-"
        score = f"{100 * line.score:.1f}%" if line.games else "-"
        data = [f"{sum(v) / len(v):.4g}" if (v := line.data.get(name)) else "-" for name in names]
        rows.append(
            [
                label,
                line.games,
                f"{line.wins}-{line.draws}-{line.losses}",
                score,
                *(line.errors[k] for k in ERROR_KINDS),
                median,
                p99,
                worst,
                first,
                *data,
                " ".join(sorted(v for v in line.versions if v)) or "-",
            ]
        )
    header = [
        "player",
        "games",
        results_name(games),
        "score",
        "timeouts",
        "invalid",
        "crashes",
        "ms median",
        "ms p99",
        "ms max",
        "1st turn max",
        *names,
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
    """Row player's score against the column player, over all the games both played in."""
    return table(*cross_rows(games, order))


def cross_rows(games: list[dict], order: list[str]) -> tuple[list[list], list[str]]:
    got: dict[tuple[str, str], list[float]] = defaultdict(list)
    for game in games:
        for i, me in enumerate(game["seats"]):
            for j, them in enumerate(game["seats"]):
                if i != j:
                    got[me, them].append(head_to_head(game["ranks"], i, j))
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


def lineups_table(games: list[dict], config: dict) -> str:
    return table(*lineups_rows(games, config))


def lineups_rows(games: list[dict], config: dict, lineups=None) -> tuple[list[list], list[str]]:
    """Each lineup's first player against its second, over their complete units: W-D-L of their
    games, the units, the units' distribution (2 players: the pentanomial), Elo with its interval."""
    rows = []
    per_unit = units_of(config)
    by_lineup = defaultdict(list)  # once, not once a lineup: a league has thousands
    for g in games:
        by_lineup[tuple(g["lineup"])].append(g)
    for lineup in lineups if lineups is not None else config["lineups"]:
        a, b = lineup[0], lineup[1]
        mine = by_lineup[tuple(lineup)]
        counter = UnitCounter(a, b, per_unit)
        for game in mine:
            counter.add(game)
        est = counter.estimate()
        got = counter.results  # (a game of a unit left short, by a failure or an SPRT's end, counts for neither)
        elo, interval = fmt_estimate(est)
        spread = " ".join(map(str, counter.counts)) if per_unit == 2 else f"{est.score:.3f}"
        name = f"{a} vs {b}" + (f" (with {', '.join(lineup[2:])})" if len(lineup) > 2 else "")
        rows.append([name, f"{got[1.0]}-{got[0.5]}-{got[0.0]}", est.n, spread, elo, interval])
    spread = "pentanomial 0..2" if per_unit == 2 else "mean unit score"
    return rows, ["lineup", "W-D-L", "units" if per_unit != 2 else "pairs", spread, "Elo", "95% interval"]


def sprt_lines(games: list[dict], config: dict) -> str:
    (a, b, *_), sprt = config["lineups"][0], config["sprt"]
    course = sprt_course(games, config)
    current, verdict = course.state, course.decided
    head = (
        f"SPRT {a} vs {b}: H0 Elo {sprt['elo0']:g}, H1 Elo {sprt['elo1']:g}, "
        f"alpha {sprt['alpha']:g}, beta {sprt['beta']:g}"
    )
    what = "pairs" if units_of(config) == 2 else "units"
    state = f"LLR {current.llr:.3f} after {current.pairs} {what} (bounds {current.lower:.3f} and {current.upper:.3f})"
    if verdict:
        end = f"accepted {verdict.verdict} after {verdict.pairs} {what}, where the LLR crossed a bound ({verdict.llr:.3f})"
        if current.pairs > verdict.pairs:  # (games in play when it was decided: they finish and count)
            more = current.pairs - verdict.pairs
            end += f"; the {more} more {'were' if more > 1 else 'was'} in play then"
    elif current.pairs >= config["units"]:
        end = f"no decision within {config['units']} {what}"
    else:
        end = "not decided yet"
    if not verdict and not current.lower < current.llr < current.upper and current.pairs < MIN_UNITS:
        end += f" (a bound is crossed, but the test decides from its {MIN_UNITS}th {what[:-1]} on)"
    return "\n".join([head, state, end])


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """`text` safe for a terminal: control characters (ESC, which a terminal obeys, among them) written
    as escapes (`\\x1b`), line ends and tabs kept. Labels and details come from users and referees."""
    return _CONTROL.sub(lambda found: found[0].encode("unicode_escape").decode("ascii"), text)


def unplayed(failures: list[dict], games: list[dict]) -> set[tuple]:
    """The keys (lineup, unit, seating) of the failed games not played since."""
    return {game_key(f) for f in failures} - {game_key(g) for g in games}


def failures_lines(failures: list[dict], games: list[dict] = (), left: str = "played again by --resume") -> str:
    """The games that did not happen, by what failed, with the last reason of each kind, and what
    becomes of them (`left`); apart, those that failed and were played since (a machine lost
    mid-game, a late game, a --resume)."""
    left_keys = unplayed(failures, list(games))
    failed = [f for f in failures if game_key(f) in left_keys]
    since = [f for f in failures if game_key(f) not in left_keys]
    lines = []
    if failed:
        lines += [f"{failed_games(failed)} failed and count for nobody ({left}):", *failure_kinds(failed)]
    if since:
        lines += [f"{len(since)} failures of games played again since (each counted once, as played):"]
        lines += failure_kinds(since)
    return "\n".join(lines)


def failed_games(failed: list[dict]) -> str:
    """How many games `failed` are, each once however often it failed (a --resume that failed it
    again, a retry), with the attempts where they are more."""
    games = len({game_key(f) for f in failed})
    return f"{games} games" + (f" ({len(failed)} attempts)" if len(failed) > games else "")


def failure_kinds(group: list[dict]) -> list[str]:
    """The failures of `group` by what failed (referee, machine...), with the last reason of each."""
    kinds = Counter(f["kind"] for f in group)
    last = {f["kind"]: f["detail"] for f in group}
    return [f"  {kinds[k]} by the {k}; the last: {last[k]}" for k in kinds]


def repeated_games(games: list[dict]) -> int:
    """How many games repeat an earlier one move for move, the same players in the same seats (of
    the games that keep their moves: Volcanoes'), counted where copies are at least half of such
    games and two or more. Bots that play alike whatever the seed (Volcanoes starts from the same
    empty board, the seed draws only `RANDOM` answers) play one game again and again, and the
    intervals take each copy for a new sample; a copy or so among many is chance (a book's line, a
    short forced game)."""
    groups: dict[tuple, list[str]] = defaultdict(list)
    for game in games:
        moves = (game.get("data") or {}).get("moves")
        if moves:
            groups[(tuple(game["seats"]), tuple(game["versions"]))].append(moves)
    copies = (len(moves) - len(set(moves)) for moves in groups.values())
    return sum(n for n, played in zip(copies, map(len, groups.values()), strict=True) if n >= 2 and 2 * n >= played)


def game_name(config: dict) -> str:
    return config["game"].get("name") or config["game"]["protocol"]


def text_report(config: dict, labels: list[str], games: list[dict], failures: list[dict] = ()) -> str:
    ratings, order = ratings_table(games, labels)
    game = config["game"]
    seeds = config.get("seeds")  # (a seed file's run keeps a seed drawn for it, which no game plays)
    seeded = f"the seeds of a seed file ({len(seeds)})" if seeds else f"seed {config['seed']}"
    parts = [f"{config['command']} ({game_name(config)}): {len(games)} games, {seeded}"]
    if config.get("unpaired"):
        parts.append("the referee ignores the seed: every game counts on its own, as if unpaired")
    if game.get("protocol") in ("cli", "json"):
        parts.append("the referee ran and timed the bots: no time per turn is known to the arena")
    repeats = repeated_games(games)
    if repeats:
        parts.append(
            f"warning: {repeats} of the {len(games)} games repeat an earlier game move for move, the same players "
            "in the same seats: the bots played alike whatever the seed, and the intervals and the SPRT take each "
            f"copy for a new game; let a bot vary its play, with the seed each game gives it in {SEED_VARIABLE}"
        )
    if failures:
        parts += ["", failures_lines(list(failures), games)]
    if config["command"] == "sprt":
        parts += ["", sprt_lines(games, config)]
    parts += [
        "",
        "Lineups (Elo of the first against the second, from complete units of one seed each):",
        lineups_table(games, config),
    ]
    if config["command"] in ("tournament", "league"):
        parts += [
            "",
            "Ratings, best first by Elo (a Bradley-Terry fit of the head-to-head results in each game, mean 0), and OpenSkill's (Plackett-Luce mu and sigma):",
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
    errors = errors_lines(games, order)
    if errors:
        parts += ["", errors]
    return printable("\n".join(parts))
