"""Where games run: in this process, in a pool of processes (every core by default), or on Ray.

Workers play batches of jobs and send back one plain record (a dict) per game; only the main process
writes to the store, as each batch comes back. A bounded number of batches is in flight, so a
sequential test can stop early without a backlog of games nobody needs.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from itertools import islice
from multiprocessing import get_context
from statistics import fmean

from referee.process import BotError, claim_orphans
from referee.volcanoes.match import Result, Settings, play_game

from arena.errors import UsageError
from arena.play.players import Player, open_seat, turn_ms
from arena.play.schedule import Job

FORFEITS = ("timeout", "invalid", "crash", "start", "error")  # reasons that are a bot's fault


def play_job(job: Job, players: dict[str, Player], settings: Settings) -> dict:
    """Play one game and describe it as a record for the store."""
    started = time.perf_counter()
    seats = []
    try:
        for colour, label, seed in (("blue", job.blue, job.blue_seed), ("orange", job.orange, job.orange_seed)):
            try:
                seats.append(open_seat(players[label], seed, settings))
                _open_seats.add(seats[-1])
            except BotError as exc:
                other = "orange" if colour == "blue" else "blue"
                result = Result(job.seed, other, exc.reason, f"{colour} {exc}", 0, [], [])
                break
        else:
            limits = tuple(turn_ms(players[label], settings.turn_ms) for label in (job.blue, job.orange))
            result = play_game(seats[0], seats[1], job.seed, settings, limits)
    finally:
        for seat in seats:
            seat.close()
            _open_seats.discard(seat)
    return _record(job, players, result, time.perf_counter() - started)


def _record(job: Job, players: dict[str, Player], result: Result, seconds: float) -> dict:
    record = {
        "a": job.a,
        "b": job.b,
        "pair": job.pair,
        "swap": job.swap,
        "blue": job.blue,
        "orange": job.orange,
        "blue_version": players[job.blue].version,
        "orange_version": players[job.orange].version,
        "seed": job.seed,
        "blue_seed": job.blue_seed,
        "orange_seed": job.orange_seed,
        "winner": result.winner,
        "reason": result.reason,
        "detail": result.detail,
        "turns": result.turns,
        "moves": " ".join(result.moves),
        "seconds": round(seconds, 3),
        "worker": f"{socket.gethostname()}:{os.getpid()}",
    }
    for colour in ("blue", "orange"):
        times = [t.time_ms for t in result.turn_log if t.actor == colour and t.time_ms is not None]
        record[f"{colour}_ms_mean"] = round(fmean(times), 3) if times else None
        record[f"{colour}_ms_max"] = max(times) if times else None
        record[f"{colour}_ms"] = " ".join(f"{t:.1f}" for t in times)  # every turn, first one first
        loser = result.winner != colour and result.winner != "draw"
        record[f"{colour}_error"] = result.reason if loser and result.reason in FORFEITS else None
    return record


def play_batch(jobs: list[Job], players: dict[str, Player], settings: Settings) -> list[dict]:
    return [play_job(job, players, settings) for job in jobs]


# ---------------------------------------------------------------- backends


class SerialExecutor:
    """Plays in the calling process (one worker: simplest to debug, no start-up cost)."""

    tasks_in_flight = 1  # a task submitted is a task played: store each before playing the next

    def submit(self, fn, *args) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller through the future
            future.set_exception(exc)
        return future

    def cancel(self, future: Future) -> bool:
        return future.cancel()

    def shutdown(self) -> None:
        pass


_open_seats: set = set()  # this worker's seats in play, closed if the worker must quit mid-game


def _start_worker(parent: int) -> None:
    """Ctrl-C is the main process's to handle; and a worker outlives no main process, even one killed
    with SIGKILL (which no cleanup code sees): it closes its seats and exits when orphaned."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    claim_orphans()  # a worker's only children are bots: an orphan of theirs is its to kill

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        for seat in list(_open_seats):
            try:
                seat.close()
            except Exception:  # noqa: BLE001 - exiting anyway
                pass
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="watch-parent").start()


class PoolExecutor:
    """A pool of worker processes on this machine (spawned: no threads of ours are forked)."""

    def __init__(self, workers: int):
        self.tasks_in_flight = 2 * workers  # one running and one waiting per worker
        self._pool = ProcessPoolExecutor(
            workers, mp_context=get_context("spawn"), initializer=_start_worker, initargs=(os.getpid(),)
        )

    def submit(self, fn, *args) -> Future:
        return self._pool.submit(fn, *args)

    def cancel(self, future: Future) -> bool:
        return future.cancel()

    def shutdown(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


class RayExecutor:
    """Batches as Ray tasks: a local Ray instance, or a cluster at `address`. On a cluster the
    project's packages travel with the tasks (nodes need only Python, numpy, numba and Ray); a local
    instance imports them from here, where numba's cache is warm."""

    def __init__(self, address: str | None, workers: int | None):
        try:
            import ray
        except ImportError as exc:
            raise UsageError("the ray backend needs Ray: pip install 'caldera[ray]'") from exc
        import arena
        import bots
        import referee

        self._ray = ray
        self._started = not ray.is_initialized()
        if self._started:
            if address:
                modules = [os.path.dirname(m.__file__) for m in (arena, bots, referee)]
                options = {"address": address, "runtime_env": {"py_modules": modules}}
            else:
                root = os.path.dirname(os.path.dirname(arena.__file__))
                path = os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))
                options = {"num_cpus": workers, "runtime_env": {"env_vars": {"PYTHONPATH": path}}}
            ray.init(log_to_driver=False, include_dashboard=False, logging_level=logging.WARNING, **options)
        self.tasks_in_flight = 2 * max(int(ray.cluster_resources().get("CPU", 1)), 1)  # the cluster's CPUs
        self._remote = ray.remote(num_cpus=1)(play_batch)
        self._refs: dict[Future, object] = {}

    def submit(self, fn, *args) -> Future:
        ref = self._remote.remote(*args)
        future = ref.future()
        self._refs[future] = ref
        return future

    def cancel(self, future: Future) -> bool:
        ref = self._refs.pop(future, None)
        if ref is not None:
            self._ray.cancel(ref, force=True)
        return True

    def shutdown(self) -> None:
        if self._started:
            self._ray.shutdown()


def make_executor(backend: str, workers: int, ray_address: str | None = None):
    if backend == "ray":
        return RayExecutor(ray_address, workers)
    if backend != "pool":
        raise ValueError(f"unknown backend {backend!r}")
    return SerialExecutor() if workers == 1 else PoolExecutor(workers)


def run_jobs(
    jobs: Iterable[Job],
    players: dict[str, Player],
    settings: Settings,
    executor,
    *,
    on_record: Callable[[dict], None],
    should_stop: Callable[[], bool] = lambda: False,
    games_per_task: int = 1,
    tasks_in_flight: int = 4,
) -> bool:
    """Play `jobs`, handing each game's record to `on_record` as its batch returns.

    Stops submitting when `should_stop()` turns true; batches already running still finish and are
    recorded, so no played game is lost. Returns True if it stopped early."""
    jobs = iter(jobs)
    pending: set[Future] = set()
    stopped = should_stop()

    def refill() -> None:
        while not stopped and len(pending) < tasks_in_flight:
            batch = list(islice(jobs, games_per_task))
            if not batch:
                return
            pending.add(executor.submit(play_batch, batch, players, settings))

    try:
        refill()
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                pending.discard(future)
                for record in future.result():
                    on_record(record)
            if not stopped and should_stop():
                stopped = True
                for future in list(pending):
                    if executor.cancel(future):
                        pending.discard(future)
            refill()
    finally:
        for future in pending:
            executor.cancel(future)
    return stopped
