"""`arena bundle BOT -o submission.py [--check [GAMES]]`: the one file to paste into CodinGame, of one
of the project's Volcanoes bots (arena/bundle/python.py), of a user's Python bot of any game
(arena/bundle/folder.py) or of a C or C++ bot with its local includes (`arena bundle src/main.cpp -o
submission.cpp`: arena/bundle/cpp.py), then checked by playing it (arena/bundle/check.py)."""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path

from referee.platform.files import check_writable, files_named, refuse_overwriting, refuse_replacing, write_atomic
from referee.platform.limits import CODE_UNITS
from referee.platform.options import count

from arena.builds.languages import by_suffix
from arena.builds.revisions import resolve_source, split_revision
from arena.bundle import check, cpp, folder
from arena.bundle.python import COMPRESS_CHOICES, SUBMISSION_HEAD, BundleError, build, module_file
from arena.project import PROJECT_ROOT, arena_output, marked
from arena.cli.options import add_game_options, game_of, names_a_game

MAIN = re.compile(r"^\s*(?:int|void)\s+main\s*\(", re.MULTILINE)  # a C or C++ program's own entry


def register(sub) -> None:
    p = sub.add_parser("bundle", help="one self-contained Python file to submit to CodinGame", description=__doc__)
    p.add_argument(
        "bot",
        metavar="BOT",
        help="a bot name (mcts, boss, ...), a dotted module path, or a bot's entry file of any game: "
        "PATH/main.py, or a C or C++ file (main.cpp) whose local includes are merged into it",
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
        default=CODE_UNITS,
        help=f"the size limit in UTF-16 code units (default {CODE_UNITS:,})",
    )
    p.add_argument(
        "--line-markers",
        action="store_true",
        help="C and C++: #line markers in the one file, so that the compiler's messages name your files",
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
    p.add_argument(
        "--turns",
        metavar="FILE",
        help="a bot file's --check: replay the turns saved by `arena bench --record FILE` "
        "(default: record GAMES games of the chosen game)",
    )
    add_game_options(p)
    p.set_defaults(run=run_bundle)


def run_bundle(args: argparse.Namespace) -> int:
    refuse_overwriting(args.output, *files_named(args.opponent, args.turns))  # (the check's inputs)
    if args.output.endswith(("/", os.sep)):  # (Python would write a file named as the folder)
        raise BundleError(f"-o {args.output} names a folder: name the file to write")
    check_writable(args.output, "-o")
    entry = _bot_file(args.bot)
    if entry and _is_c_family(entry.name):
        return _bundle_c_family(args, entry)
    if args.line_markers:
        raise BundleError("--line-markers is for a C or C++ bot (arena bundle main.cpp -o submission.cpp)")
    if entry:
        return _bundle_file_bot(args, entry)
    if args.turns or names_a_game(args):
        raise BundleError(
            "--turns, --game and --referee check a bot file (arena bundle PATH/main.py); "
            f"{args.bot} is checked on Volcanoes against --opponent"
        )
    bundle = build(args.bot, args.compress, args.limit)
    refuse_overwriting(args.output, *filter(None, (module_file(name, PROJECT_ROOT) for name in bundle.modules)))
    _write(args.output, bundle.text)
    how = "compressed" if bundle.compressed else "not compressed"
    print(
        f"wrote {args.output}: {bundle.entry} and {len(bundle.modules) - 1} more modules, "
        f"{bundle.size:,} UTF-16 units ({how}; limit {args.limit:,})"
    )
    if bundle.external:
        print(f"imports from outside the project: {', '.join(bundle.external)}")
    if args.check:
        return check.check_submission(Path(args.output), args.check, args.opponent or "greedy")
    return 0


def _bot_file(bot: str) -> Path | None:
    """The entry file `arena bundle BOT` names, if BOT names one rather than a project bot: as it is
    in the working tree, or as a commit holds it (`bot.cpp@HEAD~1`: taken out of git)."""
    text, revision = split_revision(bot)
    if not (folder.is_file_bot(text) or by_suffix(Path(text))):
        return None
    if revision is None:
        return Path(bot)
    source = resolve_source(bot)
    print(f"{bot}: {text} as commit {source.commit[:12]} holds it")
    return source.path


def _bundle_file_bot(args: argparse.Namespace, entry: Path) -> int:
    """`arena bundle PATH/main.py -o FILE [--check [GAMES]]`."""
    checked = args.check or args.turns
    game = game_of(args) if checked and not args.turns else None  # (a mistyped game is told before writing)
    if args.turns and not Path(args.turns).is_file():
        raise BundleError(f"--turns {args.turns}: no such file (see `arena bench --record FILE`)")
    text, revision = split_revision(args.bot)
    try:
        result = folder.build_file(entry, args.compress, args.limit)
    except BundleError as exc:  # (at a commit, its messages would name the arena's copy of the commit's tree)
        if revision is None:
            raise
        raise BundleError(_as_committed(str(exc), entry.resolve().parent, Path(text).parent, revision)) from None
    output = Path(args.output)
    if output.resolve() in {path.resolve() for path in folder.module_files(entry, result)}:
        raise BundleError(f"{args.output} is a file of the bot itself: write the submission elsewhere")
    _write(args.output, result.text)
    how = "compressed" if result.compressed else "not compressed"
    print(
        f"wrote {args.output}: {args.bot} and {len(result.modules) - 1} more modules, "
        f"{result.size:,} UTF-16 units ({how}; limit {args.limit:,})"
    )
    if "numba" in result.modules:
        print("numba: bundled as a stand-in whose decorators do nothing (CodinGame has no numba)")
    if result.external:
        _warn_external(result.external, entry.resolve().parent if revision is None else Path(text).parent, revision)
    beyond = folder.beyond_the_bundle(entry, result)
    if beyond:
        print(
            f"warning: {'; '.join(beyond)}: the bundle holds the modules that the imports name, no other file, "
            "and runs alone on CodinGame (--check tells whether it plays)"
        )
    if checked:
        return check.check_file_bot(entry, output, args.check or 1, args.turns, game, args.opponent)
    return 0


def _as_committed(message: str, tree: Path, folder_shown: Path, revision: str) -> str:
    """`message` with the paths in `tree` (the arena's copy of a commit's tree) named as the user
    names them: PATH@REV."""
    message = re.sub(
        re.escape(str(tree)) + r"/([^\s,:()]+)", lambda m: f"{folder_shown / m.group(1)}@{revision}", message
    )
    return message.replace(str(tree), f"{folder_shown}@{revision}")


def _warn_external(external: list[str], folder_shown: Path, revision: str | None) -> None:
    """The warning for modules imported from neither the standard library nor the bot's folder
    (`folder_shown`, at `revision` where one was given: there, a module only in the working tree is
    one not committed)."""
    where = folder_shown if revision is None else f"{folder_shown}@{revision}"
    print(
        f"warning: imports from neither the standard library nor {where}: "
        f"{', '.join(external)} (CodinGame's Python adds NumPy, pandas and SciPy to the standard "
        "library, and nothing else: docs/languages.md; --check runs the bundle without site-packages, "
        "so that it passes only where the bot runs without them)"
    )
    uncommitted = [name for name in external if revision is not None and module_file(name, folder_shown)]
    if uncommitted:
        print(f"  {', '.join(uncommitted)}: in {folder_shown}, but not in the bot at {revision} (commit it)")


def _a_submission(text: str) -> bool:
    return text.startswith(SUBMISSION_HEAD) or marked(text)


def _a_program(path: Path) -> bool:
    """Whether C or C++ file `path` defines its own `main`: a program of its own beside the bot (a
    test, a tool), whose definitions the bot cannot be linked with."""
    try:
        return MAIN.search(path.read_text(errors="replace")) is not None
    except OSError:
        return False


def _is_c_family(bot: str) -> bool:
    language = by_suffix(Path(bot))
    return language is not None and language.key in ("c", "cpp")


def _bundle_c_family(args: argparse.Namespace, entry: Path) -> int:
    """`arena bundle src/main.cpp -o submission.cpp [--line-markers] [--check [GAMES]]`."""
    if not entry.is_file():
        raise BundleError(f"no bot file {entry}")
    if args.compress != "auto":
        raise BundleError("--compress is for Python bots: a C or C++ file is submitted as it is")
    merged = cpp.merge(entry, (entry.parent,), args.line_markers, args.limit)
    refuse_overwriting(args.output, *merged.files)
    _write(args.output, merged.text)
    print(
        f"wrote {args.output}: {args.bot} and {len(merged.files) - 1} local includes, "
        f"{merged.size:,} UTF-16 units (limit {args.limit:,})"
    )
    if merged.unresolved:
        print(f"left to the compiler (found in no local folder): {', '.join(sorted(set(merged.unresolved)))}")
    merged_in = {path.resolve() for path in merged.files}
    written = Path(args.output).resolve()
    left_out = sorted(  # (not the file written, nor another bundle: the arena's own outputs, nor a program)
        path.name
        for path in entry.resolve().parent.iterdir()
        if _is_c_family(path.name)
        and path.resolve() not in merged_in
        and path.resolve() != written
        and not arena_output(path)
        and not _a_program(path)
    )
    if left_out:  # (their definitions are not in the file: it builds only if the bot needs none of them)
        print(
            f"warning: not in the file, for only what {entry.name} includes is merged: {', '.join(left_out)} "
            "(a function defined there does not link; --check builds and plays the file)"
        )
    if args.check or args.turns:
        game = None if args.turns else game_of(args)
        return check.check_built_bot(args.bot, Path(args.output), args.check or 1, args.turns, game, args.opponent)
    return 0


def _write(path: str, text: str) -> None:
    """The submission, written whole; never over a file that is none (a bot's module), though over
    an earlier submission."""
    refuse_replacing(path, "a submission of arena bundle", _a_submission)
    try:
        write_atomic(path, text)
    except OSError as exc:
        raise BundleError(f"cannot write {path}: {exc.strerror or exc}") from None
