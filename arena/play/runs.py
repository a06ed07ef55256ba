"""A run (a match, a tournament, an SPRT) from its first game to its report: created from its
players, units and options, or resumed from its database, then played on the chosen executor, each
game stored as it ends, its progress shown, and its report printed.

A run's configuration is written once, when it is created (the game, the players and their versions,
the lineups, the seed, the seeds file, the seatings, the SPRT's bounds); a resumed run takes all of it
from its database, and plays exactly the games it had not finished.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import secrets
import shlex
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from referee.platform.commands import INTERRUPTED, reader_may_leave
from referee.platform.errors import counted
from tqdm import tqdm

from arena.errors import UsageError
from arena.project import RUNS_FOLDER
from arena.games.base import Game, Player, seats_vary
from arena.builds.build import program_version
from arena.play import replays
from arena.play.cluster import NoMachine, check_travel, connected, make_executor
from arena.play.run import run_jobs
from arena.play.schedule import gauntlet, jobs, ladder, round_robin
from arena.play.seeds import checked_seed, seed_list, seed_verdict
from arena.play.store import Store, StoreError, StoreExists, quoted, stored_game
from arena.players import registry as players
from arena.players.base import PlayerError
from arena.stats.estimates import Estimate
from arena.stats.units import SEATINGS, game_key
from arena.stats.tables import SprtCourse, UnitCounter, text_report, units_of, unplayed, versus

RUNS_DIR = Path(RUNS_FOLDER)
# An SPRT's exit status: H1 accepted (better by elo1), H0 accepted (not better than elo0), or no decision
# within its pairs (2 is a mistake on the command line, 130 an interruption).
SPRT_STATUS = {"H1": 0, "H0": 1, None: 3}
DEFAULT_UNITS = {"match": 50, "tournament": 16, "sprt": 5000}
LADDER_PAIRS, LADDER_REACH = 8, 2  # `arena tournament` alone: each bot against the next two, ~1 min on 2 cores


@dataclass
class RunOptions:
    """How a run plays, as the command line gives it."""

    db: str | None = None  # its database (None: a new file in RUNS_DIR, or the newest one to resume)
    resume: bool = False
    seed: int | None = None  # the run's seed (None: random)
    seeds: str | None = None  # a seed file: unit k plays its k-th seed
    workers: int = 1
    games_per_worker: int = 1
    backend: str = "pool"
    ray_address: str | None = None
    seatings: str | None = None  # how a seed seats its lineup (None: as stored, or SEATINGS[0])
    allow_unseeded: bool = False
    quiet: bool = False
    replays: str | None = None  # which games keep their replay (arena/play/replays.py; None: as stored, or all)
    config: str | None = None  # the file that declares games and players (None: ./arena.toml)


Lineups = Callable[[list[str], int], list[tuple[str, ...]]]  # (labels, seats) -> the lineups


def play(
    command: str,
    specs: list[str],
    units: int | None,
    options: RunOptions,
    game: Game | None,
    lineups: Lineups,
    sprt: dict | None = None,
    exact: bool = False,
) -> int:
    """Create the run (or resume it), play it to its end, print its report; the exit status. On a
    Ray cluster, reached first: one that cannot be is one line, and no database is made."""
    with connected(options.backend, options.ray_address, max(options.workers, 1)):
        if options.resume:
            store = resume(command, specs, units, options)
        else:
            store = create(command, specs, units, options, game, lineups, sprt, exact)
        try:
            return play_on(store, options)
        finally:
            store.close()


def one_lineup(labels: list[str], seats: int) -> list[tuple[str, ...]]:
    """A match's and an SPRT's lineup: its players, as given."""
    return [tuple(labels)]


def tournament_lineups(specs: list[str], default: bool, hero: str | None) -> Lineups:
    """A tournament's lineups: the game's own ladder (its default players, each against the next
    LADDER_REACH), a gauntlet of `hero` against the others, or a round robin."""

    def lineups(labels: list[str], seats: int) -> list[tuple[str, ...]]:
        if default and hero is None and seats == 2:
            return ladder(labels, LADDER_REACH)
        if hero is None:
            return round_robin(labels, seats)
        found = next((label for label, text in zip(labels, specs, strict=True) if hero in (label, text)), None)
        if found is None:
            raise PlayerError(f"--gauntlet {hero}: not one of the players")
        return gauntlet(found, labels, seats)

    return lineups


def create(
    command: str,
    specs: list[str],
    units: int | None,
    options: RunOptions,
    game: Game,
    lineups: Lineups,
    sprt: dict | None,
    exact: bool,
) -> Store:
    """A new run's database, its configuration written and its players resolved."""
    seeds, units = seed_list(options.seeds, units)
    units = DEFAULT_UNITS[command] if units is None else units
    if units < 1:
        raise UsageError("the number of pairs (units) must be at least 1")
    n = game.seats
    if exact and len(specs) != n:
        if n == 2:
            more = (
                f" (for a game of {len(specs)}: --players {len(specs)})" if len(specs) > 2 and seats_vary(game) else ""
            )
            raise PlayerError(
                (
                    "an SPRT compares two players: arena sprt NEW BASE"
                    if sprt
                    else "a match is between two players: arena match A B"
                )
                + more
            )
        others = " (NEW BASE, then the others)" if sprt else ""
        raise PlayerError(f"a {command} of {game.name} is between its {n} players: give {n}{others}")
    if len(specs) < n:
        raise PlayerError(f"a {command} of {game.name} needs at least {n} players")
    resolved = players.resolve_all(specs, game, config=options.config)
    if exact and (sprt or n == 2):  # (a game of more seats may well fill them with copies of one bot)
        warn_of_one_version(*resolved[:2], sprt=sprt is not None)
    labels = [p.label for p in resolved]
    seed = options.seed if options.seed is not None else secrets.randbelow(2**31)
    config = {
        "command": command,
        "game": {"name": game.name, **game.config()},
        "players": labels,
        "lineups": [list(lineup) for lineup in lineups(labels, n)],
        "units": units,
        "seatings": options.seatings or SEATINGS[0],
        "seed": seed,
        "sprt": sprt,
        "seeds": seeds,
        "replays": replays.chosen(options.replays, labels),
    }
    with new_store(options.db, config, resolved) as store:
        players.prepare(resolved, game)
        check_travel(game, resolved)
        verdict = seed_verdict(game, resolved[:n], checked_seed(seed, seeds), options.allow_unseeded)
        if verdict:
            store.put("config", {**config, **verdict})
    return store


def warn_of_one_version(first: Player, second: Player, *, sprt: bool) -> None:
    """A warning, not a refusal, where the two players a match or an SPRT compares are one version (a
    file unchanged in the commit named, a working tree that holds the commit's files again, the same
    bot twice): a user may mean it, to measure noise."""
    version = program_version(first.version)
    if version != program_version(second.version):
        return
    test = "; an SPRT of them runs long before it accepts H0 (or H1, by chance)" if sprt else ""
    print(
        f"warning: {first.label} and {second.label} are the same version ({version}): the same program, "
        f"built and run alike, so their games measure chance alone, not a difference between them{test}",
        file=sys.stderr,
    )


def command_again(words: str, db: Path, options) -> str:
    """The command line that goes on with a run (`words`: `match --resume`, `league`) stored in `db`,
    on the machines it played on (`options`, a RunOptions): a cluster's run was told to go on with
    `arena match --resume --db X`, which played on this machine alone."""
    line = f"arena {words} --db {quoted(db)}"
    if options.ray_address:
        return f"{line} --ray-address {shlex.quote(options.ray_address)}"
    return f"{line} --backend {options.backend}" if options.backend != RunOptions.backend else line


@contextmanager
def new_store(db: str | None, config: dict, resolved) -> Iterator[Store]:
    """The new run's database (`db`, or a new file in RUNS_DIR named by command and time), written
    and locked before the checks that take time (its players prepared, the seed check), so that a
    database that cannot be made is said first; where a check fails (a build, a bot that cannot
    start, a referee that ignores the seed), the run is discarded: nothing of it is left, not even the
    runs' folder it made."""
    made_folder = not db and not RUNS_DIR.exists()
    if db:
        store = Store.create(db, config, resolved)
    else:  # two runs begun in one second (a script's, a job array's) each get a file of their own
        stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
        for n in itertools.count(1):
            try:
                store = Store.create(
                    RUNS_DIR / f"{config['command']}-{stamp}{f'-{n}' if n > 1 else ''}.sqlite", config, resolved
                )
                break
            except StoreExists:
                continue
    try:
        store.lock()
        yield store
    except BaseException:
        store.discard()
        if made_folder:
            with contextlib.suppress(OSError):  # (another run's file may be in it by now)
                RUNS_DIR.rmdir()
        raise


def resume(command: str, specs: list[str], units: int | None, options: RunOptions) -> Store:
    """The run to go on with (`options.db`, or the newest of `command` in RUNS_DIR), locked, once
    what the command line says of it agrees with its database."""
    path = Path(options.db) if options.db else newest_run(command)
    store = Store.open(path)
    try:
        store.lock()
        _check_resumable(store, command, specs, units, options)
    except BaseException:
        store.close()
        raise
    return store


def _check_resumable(store: Store, command: str, specs: list[str], units: int | None, options: RunOptions) -> None:
    path, config = store.path, store.config
    if config["command"] != command:
        raise StoreError(f"{path} holds a {config['command']}, not a {command}")
    if options.seed is not None and options.seed != config["seed"]:
        began = "the seeds of a seed file (--seeds)" if config.get("seeds") else f"--seed {config['seed']}"
        raise StoreError(f"{path} was run with {began}, not --seed {options.seed}")
    seeds_before = len(config.get("seeds") or ())
    if refuse_another_draw(path, config, options.seatings, options.seeds):
        if units is None and config["units"] == seeds_before:  # (--pairs was their number: it stays so)
            units = len(config["seeds"])
        store.put("config", config)
    stored = store.players()
    if specs and (
        len(specs) != len(stored)
        or any(text not in (p.label, p.spec, f"{p.label}={p.spec}") for text, p in zip(specs, stored, strict=True))
    ):
        raise StoreError(f"{path} is a run of {' '.join(config['players'])}, not of {' '.join(specs)}")
    game = stored_game(config)
    for player in stored:
        why = players.changed_since(player, game)
        if why:
            raise StoreError(f"cannot resume {path}: player {player.label}: {why}; start a new run")
    check_travel(game, stored)
    if options.replays is not None and options.replays != config.get("replays", replays.DEFAULT):
        config["replays"] = replays.chosen(options.replays, [p.label for p in stored])  # from now on
        store.put("config", config)
    if units is not None and units != config["units"]:  # play on to a new number of units
        if units < 1:
            raise UsageError("the number of pairs (units) must be at least 1")
        begun = max((unit + 1 for _, unit, _ in store.done_keys()), default=0)
        if units < begun:  # (its report would count more units than its limit, an SPRT "undecided" within it)
            raise UsageError(f"{path} has played {begun} pairs (units) already: give {begun} or more")
        if config.get("seeds") and units > len(config["seeds"]):
            raise UsageError(f"--pairs {units} needs {units} seeds; the run has {len(config['seeds'])}")
        config["units"] = units
        store.put("config", config)


def _begun(path: Path) -> tuple[str, int]:
    """A default run file's place in time: its stamp, then its number within the second (`-2`)."""
    stamp, dash, n = path.stem.rpartition("-")
    return (stamp, int(n)) if dash and n.isdigit() and len(n) < 4 else (path.stem, 1)


def refuse_another_draw(path: Path, config: dict, seatings: str | None, seeds: str | None, what: str = "run") -> bool:
    """StoreError where a run (or league) that goes on is given other seatings or another seed file
    than it began with: what shapes its games is its own (both were taken and ignored, unsaid). A
    seed file that begins with the run's seeds and holds more extends them: `config` takes them,
    and the answer is whether it changed (to be stored)."""
    began = config.get("seatings", SEATINGS[0])
    if seatings is not None and seatings != began:
        raise StoreError(f"{path} was {what} with --seatings {began}, not {seatings}")
    if seeds is None:
        return False
    given, own = seed_list(seeds, None)[0], config.get("seeds")
    if own and given[: len(own)] == own:
        config["seeds"] = given  # (the same, or more: a run of a seed file goes on to more units)
        return given != own
    began = "the seeds of its own seed file" if own else f"seeds derived from --seed {config['seed']}"
    more = " (a longer file that begins with them extends the run)" if own else ""
    raise StoreError(f"{path} was {what} with {began}, not those of {seeds}{more}")


def newest_run(command: str) -> Path:
    runs = sorted(RUNS_DIR.glob(f"{command}-*.sqlite"), key=_begun)
    if not runs:
        raise StoreError(f"no {command} to resume in {RUNS_DIR}/: give its database with --db")
    return runs[-1]


def play_on(store: Store, options: RunOptions) -> int:
    """Play the games the run has not played, each stored as it ends; then its report."""
    config = store.config
    game = stored_game(config)
    by_label = {p.label: p for p in store.players()}
    lineups = [tuple(lineup) for lineup in config["lineups"]]
    done = store.done_keys()
    todo = (
        job
        for job in jobs(
            lineups, config["seed"], range(config["units"]), config.get("seatings", "balanced"), config.get("seeds")
        )
        if job.key not in done
    )
    per_unit = units_of(config)
    total = (
        per_unit * config["units"] * len(lineups)
        if not config.get("unpaired")
        else len(lineups) * config["units"] * len(lineups[0])
    )
    live = Live(config, store.games(), store.failures())
    if not live.finished():
        players.prepare(list(by_label.values()), game, sys.stderr)
    print(
        f"{config['command']} of {game.name} {' '.join(config['players'])}: {total} games at most, "
        f"{len(done)} already played; database {store.path}",
        file=sys.stderr,
    )
    if live.finished():
        print_report(store, list(by_label))
        return finished_status(live)

    workers = max(min(options.workers, total - len(done)), 1)  # (no more processes than games left)
    executor = make_executor(options.backend, workers, options.ray_address)  # before the bar's thread
    bar = tqdm(total=total, initial=len(done), unit="game", disable=options.quiet, dynamic_ncols=True, file=sys.stderr)
    bar.set_postfix_str(live.describe(), refresh=False)

    def on_record(record: dict) -> None:
        if record.get("failure"):
            store.add_failure(record)
            live.fail(record)
            bar.set_postfix_str(live.describe())
        else:
            store.add_game(record)
            live.add(record)
            # (the figures before the count: `update` draws the line, which showed the last game's
            # count beside the figures of the game before)
            bar.set_postfix_str(live.describe(), refresh=False)
            bar.update(1)

    try:
        run_jobs(  # (Ctrl+C or SIGTERM, the command line's KeyboardInterrupt, stops it: below)
            todo,
            game,
            by_label,
            executor,
            on_record=on_record,
            should_stop=live.finished,
            games_per_task=max(options.games_per_worker, 1),
            tasks_in_flight=executor.tasks_in_flight,
            log=sys.stderr,
        )
    except KeyboardInterrupt:
        bar.close()
        print(
            f"\ninterrupted; {len(store.done_keys())} games are stored. Continue with:\n"
            f"  {command_again(config['command'] + ' --resume', store.path, options)}",
            file=sys.stderr,
        )
        return INTERRUPTED
    except NoMachine as exc:
        bar.close()
        raise NoMachine(
            f"{exc}; {len(store.done_keys())} games are stored, and "
            f"{command_again(config['command'] + ' --resume', store.path, options)} plays the others once a machine can"
        ) from None
    finally:
        executor.shutdown()
    bar.close()
    print_report(store, list(by_label))
    left = len(unplayed(store.failures(), store.games()))
    if left:
        print(
            f"\n{left} failed games are still to play (see above); "
            f"{command_again(config['command'] + ' --resume', store.path, options)} plays them again",
            file=sys.stderr,
        )
    print(f"\nDatabase: {store.path}  (arena report {quoted(store.path)} rebuilds this report)", file=sys.stderr)
    return finished_status(live)


def print_report(store: Store, labels: list[str]) -> None:
    """The run's report on stdout, flushed before what follows on stderr (where both go to one file);
    a reader that leaves takes none of the rest: the run still says how to go on and exits with its
    status (an SPRT's verdict)."""
    with reader_may_leave():
        print(report(store, labels), flush=True)


def finished_status(live: Live) -> int:
    """The exit status of a run played to its end: 0, but for an SPRT what it decided (SPRT_STATUS),
    so that a script or a CI job can tell a better version from one that is not (the course the
    progress line followed, every game counted)."""
    if live.sprt is None:
        return 0
    decided = live.sprt.decided
    return SPRT_STATUS[decided.verdict if decided else None]


def report(store: Store, labels: list[str]) -> str:
    """A run's text report, with what it kept of its games' replays."""
    config, games = store.config, store.games()
    text = text_report(config, labels, games, store.failures())
    line = replays_line(store, len(games))
    return text + (f"\n\n{line}" if line else "")


def replays_line(store: Store, games: int) -> str | None:
    """What the run kept of its games' replays, where its referee sends frames or it kept some."""
    kept, size = store.replays_kept()
    config = store.config
    try:
        game = stored_game(config)
    except StoreError:
        game = None
    if not kept and (game is None or not game.sends_frames()):
        return None
    # Known: named by the run (its jar, its class path, its --viewer) and still there; whether that
    # holds a viewer the page can play is arena.web.viewer's to say, a floor above this one.
    viewer_known = game is not None and any(os.path.exists(path) for path in game.viewer_paths())
    policy = config.get("replays", replays.DEFAULT)
    return replays.report_line(policy, kept, size, games, quoted(store.path), viewer_known)


class Live:
    """What the progress bar shows: errors and failures; a match's W-D-L and score; an SPRT's LLR and
    bounds (first player against the second, in the first lineup)."""

    def __init__(self, config: dict, games: list[dict], failures: list[dict] = ()):
        self.config = config
        a, b, *_ = config["lineups"][0]
        self.a, self.b = a, b
        per_unit = units_of(config)
        self.units = UnitCounter(a, b, per_unit)
        self.sprt = SprtCourse(a, b, **config["sprt"], per_unit=per_unit) if config["sprt"] else None
        self.wdl = [0, 0, 0]
        self.errors = 0
        self.failed = {game_key(f) for f in failures}  # the games failed and not played since
        for game in games:
            self.add(game)

    @property
    def failures(self) -> int:
        return len(self.failed)

    def add(self, game: dict) -> None:
        self.failed.discard(game_key(game))  # a failed game played again (its machine was lost)
        self.errors += sum(bool(e) for e in game["errors"])
        if self.config["command"] == "tournament":
            return
        self.units.add(game)
        if self.sprt:
            self.sprt.add(game)
        got = versus(game, self.a, self.b)
        if got is not None:
            self.wdl[{1.0: 0, 0.5: 1, 0.0: 2}[got]] += 1

    def fail(self, failure: dict) -> None:
        self.failed.add(game_key(failure))

    def finished(self) -> bool:
        return bool(self.sprt and self.sprt.decided)

    def describe(self) -> str:
        text = f"errors {self.errors}" + (f" failed {self.failures}" if self.failures else "")
        if self.config["command"] == "tournament":
            return text
        # (the W-D-L counts every game so far, as the bar does; the score, the complete pairs alone)
        pairs = counted(sum(self.units.counts), "pair" if self.units.per_unit == 2 else "unit")
        score = _score(self.units.estimate())
        text = f"W-D-L {'-'.join(map(str, self.wdl))} {score} of {pairs} {text}"
        if self.sprt:
            s = self.sprt.state
            text += f" LLR {s.llr:.2f} [{s.lower:.2f}, {s.upper:.2f}]"
        return text


def _score(est: Estimate) -> str:
    """The score with the 95% interval the report's Elo comes from: a clean sweep's was `+- 0.0`, as
    sure as no result is, where the report gave it a one-sided bound."""
    if not est.n:
        return "score -"
    low, high = est.score_interval
    return f"score {100 * est.score:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"
