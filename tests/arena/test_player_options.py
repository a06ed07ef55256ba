"""Player specs with options and a turn limit: `mcts:c=0.3,rave_k=2000`, `uct:ms=1000`."""

import pytest

from arena.games.volcanoes.game import VolcanoesGame
from arena.games.volcanoes.seats import open_seat, spec_of, turn_ms
from arena.players.volcanoes import fixed_budget_note
from arena.players import registry as arena_players
from arena.players.base import PlayerError
from bots.volcanoes.registry import BOTS, defaults, parse_options
from referee.volcanoes.match import Settings, play_game


def resolve(text, cache=None):
    return arena_players.resolve(text, VolcanoesGame(), cache)


def test_options_reach_the_bot_and_its_version(tmp_path):
    player = resolve("mcts:rave_k=2000,c=0.3", tmp_path)
    assert player.label == "mcts:rave_k=2000,c=0.3"
    assert spec_of(player).options == {"c": 0.3, "rave_k": 2000.0}
    plain = resolve("mcts", tmp_path)
    assert player.version.startswith(plain.version) and player.version != plain.version
    assert resolve("mcts:c=0.30,rave_k=2e3", tmp_path).version == player.version  # canonical
    seat = open_seat(player, seed=1)
    bot = seat.player.bot
    assert (bot.options.c, bot.options.rave_k, bot.options.decisive) == (
        0.3,
        2000.0,
        True,
    )  # the rest of mcts's defaults kept
    seat.close()


def test_time_option_sets_the_seats_limit_not_a_bot_argument(tmp_path):
    player = resolve("uct:ms=1000", tmp_path)
    assert turn_ms(player, 100.0) == 1000.0
    assert turn_ms(resolve("uct", tmp_path), 100.0) == 100.0
    open_seat(player, seed=1).close()  # `ms` is not passed to the constructor


@pytest.mark.parametrize(
    "spec, turn_ms_, noted",
    [
        ("pure-mcts:iterations=500", 100.0, True),  # a fixed search under CodinGame's limit
        ("mcts:iterations=6000", 50.0, True),
        ("pure-mcts:iterations=500", 300.0, False),  # the limit lifted for the run
        ("pure-mcts:iterations=500,ms=1000", 100.0, False),  # or for the player
        ("mcts", 100.0, False),  # searches by the clock
        ("uct:ms=1000", 100.0, False),
    ],
)
def test_a_fixed_search_under_the_turn_limit_gets_a_note(tmp_path, spec, turn_ms_, noted):
    """A fixed number of iterations ignores the clock, the referee does not: the run says so before
    its games (a forfeit would count as a loss, and a tune would favour the fast values)."""
    player = resolve(spec, tmp_path)
    note = fixed_budget_note(player, Settings(turn_ms=turn_ms_))
    assert bool(note) == noted
    if noted:
        assert spec in note and "--turn-ms" in note


@pytest.mark.parametrize(
    "spec, says",
    [
        ("mcts:k=1", "no option 'k'"),
        ("mcts:c=11", "out of range"),
        ("mcts:c=x", "not a number"),
        ("mcts:c", "not NAME=VALUE"),
        ("mcts:c=1,c=2", "given twice"),
        ("greedy:c=1", "its options: none"),
        ("uct:ms=0", "out of range"),
        ("mcts@HEAD:c=1", "cannot take them"),
    ],
)
def test_bad_options_are_one_line_errors(tmp_path, spec, says):
    with pytest.raises(PlayerError, match=says) as error:
        resolve(spec, tmp_path)
    assert "\n" not in str(error.value)


def test_declared_defaults_are_the_bots_defaults():
    from bots.volcanoes.mcts import MctsBot
    from bots.volcanoes.uct import UctBot

    mcts = MctsBot(seed=0)
    assert defaults("mcts") == {
        "c": mcts.options.c,
        "rave_k": mcts.options.rave_k,
        "expand": mcts.options.expand,
        "first_turn": mcts.first_turn_budget,
        "time_fraction": mcts.time_fraction,
        "iterations": mcts.iterations,
        "first_play": mcts.options.first_play,
        "capacity": len(mcts.nodes),
        "reuse": mcts.reuse,
        "opening": mcts.use_book,
    }
    assert mcts.time_fraction > UctBot(seed=0).time_fraction  # mcts searches longer than its baseline
    assert defaults("uct") == {"c": UctBot(seed=0).options.c}
    for params in (record.parameters for record in BOTS.values()):
        for p in params:
            assert p.low <= p.default <= p.high
    assert parse_options("mcts", "c=0.5") == {"c": 0.5}


class _Clock:
    """A seat that records the limit it is given each turn and plays the first legal tile."""

    def __init__(self):
        self.timeouts = []

    def ask(self, lines, timeout):
        self.timeouts.append(timeout)
        return (lines[-1].split() or ["RANDOM"])[0], 0.0

    def take_stderr(self):
        return ""


def test_referee_gives_each_seat_its_own_limit():
    blue, orange = _Clock(), _Clock()
    settings = Settings(max_turns=12)
    play_game(blue, orange, seed=3, settings=settings, limits=(None, settings.limits(1000.0)))
    assert blue.timeouts[:2] == [1.0, 0.1]
    assert orange.timeouts[:2] == [10.0, 1.0]


def test_in_process_bot_budget_follows_its_time_option(tmp_path):
    """The adapter budgets the bot's search from the player's own limit, not CodinGame's 100 ms."""
    budgets = []
    seat = open_seat(resolve("greedy:ms=1000", tmp_path), seed=1)
    bot = seat.player.bot
    choose = bot.choose
    bot.choose = lambda state, budget: budgets.append(budget) or choose(state, budget)
    settings = Settings(max_turns=12)
    play_game(seat, _Clock(), seed=3, settings=settings, limits=(settings.limits(1000.0), None))
    seat.close()
    assert 5.0 < budgets[0] <= 10.0 and all(0.5 < b <= 1.0 for b in budgets[1:])


def test_in_process_bot_budget_follows_the_run_s_limits(tmp_path):
    """`--turn-ms 20` with no `ms` option: the bot budgets from 20 ms, not CodinGame's 100."""
    budgets = []
    settings = Settings(max_turns=12, turn_ms=20.0, first_turn_ms=500.0)
    seat = open_seat(resolve("greedy", tmp_path), seed=1, settings=settings)
    bot = seat.player.bot
    choose = bot.choose
    bot.choose = lambda state, budget: budgets.append(budget) or choose(state, budget)
    play_game(seat, _Clock(), seed=3, settings=settings)
    seat.close()
    assert 0.1 < budgets[0] <= 0.5 and all(b <= 0.02 for b in budgets[1:])


def test_a_commands_values_reach_its_environment_as_written():
    """`{:g}` wrote the integer 1000000 as 1e+06, which C's atoi reads as 1."""
    from arena.players.environment import with_env

    spec = with_env("env A=1 ./bot", {"N": 1_000_000, "C": 0.125})
    assert spec == "env A=1 N=1000000 C=0.125 ./bot"


@pytest.mark.parametrize(
    "spec, values, given",
    [
        ("env -C sub EPS=0.5 ./bot", {"EPS": 0.5}, "env -C sub EPS=0.25 ./bot"),
        ("env -u FOO ./bot", {}, "env -u FOO EPS=0.25 ./bot"),
        ("env -i --chdir=sub -iu FOO A=1 ./bot", {"A": 1.0}, "env -i --chdir=sub -iu FOO A=1 EPS=0.25 ./bot"),
    ],
)
def test_a_commands_values_go_after_envs_options(spec, values, given):
    """`env -C sub EPS=0.5 ./bot` was tuned as `env EPS=0.5 -C sub EPS=0.5 ./bot`, which env cannot run."""
    from arena.players.environment import env_values, with_env

    assert env_values(spec) == values and with_env(spec, {"EPS": 0.25}) == given
