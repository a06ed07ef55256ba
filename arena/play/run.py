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
from concurrent.futures.process import BrokenProcessPool
from itertools import islice

import arena
import bots
import referee
from referee.platform.pools import start_pool
from referee.platform.process import claim_orphans, close_all

from arena.errors import UsageError
from arena.games.base import Game, Outcome, Player, RefereeFailure
from arena.play.data import emitted_data
from arena.play.schedule import Job

REFEREE, MACHINE = "referee", "machine"  # what a failed game failed of: not a bot
# A game in which a bot timed out while the machine kept it (or the arena reading it) waiting for a
# processor (`Outcome.late`) is no result of the bots': a failure of the machine, played again once,
# alone, at the end of the run, and on --resume. Left out, its unit would leave the paired statistics
# whole, and the bots that use their time (whose games a busy machine makes late) would lose most.
LATE_ADVICE = "run fewer --workers (or less beside the run) so that the bots get their time"


def play_job(game: Game, job: Job, players: dict[str, Player]) -> dict:
    """Play one game: its record for the store, or a failure's (`"failure"` set) if the game did
    not happen (its referee failed)."""
    started = time.perf_counter()
    seated = [players[label] for label in job.seats]
    try:
        outcome = game.play(job.seed, seated, list(job.bot_seeds))
    except RefereeFailure as exc:
        return failure(job, REFEREE, str(exc), exc.stderr)
    if outcome.late:
        why = f"{outcome.late}: the machine's fault, not the bot's ({machine_load()}); {LATE_ADVICE}"
        return failure(job, MACHINE, why)
    return _record(job, seated, outcome, time.perf_counter() - started)


def machine_load() -> str:
    """The machine's load against its cores, in words: `load 3.1 on 2 cores`."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except OSError:
        return f"{cores} cores"
    return f"load {load:.1f} on {cores} cores"


def failure(job: Job, kind: str, detail: str, stderr: str = "") -> dict:
    return {
        "failure": True,
        "lineup": list(job.lineup),
        "unit": job.unit,
        "seating": job.seating,
        "seats": list(job.seats),
        "seed": job.seed,
        "kind": kind,
        "detail": detail,
        "stderr": stderr[-4096:],
        "worker": f"{socket.gethostname()}:{os.getpid()}",
    }


def _record(job: Job, seated: list[Player], outcome: Outcome, seconds: float) -> dict:
    data = dict(outcome.data)
    if outcome.stderr and any(any(turns) for turns in outcome.stderr):
        data["stderr"] = outcome.stderr
        data.update(emitted_data(outcome.stderr))
    if outcome.referee_stderr:
        data["referee_stderr"] = outcome.referee_stderr
    if outcome.fingerprint is not None:
        data["fingerprint"] = outcome.fingerprint
    record = {
        "lineup": list(job.lineup),
        "unit": job.unit,
        "seating": job.seating,
        "seats": list(job.seats),
        "versions": [p.version for p in seated],
        "seed": job.seed,
        "bot_seeds": list(job.bot_seeds),
        "ranks": list(outcome.ranks),
        "scores": list(outcome.scores),
        "errors": list(outcome.errors),
        "reason": outcome.reason,
        "detail": outcome.detail,
        "turns": outcome.turns,
        "times": outcome.times_ms,
        "data": data,
        "seconds": round(seconds, 3),
        "worker": f"{socket.gethostname()}:{os.getpid()}",
    }
    if outcome.frames:  # the store keeps them or not, as the run's replays option says
        record["frames"] = [frame.to_json() for frame in outcome.frames]
    return record


def play_batch(game: Game, jobs: list[Job], players: dict[str, Player]) -> list[dict]:
    return [play_job(game, job, players) for job in jobs]


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

    def restart(self) -> None:
        pass  # nothing to restart: the games run in this process

    def shutdown(self) -> None:
        pass


def _start_worker(parent: int) -> None:
    """Ctrl-C is the main process's to handle; and a worker outlives no main process, even one killed
    with SIGKILL (which no cleanup code sees): it closes its bots' processes and exits when orphaned."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    claim_orphans()  # a worker's only children are bots: an orphan of theirs is its to kill

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        close_all()
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="watch-parent").start()


class PoolExecutor:
    """A pool of worker processes on this machine. Make it before any thread starts (a progress bar's
    included): its workers are forked at once then, with the players' modules and kernels the run
    has prepared (see `worker_start_method`)."""

    def __init__(self, workers: int):
        self.workers = workers
        self.tasks_in_flight = 2 * workers  # one running and one waiting per worker
        self._pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        return start_pool(self.workers, _start_worker, (os.getpid(),))

    def submit(self, fn, *args) -> Future:
        return self._pool.submit(fn, *args)

    def restart(self) -> None:
        """A fresh pool, after a worker died (a bot killed it, or the kernel's OOM killer): the
        dead pool's other tasks are lost with it and are the caller's to play again."""
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool = self._new_pool()

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
            import ray  # (optional: only the ray backend needs it)
        except ImportError as exc:
            raise UsageError("the ray backend needs Ray: pip install 'caldera[ray]'") from exc

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

    def restart(self) -> None:
        pass  # Ray starts its workers again itself

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
    game: Game,
    players: dict[str, Player],
    executor,
    *,
    on_record: Callable[[dict], None],
    should_stop: Callable[[], bool] = lambda: False,
    games_per_task: int = 1,
    tasks_in_flight: int = 4,
    log=None,
    replay_late: bool = True,
) -> bool:
    """Play `jobs`, handing each game's record to `on_record` as its batch returns (a failed game's
    record has `"failure"` set: the game did not happen).

    A worker process that dies (a bot that kills it, the OOM killer) takes its batch with it: the
    pool is started again, and the batches it lost are played once more at the end, one game at a
    time with nothing else in flight; a game whose worker dies then, alone, is recorded as a failure
    of the machine. A game the machine made late (a failure of the machine a worker returns, recorded)
    is played again so too, unless `replay_late` is False (the league plays failed games again itself). Stops submitting when `should_stop()` turns true; batches already running still
    finish and are recorded, so no played game is lost. Returns True if it stopped early."""
    jobs = iter(jobs)
    pending: dict[Future, list[Job]] = {}
    lost: list[Job] = []  # the batches of workers that died, to play again
    retried: set = set()
    said_late = False
    stopped = should_stop()

    def next_batch() -> list[Job]:
        batch = list(islice(jobs, games_per_task))
        if not batch and lost and not pending:  # alone: a worker that dies now, this game killed
            batch = [lost.pop(0)]
            retried.add(batch[0].key)
        return batch

    def refill() -> None:
        while not stopped and len(pending) < tasks_in_flight:
            batch = next_batch()
            if not batch:
                return
            pending[executor.submit(play_batch, game, batch, players)] = batch

    try:
        refill()
        while pending:
            done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            broken = False
            for future in done:
                batch = pending.pop(future)
                try:
                    records = future.result()
                except BrokenProcessPool:
                    broken = True
                    for job in batch:
                        if job.key in retried:
                            on_record(
                                failure(
                                    job, MACHINE, "its worker process died twice (killed by a bot, or out of memory)"
                                )
                            )
                        else:
                            lost.append(job)
                    continue
                by_key = {job.key: job for job in batch}
                for record in records:
                    on_record(record)
                    key = (tuple(record["lineup"]), record["unit"], record["seating"])
                    if replay_late and record.get("kind") == MACHINE and key not in retried and key in by_key:
                        lost.append(by_key[key])  # late: a worker returns no other failure of the machine
                        if log is not None and not said_late:
                            print(f"\na bot timed out while the machine kept it waiting: {LATE_ADVICE}", file=log)
                            said_late = True
            if broken:
                for future, batch in list(pending.items()):  # the dead pool's other tasks
                    if not future.done() or isinstance(future.exception(), BrokenProcessPool):
                        del pending[future]
                        lost.extend(batch)  # (never a game played again: that one plays alone)
                if log is not None:
                    print(f"\na worker process died; {len(lost)} games will be played again", file=log)
                executor.restart()
            if not stopped and should_stop():
                stopped = True
                for future in list(pending):
                    if executor.cancel(future):
                        del pending[future]
            refill()
    finally:
        for future in pending:
            executor.cancel(future)
    return stopped
