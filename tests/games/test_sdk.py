"""Protocol (C), CodinGame's own referee protocol (arena/games/sdk.py), against a Pebbles referee
that speaks it as an SDK jar's RefereeMain does (tests/games/pebbles/sdk_referee.py), in the framing
of SDK versions from 2018 (1.x) to 2026 (4.7)."""

import functools
import sys
import time

import pytest

from arena.games import sdk
from arena.games.protocols import make
from arena.games.base import RefereeFailure
from arena.games.sdk import REFEREE_MAIN, SdkGame
from referee.platform.errors import UserError
from tests.games.pebbles.harness import FIRST_TURN_MS, driven_game, expected, player

VERSIONS = [
    ["--sdk", "1"],
    ["--sdk", "3", "--idle-rounds", "2"],
    ["--sdk", "4.6"],
    ["--sdk", "4.7", "--idle-rounds", "1"],
]


game = functools.partial(driven_game, "sdk")


@pytest.mark.parametrize("version", VERSIONS, ids=lambda flags: " ".join(flags))
@pytest.mark.parametrize("names", [["greedy", "first"], ["first", "greedy"], ["greedy", "first", "worst"]])
def test_games_end_as_the_rules_say(version, names, leftovers):
    for seed in (3, 8):
        outcome = game(*version, players=len(names)).play(seed, [player(n) for n in names], [0] * len(names))
        scores, ranks, turns = expected(seed, names)
        assert (outcome.scores, outcome.ranks, outcome.errors) == (scores, ranks, [None] * len(names))
        assert outcome.reason == "score"
        assert sum(len(times) for times in outcome.times_ms) == turns  # a time per answered turn
        assert all(0 <= ms < FIRST_TURN_MS for times in outcome.times_ms for ms in times)  # (ms, in the limit)
        assert [len(s) for s in outcome.stderr] == [len(t) for t in outcome.times_ms]
        assert outcome.data["uinput"] == [f"seed={seed}"]
        assert not leftovers()
    # On these seeds, the better bot wins.
    assert outcome.ranks[names.index("greedy")] == 0
    if "worst" in names:
        assert outcome.ranks[names.index("first")] < outcome.ranks[names.index("worst")]


def test_league_and_seed_reach_the_referee_as_the_sdk_reads_them():
    outcome = game(league=3, parameters={"map": "small"}).play(12, [player("greedy"), player("first")], [0, 0])
    assert outcome.data["metadata"] == {"league": "3"}
    assert sorted(outcome.data["uinput"]) == ["map=small", "seed=12"]
    unseeded = game(send_seed=False).play(12, [player("greedy"), player("first")], [0, 0])
    assert unseeded.data["uinput"] != ["seed=12"]  # the referee drew its own


@pytest.mark.parametrize(
    "bot, error",
    [(("crash",), "crash"), (("garbage",), "invalid"), (("sleep",), "timeout"), (("crash-after", "2"), "crash")],
)
@pytest.mark.parametrize("seat", [0, 1])
def test_a_bots_failure_is_its_own_loss(bot, error, seat, leftovers):
    players = [player("greedy"), player("first")]
    players[seat] = player("hostile", *bot)
    started = time.monotonic()
    outcome = game(first_turn_ms=300).play(9, players, [0, 0])
    assert outcome.errors[seat] == error and outcome.errors[1 - seat] is None
    assert outcome.ranks[seat] == 1 and outcome.ranks[1 - seat] == 0
    assert outcome.reason == error and f"player {seat}" in outcome.detail
    assert time.monotonic() - started < 10
    assert not leftovers()


def test_a_timeout_the_referee_does_not_read_is_no_ones_loss(leftovers):
    # Legends of Code and Magic (SDK 2.6) shows each action in a frame of its own, executing the
    # player with no input and a 1 ms limit, and never reads the answer: the timeout is news to
    # the referee, which plays on; the game ends on the rules, not as a double timeout.
    names = ["greedy", "first"]
    outcome = game("--unread-asks").play(3, [player(n) for n in names], [0, 0])
    scores, ranks, turns = expected(3, names)
    assert (outcome.scores, outcome.ranks, outcome.errors) == (scores, ranks, [None, None])
    assert outcome.reason == "score"
    assert sum(outcome.data["missed_turns"]) >= turns - 2  # every ask but the players' first
    # A timeout the referee acts on still loses, and is told with its own limit (the referee asks
    # 300 ms and allows 50 more), not the 1 ms of the ask before it.
    players = [player("hostile", "slow", "2000"), player("first")]
    outcome = game("--unread-asks", "--turn-ms", "300").play(3, players, [0, 0])
    assert outcome.errors == ["timeout", None] and outcome.ranks == [1, 0]
    assert outcome.detail.startswith("player 0 timed out on its turn 2:") and "(350 ms)" in outcome.detail
    assert not leftovers()


def test_a_bot_whose_program_exits_at_once_loses_and_the_game_goes_on():
    players = [player("greedy"), player("first")]
    players[1] = player("missing")  # python cannot open the file: the process exits at once
    outcome = game().play(9, players, [0, 0])
    assert outcome.errors == [None, "crash"] and outcome.ranks == [0, 1]


def assert_third_overrun_last(times_ms: list[float]) -> None:
    """The bot's answers after its first: its third over 100 ms is its last. Mostly each is (it sleeps
    250 ms), but on a busy machine one came to 11 ms and the game went a turn longer (most likely a
    turn in which the arena itself waited for a processor, a wait it does not charge the bot:
    `referee.platform.clock`)."""
    overruns = [i for i, ms in enumerate(times_ms[1:]) if ms > 100]
    assert len(overruns) == 3 and overruns[-1] == len(times_ms) - 2, times_ms


def test_the_monitoring_line_lets_a_4_7_referee_count_overruns():
    # The referee asks 100 ms a turn (and allows 400 more): a bot that takes 250 ms answers in
    # time each turn, yet over the limit; the third overrun is its timeout.
    referee = game("--sdk", "4.7", "--turn-ms", "100", "--soft-extra-ms", "400")
    outcome = referee.play(2, [player("hostile", "slow", "250"), player("first")], [0, 0])
    # The referee deactivated it (scored -1) and said why in its tooltip: a timeout, as the SDK
    # runner's log says it in protocol (A).
    assert outcome.errors == ["timeout", None] and "timed out" in outcome.detail
    assert_third_overrun_last(outcome.times_ms[0])


def test_an_overridden_limit_holds_on_a_referee_that_counts_overruns(leftovers):
    # The referee's own limit is 20 ms (it asks 70) and it counts each answer's time told over 20 ms
    # as an overrun; turn_ms gives the bot 600 ms: its answers of 100 ms are in time, and the
    # referee, told each time scaled to its own limit, counts none of them.
    referee = game("--sdk", "4.7", "--turn-ms", "20", turn_ms=600)
    outcome = referee.play(2, [player("hostile", "slow", "100"), player("first")], [0, 0])
    assert outcome.errors == [None, None] and outcome.reason == "score"
    assert len(outcome.times_ms[0]) > 4 and max(outcome.times_ms[0][1:]) > 70
    assert not leftovers()


def test_the_time_told_the_referee_keeps_the_arenas_verdict():
    # Asked 70 ms (its own limit 20) under an override of 600: in time up to 600 ms, late past it.
    assert sdk.reported_ms(600.0, 70, 600) == 20 and sdk.reported_ms(1.0, 70, 600) == 1
    assert sdk.reported_ms(600.001, 70, 600) == 21 and sdk.reported_ms(900.0, 70, 600) == 30
    assert sdk.reported_ms(123.9, 70, None) == 123  # no override: the time measured


def test_soft_timeouts_for_referees_older_than_4_7(monkeypatch):
    monkeypatch.setattr(sdk, "GRACE_MS", 400)  # a wide margin, for a busy machine
    players = [player("hostile", "slow", "250"), player("first")]
    outcome = game("--sdk", "4.6", "--turn-ms", "100", soft_timeouts=True).play(2, players, [0, 0])
    assert outcome.errors == ["timeout", None] and "third time" in outcome.detail
    assert outcome.data["overruns"] == [3, 0]
    assert_third_overrun_last(outcome.times_ms[0])
    hard = game("--sdk", "4.6", "--turn-ms", "100").play(2, players, [0, 0])
    assert hard.errors == ["timeout", None] and len(hard.times_ms[0]) == 1


def test_the_whole_game_has_a_limit():
    with pytest.raises(RefereeFailure, match="ran past its limit of 1.5 s"):
        game("--hang-at", "2", reply_s=30, game_s=1.5).play(9, [player("greedy"), player("first")], [0, 0])


def test_a_referee_that_cannot_start_is_a_referee_failure():
    with pytest.raises(RefereeFailure, match="could not start"):
        SdkGame("/nonexistent/referee").play(1, [player("greedy"), player("first")], [0, 0])


def test_the_end_of_a_chatty_referees_stderr_is_kept():
    outcome = game("--stderr-bytes", "2000000").play(9, [player("greedy"), player("first")], [0, 0])
    assert outcome.referee_stderr.rstrip().endswith("the end of the log")
    assert len(outcome.referee_stderr) < 20_000


def test_the_jvm_gets_the_game_mode_the_league_and_its_options():
    opens = ["--add-opens", "java.base/java.lang=ALL-UNNAMED"]
    args, _ = SdkGame("games/uttt.jar", league=2, java_options=opens).referee_command()
    assert args == ["java", *opens, "-Dgame.mode=multi", "-Dleague.level=2", "-cp", "games/uttt.jar", REFEREE_MAIN]
    args, _ = SdkGame(f"/usr/bin/java -cp g.jar {REFEREE_MAIN}", java_options=[]).referee_command()
    assert args == ["/usr/bin/java", "-Dgame.mode=multi", "-cp", "g.jar", REFEREE_MAIN]
    args, env = SdkGame("./run-referee.sh", league=4, java_options=[]).referee_command()
    assert args == ["./run-referee.sh"]
    assert env["JAVA_TOOL_OPTIONS"].endswith("-Dgame.mode=multi -Dleague.level=4")


def test_java_lang_is_opened_to_the_jvm_unless_told_otherwise(leftovers):
    # A jar built on SDK 1.x to 4.4 (Guice 4) stops on Java 16+ unless java.lang is opened to it:
    # `arena match --referee game.jar --protocol sdk` must run it as it is.
    args, _ = SdkGame("games/uttt.jar").referee_command()
    assert args == ["java", *sdk.JAVA_OPENS, "-Dgame.mode=multi", "-cp", "games/uttt.jar", REFEREE_MAIN]
    players = [player("greedy"), player("first")]
    outcome = game("--needs-opens").play(3, players, [0, 0])
    assert outcome.errors == [None, None] and outcome.scores == expected(3, ["greedy", "first"])[0]
    # Told otherwise, the referee's failure says what its JVM needs, not just that it exited.
    with pytest.raises(RefereeFailure) as failure:
        game("--needs-opens", java_options=[]).play(3, players, [0, 0])
    assert "ended (exited with code 1)" in str(failure.value)
    assert "needs --add-opens java.base/java.lang=ALL-UNNAMED" in str(failure.value)
    assert "InaccessibleObjectException" in failure.value.stderr
    assert not leftovers()


def test_bad_settings_are_the_users_mistake():
    with pytest.raises(UserError, match="2 to 8 players"):
        make({"protocol": "sdk", "command": "g.jar", "players": 1})
    with pytest.raises(UserError, match="league level"):
        SdkGame("g.jar", league=20)
    with pytest.raises(UserError, match="settings"):
        make({"protocol": "sdk", "command": "g.jar", "turn_limit": 3})


def test_prepare_says_when_the_referee_cannot_be_found(tmp_path):
    with pytest.raises(UserError, match="no such referee jar"):
        SdkGame(str(tmp_path / "missing.jar")).prepare(sys.stderr)
    with pytest.raises(UserError, match="cannot find the referee's program"):
        SdkGame("no-such-program --flag").prepare(sys.stderr)
