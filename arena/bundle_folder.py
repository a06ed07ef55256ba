"""`arena bundle PATH/main.py -o submission.py`: a user's Python bot of any game, in one file.

The bot is what `python PATH/main.py` runs: the entry file, and every module it imports (at any
depth) that Python would find in the entry's folder, modules and packages alike. They are bundled
as the project's own bots are (arena/bundle.py): their sources in one file, served by an import hook,
the entry run as `__main__`; the size counted in UTF-16 code units, as CodinGame counts it, and the
file compressed only when over the limit.

CodinGame runs a submission with Python's standard library alone. A module imported from neither
the standard library nor the bot's folder is *named in a warning*, not refused: bots often import
one where it is there and do without it elsewhere (`try: import numpy ... except ImportError`), which
only running the bot can tell, and `--check` runs the bundle by `python -S`, without site-packages.
numba, which CodinGame lacks, gets the project's stand-in whose decorators do nothing.

`--check` then replays turns of the bot's game to the original (`python PATH/main.py`) and to the
bundle (`python -S submission.py`, from an empty folder, so that nothing of the bot's folder can be
imported by mistake), each given the seat's seed of the game, and compares their answers turn by
turn: the turns saved by `arena bench --record` (`--turns FILE`), or turns recorded from GAMES
games of the chosen game (`--game NAME`, `--referee CMD --protocol P`; Volcanoes by default), the
bot against itself or `--opponent`. A bot whose answers depend on time (a search with a time budget)
or on unseeded randomness answers differently in any two runs: give it a fixed budget for the check.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from referee.files import write_atomic

from arena import bundle as bundler
from arena.bench import transcripts
from arena.games.base import Player

CHECK_SEED = 1  # the recorded games' seeds derive from it


def is_file_bot(bot: str) -> bool:
    """Whether `arena bundle BOT` names a bot's entry file (not a project bot's name or module)."""
    return bot.endswith(".py") or "/" in bot


def build_file(entry: Path, compress: str = "auto", limit: int = bundler.CODINGAME_LIMIT) -> bundler.Bundle:
    """The submission of the bot whose entry file is `entry` (see the module's docstring)."""
    if compress not in bundler.COMPRESS_CHOICES:
        raise bundler.BundleError(f"compress must be one of {', '.join(bundler.COMPRESS_CHOICES)}, not {compress!r}")
    if not entry.is_file():
        raise bundler.BundleError(f"no bot file {entry}")
    if entry.suffix != ".py" or not entry.stem.isidentifier():
        raise bundler.BundleError(f"{entry}: the entry must be a Python file named as a module is (main.py, my_bot.py)")
    root = entry.resolve().parent
    modules, external = bundler.collect(entry.stem, root, local=lambda top: bundler._module_file(top, root) is not None)
    return bundler.assemble(entry.stem, modules, external, compress, limit)


def module_files(entry: Path, bundle: bundler.Bundle) -> list[Path]:
    """The files of the bot's folder that `bundle` holds."""
    root = entry.resolve().parent
    files = (bundler._module_file(name, root) for name in bundle.modules)
    return [path for path in files if path is not None]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """`arena bundle`'s options for a bot file's --check: saved turns, or the game to record."""
    from arena.cli import _game_options  # (arena.cli imports arena.bundle: it is loaded by now)

    p.add_argument(
        "--turns",
        metavar="FILE",
        help="a bot file's --check: replay the turns saved by `arena bench --record FILE` "
        "(default: record GAMES games of the chosen game)",
    )
    _game_options(p)


def refuse_file_options(args: argparse.Namespace) -> None:
    """For a project bot (`arena bundle NAME`): the options of a bot file's --check are a mistake."""
    given = args.turns or args.game or args.referee or args.protocol
    if given:
        raise bundler.BundleError(
            "--turns, --game and --referee check a bot file (arena bundle PATH/main.py); "
            f"{args.bot} is checked on Volcanoes against --opponent"
        )


def run(args: argparse.Namespace) -> int:
    """`arena bundle PATH/main.py -o FILE [--check [GAMES]]`."""
    entry = Path(args.bot)
    result = build_file(entry, args.compress, args.limit)
    output = Path(args.output)
    if output.resolve() in {path.resolve() for path in module_files(entry, result)}:
        raise bundler.BundleError(f"{args.output} is a file of the bot itself: write the submission elsewhere")
    try:
        write_atomic(output, result.text)
    except OSError as exc:
        raise bundler.BundleError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    how = "compressed" if result.compressed else "not compressed"
    print(
        f"wrote {args.output}: {entry} and {len(result.modules) - 1} more modules, "
        f"{result.size:,} UTF-16 units ({how}; limit {args.limit:,})"
    )
    if "numba" in result.modules:
        print("numba: bundled as a stand-in whose decorators do nothing (CodinGame has no numba)")
    if result.external:
        print(
            f"warning: imports from neither the standard library nor {entry.resolve().parent}: "
            f"{', '.join(result.external)} (CodinGame offers the standard library alone; --check runs "
            "the bundle without site-packages)"
        )
    if args.check or args.turns:
        return check(entry, output, args)
    return 0


def check(entry: Path, output: Path, args: argparse.Namespace) -> int:
    """Replay turns to the original and to the bundle and compare their answers: 0 if the bundle
    answered every turn as the original did, 1 if not."""
    original = f"{sys.executable} {entry.resolve()}"
    scripts, recorded_by_original = _turns(args, original)
    bundled = f"{sys.executable} -S {output.resolve()}"
    turns = sum(len(t.turns) for t in scripts)
    first_ms, later_ms = [], []
    with tempfile.TemporaryDirectory(prefix="caldera-bundle-check-") as empty:
        for script in scripts:
            theirs = transcripts.replay(original, script, first_s=30.0, turn_s=10.0)
            try:
                ours = transcripts.replay(bundled, script, cwd=empty, first_s=30.0, turn_s=10.0)
            except transcripts.TranscriptError as exc:
                print(f"check: the bundle failed: {exc}")
                return 1
            first_ms.append(ours.first_s * 1000)
            later_ms += [s * 1000 for s in ours.later_s]
            for i, (a, b) in enumerate(zip(theirs.answers, ours.answers, strict=True)):
                if a != b:
                    print(
                        f"check: on {script.where(i)} the bundle answered {_text(b)}, the original {_text(a)} "
                        f"({turns} turns of {len(scripts)} transcript(s))"
                    )
                    recorded = tuple(turn.answer for turn in script.turns)
                    if recorded_by_original and tuple(theirs.answers) != recorded:
                        print(
                            "  the original itself answers otherwise than in its recorded game: its answers "
                            "depend on time or on unseeded randomness (give it a fixed budget for the check)"
                        )
                    return 1
    later_ms.sort()
    print(
        f"check: the bundle (by `python -S`, from an empty folder) answered all {turns} turns of "
        f"{len(scripts)} transcript(s) as the original did; first answer max {max(first_ms):.0f} ms; "
        f"later turns median {later_ms[len(later_ms) // 2] if later_ms else 0:.1f} ms, "
        f"max {max(later_ms, default=0):.1f} ms"
    )
    return 0


def _turns(args: argparse.Namespace, original: str) -> tuple[list[transcripts.Transcript], bool]:
    """The transcripts to check on, and whether the original's answers are in them (recorded now)."""
    if args.turns:
        return transcripts.load(args.turns), False
    from arena.bench.timing import bot_command
    from arena.cli import _game

    game = _game(args)
    bot = Player(Path(args.bot).stem, args.bot, "command", original, "check")
    opponent = None
    if args.opponent:  # a game's own bot runs as a process: recorded games need processes
        command, cwd = bot_command(args.opponent, game)
        opponent = Player(args.opponent, args.opponent, "command", command, "check", cwd)
    games = args.check or 1
    print(f"check: recording {games} game(s) of {game.name} ...", file=sys.stderr, flush=True)
    return transcripts.record_games(game, bot, opponent, games, CHECK_SEED), True


def _text(answer: tuple[str, ...]) -> str:
    return repr(answer[0][:60]) if len(answer) == 1 else repr([line[:60] for line in answer])
