"""One direction of dependency: arena uses bots and referee, bots uses referee, referee uses neither
(docs: ARCHITECTURE). Checked on the import statements of every module, lazy ones included."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = {"referee": {"bots", "arena"}, "bots": {"arena"}}


def imported_packages(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_a_package_imports_nothing_above_it(package):
    wrong = {
        str(path.relative_to(ROOT)): sorted(imported_packages(path) & FORBIDDEN[package])
        for path in (ROOT / package).rglob("*.py")
    }
    assert {path: names for path, names in wrong.items() if names} == {}


# Above arena/games/, no module knows which game it runs: the game contract (arena/games/base.py)
# and the game's configuration (arena/games/config.py) are all it reads of games.
GAME_AGNOSTIC = ("arena/play", "arena/stats", "arena/web")


def imported_modules(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return found


@pytest.mark.parametrize("folder", GAME_AGNOSTIC)
def test_no_module_above_the_games_knows_which_game_it_runs(folder):
    def game_specific(module: str) -> bool:
        # (`import bots` alone ships the project's packages to Ray; a bot's module is game-specific)
        if module.startswith(("bots.", "referee.volcanoes")):
            return True
        return module.startswith("arena.games.") and module not in ("arena.games.base", "arena.games.config")

    wrong = {
        str(path.relative_to(ROOT)): sorted(m for m in imported_modules(path) if game_specific(m))
        for path in (ROOT / folder).rglob("*.py")
    }
    assert {path: names for path, names in wrong.items() if names} == {}
