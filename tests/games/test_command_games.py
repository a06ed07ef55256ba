"""What the games whose referee runs the bots itself share (arena/games/command.py: protocols (A),
cli, and (B), json), against Pebbles' referees of both (tests/games/pebbles/cli_referee.py and
json_referee.py): a referee that fails is the referee's failure, and leaves no process behind."""

import pytest

from arena.games.base import RefereeFailure
from arena.games.cli import CliGame
from arena.games.json_game import JsonGame
from tests.games.pebbles.harness import CLI_REFEREE, JSON_REFEREE, ROOT, player, sleeper


def misbehaving(protocol: str, how: str, **settings):
    """Pebbles refereed in `protocol`, the referee failing as `how` says (its --misbehave)."""
    if protocol == "cli":
        return CliGame(CLI_REFEREE, name="pebbles", extra_args=f"--misbehave {how}", cwd=str(ROOT), **settings)
    return JsonGame(
        f"{JSON_REFEREE} --misbehave {how} --seed {{seed}} {{players}}", name="pebbles", cwd=str(ROOT), **settings
    )


# What a failing referee's message says, by how it fails (its --misbehave) and, where they differ, its protocol.
SAYS = {
    "crash": "exited with status 1",
    "exit": "exited with status 3",
    "garbage": {"cli": "where player 0's score comes", "json": "printed what is not JSON"},
    "missing-score": {"cli": "printed 1 score for 2 players", "json": "gives 1 ranks for 2 players"},
    "hang": "no result within 2 s",
}


@pytest.mark.parametrize("how", SAYS)
@pytest.mark.parametrize("protocol", ["cli", "json"])
def test_a_referees_failure_is_a_referee_failure_and_leaves_no_process(protocol, how, leftovers):
    # A hung referee is killed: its bots, which run in sessions of their own under tokens of their
    # own, are killed too, even one that would outlive the end of its input.
    first = sleeper() if how == "hang" else player("greedy")
    with pytest.raises(RefereeFailure) as caught:
        misbehaving(protocol, how, timeout_s=2).play(3, [first, player("worst")], [0, 0])
    message = str(caught.value)
    says = SAYS[how] if isinstance(SAYS[how], str) else SAYS[how][protocol]
    assert says in message and "\n" not in message
    if how == "crash":  # the referee's own traceback is kept, and its last line quoted
        assert "Traceback" in caught.value.stderr
        assert "the referee's own bug" in message
    assert not leftovers()
