"""A cluster that goes away mid-run, whole or its head alone (killed, the worker nodes still up):
every Ray call then hangs, and Ray ends the driver after a minute with a line of its own, status 1
(an SPRT's "accepts H0"), nothing said of the games stored. The run now stops itself first, in one
line that says what happened and how to go on, status 2. On a cluster of its own (simulated, as
tests/cluster/test_cluster.py's), which the test stops."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from tests.cluster import simulated
from tests.cluster.test_cluster import (  # (helpers and the user's folder; no test of that module)
    FIRST,
    GREEDY,
    REFEREES,
    REFUSED,
    RUN_S,
    count,
    on_cluster,
    place,  # noqa: F401 - the fixture
    started,
    wait_for_games,
)

pytestmark = pytest.mark.skipif(REFUSED is not None, reason=REFUSED or "")


def driving(cluster, folder, command: list[str]):
    """`command`, a run, started from the user's folder as the cluster's driver, its stderr piped.
    (Not marked as the cluster's: its stop would end the driver too, as it ends what the driver
    leaves behind in the other tests.)"""
    return started(cluster, folder, command, stdout=subprocess.DEVNULL, marked=False)


@pytest.mark.parametrize("lost", ["whole", "head"])
def test_a_cluster_gone_stops_the_run_saying_so(place, tmp_path, lost):  # noqa: F811 - the fixture
    cluster = simulated.Cluster.start(nodes=1, cpus=1, hide=[str(place)])
    try:
        db = tmp_path / "run.sqlite"
        command = [sys.executable, "-m", "arena.cli", "match", GREEDY, FIRST, *REFEREES["relay"],
                   "--pairs", "200", "--seed", "12", "--db", str(db), *on_cluster(cluster)]  # fmt: skip
        with driving(cluster, place, command) as run:
            wait_for_games(db, 4, run)
            assert run.poll() is None and count(db) >= 4, "the run did not play on the cluster"
            if lost == "whole":
                cluster.stop()
            else:
                cluster.kill_head()
            stopped = time.monotonic()
            err = run.communicate(timeout=RUN_S)[1]
        took = time.monotonic() - stopped
    finally:
        cluster.stop()
    assert run.returncode == 2, err[-3000:]
    assert took < 55, f"ended {took:.0f} s after its cluster: Ray's own end, not the run's"
    assert "has not answered for 20 s: its head is gone or out of reach;" in err
    assert f"games are stored, and arena match --resume --db {db} --ray-address " in err  # (on the cluster again)
    assert "plays the others once a machine can" in err


def test_a_head_gone_during_the_seed_check_stops_the_run_saying_so(place, tmp_path):  # noqa: F811 - the fixture
    """The seed check, the first game of a run on an external referee, waited on Ray without a bound:
    a head lost during it ended the driver a minute later with Ray's own line."""
    cluster = simulated.Cluster.start(nodes=1, cpus=1, hide=[str(place)])
    try:
        slow = f"s={sys.executable} mybots/hostile.py slow 2000"  # (a seed game of half a minute)
        referee = ["--referee", f"{sys.executable} pebbles/relay_referee.py", "--protocol", "relay"]
        referee += ["--turn-ms", "4000"]
        command = [sys.executable, "-m", "arena.cli", "match", GREEDY, slow, *referee,
                   "--pairs", "2", "--db", str(tmp_path / "run.sqlite"), *on_cluster(cluster)]  # fmt: skip
        with driving(cluster, place, command) as run:
            said = ""
            while "honours the seed" not in said:
                line = run.stderr.readline()
                assert line, f"the run ended before its seed check: {said[-2000:]}"
                said += line
            time.sleep(6)  # (its first seed game under way on the node)
            cluster.kill_head()
            stopped = time.monotonic()
            err = said + run.communicate(timeout=RUN_S)[1]
        took = time.monotonic() - stopped
    finally:
        cluster.stop()
    assert run.returncode == 2, err[-3000:]
    assert took < 55, f"ended {took:.0f} s after its head: Ray's own end, not the run's"
    assert "has not answered for 20 s: its head is gone or out of reach" in err
