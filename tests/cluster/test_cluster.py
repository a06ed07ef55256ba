"""The arena on a Ray cluster whose machines have none of the user's files (issue 53), on a cluster
simulated on this machine (tests/cluster/simulated.py): a head with no CPUs and a worker node in
namespaces of its own, a tmpfs over the user's folder, the checkout, the installed project and the
caches; every node on a loopback address. Started once for the module (some 15 to 40 s), stopped at
its end with every process it started; skipped, saying why, where Ray or the namespaces are missing.

Each run is the `arena` command in a process of its own, given from the user's folder with the
cluster's token, as a user runs it: an external referee in each protocol and bot files of that
folder (N players among them), a file outside it, a git-pinned bot, a source player's build, a tune,
a resume, a league; every game played on the node and none failed. Then what a node cannot do: a
program missing there is the machine's failure, named, never a bot's loss nor the referee's; a
driver without the token, or an absolute path that does not travel, is one line before any file is
made. Last, one of two nodes killed mid-run: every game stored once.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.games.pebbles.harness import stored
from arena.project import PROJECT_ROOT
from tests.cluster import simulated

PEBBLES = PROJECT_ROOT / "tests" / "games" / "pebbles"
SOLO = """import sys
first = sys.stdin.readline()
while True:
    scores = sys.stdin.readline()
    if not scores:
        break
    sys.stdin.readline()
    values = [int(v) for v in sys.stdin.readline().split()]
    print(values.index(max(values)), flush=True)
"""
PY = shlex.quote(sys.executable)  # this Python, which each node replaces with its own
REFEREES = {  # Pebbles' referees, from the user's folder (`pebbles/`, a copy of tests/games/pebbles)
    "cli": ["--referee", f"{PY} -m pebbles.cli_referee", "--protocol", "cli"],
    "sdk": ["--referee", f"{PY} -m pebbles.sdk_referee", "--protocol", "sdk"],
    "relay": ["--referee", f"{PY} pebbles/relay_referee.py", "--protocol", "relay", "--turn-ms", "500"],
    "json": ["--referee", f"{PY} -m pebbles.json_referee --seed {{seed}} {{players}}", "--protocol", "json"],
}
GREEDY, FIRST, WORST = (f"{name[0]}={PY} mybots/{name}.py" for name in ("greedy", "first", "worst"))
RUN_S = 300  # the longest a run of this module may take on a busy machine

REFUSED = simulated.refused()  # why this machine cannot simulate a cluster (None where it can)
pytestmark = pytest.mark.skipif(REFUSED is not None, reason=REFUSED or "")


def installed_project() -> list[str]:
    """Where `import arena` finds the project without this checkout on the path (an editable install
    may point elsewhere): hidden from the nodes too, lest they import it from there."""
    done = subprocess.run(
        [sys.executable, "-c", "import arena, os; print(os.path.dirname(os.path.dirname(arena.__file__)))"],
        capture_output=True, text=True, cwd="/", env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )  # fmt: skip
    return [done.stdout.strip()] if done.returncode == 0 and done.stdout.strip() else []


@pytest.fixture(scope="module")
def place():
    """The user's folder (Pebbles' referees, bots, a lone bot file), a folder of files it names from
    outside, the driver's cache: under one temporary root that the nodes do not see."""
    root = Path(tempfile.mkdtemp(prefix="caldera-cluster-"))
    user = root / "user"
    shutil.copytree(PEBBLES, user / "pebbles", ignore=shutil.ignore_patterns("__pycache__", "bots", "sources"))
    shutil.copytree(PEBBLES / "bots", user / "mybots", ignore=shutil.ignore_patterns("__pycache__"))
    (user / "solo.py").write_text(SOLO)
    (root / "outside").mkdir()
    (root / "outside" / "solo.py").write_text(SOLO)
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def cluster(place):
    hidden = [str(place), str(PROJECT_ROOT), *installed_project(), tempfile.gettempdir()]
    try:
        started = simulated.Cluster.start(nodes=1, cpus=1, hide=hidden)
    except RuntimeError as exc:
        pytest.fail(str(exc))
    try:
        yield started
    finally:
        started.stop()
        assert not simulated.marked(started.id), "a process of the cluster outlived it"


def arena(cluster, place: Path, *args: str, env: dict | None = None, timeout: float = RUN_S):
    """`arena ARGS` from the user's folder, with the cluster's token, this checkout's code and a cache
    of the driver's own (both hidden from the nodes)."""
    command = [sys.executable, "-m", "arena.cli", *args]
    return subprocess.run(command, cwd=place / "user", env=driver_env(cluster, place, env), capture_output=True,
                          text=True, timeout=timeout)  # fmt: skip


def driver_env(cluster, place: Path, extra: dict | None = None) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("RAY_ADDRESS",)}
    env.update(cluster.driver_env(), PYTHONPATH=str(PROJECT_ROOT), XDG_CACHE_HOME=str(place / "cache"))
    env[simulated.MARK] = cluster.id  # whatever the driver leaves behind, the cluster's stop ends
    env.update(extra or {})
    return {k: v for k, v in env.items() if v is not None}


def on_cluster(cluster) -> list[str]:
    return ["--backend", "ray", "--ray-address", cluster.address, "--quiet"]


def played_on_the_node(done, db: Path, games: int | None, node: str = "node0", status: int = 0) -> list[dict]:
    """The run's records, once it is known to have ended well (exit `status`) with `games` games (None:
    some), each played on `node`, none failed, no bot in error."""
    assert done.returncode == status, done.stderr
    _, records, failures = stored(db)
    assert not failures, failures
    assert len(records) == games if games is not None else records
    assert {r["worker"].split(":")[0] for r in records} == {node}
    assert not any(any(r["errors"]) for r in records), [r["detail"] for r in records]
    return records


def test_an_external_referee_and_the_user_s_files_play_on_the_node(cluster, place, tmp_path):
    """A file player, a command of the user's folder whose files import their siblings, a file
    named from outside that folder; the referee's seed check is played on the node and says so."""
    db = tmp_path / "run.sqlite"
    players = ["solo.py", GREEDY]
    done = arena(cluster, place, "match", *players, *REFEREES["cli"], "--pairs", "2", "--seed", "3",
                 "--db", str(db), *on_cluster(cluster))  # fmt: skip
    played_on_the_node(done, db, 4)
    assert "seed 3 played twice on node0 began the same game" in done.stderr
    assert stored(db)[0]["seed_check"] == "honoured"
    db = tmp_path / "outside.sqlite"
    players = [f"o={PY} {place / 'outside' / 'solo.py'}", f"f={PY} ../user/mybots/first.py"]
    done = arena(cluster, place, "match", *players, *REFEREES["relay"], "--pairs", "1", "--seed", "4",
                 "--db", str(db), *on_cluster(cluster))  # fmt: skip
    played_on_the_node(done, db, 2)


@pytest.mark.parametrize(
    "protocol, command, players, games",
    [
        ("sdk", ["match", "--pairs", "2"], 2, 4),
        ("relay", ["tournament", "--players", "3", "--pairs", "1"], 3, 6),
        ("json", ["sprt", "--elo0", "0", "--elo1", "400", "--max-pairs", "2"], 2, None),
    ],
)
def test_every_protocol_and_run_kind_plays_on_the_node(cluster, place, tmp_path, protocol, command, players, games):
    db = tmp_path / "run.sqlite"
    bots = [GREEDY, FIRST, WORST][:players]
    kind, *rest = command
    done = arena(cluster, place, kind, *bots, *REFEREES[protocol], *rest, "--seed", "5", "--db", str(db),
                 *on_cluster(cluster))  # fmt: skip
    played_on_the_node(done, db, games, status=3 if kind == "sprt" else 0)  # (2 pairs: an SPRT undecided)


def test_a_resumed_run_and_a_tune_play_on_the_node(cluster, place, tmp_path):
    db = tmp_path / "match.sqlite"
    bots = [GREEDY, FIRST]
    first = arena(cluster, place, "match", *bots, *REFEREES["cli"], "--pairs", "1", "--seed", "6", "--db", str(db),
                  *on_cluster(cluster))  # fmt: skip
    played_on_the_node(first, db, 2)
    more = arena(cluster, place, "match", "--resume", "--pairs", "2", "--db", str(db), *on_cluster(cluster))
    played_on_the_node(more, db, 4)
    db = tmp_path / "tune.sqlite"
    done = arena(cluster, place, "tune", f"{PY} mybots/tunable.py", "--params", "K=0:4", "--opponent",
                 FIRST, *REFEREES["cli"], "--iterations", "2", "--pairs-per-iteration", "1",
                 "--confirm-pairs", "1", "--seed", "7", "--db", str(db), *on_cluster(cluster))  # fmt: skip
    played_on_the_node(done, db, None)


def test_a_git_pinned_bot_plays_from_its_tree_on_the_node(cluster, place, tmp_path):
    db = tmp_path / "pin.sqlite"
    done = arena(cluster, place, "match", "old=pure-random@HEAD", "pure-random", "--pairs", "2", "--seed", "8",
                 "--db", str(db), *on_cluster(cluster))  # fmt: skip
    records = played_on_the_node(done, db, 4)
    assert {r["reason"] for r in records} != {"start"}


def test_a_source_player_is_built_and_plays_on_the_node(cluster, place, tmp_path):
    """A source player is built once, here, before the run's first game; its build travels to the
    node (of this machine's platform), which runs it as it is."""
    source = PEBBLES / "sources" / "greedy.cpp"
    if not source.is_file() or not shutil.which("g++"):
        pytest.skip("no C++ source player to build here (tests/games/pebbles/sources/greedy.cpp and g++)")
    shutil.copy(source, place / "user" / "greedy.cpp")
    db = tmp_path / "build.sqlite"
    done = arena(cluster, place, "match", "greedy.cpp", FIRST, *REFEREES["sdk"],
                 "--pairs", "1", "--seed", "9", "--db", str(db), *on_cluster(cluster))  # fmt: skip
    played_on_the_node(done, db, 2)


def count(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        return len(stored(db)[1])
    except Exception:  # noqa: BLE001 - not written yet
        return 0


@contextlib.contextmanager
def started(cluster, place: Path, command: list[str], stdout, marked: bool = True):
    """An arena command started on the driver, in the user's folder; killed, its whole session, if
    it still runs when the test leaves. `marked`: as the cluster's, which its stop ends too."""
    env = driver_env(cluster, place, None if marked else {simulated.MARK: None})
    process = subprocess.Popen(command, cwd=place / "user", env=env, stdout=stdout,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)  # fmt: skip
    try:
        yield process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def wait_for_games(db: Path, games: int, process: subprocess.Popen) -> None:
    """Until `db` stores `games` games, `process` ends, or RUN_S pass."""
    deadline = time.monotonic() + RUN_S
    while time.monotonic() < deadline and process.poll() is None and count(db) < games:
        time.sleep(0.2)


def test_a_league_plays_on_the_node_until_stopped(cluster, place, tmp_path):
    db = tmp_path / "league.sqlite"
    command = [sys.executable, "-m", "arena.cli", "league", GREEDY, FIRST,
               *REFEREES["cli"], "--seed", "10", "--db", str(db), *on_cluster(cluster)]  # fmt: skip
    with started(cluster, place, command, stdout=subprocess.DEVNULL) as league:
        wait_for_games(db, 4, league)
        league.send_signal(signal.SIGINT)  # the games in play end and are stored
        stderr = league.communicate(timeout=120)[1]
    assert league.returncode == 0, stderr
    _, records, failures = stored(db)
    assert len(records) >= 4 and not failures
    assert {r["worker"].split(":")[0] for r in records} == {"node0"}


def test_a_program_a_node_lacks_is_that_machine_s_failure(cluster, place, tmp_path):
    """A bot on the driver's PATH alone: on the node it is missing, which is the node's failure,
    named, never the bot's loss; with no other node, the run stops in one line."""
    tools = tmp_path / "tools"
    tools.mkdir()
    (tools / "pebbot").write_text(f"#!/bin/sh\nexec {PY} {place / 'user' / 'solo.py'}\n")
    (tools / "pebbot").chmod(0o755)
    path = {"PATH": f"{tools}{os.pathsep}{os.environ['PATH']}"}
    db = tmp_path / "seedcheck.sqlite"
    done = arena(cluster, place, "match", "pebbot", FIRST, *REFEREES["cli"],
                 "--db", str(db), *on_cluster(cluster), env=path)  # fmt: skip
    assert done.returncode == 2 and not db.exists()
    assert done.stderr.splitlines()[-1].startswith("arena match: no machine of the cluster can play this run: node0")
    assert "pebbot: no such command" in done.stderr and "ignores the seed" not in done.stderr
    db = tmp_path / "volcanoes.sqlite"  # no seed check: the games are the machine's failures
    done = arena(cluster, place, "match", "pebbot", "pure-random", "--pairs", "2",
                 "--db", str(db), *on_cluster(cluster), env=path)  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "--resume" in done.stderr.splitlines()[-1]
    _, records, failures = stored(db)
    assert not records and failures
    assert all(f["kind"] == "machine" and f["detail"].startswith("node0 cannot play") for f in failures)


def refused_before_any_file(cluster, place, tmp_path, env: dict) -> list[str]:
    """The lines of a match on the cluster with `env`, refused (status 2) before it made its database."""
    db = tmp_path / "run.sqlite"
    done = arena(cluster, place, "match", "pure-random", "pure-random", "--db", str(db), *on_cluster(cluster), env=env)
    assert done.returncode == 2 and not db.exists()
    return done.stderr.strip().splitlines()


def test_a_driver_without_the_token_is_one_line_before_any_file(cluster, place, tmp_path):
    without = {"RAY_AUTH_TOKEN": None, "RAY_AUTH_MODE": None}
    assert refused_before_any_file(cluster, place, tmp_path, without) == [
        f"arena match: the Ray cluster at {cluster.address} asks a token of its drivers: set RAY_AUTH_MODE=token "
        "and the cluster's token (RAY_AUTH_TOKEN, or RAY_AUTH_TOKEN_PATH naming its file) in this command's "
        "environment, as on the cluster's machines"
    ]


def test_a_token_file_that_cannot_be_read_is_said_so_not_refused(cluster, place, tmp_path):
    """RAY_AUTH_TOKEN_PATH naming no file: the cluster's refusal of the token was said."""
    without = {"RAY_AUTH_TOKEN": None, "RAY_AUTH_TOKEN_PATH": str(tmp_path / "nofile")}
    assert refused_before_any_file(cluster, place, tmp_path, without) == [
        f"arena match: RAY_AUTH_TOKEN_PATH names {tmp_path / 'nofile'}, which cannot be read (No such file or "
        "directory): name the file that holds the cluster's token (or give the token itself in RAY_AUTH_TOKEN)"
    ]


def test_an_absolute_path_that_does_not_travel_is_refused_in_one_line(cluster, place, tmp_path):
    db = tmp_path / "run.sqlite"
    players = [f"{GREEDY} --maps /srv/maps", FIRST]
    done = arena(cluster, place, "match", *players, *REFEREES["cli"], "--db", str(db), *on_cluster(cluster))
    assert done.returncode == 2 and not db.exists()
    assert done.stderr.strip().splitlines() == [
        "arena match: on a cluster, player g's command names /srv/maps, which does not travel with the run (the "
        "folder a command is given in and the files it names do): give it relative to that folder, or declare it "
        "in the game's node_paths if every machine of the cluster has it"
    ]


def test_a_node_killed_mid_run_loses_no_game_and_plays_none_twice(cluster, place, tmp_path):
    """Last: a second node joins, and the first is killed (SIGKILL to its whole namespace) once the
    run has stored some games; its games in play are the machine's failures, played again on the
    other node, and every game is stored once."""
    cluster.add_node()
    db = tmp_path / "run.sqlite"
    command = [sys.executable, "-m", "arena.cli", "match", GREEDY, FIRST,
               *REFEREES["cli"], "--pairs", "30", "--seed", "11", "--db", str(db), *on_cluster(cluster)]  # fmt: skip
    with started(cluster, place, command, stdout=subprocess.PIPE) as run:
        wait_for_games(db, 10, run)
        cluster.kill_node(0)
        out, err = run.communicate(timeout=RUN_S)
    assert run.returncode == 0, err
    _, records, failures = stored(db)
    keys = [(tuple(r["lineup"]), r["unit"], r["seating"]) for r in records]
    assert len(keys) == len(set(keys)) == 60
    assert all(f["kind"] == "machine" and "node0 was lost" in f["detail"] for f in failures)
    assert {r["worker"].split(":")[0] for r in records} <= {"node0", "node1"}
    assert "node1" in {r["worker"].split(":")[0] for r in records}
