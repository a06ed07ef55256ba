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

from referee.platform.errors import CommandParser, UserError, reader_gone, report
from referee.platform.files import refuse_overwriting
from referee.platform.options import count, number, positive_ms

from arena import bundle
from arena.bench import stress
from arena.bench import timing as bench
from arena.errors import UsageError
from arena.games import GameError
from arena.games.base import Game, RefereeFailure
from arena.games.config import CONFIG_FILE, game_config, game_from
from arena.games.volcanoes import analyse_cli
from arena.play import league_cli, tune
from arena.play.players import PlayerError, changed_since, resolve_all
from arena.play.run import make_executor, run_jobs
from arena.play.schedule import SEATINGS, gauntlet, jobs, ladder, read_seeds, round_robin
from arena.play.seeds import check_seed
from arena.play.store import Store, StoreError
from arena.stats.estimates import Z95
from arena.stats.tables import SprtCourse, UnitCounter, text_report, units_of, versus
from arena.web import serve

RUNS_DIR = Path("arena-runs")
DEFAULT_UNITS = {"match": 50, "tournament": 16, "sprt": 5000}
LADDER_PAIRS, LADDER_REACH = 8, 2  # `arena tournament` alone: each bot against the next two, ~1 min on 2 cores


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    _name_each_command(parser)
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # said by the command they were given to (`arena match: unrecognized ...`)
        getattr(args, "command_parser", parser).error(f"unrecognized arguments: {' '.join(unknown)}")
    if not hasattr(args, "run"):
        parser.print_help(sys.stderr)
        return 2
    try:
        return args.run(args)
    except UserError as exc:  # a user's mistake: `arena COMMAND: message` (anything else is a bug: a traceback)
        return report(args, exc)
    except BrokenPipeError:  # `arena report DB | head`: the reader has what it wanted
        return reader_gone()


def _name_each_command(parser: argparse.ArgumentParser) -> None:
    """Each command's parser set as the default `command_parser` of its own arguments, the deepest
    one winning (`arena league add`)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                command.set_defaults(command_parser=command)
                _name_each_command(command)


def build_parser() -> argparse.ArgumentParser:
    parser = CommandParser(prog="arena", description=__doc__)
    sub = parser.add_subparsers(title="commands")

    _play_parser(
        sub,
        "match",
        cmd_match,
        "N units (seat-swapped pairs) of games between two players (or a game's N)",
        "two players (see `arena bots`), or as many as a game seats",
        ("--pairs", "--units"),
        "units of games: seat-swapped pairs (default 50)",
    )
    p = _play_parser(
        sub,
        "tournament",
        cmd_tournament,
        "round robin (or a gauntlet) with ratings and a cross-table",
        f"players (Volcanoes' default: a ladder of the project's bots, strongest first, "
        f"each against the next {LADDER_REACH}, {LADDER_PAIRS} pairs each)",
        ("--pairs", "--units"),
        "units of games per lineup (default 16; the ladder 8)",
    )
    p.add_argument("--gauntlet", metavar="PLAYER", help="play this one against each of the others only")
    p = _play_parser(
        sub,
        "sprt",
        cmd_sprt,
        "is NEW stronger than BASE? a sequential test that stops early",
        "NEW BASE (and, in a game of N players, N-2 more to fill its seats)",
        ("--max-pairs", "--max-units"),
        "stop undecided after this many units (default 5000)",
    )
    p.add_argument("--elo0", type=number(float), default=0.0, help="Elo difference of H0 (default 0)")
    p.add_argument("--elo1", type=number(float), default=10.0, help="Elo difference of H1 (default 10)")
    p.add_argument("--alpha", type=number(float), default=0.05, help="false positive rate (default 0.05)")
    p.add_argument("--beta", type=number(float), default=0.05, help="false negative rate (default 0.05)")

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
        type=number(float),
        metavar="FRACTION",
        help=f"the last perturbation, a fraction of each range (default {tune.DEFAULTS['c_end']:g})",
    )
    p.add_argument(
        "--r-end",
        type=number(float, above=0),
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
    p.add_argument("--csv", metavar="FILE", help="also write the ratings and the cross-table as CSV (a row a player)")
    p.add_argument("--json", metavar="FILE", help="also write the ratings and the cross-table as JSON")
    p.set_defaults(run=cmd_report)

    p = sub.add_parser("bots", help="the registered bots")
    p.set_defaults(run=cmd_bots)

    league_cli.register(sub, _run_options)
    serve.register(sub)
    bench.register(sub)
    stress.register(sub.choices["bench"])
    bundle.register(sub)
    analyse_cli.register(sub)
    return parser


def _play_parser(sub, name: str, run, about: str, players: str, units: tuple[str, ...], units_help: str):
    """The parser of a command that plays a run: its players, its number of units (`units`, the
    option's names), the run's options."""
    p = sub.add_parser(name, help=about)
    p.add_argument("players", nargs="*", metavar="PLAYER", help=players)
    p.add_argument(*units, dest="pairs", type=count(1), help=units_help)
    _run_options(p)
    p.set_defaults(run=run)
    return p


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
    _seeds_option(p)
    p.add_argument(
        "--workers",
        type=count(1),
        default=os.cpu_count() or 1,
        help="games at once on this machine (default: every core; 1 plays in this "
        "process); on a Ray cluster, every CPU of the cluster",
    )
    p.add_argument(
        "--games-per-worker",
        type=count(1),
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
    _game_options(p)
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def _seeds_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--seeds",
        metavar="FILE",
        help="the referee's seeds, one integer a line: unit k plays the k-th (as CGBenchmark); "
        "--pairs defaults to their number, and more units than seeds is refused",
    )


def _seed_list(args, units: int | None, what: str = "--pairs") -> tuple[list[int] | None, int | None]:
    """(the seeds of --seeds FILE, or None; the units: their number where none were asked for)."""
    if not getattr(args, "seeds", None):
        return None, units
    try:
        seeds = read_seeds(args.seeds)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if units is not None and units > len(seeds):
        raise UsageError(f"{what} {units} needs {units} seeds; {args.seeds} has {len(seeds)}")
    return seeds, len(seeds) if units is None else units


def _game_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("the game (default: Volcanoes, refereed in-process)")
    g.add_argument("--game", metavar="NAME", help=f"a game declared in {CONFIG_FILE} ([games.NAME])")
    g.add_argument("--config", metavar="FILE", help=f"where games are declared (default ./{CONFIG_FILE})")
    g.add_argument("--referee", metavar="CMD", help="an external referee's command line (with --protocol)")
    g.add_argument(
        "--protocol",
        choices=("cli", "sdk", "relay", "json"),
        help="how the referee speaks: cli (brutaltester's -p1 -p2 command line), sdk (CodinGame's "
        "RefereeMain), relay (the old ### protocol), json (psyleague's and CGArena's play-one-game)",
    )
    g.add_argument("--players", dest="seats", type=count(2), metavar="N", help="players in one game (default 2)")
    g.add_argument("--seed-flag", metavar="TEMPLATE", help="how the referee takes the seed (cli: '-d seed={seed}')")
    g.add_argument("--league", type=count(0), metavar="N", help="the referee's league level")
    g.add_argument(
        "--turn-ms", type=positive_ms, help="time per turn where the arena keeps the clock (default: CodinGame's 100)"
    )
    g.add_argument(
        "--first-turn-ms", type=positive_ms, help="time for a player's first turn (default: CodinGame's 1000)"
    )
    g.add_argument(
        "--seatings",
        choices=SEATINGS,
        default=SEATINGS[0],
        help="how one seed seats its lineup: balanced (default: 2 players, both sides; N players, every "
        "rotation of the lineup and of it reversed), rotations, or permutations",
    )
    g.add_argument(
        "--allow-unseeded",
        action="store_true",
        help="play on where the referee ignores the seed (games then count one by one, unpaired)",
    )


def _game(args) -> Game:
    options = {
        "protocol": args.protocol,
        "players": args.seats,
        "seed_flag": args.seed_flag,
        "league": args.league,
        "turn_ms": args.turn_ms,
        "first_turn_ms": args.first_turn_ms,
    }
    try:
        return game_from(game_config(args.game, args.referee, options, args.config))
    except GameError as exc:
        raise UsageError(str(exc)) from None


def _stored_game(config: dict) -> Game:
    try:
        return game_from(config["game"])
    except GameError as exc:
        raise StoreError(f"the run's game cannot be made: {exc}") from None


# ---------------------------------------------------------------- commands


def cmd_match(args) -> int:
    return _play(args, "match", lambda labels, seats: [tuple(labels)], exact=True)


def cmd_tournament(args) -> int:
    game = None if args.resume else _game(args)
    default = not args.resume and not args.players
    if default:  # the game's own ladder, strongest first
        args.players = game.default_players()
        if not args.players:
            raise PlayerError(f"a tournament of {game.name} needs its players: arena tournament A B C ...")
        args.pairs = LADDER_PAIRS if args.pairs is None else args.pairs

    def lineups(labels, seats):
        if default and args.gauntlet is None and seats == 2:
            return ladder(labels, LADDER_REACH)
        if args.gauntlet is None:
            return round_robin(labels, seats)
        hero = next((p for p, text in zip(labels, args.players, strict=True) if args.gauntlet in (p, text)), None)
        if hero is None:
            raise PlayerError(f"--gauntlet {args.gauntlet}: not one of the players")
        return gauntlet(hero, labels, seats)

    return _play(args, "tournament", lineups, game=game)


def cmd_sprt(args) -> int:
    if not args.elo1 > args.elo0:
        raise UsageError(f"--elo1 ({args.elo1:g}) must be greater than --elo0 ({args.elo0:g})")
    for name in ("alpha", "beta"):
        if not 0 < getattr(args, name) < 1:
            raise UsageError(f"--{name} must lie strictly between 0 and 1, not {getattr(args, name):g}")
    sprt = {"elo0": args.elo0, "elo1": args.elo1, "alpha": args.alpha, "beta": args.beta}
    return _play(args, "sprt", lambda labels, seats: [tuple(labels)], sprt, exact=True)


def cmd_report(args) -> int:
    for output in (args.output, args.csv, args.json):
        if output:
            refuse_overwriting(output, args.db)
    store = Store.open(args.db, readonly=True)  # a report never changes the file it reads
    try:
        config, labels, games = store.config, [p.label for p in store.players()], store.games()
        failures = store.failures()
        iterations = store.iterations() if config["command"] == "tune" else None
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{args.db} is damaged: {exc}") from None
    finally:
        store.close()
    if iterations is not None:
        if args.output:
            raise UsageError("a tune's report is text only: drop -o")
        print(tune.text_report(config, games, iterations))
        _export(args, config, labels, games, failures)
        return 0
    print(text_report(config, labels, games, failures))
    _export(args, config, labels, games, failures)
    if args.output:
        from arena.web import report_page

        try:
            folder = report_page.write(config, labels, games, Path(args.output), failures)
        except report_page.DamagedGame as exc:
            raise StoreError(f"{args.db} is damaged: {exc}") from None
        except OSError as exc:
            raise UsageError(f"cannot write the report {args.output}: {exc.strerror or exc}") from None
        print(f"\nwrote {args.output} (replays in {folder})")
    return 0


def _export(args, config, labels, games, failures) -> None:
    """--csv and --json, never over the database read."""
    from arena.stats import export

    try:
        export.export(config, labels, games, failures, args.csv, args.json)
    except OSError as exc:
        raise UsageError(f"cannot write the export: {exc.strerror or exc}") from None


def cmd_bots(args) -> int:
    from bots.volcanoes import registry

    for name, (module, cls) in registry.BOTS.items():
        declared = " ".join(
            f"{p.name}={p.default:g} [{p.low:g}, {p.high:g}] ({p.type.__name__})" for p in registry.parameters(name)
        )
        print(f"{name:12} {module + ':' + cls:36} {declared}".rstrip())
    print(
        f"\nOptions: NAME:OPT=VALUE,... (e.g. mcts:c=0.3,rave_k=2000); {registry.TIME_OPTION}=N sets a "
        "player's turn limit in ms (its first turn scales with it), e.g. uct:ms=1000."
    )
    print("These are Volcanoes' own bots; in any game, a player is also a file or a command line.")
    return 0


def cmd_tune(args) -> int:
    store = _resume(args, "tune") if args.resume else _create_tune(args)
    try:
        if args.resume:
            _check_tune_resumable(args, store)
        tuning = tune.Tuning(store)
        tuning.prepare()
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
    if options["r_end"] is not None and not 0 < options["r_end"] < float("inf"):
        raise UsageError(f"--r-end must be a finite number above zero, not {options['r_end']:g}")
    game = _game(args)
    if game.seats != 2:
        raise UsageError(f"arena tune plays 2-player games; {game.name} seats {game.seats}")
    start, tuned = tune.parse_params(args.bot, args.params, game)
    opponent = tune.opponent_player(args.opponent, game) if args.opponent else None
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    config = tune.new_config(
        start,
        tuned,
        opponent=opponent,
        iterations=options["iterations"],
        pairs=options["pairs_per_iteration"],
        seed=seed,
        game={"name": game.name, **game.config()},
        c_end=options["c_end"],
        r_end=options["r_end"],
        confirm_pairs=options["confirm_pairs"],
    )
    players = [start] + ([opponent] if opponent else [])
    seeds, _ = _seed_list(
        args, options["iterations"] * options["pairs_per_iteration"], "--iterations x --pairs-per-iteration"
    )
    _seed_list(args, options["confirm_pairs"], "--confirm-pairs")
    config["seeds"] = seeds
    config.update(_seed_verdict(args, game, [start, opponent or start], seed))
    return _new_store(args, config, players)


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
            f"{t.name}={t.low!r}:{t.high!r}"
            for t in tune.parse_params(args.bot or config["bot"], args.params, _stored_game(config))[1]
        )
    for key, value in stored.items():
        given = getattr(args, key)
        if given is not None and given != value:
            option = "BOT" if key == "bot" else f"--{key.replace('_', '-')}"
            raise StoreError(f"{store.path} was run with {option} {value}, not {given}")


# ---------------------------------------------------------------- one run


def _play(args, command: str, make_lineups, sprt: dict | None = None, exact: bool = False, game=None) -> int:
    store = _resume(args, command) if args.resume else _create(args, command, make_lineups, sprt, exact, game)
    try:
        return _continue(args, store)
    finally:
        store.close()


def _create(args, command, make_lineups, sprt, exact: bool, game: Game | None) -> Store:
    game = game or _game(args)
    seeds, units = _seed_list(args, args.pairs)
    units = DEFAULT_UNITS[command] if units is None else units
    if units < 1:
        raise UsageError("the number of pairs (units) must be at least 1")
    n = game.seats
    if exact and len(args.players) != n:
        if n == 2:
            raise PlayerError(
                "an SPRT compares two players: arena sprt NEW BASE"
                if sprt
                else "a match is between two players: arena match A B"
            )
        others = " (NEW BASE, then the others)" if sprt else ""
        raise PlayerError(f"a {command} of {game.name} is between its {n} players: give {n}{others}")
    if len(args.players) < n:
        raise PlayerError(f"a {command} of {game.name} needs at least {n} players")
    players = resolve_all(args.players, game)
    labels = [p.label for p in players]
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    config = {
        "command": command,
        "game": {"name": game.name, **game.config()},
        "players": labels,
        "lineups": [list(lineup) for lineup in make_lineups(labels, n)],
        "units": units,
        "seatings": args.seatings,
        "seed": seed,
        "sprt": sprt,
        "seeds": seeds,
    }
    config.update(_seed_verdict(args, game, players, seed))
    return _new_store(args, config, players)


def _seed_verdict(args, game: Game, players, seed: int) -> dict:
    """Before a run on an external referee: does a seed replay the same game? Paired statistics
    are honest only if it does; a referee that ignores the seed is refused, unless the user allows
    it knowingly (its games then count one by one)."""
    if game.replays_seeds:
        return {}
    print(f"checking that the referee of {game.name} honours the seed (one seed, played twice)...", file=sys.stderr)
    game.prepare(players[: game.seats], sys.stderr)
    try:
        verdict = check_seed(game, players[: game.seats], seed)
    except RefereeFailure as exc:
        raise UsageError(f"the referee of {game.name} failed its first game: {exc}") from None
    print(f"  {verdict.detail}", file=sys.stderr)
    if verdict.status == "ignored":
        if not args.allow_unseeded:
            raise UsageError(
                f"the referee of {game.name} ignores the seed ({verdict.detail}): paired statistics would be "
                f"wrong; {game.seed_advice}, or give --allow-unseeded to count games one by one"
            )
        return {"seed_check": verdict.status, "unpaired": True}
    return {"seed_check": verdict.status}


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
    game = _stored_game(config)
    for player in stored:
        why = changed_since(player, game)
        if why:
            raise StoreError(f"cannot resume {path}: player {player.label} {why}; start a new run")
    if args.pairs is not None and args.pairs != config["units"]:  # play on to a new number of units
        if args.pairs < 1:
            raise UsageError("the number of pairs (units) must be at least 1")
        if config.get("seeds") and args.pairs > len(config["seeds"]):
            raise UsageError(f"--pairs {args.pairs} needs {args.pairs} seeds; the run has {len(config['seeds'])}")
        config["units"] = args.pairs
        store.put("config", config)


def _newest_run(command: str) -> Path:
    runs = sorted(RUNS_DIR.glob(f"{command}-*.sqlite"))
    if not runs:
        raise StoreError(f"no {command} to resume in {RUNS_DIR}/: give its database with --db")
    return runs[-1]


def _continue(args, store: Store) -> int:
    config = store.config
    game = _stored_game(config)
    players = {p.label: p for p in store.players()}
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
    live = _Live(config, store.games(), store.failures())
    if not live.finished():
        game.prepare(list(players.values()), sys.stderr)
    print(
        f"{config['command']} of {game.name} {' '.join(config['players'])}: {total} games at most, "
        f"{len(done)} already played; database {store.path}",
        file=sys.stderr,
    )
    if live.finished():
        print(text_report(config, list(players), store.games(), store.failures()))
        return 0

    executor = make_executor(args.backend, max(args.workers, 1), args.ray_address)  # before the bar's thread
    bar = tqdm(total=total, initial=len(done), unit="game", disable=args.quiet, dynamic_ncols=True, file=sys.stderr)
    bar.set_postfix_str(live.describe(), refresh=False)

    def on_record(record: dict) -> None:
        if record.get("failure"):
            store.add_failure(record)
            live.fail(record)
        else:
            store.add_game(record)
            live.add(record)
            bar.update(1)
        bar.set_postfix_str(live.describe(), refresh=False)

    try:
        run_jobs(
            todo,
            game,
            players,
            executor,
            on_record=on_record,
            should_stop=live.finished,
            games_per_task=max(args.games_per_worker, 1),
            tasks_in_flight=executor.tasks_in_flight,
            log=sys.stderr,
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
    print(text_report(config, list(players), store.games(), store.failures()))
    if live.failures:
        print(
            f"\n{live.failures} games failed (see above); arena {config['command']} --resume --db {store.path} "
            "plays them again",
            file=sys.stderr,
        )
    print(f"\nDatabase: {store.path}  (arena report {store.path} rebuilds this report)", file=sys.stderr)
    return 0


class _Live:
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
        self.failures = len(failures)
        for game in games:
            self.add(game)

    def add(self, game: dict) -> None:
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
        self.failures += 1

    def finished(self) -> bool:
        return bool(self.sprt and self.sprt.decided)

    def describe(self) -> str:
        text = f"errors {self.errors}" + (f" failed {self.failures}" if self.failures else "")
        if self.config["command"] == "tournament":
            return text
        est = self.units.estimate()
        score = f"score {100 * est.score:.1f}% +- {100 * Z95 * est.stderr:.1f}" if est.n else "score -"
        text = f"W-D-L {'-'.join(map(str, self.wdl))} {score} {text}"
        if self.sprt:
            s = self.sprt.state
            text += f" LLR {s.llr:.2f} [{s.lower:.2f}, {s.upper:.2f}]"
        return text


if __name__ == "__main__":
    sys.exit(main())
