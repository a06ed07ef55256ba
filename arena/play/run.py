"""Where games run: in this process, or in a pool of processes (every core by default); a Ray
cluster's executor (arena/play/cluster.py) answers as they do.

Workers play batches of jobs and send back one plain record (a dict) per game; only the main process
writes to the store, as each batch comes back. A bounded number of batches is in flight, so a
sequential test can stop early without a backlog of games nobody needs.
"""

from __future__ import annotations

import os
import signal
import socket
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from itertools import islice

from referee.platform.commands import interrupts_held
from referee.platform.errors import counted
from referee.platform.pools import cores as this_machine_cores
from referee.platform.pools import pool_processes, remove_worker_temps, start_pool
from referee.platform.process_tree import claim_orphans

from arena.games.base import Game, Outcome, Player, RefereeFailure
from arena.play.data import emitted_data
from arena.play.schedule import Job
from arena.stats.units import game_key

REFEREE, MACHINE = "referee", "machine"  # what a failed game failed of: not a bot
# A game in which a bot timed out while the machine kept it (or the arena reading it) waiting for a
# processor (`Outcome.late`) is no result of the bots': a failure of the machine, played again once,
# alone, at the end of the run, and on --resume. Left out, its unit would leave the paired statistics
# whole, and the bots that use their time (whose games a busy machine makes late) would lose most.
LATE_ADVICE = "run fewer --workers (or less beside the run) so that the bots get their time"
FAILURE_STDERR_KEPT = 4096  # the end of what a failed game's referee or bots wrote, stored with the failure
IDLE_WORKER_EXIT_S = 2.0  # how long a pool's idle workers have to end, once told, before they are killed
MACHINE_TRIES = 3  # a game whose machine failed (lost, or unable to play) is played again up to this often


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
    cores = this_machine_cores()
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
        "stderr": stderr[-FAILURE_STDERR_KEPT:],
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


def _start_worker() -> None:
    """Stopping is the main process's to handle: a worker is in a process group of its own, out of
    reach of the signals a terminal's Ctrl+C or `timeout` send to the command's group (killed by
    SIGTERM there, it dropped the game it played while the main process let the others end), and
    ignores SIGINT. (It outlives no main process: every pool's worker exits when orphaned,
    `start_pool`.)"""
    os.setpgid(0, 0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    claim_orphans()  # a worker's only children are bots: an orphan of theirs is its to kill


class PoolExecutor:
    """A pool of worker processes on this machine. Make it before any thread starts (a progress bar's
    included): its workers are forked at once then, with the players' modules and kernels the run
    has prepared (see `worker_start_method`)."""

    def __init__(self, workers: int):
        self.workers = workers
        self.tasks_in_flight = 2 * workers  # one running and one waiting per worker
        self._pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        return start_pool(self.workers, _start_worker)

    def submit(self, fn, *args) -> Future:
        return self._pool.submit(fn, *args)

    def restart(self) -> None:
        """A fresh pool, after a worker died (a bot killed it, or the kernel's OOM killer): the
        dead pool's other tasks are lost with it and are the caller's to play again."""
        workers = pool_processes(self._pool)
        self._pool.shutdown(wait=False, cancel_futures=True)
        remove_worker_temps(workers, IDLE_WORKER_EXIT_S)  # (the broken pool ends them all)
        self._pool = self._new_pool()

    def cancel(self, future: Future) -> bool:
        return future.cancel()

    def shutdown(self) -> None:
        """End the pool: tasks not begun are cancelled, and a game still in play ends with its worker
        (its bots and referee with it, by their watchers). A run ends its pool once every game it
        submitted is in, unless it was interrupted: then a game in play counts for nothing, and
        waiting for it held an interrupted run until its referee's time limit, minutes."""
        workers = pool_processes(self._pool)
        with interrupts_held():  # (bounded: idle workers' exit, then the others terminated)
            self._pool.shutdown(wait=False, cancel_futures=True)  # (an idle worker ends, its cleanup done)
            deadline = time.monotonic() + IDLE_WORKER_EXIT_S
            for worker in workers:
                worker.join(max(deadline - time.monotonic(), 0.0))
                if worker.is_alive():  # playing a game
                    worker.terminate()
            self._pool.shutdown(wait=True)
            remove_worker_temps(workers, IDLE_WORKER_EXIT_S)  # (those terminated ran no cleanup)


def pool_executor(workers: int):
    """This machine's executor: the calling process for one worker, else a pool (Ray's is in
    arena/play/cluster.py)."""
    return SerialExecutor() if workers == 1 else PoolExecutor(workers)


class WorkerLost(Exception):
    """The worker process that played a batch died (a bot killed it, or the OOM killer): as a
    broken pool, its games are played again, alone."""


class MachineLost(Exception):
    """The machine that played a batch was lost mid-game (a cluster's node died), or could not run
    its task: its games are recorded as failures of the machine, naming it, and played again."""


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
    play_again: bool = True,
) -> bool:
    """Play `jobs`, handing each game's record to `on_record` as its batch returns (a failed game's
    record has `"failure"` set: the game did not happen).

    A worker process that dies (a bot that kills it, the OOM killer) takes its batch with it: the
    pool is started again, and the batches it lost are played once more at the end, one game at a
    time with nothing else in flight; a game whose worker dies then, alone, is recorded as a failure
    of the machine. A game the machine made late (a failure of the machine a worker returns:
    `Outcome.late`) is played again so too, alone, once. A machine that is lost, or cannot play (a
    cluster's node: a file, a program or a dependency missing there; its record has `"again"` set),
    has each game of its batch recorded as a failure of the machine and played again, before any new
    game, up to MACHINE_TRIES times. Neither is played again with `play_again` false: the caller plays
    its failures again its own way, as a league does. Stops submitting when `should_stop()` turns
    true; batches already running still finish and are recorded, so no played game is lost. Returns
    True if it stopped early."""
    jobs = iter(jobs)
    pending: dict[Future, list[Job]] = {}
    lost: list[Job] = []  # the batches of workers that died, to play again
    again: list[Job] = []  # the games of machines that failed, to play again elsewhere
    retried: set = set()
    said_late = False
    machine_failures: dict = {}  # job key -> how often its machine failed
    stopped = should_stop()

    def next_batch() -> list[Job]:
        if again:
            batch, again[:] = again[:games_per_task], again[games_per_task:]
            return batch
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

    def machine_failed(job: Job, record: dict) -> None:
        """Record it; play it again unless its machines failed it MACHINE_TRIES times."""
        tries = machine_failures[job.key] = machine_failures.get(job.key, 0) + 1
        on_record(record)
        if play_again and tries < MACHINE_TRIES:
            again.append(job)

    try:
        refill()
        while pending:
            done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            broken = False
            for future in done:
                batch = pending.pop(future)
                try:
                    records = future.result()
                except (BrokenProcessPool, WorkerLost) as exc:
                    broken |= isinstance(exc, BrokenProcessPool)
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
                except MachineLost as exc:
                    if log is not None:
                        print(f"\n{exc}; its {counted(len(batch), 'game')} will be played again", file=log)
                    for job in batch:
                        machine_failed(job, failure(job, MACHINE, str(exc)))
                    continue
                by_key = {job.key: job for job in batch}
                for record in records:
                    key = game_key(record)
                    if record.get("again"):
                        machine_failed(by_key[key], record)
                        continue
                    on_record(record)
                    if play_again and record.get("kind") == MACHINE and key not in retried and key in by_key:
                        lost.append(by_key[key])  # late: the only other failure of the machine a worker returns
                        if log is not None and not said_late:
                            print(f"\na bot timed out while the machine kept it waiting: {LATE_ADVICE}", file=log)
                            said_late = True
            if broken:
                for future, batch in list(pending.items()):  # the dead pool's other tasks
                    if not future.done() or isinstance(future.exception(), BrokenProcessPool):
                        del pending[future]
                        lost.extend(batch)  # (never a game played again: that one plays alone)
                if log is not None:
                    print(f"\na worker process died; {counted(len(lost), 'game')} will be played again", file=log)
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
