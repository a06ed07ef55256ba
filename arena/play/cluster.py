"""Runs on a Ray cluster whose machines have none of this one's files (`--backend ray --ray-address
HEAD:PORT`), or on a Ray started here (`--backend ray` alone).

On a cluster a run takes what it needs with it (a *shipment*): the project's own packages through
Ray's runtime environment, cached by each machine across runs; everything else a game reads from
this machine (each player's pinned copy, tree, build or folder, the external referee's folder and
the files its command names, as their providers and the game declare them: `Provider.travels`,
`Game.travels`) as content-addressed parcels (`arena/play/parcels.py`), put once into Ray's object
store and unpacked once per machine. On the machine that plays, every path that named a parcel is
rewritten to its copy there, and this machine's Python to that one's. A command that names any other
absolute path is refused before the run, in one line, unless the game declares the path present on
every machine (`node_paths`).

A machine that cannot play (a parcel it cannot fetch, a program it does not have, a dependency
missing) answers each game of its batch with a failure of the machine naming it; the game is played
again elsewhere and that machine is left out for the rest of the run. A machine lost mid-game (Ray's
NodeDiedError) is recorded the same way, its games played again; a worker process that dies (a bot
that killed it) is the pool's case: played again alone, then recorded (arena/play/run.py). Ray's
own retries are off, so that each of these is seen and said.

Ray is one connection per process: `connected` opens it before a run's database is made (a cluster
that cannot be reached, or refuses this driver's token, is one line), and the seed check and the
executor of that run use it.
"""

from __future__ import annotations

import dataclasses
import fcntl
import io
import logging
import os
import re
import shlex
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from pathlib import Path

import arena
import bots
import referee

from arena.errors import UsageError
from arena.games.base import Game, Outcome, Player, RefereeFailure
from arena.games.protocols import make
from arena.play import parcels
from arena.play.parcels import MachineFailure, Parcel, machine_name
from arena.play.run import MACHINE, MachineLost, WorkerLost, failure, play_batch, pool_executor
from arena.play.schedule import Job
from arena.players import registry as players_of

# The project's packages travel without their compiled caches (numba's are keyed by this machine's
# paths: of no use on another, and ten times the size of the code).
PACKAGE_EXCLUDES = ["__pycache__", "*.pyc", "*.nbi", "*.nbc"]
CONNECT_TRIES = 8  # seconds, roughly, that a driver tries to reach a cluster (Ray's default: 20)
NO_MACHINE_S = 60.0  # how long a run waits for a machine to play on before it stops, saying why
WATCH_S = 5.0  # how often the executor looks whether the cluster still has a machine to play on
TOKEN_HELP = (
    "set RAY_AUTH_MODE=token and the cluster's token (RAY_AUTH_TOKEN, or RAY_AUTH_TOKEN_PATH naming its file) "
    "in this command's environment, as on the cluster's machines"
)

_session: Cluster | None = None


class NoMachine(UsageError, RuntimeError):
    """No machine of the cluster can play the run; the message says why each cannot."""


# ---------------------------------------------------------------- the connection


@contextmanager
def connected(backend: str, address: str | None, workers: int) -> Iterator[Cluster | None]:
    """The Ray connection of a run on the ray backend (None on the pool), open while the run is made
    and played: reached first, so that a cluster out of reach is one line before anything is made."""
    global _session
    if backend != "ray" or _session is not None:
        yield _session
        return
    cluster = Cluster.connect(address, workers)
    _session = cluster
    try:
        yield cluster
    finally:
        _session = None
        cluster.close()


def session() -> Cluster | None:
    """The Ray connection this process holds for its run (None on the pool)."""
    return _session


def check_travel(game: Game, players: list[Player]) -> None:
    """On a cluster: UsageError, in one line, for what of a run cannot travel to its machines."""
    if _session is not None:
        _session.check(game, players)


def make_executor(backend: str, workers: int, ray_address: str | None = None):
    """Where a run's games are played: this machine's pool (arena/play/run.py), or Ray."""
    if backend == "ray":
        return RayExecutor(_session or Cluster.connect(ray_address, workers), owned=_session is None)
    if backend != "pool":
        raise ValueError(f"unknown backend {backend!r}")
    return pool_executor(workers)


class Cluster:
    """This process's connection to Ray, and what its runs have shipped on it."""

    def __init__(self, ray, address: str | None, started: bool):
        self.ray = ray
        self.address = address
        self.remote = address is not None  # machines without this one's files
        self._started = started
        self._parcels: dict[str, Parcel] = {}  # by source path: each thing packed and put once
        self._shipments: dict[str, Shipment] = {}
        self.left_out: dict[str, str] = {}  # node id -> why it cannot play this run

    @classmethod
    def connect(cls, address: str | None, workers: int) -> Cluster:
        """Ray reached (`address`: a cluster's head, HOST:PORT) or started here (None); UsageError,
        in one line, for a cluster that cannot be reached or refuses this driver."""
        if address:  # Ray tries a cluster for 20 s by default (read when ray is imported)
            os.environ.setdefault("RAY_NUM_REDIS_GET_RETRIES", str(CONNECT_TRIES))
        try:
            import ray  # (optional: only the ray backend needs it)
        except ImportError as exc:
            raise UsageError("the ray backend needs Ray: pip install 'caldera[ray]'") from exc
        if ray.is_initialized():  # a caller's own connection (a test's): used, and left open
            return cls(ray, address, started=False)
        if address:
            modules = [os.path.dirname(m.__file__) for m in (arena, bots, referee)]
            options = {"address": address, "runtime_env": {"py_modules": modules, "excludes": PACKAGE_EXCLUDES}}
        else:
            root = os.path.dirname(os.path.dirname(arena.__file__))
            path = os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))
            options = {"num_cpus": workers, "runtime_env": {"env_vars": {"PYTHONPATH": path}}}
        try:
            with _stderr_kept_back():  # Ray's own lines on each try, which the one line below replaces
                ray.init(log_to_driver=False, include_dashboard=False, logging_level=logging.WARNING, **options)
        except (ConnectionError, ray.exceptions.AuthenticationError, ValueError) as exc:
            raise UsageError(_unreachable(address, exc)) from None
        return cls(ray, address, started=True)

    def close(self) -> None:
        if self._started:
            self.ray.shutdown()

    # ------------------------------------------------------------ machines

    def machines(self) -> dict[str, str]:
        """node id -> name of every live machine that plays (has CPUs), left-out ones included."""
        return {
            node["NodeID"]: node.get("NodeManagerHostname") or node.get("NodeName") or node["NodeManagerAddress"]
            for node in self.ray.nodes()
            if node.get("Alive") and node.get("Resources", {}).get("CPU", 0) > 0
        }

    def name_of(self, node_id: str) -> str:
        for node in self.ray.nodes():
            if node["NodeID"] == node_id:
                return node.get("NodeManagerHostname") or node.get("NodeName") or node["NodeManagerAddress"]
        return f"node {node_id[:12]}"

    def leave_out(self, node_id: str, why: str) -> None:
        """No more of this run's games on that machine."""
        self.left_out.setdefault(node_id, why)

    def playable(self) -> list[str]:
        """The ids of the live machines that may still play this run; NoMachine if there is none
        because each was left out."""
        alive = self.machines()
        left = [node for node in alive if node not in self.left_out]
        if alive and not left:
            raise NoMachine(
                "no machine of the cluster can play this run: "
                + "; ".join(self.left_out[node] for node in alive if node in self.left_out)
            )
        return left

    def task_options(self) -> dict:
        """Ray's options for a game's task: one CPU, no retry of Ray's own, the machines left out."""
        options = {"num_cpus": 1, "max_retries": 0, "retry_exceptions": False}
        if self.left_out:
            options["label_selector"] = {"ray.io/node-id": f"!in({','.join(sorted(self.left_out))})"}
        return options

    # ------------------------------------------------------------ what travels

    def shipment(self, game: Game, players: dict[str, Player]) -> Shipment:
        """What a machine needs to play `game` between `players` (made once, then reused; a league's
        players change, and so does its shipment)."""
        key = repr((sorted(game.config().items(), key=str), sorted(players.items())))
        found = self._shipments.get(key)
        if found is None:
            if self.remote:
                sources = travelling(game, list(players.values()))
                found = Shipment(game.config(), dict(players), tuple(self._parcel(path) for path in sources))
            else:  # Ray on this machine: every file is where it was given
                found = Shipment(game.config(), dict(players), (), python="", prepare=False)
            self._shipments[key] = found
        return found

    def _parcel(self, path: str) -> Parcel:
        if path not in self._parcels:
            self._parcels[path] = parcels.wrap(path, self.ray.put)
        return self._parcels[path]

    def check(self, game: Game, players: list[Player]) -> None:
        """UsageError, before a run is made, for what cannot travel to a machine of this cluster."""
        if self.remote:
            travelling(game, players)

    # ------------------------------------------------------------ the seed check

    def seed_plays(self, game: Game, seated: list[Player], seed: int) -> list[tuple[Outcome, str]]:
        """`seed` played twice between `seated` on the cluster, on two machines where it has two (the
        check then also finds machines that play one seed differently): each outcome, and where it
        was played. A machine that cannot play is left out, and another tried; RefereeFailure (its
        message saying where) for a referee that fails."""
        shipment = self.shipment(game, {p.label: p for p in seated})
        remote = self.ray.remote(play_seed)
        bot_seeds = [seed] * len(seated)
        plays: list[tuple[Outcome, str]] = []
        while len(plays) < 2:
            nodes = self.playable()
            if not nodes:
                raise NoMachine("the Ray cluster has no machine with a CPU to play on")
            used = {where for _, where in plays}
            names = self.machines()
            node = next((n for n in nodes if names[n] not in used), nodes[0])
            strategy = self.ray.util.scheduling_strategies.NodeAffinitySchedulingStrategy(node, soft=False)
            options = {"num_cpus": 1, "max_retries": 0, "scheduling_strategy": strategy}
            try:
                said = self.ray.get(
                    remote.options(**options).remote(shipment, [p.label for p in seated], seed, bot_seeds)
                )
            except self.ray.exceptions.RayError as exc:
                if isinstance(exc, self.ray.exceptions.RayTaskError):
                    raise
                self.leave_out(node, f"{names[node]}: {_ray_error(exc)}")
                continue
            kind, where, *rest = said
            if kind == MACHINE:
                self.leave_out(node, rest[0])
                print(f"  {rest[0]} (the check goes on without it)", file=sys.stderr)
            elif kind == "referee":
                raise RefereeFailure(f"on {where}: {rest[0]}", rest[1])
            else:
                plays.append((rest[0], where))
        return plays

    def executor(self) -> RayExecutor:
        return RayExecutor(self, owned=False)


def _unreachable(address: str | None, exc: Exception) -> str:
    """Why Ray could not be reached, in one line, and what to do about it."""
    if address is None:
        return f"cannot start Ray on this machine: {exc}"
    said = f"{exc} {exc.__cause__ or ''}"
    if "InvalidAuthToken" in said or isinstance(exc, _ray_errors().AuthenticationError):
        if os.environ.get("RAY_AUTH_MODE") != "token":
            return f"the Ray cluster at {address} asks a token of its drivers: {TOKEN_HELP}"
        return (
            f"the Ray cluster at {address} refused this command's token (RAY_AUTH_TOKEN or RAY_AUTH_TOKEN_PATH): "
            "give it the cluster's"
        )
    if isinstance(exc, ValueError):
        return f"--ray-address {address}: {exc} (give the head's HOST:PORT)"
    return (
        f"cannot connect to the Ray cluster at {address}: is `ray start --head` running there, and reachable from here?"
    )


def _ray_errors():
    import ray.exceptions  # (ray is imported already: the caller holds a connection)

    return ray.exceptions


@contextmanager
def _stderr_kept_back() -> Iterator[None]:
    """This process's stderr (file descriptor 2: Ray's C++ core writes there) held in a file while
    the block runs, then dropped."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with tempfile.TemporaryFile() as held:
            os.dup2(held.fileno(), 2)
            try:
                yield
            finally:
                sys.stderr.flush()
                os.dup2(saved, 2)
    finally:
        os.close(saved)


# ---------------------------------------------------------------- what travels, on this machine


def travelling(game: Game, players: list[Player]) -> list[str]:
    """The absolute paths (files and folders) that travel with a run of `game` between `players`,
    none inside another; UsageError, in one line, for a command that names another absolute path
    (unless the game declares it on every machine), or for a thing too large to travel."""
    wanted: list[tuple[str, str]] = [(os.path.abspath(path), "the referee's folder") for path in game.travels()]
    for player in players:
        wanted += [(os.path.abspath(path), f"player {player.label}'s") for path in players_of.travels(player, game)]
    sources: list[str] = []
    for path, what in sorted(wanted, key=lambda item: len(item[0])):
        if not os.path.exists(path):
            raise UsageError(f"{what} {path} does not exist: it cannot travel to the cluster")
        if not any(_within(path, other) for other in sources):
            parcels.check_weight(path, what.removesuffix("'s") if what.endswith("'s") else what)
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
        if key not in _arrived:
            places = {parcel.source: str(parcels.unpack(parcel, get)) for parcel in shipment.parcels}
            if shipment.python and shipment.python != sys.executable:
                places[shipment.python] = sys.executable
            config = _moved_config(shipment.game, places)
            try:
                game = make(config)
            except ImportError as exc:
                raise MachineFailure(f"{machine_name()} lacks the Python module {exc.name}: {_DEPENDENCIES}") from None
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


_DEPENDENCIES = "install the project's dependencies on every machine of the cluster (pip install 'caldera[ray]')"


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
        raise MachineFailure(f"{machine_name()} lacks the Python module {exc.name}: {_DEPENDENCIES}") from None
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


# ---------------------------------------------------------------- the executor


class RayExecutor:
    """Batches of games as Ray tasks on the cluster's machines, each handed what travels."""

    def __init__(self, cluster: Cluster, owned: bool = False):
        self.cluster = cluster
        self._owned = owned  # a connection it made itself, closed with it
        ray = cluster.ray
        self._ray = ray
        self.tasks_in_flight = 2 * max(int(ray.cluster_resources().get("CPU", 1)), 1)  # the cluster's CPUs
        self._remote = ray.remote(play_shipped)
        self._refs: dict[Future, object] = {}
        self._stop = threading.Event()
        self._watch = threading.Thread(target=self._watch_machines, daemon=True, name="watch-machines")
        self._watch.start()

    def submit(self, fn, game: Game, batch: list[Job], players: dict[str, Player]) -> Future:
        self.cluster.playable()  # NoMachine, rather than tasks that wait for ever
        shipment = self.cluster.shipment(game, players)
        ref = self._remote.options(**self.cluster.task_options()).remote(shipment, batch)
        future: Future = Future()
        self._refs[future] = ref
        ref.future().add_done_callback(lambda done: self._settle(future, done))
        return future

    def _settle(self, future: Future, done: Future) -> None:
        """The task's records, or the pool's words for what happened to it (run.py's WorkerLost,
        MachineLost); the machines whose checks failed are left out first."""
        if future.done():
            return
        errors = self._ray.exceptions
        try:
            records = done.result()
        except errors.TaskCancelledError as exc:
            future.set_exception(exc)
            return
        except errors.WorkerCrashedError:
            future.set_exception(WorkerLost("its Ray worker process died (killed by a bot, or out of memory)"))
            return
        except errors.RayTaskError as exc:  # our code raised: a bug, shown as such
            future.set_exception(exc)
            return
        except errors.RayError as exc:  # the machine: lost, or unable to run Ray's task
            node = _node_of(str(exc))
            name = self.cluster.name_of(node) if node else "a machine"
            future.set_exception(MachineLost(f"{name} was lost mid-game ({_ray_error(exc)})"))
            return
        except BaseException as exc:  # noqa: BLE001 - handed on through the future
            future.set_exception(exc)
            return
        for record in records:
            if record.get("again"):
                self.cluster.leave_out(record["node"], record["detail"])
        future.set_result(records)

    def _watch_machines(self) -> None:
        """A run on a cluster with no machine left to play on stops, saying so, after NO_MACHINE_S,
        rather than waiting for ever on tasks no machine takes."""
        missing_since = None
        while not self._stop.wait(WATCH_S):
            try:
                playable = self.cluster.playable()
            except NoMachine as exc:
                self._fail_all(exc)
                return
            except Exception:  # noqa: BLE001 - the connection going down: the tasks say it themselves
                continue
            if playable:
                missing_since = None
            elif missing_since is None:
                missing_since = time.monotonic()
            elif time.monotonic() - missing_since > NO_MACHINE_S:
                self._fail_all(NoMachine(f"the Ray cluster has had no machine to play on for {NO_MACHINE_S:.0f} s"))
                return

    def _fail_all(self, exc: Exception) -> None:
        for future in list(self._refs):
            if not future.done():
                future.set_exception(exc)

    def cancel(self, future: Future) -> bool:
        ref = self._refs.pop(future, None)
        if ref is not None:
            self._ray.cancel(ref, force=True)
        return True

    def restart(self) -> None:
        pass  # Ray starts its workers again itself

    def shutdown(self) -> None:
        self._stop.set()
        for future in list(self._refs):
            if not future.done():
                self.cancel(future)
        if self._owned:
            self.cluster.close()


_NODE_ID = re.compile(r"node ID:?\s*([0-9a-f]{16,})", re.IGNORECASE)


def _node_of(message: str) -> str | None:
    match = _NODE_ID.search(message)
    return match.group(1) if match else None


def _ray_error(exc: Exception) -> str:
    """Ray's error in one line: its first sentence."""
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text.split('. ')[0][:200]}"
