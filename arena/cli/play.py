"""`arena match`, `tournament`, `sprt` and `tune`: the command lines of the runs that play games
(arena/play/runs.py and arena/play/tune.py do the work)."""

from __future__ import annotations

from pathlib import Path

from referee.platform.options import count, number

from arena.cli.options import (
    add_run_options,
    game_of,
    game_settings,
    names_a_game,
    refuse_another_game,
    run_options_of,
)
from arena.errors import UsageError
from arena.play import runs, tune
from arena.play.cluster import connected
from arena.players import registry as players
from arena.players.base import PlayerError
from arena.play.store import Store, StoreError, stored_game


def register(sub) -> None:
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
        f"each against the next {runs.LADDER_REACH}, {runs.LADDER_PAIRS} pairs each)",
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
    for name, value, what in SPRT_BOUNDS:
        p.add_argument(f"--{name}", type=number(float), help=f"{what} (default {value:g})")
    p.epilog = (  # (for a script or a CI job: runs.SPRT_STATUS)
        f"Exit status: {runs.SPRT_STATUS['H1']} when it accepts H1 (NEW is better), {runs.SPRT_STATUS['H0']} when "
        f"it accepts H0,\n{runs.SPRT_STATUS[None]} when its units run out undecided; 2 for a mistake on the "
        "command line, 130 when interrupted."
    )
    _tune_parser(sub)


def _play_parser(sub, name: str, run, about: str, players_help: str, units: tuple[str, ...], units_help: str):
    """The parser of a command that plays a run: its players, its number of units (`units`, the
    option's names), the run's options."""
    p = sub.add_parser(name, help=about)
    p.add_argument("players", nargs="*", metavar="PLAYER", help=players_help)
    p.add_argument(*units, dest="pairs", type=count(1), help=units_help)
    add_run_options(p)
    p.set_defaults(run=run)
    return p


def _tune_parser(sub) -> None:
    p = sub.add_parser("tune", help="tune a bot's parameters by SPSA over paired games, then confirm")
    p.add_argument(
        "bot",
        nargs="?",
        metavar="BOT",
        help="a registered bot with parameters (see `arena bots`; mcts:c=0.3 starts from c=0.3), or a "
        "command line or file that reads them from its environment ('env C=0.3 ./bot', docs/tuning.md)",
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
    add_run_options(p)
    p.set_defaults(run=cmd_tune, players=[], pairs=None)


def cmd_match(args) -> int:
    return runs.play(
        "match", args.players, args.pairs, run_options_of(args), _new_game(args, "match"), runs.one_lineup, exact=True
    )


def cmd_tournament(args) -> int:
    game = _new_game(args, "tournament")
    specs, units = args.players, args.pairs
    default = not args.resume and not specs
    if default:  # the game's own ladder, strongest first
        specs = players.default_lineup(game)
        if not specs:
            raise PlayerError(f"a tournament of {game.name} needs its players: arena tournament A B C ...")
        units = runs.LADDER_PAIRS if units is None else units
    if args.resume and args.gauntlet:  # (it was taken and ignored: every lineup went on, unsaid)
        _refuse_another_gauntlet(args)
    lineups = runs.tournament_lineups(specs, default, args.gauntlet)
    return runs.play("tournament", specs, units, run_options_of(args), game, lineups)


def _refuse_another_gauntlet(args) -> None:
    config = _stored_config(args, "tournament")
    path = args.db or "the run"
    labels, seats = config["players"], len(config["lineups"][0])
    wanted = runs.tournament_lineups(labels, False, args.gauntlet)(labels, seats)
    if sorted(map(list, wanted)) != sorted(config["lineups"]):
        raise StoreError(f"{path} was not begun as a gauntlet of {args.gauntlet}: a run keeps its lineups")


# The SPRT's hypotheses and error rates: each option's name, default and meaning.
SPRT_BOUNDS = (
    ("elo0", 0.0, "Elo difference of H0"),
    ("elo1", 10.0, "Elo difference of H1"),
    ("alpha", 0.05, "false positive rate"),
    ("beta", 0.05, "false negative rate"),
)


def cmd_sprt(args) -> int:
    given = {name: getattr(args, name) for name, _, _ in SPRT_BOUNDS if getattr(args, name) is not None}
    if args.resume:  # a resumed SPRT keeps its bounds (other ones were taken and ignored, unsaid)
        config = _stored_config(args, "sprt")
        for name, value in given.items():
            if config.get("sprt") and value != config["sprt"][name]:
                path = args.db or "the run"
                raise StoreError(f"{path} was run with --{name} {config['sprt'][name]:g}, not {value:g}")
    sprt = {name: given.get(name, value) for name, value, _ in SPRT_BOUNDS}
    if not sprt["elo1"] > sprt["elo0"]:
        raise UsageError(f"--elo1 ({sprt['elo1']:g}) must be greater than --elo0 ({sprt['elo0']:g})")
    for name in ("alpha", "beta"):
        if not 0 < sprt[name] < 1:
            raise UsageError(f"--{name} must lie strictly between 0 and 1, not {sprt[name]:g}")
    options = run_options_of(args)
    return runs.play(
        "sprt", args.players, args.pairs, options, _new_game(args, "sprt"), runs.one_lineup, sprt, exact=True
    )


def _new_game(args, command: str):
    """The game of a new run (a resumed run's is in its database: game options given with --resume
    must say what it began with)."""
    if not args.resume:
        return game_of(args)
    if names_a_game(args) or any(value is not None for value in game_settings(args).values()):
        path = Path(args.db) if args.db else runs.newest_run(command)
        refuse_another_game(args, stored_game(_stored_config(args, command)), path)
    return None


def _stored_config(args, command: str) -> dict:
    """The configuration of the run `--resume` goes on with (read only)."""
    store = Store.open(Path(args.db) if args.db else runs.newest_run(command), readonly=True)
    try:
        return store.config
    finally:
        store.close()


def cmd_tune(args) -> int:
    options = run_options_of(args)
    with connected(options.backend, options.ray_address, options.workers):  # a cluster first: before any file
        return _tune(args, options)


def _tune(args, options) -> int:
    settings = {key: getattr(args, key) for key in tune.DEFAULTS}
    if args.resume:
        _new_game(args, "tune")
        store = runs.resume("tune", [], None, options)
        try:
            tune.check_resumable(store, args.bot, args.params, dict(settings, opponent=args.opponent))
        except BaseException:
            store.close()
            raise
    else:
        store = tune.create_run(
            args.bot, args.params, args.opponent, settings, game_of(args), options, _game_words(args)
        )
    try:
        return tune.play_to_end(store, options)
    finally:
        store.close()


# The game options (argument -> flag) that choose a run's game: what a command suggested for the same
# game must give again (a tune's check printed without them played Volcanoes, every game a crash).
GAME_FLAGS = {
    "game": "--game",
    "config": "--config",
    "referee": "--referee",
    "protocol": "--protocol",
    "seats": "--players",
    "seed_flag": "--seed-flag",
    "league": "--league",
    "viewer": "--viewer",
    "turn_ms": "--turn-ms",
    "first_turn_ms": "--first-turn-ms",
    "seatings": "--seatings",
}


def _game_words(args) -> list[str]:
    """The game options given, as words of a command line (`--game pebbles --turn-ms 1000`)."""
    words = []
    for name, flag in GAME_FLAGS.items():
        value = getattr(args, name)
        if value is not None:
            written = str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
            words += [flag, written]
    return words + (["--allow-unseeded"] if args.allow_unseeded else [])
