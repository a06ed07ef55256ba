"""`python -m arena.builds`: build a bot as CodinGame builds it, merge a C or C++ bot into one file,
or show CodinGame's languages.

    python -m arena.builds build SPEC [--build CMD --run CMD]   (SPEC: a file or folder, PATH@REV)
    python -m arena.builds merge FILE -o OUT [--line-markers]
    python -m arena.builds languages
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from referee.files import write_atomic

from arena.builds import includes, languages
from arena.builds.build import build
from arena.bundle import CODINGAME_LIMIT
from arena.errors import UsageError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m arena.builds", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    made = commands.add_parser("build", help="build a bot (or find it built) and print how it runs")
    made.add_argument("spec", metavar="SPEC", help="a bot's file or folder, PATH@REV for a git revision")
    made.add_argument("--build", metavar="CMD", help="the build command, run in a copy of the sources")
    made.add_argument("--run", metavar="CMD", help="the command that runs the bot, in that copy")
    merged = commands.add_parser("merge", help="a C or C++ bot's local includes merged into one file")
    merged.add_argument("file", type=Path, metavar="FILE")
    merged.add_argument("-o", "--output", type=Path, required=True, metavar="OUT")
    merged.add_argument("--line-markers", action="store_true", help="#line markers naming the original files")
    merged.add_argument("--limit", type=int, default=CODINGAME_LIMIT, help="the size limit in UTF-16 code units")
    commands.add_parser("languages", help="CodinGame's languages and whether this machine builds each")
    args = parser.parse_args(argv)
    try:
        return {"build": _build, "merge": _merge, "languages": _languages}[args.command](args)
    except UsageError as exc:
        print(f"python -m arena.builds {args.command}: {exc}", file=sys.stderr)
        return 2


def _build(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    made = build(args.spec, build_command=args.build, run_command=args.run)
    how = "found in the cache" if made.reused else f"built in {time.perf_counter() - started:.1f} s"
    print(f"{args.spec}: {how}, version {made.version}" + (f", commit {made.revision}" if made.revision else ""))
    print(f"run: {made.command}")
    print(f"in: {made.cwd}")
    return 0


def _merge(args: argparse.Namespace) -> int:
    if args.output.exists() and args.output.resolve() == args.file.resolve():
        raise UsageError(f"{args.output} is the bot's own file: write the submission elsewhere")
    merged = includes.merge(args.file, (args.file.parent,), args.line_markers, args.limit)
    if args.output.resolve() in merged.files:
        raise UsageError(f"{args.output} is one of the bot's files: write the submission elsewhere")
    write_atomic(args.output, merged.text)
    print(f"wrote {args.output}: {len(merged.files)} files, {merged.size:,} UTF-16 units (limit {args.limit:,})")
    if merged.unresolved:
        print(f"left to the compiler (found in no local folder): {', '.join(sorted(set(merged.unresolved)))}")
    return 0


def _languages(args: argparse.Namespace) -> int:
    for language in languages.LANGUAGES:
        why = languages.missing(language) if language.built else "not built by the arena: declare build and run"
        print(f"{language.name:12} {language.codingame:40.40} {why or 'builds here'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
