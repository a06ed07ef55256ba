"""The house of docs/architecture.md, held against the code: every module of the three packages lives
in one room, rooms stand on floors, and imports point down. Read from the import statements of every
module (an AST walk, imports inside functions included):

- no import runs back up: a module imports modules of its own room or of rooms on lower floors, never
  a room above, nor another room of its own floor;
- no circle: no module imports, however indirectly, a module that imports it back;
- an import inside a function says why on its line or the line above (a heavy or optional
  dependency: numba, Ray, pydantic), and above `arena/games/` no module names a game.

The floors are read from the doc's `floors` block, so that the picture and the code cannot drift apart.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("referee", "bots", "arena")
ARCHITECTURE = ROOT / "docs" / "architecture.md"


def floors() -> list[list[str]]:
    """The doc's floors, lowest first, each a list of rooms (module prefixes)."""
    block = re.search(r"```floors\n(.*?)```", ARCHITECTURE.read_text(encoding="utf-8"), re.S)
    assert block, f"{ARCHITECTURE} has no ```floors block"
    lines = [line.split("#", 1)[0].split() for line in block.group(1).splitlines()]
    return [rooms for rooms in reversed(lines) if rooms]


def modules() -> dict[str, Path]:
    """Every module of the packages by its dotted name (a package by its own name); the three packages'
    own `__init__` modules, which define nothing, are no room's."""
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
            if name not in PACKAGES:
                found[name] = path
    return found


MODULES = modules()


def imports(name: str, path: Path) -> list[tuple[str, int, bool]]:
    """(module imported, line, inside a function) for each import of a project module in `path`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    in_function = {
        id(node)
        for function in ast.walk(tree)
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
        for node in ast.walk(function)
    }
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            # `from X import Y` imports X, or X.Y where Y is a module
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]
        for target in targets:
            if target in MODULES and target != name:
                found.append((target, node.lineno, id(node) in in_function))
    return found


GRAPH = {name: imports(name, path) for name, path in MODULES.items()}


def room_of(name: str, rooms: list[str]) -> str | None:
    """The room of module `name`: the longest room that is it or a package above it."""
    matching = [room for room in rooms if name == room or name.startswith(room + ".")]
    return max(matching, key=len) if matching else None


def test_every_module_lives_in_a_room_of_the_house():
    rooms = [room for floor in floors() for room in floor]
    assert len(rooms) == len(set(rooms)), "a room on two floors"
    assert [name for name in sorted(MODULES) if room_of(name, rooms) is None] == []


def test_no_import_runs_back_up_nor_across_a_floor():
    level = {room: i for i, floor in enumerate(floors()) for room in floor}
    rooms = list(level)
    wrong = []
    for name, found in GRAPH.items():
        mine = room_of(name, rooms)
        for target, line, _ in found:
            theirs = room_of(target, rooms)
            if theirs != mine and level[theirs] >= level[mine]:
                where = "up" if level[theirs] > level[mine] else "across"
                wrong.append(f"{MODULES[name].relative_to(ROOT)}:{line} imports {target} ({where}: {theirs})")
    assert wrong == []


def circles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w, _, _ in GRAPH[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    return found


def test_no_module_imports_itself_through_others():
    assert circles() == []


def test_a_circle_is_seen():
    """The check itself: two modules that import each other are a circle."""
    GRAPH["arena.errors"].append(("arena.games.base", 1, False))
    try:
        assert ["arena.errors", "arena.games.base"] in circles()
    finally:
        GRAPH["arena.errors"].pop()


def test_an_import_inside_a_function_says_why():
    unexplained = []
    for path in MODULES.values():
        lines = path.read_text(encoding="utf-8").splitlines()
        tree = ast.parse("\n".join(lines))
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.Import | ast.ImportFrom):
                    first = node.lineno - 1  # a block of imports says why once, above it or in it
                    while (
                        first > 0
                        and lines[first - 1].strip().startswith(("import ", "from ", "#"))
                        or (first > 0 and not lines[first - 1].strip())
                    ):
                        first -= 1
                    said = "".join(lines[max(first - 1, 0) : node.end_lineno])
                    if "#" not in said:
                        unexplained.append(f"{path.relative_to(ROOT)}:{node.lineno}: {lines[node.lineno - 1].strip()}")
    assert sorted(set(unexplained)) == []


# Above arena/games/, no module knows which game it runs: the game contract, the protocols' table and
# the game's configuration are all it reads of games (a game's own players are its provider's).
GAME_AGNOSTIC = ("arena.play", "arena.stats", "arena.web")
GAME_CONTRACT = ("arena.games.base", "arena.games.protocols", "arena.games.config")


@pytest.mark.parametrize("room", GAME_AGNOSTIC)
def test_no_module_above_the_games_knows_which_game_it_runs(room):
    wrong = {
        name: sorted(
            target
            for target, _, _ in found
            if target.startswith(("bots.", "referee.volcanoes", "arena.players.volcanoes"))
            or (target.startswith("arena.games.") and target not in GAME_CONTRACT)
        )
        for name, found in GRAPH.items()
        if name.startswith(room + ".")
    }
    assert {name: targets for name, targets in wrong.items() if targets} == {}
