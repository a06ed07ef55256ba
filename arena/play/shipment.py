"""What travels with a run to a cluster's machines, and how it arrives there.

On this machine, `travelling` gathers what a game and its players read from here (`Game.travels`,
`Provider.travels`: pinned copies, trees, builds, a command's folder and the files it names, a
referee's folder and files), each absolute path once, none inside another, and refuses in one line
a command that names another absolute path (unless the game declares it on every machine,
`node_paths`) or a thing too large to travel. A `Shipment` carries the game's configuration, the
players, and the parcels of those paths (arena/play/parcels.py).

On the machine that plays (a Ray task: `play_shipped`, `play_seed`), `arrive` unpacks each parcel
once per machine, moves every path that named one to its copy there (and the sending machine's
Python to this one's), makes the game, and checks and prepares its players once per worker process;
what this machine cannot do is a `MachineFailure` naming it, answered for each game as the machine's
failure, to be played again elsewhere.
"""

from __future__ import annotations

import dataclasses
import fcntl
import io
import os
import shlex
import sys
import threading
from pathlib import Path

from arena.errors import UsageError
from arena.games.base import Game, Player, RefereeFailure
from arena.games.protocols import make
from arena.play import parcels
from arena.play.parcels import MachineFailure, Parcel, machine_name
from arena.play.run import MACHINE, failure, play_batch
from arena.play.schedule import Job
from arena.players import registry as players_of

DEPENDENCIES = "install the project's dependencies on every machine of the cluster (docs/cluster.md)"


# ---------------------------------------------------------------- on the machine that sends it


def travelling(game: Game, players: list[Player]) -> list[str]:
    """The absolute paths (files and folders) that travel with a run of `game` between `players`,
    none inside another; UsageError, in one line, for a command that names another absolute path
    (unless the game declares it on every machine), or for a thing too large to travel."""
    wanted = [(os.path.abspath(path), "the referee") for path in game.travels()]
    for player in players:
        wanted += [(os.path.abspath(path), f"player {player.label}") for path in players_of.travels(player, game)]
    sources: list[str] = []
    for path, whose in sorted(wanted, key=lambda item: len(item[0])):
        if not os.path.exists(path):
            raise UsageError(f"{path}, which {whose} runs from, does not exist: it cannot travel to the cluster")
        if not any(_within(path, other) for other in sources):
            parcels.check_weight(path)
            sources.append(path)
    commands = [("the referee's command", _words(game.config().get("command")), game.config().get("cwd"))]
    commands += [(f"player {p.label}'s command", shlex.split(p.target), p.cwd) for p in players if p.kind != "bot"]
    fixed = [*sources, *game.node_paths]
    for what, words, _ in commands:
        for path in _absolute_paths(words):
            if path != sys.executable and not any(_within(path, other) for other in fixed):
                declare = (
                    "or declare it in the game's node_paths if every machine of the cluster has it"
                    if hasattr(game, "cwd")
                    else "or give it as a player of its own (a file is pinned and travels)"
                )
                raise UsageError(
                    f"on a cluster, {what} names {path}, which does not travel with the run (the folder a command "
                    f"is given in and the files it names do): give it relative to that folder, {declare}"
                )
    return sorted(sources)


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _words(command) -> list[str]:
    if command is None:
        return []
    return shlex.split(command) if isinstance(command, str) else list(command)


def _absolute_paths(words: list[str]) -> list[str]:
    """The absolute paths among a command's words, and after the `=` of a word (`-Dconf=/etc/x`)."""
    found = []
    for word in words:
        for part in (word, word.partition("=")[2]):
            if part.startswith("/"):
                found.append(os.path.normpath(part))
    return found


# ---------------------------------------------------------------- on the machine that plays


@dataclasses.dataclass(frozen=True)
class Shipment:
    """What a machine needs to play a run's games: the game's configuration and the players, paths
    as on the machine that sent them, and the parcels those paths name."""

    game: dict
    players: dict[str, Player]
    parcels: tuple[Parcel, ...]
    python: str = sys.executable  # the sender's Python, which each machine replaces by its own
    prepare: bool = True  # False where the sender's machine is the one that plays: ready already

    @property
    def key(self) -> str:
        return repr((sorted(self.game.items(), key=str), sorted(self.players.items()), self.parcels))


_arrived: dict[str, tuple[Game, dict[str, Player], set[str]]] = {}  # this worker's, by shipment key
_arrival_lock = threading.Lock()


def moved(command, cwd: str | None, places: dict[str, str]):
    """`command` (a command line, or its words) with each word that names a path under a key of
    `places` (absolute, after a word's `=` too, or relative to `cwd` and leading out of it) naming
    the same path under its value; unchanged (the same text) where no word moves."""
    words = _words(command)
    changed = False
    out = []
    for word in words:
        new = _moved_word(word, cwd, places)
        if new == word and "=" in word:
            head, _, tail = word.partition("=")
            new = head + "=" + _moved_word(tail, None, places)
        changed |= new != word
        out.append(new)
    if not changed:
        return command
    return shlex.join(out) if isinstance(command, str) else out


def _moved_word(word: str, cwd: str | None, places: dict[str, str]) -> str:
    if word.startswith("/"):
        return moved_place(word, places)
    if cwd is None or "/" not in word:
        return word
    path = os.path.normpath(os.path.join(cwd, word))
    if _within(path, cwd):  # it moves with its folder (by a way that does not name the folder: `../me/x`)
        return os.path.relpath(path, cwd) if ".." in Path(word).parts else word
    there = moved_place(path, places)
    return there if there != path else word


def moved_place(path: str | None, places: dict[str, str]) -> str | None:
    """`path` under the longest key of `places` it lies in, moved under that key's value."""
    if path is None:
        return None
    for source in sorted(places, key=len, reverse=True):
        if _within(path, source):
            return places[source] + path[len(source) :]
    return path


def arrive(shipment: Shipment, labels: list[str], get) -> tuple[Game, dict[str, Player]]:
    """On the machine that plays: the game and the players of `labels`, made from what travelled
    (fetched once per machine) with every path moved to its copy here, checked and prepared once per
    worker process. MachineFailure, naming this machine, when it cannot play them."""
    with _arrival_lock:
        key = shipment.key
        # (each time: a copy unpacked is marked used, so that no prune removes it while its run plays)
        places = {parcel.source: str(parcels.unpack(parcel, get)) for parcel in shipment.parcels}
        if key not in _arrived:
            if shipment.python and shipment.python != sys.executable:
                places[shipment.python] = sys.executable
            config = _moved_config(shipment.game, places)
            try:
                game = make(config)
            except ImportError as exc:
                raise MachineFailure(f"{machine_name()} lacks the Python module {exc.name}: {DEPENDENCIES}") from None
            except UsageError as exc:
                raise MachineFailure(f"{machine_name()} cannot make the game: {exc}") from None
            players = {
                label: dataclasses.replace(p, target=moved(p.target, p.cwd, places), cwd=moved_place(p.cwd, places))
                for label, p in shipment.players.items()
            }
            _arrived[key] = (game, players, set())
        game, players, prepared = _arrived[key]
        fresh = [players[label] for label in labels if label not in prepared]
        if fresh and shipment.prepare:
            _prepare(game, fresh, first=not prepared)
            prepared.update(p.label for p in fresh)
        return game, players


def _moved_config(config: dict, places: dict[str, str]) -> dict:
    if not places:
        return dict(config)
    out = dict(config)
    cwd = config.get("cwd")
    if "command" in out:
        out["command"] = moved(out["command"], cwd, places)
    if cwd is not None:
        out["cwd"] = moved_place(cwd, places)
    for key, value in config.items():
        if isinstance(value, list) and all(isinstance(v, str) for v in value) and key != "command":
            out[key] = [moved_place(v, places) if v.startswith("/") else v for v in value]
    return out


def _prepare(game: Game, players: list[Player], first: bool) -> None:
    """The game's and the players' checks and preparations (arena/players/registry.prepare), one
    worker of a machine at a time (a warm-up compiles: once a machine, the others then load)."""
    log = io.StringIO()
    lock_path = parcels.machine_cache() / ".prepare.lock"
    try:
        lock_path.parent.mkdir(parents=True, exist_ok=True)
        with open(lock_path, "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if first:
                game.prepare(log)
            for player in players:
                players_of.provider_of(player, game).prepare([player], game, log)
    except ImportError as exc:
        raise MachineFailure(f"{machine_name()} lacks the Python module {exc.name}: {DEPENDENCIES}") from None
    except UsageError as exc:
        raise MachineFailure(f"{machine_name()} cannot play: {exc}") from None
    except OSError as exc:
        raise MachineFailure(f"{machine_name()} cannot prepare the game: {exc.strerror or exc}") from None


def play_shipped(shipment: Shipment, jobs: list[Job]) -> list[dict]:
    """A Ray task: `jobs` played on this machine from what travelled; each game's record, or, where
    this machine cannot play, a failure of the machine per game, to be played again elsewhere."""
    import ray  # (in a Ray worker: ray is there)

    labels = sorted({label for job in jobs for label in job.seats})
    try:
        game, players = arrive(shipment, labels, ray.get)
    except MachineFailure as exc:
        node = ray.get_runtime_context().get_node_id()
        return [failure(job, MACHINE, str(exc)) | {"again": True, "node": node} for job in jobs]
    return play_batch(game, jobs, players)


def play_seed(shipment: Shipment, labels: list[str], seed: int, bot_seeds: list[int]) -> tuple:
    """A Ray task: one play of the seed check here: ("outcome", where, Outcome), or ("referee",
    where, message, stderr), or ("machine", where, message)."""
    import ray  # (in a Ray worker: ray is there)

    here = machine_name()
    try:
        game, players = arrive(shipment, labels, ray.get)
        return ("outcome", here, game.play(seed, [players[label] for label in labels], bot_seeds))
    except MachineFailure as exc:
        return (MACHINE, here, str(exc))
    except RefereeFailure as exc:
        return ("referee", here, str(exc), exc.stderr)
