"""Messages that said something else than what happened: a cli referee printing garbage (with `log =
true`) blamed for writing no log; a relay referee flooding `###Error` lines said not to send in time;
a run's summary after `--resume` still asking for a `--resume` that had played its failed games; the
league's back-off always said to be "5 s or more"; a Java (C#, Node, Go...) bot that crashed described
by its stack's last frame, not its exception."""

from __future__ import annotations

import io
import shlex
import sys
from pathlib import Path

import pytest

from arena.games.base import Player, RefereeFailure
from arena.games.cli import CliGame
from arena.games.relay import RelayGame
from referee.platform.bot_commands import check_command
from referee.platform.bot_errors import BotStartError
from referee.platform.stderr_sink import why_it_ended
from tests.reliability.commands import one_line, run

SCRIPTS = Path(__file__).parent / "scripts"
PLAYERS = [Player(name, "true", "command", "true", "test") for name in ("a", "b")]


def test_a_cli_referee_printing_garbage_is_said_to_print_garbage_not_to_lack_a_log():
    referee = shlex.join([sys.executable, "-c", "print('Hello from the referee!')"])
    with pytest.raises(RefereeFailure) as failed:
        CliGame(name="chatty", command=referee).play(1, PLAYERS, [0, 0])
    assert "Hello from the referee!" in str(failed.value) and "no log" not in str(failed.value)


def test_a_relay_referee_flooding_errors_is_said_to_flood():
    answer = shlex.join([sys.executable, str(SCRIPTS / "answer_zero.py")])
    players = [Player(name, answer, "command", answer, "test") for name in ("a", "b")]
    game = RelayGame([sys.executable, str(SCRIPTS / "relay_flood.py")], 2, reply_s=5, game_s=5)
    with pytest.raises(RefereeFailure) as failed:
        game.play(1, players, [0, 0])
    assert "###Error lines in a row" in str(failed.value), failed.value


def test_the_summary_after_a_resume_that_played_the_failed_games_asks_for_no_resume(tmp_path):
    counter = tmp_path / "runs"
    referee = shlex.join([sys.executable, str(SCRIPTS / "flaky_cli_referee.py"), str(counter), "3", "6"])
    common = ["--db", str(tmp_path / "run.sqlite"), "--workers", "1", "--quiet"]
    args = ["match", "a=cat", "b=cat", "--referee", referee, "--protocol", "cli", "--pairs", "2", "--seed", "1"]
    first = run("arena.cli", *args, *common, cwd=tmp_path)  # runs 1-2 check the seed; 3-6 are its games
    assert first.returncode == 0, first.stderr
    assert "4 games failed and count for nobody" in first.stdout and "--resume" in first.stderr
    again = run("arena.cli", "match", "--resume", *common, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "--resume" not in again.stderr, again.stderr
    assert "4 failures of games played again since" in again.stdout
    assert "count for nobody" not in again.stdout


def test_the_leagues_back_off_says_how_long_it_is(tmp_path):
    from arena.games.protocols import make as game_from
    from arena.play.league import League
    from arena.play.store import Store

    game = game_from({"protocol": "cli", "name": "flaky", "command": "true", "players": 2})
    config = {"command": "league", "game": game.config(), "players": ["a", "b"], "lineups": [], "units": None}
    config |= {"seatings": "balanced", "seed": 1, "sprt": None, "seeds": None, "mode": "uncertain"}
    store = Store.create(tmp_path / "league.sqlite", config, [])
    for player in PLAYERS:
        store.join_league(player)
    log = io.StringIO()
    league = League(store, game, log=log)
    for unit in range(5):
        failure = {"lineup": ["a", "b"], "unit": unit, "seating": 0, "seats": ["a", "b"], "seed": unit}
        league._on_failure({**failure, "kind": "referee", "detail": "it crashed", "stderr": "", "worker": "w"})
    store.close()
    said = [line for line in log.getvalue().splitlines() if "in a row" in line]
    assert said == [
        "[league] 3 games failed in a row: no new games for 5 s",
        "[league] 4 games failed in a row: no new games for 10 s",
        "[league] 5 games failed in a row: no new games for 20 s",
    ]


def test_a_league_with_nothing_to_play_says_why(tmp_path):
    """A league whose seeds were all played, or with fewer active players than its game seats, sat
    idle, its status "playing now", and said nothing."""
    from arena.games.protocols import make as game_from
    from arena.play.league import League
    from arena.play.store import Store

    game = game_from({"protocol": "cli", "name": "three", "command": "true", "players": 3})
    config = {"command": "league", "game": game.config(), "players": [], "lineups": [], "units": None}
    config |= {"seatings": "balanced", "seed": 1, "sprt": None, "seeds": [11, 12], "mode": "uncertain"}
    store = Store.create(tmp_path / "league.sqlite", config, [])
    for player in PLAYERS:
        store.join_league(player)
    league = League(store, game, log=io.StringIO())
    assert league.idle_reason().startswith("waiting: 2 active players, and a game of three seats 3: arena league add")
    store.join_league(Player("c", "true", "command", "true", "test"))
    league = League(store, game, log=io.StringIO())
    assert league.idle_reason() is None  # a lineup to play
    league.units[("a", "b", "c")] = 2
    assert "every lineup of the active players has played the 2 seeds of its seed file" in league.idle_reason()
    store.close()


CRASHES = {
    "java": 'Exception in thread "main" java.lang.RuntimeException: no config\n\tat Player.main(Player.java:9)\n',
    "csharp": "Unhandled exception. System.Exception: no config\n   at Player.Main(String[] args) in P.cs:line 9\n",
    "node": "Error: no config\n    at Object.<anonymous> (/b/bot.js:3:7)\n\nNode.js v18.19.0\n",
    "rust": "thread 'main' panicked at src/main.rs:3:5:\nno config\nnote: run with `RUST_BACKTRACE=1` to see\n",
    "go": "panic: no config\n\ngoroutine 1 [running]:\nmain.main()\n\t/b/main.go:5 +0x25\nexit status 2\n",
    "python": 'Traceback (most recent call last):\n  File "b.py", line 1\nValueError: no config\n',
}


@pytest.mark.parametrize("language", sorted(CRASHES))
def test_a_crash_is_described_by_its_message_not_its_last_frame(language):
    assert "no config" in why_it_ended(CRASHES[language])


def test_a_bot_that_crashes_at_start_is_refused_with_its_exception(tmp_path):
    """`Player.java ended before its first input (status 1): \\tat Player.main(Player.java:1)`."""
    (tmp_path / "stack.txt").write_text(CRASHES["java"])
    with pytest.raises(BotStartError, match=r"\(status 1\): Exception in thread .*: no config$"):
        check_command(f"sh -c 'cat {tmp_path / 'stack.txt'} >&2; exit 1'")


def test_a_bot_that_ends_mid_game_is_said_to_crash_with_what_it_said(tmp_path):
    """A game's crash said `blue exited with code 1`, though the bot had said what failed (the bench
    said it for the same bot; docs/languages.md promises the reason it gave)."""
    bot = tmp_path / "quit.py"
    bot.write_text('import sys\nsys.stdin.readline()\nraise SystemExit("config missing: weights.txt")\n')
    done = run(
        "referee.cli", "volcanoes", "play", f"{sys.executable} {bot}", f"{sys.executable} -m bots.volcanoes.random"
    )
    assert "crash: blue exited with code 1: config missing: weights.txt" in done.stdout + done.stderr, done


@pytest.mark.parametrize(
    "module, argv, prog",
    [
        ("referee.cli", ["iqtwist", "check", "a7A7", "b6A7"], "referee iqtwist check"),
        ("referee.cli", ["vikings", "show", "A", "B", "extra"], "referee vikings show"),
        ("arena.cli", ["match", "greedy", "random", "--zzz"], "arena match"),
    ],
)
def test_an_argument_no_command_takes_is_said_by_the_command_given_it(module, argv, prog):
    """`referee iqtwist check A B` said `referee: unrecognized arguments: B (see referee --help)`,
    whose help does not list the command's arguments."""
    one_line(run(module, *argv), prog, f"unrecognized arguments: {argv[-1]} (see {prog} --help)")
