"""`arena tune`: SPSA finds a known optimum of a synthetic problem, an interrupted tune resumes without
losing or repeating a game, and what the command refuses.

The synthetic problem is a registered bot, `synthetic`, whose strength peaks at known parameter values;
its games are drawn by an executor that plays none (`SyntheticGames`): blue wins with the logistic
probability of the two sides' strength difference in Elo, drawn from the game's seeds. Everything
else is the real command: the schedule, the database, the progress, the report."""

import random
import re
import shlex
from dataclasses import asdict
from concurrent.futures import Future

import pytest

from arena.cli import main
from arena.games.base import Outcome
from arena.games.volcanoes.game import VolcanoesGame
from arena.games.volcanoes.seats import spec_of
from arena.play import run
from arena.play.schedule import derive_seed
from arena.play.store import Store
from arena.play.tune import at_its_start, parse_params, spec_with, text_report
from arena.stats.estimates import expected_score
from arena.stats.spsa import Tuned, rounded
from arena.stats.tables import UnitCounter
from bots.volcanoes.registry import BOTS, Parameter, Record, defaults

OPTIMUM = {"x": 0.7, "y": 30.0}  # the defaults (0.2, 80) are far from it
SPANS = {"x": 1.0, "y": 100.0}
PEAK_ELO = 1000.0  # the strength lost from the optimum to a range's far end, per parameter (quadratic)
TOLERANCE = 0.15  # of each range; of 300 simulated runs of this problem the worst ended within 0.12


class Synthetic:
    """The registered class of `synthetic` (its games are drawn, never played)."""

    warmed: list[dict] = []  # the options of each instance warmed up

    def __init__(self, seed=None, **options):
        self.options = options

    def warm_up(self):
        Synthetic.warmed.append(self.options)


def strength(options: dict) -> float:
    options = {**defaults("synthetic"), **options}
    return -PEAK_ELO * sum(((options[name] - best) / SPANS[name]) ** 2 for name, best in OPTIMUM.items())


class SyntheticGames:
    """An executor for `arena.run.run_jobs` that draws each game instead of playing it; it raises
    KeyboardInterrupt (as Ctrl-C would, between two games) once it has drawn `stop_after` games."""

    tasks_in_flight = 1  # as arena.run.SerialExecutor: each game is stored before the next is drawn

    def __init__(self, stop_after: int | None = None):
        self.drawn, self.stop_after = 0, stop_after

    def submit(self, fn, game, batch, players) -> Future:
        records = []
        for job in batch:
            if self.drawn == self.stop_after:
                raise KeyboardInterrupt
            self.drawn += 1
            blue, orange = (strength(spec_of(players[label]).options) for label in job.seats)
            draw = random.Random(derive_seed(job.seed, *job.bot_seeds)).random()
            ranks = [0, 1] if draw < expected_score(blue - orange) else [1, 0]
            seated = [players[label] for label in job.seats]
            outcome = Outcome(ranks, [None, None], [None, None], "connection", turns=10)
            records.append(run._record(job, seated, outcome, 0.0))
        future = Future()
        future.set_result(records)
        return future

    def cancel(self, future) -> bool:
        return future.cancel()

    def restart(self) -> None:
        pass

    def shutdown(self) -> None:
        pass


@pytest.fixture
def synthetic(monkeypatch):
    """Registers `synthetic` and draws the games of `arena` commands run in this process; returns a
    function that sets when the next command is interrupted."""
    declared = (Parameter("x", 0.2, 0.0, 1.0), Parameter("y", 80.0, 0.0, 100.0))
    monkeypatch.setitem(BOTS, "synthetic", Record("synthetic", __name__, "Synthetic", declared))
    stops = []
    monkeypatch.setattr("arena.play.tune.make_executor", lambda *args: SyntheticGames(stops.pop() if stops else None))
    return stops.append


def tune(db, *extra):
    return main(["tune", "synthetic", "--params", "x,y", "--db", str(db), "--quiet", "--workers", "1", *extra])


def stored(db):
    store = Store.open(db)
    try:
        games = [(*g["lineup"], g["unit"], g["seating"], *g["versions"], tuple(g["ranks"])) for g in store.games()]
        return games, store.iterations()
    finally:
        store.close()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_tune_finds_the_optimum_of_a_synthetic_bot(synthetic, tmp_path, capsys, seed):
    db = tmp_path / "tune.sqlite"
    assert (
        tune(db, "--iterations", "100", "--pairs-per-iteration", "4", "--confirm-pairs", "20", "--seed", str(seed)) == 0
    )
    games, iterations = stored(db)
    assert len(games) == 100 * 8 + 2 * 20 and len(set(games)) == len(games)
    final = iterations[-1]["after"]
    for name, best in OPTIMUM.items():
        assert abs(final[name] - best) <= TOLERANCE * SPANS[name], final
    out = capsys.readouterr().out
    tuned = next(line for line in out.splitlines() if line.startswith("tuned: "))
    assert tuned.split()[1] == f"synthetic:x={round(final['x'], 3)!r},y={round(final['y'], 1)!r}"  # 1/1000 of a range
    assert any(line.startswith("tuned vs start") for line in out.splitlines())  # the confirmation
    store = Store.open(db)
    counter = UnitCounter("tuned", "start")
    for game in store.games():
        counter.add(game)
    confirmation = counter.estimate()
    store.close()
    assert confirmation.n == 20 and confirmation.elo_interval[0] > 200  # far stronger than the start
    assert main(["report", str(db)]) == 0
    assert capsys.readouterr().out == out


def test_against_an_opponent_each_side_plays_it_on_the_same_seeds(synthetic, tmp_path):
    """Noisier (each side's games against the opponent, not against each other): of 12 seeds of this
    run the worst ended 0.18 of a range from the optimum; a wrong sign would end at the edges."""
    db = tmp_path / "tune.sqlite"
    assert (
        tune(db, "--iterations", "100", "--confirm-pairs", "0", "--seed", "1", "--opponent", "synthetic:x=0.5,y=50")
        == 0
    )
    store = Store.open(db)
    games, final = store.games(), store.iterations()[-1]["after"]
    store.close()
    assert len(games) == 100 * 4 * 2 * 2
    seeds = {}
    for game in games:
        assert game["lineup"][1] == "opponent" and game["lineup"][0] in ("plus", "minus")
        seeds.setdefault((game["unit"], game["seating"]), set()).add(game["seed"])
    assert len(seeds) == 800 and all(len(s) == 1 for s in seeds.values())  # plus and minus: one seed
    for name, best in OPTIMUM.items():
        assert abs(final[name] - best) <= 0.25 * SPANS[name], final


def test_each_game_records_the_values_it_played(synthetic, tmp_path):
    db = tmp_path / "tune.sqlite"
    assert tune(db, "--iterations", "3", "--pairs-per-iteration", "2", "--confirm-pairs", "1", "--seed", "4") == 0
    games, iterations = stored(db)
    assert [(a, b) for a, b, *_ in games] == [("plus", "minus")] * 12 + [("tuned", "start")] * 2
    for _, _, pair, swap, blue_version, orange_version, _ in games[:-2]:
        plus, minus = (blue_version, orange_version) if swap == 0 else (orange_version, blue_version)
        row = iterations[pair // 2]  # two pairs an iteration
        assert plus.endswith(":x={!r},y={!r}".format(row["plus"]["x"], row["plus"]["y"])), plus
        assert minus.endswith(":x={!r},y={!r}".format(row["minus"]["x"], row["minus"]["y"])), minus
    for k, row in enumerate(iterations):
        assert all(abs(row["plus"][n] - row["minus"][n]) == pytest.approx(2 * row["c"][n]) for n in OPTIMUM)
        assert row["after"] != row["theta"] or row["net"] == 0
        assert k == 0 or row["theta"] == iterations[k - 1]["after"]


def test_an_interrupted_tune_resumes_without_losing_or_repeating_games(synthetic, tmp_path, capsys):
    args = ["--iterations", "12", "--pairs-per-iteration", "2", "--confirm-pairs", "3", "--seed", "9"]
    assert tune(tmp_path / "whole.sqlite", *args) == 0
    whole = stored(tmp_path / "whole.sqlite")

    db = tmp_path / "cut.sqlite"
    synthetic(21)  # in iteration 6 (4 games each)
    assert tune(db, *args) == 130
    assert "arena tune --resume --db" in capsys.readouterr().err
    assert len(stored(db)[0]) == 21 and stored(db)[1][-1]["after"] is None  # iteration 6: planned, not done
    synthetic(28)  # in the confirmation (48 games before it)
    assert main(["tune", "--resume", "--db", str(db), "--quiet", "--workers", "1"]) == 130
    assert len(stored(db)[0]) == 49
    assert main(["tune", "--resume", "--db", str(db), "--quiet", "--workers", "1"]) == 0
    assert _without_times(stored(db)) == _without_times(whole)


def _without_times(state):
    games, iterations = state
    return games, [{k: v for k, v in row.items() if k != "finished_at"} for row in iterations]


@pytest.mark.parametrize(
    "argv, says",
    [
        (["tune", "synthetic", "--params", "z"], "synthetic has no parameter 'z' (its parameters: x, y)"),
        (["tune", "synthetic", "--params", "x=0.5:2"], "out of range"),
        (["tune", "synthetic", "--params", "x=0.5:0.6"], "x starts at 0.2, outside [0.5, 0.6]"),
        (["tune", "synthetic", "--params", "x=0.6:0.5"], "LOW < HIGH"),
        (["tune", "env K=0 true", "--params", "K=-1e308:1e308"], "the range is wider than a number holds"),
        (["tune", "synthetic", "--params", "x,x"], "given twice"),
        # (a start that is no number started from the middle of the range, unsaid)
        (["tune", "env K=0,3 true", "--params", "K=0.0:1.0"], "K=0,3: '0,3' is not a number"),
        # (K=0:1 made K an integer, unsaid: its start of 0.5 played 0 against 1)
        (["tune", "env K=0.5 true", "--params", "K=0:1"], "K is an integer (both ends of 0:1 are written as"),
        (["tune", "random", "--params", "x"], "'random' has no parameters to tune"),
        (["tune", "synthetic"], "arena tune BOT --params"),
        (["tune", "synthetic", "--params", "x", "--iterations", "0"], "--iterations must be at least 1"),
        (["tune", "synthetic", "--params", "x", "--c-end", "0.9"], "--c-end is a fraction"),
        # (these two said "unknown player 'start=...'": the label tune gives its bot, never written)
        (["tune", "K=1 true", "--params", "K=0:3"], "'K=1 true': NAME=VALUE before a command sets a variable"),
        (["tune", "nosuchbot", "--params", "K=0:3"], "arena tune: unknown player 'nosuchbot': not"),
        # (this said "'start=mine' cannot be a label")
        (["tune", "mine=synthetic", "--params", "x"], "a tune's BOT takes no label (mine=): it names its players"),
        (
            ["tune", "env K=1 true", "--params", "K=0:3", "--referee", "x", "--protocol", "cli", "--players", "3"],
            "cli game seats 3 (--players 2 plays it with two",
        ),
    ],
)
def test_mistakes_are_one_line(synthetic, tmp_path, capsys, argv, says):
    assert main([*argv, "--db", str(tmp_path / "t.sqlite"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1
    assert not (tmp_path / "t.sqlite").exists()


def test_resume_refuses_other_settings(synthetic, tmp_path, capsys):
    db = tmp_path / "t.sqlite"
    assert tune(db, "--iterations", "2", "--pairs-per-iteration", "1", "--confirm-pairs", "0", "--seed", "1") == 0
    capsys.readouterr()
    assert main(["tune", "--resume", "--db", str(db), "--iterations", "3", "--quiet"]) == 2
    assert "was run with --iterations 2, not 3" in capsys.readouterr().err
    assert main(["tune", "synthetic", "--params", "x=0:0.5", "--resume", "--db", str(db), "--quiet"]) == 2
    assert "was run with --params x=0.0:1.0,y=0.0:100.0" in capsys.readouterr().err
    assert main(["tune", "synthetic", "--params", "y,x", "--resume", "--db", str(db), "--quiet"]) == 2
    capsys.readouterr()
    # Ranges its start is outside of, an opponent it had not, a default it was not given: each said as
    # what the run began with (they read 'x starts at 0.2, outside [0.5, 1]', '--opponent None' and
    # '--r-end 0.10864411679012316').
    assert main(["tune", "synthetic", "--params", "x=0.5:1", "--resume", "--db", str(db), "--quiet"]) == 2
    assert "was run with --params x=0.0:1.0,y=0.0:100.0, not x=0.5:1" in capsys.readouterr().err
    assert main(["tune", "--resume", "--db", str(db), "--opponent", "random", "--quiet"]) == 2
    assert "was run without --opponent, not random" in capsys.readouterr().err
    assert main(["tune", "--resume", "--db", str(db), "--r-end", "0.5", "--quiet"]) == 2
    assert re.search(r"was run with --r-end \d\.\d{1,4}, not 0\.5$", capsys.readouterr().err.strip())
    assert main(["tune", "synthetic", "--params", "x,y", "--resume", "--db", str(db), "--quiet"]) == 0


def test_a_real_bot_plays_its_values_with_its_other_options_kept(tmp_path, capsys):
    """`uct:ms=20` tuned over c: real games (outcomes unchecked: a busy machine may turn a 20 ms turn
    into a timeout), each side at its values and at the start's 20 ms a turn."""
    db = tmp_path / "uct.sqlite"
    assert (
        main(
            "tune uct:ms=20 --params c=0.5:3 --iterations 1 --pairs-per-iteration 1 --confirm-pairs 1".split()
            + ["--seed", "2", "--workers", "1", "--db", str(db), "--quiet"]
        )
        == 0
    )
    games, (row,) = stored(db)
    assert len(games) == 4
    versions = {version.partition(":")[2] for game in games for version in game[4:6]}
    assert versions == {
        f"c={row['plus']['c']!r},ms=20.0",
        f"c={row['minus']['c']!r},ms=20.0",
        "ms=20.0",
        f"c={rounded(row['after']['c'], Tuned('c', 0.5, 3.0, 0.0))!r},ms=20.0",
    }
    assert row["plus"]["c"] + row["minus"]["c"] == pytest.approx(2 * 2**0.5)  # around uct's default
    assert "tuned: uct:c=" in capsys.readouterr().out


def test_a_tunes_report_is_text_only(synthetic, tmp_path, capsys):
    db = tmp_path / "t.sqlite"
    assert tune(db, "--iterations", "1", "--pairs-per-iteration", "1", "--confirm-pairs", "0", "--seed", "1") == 0
    capsys.readouterr()
    assert main(["report", str(db), "-o", str(tmp_path / "r.html")]) == 2
    assert "text only" in capsys.readouterr().err and not (tmp_path / "r.html").exists()
    # (--csv and --json ranked the four labels, plus and minus other values every iteration)
    assert main(["report", str(db), "--csv", str(tmp_path / "r.csv"), "--json", str(tmp_path / "r.json")]) == 2
    err = capsys.readouterr().err
    assert "a tune's report is text only: drop --csv and --json" in err and err.count("\n") == 1
    assert not (tmp_path / "r.csv").exists() and not (tmp_path / "r.json").exists()


def test_too_few_seeds_names_both_counts(synthetic, tmp_path, capsys):
    # (it said "--iterations x --pairs-per-iteration 6 needs 6 seeds": the counts in the wrong places)
    (tmp_path / "seeds.txt").write_text("11\n12\n")
    argv = ["--iterations", "3", "--pairs-per-iteration", "2", "--seeds", str(tmp_path / "seeds.txt")]
    assert tune(tmp_path / "t.sqlite", *argv) == 2
    err = capsys.readouterr().err
    assert "--iterations 3 x --pairs-per-iteration 2 needs 6 seeds; " in err and err.count("\n") == 1


def test_a_count_of_one_is_singular(synthetic, tmp_path, capsys):
    # (it said "1 of 1 iterations of 1 pairs" and "Confirmation, 1 pairs")
    assert tune(tmp_path / "t.sqlite", "--iterations", "1", "--pairs-per-iteration", "1", "--confirm-pairs", "1") == 0
    out = capsys.readouterr().out
    assert ": 1 of 1 iteration of 1 pair (plus against minus)" in out and "Confirmation, 1 pair (" in out


def test_the_suggested_check_plays_the_tunes_game(synthetic, tmp_path, capsys):
    # (it left the game's options out: a tune of a game of arena.toml suggested an SPRT of Volcanoes)
    argv = ["--iterations", "1", "--pairs-per-iteration", "1", "--confirm-pairs", "0", "--turn-ms", "500"]
    assert tune(tmp_path / "t.sqlite", *argv, "--first-turn-ms", "2000.5") == 0
    check = capsys.readouterr().out.partition("(check it: ")[2].partition("\n")[0]
    assert check.startswith("arena sprt ") and check.endswith(" --turn-ms 500 --first-turn-ms 2000.5)")


def test_the_report_marks_an_integer_parameter():
    config = {"bot": "env K=1 ./bot", "params": [asdict(Tuned("K", 0, 8, 1, True))], "iterations": 2}
    config |= {"pairs_per_iteration": 1, "opponent": None, "seed": 1, "confirm_pairs": 0}
    assert "K          [0, 8] integer      1" in text_report(config, [], [])


class CrashingPlus(SyntheticGames):
    """Draws as SyntheticGames, but the side "plus" crashes in every game, saying why."""

    def submit(self, fn, game, batch, players) -> Future:
        records = super().submit(fn, game, batch, players).result()
        for record in records:
            if "plus" in record["seats"]:
                seat = record["seats"].index("plus")
                record["ranks"] = [1, 1]
                record["ranks"][seat] = 2
                record["errors"][seat] = "crash"
                record["detail"] = "blue exited with code 1: EPS too big"
        future = Future()
        future.set_result(records)
        return future


def test_the_report_says_why_a_bot_crashed(synthetic, monkeypatch, tmp_path, capsys):
    # (the players' table counted the crashes, and why the bot crashed was said nowhere)
    monkeypatch.setattr("arena.play.tune.make_executor", lambda *args: CrashingPlus())
    assert tune(tmp_path / "t.sqlite", "--iterations", "1", "--pairs-per-iteration", "1", "--confirm-pairs", "0") == 0
    out = capsys.readouterr().out
    assert "  plus: 2 crashes, the last in game 2: blue exited with code 1: EPS too big" in out


def test_a_path_with_spaces_gets_its_values_as_one_word(tmp_path, monkeypatch):
    # (`my bot/bot.cpp`, which every command takes unquoted, was tuned as `env EPS=0.5 .../my bot/bot.cpp`)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    source = tmp_path / "my bot" / "bot.cpp"
    source.parent.mkdir()
    source.write_text("int main() {}\n")
    game = VolcanoesGame()
    start, tuned = parse_params(str(source), "EPS=0.0:1.0", game)
    assert at_its_start(start, tuned, game).spec == f"env EPS=0.5 {shlex.quote(str(source))}"
    assert spec_with(str(source), {"EPS": 0.25}, game) == f"env EPS=0.25 {shlex.quote(str(source))}"


def test_the_ends_of_each_range_are_made_ready_before_the_first_game(synthetic, tmp_path, monkeypatch):
    """An iteration clamps a value to its range's end, where a bot may need what its start did not:
    mcts at rave_k 0 searches a tree of another layout, and numba compiled its kernels in the first
    game's turns, four timeouts that decided the first iterations."""
    monkeypatch.setattr(Synthetic, "warmed", [])
    monkeypatch.setattr("arena.games.volcanoes.seats._loaded", set())  # (as in a fresh process)
    monkeypatch.setattr("arena.players.registry._prepared", set())
    assert tune(tmp_path / "t.sqlite", "--iterations", "1", "--pairs-per-iteration", "1", "--confirm-pairs", "0") == 0
    warmed = [{name: float(value) for name, value in options.items()} for options in Synthetic.warmed]
    for ends in ({"x": 0.0, "y": 80.0}, {"x": 1.0, "y": 80.0}, {"x": 0.2, "y": 0.0}, {"x": 0.2, "y": 100.0}):
        assert ends in warmed, warmed


EPS_BOT = """import os, sys
eps = float(os.environ["EPS"])  # (a KeyError where the value does not reach it)
n = int(sys.stdin.readline())
for _ in range(n):
    sys.stdin.readline()
while sys.stdin.readline():
    print(sys.stdin.readline().split()[0], flush=True)
"""


def test_a_python_file_is_tuned_through_its_environment(tmp_path, monkeypatch, capsys):
    """`arena tune bot.py` ran `env EPS=0.5 bot.py`, a command not found on PATH, where `arena match
    bot.py` runs the file by its interpreter: a file with values is a pinned file still."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bot.py").write_text(EPS_BOT)
    argv = ["tune", "bot.py", "--params", "EPS=0.0:1.0", "--iterations", "1", "--pairs-per-iteration", "1"]
    assert main([*argv, "--confirm-pairs", "0", "--workers", "1", "--quiet", "--db", "t.sqlite"]) == 0
    store = Store.open(tmp_path / "t.sqlite")
    games = store.games()
    store.close()
    assert len(games) == 2 and all(not any(g["errors"]) for g in games), games  # (no KeyError: EPS reached it)
    assert "tuned: env EPS=" in capsys.readouterr().out
    assert main(["match", "env EPS=0.3 bot.py", "random", "--pairs", "1", "--workers", "1", "--quiet"]) == 0


@pytest.mark.parametrize(
    "iterations, marks", [(1, ["it 1"]), (2, ["it 1", "it 2"]), (4, ["it 1", "it 2", "it 3", "it 4"])]
)
def test_the_course_is_shown_after_iterations_not_again_at_the_start(synthetic, tmp_path, capsys, iterations, marks):
    """A tune of one or two iterations showed an `it 0` column, the start again."""
    assert tune(tmp_path / "t.sqlite", "--iterations", str(iterations), "--pairs-per-iteration", "1") == 0
    header = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("parameter"))
    assert header.split()[2:] == ["start", *(word for mark in marks for word in mark.split())], header
