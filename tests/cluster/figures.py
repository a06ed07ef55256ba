"""The figures of the arena on a cluster (docs/cluster.md): games per minute of one run on this
machine's pool and on a simulated cluster of one and of two nodes, and the bytes a node fetched.

    python -m tests.cluster.figures [--games 100] [--repeats 3] [--ballast-mb 3]

The run: Pebbles through its brutaltester referee (protocol A), two bots of the user's folder, as
tests/cluster/ plays it; the user's folder holds a file of `--ballast-mb` random megabytes besides,
standing in for a referee's jar. Each configuration plays it `--repeats` times (the median and the
range are printed; the machine's load average is printed before and after, as the figures depend
on it): the pool with --workers 2, then a cluster (tests/cluster/simulated.py) of one node of one
CPU, then of two nodes of one CPU each. Games per minute count from the first game's end to the
last's (the rate of play), and over the whole command (connection, seed check and start-up too).

For the first run on each cluster (nothing cached on its nodes yet): what each node fetched, from
its own record of what travelled (each thing once), and the bytes each node received over TCP in
all (`ss`, summed over the sockets of the node's processes, Ray's packages and control included).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime
from pathlib import Path

from arena.play.store import Store
from arena.project import PROJECT_ROOT
from tests.cluster import simulated
from tests.cluster.test_cluster import PEBBLES, PY, REFEREES, installed_project

BOTS = [f"g={PY} mybots/greedy.py", f"f={PY} mybots/first.py"]


def user_folder(root: Path, ballast_mb: int) -> Path:
    user = root / "user"
    shutil.copytree(PEBBLES, user / "pebbles", ignore=shutil.ignore_patterns("__pycache__", "bots", "sources"))
    shutil.copytree(PEBBLES / "bots", user / "mybots", ignore=shutil.ignore_patterns("__pycache__"))
    (user / "referee-data.bin").write_bytes(os.urandom(ballast_mb * 2**20))
    return user


def play(user: Path, db: Path, games: int, extra: list[str], env: dict) -> tuple[float, float]:
    """(games a minute from the first game's end to the last's, games a minute over the command)."""
    command = [sys.executable, "-m", "arena.cli", "match", *BOTS, *REFEREES["cli"], "--pairs", str(games // 2)]
    command += ["--seed", "1", "--db", str(db), "--quiet", *extra]
    started = time.monotonic()
    done = subprocess.run(command, cwd=user, env=env, capture_output=True, text=True)
    wall = time.monotonic() - started
    if done.returncode != 0:
        raise SystemExit(f"the run failed:\n{done.stderr}")
    store = Store.open(db, readonly=True)
    try:
        ends = sorted(datetime.fromisoformat(g["finished_at"]).timestamp() for g in store.games())
        assert not store.failures() and len(ends) == games
    finally:
        store.close()
    return 60 * (len(ends) - 1) / (ends[-1] - ends[0]), 60 * len(ends) / wall


class NodeBytes:
    """Bytes each simulated node received over TCP while measured: every process of a node shares
    its PID namespace; `ss` gives each socket's bytes received and its processes (a socket's count
    is kept at its highest, polled)."""

    OWNER, INODE, RECEIVED = re.compile(r"pid=(\d+)"), re.compile(r"ino:(\d+)"), re.compile(r"bytes_received:(\d+)")

    def __init__(self, cluster: simulated.Cluster):
        self.namespaces = {
            _pid_ns(pid): node["name"]
            for index, node in enumerate(cluster.nodes)
            for pid in cluster.node_pids(index)[1:2]  # the node's first process inside its namespace
        }
        self.best: dict[str, tuple[str, int]] = {}
        self.before = self._poll()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.05):
            for key, (node, count) in self._poll().items():
                if count > self.best.get(key, ("", 0))[1]:
                    self.best[key] = (node, count)

    def _poll(self) -> dict[str, tuple[str, int]]:
        lines = subprocess.run(["ss", "-tinpeH"], capture_output=True, text=True).stdout.splitlines()
        seen = {}
        for head, info in zip(lines[::2], lines[1::2], strict=False):
            owners, inode, got = self.OWNER.findall(head), self.INODE.search(head), self.RECEIVED.search(info)
            node = self.namespaces.get(_pid_ns(int(owners[0]))) if owners else None
            if node and inode:
                seen[inode.group(1)] = (node, int(got.group(1)) if got else 0)
        return seen

    def stop(self) -> dict[str, int]:
        self._stop.set()
        self._thread.join()
        totals = dict.fromkeys(self.namespaces.values(), 0)
        for key, (node, count) in self.best.items():
            totals[node] += count - self.before.get(key, (node, 0))[1]
        return totals


def _pid_ns(pid: int) -> str | None:
    try:
        return os.readlink(f"/proc/{pid}/ns/pid")
    except OSError:
        return None


def fetched(cluster: simulated.Cluster) -> dict[str, list[str]]:
    """Each node's record of what travelled to it (arena/play/parcels.py writes one line a thing)."""
    said = {}
    for index, node in enumerate(cluster.nodes):
        log = Path(f"/proc/{cluster.node_pids(index)[1]}/root") / Path.home().relative_to("/")
        log = log / ".cache" / "caldera" / "travelled" / "fetched.log"
        try:
            said[node["name"]] = log.read_text().splitlines()
        except OSError as exc:
            said[node["name"]] = [f"(unread: {exc})"]
    return said


def summary(rates: list[float]) -> str:
    return f"median {statistics.median(rates):.0f}, range {min(rates):.0f} to {max(rates):.0f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--ballast-mb", type=int, default=3)
    args = parser.parse_args()
    why = simulated.refused()
    if why:
        raise SystemExit(why)
    root = Path(tempfile.mkdtemp(prefix="caldera-figures-"))
    try:
        user = user_folder(root, args.ballast_mb)
        base = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
        base.update(PYTHONPATH=str(PROJECT_ROOT), XDG_CACHE_HOME=str(root / "cache"))
        print(f"load average before: {os.getloadavg()}; {os.cpu_count()} cores", flush=True)
        configurations = [
            ("pool, --workers 2", None),
            ("cluster, 1 node of 1 CPU", 1),
            ("cluster, 2 nodes of 1 CPU", 2),
        ]
        for name, nodes in configurations:
            cluster = None
            env, extra = base, ["--workers", "2"]
            if nodes:
                hidden = [str(root), str(PROJECT_ROOT), *installed_project(), tempfile.gettempdir()]
                cluster = simulated.Cluster.start(nodes=nodes, cpus=1, hide=hidden)
                env = {**base, **cluster.driver_env(), simulated.MARK: cluster.id}
                extra = ["--backend", "ray", "--ray-address", cluster.address]
            try:
                rates, walls = [], []
                for repeat in range(args.repeats):
                    meter = NodeBytes(cluster) if cluster and repeat == 0 else None
                    rate, wall = play(user, root / f"{nodes}-{repeat}.sqlite", args.games, extra, env)
                    rates.append(rate)
                    walls.append(wall)
                    if meter:
                        received = meter.stop()
                        for node, lines in fetched(cluster).items():
                            print(f"  {node}: received {received.get(node, 0):,} bytes over TCP in the first run;")
                            for line in lines:
                                print(f"    fetched {line}")
                print(f"{name}: {args.games} games, {args.repeats} runs: games a minute {summary(rates)} "
                      f"(over the whole command: {summary(walls)})", flush=True)  # fmt: skip
            finally:
                if cluster:
                    cluster.stop()
        print(f"load average after: {os.getloadavg()}")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
