"""A pool's workers (`referee.platform.pools`: the arena's games, `arena analyse`'s searches) outlive
no main process, even one killed with SIGKILL or SIGHUP, which runs no cleanup: `arena analyse`'s
workers, adopted by init, searched on for ever."""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WAIT_S = 10  # far more than a worker takes to see its main process gone (half a second)

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def alive(pid: int) -> bool:
    """Whether process `pid` runs (a zombie, ended and not yet reaped, does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


@pytest.mark.parametrize("signal_number", [signal.SIGKILL, signal.SIGHUP])
def test_a_pools_workers_exit_when_its_main_process_is_killed(signal_number):
    code = """
        import os, time
        from referee.platform.pools import start_pool

        pool = start_pool(2)
        for _ in range(4):
            pool.submit(time.sleep, 60)
        time.sleep(0.5)
        print(*pool._processes, flush=True)
        time.sleep(60)
    """
    main = subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    workers = [int(pid) for pid in main.stdout.readline().split()]
    try:
        assert len(workers) == 2
        main.send_signal(signal_number)
        main.wait(timeout=WAIT_S)
        deadline = time.monotonic() + WAIT_S
        while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(alive(pid) for pid in workers)
    finally:
        main.kill()
        main.stdout.close()
        for pid in workers:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def test_a_pool_ended_after_ctrl_c_leaves_no_folder_of_its_workers():
    """Ctrl+C reaches a pool's workers with their command's process group, and ends them with no
    cleanup: `arena analyse` interrupted left its workers' /tmp/caldera-worker-PID folders."""
    code = """
        import os, signal, time
        from referee.platform.pools import end_pool, start_pool, worker_temp

        pool = start_pool(2)
        futures = [pool.submit(time.sleep, 60) for _ in range(2)]
        time.sleep(1)
        pids = list(pool._processes)
        for pid in pids:
            os.kill(pid, signal.SIGINT)  # (as Ctrl+C does: the default action, no cleanup)
        try:
            end_pool(pool)
        except Exception:  # (a broken pool: its workers died)
            pass
        print(*[worker_temp(pid).exists() for pid in pids], flush=True)
    """
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.stdout.split() == ["False", "False"], done.stdout + done.stderr
