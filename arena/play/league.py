"""`arena league`: a run that plays until it is stopped, over one SQLite file, while players join,
pause and leave from other shells.

The file is the league. Its run table holds the game (chosen once, when it was created), the run
seed and the matchmaking mode; `players` and `league_players` hold who is in it and their standing
(active, paused or removed, and why); `games` and `failures` what was played. Everything the league
process keeps in memory (the ratings, the units begun, the failures' back-off) is rebuilt from the
file when it starts, so a league stopped in any way, SIGKILL included, goes on where it was when it is
started again: every finished game was committed on its own, and a unit left short is completed.

Locking. One process plays a league: it holds the file's flock (`Store.lock`) while it runs. Other
processes (`arena league add/remove/pause/resume`) never take that lock: each writes one short SQLite
transaction (a new player and its standing, or a standing changed); SQLite's own locking orders them
with the league's writes (one game, one transaction), and its busy timeout makes either wait for the
other rather than fail. The league notices their commits through `PRAGMA data_version` (which changes
when another connection commits) between games and reads the standings again; only the playing
process writes games, failures and the league's own pauses.

Failures. A game whose referee or machine failed did not happen: it is stored as a failure and played
again after a back-off of BACKOFF_S * 2^(k-1) seconds after its k-th failure (at most BACKOFF_MAX_S),
and given up after MAX_ATTEMPTS (its unit then never counts). When FAILURE_RUN games fail in a row,
whoever plays, the league stops starting new units for the same back-off: a referee that fails every
game is not hammered. A bot is paused, with the reason in its standing, when it could not start in
START_FAILURES games in a row (it exited or failed before its first answer), or when its games failed
FAILURE_RUN times in a row while other players' games did not. Nothing stops the league but a signal.
"""

from __future__ import annotations

import math
import signal
import sqlite3
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from itertools import combinations
from pathlib import Path

from referee.platform.commands import INTERRUPTED

from arena.project import RUNS_FOLDER
from arena.games.base import Game, Player
from arena.play import matchmaking
from arena.players import registry as players
from arena.play.cluster import check_travel, make_executor
from arena.play.run import REFEREE, run_jobs
from arena.play.runs import command_again
from arena.play.schedule import Job, derive_seed, unit_seed
from arena.stats.units import game_key, seatings, unit_games
from arena.play.store import Store, quoted, stored_game
from arena.stats.board import Board, one_blas_thread

ACTIVE, PAUSED, REMOVED = "active", "paused", "removed"
DEFAULT_DB = Path(RUNS_FOLDER) / "league.sqlite"  # a league's database unless --db says otherwise
BACKOFF_S, BACKOFF_MAX_S = 5.0, 600.0
MAX_ATTEMPTS = 5  # failures of one game before its unit is given up
FAILURE_RUN = 3  # failed games in a row: the league backs off; a player's games: it is paused
START_FAILURES = 3  # games in a row a bot could not start in: it is paused
IDLE_POLL_S = 1.0  # how often an idle league looks for new players
FIT_SHARE = 0.02  # the most of the league's time its refits of the ratings may take
CHANGED_CHECK_S = 60.0  # how often the players' programs are checked for changes


def rated(standing: dict[str, dict]) -> list[str]:
    """The players a league's standings rate: all but those removed, whose games stay in the file
    but leave the ratings."""
    return [label for label, row in standing.items() if row["status"] != REMOVED]


def among_rated(standing: dict[str, dict], games: list[dict]) -> list[dict]:
    """The `games` that a league's standings count: those among its rated players."""
    players = set(rated(standing))
    return [game for game in games if players.issuperset(game["seats"])]


def standings_board(standing: dict[str, dict], games: Iterable[dict]) -> Board:
    """A league's standings, from its players' `standing` and its `games`: the board of the games
    among its rated players. One computation for `arena league status`, the league's own lines and
    its matchmaking (the lines had counted removed players' games: another leader's Elo)."""
    board = Board(rated(standing), history=False)
    for game in games:
        board.add(game)
    return board


def backoff(failures: int) -> float:
    """Seconds to wait after the `failures`-th failure in a row."""
    return min(BACKOFF_S * 2 ** (failures - 1), BACKOFF_MAX_S)


def start_failure(record: dict, seat: int) -> bool:
    """Did the bot in `seat` fail before it answered once? (It could not start, or it exited or
    failed on its first turn.) Where the arena kept the clock, its answered turns say; where the
    referee did, a game that ended on its first round with that seat's crash."""
    error = record["errors"][seat]
    if error == "start":
        return True
    if error not in ("crash", "timeout", "invalid"):
        return False
    times = record.get("times")
    if times is not None:
        return not times[seat]
    return error == "crash" and record.get("turns") is not None and record["turns"] <= len(record["seats"])


@dataclass
class Retry:
    job: Job
    due: float  # time.monotonic()


class League:
    """A league's playing process: its state rebuilt from `store`, then `play` until stopped."""

    def __init__(self, store: Store, game: Game, log=None, quiet: bool = False):
        self.store, self.game, self.log, self.quiet = store, game, log or sys.stderr, quiet
        config = store.config
        self.config = config
        self.seed, self.how, self.seeds = config["seed"], config.get("seatings", "balanced"), config.get("seeds")
        self.mode = config.get("mode", "uncertain")
        self.players: dict[str, Player] = {}
        self.standing: dict[str, dict] = {}
        self.prepared: set[str] = set()
        self.board: Board  # the standings (`standings_board`), made when the file is read
        self.unit_results = matchmaking.UnitResults(unit_games(game.seats, self.how))
        self.units: dict[tuple[str, ...], int] = defaultdict(int)  # lineup -> units begun
        self.in_flight: dict[tuple[str, ...], int] = defaultdict(int)
        self.left: dict[tuple[tuple[str, ...], int], int] = {}  # (lineup, unit) -> its games not yet ended
        self.retries: dict[tuple, Retry] = {}
        self.attempts: dict[tuple, int] = defaultdict(int)  # a game's key -> its failures
        self.given_up = 0
        self.failed_in_a_row = 0
        self.quiet_until = 0.0  # no new unit before this (the league's back-off)
        self.start_streak: dict[str, int] = defaultdict(int)
        self.failure_streak: dict[str, int] = defaultdict(int)
        self.last_detail: dict[str, str] = {}
        self.played_since_failure: set[str] = set()
        self._fit = None
        self._fit_count = -1
        self._next_fit = 0.0
        self._checked_at = 0.0
        self._data_version = None
        self.stop_requested = False
        self.games_played = 0
        self.idle_said: str | None = None  # why it last said it plays nothing (said once)
        self._restore()

    # ------------------------------------------------------------ state from the file

    def _restore(self) -> None:
        self._read_standings()
        games = self.store.games(light=True)
        self.board = standings_board(self.standing, games)
        for record in games:
            self.unit_results.add(record)
        failures = self.store.failures()
        began: dict[tuple, set[int]] = defaultdict(set)  # (lineup, unit) -> seatings stored
        for record in games:
            lineup = tuple(record["lineup"])
            began[lineup, record["unit"]].add(record["seating"])
        tries: dict[tuple, list[dict]] = defaultdict(list)
        for failure in failures:
            lineup = tuple(failure["lineup"])
            began.setdefault((lineup, failure["unit"]), set())
            tries[lineup, failure["unit"], failure["seating"]].append(failure)
            self.attempts[lineup, failure["unit"], failure["seating"]] += 1
        now, wall = time.monotonic(), time.time()
        for (lineup, unit), stored in began.items():
            self.units[lineup] = max(self.units[lineup], unit + 1)
            for job in self._unit_jobs(lineup, unit):
                if job.seating in stored:
                    continue
                failed = tries.get(job.key, [])
                if len(failed) >= MAX_ATTEMPTS:
                    self.given_up += 1
                    continue
                due = now
                if failed:
                    since = wall - _timestamp(failed[-1]["finished_at"])
                    due = now + max(0.0, backoff(len(failed)) - since)
                self.retries[job.key] = Retry(job, due)
        self._save_lineups()

    def _read_standings(self) -> list[str]:
        """The players and their standings from the file; the labels that joined since the last read."""
        members = {p.label: p for p in self.store.players()}
        standing = self.store.league_players()
        joined = [label for label in standing if label not in self.standing]
        for label, row in standing.items():
            before = self.standing.get(label, {}).get("status")
            if before and before != ACTIVE and row["status"] == ACTIVE:  # resumed: a fresh start
                self.start_streak[label] = self.failure_streak[label] = 0
        self.players, self.standing = members, standing
        self._data_version = self._version()
        return joined

    def _version(self) -> int:
        return self.store.db.execute("PRAGMA data_version").fetchone()[0]

    def active(self) -> list[str]:
        return [label for label, row in self.standing.items() if row["status"] == ACTIVE]

    def _unit_jobs(self, lineup: tuple[str, ...], unit: int) -> list[Job]:
        seed = unit_seed(self.seed, unit, self.seeds)
        bot_seed = {label: derive_seed(self.seed, "bot", label, unit) for label in lineup}
        return [
            Job(lineup, unit, s, seats, seed, tuple(bot_seed[label] for label in seats))
            for s, seats in enumerate(seatings(lineup, self.how))
        ]

    def _save_lineups(self) -> None:
        """The lineups played so far, in the run's configuration (what `arena report` tabulates)."""
        known = [list(lineup) for lineup in self.units]
        if known != self.config.get("lineups"):
            self.config["lineups"] = known
            self.store.put("config", self.config)

    # ------------------------------------------------------------ players

    def say(self, text: str) -> None:
        print(f"[league] {text}", file=self.log, flush=True)

    def pause(self, label: str, reason: str) -> None:
        """Pause an active player, unless the user changed its standing meanwhile: a pause written
        over it took back the user's `league remove`, and the league, taking the file's change for its
        own, never read it. (The file's version is left to `sync`: this connection's own writes do
        not change it, and another's meanwhile must still be read.)"""
        if self.standing.get(label, {}).get("status") != ACTIVE:
            return
        if not self.store.set_standing(label, PAUSED, reason, only_from=ACTIVE):
            return  # (its new standing is the user's: the next `sync` reads it)
        self.standing[label] = {**self.standing[label], "status": PAUSED, "reason": reason}
        self.say(f"paused {label}: {reason} (arena league resume {label} --db {quoted(self.store.path)})")

    def ready(self, labels: list[str]) -> None:
        """Prepare the active players among `labels` (compile, warm up); pause those that cannot be,
        or whose program changed since they joined. A stop ends it before the next player (a build
        takes minutes: the stop had waited for every player's)."""
        for label in labels:
            if self.stop_requested:
                return
            if self.standing.get(label, {}).get("status") != ACTIVE:
                continue
            player = self.players[label]
            why = players.changed_since(player, self.game)
            if why:
                self.pause(label, f"{why} (add the new program under a new label)")
                continue
            if label in self.prepared:
                continue
            try:
                check_travel(self.game, [player])
                players.prepare([player], self.game, self.log)
            except Exception as exc:  # noqa: BLE001 - any failure to prepare is this player's, not the league's
                self.pause(label, f"could not be prepared: {exc}")
                continue
            self.prepared.add(label)

    def sync(self) -> bool:
        """Read the standings again if another process changed the file; True if players joined (the
        games in flight must end before they can be handed to the workers)."""
        now = time.monotonic()
        if now - self._checked_at > CHANGED_CHECK_S:
            self._checked_at = now
            self.ready(self.active())
        if self._version() == self._data_version:
            return False
        before = {label: row["status"] for label, row in self.standing.items()}
        rated_before = rated(self.standing)
        joined = self._read_standings()
        if rated(self.standing) != rated_before:  # a player joined, left or came back: its games with it
            self._rate_again()
        for label, row in self.standing.items():
            if before.get(label) != row["status"]:
                word = "joined" if label in joined else row["status"]
                self.say(f"{label} {word}" + (f": {row['reason']}" if row["reason"] else ""))
        self.ready([label for label, row in self.standing.items() if before.get(label) != row["status"]])
        return bool(joined)

    def _rate_again(self) -> None:
        """The standings made again from the file, for its rated players now."""
        self.board = standings_board(self.standing, self.store.games(light=True))
        self._fit_count, self._next_fit = -1, 0.0

    # ------------------------------------------------------------ what to play

    def fit(self):
        """The ratings for matchmaking: refitted when games were added, but no more often than keeps
        the refits under FIT_SHARE of the league's time."""
        now = time.monotonic()
        if self.board.count != self._fit_count and now >= self._next_fit:
            started = time.perf_counter()
            self._fit = self.board.fit() if self.board.count else None
            self._fit_count = self.board.count
            self._next_fit = now + (time.perf_counter() - started) / FIT_SHARE
        return self._fit

    def playable(self, lineup: tuple[str, ...]) -> bool:
        return self.seeds is None or self.units[lineup] < len(self.seeds)

    def plan_unit(self) -> list[Job]:
        """The next unit's games (see `arena/play/matchmaking.py`), [] if there is none to play."""
        if time.monotonic() < self.quiet_until:
            return []
        active = self.active()
        state = matchmaking.Standing(
            active=active,
            seats=self.game.seats,
            fit=self.fit(),
            units={lineup: n for lineup, n in self.units.items() if set(lineup) <= set(active)},
            in_flight={lineup: n for lineup, n in self.in_flight.items() if n},
            playable=self.playable,
            unit_results=self.unit_results,
        )
        lineup = matchmaking.choose(state, self.mode)
        if lineup is None:
            return []
        unit = self.units[lineup]
        self.units[lineup] = unit + 1
        if unit == 0:
            self._save_lineups()
        jobs = self._unit_jobs(lineup, unit)
        self.in_flight[lineup] += 1
        self.left[lineup, unit] = len(jobs)
        return jobs

    def due_retry(self) -> Job | None:
        now = time.monotonic()
        active = set(self.active())
        for key, retry in sorted(self.retries.items(), key=lambda item: item[1].due):
            if retry.due <= now and active.issuperset(retry.job.lineup):
                del self.retries[key]
                return retry.job
        return None

    def next_jobs(self) -> Iterator[Job]:
        """The games to play, decided one at a time as the workers ask for them; it ends when there
        is nothing to play now, when players joined (they need new workers' tasks) or when stopped."""
        while not self.stop_requested:
            if self.sync():
                return
            retry = self.due_retry()
            if retry is not None:
                yield retry
                continue
            jobs = self.plan_unit()
            if not jobs:
                return
            yield from jobs

    def wait_s(self) -> float:
        """How long an idle league sleeps before looking again."""
        now = time.monotonic()
        soonest = min((r.due for r in self.retries.values()), default=math.inf)
        if self.quiet_until > now:
            soonest = min(soonest, self.quiet_until)
        return max(0.05, min(IDLE_POLL_S, soonest - now))

    # ------------------------------------------------------------ what was played

    def _unit_ended(self, record: dict) -> None:
        key = (tuple(record["lineup"]), record["unit"])
        if key in self.left:
            self.left[key] -= 1
            if self.left[key] == 0:
                del self.left[key]
                self.in_flight[key[0]] -= 1

    def on_record(self, record: dict) -> None:
        if record.get("failure"):
            self._on_failure(record)
            return
        try:
            self.store.add_game(record)
        except sqlite3.IntegrityError:  # stored already (it cannot be, but never twice)
            self.say(f"game {record['lineup']} unit {record['unit']} seating {record['seating']} was stored already")
            return
        self.games_played += 1
        self._unit_ended(record)
        self.board.add(record)
        self.unit_results.add(record)
        self.failed_in_a_row = 0
        self.quiet_until = 0.0
        for seat, label in enumerate(record["seats"]):
            self.failure_streak[label] = 0
            self.played_since_failure.add(label)
            if start_failure(record, seat):
                self.start_streak[label] += 1
                self.last_detail[label] = record.get("detail") or record["errors"][seat]
                if self.start_streak[label] >= START_FAILURES:
                    self.pause(
                        label,
                        f"failed before its first answer in its last {self.start_streak[label]} games "
                        f"(the last: {self.last_detail[label]})",
                    )
            else:
                self.start_streak[label] = 0

    def _on_failure(self, record: dict) -> None:
        self.store.add_failure(record)
        key = game_key(record)
        self.attempts[key] += 1
        attempts = self.attempts[key]
        what = f"{' '.join(record['seats'])} (seed {record['seed']}) failed ({record['kind']}): {record['detail']}"
        if attempts >= MAX_ATTEMPTS:
            self.given_up += 1
            self._unit_ended(record)
            self.say(f"{what}; given up after {attempts} failures")
        else:
            job = next(j for j in self._unit_jobs(key[0], key[1]) if j.seating == key[2])
            self.retries[key] = Retry(job, time.monotonic() + backoff(attempts))
            self.say(f"{what}; played again in {backoff(attempts):.0f} s")
        self.failed_in_a_row += 1
        if self.failed_in_a_row >= FAILURE_RUN:
            quiet = backoff(self.failed_in_a_row - FAILURE_RUN + 1)
            self.quiet_until = time.monotonic() + quiet
            self.say(f"{self.failed_in_a_row} games failed in a row: no new games for {quiet:.0f} s")
        for label in record["seats"]:
            self.failure_streak[label] += 1
            self.played_since_failure.discard(label)
            self.last_detail[label] = record["detail"]
        healthy = any(label not in record["seats"] and label in self.played_since_failure for label in self.active())
        for label in record["seats"]:
            if self.failure_streak[label] >= FAILURE_RUN and healthy and record["kind"] == REFEREE:
                self.pause(
                    label,
                    f"its last {self.failure_streak[label]} games failed while others' did not "
                    f"(the last: {record['detail']})",
                )

    # ------------------------------------------------------------ the run

    def play(self, executor) -> None:
        """Play until `stop_requested` turns true; every game that ends is stored as it ends."""
        one_blas_thread()
        self.ready(self.active())
        last_word = time.monotonic()
        while not self.stop_requested:
            players = dict(self.players)  # the workers' copy: not changed while they use it
            run_jobs(
                self.next_jobs(),
                self.game,
                players,
                executor,
                on_record=self.on_record,
                should_stop=lambda: self.stop_requested,
                tasks_in_flight=executor.tasks_in_flight,
                log=self.log,
                play_again=False,  # a failed game is played again after its back-off (`_on_failure`), a late one too
            )
            self._forget_in_flight()
            idle = self.idle_reason()
            if idle is not None and idle != self.idle_said:  # (it sat idle, its status "playing now", unsaid)
                self.say(idle)
            self.idle_said = idle
            if not self.quiet and time.monotonic() - last_word > 30:
                last_word = time.monotonic()
                self.say(self.describe())
            if self.stop_requested:
                break
            if not self.sync():
                time.sleep(self.wait_s())

    def idle_reason(self) -> str | None:
        """Why the league has nothing to play until a player joins or is resumed, where that is so
        (None while it plays, or waits on games to play again or on its back-off)."""
        if self.in_flight and any(self.in_flight.values()) or self.retries or time.monotonic() < self.quiet_until:
            return None
        active, seats = self.active(), self.game.seats
        join = f"arena league add LABEL=SPEC --db {quoted(self.store.path)}, or resume a paused player"
        if len(active) < seats:
            return (
                f"waiting: {len(active)} active player{'s' * (len(active) != 1)}, and a game of {self.game.name} "
                f"seats {seats}: {join}"
            )
        done = {
            frozenset(lineup) for lineup, n in self.units.items() if self.seeds is not None and n >= len(self.seeds)
        }
        if self.seeds is not None and all(frozenset(lineup) in done for lineup in combinations(active, seats)):
            n = len(self.seeds)
            return (
                f"waiting: every lineup of the active players has played the {n} seed{'s' * (n != 1)} of its "
                f"seed file: {join} (or start the league again with a longer --seeds file that begins with them)"
            )
        return None

    def _forget_in_flight(self) -> None:
        """After the workers' tasks ended every unit handed out ended too: its games were stored, or
        failed and wait as retries (a unit cut short by a stop is completed when the league starts
        again, from the file)."""
        self.left.clear()
        self.in_flight.clear()

    def describe(self) -> str:
        """The league in a line: its standings now, as `arena league status` gives them."""
        leader = ""
        playing = [label for label in self.active() if label in self.board.lines and self.board.lines[label].games]
        if playing:
            ratings = self.board.fit().ratings
            best = max(playing, key=lambda label: ratings[label].elo)
            leader = f"; leader {best} ({ratings[best].elo:+.0f} Elo)"
        return (
            f"{self.board.count} games among its players, {len(self.active())} active players{leader}"
            + (f"; {len(self.retries)} games to play again" if self.retries else "")
            + (f"; {self.given_up} given up" if self.given_up else "")
        )


def _timestamp(text: str) -> float:
    return datetime.fromisoformat(text).timestamp()


def play_until_stopped(store: Store, options, log=None) -> int:
    """Play the league in `store` (`options`: the run's, arena.play.runs.RunOptions) until a signal
    stops it: the first Ctrl+C (or SIGTERM) lets the games in play end and be stored, a second drops
    them. The exit status."""
    log = log or sys.stderr
    league = League(store, stored_game(store.config), quiet=options.quiet)
    print(
        f"league of {league.game.name} in {store.path}: {league.board.count} games among its players, "
        f"{len(league.active())} active players, mode {league.mode}. Stop with Ctrl+C; "
        f"arena league add LABEL=SPEC --db {quoted(store.path)} adds a player while it plays",
        file=log,
    )

    def stop(signum, frame) -> None:
        if league.stop_requested:  # a second Ctrl+C: stop now, the games in flight lost
            raise KeyboardInterrupt
        league.stop_requested = True
        print("\n[league] stopping: the games in play end and are stored (Ctrl+C again drops them)", file=log)

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    league.ready(league.active())  # before the pool starts: forked workers then have the kernels loaded
    executor = make_executor(options.backend, max(options.workers, 1), options.ray_address)
    status = 0  # stopped as a league stops: the games in play stored
    try:
        league.play(executor)
    except KeyboardInterrupt:  # a second Ctrl+C: the games in play dropped
        status = INTERRUPTED
    finally:
        executor.shutdown()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    dropped = " (the games in play dropped: they are played when it goes on)" if status == INTERRUPTED else ""
    print(
        f"[league] stopped{dropped}: {league.describe()}. Go on with: {command_again('league', store.path, options)}",
        file=log,
    )
    return status
