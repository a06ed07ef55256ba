"""Pools of worker processes (the arena's games, the analysis of replays): started by fork where that
is safe, so that a worker has what its parent loaded, else by spawn."""

from __future__ import annotations

import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from multiprocessing.util import Finalize
from pathlib import Path

from .errors import UserError
from .process_tree import close_all

_RESET = (signal.SIGINT, signal.SIGTERM)  # a worker's, not its parent's: see start_pool
# The most worker processes a pool may hold, per core of this machine: past it they only share the
# cores (a timed game's bots then lose on time) and the memory (an analysis worker holds its
# engines': some 450 MB). `--workers 100000` filled the memory and held off SIGTERM for minutes
# while it forked.
WORKERS_PER_CORE = 4
_TEMP_BASE = tempfile.gettempdir()  # (read before a worker points tempfile at its own folder)
ORPHAN_CHECK_S = 0.5  # how often a worker looks whether its main process is still there
_WORKER_EXIT_S = 2.0  # how long an ended pool's worker has to be gone, before its folder is left


def cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def check_workers(workers: int) -> int:
    """`workers`, once known to be what this machine can run at once; UserError saying so in one line
    otherwise."""
    most = WORKERS_PER_CORE * cores()
    if workers > most:
        raise UserError(
            f"--workers {workers}: more processes than this machine runs at once ({cores()} cores: "
            f"{most} at most, {WORKERS_PER_CORE} a core)"
        )
    return workers


def worker_start_method() -> str:
    """multiprocessing's start method for a pool started now. Forked where fork is safe (Linux, and
    this process runs no other thread, which a fork would copy stopped wherever it was, holding its
    locks), a worker starts with what its parent has loaded: modules and compiled kernels. Spawned
    otherwise, each worker imports them and loads the kernels from numba's cache again (over a
    second of processor time a worker, for Volcanoes' engines)."""
    return "fork" if sys.platform.startswith("linux") and threading.active_count() == 1 else "spawn"


def start_pool(workers: int, initializer=None, initargs: tuple = ()) -> ProcessPoolExecutor:
    """A pool of `workers` processes, each running `initializer(*initargs)` first. Start it before
    any thread of this process (a progress bar's included): a forking pool starts its workers at
    once. SIGINT and SIGTERM are blocked while they are forked, until each worker has set them back
    to their defaults: a handler copied from this process (the league's, which only asks to stop)
    would keep alive a worker that the pool ends with SIGTERM. A worker exits when it sees its main
    process gone, however it went (`_exit_when_orphaned`). UserError where `workers` is more than
    this machine runs at once (`check_workers`)."""
    check_workers(workers)
    method = worker_start_method()
    pool = ProcessPoolExecutor(
        workers,
        mp_context=get_context(method),
        initializer=_start_worker,
        initargs=(os.getpid(), initializer, initargs),
    )
    if method == "fork":
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _RESET)
        try:
            pool.submit(int)  # a forking pool starts all its workers at its first task
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    return pool


def worker_temp(pid: int) -> Path:
    """The temporary folder of pool worker `pid`, which holds every temporary file it makes (its
    tempfile's default): a worker ended by a signal mid-game runs none of its cleanup, and each game
    killed so left its folder of seats behind in /tmp, hundreds over a day of interrupted runs. The
    worker removes its folder when it ends; its pool's owner removes those of workers it killed
    (`remove_worker_temps`)."""
    return Path(_TEMP_BASE) / f"caldera-worker-{pid}"


def remove_worker_temps(processes, wait_s: float) -> None:
    """Remove the temporary folders of those pool workers (multiprocessing's processes) that have
    ended, or end within `wait_s` seconds each (one just killed is not gone yet)."""
    for process in processes:
        process.join(wait_s)
        if process.exitcode is not None:
            shutil.rmtree(worker_temp(process.pid), ignore_errors=True)


def pool_processes(pool: ProcessPoolExecutor) -> list:
    """The pool's worker processes (CPython's own record of them: the executor names them nowhere
    else), for what outlives a worker killed: its temporary folder."""
    return list(getattr(pool, "_processes", {}).values())


def end_pool(pool: ProcessPoolExecutor) -> None:
    """End `pool` once its tasks in hand are done (those not begun cancelled), and remove the
    temporary folders of its workers, those killed included: Ctrl+C, which reaches a pool's workers
    with their command's process group, ended `arena analyse`'s workers with no cleanup."""
    processes = pool_processes(pool)
    pool.shutdown(cancel_futures=True)
    remove_worker_temps(processes, _WORKER_EXIT_S)


def _start_worker(parent: int, initializer, initargs: tuple) -> None:
    own = worker_temp(os.getpid())
    own.mkdir(exist_ok=True)  # (a folder of an earlier worker of the same pid, killed: this one's now)
    threading.Thread(target=_exit_when_orphaned, args=(parent, own), daemon=True, name="watch-parent").start()
    tempfile.tempdir = str(own)
    Finalize(None, shutil.rmtree, args=(own,), kwargs={"ignore_errors": True}, exitpriority=0)  # (at its own end)
    for number in _RESET:
        signal.signal(number, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _RESET)
    if initializer is not None:
        initializer(*initargs)


def _exit_when_orphaned(parent: int, own: Path) -> None:
    """A worker's watch: once its main process `parent` is gone, even killed by SIGKILL or SIGHUP
    (which run no cleanup, and the pool's own end of its pipes waits on nothing), it closes its bots,
    removes its temporary folder `own` (os._exit runs no cleanup) and exits. `arena analyse`'s
    workers, adopted by init, searched on for ever."""
    while os.getppid() == parent:
        time.sleep(ORPHAN_CHECK_S)
    close_all()
    shutil.rmtree(own, ignore_errors=True)
    os._exit(1)
