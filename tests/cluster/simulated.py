"""A Ray cluster simulated on one machine: a head with no CPUs, and worker nodes that see none of the
folders they are told to hide, each in mount, PID and UTS namespaces of its own (a tmpfs over /tmp,
~/.ray, ~/.cache and every hidden folder; its own hostname, node0, node1, ...), as another machine
would be. The tests of the arena on a cluster use it (tests/cluster/), and so can anyone who wants
to try a run on a cluster without a second machine:

    python -m tests.cluster.simulated check                     # whether this machine allows the namespaces
    python -m tests.cluster.simulated start --nodes 2 --hide "$PWD" --state cluster.json
    eval "$(python -m tests.cluster.simulated env --state cluster.json)"   # the driver's token, the address
    arena match greedy random --backend ray --ray-address "$SIMULATED_RAY_ADDRESS"
    python -m tests.cluster.simulated kill-node 0 --state cluster.json     # a machine lost
    python -m tests.cluster.simulated stop --state cluster.json

Every address is a loopback one: the head 127.0.0.2, node k 127.0.0.(3 + k) (Ray turns 127.0.0.1
into the machine's address on its route to the internet; any other loopback address it keeps).
Usage statistics are off. Token authentication is on, with a token made for the cluster.

It never stops Ray by name (`ray stop` kills every Ray of the machine, other users' too): each
process started here carries SIMULATED_RAY_CLUSTER=<id> in its environment, which every descendant
inherits, and `stop` kills exactly the processes that hold this cluster's id. A worker node is the
first process of a PID namespace: killing it kills the whole node at once, as a lost machine.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tests.processes import descendants

MARK = "SIMULATED_RAY_CLUSTER"
HEAD_IP = "127.0.0.2"
WORKER_PORTS = 24  # ports for a node's worker processes (one each: a task, the runtime env's setup)
START_TRIES = 3  # Ray gives a raylet 30 s to register, which a busy machine can exceed
NOT_FOR_NODES = ("PYTHONPATH", "XDG_CACHE_HOME", "RAY_ADDRESS", "VIRTUAL_ENV_PROMPT")


def always_hidden() -> list[str]:
    """What every node hides: /tmp (its own Ray session), ~/.ray (no token file), ~/.cache."""
    return ["/tmp", str(Path.home() / ".ray"), str(Path.home() / ".cache")]


def ray_program() -> str | None:
    found = Path(sys.executable).with_name("ray")
    return str(found) if found.is_file() else shutil.which("ray")


def _unshare(*flags: str) -> list[str]:
    """unshare with `flags`, mapping this user to root in a user namespace where it is not root."""
    return ["unshare", *(["--map-root-user"] if os.geteuid() != 0 else []), *flags]


def refused() -> str | None:
    """Why this machine cannot simulate a cluster (None where it can): Ray or unshare missing, or
    mount and PID namespaces refused."""
    if ray_program() is None:
        return "Ray is not installed (pip install 'caldera[ray]')"
    if sys.platform != "linux":
        return "a simulated cluster needs Linux's namespaces"
    if shutil.which("unshare") is None:
        return "unshare (util-linux) is not installed"
    for folder in always_hidden():
        if Path(sys.prefix).resolve().is_relative_to(Path(folder).resolve()):
            return f"this Python ({sys.prefix}) lies in {folder}, which the simulated nodes hide"
    probe = [*_unshare("-m", "-u", "-p", "-f", "--mount-proc"), "--", "sh", "-c", "mount -t tmpfs none /mnt && echo ok"]
    try:
        done = subprocess.run(probe, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"unshare failed: {exc}"
    if done.returncode != 0 or "ok" not in done.stdout:
        said = done.stderr.strip().splitlines()[-1:] or [f"status {done.returncode}"]
        return f"mount and PID namespaces are refused here: {said[0]}"
    for address in (HEAD_IP, "127.0.0.3"):
        with socket.socket() as s:
            try:
                s.bind((address, 0))
            except OSError as exc:
                return f"the loopback address {address} cannot be used: {exc}"
    return None


def _free_ports(count: int, taken: set[int], run: int = 1) -> list[int]:
    """`count` free TCP ports not in `taken` (which gains them); with run > 1, the first of `run`
    consecutive ones. A port chosen for a node's workers is bound only once a worker starts: the
    cluster remembers every port it gave, lest a later choice fall among them."""
    found: list[int] = []
    while len(found) < count:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            base = s.getsockname()[1]
        ports = range(base, base + run)
        if base + run > 65000 or any(p in taken for p in ports):
            continue
        if run == 1 or all(_port_free(p) for p in ports):
            found.append(base)
            taken.update(ports)
    return found


def _port_free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


# Asked of the head's GCS by a short-lived Python: a minimal Ray has no `ray list` (it needs the dashboard).
_ALIVE = """
import sys, time
from ray._raylet import GcsClient
from ray.core.generated.gcs_pb2 import GcsNodeInfo
address, count, timeout = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
deadline = time.monotonic() + timeout
alive, error = 0, ""
while time.monotonic() < deadline:
    try:
        nodes = GcsClient(address=address).get_all_node_info(timeout=5, state_filter=GcsNodeInfo.GcsNodeState.ALIVE)
        alive = len(nodes)
        if alive >= count:
            print(alive)
            sys.exit(0)
    except Exception as exc:
        error = repr(exc)
    time.sleep(0.5)
print("alive", alive, error)
sys.exit(1)
"""


@dataclass
class Cluster:
    id: str
    root: str  # this cluster's folders (the head's Ray session, the logs)
    port: int
    token: str
    cpus: int
    hide: list[str]
    object_store: int
    head_pid: int = 0
    nodes: list[dict] = field(default_factory=list)  # {"pid": unshare's, "name", "ip", "log", "killed"}
    ports: list[int] = field(default_factory=list)  # every port given to a process of the cluster
    started_s: float = 0.0

    @property
    def address(self) -> str:
        return f"{HEAD_IP}:{self.port}"

    def driver_env(self) -> dict[str, str]:
        """What a driver needs in its environment (before it imports ray): token authentication
        and this cluster's token; no usage statistics (they would go to Ray's servers)."""
        return {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": self.token, "RAY_USAGE_STATS_ENABLED": "0"}

    def _env(self) -> dict[str, str]:
        env = {key: value for key, value in os.environ.items() if key not in NOT_FOR_NODES}
        env.update(self.driver_env())
        env[MARK] = self.id
        return env

    def _ports(self, count: int, run: int = 1) -> list[int]:
        taken = set(self.ports)
        found = _free_ports(count, taken, run)
        self.ports = sorted(taken)
        return found

    def _node_flags(self) -> list[str]:
        nm, om, rt, ag, al, me = self._ports(6)
        (w,) = self._ports(1, WORKER_PORTS)
        return [
            f"--node-manager-port={nm}",
            f"--object-manager-port={om}",
            f"--runtime-env-agent-port={rt}",
            f"--dashboard-agent-grpc-port={ag}",
            f"--dashboard-agent-listen-port={al}",
            f"--metrics-export-port={me}",
            f"--min-worker-port={w}",
            f"--max-worker-port={w + WORKER_PORTS - 1}",
        ]

    # ------------------------------------------------------------ starting

    @classmethod
    def start(
        cls, nodes: int = 1, cpus: int = 1, hide: list[str] = (), object_store: int = 200 * 2**20, timeout: float = 120
    ) -> Cluster:
        """A head and `nodes` worker nodes of `cpus` CPUs each, hiding `hide` from the nodes;
        RuntimeError (the logs kept, every process stopped) if it does not start."""
        why = refused()
        if why:
            raise RuntimeError(why)
        ident = uuid.uuid4().hex[:8]
        root = Path(f"/tmp/simray-{ident}")  # short: Ray's Unix sockets live under it (108 bytes at most)
        root.mkdir(mode=0o700)
        cluster = cls(ident, str(root), 0, secrets.token_hex(32), cpus, [str(p) for p in hide], object_store)
        (cluster.port,) = cluster._ports(1)
        started = time.perf_counter()
        try:
            cluster._start_head()
            cluster._wait_nodes(1, timeout)
            for _ in range(nodes):
                cluster.add_node(timeout)
        except BaseException as exc:
            logs = cluster.logs()
            cluster.stop()
            raise RuntimeError(f"the simulated cluster did not start: {exc}\n{logs}") from exc
        cluster.started_s = round(time.perf_counter() - started, 1)
        return cluster

    def _start_head(self) -> None:
        args = [
            ray_program(), "start", "--head", "--block", "--num-cpus=0", f"--node-ip-address={HEAD_IP}",
            f"--port={self.port}", f"--dashboard-port={self._ports(1)[0]}", "--include-dashboard=false",
            "--disable-usage-stats", f"--temp-dir={self.root}/head", f"--object-store-memory={self.object_store}",
            *self._node_flags(),
        ]  # fmt: skip
        with open(Path(self.root) / "head.log", "wb") as log:
            proc = subprocess.Popen(
                args, env=self._env(), stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                start_new_session=True, cwd="/",
            )  # fmt: skip
        self.head_pid = proc.pid

    def add_node(self, timeout: float = 120) -> dict:
        """One more worker node, tried again in a fresh namespace where it fails to start in time."""
        for attempt in range(START_TRIES):
            try:
                return self._add_node(timeout)
            except (RuntimeError, TimeoutError):
                if attempt == START_TRIES - 1:
                    raise
        raise AssertionError("unreachable")

    def _add_node(self, timeout: float) -> dict:
        """A worker node in namespaces of its own: a tmpfs over /tmp (its own Ray session), ~/.ray (no
        token file), ~/.cache and each hidden folder; its processes die with it; started from / (a
        folder of the hidden ones as its cwd would still reach it)."""
        index = len(self.nodes)
        name, ip = f"node{index}", f"127.0.0.{index + 3}"
        hidden: list[str] = []
        for path in [*always_hidden(), *self.hide]:
            if os.path.isdir(path) and not any(Path(path).is_relative_to(h) for h in hidden):
                hidden.append(path)  # one inside a folder already hidden is hidden with it
        mounts = " && ".join(f"mount -t tmpfs -o size=1g simulated {shlex.quote(p)}" for p in hidden)
        ray = [
            ray_program(), "start", "--block", f"--address={self.address}", f"--node-ip-address={ip}",
            f"--num-cpus={self.cpus}", f"--object-store-memory={self.object_store}", "--disable-usage-stats",
            f"--node-name={name}", *self._node_flags(),
        ]  # fmt: skip
        script = f"hostname {name} && {mounts} && exec {shlex.join(ray)}"
        log_path = Path(self.root) / f"{name}-{uuid.uuid4().hex[:4]}.log"
        args = [*_unshare("-m", "-u", "-p", "-f", "--mount-proc", "--kill-child"), "--", "sh", "-c", script]
        with open(log_path, "wb") as log:
            proc = subprocess.Popen(
                args, env=self._env(), stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                start_new_session=True, cwd="/",
            )  # fmt: skip
        node = {"pid": proc.pid, "name": name, "ip": ip, "log": str(log_path), "killed": False}
        self.nodes.append(node)
        try:
            self._wait_nodes(1 + sum(not n["killed"] for n in self.nodes), timeout)
        except BaseException:
            _kill_group(node["pid"])  # never left running unknown
            self.nodes.remove(node)
            raise
        return node

    def _wait_nodes(self, count: int, timeout: float) -> None:
        poll = subprocess.Popen(
            [sys.executable, "-c", _ALIVE, self.address, str(count), str(timeout)],
            env=self._env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        try:
            while poll.poll() is None:
                living = [(self.head_pid, "head"), *((n["pid"], n["name"]) for n in self.nodes if not n["killed"])]
                gone = [what for pid, what in living if not _alive(pid)]
                if gone:
                    raise RuntimeError(f"the {gone[0]} exited")
                time.sleep(0.3)
        finally:
            if poll.poll() is None:
                poll.kill()
            said = poll.communicate()[0]
        if poll.returncode != 0:
            raise TimeoutError(f"{count} nodes not alive after {timeout:.0f} s: {said.strip()[-500:]}")

    def node_pids(self, index: int) -> list[int]:
        """The processes of worker node `index` (its namespace's, seen from here)."""
        first = self.nodes[index]["pid"]
        return [first, *descendants(first)]

    # ------------------------------------------------------------ stopping

    def kill_node(self, index: int) -> None:
        """SIGKILL to a worker node's first process: every process of the node dies at once, as when
        a machine is lost (unshare --kill-child hands it on to the namespace's init)."""
        self.nodes[index]["killed"] = True
        _kill_group(self.nodes[index]["pid"])

    def kill_head(self) -> None:
        """SIGKILL to the head's processes (its GCS, its raylet), the worker nodes left running: a
        head machine lost, the other machines still up."""
        _kill_group(self.head_pid)

    def stop(self) -> list[str]:
        """Stop every process of this cluster, and no other; the names of those that needed the
        final sweep (by this cluster's mark), for whoever wants to know."""
        for node in self.nodes:
            _kill_group(node["pid"])
        if self.head_pid:
            try:
                os.killpg(self.head_pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline and marked(self.id):
            time.sleep(0.2)
        swept = marked(self.id)
        names = [_name(pid) for pid in swept]
        for pid in swept:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        shutil.rmtree(self.root, ignore_errors=True)
        return names

    def logs(self, lines: int = 12) -> str:
        """The end of each log of the cluster, for a failure's message."""
        said = []
        for path in sorted(Path(self.root).glob("*.log")):
            try:
                tail = path.read_text(errors="replace").splitlines()[-lines:]
            except OSError:
                continue
            said.append(f"--- {path.name}\n" + "\n".join(tail))
        return "\n".join(said)

    # ------------------------------------------------------------ the command line's state file

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(asdict(self)))

    @classmethod
    def load(cls, path: Path) -> Cluster:
        return cls(**json.loads(path.read_text()))


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)  # each was started as the leader of a session of its own
    except ProcessLookupError:
        pass


def marked(ident: str) -> list[int]:
    """The live processes whose environment holds this cluster's mark (this one excepted)."""
    mark = f"{MARK}={ident}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                if mark in f.read().split(b"\0"):
                    found.append(int(entry))
        except OSError:
            continue
    return [pid for pid in found if _alive(pid)]


def _name(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return "?"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.cluster.simulated",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("command", choices=["check", "start", "add-node", "kill-node", "stop", "env"])
    parser.add_argument("index", nargs="?", type=int, help="kill-node: the node's index")
    parser.add_argument("--nodes", type=int, default=1, help="worker nodes (default 1)")
    parser.add_argument("--cpus", type=int, default=1, help="CPUs of each worker node (default 1)")
    parser.add_argument("--hide", action="append", default=[], help="a folder the worker nodes must not see")
    parser.add_argument("--state", type=Path, default=Path("simulated-cluster.json"), help="the cluster's state file")
    args = parser.parse_args(argv)
    if args.command == "check":
        print(refused() or "this machine can simulate a cluster")
        return 0
    if args.command == "start":
        if args.state.exists():
            parser.error(f"{args.state} exists: a cluster is running (stop it first)")
        cluster = Cluster.start(args.nodes, args.cpus, args.hide)
        cluster.save(args.state)
        print(f"address {cluster.address}  nodes {len(cluster.nodes)}  started in {cluster.started_s} s")
        return 0
    if not args.state.is_file():
        parser.error(f"no cluster's state at {args.state}: give --state FILE as to `start`")
    cluster = Cluster.load(args.state)
    if args.command == "add-node":
        node = cluster.add_node()
        print(f"{node['name']} joined")
    elif args.command == "kill-node":
        if args.index is None or not 0 <= args.index < len(cluster.nodes):
            parser.error(f"kill-node needs the index of one of the cluster's nodes, 0 to {len(cluster.nodes) - 1}")
        cluster.kill_node(args.index)
        print(f"killed {cluster.nodes[args.index]['name']}")
    elif args.command == "env":
        for key, value in {**cluster.driver_env(), "SIMULATED_RAY_ADDRESS": cluster.address}.items():
            print(f"export {key}={shlex.quote(value)}")
    elif args.command == "stop":
        cluster.stop()
        args.state.unlink()
        print("stopped")
        return 0
    cluster.save(args.state)
    return 0


if __name__ == "__main__":
    sys.exit(main())
