"""Every game kind keeps the game contract (arena/games/base.py), as every engine and every puzzle keeps
theirs: Volcanoes, refereed in-process, and each protocol of arena/games/protocols.py on the tests'
own game, Pebbles (tests/games/pebbles/), whose referees speak every protocol. A protocol added to
the table without a case here fails `test_every_protocol_is_tested`.

For each: its configuration makes the same game again, through JSON and through pickle (a game
travels to workers and to Ray as plain data); a game between well-behaved players ends with a rank,
a score slot and no error for each seat; a seed played twice begins the same game; a bot that crashes
loses by its own fault, ranked below the others, and the game still counts; the clock is reported
where the arena keeps it and only there; a referee whose program is missing is the user's mistake,
said before any game.
"""

from __future__ import annotations

import json
import pickle
import shlex
import sys
from dataclasses import dataclass

import pytest

from arena.games.base import BOT_ERRORS, Game, Outcome, Player
from arena.games.protocols import EXTERNAL, PROTOCOLS, game_class, make
from arena.players import registry as players
from referee.platform.errors import UserError
from tests.games.pebbles.harness import BOTS, ROOT


@dataclass(frozen=True)
class Kind:
    """A game kind under test: its configuration, and the specs of two players that play it well and
    of one that crashes on its first turn."""

    config: dict
    good: tuple[str, str]
    crashing: str


def _pebbles(name: str, *args: str) -> str:
    return shlex.join([sys.executable, str(BOTS / f"{name}.py"), *args])


def _pebbles_kind(protocol: str, referee: str, **settings) -> Kind:
    """Pebbles refereed in `protocol` by the tests' referee module `referee` (with its arguments)."""
    command = f"{sys.executable} -m tests.games.pebbles.{referee}"
    config = {"protocol": protocol, "command": command, "name": "pebbles", "cwd": str(ROOT), **settings}
    return Kind(config, (_pebbles("greedy"), _pebbles("first")), _pebbles("hostile", "crash"))


_SLOW_START = {"first_turn_ms": 5000, "reply_s": 20}  # a Python bot's start on a busy machine is no test's subject
KINDS = {
    "volcanoes": Kind({"protocol": "volcanoes"}, ("random", "pure-random"), _pebbles("hostile", "crash")),
    "cli": _pebbles_kind("cli", "cli_referee"),
    "json": _pebbles_kind("json", "json_referee --seed {seed} {players}"),
    "sdk": _pebbles_kind("sdk", "sdk_referee", **_SLOW_START),
    "relay": _pebbles_kind("relay", "relay_referee", **_SLOW_START),
}


def test_every_protocol_is_tested():
    assert set(KINDS) == set(PROTOCOLS)


@pytest.mark.parametrize("protocol", sorted(PROTOCOLS))
def test_the_table_names_each_protocol_s_own_class(protocol):
    assert game_class(protocol).protocol == protocol
    assert PROTOCOLS[protocol].external == (protocol in EXTERNAL)


@pytest.fixture(params=sorted(KINDS))
def kind(request, monkeypatch) -> tuple[Game, Kind]:
    monkeypatch.chdir(ROOT)  # the referees run as `python -m tests.games.pebbles...`
    case = KINDS[request.param]
    return make(case.config), case


def _players(game: Game, specs) -> list[Player]:
    seated = players.resolve_all([f"p{i}={spec}" for i, spec in enumerate(specs)], game)
    players.prepare(seated, game)
    return seated


def test_its_configuration_makes_the_same_game_again(kind):
    game, _ = kind
    assert make(json.loads(json.dumps(game.config()))).config() == game.config()
    assert pickle.loads(pickle.dumps(game)).config() == game.config()


def _check_outcome(outcome: Outcome, seats: int) -> None:
    assert len(outcome.ranks) == len(outcome.scores) == len(outcome.errors) == seats == outcome.seats
    assert all(0 <= rank < seats for rank in outcome.ranks) and min(outcome.ranks) == 0
    assert outcome.reason and isinstance(outcome.reason, str)
    json.dumps(outcome.data)  # stored with the game


def test_well_behaved_players_end_a_game_with_no_error(kind):
    game, case = kind
    seated = _players(game, case.good)
    outcome = game.play(7, seated, [1, 2])
    _check_outcome(outcome, game.seats)
    assert outcome.errors == [None] * game.seats
    if game.timed_by_referee:
        assert outcome.times_ms is None  # the referee kept the clock: the arena says no time
    else:
        assert outcome.times_ms is not None and all(len(times) > 0 for times in outcome.times_ms)


def test_a_seed_played_twice_begins_the_same_game(kind):
    game, case = kind
    seated = _players(game, case.good)
    first, second = (game.play(11, seated, [3, 3]) for _ in range(2))
    if game.replays_seeds:
        assert (first.ranks, first.turns) == (second.ranks, second.turns)
    else:
        assert first.fingerprint is not None and first.fingerprint == second.fingerprint


def test_a_bot_that_crashes_loses_by_its_own_fault(kind):
    game, case = kind
    seated = _players(game, [case.good[0], case.crashing])
    outcome = game.play(5, seated, [1, 2])
    _check_outcome(outcome, game.seats)
    assert outcome.errors[0] is None and outcome.errors[1] in BOT_ERRORS
    assert outcome.ranks[1] > outcome.ranks[0]


def test_a_missing_referee_is_the_users_mistake_before_any_game(kind, tmp_path):
    game, case = kind
    if not PROTOCOLS[game.protocol].external:
        pytest.skip("our own referee runs in-process")
    program, *rest = shlex.split(case.config["command"])  # the same command, of a program that is not there
    missing = make({**case.config, "command": shlex.join([str(tmp_path / "no-such-referee"), *rest])})
    with pytest.raises(UserError, match="no-such-referee"):
        players.prepare([], missing)
