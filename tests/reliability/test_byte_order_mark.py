"""A text file a Windows editor saved begins with a byte order mark (U+FEFF): arena.toml, a seed
file, a puzzle file, a solver's input, a card file to show and a bot's module to bundle so saved are
read as their text, not refused at their first character (the project's inputs are read by
referee.platform.files.read_text, which drops the mark)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from arena.games.config import read_config
from arena.play.seeds import read_seeds
from tests.reliability.commands import ROOT, run

BOM = "\ufeff"
PUZZLE = "\n".join((ROOT / "tests" / "data" / "coroutine" / "published.txt").read_text().splitlines()[:3]) + "\n"


def _saved_with_bom(path: Path, text: str) -> Path:
    path.write_text(BOM + text, encoding="utf-8")
    return path


def test_arena_toml_and_a_seed_file(tmp_path):
    toml = _saved_with_bom(tmp_path / "arena.toml", '[players.mine]\nsource = "bot.py"\n')
    assert read_config(toml) == {"players": {"mine": {"source": "bot.py"}}}
    assert read_seeds(str(_saved_with_bom(tmp_path / "seeds.txt", "5\n6\n"))) == [5, 6]


def test_a_puzzle_file_and_a_solver_s_input(tmp_path):
    puzzles = _saved_with_bom(tmp_path / "puzzles.txt", PUZZLE)
    judged = run("referee.cli", "coroutine", "judge", str(puzzles), "python -m bots.coroutine.solver")
    assert judged.returncode == 0 and "1 puzzle: 1 solved" in judged.stdout, judged.stderr
    solved = run("bots.coroutine.solver", input=BOM + PUZZLE)
    assert solved.returncode == 0 and solved.stdout.strip() and not solved.stderr, solved.stderr


def test_a_stormy_seas_card_file_to_show(tmp_path):
    """The judge read it; `show` counted the mark as a tenth character of the first line."""
    cards = (ROOT / "tests" / "data" / "stormyseas" / "cards.txt").read_text().splitlines()[:8]
    shown = run("referee.cli", "stormyseas", "show", str(_saved_with_bom(tmp_path / "c.txt", "\n".join(cards) + "\n")))
    assert shown.returncode == 0 and not shown.stderr, shown.stderr


def test_a_module_of_a_bot_to_bundle(tmp_path):
    """Python runs a module that begins with the mark; the bundler refused it (U+FEFF, line 1)."""
    (tmp_path / "main.py").write_text("from helper import f\nprint(f())\n")
    _saved_with_bom(tmp_path / "helper.py", "def f():\n    return 42\n")
    out = tmp_path / "bundled.py"
    assert run("arena.cli", "bundle", str(tmp_path / "main.py"), "-o", str(out)).returncode == 0
    assert run_file(out).stdout == "42\n"


def run_file(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=60)
