"""`arena bench --bot CMD --against-bot CMD` on a game of its own: Pebbles, refereed by external
referees. The turns are recorded from real games through the recording proxy (whoever starts the
bots: the referee in protocol A, the arena in C and D), saved, and replayed to each version."""

import shlex
import sys
from pathlib import Path

import pytest

from arena.bench import transcripts
from arena.bench.bots import RECORDED_GAMES
from arena.cli import main
from arena.games.protocols import make
from arena.games.base import Player
from tests.games.pebbles import rules
from tests.games.pebbles.harness import CHOICES

ROOT = Path(__file__).resolve().parents[2]
REFEREES = {
    "cli": f"{sys.executable} -m tests.games.pebbles.cli_referee",
    "sdk": f"{sys.executable} -m tests.games.pebbles.sdk_referee",
    "relay": f"{sys.executable} -m tests.games.pebbles.relay_referee",
    "json": f"{sys.executable} -m tests.games.pebbles.json_referee --seed {{seed}} {{players}}",
}
# Pebbles' greedy bot, self-contained, taking `sleep` seconds a turn: a steady cost, so that two
# identical copies time alike on a busy machine and a slower copy is slower by far.
GREEDY = """
import sys, time
sys.stdin.readline()
while sys.stdin.readline():
    sys.stdin.readline()
    values = [int(v) for v in sys.stdin.readline().split()]
    time.sleep({sleep})
    print(values.index(max(values)), flush=True)
"""


@pytest.fixture(autouse=True)
def at_the_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # the referees run as `python -m tests.games.pebbles...`


def bot(folder: Path, name: str, sleep: float) -> str:
    (folder / f"{name}.py").write_text(GREEDY.format(sleep=sleep))
    return shlex.join([sys.executable, str(folder / f"{name}.py")])


def game(protocol: str) -> list[str]:
    return ["--referee", REFEREES[protocol], "--protocol", protocol]


# One game recorded, 6 rounds. A process's start (the first answer, most of the CPU time) varied by
# up to 30% from round to round on the shared 2-core machine at load 9: two identical copies raised
# a false alarm in 1 of 8 runs at the default threshold of 5%, in 1 of 10 at 25%, in none of 15 at
# 50%. The slower copy is 6 times slower a turn.
SETTINGS = ("--games", "1", "--rounds", "6", "--threshold", "0.5")


def test_a_slower_copy_is_a_regression_on_turns_a_referee_of_protocol_a_gave(tmp_path, capsys, leftovers):
    """The cli referee starts the bots itself: the proxy records them all the same."""
    new, old = bot(tmp_path, "slow", 0.03), bot(tmp_path, "fast", 0.005)
    assert main(["bench", "--bot", new, "--against-bot", old, *game("cli"), *SETTINGS]) == 1
    out = capsys.readouterr()
    assert "REGRESSION latency p50 ms" in out.err and "REGRESSION latency max ms" in out.err
    assert "replaying 2 transcript(s)" in out.err  # the bot against itself: both seats recorded


def test_two_identical_copies_are_not_a_regression(tmp_path, capsys, leftovers):
    one, two = bot(tmp_path, "one", 0.01), bot(tmp_path, "two", 0.01)
    assert main(["bench", "--bot", one, "--against-bot", two, *game("sdk"), *SETTINGS]) == 0
    assert "no figure regressed" in capsys.readouterr().out


@pytest.mark.parametrize("protocol", sorted(REFEREES))
def test_the_turns_recorded_are_the_games_inputs(protocol, tmp_path, leftovers):
    """In every protocol: each transcript is its seat's inputs and answers, turn by turn, exactly as
    the game played by the rules gives them; the bot's seed in that game is kept."""
    game_ = make({"protocol": protocol, "name": "pebbles", "command": REFEREES[protocol], "players": 3})
    greedy = bot(tmp_path, "greedy", 0)
    player = Player("greedy", greedy, "command", greedy, "test")
    recorded = transcripts.record_games(game_, player, None, 2, seed=9, log=sys.stderr)
    assert len(recorded) == 2 * 3  # every seat of every game: the bot played itself
    for t in recorded:
        game_seed = int(t.source.split("seed ")[1].split(")")[0])
        seat = int(t.source.rsplit("seat ", 1)[1])
        assert t.turns == tuple(expected_turns(game_seed, 3, seat)), t.source
        assert isinstance(t.seed, int)


def expected_turns(seed: int, players: int, seat: int) -> list[transcripts.Turn]:
    state = rules.new_game(seed, players)
    turns = []
    while not state.over:
        mover = state.to_move
        given = rules.turn_input(state)
        answer = str(CHOICES["greedy"](state.pebbles))
        if mover == seat:
            turns.append(transcripts.Turn(tuple(given), (answer,)))
        rules.play(state, answer)
    return turns


def test_saved_turns_are_replayed_the_same(tmp_path, capsys, leftovers):
    """--record saves the turns it timed; --turns times the bots on them again, without a game."""
    greedy, saved = bot(tmp_path, "greedy", 0), tmp_path / "turns.json"
    base = ["bench", "--bot", greedy, "--against-bot", greedy, "--rounds", "4"]
    # Exit status 1 is a regression: between a bot and itself over 4 rounds, noise on a busy machine
    # (test_two_identical_copies_are_not_a_regression tests the verdict); here, what was recorded.
    done = main([*base, *game("relay"), "--opponent", bot(tmp_path, "other", 0), "--record", str(saved)])
    assert done in (0, 1)
    first = transcripts.load(str(saved))
    assert len(first) == RECORDED_GAMES  # one seat a game is the bot's when it has an opponent
    assert {t.source.rsplit("seat ", 1)[1] for t in first} == {"0", "1"}  # the seats taken in turn
    assert main([*base, "--turns", str(saved), "--record", str(tmp_path / "again.json")]) in (0, 1)
    assert transcripts.load(str(tmp_path / "again.json")) == first
    capsys.readouterr()
    assert main([*base, "--turns", str(saved), "--record", str(saved)]) == 2
    assert "would write over the --turns file" in capsys.readouterr().err


def test_a_replay_gives_the_bot_its_seed_in_the_recorded_game(tmp_path):
    (tmp_path / "seed.py").write_text(
        "import os, sys\nfor line in sys.stdin:\n    print(os.environ.get('CALDERA_BOT_SEED'), flush=True)\n"
    )
    script = transcripts.Transcript((transcripts.Turn(("a",), ("x",)), transcripts.Turn(("b",), ("y",))), seed=77)
    replayed = transcripts.replay(f"{sys.executable} {tmp_path / 'seed.py'}", script)
    assert replayed.answers == [("77",), ("77",)] and len(replayed.later_s) == 1


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--game", "pebbles"], "--game/--referee goes with --bot"),
        (["--bot", "python x.py", "--turns", "t.json", "--game", "pebbles"], "give one or the other"),
        (["--bot", "python x.py", "--opponent", "python y.py"], "--opponent goes with --game"),
        (["--bot", "python x.py", "--turns", "no-such-file.json"], "cannot read no-such-file.json"),
    ],
)
def test_usage_errors_are_one_line(argv, message, capsys):
    assert main(["bench", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("arena bench: ") and message in err and err.count("\n") == 1


def test_a_file_that_is_no_transcripts_is_refused(tmp_path):
    path = tmp_path / "x.json"
    path.write_text('{"format": "something else"}')
    with pytest.raises(transcripts.TranscriptError, match="not a transcripts file"):
        transcripts.load(str(path))
