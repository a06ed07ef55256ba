"""`arena league`: the command line of a league (arena/play/league.py, arena/play/members.py).

    arena league [PLAYER ...] [--db FILE] [--game ... | --referee CMD --protocol P] [--mode M]
        create the league (its game is chosen now, once) or go on with it, and play until stopped
    arena league add PLAYER ...       players join (from any shell, while it plays or not)
    arena league remove LABEL ...     they leave (their games stay in the file)
    arena league pause LABEL ...      they stop playing for now
    arena league resume LABEL ...     they play again
    arena league status               standings, ratings and failures

A word that is an action is read as one: a player called `add` is given as `add=SPEC`.
"""

from __future__ import annotations

import secrets
from pathlib import Path

from arena.cli.options import add_run_options, game_of, refuse_another_game, run_options_of
from arena.errors import UsageError
from arena.play import members, replays
from arena.play.cluster import connected
from arena.players import registry as players
from arena.play.league import ACTIVE, DEFAULT_DB, play_until_stopped, standings_board
from arena.play.matchmaking import MODES
from arena.play.runs import refuse_another_draw
from arena.play.seeds import seed_list
from arena.play.store import Store, StoreError, playing, quoted, stored_game
from arena.stats.tables import printable, results_name, table
from arena.stats.units import SEATINGS

ACTIONS = ("add", *members.STANDINGS, "status")


def register(sub) -> None:
    """`arena league`, with the options of every run (--db, --workers, the game...)."""
    p = sub.add_parser(
        "league",
        help="a league that plays until stopped, while bots join and leave (arena league add v7=./bot)",
        description=__doc__ + f"\nIts database is {DEFAULT_DB} unless --db says otherwise.",
    )
    p.add_argument(
        "words", nargs="*", metavar="[ACTION] ARG", help=f"players to start with, or an action: {', '.join(ACTIONS)}"
    )
    p.add_argument(
        "--mode",
        choices=MODES,
        help="uncertain (default): games go where the leaderboard's order is least certain; leader: each "
        "new version plays the leader until their order is settled",
    )
    add_run_options(  # a league's database is one file, gone on with: not a run's new file
        p,
        db_help=f"the league's database (default: {DEFAULT_DB})",
        resume_help="go on with the league in --db (as arena league does anyway where it exists)",
    )
    p.set_defaults(run=cmd_league)


def cmd_league(args) -> int:
    path = Path(args.db) if args.db else DEFAULT_DB
    if args.words and args.words[0] in ACTIONS:
        action, rest = args.words[0], args.words[1:]
        if action == "add":
            return _add(path, rest, args.config)
        return {"status": _status}.get(action, _standing)(path, action, rest)
    options = run_options_of(args)
    with connected(options.backend, options.ray_address, options.workers):  # a cluster first: before any file
        store = _go_on(args, path) if path.exists() else _begin(args, path)
        try:
            return play_until_stopped(store, options)
        finally:
            store.close()


def _go_on(args, path: Path) -> Store:
    """The league at `path`, locked, what the command line says of it checked; its new players in."""
    store = members.open_league(path)
    try:
        members.lock(store)
        config = store.config
        if args.seed is not None and args.seed != config["seed"]:
            raise StoreError(f"{path} was started with --seed {config['seed']}, not {args.seed}")
        game = stored_game(config)
        refuse_another_game(args, game, path, "a league")
        if refuse_another_draw(path, config, args.seatings, args.seeds, "started"):
            store.put("config", config)
        if args.mode and args.mode != config.get("mode"):
            config["mode"] = args.mode
            store.put("config", config)
        if args.replays is not None and args.replays != config.get("replays", replays.DEFAULT):
            config["replays"] = replays.chosen(args.replays)  # for the games from now on
            store.put("config", config)
        # Checked (started, built) before they join, as at the league's start and by `league add`.
        players.prepare([players.resolve(text, game, config=args.config) for text in args.words], game)
        for text in args.words:
            members.join(store, game, text, quiet_if_in=True, config=args.config)
    except BaseException:
        store.close()
        raise
    return store


def _begin(args, path: Path) -> Store:
    if args.resume:
        raise StoreError(f"no league to resume at {path}: start one with arena league PLAYER ... --db {quoted(path)}")
    seeds, _ = seed_list(args.seeds, None)
    settings = {
        "seed": args.seed if args.seed is not None else secrets.randbelow(2**31),
        "seeds": seeds,
        "seatings": args.seatings or SEATINGS[0],
        "mode": args.mode or MODES[0],
        "replays": replays.chosen(args.replays),
    }
    return members.create(path, game_of(args), args.words, settings, args.allow_unseeded, args.config)


def _add(path: Path, texts: list[str], config: str | None) -> int:
    if not texts:
        raise UsageError("arena league add LABEL=SPEC ... (a player as every command takes it)")
    store = members.open_league(path, readonly=True)
    try:
        game = stored_game(store.config)
    finally:
        store.close()
    # Checked (started, built) before it joins, as a match checks its players: one that cannot play
    # "joined" and was paused by the league later, said only in its status.
    players.prepare([players.resolve(text, game, config=config) for text in texts], game)
    with members.changing(path) as store:
        for text in texts:
            members.join(store, game, text, config=config)
    return 0


def _standing(path: Path, action: str, labels: list[str]) -> int:
    if not labels:
        raise UsageError(f"arena league {action} LABEL ...")
    with members.changing(path) as store:
        members.set_standing(store, action, labels)
    return 0


def _status(path: Path, action: str, rest: list[str]) -> int:
    def say(text: str = "") -> None:  # labels, reasons and details as a terminal may show them
        print(printable(text))

    if rest:
        raise UsageError("arena league status takes no argument but --db")
    store = members.open_league(path, readonly=True)
    try:
        config, standing, failures = store.config, store.league_players(), store.failures()
        games = store.games(light=True)
        board = standings_board(standing, games)
    finally:
        store.close()
    name = config.get("game", {}).get("name", "volcanoes")
    state = {True: "playing now", False: "not playing now", None: "unknown"}[playing(path)]
    say(f"league of {name} in {path} ({state}): {board.count} games among its players, mode {config.get('mode')}")
    rows = []
    for row in board.rows():
        rows.append(
            [
                row["rank"] or "-",
                row["label"],
                standing.get(row["label"], {}).get("status", "-"),
                f"{row['elo']:+.0f}" if row["elo"] is not None else "-",
                f"[{row['low']:+.0f}, {row['high']:+.0f}]" if row["elo"] is not None else "-",
                row["games"],
                f"{row['wins']}-{row['draws']}-{row['losses']}",
                row["forfeits"],
            ]
        )
    say(table(rows, ["#", "player", "status", "Elo", "95% interval", "games", results_name(games), "errors"]))
    why = [(label, row) for label, row in standing.items() if row["status"] != ACTIVE and row["reason"]]
    if why:
        say()
        for label, row in why:
            say(f"{label} {row['status']}: {row['reason']}")
    if failures:
        kinds: dict[str, int] = {}
        for f in failures:
            kinds[f["kind"]] = kinds.get(f["kind"], 0) + 1
        say(
            f"\n{len(failures)} games failed ({', '.join(f'{n} by the {k}' for k, n in kinds.items())}); "
            f"the last: {failures[-1]['detail']}"
        )
    return 0
