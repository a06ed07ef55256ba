"""`arena bundle PATH/main.py`: a user's bot of any game in several modules (Pebbles' modular bot:
a helper module and a package beside its entry file), bundled into one file that plays the same
moves as the original under `python -S`, with nothing of its folder within reach."""

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from arena.bundle import folder as bundle_folder
from arena.bundle import python as bundler
from arena.cli import main
from tests.games.pebbles import host
from tests.games.pebbles.harness import leftovers  # noqa: F401  (a fixture: no process left behind)

ROOT = Path(__file__).resolve().parents[2]
MODULAR = ROOT / "tests" / "games" / "pebbles" / "bots" / "modular"
SDK_REFEREE = ["--referee", f"{sys.executable} -m tests.games.pebbles.sdk_referee", "--protocol", "sdk"]


@pytest.fixture(autouse=True)
def at_the_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # the referees run as `python -m tests.games.pebbles...`


@pytest.fixture
def submission(tmp_path) -> Path:
    path = tmp_path / "submission.py"
    path.write_text(bundle_folder.build_file(MODULAR / "main.py").text)
    return path


def test_the_entry_and_every_module_it_imports_from_its_folder():
    built = bundle_folder.build_file(MODULAR / "main.py")
    assert built.entry == bundle_folder.SCRIPT
    assert built.modules == [bundle_folder.SCRIPT, "strategy", "strategy.pick", "strategy.ranking", "turns"]
    assert built.external == [] and not built.compressed
    assert built.size == bundler.utf16_units(built.text)


def test_the_bundle_plays_the_same_moves_as_the_original(submission, tmp_path):
    """A whole game against the original, played by Pebbles' own referee (no code of the arena's
    bench): the moves of the bundle, run by `python -S` from an empty folder, are the original's."""
    empty = tmp_path / "empty"
    empty.mkdir()
    original = shlex.join([sys.executable, str(MODULAR / "main.py")])
    bundled = f"env -C {shlex.quote(str(empty))} {shlex.quote(sys.executable)} -S {shlex.quote(str(submission))}"
    for seed in (3, 4):
        twins = host.play([original, original], seed, 10, 10)
        mixed = host.play([bundled, original], seed, 10, 10)
        assert mixed.out is None and twins.out is None, mixed.detail
        assert [(t.player, t.answer) for t in mixed.turns] == [(t.player, t.answer) for t in twins.turns]


@pytest.mark.usefixtures("leftovers")
def test_the_command_checks_the_bundle_on_recorded_games(tmp_path, capsys):
    out = tmp_path / "s.py"
    argv = ["bundle", str(MODULAR / "main.py"), "-o", str(out), "--check", "2", *SDK_REFEREE]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert f"{bundler.utf16_units(out.read_text()):,} UTF-16 units" in printed
    assert "answered all" in printed and "4 transcript(s) as the original did" in printed  # 2 games, 2 seats


def check(tmp_path, capsys, modules: str, answer: str, games: int) -> tuple[int, str]:
    """`arena bundle BOT --check GAMES` of a one-file Pebbles bot that imports `modules` and answers
    `answer`, an expression of `values` (the pebbles): its status and what it printed."""
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "main.py").write_text(
        f"import sys, {modules}\nsys.stdin.readline()\nwhile sys.stdin.readline():\n    sys.stdin.readline()\n"
        f"    values = [int(v) for v in sys.stdin.readline().split()]\n    print({answer}, flush=True)\n"
    )
    argv = ["bundle", str(bot / "main.py"), "-o", str(tmp_path / "s.py"), "--check", str(games), *SDK_REFEREE]
    return main(argv), capsys.readouterr().out


@pytest.mark.usefixtures("leftovers")
def test_a_bot_that_needs_a_module_beyond_the_standard_library_is_named_and_fails_its_check(tmp_path, capsys):
    """CodinGame's Python has NumPy, and the warning says so; the check runs the bundle without it."""
    status, printed = check(tmp_path, capsys, "numpy", "int(numpy.argmax(values))", 1)
    assert status == 1
    assert "warning: imports from neither the standard library nor" in printed and "numpy" in printed
    assert "CodinGame's Python adds NumPy, pandas and SciPy to the standard library" in printed
    assert "check: the bundle failed" in printed and "exited with code 1" in printed  # no numpy under -S


@pytest.mark.usefixtures("leftovers")
def test_a_bot_whose_answers_depend_on_time_is_told_apart(tmp_path, capsys):
    status, printed = check(tmp_path, capsys, "time", "time.perf_counter_ns() // 1000 % len(values)", 2)
    assert status == 1
    assert "the bundle answered" in printed and "depend on time or on unseeded randomness" in printed


@pytest.mark.usefixtures("leftovers")
def test_saved_turns_check_the_bundle_without_a_game(tmp_path, capsys):
    saved = tmp_path / "turns.json"
    original = shlex.join([sys.executable, str(MODULAR / "main.py")])
    assert main(
        ["bench", "--bot", original, *SDK_REFEREE, "--games", "1", "--rounds", "4", "--record", str(saved)]
    ) in (0, 1)
    capsys.readouterr()
    assert main(["bundle", str(MODULAR / "main.py"), "-o", str(tmp_path / "s.py"), "--turns", str(saved)]) == 0
    assert "as the original did" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["bundle", str(MODULAR / "main.py"), "-o", str(MODULAR / "turns.py")], "is a file of the bot itself"),
        (["bundle", "no/such/main.py", "-o", "x.py"], "no bot file no/such/main.py"),
        (["bundle", "mcts", "-o", "x.py", "--turns", "t.json"], "check a bot file"),
        (["bundle", str(MODULAR / "main.py"), "-o", ""], "-o needs a file name"),
        (["bundle", str(MODULAR / "main.py"), "-o", "nowhere/"], "-o nowhere/ names a folder"),
        (["bundle", str(MODULAR), "-o", "x.py"], f"is a folder: give its entry file ({MODULAR / 'main.py'})"),
    ],
)
def test_mistakes_are_one_line(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("arena bundle: ") and message in err and err.count("\n") == 1


def test_the_bundled_entry_runs_as_main_and_reads_its_seed(submission):
    """Run as a script it plays; its draw follows CALDERA_BOT_SEED as the original's does."""
    turn = "2 0\n0 0\n3\n9 9 1\n"
    for seed in ("1", "2", "3", "4"):
        env = {"CALDERA_BOT_SEED": seed, "PATH": "/usr/bin:/bin"}
        ours = subprocess.run(
            [sys.executable, "-S", str(submission)], input=turn, capture_output=True, text=True, env=env, timeout=30
        )
        theirs = subprocess.run(
            [sys.executable, str(MODULAR / "main.py")], input=turn, capture_output=True, text=True, env=env, timeout=30
        )
        assert ours.returncode == 0, ours.stderr
        assert ours.stdout == theirs.stdout and ours.stdout.strip() in ("0", "1")


def pebbles_bot(folder: Path, modules: str, answer: str) -> Path:
    """A one-file Pebbles bot in `folder` that imports `modules` and answers `answer`, an expression
    of `values` (the pebbles): its entry file."""
    folder.mkdir(parents=True)
    entry = folder / "main.py"
    entry.write_text(
        f"import sys, {modules}\nsys.stdin.readline()\nwhile sys.stdin.readline():\n    sys.stdin.readline()\n"
        f"    values = [int(v) for v in sys.stdin.readline().split()]\n    print({answer}, flush=True)\n"
    )
    return entry


@pytest.mark.usefixtures("leftovers")
def test_the_check_runs_the_bundle_alone_even_when_written_in_the_bots_folder(tmp_path, capsys):
    """A module imported by a computed name is not bundled: beside the bot's modules the bundle still
    finds it, alone it cannot, and the check must see the bundle alone."""
    entry = pebbles_bot(tmp_path / "bot", "importlib", 'importlib.import_module("pi" + "ck").first(values)')
    (tmp_path / "bot" / "pick.py").write_text("def first(values):\n    return 0\n")
    argv = ["bundle", str(entry), "-o", str(tmp_path / "bot" / "submission.py"), "--check", "1", *SDK_REFEREE]
    assert main(argv) == 1
    assert "check: the bundle failed" in capsys.readouterr().out


@pytest.mark.usefixtures("leftovers")
def test_the_check_takes_paths_with_spaces(tmp_path, capsys):
    entry = pebbles_bot(tmp_path / "my bots" / "bot", "random", "0")
    argv = ["bundle", str(entry), "-o", str(tmp_path / "my sub.py"), "--check", "1", *SDK_REFEREE]
    assert main(argv) == 0, capsys.readouterr()
    assert "as the original did" in capsys.readouterr().out


def run_alone(
    tmp_path: Path, files: dict[str, str], entry: str = "main.py", compress: str = "auto"
) -> subprocess.CompletedProcess:
    """The bundle of a bot made of `files` (path in its folder -> source), run by `python -S` from a
    folder of its own, as a relative path: what it printed."""
    bot = tmp_path / "bot"
    for name, source in files.items():
        (bot / name).parent.mkdir(parents=True, exist_ok=True)
        (bot / name).write_text(source)
    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / "s.py").write_text(bundle_folder.build_file(bot / entry, compress).text)
    return subprocess.run(
        [sys.executable, "-S", "s.py"],
        cwd=alone,
        capture_output=True,
        text=True,
        timeout=30,
        env={"PATH": "/usr/bin:/bin"},
    )


def test_the_bundled_entry_sees_argv_and_file_as_a_script_does(tmp_path):
    """sys.argv[0] is the submission's path as given, __file__ the submission's own path, as for
    `python main.py`: argparse finds its program's name, a bot its folder."""
    main_py = (
        "import argparse, os, sys\nargparse.ArgumentParser().parse_args()\n"
        "print(sys.argv[0], __file__ == os.path.abspath(sys.argv[0]), __name__)\n"
    )
    done = run_alone(tmp_path, {"main.py": main_py})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["s.py", "True", "__main__"]


@pytest.mark.parametrize("compress", ["never", "always"])
def test_a_bots_own_module_named_as_one_of_the_standard_librarys_is_the_bots(tmp_path, compress):
    """As `python main.py` imports them (its folder first on sys.path), though the bundle's loader
    imported the standard library's before the bot starts."""
    files = {
        "main.py": "import random, struct\nfrom token import Token\nprint(random.MINE, struct.MINE, Token.MINE)\n",
        "random.py": "MINE = 'random'\n",
        "struct.py": "MINE = 'struct'\n",
        "token.py": "class Token:\n    MINE = 'token'\n",
    }
    done = run_alone(tmp_path, files, compress=compress)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["random", "struct", "token"]


def test_a_package_is_imported_before_a_module_of_its_name_as_python_does(tmp_path):
    """utils/ before utils.py; and an entry bot.py beside a package bot/ runs as the script while
    `import bot` is the package."""
    files = {
        "bot.py": "import utils\nfrom bot.logic import answer\nprint(utils.NAME, answer())\n",
        "utils.py": "NAME = 'file'\n",
        "utils/__init__.py": "NAME = 'package'\n",
        "bot/__init__.py": "",
        "bot/logic.py": "def answer():\n    return 'b'\n",
    }
    done = run_alone(tmp_path, files, entry="bot.py")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["package", "b"]


def test_folders_without_init_are_namespace_packages_as_in_python(tmp_path):
    """strategy/ and game/ai/ have no __init__.py: Python imports them all the same; json/ has none
    either, and Python's json comes before it."""
    files = {
        "main.py": "import json\nfrom strategy.pick import choose\nimport game.ai.search as s\nprint(choose(), s.DEPTH, json.dumps(1))\n",
        "strategy/pick.py": "def choose():\n    return 'a'\n",
        "game/__init__.py": "",
        "game/ai/search.py": "DEPTH = 3\n",
        "json/other.py": "",
    }
    done = run_alone(tmp_path, files)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["a", "3", "1"]


def test_an_entry_named_main_dunder_runs(tmp_path):
    done = run_alone(
        tmp_path,
        {"__main__.py": "from helper import answer\nprint(answer())\n", "helper.py": "def answer():\n    return 'h'\n"},
        entry="__main__.py",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["h"]


def test_a_module_that_reads_file_or_imports_by_a_computed_name_is_named(tmp_path, capsys):
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "main.py").write_text("import importlib, model\nimportlib.import_module('x' + model.NAME)\n")
    (bot / "model.py").write_text("import os\nNAME = os.path.dirname(__file__)\n__import__('json')\n")
    assert main(["bundle", str(bot / "main.py"), "-o", str(tmp_path / "s.py")]) == 0
    printed = capsys.readouterr().out
    assert "warning: main.py imports a module by a computed name; model.py reads __file__: " in printed


@pytest.mark.parametrize(
    "options, message",
    [(["--check", "1", "--game", "pebles"], "no game 'pebles'"), (["--turns", "none.json"], "--turns none.json")],
)
def test_the_checks_options_are_refused_before_the_file_is_written(tmp_path, capsys, options, message):
    out = tmp_path / "s.py"
    assert main(["bundle", str(MODULAR / "main.py"), "-o", str(out), *options]) == 2
    assert message in capsys.readouterr().err and not out.exists()


def test_a_module_in_latin_1_with_its_coding_line_is_bundled(tmp_path):
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "msgs.py").write_bytes("# -*- coding: latin-1 -*-\nHELLO = 'été'\n".encode("latin-1"))
    done = run_alone(tmp_path, {"main.py": "import msgs\nprint(msgs.HELLO == '\\xe9t\\xe9')\n"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True"]


def test_a_star_import_brings_the_submodules_that_all_names(tmp_path):
    files = {
        "main.py": "from tools import *\nprint(geometry.last([1, 2]))\n",
        "tools/__init__.py": "__all__ = ['geometry']\n",
        "tools/geometry.py": "def last(values):\n    return values[-1]\n",
    }
    done = run_alone(tmp_path, files)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["2"]


def test_a_bot_at_a_commit_is_named_as_the_user_wrote_it(tmp_path, capsys, monkeypatch):
    """Not as the arena's copy of the commit's tree: utils.py's syntax error is in bot/utils.py@HEAD,
    and tactics.py, never committed, is said to be so."""
    for who in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{who}_NAME", "Test")
        monkeypatch.setenv(f"GIT_{who}_EMAIL", "test@example.com")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    bot = Path("bot")
    bot.mkdir()
    (bot / "main.py").write_text("import tactics, utils\n")
    (bot / "utils.py").write_text("X = (\n")
    for args in (["init", "-q"], ["add", "main.py", "utils.py"], ["commit", "-qm", "bot"]):
        subprocess.run(["git", "-C", str(bot), *args], check=True, capture_output=True)
    (bot / "utils.py").write_text("X = 1\n")
    (bot / "tactics.py").write_text("Y = 1\n")
    assert main(["bundle", "bot/main.py@HEAD", "-o", "s.py"]) == 2
    assert "arena bundle: cannot read bot/utils.py@HEAD: " in capsys.readouterr().err
    subprocess.run(["git", "-C", str(bot), "commit", "-qam", "utils"], check=True, capture_output=True)
    assert main(["bundle", "bot/main.py@HEAD", "-o", "s.py"]) == 0
    printed = capsys.readouterr().out
    assert "nor bot@HEAD: tactics" in printed and "tactics: in bot, but not in the bot at HEAD" in printed
    assert "cache" not in printed


def test_a_traceback_names_the_bots_own_files(tmp_path):
    done = run_alone(tmp_path, {"main.py": "import helper\nhelper.fail()\n", "helper.py": "def fail():\n    1 / 0\n"})
    assert done.returncode == 1
    assert 'File "bundle:main.py", line 2' in done.stderr and 'File "bundle:helper.py", line 2' in done.stderr
