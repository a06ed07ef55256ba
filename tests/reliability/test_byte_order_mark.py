"""A text file a Windows editor saved begins with a byte order mark (U+FEFF): arena.toml, a seed
file, a puzzle file and a solver's input so saved are read as their text, not refused at their first
character."""

from __future__ import annotations

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
    assert judged.returncode == 0 and "1 puzzles: 1 solved" in judged.stdout, judged.stderr
    solved = run("bots.coroutine.solver", input=BOM + PUZZLE)
    assert solved.returncode == 0 and solved.stdout.strip() and not solved.stderr, solved.stderr
