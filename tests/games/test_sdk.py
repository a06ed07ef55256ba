"""Protocol (C), CodinGame's own referee protocol (arena/games/sdk.py), against a Pebbles referee
that speaks it as an SDK jar's RefereeMain does (tests/games/pebbles/sdk_referee.py), in the framing
of SDK versions from 2018 (1.x) to 2026 (4.7)."""

import pickle
import sys
import time

import pytest

from arena.games import make, sdk
from arena.games.base import Player, RefereeFailure
from arena.games.sdk import REFEREE_MAIN, SdkGame
from referee.errors import UserError
from tests.games.pebbles.harness import SDK_REFEREE, expected, player

VERSIONS = [
    ["--sdk", "1"],
    ["--sdk", "3", "--idle-rounds", "2"],
    ["--sdk", "4.6"],
    ["--sdk", "4.7", "--idle-rounds", "1"],
]


def game(*flags: str, players: int = 2, **options) -> SdkGame:
    options.setdefault("reply_s", 10)
    options.setdefault("first_turn_ms", 3000)  # a bot's start on a busy machine is no test's subject
    options.setdefault("game_s", 60)
    return SdkGame(SDK_REFEREE + list(flags), players, **options)


@pytest.mark.parametrize("version", VERSIONS, ids=lambda flags: " ".join(flags))
@pytest.mark.parametrize("names", [["greedy", "first"], ["first", "greedy"], ["greedy", "first", "worst"]])
def test_games_end_as_the_rules_say(version, names, leftovers):
    for seed in (3, 8):
        outcome = game(*version, players=len(names)).play(seed, [player(n) for n in names], [0] * len(names))
        scores, ranks, turns = expected(seed, names)
        assert (outcome.scores, outcome.ranks, outcome.errors) == (scores, ranks, [None] * len(names))
        assert outcome.reason == "score"
        assert sum(len(times) for times in outcome.times_ms) == turns  # a time per answered turn
        assert all(0 <= ms < 1000 for times in outcome.times_ms for ms in times)
        assert [len(s) for s in outcome.stderr] == [len(t) for t in outcome.times_ms]
        assert outcome.data["uinput"] == [f"seed={seed}"]
        assert not leftovers()
    # On these seeds, the better bot wins.
    assert outcome.ranks[names.index("greedy")] == 0
    if "worst" in names:
        assert outcome.ranks[names.index("first")] < outcome.ranks[names.index("worst")]


def test_a_seed_replays_its_game_and_a_referee_that_ignores_it_is_seen():
    players = [player("greedy"), player("first")]
    prints = [game().play(seed, players, [0, 0]).fingerprint for seed in (5, 5, 6)]
    assert prints[0] is not None and prints[0] == prints[1] != prints[2]
    ignoring = game("--ignore-seed")
    assert ignoring.play(5, players, [0, 0]).fingerprint != ignoring.play(5, players, [0, 0]).fingerprint


def test_league_and_seed_reach_the_referee_as_the_sdk_reads_them():
    outcome = game(league=3, parameters={"map": "small"}).play(12, [player("greedy"), player("first")], [0, 0])
    assert outcome.data["metadata"] == {"league": "3"}
    assert sorted(outcome.data["uinput"]) == ["map=small", "seed=12"]
    unseeded = game(send_seed=False).play(12, [player("greedy"), player("first")], [0, 0])
    assert unseeded.data["uinput"] != ["seed=12"]  # the referee drew its own


def test_each_turns_stderr_and_time_are_kept():
    outcome = game().play(4, [player("chatty"), player("first")], [0, 0])
    turns = len(outcome.times_ms[0])
    assert turns >= 4
    assert outcome.stderr[0] == [f"turn {n}\n" for n in range(1, turns + 1)]
    assert outcome.stderr[1] == [""] * len(outcome.times_ms[1])


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


def test_a_bot_that_cannot_start_loses_and_the_game_goes_on():
    players = [player("greedy"), player("first")]
    players[1] = player("missing")  # python cannot open the file: the process exits at once
    outcome = game().play(9, players, [0, 0])
    assert outcome.errors == [None, "crash"] and outcome.ranks == [0, 1]
    nowhere = Player("x", "x", "command", "/nonexistent/bot", "1")
    outcome = game().play(9, [players[0], nowhere], [0, 0])
    assert outcome.errors == [None, "start"] and outcome.ranks == [0, 1]


def test_the_monitoring_line_lets_a_4_7_referee_count_overruns():
    # The referee asks 100 ms a turn (and allows 400 more): a bot that takes 250 ms answers in
    # time each turn, yet over the limit; the third overrun is its timeout.
    referee = game("--sdk", "4.7", "--turn-ms", "100", "--soft-extra-ms", "400")
    outcome = referee.play(2, [player("hostile", "slow", "250"), player("first")], [0, 0])
    # The referee deactivated it (scored -1) and said why in its tooltip: a timeout, as the SDK
    # runner's log says it in protocol (A).
    assert outcome.errors == ["timeout", None] and "timed out" in outcome.detail
    assert len(outcome.times_ms[0]) == 4 and min(outcome.times_ms[0][1:]) > 100


def test_soft_timeouts_for_referees_older_than_4_7(monkeypatch):
    monkeypatch.setattr(sdk, "SOFT_TIMELIMIT_EXTRA_MS", 400)  # a wide margin, for a busy machine
    players = [player("hostile", "slow", "250"), player("first")]
    outcome = game("--sdk", "4.6", "--turn-ms", "100", soft_timeouts=True).play(2, players, [0, 0])
    assert outcome.errors == ["timeout", None] and "third time" in outcome.detail
    assert outcome.data["overruns"] == [3, 0]
    assert len(outcome.times_ms[0]) == 4
    hard = game("--sdk", "4.6", "--turn-ms", "100").play(2, players, [0, 0])
    assert hard.errors == ["timeout", None] and len(hard.times_ms[0]) == 1


@pytest.mark.parametrize(
    "flags, message",
    [
        (["--crash-at", "3"], "the referee ended (exited with code 1)"),
        (["--hang-at", "3"], "did not send a frame within 2 s"),
        (["--garbage-at", "2"], "'Hello from the referee!' where a frame"),
        (["--bad-frame-at", "2"], "[[SET_PLAYER_SCORE]]"),
        (["--fail-at", "4"], "the referee failed: java.lang.RuntimeException: fail-at"),
        (["--exit-code", "3"], "exited with code 3 after giving its results"),
        (["--sdk", "3"], "ended (exited with code 1) where a frame was due"),  # no game.mode: see below
    ],
)
def test_a_failing_referee_is_a_referee_failure(flags, message, tmp_path, leftovers, monkeypatch):
    if flags == ["--sdk", "3"]:  # a referee run without -Dgame.mode=multi stops, as an SDK 2.x+ one does
        monkeypatch.setattr(sdk.SdkGame, "referee_command", lambda self: (SDK_REFEREE + flags, {}))
    # Its child (in a session of its own) holds the referee's output open after it ends.
    spawned = tmp_path / "child"
    reply_s = 2 if "--hang-at" in flags else 60
    started = time.monotonic()
    with pytest.raises(RefereeFailure) as failure:
        game(*flags, "--spawn", str(spawned), reply_s=reply_s).play(9, [player("greedy"), player("first")], [0, 0])
    assert message in str(failure.value) and "\n" not in str(failure.value)
    assert time.monotonic() - started < 30  # not the minute it may wait for a line
    if "--fail-at" in flags:
        assert "Referee.java:42" in failure.value.stderr
    if "--crash-at" in flags:
        assert "crash-at" in failure.value.stderr
    assert not leftovers()  # the referee's own child too


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


def test_a_game_is_plain_data_made_again_from_its_config():
    made = game("--sdk", "3", players=3, league=2, first_turn_ms=500, soft_timeouts=True, parameters={"a": "1"})
    again = make(pickle.loads(pickle.dumps(made)).config())
    assert again.config() == made.config() and again.seats == 3
    with pytest.raises(UserError, match="2 to 8 players"):
        make({"protocol": "sdk", "command": "g.jar", "players": 1})
    with pytest.raises(UserError, match="league level"):
        SdkGame("g.jar", league=20)
    with pytest.raises(UserError, match="settings"):
        make({"protocol": "sdk", "command": "g.jar", "turn_limit": 3})


def test_prepare_says_when_the_referee_cannot_be_found(tmp_path):
    with pytest.raises(UserError, match="no such referee jar"):
        SdkGame(str(tmp_path / "missing.jar")).prepare([], sys.stderr)
    with pytest.raises(UserError, match="cannot find the referee's program"):
        SdkGame("no-such-program --flag").prepare([], sys.stderr)
