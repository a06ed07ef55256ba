"""No bot process outlives a run killed with SIGKILL, which runs no cleanup of its own: at --workers 1
no pool worker was there to notice, and the bots lived on (in their cgroups until another arena
command cleaned stale ones; without cgroups, as init's children). Each process that starts bots has a
watcher (referee/platform/process_tree.py) that ends them when the pipe from its owner ends, however the owner died.

Checked with the escaper (scripts/escaper.py: a fork chain that left its session, an orphan that left
its session and emptied its environment) for every way a run owns its bots: in its own process
(`referee volcanoes play`, `arena match --workers 1`), in pool workers, on Ray; with cgroups and with
the fallback (where an orphan that emptied its environment and left its session is out of reach: it
holds no token and runs in no session of a bot's, see docs/reliability.md)."""

from __future__ import annotations

import os
import secrets
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.platform import process_tree
from tests.processes import descendants, holding, kill_holding, lingering

ROOT = Path(__file__).resolve().parents[2]
ESCAPER = [sys.executable, "-S", str(Path(__file__).parent / "scripts" / "escaper.py")]
SLOW_CLOCK = ["--turn-ms", "1000", "--first-turn-ms", "5000"]
MACHINE = process_tree.containment().split(":")[0]

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")


def left_behind(marker: str, seconds: float) -> list[int]:
    """What is left of the escape (its processes hold `marker` in their command line) once a second of
    looks at /proc saw none of it, or after `seconds`. A single look is no proof: a fork chain's
    processes live microseconds each, and one look misses a live chain on a busy machine (where the
    Ray worker and its watcher, niced by Ray, take seconds to end it), which ended the wait early."""
    deadline = time.monotonic() + seconds
    left = lingering(marker, "cmdline")
    while left and time.monotonic() < deadline:
        left = lingering(marker, "cmdline")
    return left


def gone(marker: str, where: str, seconds: float) -> list[int]:
    """The processes holding `marker` in /proc/PID/`where` left after `seconds` at most."""
    deadline = time.monotonic() + seconds
    while holding(marker, where) and time.monotonic() < deadline:
        time.sleep(0.1)
    return holding(marker, where)


def command_line(name: str, bot: str, tmp: Path) -> list[str]:
    arena = [sys.executable, "-m", "arena.cli", "match", f"esc={bot}", "random", "--pairs", "1", "--seed", "1"]
    arena += ["--quiet", *SLOW_CLOCK, "--db", str(tmp / "run.sqlite")]
    return {
        "referee volcanoes play": [
            *(sys.executable, "-m", "referee.cli", "volcanoes", "play", bot),
            *(shlex.join([*ESCAPER, "none", "-"]), *SLOW_CLOCK),
        ],
        "arena match --workers 1": [*arena, "--workers", "1"],
        "arena match --workers 2": [*arena, "--workers", "2"],
        "arena match --backend ray": [*arena, "--workers", "1", "--backend", "ray"],
    }[name]


def kill_while_escaped(name: str, mode: str, tmp_path: Path, fallback: bool) -> None:
    """Run `name` with an escaping bot, SIGKILL the command (its main process alone) once the escape
    runs, then check that no process of the escape, and no watcher, is left."""
    if name.endswith("ray"):
        pytest.importorskip("ray")
    marker = f"caldera-escape-{secrets.token_hex(6)}"  # in every escaping process's command line
    raylets: list[int] = []
    run_mark = f"CALDERA_KILLED_RUN={secrets.token_hex(6)}"  # in every process of the run's environment
    reports = tmp_path / "escapes"
    reports.mkdir()
    env = {**os.environ, "PYTHONPATH": str(ROOT), run_mark.split("=")[0]: run_mark.split("=")[1]}
    env.pop(process_tree.NO_CGROUP_VARIABLE, None)
    if fallback:
        env[process_tree.NO_CGROUP_VARIABLE] = "1"
    bot = shlex.join([*ESCAPER, mode, marker, str(reports), "0.3"])  # a game that lasts
    cgroup = None if fallback else cgroup_of_its_own()
    run = subprocess.Popen(
        command_line(name, bot, tmp_path),
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=(tmp_path / "run.log").open("w"),
        preexec_fn=None if cgroup is None else lambda: (cgroup / "cgroup.procs").write_text("0"),
    )
    try:
        deadline = time.monotonic() + 240
        while not list(reports.glob("escaped.*")) and run.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        said = (tmp_path / "run.log").read_text()[-2000:]
        assert list(reports.glob("escaped.*")), f"the escape never ran: the test tests nothing\n{said}"
        assert run.poll() is None, f"the run ended by itself: the test tests nothing\n{said}"
        owners = [run.pid, *descendants(run.pid)]  # the run and its workers: each may have a watcher
        raylets = [pid for pid in owners if b"raylet" in _cmdline(pid)]
        run.kill()
        run.wait()
        # On Ray the bots' owner is Ray's worker, which Ray itself ends once the driver is gone: in
        # seconds, more on a busy machine.
        left = left_behind(marker, 30 if name.endswith("ray") else 10)
        assert not left, f"processes of the escape outlived the killed run: {left}"
        watchers = [pid for owner in owners for pid in gone(f"--owner={owner}\0", "cmdline", 10)]
        assert not watchers, f"watchers outlived their work: {watchers}"
    finally:
        kill_holding(marker, "cmdline")
        if cgroup is not None:
            remove_cgroup(cgroup)
        if name.endswith("ray"):  # Ray's own agents of a local instance outlive a driver killed so
            for raylet in raylets:
                kill_holding(f"RAY_RAYLET_PID={raylet}\0", "environ")


def cgroup_of_its_own() -> Path:
    """A cgroup beside the folder of this process's bot cgroups, for the run to start in: another
    arena command (of another test, or another user of the machine) removes the bot cgroups of dead
    processes it finds in its own cgroup, which would end the bots of the killed run in its stead."""
    home = Path(process_tree.containment().split(", in ", 1)[1].split(", ended by")[0])
    cgroup = home.parent / f"caldera-test-{secrets.token_hex(6)}"
    cgroup.mkdir()
    return cgroup


def remove_cgroup(cgroup: Path) -> None:
    for _ in range(100):
        for folder in sorted(cgroup.rglob("*"), key=lambda p: len(p.parts), reverse=True) + [cgroup]:
            if folder.is_dir():
                try:
                    (folder / "cgroup.kill").write_text("1")
                    folder.rmdir()
                except OSError:
                    pass
        if not cgroup.exists():
            return
        time.sleep(0.05)


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


needs_cgroup = pytest.mark.skipif(
    MACHINE != process_tree.CGROUP, reason=f"no cgroup here ({process_tree.containment()})"
)


@needs_cgroup
@pytest.mark.parametrize("mode", ["chain", "bare"])
@pytest.mark.parametrize("name", ["referee volcanoes play", "arena match --workers 1", "arena match --workers 2"])
def test_no_bot_process_outlives_a_run_killed_with_sigkill(name, mode, tmp_path):
    kill_while_escaped(name, mode, tmp_path, fallback=False)


@pytest.mark.parametrize("name", ["referee volcanoes play", "arena match --workers 1", "arena match --workers 2"])
def test_the_fallback_ends_a_fork_chain_of_a_run_killed_with_sigkill(name, tmp_path):
    kill_while_escaped(name, "chain", tmp_path, fallback=True)


@needs_cgroup
def test_no_bot_process_outlives_a_ray_run_killed_with_sigkill(tmp_path):
    """On Ray the bots' owner is Ray's worker, ended by Ray once the driver is gone, and niced by it:
    on a busy machine its watcher ends the chain seconds after the kill (2 to 5 s beside four busy
    loops on 2 cores), which a wait ended by one look that missed the live chain did not see."""
    kill_while_escaped("arena match --backend ray", "chain", tmp_path, fallback=False)


def test_a_watcher_ends_with_its_owner_when_it_has_nothing_to_do():
    code = (
        "import os; from referee.platform.process import BotProcess; BotProcess(['true']).close(); print(os.getpid())"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=60, capture_output=True, text=True)
    assert not gone(f"--owner={done.stdout.strip()}\0", "cmdline", 10)
