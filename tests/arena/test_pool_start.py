"""How the pool starts its workers: forked from a run that runs no other thread (so that a worker has
the run's loaded modules and kernels), spawned otherwise; and a forked worker keeps nothing of its
parent's that would act on the parent's bots, signals or run lock.

Each case runs in a fresh Python process: the test's own process has threads of its own (a parallel
run's), with which no pool forks."""

import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a pool forks on Linux only")


def run_python(code: str, **env) -> str:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**__import__("os").environ, **env},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def loaded_here(_) -> bool:
    """In a worker: whether it has what its run set up before the pool started."""
    from arena.play import run

    return hasattr(run, "loaded_by_the_run")


POOL_SEES_WHAT_THE_RUN_LOADED = """
    import threading, time
    from arena.play import run
    from tests.arena.test_pool_start import loaded_here

    run.loaded_by_the_run = True  # as a run's prepare() loads its players' kernels
    if {thread}:
        threading.Thread(target=time.sleep, args=(5,), daemon=True).start()
    pool = run.PoolExecutor(2)
    try:
        print(pool.submit(loaded_here, None).result(timeout=30))
    finally:
        pool.shutdown()
"""


def test_a_pool_started_by_a_run_without_threads_forks_its_workers_with_what_the_run_loaded():
    assert run_python(POOL_SEES_WHAT_THE_RUN_LOADED.format(thread=False)) == "True"


def test_a_pool_started_while_another_thread_runs_spawns_its_workers():
    assert run_python(POOL_SEES_WHAT_THE_RUN_LOADED.format(thread=True)) == "False"


def test_a_forked_worker_ends_on_sigterm_whatever_handler_its_parent_had():
    """The league handles SIGTERM as "stop after the games in play"; its workers must not inherit
    that, or a pool that ends its workers (a broken one) would wait on them forever."""
    code = """
        import os, signal, time
        from arena.play import run

        def ended(pid):
            try:
                return open(f"/proc/{pid}/stat").read().split()[2] == "Z"
            except OSError:
                return True  # reaped already

        signal.signal(signal.SIGTERM, lambda *_: None)  # the parent's: SIGTERM does nothing here
        pool = run.PoolExecutor(2)
        pid = pool.submit(os.getpid).result(timeout=30)
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 10
        while not ended(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        print("ended" if ended(pid) else "alive", flush=True)
        # Not pool.shutdown(): a pool whose idle worker was killed can wait forever on the others
        # (CPython's); its workers end when this process does (their watch of their parent).
        os._exit(0)
    """
    assert run_python(code) == "ended"


def test_a_forked_child_closing_its_bots_leaves_its_parents_bots_alone():
    code = """
        import os
        from referee.platform.process import BotProcess
        from referee.platform.process_tree import close_all

        bot = BotProcess("sleep 30")  # the parent's bot, open when the child is forked
        child = os.fork()
        if child == 0:
            close_all()  # a worker about to exit closes its own bots: it has none
            os._exit(0)
        os.waitpid(child, 0)
        print(bot.running())
        bot.close()
    """
    assert run_python(code) == "True"


def test_a_forked_child_claims_its_bots_orphans_itself():
    """A subreaper's role is not inherited by a forked child (prctl(2)): a forked worker that needs
    it (bots not contained by cgroups) must claim it again, not take its parent's word for it."""
    code = """
        import ctypes, os
        from referee.platform.process_tree import claim_orphans

        assert claim_orphans()
        child = os.fork()
        if child == 0:
            libc = ctypes.CDLL(None, use_errno=True)
            claim_orphans()
            flag = ctypes.c_int(0)
            libc.prctl(37, ctypes.byref(flag), 0, 0, 0)  # PR_GET_CHILD_SUBREAPER
            os._exit(0 if flag.value == 1 else 1)
        print(os.waitstatus_to_exitcode(os.waitpid(child, 0)[1]))
    """
    assert run_python(code, CALDERA_NO_CGROUP="1") == "0"


def test_a_forked_worker_holds_no_lock_of_its_parents_run(tmp_path):
    """A run's lock is an flock, which a forked child shares: a worker that outlives its run by a
    moment (killed with SIGKILL, it notices within half a second) must not keep the run locked, or
    an immediate --resume is refused as "another arena process is playing"."""
    code = f"""
        import os, signal, time
        from arena.play.store import Store, playing

        store = Store.create({str(tmp_path / "run.sqlite")!r}, {{"command": "match"}}, [])
        store.lock()
        started, said = os.pipe()
        worker = os.fork()
        if worker == 0:
            os.write(said, b"!")  # running: what the fork does in a child is done
            time.sleep(30)
            os._exit(0)
        os.read(started, 1)
        store.close()  # the run ends (as if killed); its worker lives on for now
        print(playing(store.path))
        os.kill(worker, signal.SIGKILL)
        os.waitpid(worker, 0)
    """
    assert run_python(code) == "False"


def bot_home_of_a_worker() -> str | None:
    """In a worker: play a bot process, and say where its cgroup was made (None: no cgroups here)."""
    from referee.platform.process import BotProcess

    with BotProcess(["sleep", "30"]) as bot:
        return None if bot.tree.cgroup is None else str(bot.tree.cgroup.parent)


def test_a_forked_worker_removes_the_cgroups_it_made_for_its_bots_when_it_ends():
    """A forked worker ends with os._exit, which runs no atexit handler: its folder of bot cgroups
    goes with multiprocessing's finalizers, not left for the next process to find."""
    code = """
        import os
        from arena.play import run
        from tests.arena.test_pool_start import bot_home_of_a_worker

        pool = run.PoolExecutor(2)
        home = pool.submit(bot_home_of_a_worker).result(timeout=30)
        pool.shutdown()
        print("no cgroup" if home is None else os.path.exists(home))
    """
    said = run_python(code)
    if said == "no cgroup":
        pytest.skip("no cgroup for bots here")
    assert said == "False"


def in_a_temporary_folder(seconds: float) -> str:
    """In a worker: a game's temporary folder (as a game of an external referee makes one for its
    seats), held for `seconds`; where it is, written at once on stdout of the test's process."""
    import tempfile
    import time

    with tempfile.TemporaryDirectory(prefix="caldera-seats-") as folder:
        print(folder, flush=True)
        time.sleep(seconds)
        return folder


def test_a_pool_ended_mid_game_leaves_no_temporary_folder_behind():
    """A worker terminated mid-game (a run interrupted) ran no cleanup, and each game killed so left
    its folder of seats in /tmp: 206 over a day's runs and tests. A worker's temporary files are in a
    folder of its own, removed when it ends, or by its pool once it is killed; an idle worker's too."""
    code = """
        import time
        from arena.play import run
        from tests.arena.test_pool_start import in_a_temporary_folder

        pool = run.PoolExecutor(2)
        pool.submit(in_a_temporary_folder, 0).result(timeout=30)
        playing = pool.submit(in_a_temporary_folder, 60)
        time.sleep(1)
        pool.shutdown()  # (as an interrupted run does: the game in play ends with its worker)
    """
    folders = [Path(line) for line in run_python(code).splitlines()]
    assert len(folders) == 2
    left = [str(f) for f in folders + [f.parent for f in folders] if f.exists() and f != Path(tempfile.gettempdir())]
    assert left == []
