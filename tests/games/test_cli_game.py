"""The `cli` game (protocol A, the brutaltester referee command line), played through Pebbles'
referee of that protocol (tests/games/pebbles/cli_referee.py)."""

import json
import sys

import pytest

from arena.errors import UsageError
from arena.games import cli
from arena.games.protocols import make
from arena.games.base import Player, RefereeFailure
from arena.games.cli import CliGame
from arena.games.command import seat_command
from tests.games.pebbles.harness import CLI_REFEREE, ROOT, expected, player


def game(seats=2, **settings) -> CliGame:
    return CliGame(CLI_REFEREE, name="pebbles", seats=seats, cwd=str(ROOT), **settings)


@pytest.mark.parametrize("bots", [["greedy", "worst"], ["worst", "greedy"], ["greedy", "worst", "first"]])
def test_scores_and_ranks_are_the_rules(bots, leftovers):
    outcome = game(len(bots)).play(11, [player(b) for b in bots], [0] * len(bots))
    scores, ranks, _ = expected(11, bots)
    assert outcome.scores == scores
    assert outcome.ranks == ranks
    assert outcome.errors == [None] * len(bots)
    assert outcome.reason == "score"
    assert outcome.times_ms is None  # the referee kept the clocks
    # From the log (-l): each seat's stderr per turn it played, the turns, the summaries (one a
    # round, and one for the end: the last answer's).
    assert outcome.turns == len(outcome.data["summaries"]) - 1 > 0
    assert sum(len(turns) for turns in outcome.stderr) == outcome.turns
    assert outcome.data["parameters"] == {"seed": "11"}
    assert not leftovers()


@pytest.mark.parametrize(
    "how, error",
    [(["crash"], "crash"), (["garbage"], "invalid"), (["sleep"], "timeout"), (["crash-after", "2"], "crash")],
)
def test_a_bots_failure_is_its_seats_error_and_the_game_counts(how, error, leftovers):
    # The hostile bot moves first: the game ends on its failure, the others never wait on a clock.
    outcome = game(3, extra_args="--first-turn-ms 1000").play(
        4, [player("hostile", *how), player("greedy"), player("worst")], [0, 0, 0]
    )
    assert outcome.errors == [error, None, None]
    assert outcome.scores[0] == -1
    assert outcome.ranks[0] == 2
    assert outcome.reason == error
    assert outcome.detail.startswith(f"player 0 {error}")
    assert not leftovers()


def test_without_the_log_a_negative_score_is_still_the_seats_error():
    outcome = game(log=False).play(4, [player("greedy"), player("hostile", "crash")], [0, 0])
    assert outcome.errors == [None, cli.UNTOLD_ERROR]
    assert outcome.ranks == [0, 1]
    assert outcome.stderr is None and outcome.turns is None
    assert outcome.fingerprint == "seed=4"


def test_a_game_whose_scores_may_be_negative_ranks_them_and_blames_nobody():
    finished = cli.Finished("-3\n-7\nseed=4\n", 0, "", 0.1)
    said = cli.outcome(finished, None, 2)
    assert said.errors == [cli.UNTOLD_ERROR, cli.UNTOLD_ERROR]
    ranked = cli.outcome(finished, None, 2, negative_score_is_error=False)
    assert ranked.errors == [None, None]
    assert ranked.scores == [-3, -7] and ranked.ranks == [0, 1]
    assert ranked.detail == "scores -3 -7"
    assert make(game(negative_score_is_error=False).config()).negative_score_is_error is False


def test_a_referee_that_cannot_start_is_a_referee_failure():
    broken = CliGame("/nonexistent/referee", name="pebbles")
    with pytest.raises(RefereeFailure, match="cannot start"):
        broken.play(1, [player("greedy"), player("worst")], [0, 0])


def test_a_referee_whose_game_failed_is_a_referee_failure_whatever_its_stdout():
    finished = cli.Finished("1\n0\nseed=3\n", 0, "", 0.1)
    with pytest.raises(RefereeFailure, match="game failed: 'java.lang.NullPointerException'"):
        cli.outcome(finished, {"failCause": "java.lang.NullPointerException\n\tat Referee.gameTurn"}, 2)


@pytest.mark.parametrize(
    "stdout, says",
    [
        ("null\nnull\n", "'null' where player 0's score comes"),  # an SDK runner's game that never ended
        ("12\n", "printed 1 score for 2 players"),
        ("12\n3\nseed=4\ngame over\n", "'game over' after the scores"),
        ("12\n\n3\n", "'' where player 1's score comes"),
        ("12 3\n", "where player 0's score comes"),
    ],
)
def test_stdout_is_read_strictly(stdout, says):
    with pytest.raises(RefereeFailure) as caught:
        cli.parse_stdout(cli.Finished(stdout, 0, "", 0.1), 2)
    assert says in str(caught.value)


def test_stdout_as_real_referees_print_it():
    scores, parameters, own = cli.parse_stdout(cli.Finished("12\r\n-1\r\nseed=-7\r\nmap=a=b\r\n\r\n", 0, "", 0.1), 2)
    assert scores == [12, -1]
    assert parameters == ["seed=-7", "map=a=b"]
    assert own == []


def test_a_referees_own_lines_before_its_result_are_kept_not_read_as_scores():
    # Legends of Code and Magic (SDK 2.x) logs its turns with System.out: the SDK's runner, playing
    # the referee in its own JVM, prints them before the scores.
    outcome = game(extra_args="--chatter").play(11, [player("greedy"), player("worst")], [0, 0])
    assert outcome.scores == expected(11, ["greedy", "worst"])[0]
    assert outcome.data["parameters"] == {"seed": "11"}
    assert outcome.data["referee_stdout"].startswith("New game\n")
    assert outcome.data["referee_stdout"].endswith("Scores: " + " ".join(map(str, outcome.scores)))


def test_the_kind_of_a_failure_comes_from_the_sdk_logs_tooltips_and_summaries():
    log = {
        "tooltips": [{"turn": 3, "text": "$1 timeout!", "event": 1}, {"turn": 5, "text": "$0: bad move", "event": 0}],
        "summaries": ["$2 has provided invalid output", "$3 could not start"],
    }
    assert cli.failure_of(1, log)[0] == "timeout"
    assert cli.failure_of(0, log)[0] == cli.UNTOLD_ERROR
    assert cli.failure_of(2, log)[0] == cli.UNTOLD_ERROR
    assert cli.failure_of(3, log)[0] == "start"
    # A Code of Ice and Fire (SDK 3.4) says `$0: Unrecognised command ("X")`.
    assert cli.failure_of(0, {"tooltips": [{"text": '$0: Unrecognised command ("X")', "event": 0}]}) == (
        "invalid",
        'Unrecognised command ("X")',
    )
    # A kind first, as our referees write it, wins over words later in the text.
    assert cli.failure_of(0, {"tooltips": [{"text": "$0 invalid: 'timeout' is no move", "event": 0}]}) == (
        "invalid",
        "'timeout' is no move",
    )


def test_same_seed_same_fingerprint_whoever_plays_other_seeds_others():
    pebbles = game()
    first = pebbles.play(21, [player("greedy"), player("worst")], [0, 0])
    again = pebbles.play(21, [player("first"), player("greedy")], [0, 0])
    other = pebbles.play(22, [player("greedy"), player("worst")], [0, 0])
    assert first.fingerprint is not None
    assert first.fingerprint.startswith("seed=21 view:")
    assert again.fingerprint == first.fingerprint
    assert other.fingerprint != first.fingerprint


@pytest.mark.parametrize(
    "settings", [{"extra_args": "--misbehave ignore-seed"}, {"seed_flag": ""}], ids=["ignores", "no-flag"]
)
def test_a_referee_that_does_not_get_or_ignores_the_seed_gives_different_fingerprints(settings):
    pebbles = game(**settings)
    prints = {pebbles.play(21, [player("greedy"), player("worst")], [0, 0]).fingerprint for _ in range(2)}
    assert len(prints) == 2


def test_the_seed_flag_and_the_league_go_where_the_referee_wants_them():
    pebbles = game(seed_flag="-seed {seed}", league=3)
    outcome = pebbles.play(8, [player("greedy"), player("worst")], [0, 0])
    assert outcome.data["parameters"] == {"seed": "8", "league": "3"}
    assert outcome.scores == expected(8, ["greedy", "worst"])[0]


def test_the_command_line_follows_brutaltester_and_the_templates():
    jar = CliGame(
        "java --add-opens java.base/java.lang=ALL-UNNAMED -Dleague.level={league} -jar r.jar",
        name="x",
        league=2,
        extra_args="-x 1",
    )
    assert jar.arguments(5, ["./a b", "./c"], "/tmp/l.json") == [
        "java",
        "--add-opens",
        "java.base/java.lang=ALL-UNNAMED",
        "-Dleague.level=2",
        "-jar",
        "r.jar",
        "-p1",
        "./a b",
        "-p2",
        "./c",
        "-d",
        "seed=5",
        "-x",
        "1",
        "-l",
        "/tmp/l.json",
    ]
    lvl = CliGame("./ref", name="x", seed_flag="", league=1, league_flag="-lvl {league}", log=False)
    assert lvl.arguments(5, ["a", "b"]) == ["./ref", "-p1", "a", "-p2", "b", "-lvl", "1"]


def test_a_pinned_players_command_runs_in_its_folder():
    pinned = Player("v1", "git:v1", "git", "python bot.py", "abc", cwd="/tmp/pin tree")
    assert seat_command(pinned) == "env -C '/tmp/pin tree' python bot.py"


@pytest.mark.parametrize(
    "settings, says",
    [
        ({"seed_flag": "-d seed=5"}, "no {seed}"),
        ({"league": 2, "league_flag": "-lvl"}, "neither its command nor its league flag"),
        ({"players": 1}, "2 to 8 players"),
        ({"command": "java -jar 'r.jar"}, "cannot split"),
        ({"timeout_s": 0}, "timeout_s = 0: input should be greater than 0"),
        ({"log": "yes"}, 'log = "yes": input should be a valid boolean'),
    ],
)
def test_bad_settings_are_the_users_mistake(settings, says):
    with pytest.raises(UsageError, match=says):
        make({"protocol": "cli", "name": "x", "command": "./ref"} | settings)


@pytest.mark.parametrize(
    "settings, given",
    [
        ({"extra_args": "-d seed=7"}, "'seed=7' in its extra args '-d seed=7'"),
        ({"command": "./ref -d seed=7 -d draw=1"}, "'seed=7' in its command './ref -d seed=7 -d draw=1'"),
        ({"seed_flag": "-seed {seed}", "extra_args": "-seed 7 -x 1"}, "'-seed 7' in its extra args"),
    ],
)
def test_a_seed_of_the_users_beside_the_seed_flag_is_refused(settings, given):
    """`extra_args = "-d seed=7"` (a brutaltester command line pasted whole): the referee kept the last
    seed it was given, and every game of the run was the same game, recorded under different seeds."""
    with pytest.raises(UsageError, match="gives the referee a seed of its own") as refused:
        make({"protocol": "cli", "name": "x", "command": "./ref"} | settings)
    assert given in str(refused.value)
    make({"protocol": "cli", "name": "x", "command": "./ref", "extra_args": "-d draw=1 -seeded yes"})


def test_config_makes_the_same_game_again():
    pebbles = game(3, seed_flag="-seed {seed}", league=2, extra_args="--turn-ms 400", timeout_s=60)
    again = make(json.loads(json.dumps(pebbles.config())))
    assert again.config() == pebbles.config()
    assert again.timed_by_referee and again.seats == 3
    with pytest.raises(UsageError):
        make(pebbles.config() | {"protocol": "json"})
    with pytest.raises(UsageError):
        make(pebbles.config() | {"colour": "red"})


def test_the_referees_stderr_is_kept_when_the_game_counts(tmp_path):
    noisy = tmp_path / "noisy.py"
    noisy.write_text(
        "import sys\n"
        "print('Exception in thread main: player 1 sent garbage', file=sys.stderr)\n"
        "print(5); print(-1); print('seed=1')\n"
    )
    outcome = CliGame(f"{sys.executable} {noisy}", name="x", log=False).play(
        1, [player("greedy"), player("worst")], [0, 0]
    )
    assert outcome.errors == [None, cli.UNTOLD_ERROR]
    assert "player 1 sent garbage" in outcome.referee_stderr
