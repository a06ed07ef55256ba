"""`arena league`: the command line of a league (arena/play/league.py).

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
import signal
import sys
import time
from pathlib import Path

from arena.errors import UsageError
from arena.games.base import Player
from arena.play.league import ACTIVE, PAUSED, REMOVED, League
from arena.play.matchmaking import MODES
from arena.play.players import PlayerError, resolve
from arena.play.store import Store, StoreError, playing

ACTIONS = ("add", "remove", "pause", "resume", "status")
DEFAULT_DB = Path("arena-runs") / "league.sqlite"
LOCK_TRIES = 20  # another process may hold the lock for an instant (`status` testing it)


def register(sub, run_options) -> None:
    """`arena league`, with the options of every run (`run_options`: --db, --workers, the game...)."""
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
    run_options(p)
    p.set_defaults(run=cmd_league)


def cmd_league(args) -> int:
    path = Path(args.db) if args.db else DEFAULT_DB
    if args.words and args.words[0] in ACTIONS:
        action, rest = args.words[0], args.words[1:]
        return {"add": _add, "status": _status}.get(action, _standing)(path, action, rest)
    return _run(args, path)


# ---------------------------------------------------------------- playing


def _run(args, path: Path) -> int:
    from arena import cli

    if path.exists():
        store = _open(path)
        try:
            _lock(store)
            config = store.config
            if config["command"] != "league":
                raise StoreError(f"{path} holds a {config['command']}, not a league")
            if args.seed is not None and args.seed != config["seed"]:
                raise StoreError(f"{path} was started with --seed {config['seed']}, not {args.seed}")
            if (args.game or args.referee) and cli._game(args).config() != cli._stored_game(config).config():
                raise StoreError(
                    f"{path} is a league of {config['game'].get('name')}: its game was chosen when it began"
                )
            if args.mode and args.mode != config.get("mode"):
                config["mode"] = args.mode
                store.put("config", config)
            game = cli._stored_game(config)
            for text in args.words:
                _join(store, game, text, quiet_if_in=True)
        except BaseException:
            store.close()
            raise
    else:
        if args.resume:
            raise StoreError(f"no league to resume at {path}: start one with arena league PLAYER ... --db {path}")
        store = _create(args, path, cli)
    try:
        return _play(args, store, cli)
    finally:
        store.close()


def _create(args, path: Path, cli) -> Store:
    game = cli._game(args)
    if not args.words:
        raise PlayerError("a league begins with at least one player: arena league PLAYER ... (add more later)")
    players = cli.resolve_all(args.words, game)
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    seeds, _ = cli._seed_list(args, None)
    config = {
        "command": "league",
        "game": {"name": game.name, **game.config()},
        "players": [p.label for p in players],
        "lineups": [],
        "units": None,
        "seatings": args.seatings,
        "seed": seed,
        "sprt": None,
        "seeds": seeds,
        "mode": args.mode or MODES[0],
    }
    # The seed check needs a full table: the first players, the first again where they are fewer.
    seated = (players * game.seats)[: game.seats]
    config.update(cli._seed_verdict(args, game, seated, seed))
    store = Store.create(path, config, [])
    try:
        _lock(store)
        for player in players:
            store.join_league(player)
    except BaseException:
        store.close()
        raise
    return store


def _play(args, store: Store, cli) -> int:
    config = store.config
    game = cli._stored_game(config)
    league = League(store, game, quiet=args.quiet)
    print(
        f"league of {game.name} in {store.path}: {league.board.count} games, "
        f"{len(league.active())} active players, mode {league.mode}. Stop with Ctrl+C; "
        f"arena league add LABEL=SPEC --db {store.path} adds a player while it plays",
        file=sys.stderr,
    )

    def stop(signum, frame) -> None:
        if league.stop_requested:  # a second Ctrl+C: stop now, the games in flight lost
            raise KeyboardInterrupt
        league.stop_requested = True
        print("\n[league] stopping: the games in play end and are stored (Ctrl+C again drops them)", file=sys.stderr)

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    league.ready(league.active())  # before the pool starts: forked workers then have the kernels loaded
    executor = cli.make_executor(args.backend, max(args.workers, 1), args.ray_address)
    try:
        league.play(executor)
    except KeyboardInterrupt:
        pass
    finally:
        executor.shutdown()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    print(
        f"[league] stopped: {league.describe()}. Go on with: arena league --db {store.path}",
        file=sys.stderr,
    )
    return 0


# ---------------------------------------------------------------- from another shell


def _open(path: Path) -> Store:
    if not path.is_file():
        raise StoreError(f"no league at {path}: start one with arena league PLAYER ... --db {path}")
    store = Store.open(path)
    if store.config["command"] != "league":
        store.close()
        raise StoreError(f"{path} holds a {store.config['command']}, not a league")
    return store


def _lock(store: Store) -> None:
    """The league's lock, waiting an instant for a process that only tests it (`playing`)."""
    for _ in range(LOCK_TRIES - 1):
        try:
            store.lock()
            return
        except StoreError:
            time.sleep(0.05)
    store.lock()


def _join(store: Store, game, text: str, quiet_if_in: bool = False) -> Player | None:
    player = resolve(text, game)
    standing = store.league_players()
    known = {p.label: p for p in store.players()}
    if player.label in known:
        old = known[player.label]
        status = standing.get(player.label, {}).get("status")
        if old.version != player.version or old.spec != player.spec:
            raise PlayerError(
                f"{player.label} is in this league already as {old.spec} (version {old.version}); give the new "
                f"one another label (e.g. {player.label}b={player.spec})"
            )
        if status == REMOVED:
            store.set_standing(player.label, ACTIVE)
            print(f"{player.label} is back in the league", file=sys.stderr)
            return player
        if not quiet_if_in:
            raise PlayerError(f"{player.label} is in this league already ({status})")
        return None
    store.join_league(player)
    print(f"{player.label} joined the league ({player.spec}, version {player.version})", file=sys.stderr)
    return player


def _add(path: Path, action: str, texts: list[str]) -> int:
    from arena import cli

    if not texts:
        raise UsageError("arena league add LABEL=SPEC ... (a player as every command takes it)")
    store = _open(path)
    try:
        game = cli._stored_game(store.config)
        for text in texts:
            _join(store, game, text)
        _say_if_idle(path)
    finally:
        store.close()
    return 0


def _standing(path: Path, action: str, labels: list[str]) -> int:
    if not labels:
        raise UsageError(f"arena league {action} LABEL ...")
    status = {"remove": REMOVED, "pause": PAUSED, "resume": ACTIVE}[action]
    store = _open(path)
    try:
        known = store.league_players()
        unknown = [label for label in labels if label not in known]
        if unknown:
            raise PlayerError(f"no player {unknown[0]!r} in this league: {', '.join(known) or 'none'}")
        for label in labels:
            reason = "" if status == ACTIVE else f"{'removed' if status == REMOVED else 'paused'} by the user"
            store.set_standing(label, status, reason)
            print(f"{label}: {status}", file=sys.stderr)
        _say_if_idle(path)
    finally:
        store.close()
    return 0


def _say_if_idle(path: Path) -> None:
    if playing(path) is False:
        print(f"no league process plays {path} now: arena league --db {path} goes on with it", file=sys.stderr)


def _status(path: Path, action: str, rest: list[str]) -> int:
    from arena.stats.board import Board
    from arena.stats.tables import printable, table

    def say(text: str = "") -> None:  # labels, reasons and details as a terminal may show them
        print(printable(text))

    if rest:
        raise UsageError("arena league status takes no argument but --db")
    if not path.is_file():
        raise StoreError(f"no league at {path}")
    store = Store.open(path, readonly=True)
    try:
        config, standing, failures = store.config, store.league_players(), store.failures()
        board = Board([label for label, row in standing.items() if row["status"] != REMOVED], history=False)
        for game in store.games(light=True):
            board.add(game)
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
    say(table(rows, ["#", "player", "status", "Elo", "95% interval", "games", "W-D-L", "errors"]))
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
