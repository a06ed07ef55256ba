"""A league's file seen from any shell: created with its first players (its game chosen then, once),
opened again, and players joining or changing standing while it plays or not (see arena/play/league.py
for why these writes need no lock of the playing process)."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from arena.games.base import Game, Player
from arena.play.cluster import check_travel
from arena.play.league import ACTIVE, PAUSED, REMOVED
from arena.play.seeds import checked_seed, seed_verdict
from arena.play.store import Store, StoreError, playing, quoted
from arena.players import registry as players
from arena.players.base import PlayerError

LOCK_TRIES = 20  # another process may hold the lock for an instant (`status` testing it)
STANDINGS = {"remove": REMOVED, "pause": PAUSED, "resume": ACTIVE}  # an action -> the standing it sets


def create(
    path: Path, game: Game, specs: list[str], settings: dict, allow_unseeded: bool, config: str | None = None
) -> Store:
    """A new league at `path`, locked, its first players in it; `settings`: the run's seed, seeds,
    seatings and matchmaking mode; `config`: the file that declares players by name."""
    if not specs:
        raise PlayerError("a league begins with at least one player: arena league PLAYER ... (add more later)")
    first = players.resolve_all(specs, game, config=config)
    players.prepare(first, game)  # (as `league add` does: one that cannot play is refused, not paused)
    config = {
        "command": "league",
        "game": {"name": game.name, **game.config()},
        "players": [p.label for p in first],
        "lineups": [],
        "units": None,
        "sprt": None,
        **settings,
    }
    # The seed check needs a full table: the first players, the first again where they are fewer.
    seated = (first * game.seats)[: game.seats]
    check_travel(game, first)
    config.update(seed_verdict(game, seated, checked_seed(config["seed"], config.get("seeds")), allow_unseeded))
    store = Store.create(path, config, [])
    try:
        lock(store)
        for player in first:
            store.join_league(player)
    except BaseException:
        store.close()
        raise
    return store


def open_league(path: Path, readonly: bool = False) -> Store:
    """The league at `path`, opened to be written (or only read); StoreError where there is none."""
    if not path.is_file():
        raise StoreError(f"no league at {path}: start one with arena league PLAYER ... --db {quoted(path)}")
    store = Store.open(path, readonly=readonly)
    command = store.config["command"]
    if command != "league":
        store.close()
        raise StoreError(f"{path} holds a {command}, not a league")
    return store


def lock(store: Store) -> None:
    """The league's lock, waiting an instant for a process that only tests it (`playing`)."""
    for _ in range(LOCK_TRIES - 1):
        try:
            store.lock()
            return
        except StoreError:
            time.sleep(0.05)
    store.lock()


def join(
    store: Store, game: Game, text: str, quiet_if_in: bool = False, log=None, config: str | None = None
) -> Player | None:
    """Player `text` joins the league (or comes back, removed before); PlayerError where one of its
    label is in it already (None instead, for the same player, with `quiet_if_in`)."""
    log = log or sys.stderr
    player = players.resolve(text, game, config=config)
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
            print(f"{player.label} is back in the league", file=log)
            return player
        if not quiet_if_in:
            raise PlayerError(f"{player.label} is in this league already ({status})")
        return None
    store.join_league(player)
    print(f"{player.label} joined the league ({player.spec}, version {player.version})", file=log)
    return player


def set_standing(store: Store, action: str, labels: list[str], log=None) -> None:
    """Players `labels` removed, paused or resumed (`action`, a key of STANDINGS) by the user."""
    log = log or sys.stderr
    status = STANDINGS[action]
    known = store.league_players()
    unknown = [label for label in labels if label not in known]
    if unknown:
        raise PlayerError(f"no player {unknown[0]!r} in this league: {', '.join(known) or 'none'}")
    for label in labels:
        reason = "" if status == ACTIVE else f"{'removed' if status == REMOVED else 'paused'} by the user"
        store.set_standing(label, status, reason)
        print(f"{label}: {status}", file=log)


@contextmanager
def changing(path: Path, log=None) -> Iterator[Store]:
    """The league at `path`, open to be changed from any shell; then, where no process plays it, a
    word that what was written waits for one."""
    store = open_league(path)
    try:
        yield store
    finally:
        store.close()
    if playing(path) is False:
        print(
            f"no league process plays {path} now: arena league --db {quoted(path)} goes on with it",
            file=log or sys.stderr,
        )
