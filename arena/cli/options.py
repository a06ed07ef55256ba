"""The options several commands share: a run's (its database, seeds, workers, backend), and the
game's (Volcanoes by default, a game of arena.toml, or an external referee given inline)."""

from __future__ import annotations

import argparse
from dataclasses import fields

from referee.platform.options import count, given, positive_ms
from referee.platform.pools import check_workers, cores

from arena.errors import UsageError
from arena.games.base import Game
from arena.games.config import CONFIG_FILE, chosen_game
from arena.games.protocols import EXTERNAL, PROTOCOLS, make
from arena.play import replays
from arena.play.runs import RUNS_DIR, RunOptions
from arena.play.store import StoreError
from arena.stats.units import SEATINGS


def add_run_options(p: argparse.ArgumentParser, db_help: str | None = None, resume_help: str | None = None) -> None:
    """The options of a run; `db_help` and `resume_help` say what --db and --resume mean where a
    command's run is not a new file each time (a league's)."""
    p.add_argument(
        "--db",
        metavar="PATH",
        type=given,
        help=db_help or f"the run's database (default: a new file in {RUNS_DIR}/ named by command and time)",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help=resume_help
        or f"continue the run in --db (default: the newest of this command in {RUNS_DIR}/), with its stored "
        "players, seeds and settings",
    )
    p.add_argument("--seed", type=int, help="run seed; every game's seed derives from it (default: random)")
    add_seeds_option(p)
    p.add_argument(
        "--workers",
        type=count(1),
        default=cores(),
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
        help="pool: processes on this machine (default); ray: a Ray cluster (the default with --ray-address)",
    )
    p.add_argument(
        "--ray-address",
        type=given,
        metavar="HOST:PORT",
        help="a Ray cluster's head, to play on (implies --backend ray; with --backend ray alone: a Ray started here)",
    )
    p.add_argument(
        "--replays",
        type=replays_option,
        metavar="WHICH",
        help="which games keep their replay, for the game's own viewer (arena serve, arena replay), where "
        "the referee sends view frames: all (default), lost (those the lineup's first player did not win, "
        "and those a bot failed), lost:LABEL, none. Stored with the run; given with --resume, it changes",
    )
    add_game_options(p)
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def replays_option(text: str) -> str:
    """An argparse type: a run's replays option (arena/play/replays.py)."""
    try:
        return replays.parse(text)
    except UsageError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_seeds_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--seeds",
        metavar="FILE",
        help="the referee's seeds, one integer a line: unit k plays the k-th (as CGBenchmark); "
        "a match's or tournament's --pairs defaults to their number, and a run of more units than seeds is refused",
    )


def add_game_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("the game (default: Volcanoes, refereed in-process)")
    g.add_argument("--game", metavar="NAME", help=f"a game declared in {CONFIG_FILE} ([games.NAME])")
    g.add_argument("--config", metavar="FILE", help=f"where games and players are declared (default ./{CONFIG_FILE})")
    g.add_argument("--referee", metavar="CMD", help="an external referee's command line (with --protocol)")
    g.add_argument(
        "--protocol",
        choices=EXTERNAL,
        help="how the referee speaks: " + "; ".join(f"{name}: {PROTOCOLS[name].about}" for name in EXTERNAL),
    )
    g.add_argument("--players", dest="seats", type=count(2), metavar="N", help="players in one game (default 2)")
    g.add_argument("--seed-flag", metavar="TEMPLATE", help="how the referee takes the seed (cli: '-d seed={seed}')")
    g.add_argument("--league", type=count(0), metavar="N", help="the referee's league level")
    g.add_argument(
        "--viewer",
        metavar="PATH",
        help="where the game's own viewer is (a jar, or a folder holding view/), where the referee's "
        "command names no jar (default: the jars it names)",
    )
    g.add_argument(
        "--turn-ms", type=positive_ms, help="time per turn where the arena keeps the clock (default: CodinGame's 100)"
    )
    g.add_argument(
        "--first-turn-ms", type=positive_ms, help="time for a player's first turn (default: CodinGame's 1000)"
    )
    g.add_argument(
        "--seatings",
        choices=SEATINGS,
        help="how one seed seats its lineup: balanced (default: 2 players, both sides; N players, every "
        "rotation of the lineup and of it reversed), rotations, or permutations",
    )
    g.add_argument(
        "--allow-unseeded",
        action="store_true",
        help="play on where the referee ignores the seed (games then count one by one, unpaired)",
    )


def game_settings(args: argparse.Namespace) -> dict:
    """The game's settings the game options give (None: not given), each as its game's config names it."""
    return {
        "protocol": args.protocol,
        "players": args.seats,
        "seed_flag": args.seed_flag,
        "league": args.league,
        "turn_ms": args.turn_ms,
        "first_turn_ms": args.first_turn_ms,
        "viewer": args.viewer,
    }


def game_of(args: argparse.Namespace) -> Game:
    """The game the game options choose."""
    game = chosen_game(args.game, args.referee, game_settings(args), args.config)
    if args.allow_unseeded and game.replays_seeds:  # (it was taken and ignored, unsaid)
        raise UsageError(
            f"--allow-unseeded is for a referee that may ignore the seed: the referee of {game.name} replays every seed"
        )
    return game


def names_a_game(args: argparse.Namespace) -> bool:
    """Whether the game options name a game other than the default."""
    return args.game is not None or args.referee is not None or args.protocol is not None


# The game's options a run keeps from its start (option -> its flag): given again when it goes on (a
# resumed run, a league started again), each must say what the run began with; it was ignored.
KEPT_GAME_OPTIONS = {
    "turn_ms": "--turn-ms",
    "first_turn_ms": "--first-turn-ms",
    "seats": "--players",
    "league": "--league",
}


def refuse_another_game(args: argparse.Namespace, game: Game, path, what: str = "a run") -> None:
    """StoreError where the game options of a run that goes on (`game`: the one stored at `path`)
    say otherwise than it began with: a run keeps its game and the game's options. An option said
    first: the same game with another --players was said to be another game."""
    config = game.config()
    given = {key: value for key, value in game_settings(args).items() if value is not None and key != "protocol"}
    make({**config, **given})  # (GameError for a setting its protocol takes not, as a new run is told)
    for name, flag in KEPT_GAME_OPTIONS.items():
        value = getattr(args, name)
        before = game.seats if name == "seats" else config.get(name)
        if value is not None and value != before:
            began = f"with {flag} {before:g}" if before is not None else f"without {flag}"
            raise StoreError(f"{path} was begun {began}, not {flag} {value:g}: {what} keeps its game's options")
    if names_a_game(args) and game_of(args).config() != config:
        raise StoreError(f"{path} is {what} of {game.name}: its game was chosen when it began")


def run_options_of(args: argparse.Namespace) -> RunOptions:
    """A run's options, as the run options give them (each option is named as its field); workers
    more than this machine runs at once are refused before anything is made."""
    if args.backend is None:  # (an address given alone was ignored: the games played here, unsaid)
        args.backend = "ray" if args.ray_address else "pool"
    elif args.backend == "pool" and args.ray_address:
        raise UsageError("--ray-address names a Ray cluster to play on: it goes with --backend ray, not pool")
    if args.backend == "pool":
        check_workers(args.workers)
    return RunOptions(**{option.name: getattr(args, option.name) for option in fields(RunOptions)})
