"""The `arena` command: matches, tournaments and SPRT tests between bots, the tuning of a bot's
parameters, the analysis of games, and reports from their databases. `arena tournament` with no
argument plays a ladder of the project's own bots."""

from __future__ import annotations

import argparse
import os
import secrets
import sqlite3
import sys
from datetime import datetime, timezone
from pathlib import Path

from tqdm import tqdm

from referee.errors import CommandParser, UserError, report
from referee.volcanoes.match import Settings

from arena import bundle
from arena.bench import stress
from arena.bench import timing as bench
from arena.games.volcanoes import analyse
from arena.play import players as players_mod
from arena.play import tune
from arena.errors import UsageError
from arena.play.players import PlayerError, changed_since, fixed_budget_notes, prepare, resolve_all
from arena.stats.tables import PairCounter, SprtCourse, points, text_report
from arena.play.run import make_executor, run_jobs
from arena.play.schedule import gauntlet, jobs, ladder, round_robin
from arena.stats.estimates import Z95, pentanomial_estimate
from arena.play.store import Store, StoreError

RUNS_DIR = Path("arena-runs")
DEFAULT_PAIRS = {"match": 50, "tournament": 16, "sprt": 5000}
LADDER_PAIRS, LADDER_REACH = 8, 2  # `arena tournament` alone: each bot against the next two, ~1 min on 2 cores


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help()
        return 2
    try:
        return args.run(args)
    except UserError as exc:  # a user's mistake: `arena COMMAND: message` (anything else is a bug: a traceback)
        return report(args, exc)
    except BrokenPipeError:  # `arena report DB | head`: the reader has what it wanted
        # Python's own flush at exit would fail on the closed pipe again: point stdout elsewhere.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def build_parser() -> argparse.ArgumentParser:
    parser = CommandParser(prog="arena", description=__doc__)
    sub = parser.add_subparsers(title="commands")

    p = sub.add_parser("match", help="N seat-swapped pairs of games between two players")
    p.add_argument("players", nargs="*", metavar="PLAYER", help="two players (see `arena bots`)")
    p.add_argument("--pairs", type=int, help="pairs of games (default 50)")
    _run_options(p)
    p.set_defaults(run=cmd_match)

    p = sub.add_parser("tournament", help="round robin (or a gauntlet) with ratings and a cross-table")
    p.add_argument(
        "players",
        nargs="*",
        metavar="PLAYER",
        help=f"players (default: a ladder of {' '.join(players_mod.default_tournament())}, "
        f"each against the next {LADDER_REACH}, {LADDER_PAIRS} pairs each)",
    )
    p.add_argument("--gauntlet", metavar="PLAYER", help="play this one against each of the others only")
    p.add_argument("--pairs", type=int, help="pairs of games per pairing (default 16; the ladder 8)")
    _run_options(p)
    p.set_defaults(run=cmd_tournament)

    p = sub.add_parser("sprt", help="is NEW stronger than BASE? a sequential test that stops early")
    p.add_argument("players", nargs="*", metavar="PLAYER", help="NEW BASE")
    p.add_argument("--elo0", type=float, default=0.0, help="Elo difference of H0 (default 0)")
    p.add_argument("--elo1", type=float, default=10.0, help="Elo difference of H1 (default 10)")
    p.add_argument("--alpha", type=float, default=0.05, help="false positive rate (default 0.05)")
    p.add_argument("--beta", type=float, default=0.05, help="false negative rate (default 0.05)")
    p.add_argument("--max-pairs", dest="pairs", type=int, help="stop undecided after this many pairs (default 5000)")
    _run_options(p)
    p.set_defaults(run=cmd_sprt)

    p = sub.add_parser("tune", help="tune a bot's parameters by SPSA over paired games, then confirm")
    p.add_argument(
        "bot",
        nargs="?",
        metavar="BOT",
        help="a registered bot with parameters (see `arena bots`); mcts:c=0.3 starts from c=0.3",
    )
    p.add_argument(
        "--params",
        metavar="NAMES",
        help="the parameters to tune, over their declared ranges (c,rave_k) or narrower ones (c,rave_k=500:20000)",
    )
    p.add_argument(
        "--opponent",
        metavar="PLAYER",
        help="play each side against this player (default: the two sides against each other)",
    )
    p.add_argument("--iterations", type=int, help=f"SPSA iterations (default {tune.DEFAULTS['iterations']})")
    p.add_argument(
        "--pairs-per-iteration",
        type=int,
        metavar="K",
        help=f"seat-swapped pairs an iteration plays (default {tune.DEFAULTS['pairs_per_iteration']}); "
        "more keeps more workers busy",
    )
    p.add_argument(
        "--c-end",
        type=float,
        metavar="FRACTION",
        help=f"the last perturbation, a fraction of each range (default {tune.DEFAULTS['c_end']:g})",
    )
    p.add_argument(
        "--r-end",
        type=float,
        help="OpenBench's r_end, the last gain (default: such that coin-toss games move each value "
        "a tenth of its range)",
    )
    p.add_argument(
        "--confirm-pairs",
        type=int,
        metavar="N",
        help=f"pairs of the final match of the tuned values against the start "
        f"(default {tune.DEFAULTS['confirm_pairs']}; 0: none)",
    )
    _run_options(p)
    p.set_defaults(run=cmd_tune, players=[], pairs=None)

    p = sub.add_parser("report", help="rebuild a run's report from its database alone")
    p.add_argument("db", metavar="DB")
    p.add_argument(
        "-o", "--output", metavar="HTML", help="also write the report as a page, with each game's replay page beside it"
    )
    p.set_defaults(run=cmd_report)

    p = sub.add_parser("bots", help="the registered bots")
    p.set_defaults(run=cmd_bots)

    bench.register(sub)
    stress.register(sub.choices["bench"])
    bundle.register(sub)
    analyse.register(sub)
    return parser


def _run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--db",
        metavar="PATH",
        help=f"the run's database (default: a new file in {RUNS_DIR}/ named by command and time)",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue the run in --db (default: the newest of this command in "
        f"{RUNS_DIR}/), with its stored players, seeds and settings",
    )
    p.add_argument("--seed", type=int, help="run seed; every game's seed derives from it (default: random)")
    p.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="games at once on this machine (default: every core; 1 plays in this "
        "process); on a Ray cluster, every CPU of the cluster",
    )
    p.add_argument(
        "--games-per-worker",
        type=int,
        default=1,
        metavar="N",
        help="games a worker plays per task (larger cuts overhead on a cluster; default 1)",
    )
    p.add_argument(
        "--backend",
        choices=("pool", "ray"),
        default="pool",
        help="pool: processes on this machine (default); ray: a Ray cluster",
    )
    p.add_argument("--ray-address", help="Ray cluster address (default: start a local Ray)")
    p.add_argument("--turn-ms", type=float, default=Settings.turn_ms, help="time per turn (default 100)")
    p.add_argument(
        "--first-turn-ms",
        type=float,
        default=Settings.first_turn_ms,
        help="time for a player's first turn (default 1000)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")


# ---------------------------------------------------------------- commands


def cmd_match(args) -> int:
    if not args.resume and len(args.players) != 2:
        raise PlayerError("a match is between two players: arena match A B")
    return _play(args, "match", lambda labels: [tuple(labels)])


def cmd_tournament(args) -> int:
    default = not args.resume and not args.players
    if default:  # a ladder of the project's bots, strongest first
        args.players = players_mod.default_tournament()
        args.pairs = LADDER_PAIRS if args.pairs is None else args.pairs
    if not args.resume and len(args.players) < 2:
        raise PlayerError("a tournament needs at least two players")

    def pairings(labels):
        if default and args.gauntlet is None:
            return ladder(labels, LADDER_REACH)
        if args.gauntlet is None:
            return round_robin(labels)
        hero = next((p for p, text in zip(labels, args.players, strict=True) if args.gauntlet in (p, text)), None)
        if hero is None:
            raise PlayerError(f"--gauntlet {args.gauntlet}: not one of the players")
        return gauntlet(hero, labels)

    return _play(args, "tournament", pairings)


def cmd_sprt(args) -> int:
    if not args.resume and len(args.players) != 2:
        raise PlayerError("an SPRT compares two players: arena sprt NEW BASE")
    if not args.elo1 > args.elo0:
        raise UsageError(f"--elo1 ({args.elo1:g}) must be greater than --elo0 ({args.elo0:g})")
    for name in ("alpha", "beta"):
        if not 0 < getattr(args, name) < 1:
            raise UsageError(f"--{name} must lie strictly between 0 and 1, not {getattr(args, name):g}")
    sprt = {"elo0": args.elo0, "elo1": args.elo1, "alpha": args.alpha, "beta": args.beta}
    return _play(args, "sprt", lambda labels: [tuple(labels)], sprt)


def cmd_report(args) -> int:
    store = Store.open(args.db, readonly=True)  # a report never changes the file it reads
    try:
        config, labels, games = store.config, [p.label for p in store.players()], store.games()
        iterations = store.iterations() if config["command"] == "tune" else None
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{args.db} is damaged: {exc}") from None
    finally:
        store.close()
    if iterations is not None:
        if args.output:
            raise UsageError("a tune's report is text only: drop -o")
        print(tune.text_report(config, games, iterations))
        return 0
    print(text_report(config, labels, games))
    if args.output:
        import arena.web.report_page as report_html

        try:
            folder = report_html.write(config, labels, games, Path(args.output))
        except OSError as exc:
            raise UsageError(f"cannot write the report {args.output}: {exc.strerror or exc}") from None
        print(f"\nwrote {args.output} (replays in {folder})")
    return 0


def cmd_bots(args) -> int:
    from bots.volcanoes.registry import PARAMETERS

    for name, target in players_mod.REGISTRY.items():
        declared = " ".join(
            f"{p.name}={p.default:g} [{p.low:g}, {p.high:g}] ({p.type.__name__})" for p in PARAMETERS.get(name, ())
        )
        print(f"{name:12} {target:36} {declared}".rstrip())
    print(
        f"\nOptions: NAME:OPT=VALUE,... (e.g. mcts:c=0.3,rave_k=2000); {players_mod.TIME_OPTION}=N sets a "
        "player's turn limit in ms (its first turn scales with it), e.g. uct:ms=1000."
    )
    return 0


def cmd_tune(args) -> int:
    store = _resume(args, "tune") if args.resume else _create_tune(args)
    try:
        if args.resume:
            _check_tune_resumable(args, store)
        tuning = tune.Tuning(store)
        executor = make_executor(args.backend, max(args.workers, 1), args.ray_address)
        try:
            tuning.play(executor, games_per_task=max(args.games_per_worker, 1), quiet=args.quiet)
        except KeyboardInterrupt:
            print(
                f"\ninterrupted; {len(store.done_keys())} games are stored. Continue with:\n"
                f"  arena tune --resume --db {store.path}",
                file=sys.stderr,
            )
            return 130
        finally:
            executor.shutdown()
        print(tune.text_report(store.config, store.games(), store.iterations()))
        print(f"\nDatabase: {store.path}  (arena report {store.path} rebuilds this report)", file=sys.stderr)
        return 0
    finally:
        store.close()


def _create_tune(args) -> Store:
    if not args.bot or not args.params:
        raise UsageError("arena tune BOT --params NAME[,NAME...] (e.g. arena tune mcts --params c,rave_k)")
    options = {key: tune.DEFAULTS[key] if getattr(args, key) is None else getattr(args, key) for key in tune.DEFAULTS}
    for key, least in (("iterations", 1), ("pairs_per_iteration", 1), ("confirm_pairs", 0)):
        if options[key] < least:
            raise UsageError(f"--{key.replace('_', '-')} must be at least {least}, not {options[key]}")
    if not 0 < options["c_end"] <= 0.5:
        raise UsageError(f"--c-end is a fraction of each range, in (0, 0.5], not {options['c_end']:g}")
    if options["r_end"] is not None and not options["r_end"] > 0:
        raise UsageError(f"--r-end must be above zero, not {options['r_end']:g}")
    start, tuned = tune.parse_params(args.bot, args.params)
    opponent = tune.opponent_player(args.opponent) if args.opponent else None
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    config = tune.new_config(
        start,
        tuned,
        opponent=opponent,
        iterations=options["iterations"],
        pairs=options["pairs_per_iteration"],
        seed=seed,
        settings=_settings(args),
        c_end=options["c_end"],
        r_end=options["r_end"],
        confirm_pairs=options["confirm_pairs"],
    )
    return _new_store(args, config, [start] + ([opponent] if opponent else []))


def _check_tune_resumable(args, store: Store) -> None:
    """What the command line says of the run must be what the database holds (the rest is taken from it)."""
    config = store.config
    stored = {
        "bot": config["bot"],
        "opponent": config["opponent"],
        "iterations": config["iterations"],
        "pairs_per_iteration": config["pairs_per_iteration"],
        "confirm_pairs": config["confirm_pairs"],
        "c_end": config["spsa"]["c_end"],
        "r_end": config["spsa"]["r_end"],
        "params": ",".join(f"{p['name']}={p['low']!r}:{p['high']!r}" for p in config["params"]),
    }
    if args.params:
        args.params = ",".join(
            f"{t.name}={t.low!r}:{t.high!r}" for t in tune.parse_params(args.bot or config["bot"], args.params)[1]
        )
    for key, value in stored.items():
        given = getattr(args, key)
        if given is not None and given != value:
            option = "BOT" if key == "bot" else f"--{key.replace('_', '-')}"
            raise StoreError(f"{store.path} was run with {option} {value}, not {given}")


# ---------------------------------------------------------------- one run


def _play(args, command: str, make_pairings, sprt: dict | None = None) -> int:
    store = _resume(args, command) if args.resume else _create(args, command, make_pairings, sprt)
    try:
        return _continue(args, store)
    finally:
        store.close()


def _create(args, command, make_pairings, sprt) -> Store:
    pairs = DEFAULT_PAIRS[command] if args.pairs is None else args.pairs
    if pairs < 1:
        raise UsageError("the number of pairs must be at least 1")
    settings = _settings(args)
    players = resolve_all(args.players)
    labels = [p.label for p in players]
    config = {
        "command": command,
        "players": labels,
        "pairings": [list(p) for p in make_pairings(labels)],
        "pairs": pairs,
        "seed": args.seed if args.seed is not None else secrets.randbelow(2**31),
        "settings": settings,
        "sprt": sprt,
    }
    return _new_store(args, config, players)


def _settings(args) -> dict:
    for option in ("turn_ms", "first_turn_ms"):
        if not getattr(args, option) > 0:
            raise UsageError(f"--{option.replace('_', '-')} must be above zero, not {getattr(args, option):g}")
    return {"turn_ms": args.turn_ms, "first_turn_ms": args.first_turn_ms}


def _new_store(args, config: dict, players) -> Store:
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    path = Path(args.db) if args.db else RUNS_DIR / f"{config['command']}-{stamp}.sqlite"
    store = Store.create(path, config, players)
    store.lock()
    return store


def _resume(args, command: str) -> Store:
    path = Path(args.db) if args.db else _newest_run(command)
    store = Store.open(path)
    try:
        store.lock()
        _check_resumable(args, command, store)
    except BaseException:
        store.close()
        raise
    return store


def _check_resumable(args, command: str, store: Store) -> None:
    path, config = store.path, store.config
    if config["command"] != command:
        raise StoreError(f"{path} holds a {config['command']}, not a {command}")
    if args.seed is not None and args.seed != config["seed"]:
        raise StoreError(f"{path} was run with --seed {config['seed']}, not {args.seed}")
    stored = store.players()
    if args.players and (
        len(args.players) != len(stored)
        or any(
            text not in (p.label, p.spec, f"{p.label}={p.spec}") for text, p in zip(args.players, stored, strict=True)
        )
    ):
        raise StoreError(f"{path} is a run of {' '.join(config['players'])}, not of {' '.join(args.players)}")
    for player in stored:
        why = changed_since(player)
        if why:
            raise StoreError(f"cannot resume {path}: player {player.label} {why}; start a new run")
    if args.pairs is not None and args.pairs != config["pairs"]:  # play on to a new number of pairs
        if args.pairs < 1:
            raise UsageError("the number of pairs must be at least 1")
        config["pairs"] = args.pairs
        store.put("config", config)


def _newest_run(command: str) -> Path:
    runs = sorted(RUNS_DIR.glob(f"{command}-*.sqlite"))
    if not runs:
        raise StoreError(f"no {command} to resume in {RUNS_DIR}/: give its database with --db")
    return runs[-1]


def _continue(args, store: Store) -> int:
    config = store.config
    players = {p.label: p for p in store.players()}
    pairings = [tuple(p) for p in config["pairings"]]
    settings = Settings(**config["settings"])
    done = store.done_keys()
    todo = (job for job in jobs(pairings, config["seed"], range(config["pairs"])) if job.key not in done)
    total = 2 * config["pairs"] * len(pairings)
    live = _Live(config, store.games())
    if not live.finished():
        prepare(list(players.values()))
        for note in fixed_budget_notes(players.values(), settings):
            print(note, file=sys.stderr)
    print(
        f"{config['command']} {' '.join(config['players'])}: {total} games at most, "
        f"{len(done)} already played; database {store.path}",
        file=sys.stderr,
    )
    if live.finished():
        print(text_report(config, list(players), store.games()))
        return 0

    bar = tqdm(total=total, initial=len(done), unit="game", disable=args.quiet, dynamic_ncols=True, file=sys.stderr)
    bar.set_postfix_str(live.describe(), refresh=False)

    def on_record(record: dict) -> None:
        store.add_game(record)
        live.add(record)
        bar.set_postfix_str(live.describe(), refresh=False)
        bar.update(1)

    executor = make_executor(args.backend, max(args.workers, 1), args.ray_address)
    try:
        run_jobs(
            todo,
            players,
            settings,
            executor,
            on_record=on_record,
            should_stop=live.finished,
            games_per_task=max(args.games_per_worker, 1),
            tasks_in_flight=executor.tasks_in_flight,
        )
    except KeyboardInterrupt:
        bar.close()
        print(
            f"\ninterrupted; {len(store.done_keys())} games are stored. Continue with:\n"
            f"  arena {config['command']} --resume --db {store.path}",
            file=sys.stderr,
        )
        return 130
    finally:
        executor.shutdown()
    bar.close()
    print(text_report(config, list(players), store.games()))
    print(f"\nDatabase: {store.path}  (arena report {store.path} rebuilds this report)", file=sys.stderr)
    return 0


class _Live:
    """What the progress bar shows: errors; a match's W-D-L and score; an SPRT's LLR and bounds."""

    def __init__(self, config: dict, games: list[dict]):
        self.config = config
        a, b = config["pairings"][0]
        self.first = a
        self.pairs = PairCounter(a, b)
        self.sprt = SprtCourse(a, b, **config["sprt"]) if config["sprt"] else None
        self.wdl = [0, 0, 0]
        self.errors = 0
        for game in games:
            self.add(game)

    def add(self, game: dict) -> None:
        self.errors += bool(game["blue_error"]) + bool(game["orange_error"])
        if self.config["command"] == "tournament":
            return
        self.pairs.add(game)
        if self.sprt:
            self.sprt.add(game)
        self.wdl[{1.0: 0, 0.5: 1, 0.0: 2}[points(game, self.first)]] += 1

    def finished(self) -> bool:
        return bool(self.sprt and self.sprt.decided)

    def describe(self) -> str:
        text = f"errors {self.errors}"
        if self.config["command"] == "tournament":
            return text
        est = pentanomial_estimate(self.pairs.counts)
        score = f"score {100 * est.score:.1f}% +- {100 * Z95 * est.stderr:.1f}" if est.n else "score -"
        text = f"W-D-L {'-'.join(map(str, self.wdl))} {score} {text}"
        if self.sprt:
            s = self.sprt.state
            text += f" LLR {s.llr:.2f} [{s.lower:.2f}, {s.upper:.2f}]"
        return text


if __name__ == "__main__":
    sys.exit(main())
