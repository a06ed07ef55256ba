"""`python -m tests.cluster.simulated` (docs/cluster.md gives its commands to users): a mistake is one
line and status 2. A forgotten --state and a wrong node's index ended in tracebacks, and a user who
forgot --state on `stop` was left with the cluster running."""

import pytest

from tests.cluster import simulated


@pytest.mark.parametrize(
    "argv, says",
    [
        (["stop"], "no cluster's state at"),
        (["env"], "no cluster's state at"),
        (["kill-node", "9"], "kill-node needs the index of one of the cluster's nodes, 0 to 1"),
        (["kill-node"], "kill-node needs the index of one of the cluster's nodes, 0 to 1"),
    ],
)
def test_a_mistake_is_one_line(tmp_path, monkeypatch, capsys, argv, says):
    monkeypatch.chdir(tmp_path)
    state = tmp_path / "cluster.json"
    nodes = [{"name": f"node{i}", "pid": 0, "killed": False} for i in range(2)]
    if argv[0] == "kill-node":  # (a state as `start` writes it, no node killed for real)
        cluster = simulated.Cluster("id", str(tmp_path), 1, "token", 1, [], 0, nodes=nodes)
        cluster.save(state)
        argv = [*argv, "--state", str(state)]
    with pytest.raises(SystemExit) as ended:
        simulated.main(argv)
    err = capsys.readouterr().err
    assert ended.value.code == 2 and says in err and "Traceback" not in err, err
