"""`arena bundle BOT -o submission.py`: one self-contained Python file for CodinGame's judge.

The bundler follows the bot module's imports (read with `ast`, never executed) through the
project's packages, puts each module's source in one file, and has that file install an import
hook that serves those sources, then run the bot module as `__main__`. Python's import system thus
orders the modules itself, relative imports work, and tracebacks name the original files.

What is bundled for a bot NAME: `bots.volcanoes.pure.NAME` when that pure-Python version exists
(CodinGame has no numba, and numpy-elementwise kernels are slow without it), else
`bots.volcanoes.NAME`; a dotted module path is taken as it is. So `arena bundle mcts` submits the
pure-Python MCTS. A bundled module that imports numba gets a stand-in whose decorators return the
function unchanged, so the bundle never needs numba (nor uses it where it is installed).

CodinGame counts a submission in UTF-16 code units and accepts at most 100,000; a bundle over the
limit is compressed (zlib, then base85 in a string literal) and unpacks itself when run.

A user's bot of any game, given by its entry file (`arena bundle PATH/main.py`), is bundled with
the modules of its own folder: see arena/bundle_folder.py.
"""

from __future__ import annotations

import argparse
import ast
import base64
import re
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path

from referee.platform.errors import CommandParser, run_command
from referee.platform.files import refuse_overwriting, write_atomic
from referee.platform.options import count

from arena.errors import UsageError

PROJECT_ROOT = Path(__file__).resolve().parent.parent
PROJECT_PACKAGES = ("referee", "bots", "arena")
CODINGAME_LIMIT = 100_000
COMPRESS_CHOICES = ("auto", "always", "never")
# Data that only the bundle of the bot that plays from it carries, module -> that bot's module. The
# pure engine's opening book (some 20,000 UTF-16 units that compress badly) would put a numba bot's
# bundle over the limit; there the pure engine is only the stand-in that plays while the engine
# loads, and `book` plays on without its tables.
OWN_BUNDLE_ONLY = {"bots.volcanoes.pure.opening_book": "bots.volcanoes.pure.mcts"}

NUMBA_STAND_IN = '''"""numba's decorators as no-ops (and prange as range): this bundle runs without numba."""


def njit(*args, **kwargs):
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return args[0]
    return lambda function: function


jit = njit
prange = range
'''

_LOADER = '''
import importlib.abc
import importlib.util
import linecache
import sys


class _BundledModules(importlib.abc.MetaPathFinder, importlib.abc.InspectLoader):
    """Serves the modules above from their sources, ahead of anything installed."""

    def find_spec(self, name, path=None, target=None):
        if name in _MODULES:
            return importlib.util.spec_from_loader(name, self, is_package=_MODULES[name][0])
        return None

    def is_package(self, name):
        return _MODULES[name][0]

    def get_source(self, name):
        return _MODULES[name][1]

    def get_code(self, name):
        is_package, source = _MODULES[name]
        filename = "bundle:" + name.replace(".", "/") + ("/__init__.py" if is_package else ".py")
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        return compile(source, filename, "exec", dont_inherit=True)


sys.meta_path.insert(0, _BundledModules())
'''


class BundleError(UsageError, ValueError):
    """The bot cannot be bundled: unknown module, unreadable source, or too large."""


@dataclass
class Bundle:
    entry: str  # the bot module run as __main__
    modules: list[str]  # bundled modules, in the file's order (shims included)
    external: list[str]  # top-level packages imported from outside the project
    text: str  # the submission
    compressed: bool

    @property
    def size(self) -> int:
        return utf16_units(self.text)


def utf16_units(text: str) -> int:
    """The length of `text` as CodinGame counts it: UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


_MODULE_PATH = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", re.ASCII)
_RUNS_AS_SCRIPT = re.compile(r"^if __name__ == [\"']__main__[\"']:", re.MULTILINE)


def resolve_bot(bot: str, root: Path = PROJECT_ROOT) -> str:
    """The module to bundle for a bot name (see the module docstring) or a dotted module path: a
    module (not a package) that runs as a program, else a BundleError saying why (a bundle of
    anything else would be a file that cannot play)."""
    if not _MODULE_PATH.fullmatch(bot):
        raise BundleError(f"{bot!r} is neither a bot name (see `arena bots`) nor a dotted module path")
    if "." in bot:
        candidates = [bot]
    else:
        candidates = [f"bots.volcanoes.pure.{bot}", f"bots.volcanoes.{bot}"]
    for name in candidates:
        path = _module_file(name, root)
        if path is None:
            continue
        if path.name == "__init__.py":
            raise BundleError(f"{name} is a package, not a bot's module (see `arena bots`)")
        if not _RUNS_AS_SCRIPT.search(path.read_text(encoding="utf-8", errors="replace")):
            raise BundleError(f'{name} does not run as a program (it has no `if __name__ == "__main__":`)')
        return name
    raise BundleError(f"no bot module {' or '.join(candidates)} in {root}")


def _module_file(name: str, root: Path) -> Path | None:
    path = root.joinpath(*name.split("."))
    if path.with_suffix(".py").is_file():
        return path.with_suffix(".py")
    if (path / "__init__.py").is_file():
        return path / "__init__.py"
    return None


def _imported_names(tree: ast.AST, name: str, is_package: bool) -> set[str]:
    """Every absolute module name an import statement in the tree may refer to (a `from X import Y`
    gives X and X.Y, for Y may be a submodule)."""
    package = name if is_package else name.rpartition(".")[0]
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                if node.level - 1 >= len(parts):
                    raise BundleError(f"{name}: a relative import goes above the top package")
                base = ".".join(parts[: len(parts) - (node.level - 1)])
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


# path -> (its modification time and size, its source, the names its imports may refer to), per
# module name: the arena versions a player by the modules it imports at every iteration of a tune.
_PARSED: dict[tuple[Path, str], tuple[tuple[int, int], str, frozenset[str]]] = {}


def _parsed(path: Path, name: str, is_package: bool) -> tuple[str, frozenset[str]]:
    """Module `name`'s source at `path` and the names its imports may refer to, read again only
    when the file has changed."""
    try:
        stat = path.stat()
        stamp = (stat.st_mtime_ns, stat.st_size)
        cached = _PARSED.get((path, name))
        if cached is not None and cached[0] == stamp:
            return cached[1], cached[2]
        source = path.read_text(encoding="utf-8")
        imports = frozenset(_imported_names(ast.parse(source, filename=str(path)), name, is_package))
    except (OSError, UnicodeDecodeError, SyntaxError) as exc:
        raise BundleError(f"cannot read {path}: {exc}") from exc
    _PARSED[(path, name)] = (stamp, source, imports)
    return source, imports


def collect(
    entry: str, root: Path = PROJECT_ROOT, local=lambda top: top in PROJECT_PACKAGES
) -> tuple[dict[str, tuple[bool, str]], list[str]]:
    """The modules `entry` needs from `root`, with their parent packages: {name: (is_package,
    source)}, sorted by name; and the external top-level packages they import. `local(top)` says
    whether a top-level name is bundled from `root` (default: the project's packages)."""
    found: dict[str, tuple[bool, str]] = {}
    external: set[str] = set()
    pending = [entry]
    while pending:
        name = pending.pop()
        if name in found:
            continue
        path = _module_file(name, root)
        if path is None:
            raise BundleError(f"cannot find module {name} in {root}")
        is_package = path.name == "__init__.py"
        source, imports = _parsed(path, name, is_package)
        found[name] = (is_package, source)
        parts = name.split(".")
        pending += [".".join(parts[:i]) for i in range(1, len(parts))]  # parent packages
        for imported in imports:
            top = imported.partition(".")[0]
            if local(top):
                if _module_file(imported, root) is not None:
                    pending.append(imported)
            elif top != "__future__" and top not in sys.stdlib_module_names:
                external.add(top)
    return dict(sorted(found.items())), sorted(external)


def _literal(source: str) -> str:
    """A string literal for a module's source: a raw triple-quoted string where that reproduces it
    exactly (readable on the judge's page), else repr."""
    for quote in ('"""', "'''"):
        literal = f"r{quote}{source}{quote}"
        if quote not in source and not source.endswith("\\"):
            try:
                if ast.literal_eval(literal) == source:
                    return literal
            except (SyntaxError, ValueError):
                pass
    return repr(source)


def without_docstrings(source: str) -> str:
    """`source` with every docstring (a module's, class's or function's first string) made empty,
    each module's lines where they were: a bundle needs the code, not the prose, and a traceback on
    the judge's page still names the original line."""
    tree = ast.parse(source)
    spans = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                spans.append(first.value)
    lines = [line.encode() for line in source.splitlines(keepends=True)]
    for node in sorted(spans, key=lambda n: (n.lineno, n.col_offset), reverse=True):  # offsets are UTF-8 bytes
        start, end = node.lineno - 1, node.end_lineno - 1
        head, tail = lines[start][: node.col_offset], lines[end][node.end_col_offset :]
        lines[start : end + 1] = [head + b'""' + b"\n" * (end - start) + tail]
    return b"".join(lines).decode()


def _plain(entry: str, modules: dict[str, tuple[bool, str]]) -> str:
    lines = [
        f"# A CodinGame submission made by `arena bundle` from {entry}: the modules below are served",
        "# by an import hook, then the bot runs as __main__.",
        "_MODULES = {}",
    ]
    for name, (is_package, source) in modules.items():
        lines.append(f"_MODULES[{name!r}] = ({is_package}, {_literal(without_docstrings(source))})")
    lines.append(_LOADER)
    lines.append('if __name__ == "__main__":')
    lines.append("    import runpy")
    lines.append("")
    lines.append(f'    runpy.run_module({entry!r}, run_name="__main__", alter_sys=True)')
    return "\n".join(lines) + "\n"


def _compressed(text: str) -> str:
    packed = base64.b85encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii")
    return (
        "# A CodinGame submission made by `arena bundle`, compressed: zlib, then base85.\n"
        "import base64, zlib\n"
        f'exec(zlib.decompress(base64.b85decode({packed!r})).decode("utf-8"))\n'
    )


def build(bot: str, compress: str = "auto", limit: int = CODINGAME_LIMIT, root: Path = PROJECT_ROOT) -> Bundle:
    """The submission for `bot` (a bot name or a module path). `compress` is "auto" (only when the
    plain file is over `limit`), "always" or "never". Raises BundleError when the result is over
    `limit` UTF-16 units."""
    if compress not in COMPRESS_CHOICES:
        raise BundleError(f"compress must be one of {', '.join(COMPRESS_CHOICES)}, not {compress!r}")
    entry = resolve_bot(bot, root)
    modules, external = collect(entry, root)
    for name, owner in OWN_BUNDLE_ONLY.items():
        if owner != entry:
            modules.pop(name, None)
    return assemble(entry, modules, external, compress, limit)


def assemble(
    entry: str, modules: dict[str, tuple[bool, str]], external: list[str], compress: str, limit: int
) -> Bundle:
    """The submission that serves `modules` and runs `entry` as __main__ (see `build`)."""
    if "numba" in external:
        modules["numba"] = (True, NUMBA_STAND_IN)
        external.remove("numba")
    text = _plain(entry, modules)
    compressed = compress == "always" or (compress == "auto" and utf16_units(text) > limit)
    if compressed:
        text = _compressed(text)
    bundle = Bundle(entry, list(modules), external, text, compressed)
    if bundle.size > limit:
        how = "compressed" if compressed else "uncompressed (try --compress auto)"
        raise BundleError(f"the bundle of {entry} is {bundle.size:,} UTF-16 units {how}, over the limit of {limit:,}")
    return bundle


def register(subparsers) -> None:
    """Add `bundle` to the `arena` command's subcommands."""
    p = subparsers.add_parser(
        "bundle", help="one self-contained Python file to submit to CodinGame", description=__doc__
    )
    _add_arguments(p)


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "bot",
        metavar="BOT",
        help="a bot name (mcts, boss, ...), a dotted module path, or a bot's entry file (PATH/main.py) of any game",
    )
    p.add_argument("-o", "--output", metavar="FILE", required=True, help="where to write the submission")
    p.add_argument(
        "--compress",
        choices=COMPRESS_CHOICES,
        default="auto",
        help="zlib + base85: only when over the limit (auto, default), always or never",
    )
    p.add_argument(
        "--limit",
        type=count(1),
        default=CODINGAME_LIMIT,
        help=f"the size limit in UTF-16 code units (default {CODINGAME_LIMIT:,})",
    )
    p.add_argument(
        "--check",
        type=count(1),
        nargs="?",
        const=4,
        default=0,
        metavar="GAMES",
        help="then play GAMES games (default 4) of the written file, run by `python -S` through "
        "the referee at CodinGame's limits, and print its first answer and worst turn; "
        "exit status 1 if it forfeits one. For a bot file: record GAMES games of its game and "
        "replay their turns to the written file and to the original; exit status 1 if an answer differs",
    )
    p.add_argument(
        "--opponent",
        metavar="PLAYER",
        help="the opponent of --check: for a registered bot, a registered bot with options (NAME:OPT=VALUE) "
        "played in this process or a command line (default greedy); for a bot's file, a player of the chosen game",
    )
    from arena import bundle_folder  # (it imports this module)

    bundle_folder.add_arguments(p)
    p.set_defaults(run=run_bundle)


def run_bundle(args: argparse.Namespace) -> int:
    from arena import bundle_folder

    if bundle_folder.is_file_bot(args.bot):
        return bundle_folder.run(args)
    bundle_folder.refuse_file_options(args)
    bundle = build(args.bot, args.compress, args.limit)
    refuse_overwriting(args.output, *filter(None, (_module_file(name, PROJECT_ROOT) for name in bundle.modules)))
    try:
        write_atomic(args.output, bundle.text)
    except OSError as exc:
        raise BundleError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    how = "compressed" if bundle.compressed else "not compressed"
    print(
        f"wrote {args.output}: {bundle.entry} and {len(bundle.modules) - 1} more modules, "
        f"{bundle.size:,} UTF-16 units ({how}; limit {args.limit:,})"
    )
    if bundle.external:
        print(f"imports from outside the project: {', '.join(bundle.external)}")
    if args.check:
        return check(Path(args.output), args.check, args.opponent or "greedy")
    return 0


def check(path: Path, games: int, opponent: str) -> int:
    """Play `games` games of the submission at `path` (by `python -S`, as a process, through the
    referee at CodinGame's limits) against `opponent`, seats alternating; print what a judge we
    cannot see would care about. 1 if it forfeited a game, else 0."""
    from referee.platform.process import BotProcess
    from referee.volcanoes.match import Settings, play_game

    settings = Settings()
    new_seat = _opponent(opponent, settings)
    first, later, forfeits, wins = [], [], [], 0
    for game in range(games):
        ours = "blue" if game % 2 == 0 else "orange"
        with BotProcess([sys.executable, "-S", str(path)]) as submission:
            seat, limits = new_seat(game)
            try:
                blue, orange = (submission, seat) if ours == "blue" else (seat, submission)
                own = (None, limits) if ours == "blue" else (limits, None)
                result = play_game(blue, orange, seed=game, settings=settings, limits=own)
            finally:
                seat.close()
        times = [t.time_ms for t in result.turn_log if t.actor == ours and t.time_ms is not None]
        first += times[:1]
        later += times[1:]
        wins += result.winner == ours
        if result.winner not in (ours, "draw") and result.reason in ("timeout", "invalid", "crash"):
            forfeits.append(f"game {game + 1}: {result.reason} ({result.detail})")
    later.sort()
    print(
        f"check: {games} games against {opponent} as a process under `python -S`: {wins} won; "
        f"first answer max {max(first, default=0):.0f} ms; later turns median "
        f"{later[len(later) // 2] if later else 0:.0f} ms, max {max(later, default=0):.0f} ms; "
        f"{len(forfeits)} forfeits"
    )
    for line in forfeits:
        print("  " + line)
    return 1 if forfeits else 0


def _opponent(opponent: str, settings):
    """A function: game number -> (a new seat for `opponent`, its limits or None), the opponent
    prepared before any clock runs. A registered bot (`NAME:OPTIONS`) plays in this process under
    its own limits, any other command as a process."""
    from bots.volcanoes import registry
    from bots.volcanoes.bot import load
    from bots.volcanoes.seat import open_seat
    from referee.platform.process import BotProcess, BotStartError, warm_up

    from arena.play.players import split_label

    opponent = split_label(opponent)[1]  # `LABEL=SPEC` as everywhere in the arena: the label names nothing here
    if opponent.partition(":")[0] in registry.BOTS:
        try:
            spec = registry.parse(opponent)
        except ValueError as exc:
            raise UsageError(f"--opponent {opponent!r}: {exc}") from None
        load(spec.make())  # its kernels, compiled or loaded now
        limits = settings.limits(spec.turn_ms)
        return lambda game: (open_seat(spec.make(seed=game), limits), limits)
    try:
        warm_up(opponent)
        BotProcess(opponent).close()  # (a command that cannot start is the user's to fix, in one line)
    except BotStartError as exc:
        raise UsageError(f"--opponent {opponent!r} cannot play: {exc}") from None
    return lambda game: (BotProcess(opponent), None)


if __name__ == "__main__":
    parser = CommandParser(prog="python -m arena.bundle", description=__doc__)
    _add_arguments(parser)
    sys.exit(run_command(parser.parse_args()))
