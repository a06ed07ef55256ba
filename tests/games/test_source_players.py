"""Source players in real games: a bot's file in each CodinGame language this machine builds plays
Pebbles through its external referee; a compile error stops the run before any game; a bot at two
commits of a git repository is two versions an SPRT compares; a bot of arena.toml is built by its own
commands; a build this machine cannot start stops the run; a compiled bot's parameters are tuned through its environment, built once."""

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from arena.builds import languages
from arena.cli import main
from arena.play.store import Store
from tests.processes import foreign_program

ROOT = Path(__file__).resolve().parents[2]
PEBBLES = ROOT / "tests" / "games" / "pebbles"
SOURCES = PEBBLES / "sources"
WORST = f"worst={shlex.join([sys.executable, str(PEBBLES / 'bots' / 'worst.py')])}"
# The referee the arena drives (it keeps the clock); a bot's start (a JVM's) is no subject here.
GAME = ["--referee", f"{sys.executable} -m tests.games.pebbles.sdk_referee", "--protocol", "sdk"]
CLOCK = ["--first-turn-ms", "5000", "--turn-ms", "1000"]
# Each is Pebbles' greedy bot: the most valuable pebble, the first of equals.
GREEDY = {
    "cpp": "greedy.cpp",
    "c": "greedy.c",
    "java": "Player.java",
    "rust": "greedy.rs",
    "go": "greedy.go",
    "csharp": "Greedy.cs",
    "typescript": "greedy.ts",
    "javascript": "greedy.js",
}


def needs(key: str) -> None:
    """Skip, saying what to install, where this machine cannot build `key`."""
    why = languages.missing(languages.BY_KEY[key])
    if why:
        pytest.skip(why)


@pytest.fixture(autouse=True)
def at_the_root(monkeypatch, tmp_path):
    """The referee runs as `python -m tests.games.pebbles...`; builds go to a cache of the test's own."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def stored(db: Path) -> tuple[dict, list[dict], list]:
    store = Store.open(db, readonly=True)
    try:
        return store.config, store.games(), store.players()
    finally:
        store.close()


@pytest.mark.parametrize("key", sorted(GREEDY))
def test_a_source_player_of_each_language_plays_pebbles(key, tmp_path, capsys):
    needs(key)
    db = tmp_path / "m.sqlite"
    argv = ["match", str(SOURCES / GREEDY[key]), WORST, *GAME, *CLOCK, "--pairs", "1", "--seed", "2"]
    assert main([*argv, "--workers", "1", "--db", str(db), "--quiet"]) == 0
    err = capsys.readouterr().err
    assert f"({languages.BY_KEY[key].name}) ... built in" in err  # before the seed check's games
    config, games, (player, _) = stored(db)
    assert player.kind == "source" and re.fullmatch(r"[0-9a-f]{12}(\+dirty)?", player.version)
    assert len(games) == 2 and all(not any(g["errors"]) for g in games)
    assert all(g["seats"][g["ranks"].index(0)] == player.label for g in games), "greedy beats worst"


def test_a_compile_error_stops_the_run_before_any_game(tmp_path, capsys):
    needs("cpp")
    bot = tmp_path / "src" / "bot.cpp"
    bot.parent.mkdir()
    bot.write_text("#include <iostream>\nint main() {\n    int x = ;\n}\n")
    db = tmp_path / "m.sqlite"
    status = main(["match", str(bot), WORST, *GAME, "--pairs", "1", "--db", str(db), "--quiet"])
    err = capsys.readouterr().err
    assert status == 2 and not db.exists(), "no run, no game"
    (line,) = [line for line in err.splitlines() if "cannot build" in line]
    assert re.search(r"src/bot\.cpp:3:\d+: error: expected primary-expression", line), line
    log = Path(re.search(r"the whole log: (\S+)\)", line).group(1))
    assert log.is_file() and "expected primary-expression" in log.read_text()


def test_two_commits_of_a_bot_are_two_versions_an_sprt_compares(tmp_path, monkeypatch, capsys):
    """`bot.cpp@HEAD~1` (the bot that takes the worst pebble) and `bot.cpp` (greedy, committed)."""
    needs("cpp")
    for who in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{who}_NAME", "Test")
        monkeypatch.setenv(f"GIT_{who}_EMAIL", "test@example.com")
    repo = tmp_path / "mybot"
    repo.mkdir()
    greedy = (SOURCES / "greedy.cpp").read_text()
    worst = greedy.replace("values[i] > values[best]", "values[i] < values[best]")

    def commit(text: str) -> None:
        (repo / "bot.cpp").write_text(text)
        for args in (["add", "bot.cpp"], ["commit", "-q", "-m", "bot"]):
            subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)

    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    commit(worst)
    commit(greedy)
    bot = repo / "bot.cpp"
    db = tmp_path / "s.sqlite"
    argv = ["sprt", f"new={bot}", f"old={bot}@HEAD~1", *GAME, *CLOCK, "--max-pairs", "3", "--seed", "1"]
    assert main([*argv, "--workers", "1", "--db", str(db), "--quiet"]) == 3  # (3 pairs decide nothing)
    config, games, players = stored(db)
    new, old = players
    assert (new.kind, old.kind) == ("source", "source") and new.version != old.version
    assert "+dirty" not in new.version  # the working tree is the last commit
    assert len(games) == 6 and all(g["seats"][g["ranks"].index(0)] == "new" for g in games)
    assert capsys.readouterr().err.count("built in") == 2  # each version built once


def test_a_declared_player_builds_with_its_own_commands(tmp_path, capsys):
    """[players.NAME] in arena.toml: a folder built by its `build` command and run by its `run`."""
    needs("cpp")
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "greedy.cpp").write_text((SOURCES / "greedy.cpp").read_text())
    config = tmp_path / "arena.toml"
    config.write_text(
        '[players.mine]\nsource = "bot"\nbuild = "g++ -O1 -o greedy greedy.cpp"\nrun = "./greedy"\n'
        "[players.broken]\nsource = 3\n"
    )
    db = tmp_path / "m.sqlite"
    argv = ["match", "mine", WORST, *GAME, *CLOCK, "--pairs", "1", "--config", str(config), "--db", str(db)]
    assert main([*argv, "--workers", "1", "--quiet"]) == 0
    _, games, (mine, _) = stored(db)
    assert (mine.label, mine.kind) == ("mine", "source") and len(games) == 2
    assert all(g["seats"][g["ranks"].index(0)] == "mine" for g in games)
    argv = ["match", "broken", WORST, *GAME, "--config", str(config), "--db", str(tmp_path / "b.sqlite")]
    assert main(argv) == 2
    assert f"{config}: [players.broken] source = 3: input should be a valid string" in capsys.readouterr().err


def test_a_declared_java_run_without_its_class_path_is_told_where_the_classes_are(tmp_path, capsys):
    """`run = "java Player"` without `build`: the arena compiles the classes into ../out, and the run
    was refused with java's ClassNotFoundException alone. The line now gives the `run` that finds them,
    and that one plays."""
    needs("java")
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "Player.java").write_text((SOURCES / "Player.java").read_text())
    config = tmp_path / "arena.toml"
    config.write_text('[players.mine]\nsource = "bot"\nrun = "java Player"\n')
    argv = ["match", "mine", WORST, *GAME, *CLOCK, "--pairs", "1", "--config", str(config), "--quiet"]
    assert main([*argv, "--db", str(tmp_path / "m.sqlite")]) == 2
    (line,) = [line for line in capsys.readouterr().err.splitlines() if line.startswith("arena match: ")]
    assert line.endswith(
        '(java finds Player in the folders of its class path, and the build\'s classes are in ../out: run = "java -cp ../out Player")'
    ), line
    config.write_text('[players.mine]\nsource = "bot"\nrun = "java -cp ../out Player"\n')
    assert main([*argv, "--db", str(tmp_path / "n.sqlite"), "--workers", "1"]) == 0


def test_a_build_this_machine_cannot_start_stops_the_run_before_any_game(tmp_path, capsys):
    """A build made as for another processor (a cross-compiler's, or one that travelled from another
    machine) is refused in one line, not played as a bot that crashes in every game."""
    folder = tmp_path / "bot"
    folder.mkdir()
    foreign_program(tmp_path / "foreign")
    config = tmp_path / "arena.toml"
    config.write_text(f'[players.mine]\nsource = "bot"\nbuild = "cp {tmp_path / "foreign"} bot"\nrun = "./bot"\n')
    db = tmp_path / "m.sqlite"
    argv = ["match", "mine", WORST, *GAME, "--pairs", "1", "--config", str(config), "--db", str(db), "--quiet"]
    assert main(argv) == 2 and not db.exists(), "no run, no game"
    (line,) = [line for line in capsys.readouterr().err.splitlines() if line.startswith("arena match: ")]
    assert "mine cannot play: ./bot cannot start on this machine: it is an ELF program for" in line, line


def test_tune_a_compiled_bot_through_its_environment_built_once(tmp_path, capsys):
    """The three-file C++ bot takes the K-th most valuable pebble, K from its environment."""
    needs("cpp")
    db = tmp_path / "tune.sqlite"
    start = f"env K=6 {SOURCES / 'split' / 'main.cpp'}"
    argv = ["tune", start, "--params", "K=0:8", "--opponent", WORST, *GAME, *CLOCK]
    argv += ["--iterations", "3", "--pairs-per-iteration", "1", "--confirm-pairs", "0", "--seed", "3"]
    assert main([*argv, "--workers", "1", "--db", str(db), "--quiet"]) == 0
    captured = capsys.readouterr()
    assert captured.err.count("building ") == 1, captured.err
    store = Store.open(db, readonly=True)
    games = store.games()
    store.close()
    plus = {v for g in games for label, v in zip(g["seats"], g["versions"], strict=True) if label == "plus"}
    assert len(plus) > 1 and len({v.partition(":")[0] for v in plus}) == 1  # other values, the one build
    builds = tmp_path / "cache" / "caldera" / "builds"
    assert len([p for p in builds.iterdir() if p.name.startswith("cpp-")]) == 1
    record = json.loads(next(builds.glob("cpp-*/build.json")).read_text())
    assert record["files"] == ["choice.h", "main.cpp", "turn.h"]
