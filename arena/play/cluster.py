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

import atexit
import logging
import os
import signal
import socket
import re
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, InvalidStateError
from contextlib import contextmanager

import arena
import bots
import referee

from arena.errors import UsageError
from arena.games.base import Game, Outcome, Player, RefereeFailure
from arena.play import parcels
from arena.play.parcels import Parcel
from arena.play.run import MACHINE, MachineLost, WorkerLost, pool_executor
from arena.play.schedule import Job
from arena.play.shipment import DEPENDENCIES, Shipment, play_seed, play_shipped, travelling

# The project's packages travel without their compiled caches (numba's are keyed by this machine's
# paths: of no use on another, and ten times the size of the code).
PACKAGE_EXCLUDES = ["__pycache__", "*.pyc", "*.nbi", "*.nbc"]
CONNECT_TRIES = 8  # Ray's tries to reach a cluster's GCS (its default: 20), each of many seconds
REACH_S = 5.0  # how long a head given by --ray-address has to accept a connection, then to answer it
# What a gRPC client first sends (Ray's GCS is a gRPC server): HTTP/2's preface, then its settings
# (an empty SETTINGS frame); a server that speaks HTTP/2 answers with its own SETTINGS frame.
HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
NO_MACHINE_S = 60.0  # how long a run waits for a machine to play on before it stops, saying why
WATCH_S = 5.0  # how often the executor looks whether the cluster still has a machine to play on
GONE_S = 20.0  # a cluster that has not answered a look for this long is gone (Ray itself ends the
# process after 60 s without its head)
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


_lost = False  # a cluster of this process's stopped answering (`Cluster.forget`)


def lost_cluster() -> bool:
    """Whether this process lost its cluster: it must then end without the interpreter's own end,
    which Ray's threads, still waiting on the cluster, crashed (SIGSEGV) after the run had said why."""
    return _lost


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
        _check_token_file()
        if address:  # Ray tries a cluster for 20 s by default (read when ray is imported)
            os.environ.setdefault("RAY_NUM_REDIS_GET_RETRIES", str(CONNECT_TRIES))
            _check_reachable(address)
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
            # (a Ray of its own here: with Ray's usual RAY_ADDRESS exported, ray.init went to that
            # cluster and refused num_cpus in words that said nothing a user could act on)
            options = {"address": "local", "num_cpus": workers, "runtime_env": {"env_vars": {"PYTHONPATH": path}}}
        on_sigterm = signal.getsignal(signal.SIGTERM)
        try:
            with _stderr_kept_back():  # Ray's own lines on each try, which the one line below replaces
                ray.init(log_to_driver=False, include_dashboard=False, logging_level=logging.WARNING, **options)
        except (ConnectionError, ray.exceptions.AuthenticationError, ValueError) as exc:
            raise UsageError(_unreachable(address, exc, ray.exceptions.AuthenticationError)) from None
        finally:
            # ray.init puts its own SIGTERM handler (sys.exit) in place of the command's, which turns
            # SIGTERM into an interruption like Ctrl+C (stored games said, exit 130): a run on Ray
            # ended with Ray's crash dump and status 15 instead.
            if threading.current_thread() is threading.main_thread():
                signal.signal(signal.SIGTERM, on_sigterm)
        return cls(ray, address, started=True)

    def close(self) -> None:
        if self._started and not _lost:
            self.ray.shutdown()

    def forget(self) -> None:
        """The cluster stopped answering: no call of Ray's is made now, at the process's exit
        neither (Ray's own shutdown waits on the cluster there, until Ray ends the process; and
        Ray's threads, left running, may crash the interpreter's own end: the command ends at once,
        `lost_cluster`)."""
        global _lost
        _lost = True
        atexit.unregister(self.ray.shutdown)

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

    def node_at(self, address: str | None) -> tuple[str | None, str]:
        """(node id, name) of the live machine at IP `address` ((None, "a machine") if none is)."""
        for node in self.ray.nodes():
            if node.get("Alive") and node.get("NodeManagerAddress") == address:
                return node["NodeID"], node.get("NodeManagerHostname") or node.get("NodeName") or address
        return None, "a machine"

    def leave_out(self, node_id: str, why: str) -> None:
        """No more of this run's games on that machine."""
        self.left_out.setdefault(node_id, why)

    def playable(self, alive: dict[str, str] | None = None) -> list[str]:
        """The ids of the live machines (`alive`, as `machines` gave them, or asked now) that may
        still play this run; NoMachine if there is none because each was left out."""
        if alive is None:
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
            names = self.watched(self.machines)
            nodes = self.playable(names)
            if not nodes:
                raise NoMachine("the Ray cluster has no machine with a CPU to play on")
            used = {where for _, where in plays}
            node = next((n for n in nodes if names.get(n, n) not in used), nodes[0])
            strategy = self.ray.util.scheduling_strategies.NodeAffinitySchedulingStrategy(node, soft=False)
            options = {"num_cpus": 1, "max_retries": 0, "scheduling_strategy": strategy}
            task = remote.options(**options)
            try:
                said = self.watched(
                    lambda task=task: self.ray.get(task.remote(shipment, [p.label for p in seated], seed, bot_seeds))
                )
            except self.ray.exceptions.RayTaskError as exc:
                if not isinstance(exc.cause, ImportError):  # our code raised: a bug, shown as such
                    raise
                self.leave_out(
                    node, f"{names.get(node, node)} lacks the Python module {exc.cause.name}: {DEPENDENCIES}"
                )
                continue
            except self.ray.exceptions.RayError as exc:  # the machine, lost
                self.leave_out(node, f"{names.get(node, node)}: {_ray_error(exc)}")
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

    def watched(self, call):
        """What `call()` (a call of Ray's) returns or raises, while the cluster answers: NoMachine, and
        the cluster forgotten, once it has not for GONE_S (its head gone: the call would hang, until
        Ray ends the process a minute later with a line of its own)."""
        got: Future = Future()
        threading.Thread(target=_answer, args=(got, call), daemon=True).start()
        watch = Watch(self)
        while True:
            try:
                return got.result(timeout=WATCH_S)
            except TimeoutError:
                if watch.look() is None and watch.gone():
                    raise self.lost() from None

    def lost(self) -> NoMachine:
        """The cluster has stopped answering: forgotten, and the error that says so."""
        self.forget()
        where = f" at {self.address}" if self.address else ""
        return NoMachine(
            f"the Ray cluster{where} has not answered for {GONE_S:.0f} s: its head is gone or out of reach"
        )


class Watch:
    """Looks at a cluster's machines, each look in a thread of its own (Ray's calls hang on a cluster
    gone), to tell when it has stopped answering."""

    def __init__(self, cluster: Cluster):
        self.cluster = cluster
        self._look: Future | None = None
        self.answered = time.monotonic()

    def look(self) -> dict[str, str] | None:
        """The cluster's live machines (`Cluster.machines`), or None while a look has no answer yet
        (the same look is awaited next time) or failed (asked again next time)."""
        if self._look is None:
            self._look = Future()
            threading.Thread(target=_answer, args=(self._look, self.cluster.machines), daemon=True).start()
        try:
            alive = self._look.result(timeout=0.5)
        except TimeoutError:
            return None
        except Exception:  # noqa: BLE001 - the connection going down: asked again, until GONE_S
            self._look = None
            return None
        self._look, self.answered = None, time.monotonic()
        return alive

    def gone(self) -> bool:
        """Whether the cluster has not answered a look for GONE_S."""
        return time.monotonic() - self.answered > GONE_S


def _check_token_file() -> None:
    """UsageError where Ray would read the token from RAY_AUTH_TOKEN_PATH (token mode, no
    RAY_AUTH_TOKEN) and that file cannot be read or is empty: Ray's own error for it was hidden, and
    the cluster's refusal said instead, as if the token were the wrong one."""
    path = os.environ.get("RAY_AUTH_TOKEN_PATH")
    if os.environ.get("RAY_AUTH_MODE") != "token" or os.environ.get("RAY_AUTH_TOKEN") or not path:
        return
    try:
        with open(path, "rb") as file:
            empty = not file.read().strip()
    except OSError as exc:
        why = f"cannot be read ({exc.strerror or exc})"
    else:
        if not empty:
            return
        why = "is empty"
    raise UsageError(
        f"RAY_AUTH_TOKEN_PATH names {path}, which {why}: name the file that holds the cluster's token "
        "(or give the token itself in RAY_AUTH_TOKEN)"
    )


def _check_reachable(address: str) -> None:
    """UsageError, within 2 * REACH_S, where nothing accepts a connection at `address` (HOST:PORT):
    a mistyped host or port, or a head not started; or where what accepts it does not answer as
    Ray's GCS does (another server's port, the head's dashboard). Ray itself tried such an address
    for minutes, silent, before its error (its tries, each tens of seconds, are not all set by its
    options). An address of another form (`auto`, `ray://...`) is left to Ray; one given as a URL
    (http://...) or with a port out of range is refused: Ray's own words for them were of
    RAY_ADDRESS, which the user never set, or of a connection refused."""
    scheme, has_scheme, _ = address.partition("://")
    if has_scheme and scheme != "ray":  # (ray://: Ray's client)
        raise UsageError(f"--ray-address {address}: an address is HOST:PORT, without {scheme}://")
    host, colon, port = address.rpartition(":")
    if not colon or not host or "/" in address or not port.isdigit():
        return
    if not 0 < int(port) < 65536:
        raise UsageError(f"--ray-address {address}: the port {port} is out of range (1 to 65535)")
    try:
        connection = socket.create_connection((host.strip("[]"), int(port)), timeout=REACH_S)
    except (OSError, OverflowError, ValueError) as exc:
        why = "nothing answered" if isinstance(exc, TimeoutError) else (getattr(exc, "strerror", None) or exc)
        raise UsageError(
            f"cannot connect to the Ray cluster at {address} ({why}): is `ray start --head` running there, "
            "and reachable from here?"
        ) from None
    with connection:
        if os.environ.get("RAY_USE_TLS", "0").lower() in ("1", "true"):
            return  # (the GCS then speaks TLS first, which this check does not)
        if not _speaks_http2(connection):
            raise UsageError(
                f"nothing at {address} speaks Ray's GCS protocol: give the head's GCS port (ray start --head --port)"
            )


def _speaks_http2(connection: socket.socket) -> bool:
    """Whether the server at the other end of `connection` answers HTTP/2's preface, as a gRPC
    server does, with a SETTINGS frame (type 4, on stream 0) within REACH_S."""
    connection.settimeout(REACH_S)
    answer = b""
    try:
        connection.sendall(HTTP2_PREFACE)
        while len(answer) < 9:  # a frame's header
            received = connection.recv(9 - len(answer))
            if not received:
                return False
            answer += received
    except OSError:  # (TimeoutError among them: a server that says nothing)
        return False
    return answer[3] == 4 and answer[5:9] == bytes(4)


def _unreachable(address: str | None, exc: Exception, refused: type) -> str:
    """Why Ray could not be reached, in one line, and what to do about it (`refused`: Ray's
    AuthenticationError)."""
    if address is None:
        return f"cannot start Ray on this machine: {exc}"
    said = f"{exc} {exc.__cause__ or ''}"
    if "InvalidAuthToken" in said or isinstance(exc, refused):
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
        # The live machines as the watch last saw them: a submission reads these, never Ray's table
        # itself, whose call hangs once the head is gone (and the run with it, until Ray's own end).
        self._alive = cluster.machines()
        self._stopped: NoMachine | None = None  # why the watch stopped the run, for what is submitted after
        self._stop = threading.Event()
        self._watch = threading.Thread(target=self._watch_machines, daemon=True, name="watch-machines")
        self._watch.start()

    def submit(self, fn, game: Game, batch: list[Job], players: dict[str, Player]) -> Future:
        if self._stopped is not None:
            raise self._stopped
        self.cluster.playable(self._alive)  # NoMachine, rather than tasks that wait for ever
        shipment = self.cluster.shipment(game, players)
        ref = self._remote.options(**self.cluster.task_options()).remote(shipment, batch)
        future: Future = Future()
        self._refs[future] = ref
        ref.future().add_done_callback(lambda done: self._settle(future, done))
        return future

    def _settle(self, future: Future, done: Future) -> None:
        """The task's records, or the pool's words for what happened to it (run.py's WorkerLost,
        MachineLost); the machines whose checks failed are left out first."""
        self._refs.pop(future, None)  # its result is the caller's now: Ray may forget it
        errors = self._ray.exceptions
        try:
            records = done.result()
        except errors.WorkerCrashedError:
            _settled(future, error=WorkerLost("its Ray worker process died (killed by a bot, or out of memory)"))
        except errors.RayTaskError as exc:
            if not isinstance(exc.cause, ImportError):  # our code raised: a bug, shown as such
                _settled(future, error=exc)
                return
            node, name = self.cluster.node_at(exc.ip)  # the machine cannot even load the project
            why = f"{name} lacks the Python module {exc.cause.name}: {DEPENDENCIES}"
            if node:
                self.cluster.leave_out(node, why)
            _settled(future, error=MachineLost(why))
        except errors.RayError as exc:  # the machine: lost, or unable to run Ray's task
            if isinstance(exc, errors.TaskCancelledError):
                _settled(future, error=exc)
                return
            node = _node_of(str(exc))
            name = self.cluster.name_of(node) if node else "a machine"
            _settled(future, error=MachineLost(f"{name} was lost mid-game ({_ray_error(exc)})"))
        except BaseException as exc:  # noqa: BLE001 - handed on through the future
            _settled(future, error=exc)
        else:
            for record in records:
                if record.get("again"):
                    self.cluster.leave_out(record["node"], record["detail"])
            _settled(future, result=records)

    def _watch_machines(self) -> None:
        """A run on a cluster with no machine left to play on stops, saying so, after NO_MACHINE_S,
        rather than waiting for ever on tasks no machine takes; one whose cluster stopped answering
        (its head gone: Ray's calls then hang or fail, and Ray ends the whole process after a minute
        with a line of its own) stops after GONE_S without an answer, saying so and how to go on."""
        missing_since = None
        watch = Watch(self.cluster)
        while not self._stop.wait(WATCH_S):
            alive = watch.look()
            if alive is None:
                if watch.gone():
                    self._stop_run(self.cluster.lost())
                    return
                continue
            self._alive = alive
            try:
                playable = self.cluster.playable(alive)
            except NoMachine as exc:
                self._stop_run(exc)
                return
            if playable:
                missing_since = None
            elif missing_since is None:
                missing_since = time.monotonic()
            elif time.monotonic() - missing_since > NO_MACHINE_S:
                self._stop_run(NoMachine(f"the Ray cluster has had no machine to play on for {NO_MACHINE_S:.0f} s"))
                return

    def _stop_run(self, exc: NoMachine) -> None:
        """Every task in flight fails with `exc`, and so does every submission after."""
        self._stopped = exc
        self._fail_all(exc)

    def _fail_all(self, exc: Exception) -> None:
        for future in list(self._refs):
            _settled(future, error=exc)

    def cancel(self, future: Future) -> bool:
        ref = self._refs.pop(future, None)
        if ref is not None and not _lost:  # (Ray's calls hang on a cluster gone)
            self._ray.cancel(ref, force=True)
        return True

    def restart(self) -> None:
        pass  # Ray starts its workers again itself

    def shutdown(self) -> None:
        self._stop.set()
        if _lost:  # (Ray's calls hang on a cluster gone: the run says why and ends without them)
            return
        for future in list(self._refs):
            if not future.done():
                self.cancel(future)
        if self._owned:
            self.cluster.close()


def _answer(future: Future, ask) -> None:
    """`future` given what `ask()` returns or raises (a call that may hang, in a thread of its own)."""
    try:
        _settled(future, result=ask())
    except BaseException as exc:  # noqa: BLE001 - handed to the one who waits
        _settled(future, error=exc)


def _settled(future: Future, result=None, error: BaseException | None = None) -> None:
    """`future` given its result or its error, unless it has one already (the watch of the machines
    and Ray's callback may race)."""
    try:
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)
    except InvalidStateError:
        pass


_NODE_ID = re.compile(r"node ID:?\s*([0-9a-f]{16,})", re.IGNORECASE)


def _node_of(message: str) -> str | None:
    match = _NODE_ID.search(message)
    return match.group(1) if match else None


def _ray_error(exc: Exception) -> str:
    """Ray's error in one line: its first sentence."""
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text.split('. ')[0][:200]}"
