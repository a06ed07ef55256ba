"""A user's Python bot of any game in one file (`arena bundle PATH/main.py -o submission.py`).

The bot is what `python PATH/main.py` runs: the entry file, and every module it imports (at any
depth) that Python would find in the entry's folder, modules and packages alike. They are bundled
as the project's own bots are (arena/bundle/python.py): their sources in one file, served by an import hook,
the entry run as `__main__`; the size counted in UTF-16 code units, as CodinGame counts it, and the
file compressed only when over the limit.

CodinGame's Python offers its standard library, NumPy, pandas and SciPy (docs/languages.md). A module
imported from neither the standard library nor the bot's folder is *named in a warning*, not
refused: bots often import one where it is there and do without it elsewhere (`try: import numpy
... except ImportError`), which only running the bot can tell, and `--check` runs the bundle by
`python -S`, without site-packages, so that a bundle that passes runs without them too.
numba, which CodinGame lacks, gets the project's stand-in whose decorators do nothing.

`--check` (arena/bundle/check.py) then replays turns of the bot's game to the original (`python
PATH/main.py`) and to the bundle (`python -S submission.py`, copied alone into an empty folder, so
that nothing of the bot's folder can be imported by mistake, wherever `-o` wrote it), each given
the seat's seed of the game, and compares their answers turn by turn: the turns saved by `arena
bench --record` (`--turns FILE`), or turns recorded from GAMES games of the chosen game (`--game
NAME`, `--referee CMD --protocol P`; Volcanoes by default), the bot against itself or `--opponent`.
A bot whose answers depend on time (a search with a time budget) or on unseeded randomness answers
differently in any two runs: give it a fixed budget for the check.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from arena.bundle import python as bundler

# The entry's name in the bundle, where Python runs it as a script: no module a bot imports has it (a
# main.py beside a package main/ is the script, `import main` the package).
SCRIPT = "__main__"


def is_file_bot(bot: str) -> bool:
    """Whether `arena bundle BOT` names a bot's entry file (not a project bot's name or module): a
    file's name or path (`Player.java` too, to be told what can be bundled)."""
    return bot.endswith(".py") or "/" in bot or Path(bot).is_file()


def build_file(entry: Path, compress: str = "auto", limit: int = bundler.CODE_UNITS) -> bundler.Bundle:
    """The submission of the bot whose entry file is `entry` (see the module's docstring)."""
    if compress not in bundler.COMPRESS_CHOICES:
        raise bundler.BundleError(f"compress must be one of {', '.join(bundler.COMPRESS_CHOICES)}, not {compress!r}")
    if entry.is_dir():
        hint = f" ({entry / 'main.py'})" if (entry / "main.py").is_file() else ""
        raise bundler.BundleError(f"{entry} is a folder: give its entry file{hint}")
    if not entry.is_file():
        raise bundler.BundleError(f"no bot file {entry}")
    if entry.suffix != ".py" or not entry.stem.isidentifier():
        raise bundler.BundleError(
            f"{entry}: the entry must be a Python file named as a module is (main.py, my_bot.py), or a C or C++ "
            "file (main.cpp); a bot in another language is submitted as its own file"
        )
    root = entry.resolve().parent
    modules, external = bundler.collect(SCRIPT, root, local=lambda top: _local(top, root), entry_file=entry.resolve())
    return bundler.assemble(SCRIPT, modules, external, compress, limit, title=entry.name)


def beyond_the_bundle(entry: Path, bundle: bundler.Bundle) -> list[str]:
    """What the bundled files of the bot do that the bundle cannot follow, each as `FILE reads
    __file__` (to open a data file beside it, which the bundle leaves out: CodinGame runs the
    submission alone) or `FILE imports a module by a computed name` (importlib.import_module or
    __import__ of a name known only when it runs, which reading the imports cannot find)."""
    found = []
    root = entry.resolve().parent
    for path in module_files(entry, bundle):
        if path.is_dir():
            continue
        try:
            tree = ast.parse(path.read_bytes(), filename=str(path))
        except (OSError, SyntaxError, ValueError):
            continue  # (bundled, so read once already: nothing to add about it)
        nodes = list(ast.walk(tree))
        where = path.resolve().relative_to(root)
        if any(isinstance(node, ast.Name) and node.id == "__file__" for node in nodes):
            found.append(f"{where} reads __file__")
        if any(_imports_by_a_computed_name(node) for node in nodes):
            found.append(f"{where} imports a module by a computed name")
    return found


def _imports_by_a_computed_name(node: ast.AST) -> bool:
    """Whether `node` is a call of importlib.import_module or __import__ whose name is no string literal."""
    if not isinstance(node, ast.Call) or not node.args:
        return False
    function = node.func
    called = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", None)
    literal = isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
    return called in ("import_module", "__import__") and not literal


def _local(top: str, root: Path) -> bool:
    """Whether Python imports top-level module `top` from the bot's folder `root`: a module or a
    package there; a folder without __init__.py only where no module of the standard library has its
    name (a namespace package comes after every module of its name on sys.path)."""
    path = bundler.module_file(top, root)
    return path is not None and not (path.is_dir() and top in sys.stdlib_module_names)


def module_files(entry: Path, bundle: bundler.Bundle) -> list[Path]:
    """The files of the bot's folder that `bundle` holds."""
    root = entry.resolve().parent
    files = (bundler.module_file(name, root) for name in bundle.modules if name != SCRIPT)
    return [entry, *(path for path in files if path is not None)]
