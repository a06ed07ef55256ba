"""CodinGame's languages, one table: what CodinGame states it runs each with, how it builds and runs
it, where each fact comes from, and how a bot's file or folder is recognised as one of them.

CodinGame publishes each language's compiler or runtime and version, and for C and C++ the libraries
it links; for C++ its command line is known from its forum: no `-O` flag, so a bot is as fast as
its `#pragma GCC optimize` lines make it (a bot timed at `-O2` here may time out there). Where
CodinGame says nothing of a flag, the table says what the arena does instead (`note`), and
docs/languages.md shows the table with its sources.

What builds each language here is in arena/builds/recipes.py; a language whose programs this
machine lacks is refused in one line that names the Debian packages to install (`missing`).
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

# Where each fact comes from: a key of this table in `Language.sources`.
SOURCES = {
    "cg-languages": "CodinGame's languages page (codingame.com/playgrounds/40701/help-center/languages-versions), "
    "kept in github.com/CodinGame/Contribute-Help, pages/technical/languages.md, as of commit 64e9ef72 "
    "(2025-10-08; 'last update 2024-09-25')",
    "cg-cpp20": "the same page's commit 9398a846 (2024-02-28, 'Update c++ version in doc'): C++ from 'mode C++17' "
    "to 'mode C++20'",
    "cg-forum-flags": "CodinGame forum, thread 'Languages update', post 264 (2022-04, when C++ was 'mode C++17'): "
    "C++ flags -std=gnu++17 -Werror=return-type -g -pthread, libraries -lm -lpthread -ldl -lcrypt; as quoted "
    "in github.com/yduf/yduf.github.io, _posts/2018-01-28-codingame.md",
    "cg-forum-o3": "CodinGame forum, thread 'C++ and the -O3 compilation flag', post 15: no -O is passed; "
    '#pragma GCC optimize("O3") in the source optimises it (the same page of yduf.github.io)',
    "cgarena": "CGArena (github.com/aangairbender/cgarena), assets/default_config.toml: builds a C++ bot "
    "with g++ -std=c++20 and no -O",
    "cg-starter-output": "CodinGame's starter code: C prints each answer with printf ('DON'T FORGET THE TRAILING "
    "\\n'), never flushing it; C++ ends each with endl; Ruby's begins 'STDOUT.sync = true # DO NOT REMOVE', "
    "Perl's 'select(STDOUT); $| = 1; # DO NOT REMOVE'; Python's answers with print and reads with input()",
    "cg-readline": "CodinGame's JavaScript and TypeScript bots read with a global readline() "
    "(their starter code; e.g. github.com/fxlacroix/base-cg, src/Utils/IO.js: 'globally accessible "
    "like in codingame')",
}


@dataclass(frozen=True)
class Language:
    key: str  # a name without spaces: "cpp"
    name: str  # as CodinGame names it: "C++"
    suffixes: tuple[str, ...]  # what its source files end with (the first is the usual one)
    codingame: str  # the compiler or runtime, with its version, as CodinGame states it
    how: str  # how CodinGame builds and runs it, as far as it is known
    sources: tuple[str, ...]  # keys of SOURCES for the two fields above
    tools: tuple[str, ...] = ()  # the programs that build and run it here ("python": this Python)
    install: str = ""  # the Debian packages that bring them
    entries: tuple[str, ...] = ()  # in a folder, the entry file's names, looked for in this order
    markers: tuple[str, ...] = ()  # a file that makes a folder a project of this language
    built: bool = True  # False: recognised, but built only by `build`/`run` commands the user declares
    note: str = ""  # where the arena's build here differs from CodinGame's, or what it assumes

    @property
    def flags(self) -> tuple[str, ...]:
        return FLAGS.get(self.key, ())


# CodinGame's C++ command line (cg-forum-flags) at its current standard (cg-cpp20). No -O: a bot
# optimises itself with pragmas (cg-forum-o3). C gets the same at its own standard.
CODINGAME_LIBRARIES = ("-lm", "-lpthread", "-ldl", "-lcrypt")
FLAGS = {
    "cpp": ("-std=gnu++20", "-Werror=return-type", "-g", "-pthread"),
    "c": ("-std=gnu17", "-Werror=return-type", "-g", "-pthread"),
    "rust": ("--edition", "2021", "-C", "opt-level=3"),
    "csharp": ("-unsafe", "-optimize+"),
    "typescript": ("--target", "ES2020", "--module", "commonjs"),
}

_CG = ("cg-languages",)
LANGUAGES: tuple[Language, ...] = (
    Language(
        "cpp",
        "C++",
        (".cpp", ".cc", ".cxx", ".c++"),
        "g++ 11.2.0, mode C++20",
        "g++ -std=gnu++20 -Werror=return-type -g -pthread (no -O) ... -lm -lpthread -ldl -lcrypt; the program runs",
        ("cg-languages", "cg-cpp20", "cg-forum-flags", "cg-forum-o3", "cgarena"),
        ("g++",),
        "g++",
        ("main.cpp", "bot.cpp", "player.cpp", "Player.cpp"),
        ("CMakeLists.txt",),
        note="the standard is C++20 since 2024-02 (cg-cpp20); the only published command line predates it "
        "(gnu++17), so gnu++20 is assumed. A folder with CMakeLists.txt builds with CMake, as its author wrote it. "
        "Its output is line-buffered, as C's (cg-starter-output)",
    ),
    Language(
        "c",
        "C",
        (".c",),
        "gcc 11.2.0, mode C17",
        "gcc at C17, linked with -lm -lpthread -ldl -lcrypt; the program runs",
        _CG,
        ("gcc",),
        "gcc",
        ("main.c", "bot.c", "player.c"),
        note="CodinGame publishes no other C flag: C++'s are used (-std=gnu17 -Werror=return-type -g -pthread, "
        "no -O). Its output is line-buffered (stdbuf -oL): the starter code's printf is never flushed "
        "(cg-starter-output)",
    ),
    Language(
        "java",
        "Java",
        (".java",),
        "Oracle JDK 21.0.4",
        "javac, then java runs the class with main (the starter code's class Player)",
        _CG,
        ("javac", "java"),
        "default-jdk",
        ("Player.java", "Main.java"),
        note="runs with this machine's JDK and the JVM's default options (CodinGame states none)",
    ),
    Language(
        "csharp",
        "C#",
        (".cs",),
        "C# 12.0, .NET Runtime 8.0.401, compiled with -unsafe",
        "compiled with -unsafe; the assembly runs on .NET 8",
        _CG,
        ("mcs", "mono"),
        "mono-mcs mono-runtime",
        ("Player.cs", "Program.cs", "Main.cs"),
        note="built here by Mono's mcs (C# 7, -unsafe -optimize+) and run by mono: C# 8+ features do not compile",
    ),
    Language(
        "rust",
        "Rust",
        (".rs",),
        "Rust 1.90.0, with chrono 0.4.41, itertools 0.14.0, libc 0.2.175, rand 0.9.2, regex 1.11.2, time 0.3.43",
        "rustc 1.90.0 with those crates; the program runs",
        _CG,
        ("rustc",),
        "rustc cargo",
        ("main.rs",),
        ("Cargo.toml",),
        note="CodinGame publishes no Rust flag: a file builds with rustc --edition 2021 -C opt-level=3 (as "
        "`cargo build --release`), without crates; a folder with Cargo.toml builds with cargo build --release",
    ),
    Language(
        "go",
        "Go",
        (".go",),
        "Go 1.18.1",
        "go build; the program runs",
        _CG,
        ("go",),
        "golang-go",
        ("main.go", "bot.go", "player.go"),
        ("go.mod",),
    ),
    Language(
        "python",
        "Python 3",
        (".py",),
        "Python 3.11.5, with NumPy 1.20.2, pandas 1.2.4, SciPy 1.6.3",
        "python3 runs the file",
        _CG,
        ("python",),
        "python3",
        ("main.py", "bot.py", "player.py", "__main__.py"),
        note="runs with the arena's own Python, its syntax checked when built",
    ),
    Language(
        "javascript",
        "JavaScript",
        (".js",),
        "Node 20.9.0",
        "node runs the file, with a global readline() that reads a line of input",
        ("cg-languages", "cg-readline"),
        ("node",),
        "nodejs",
        ("main.js", "bot.js", "index.js", "player.js"),
        note="readline(), print() and printErr() are given by the arena's prelude (arena/builds/codingame_prelude.js)",
    ),
    Language(
        "typescript",
        "TypeScript",
        (".ts",),
        "TypeScript 5.6.2, Node 20.9.0",
        "tsc to ES2020, then node runs it, with a global readline()",
        ("cg-languages", "cg-readline"),
        ("tsc", "node"),
        "node-typescript nodejs",
        ("main.ts", "bot.ts", "index.ts", "player.ts"),
        note="tsc --target ES2020 --module commonjs (the target CodinGame stated with TypeScript 4.6), with "
        "readline(), print() and printErr() declared (arena/builds/codingame.d.ts); a type error fails the build",
    ),
    Language(
        "kotlin",
        "Kotlin",
        (".kt",),
        "Kotlin 1.7.10",
        "kotlinc, then the JVM runs it",
        _CG,
        ("kotlinc", "java"),
        "kotlin",
        ("Player.kt", "Main.kt", "main.kt"),
        note="kotlinc -include-runtime into a jar that java -jar runs",
    ),
    Language(
        "scala",
        "Scala",
        (".scala",),
        "Scala 2.13.5, Oracle JVM 1.8",
        "scalac, then the JVM runs the object with main (Player)",
        _CG,
        ("scalac", "scala"),
        "scala",
        ("Player.scala", "Main.scala"),
        note="runs the object named as the entry file",
    ),
    Language(
        "bash", "Bash", (".sh",), "GNU Bash 5.1.16", "bash runs the file", _CG, ("bash",), "bash", ("main.sh", "bot.sh")
    ),
    Language(
        "perl", "Perl", (".pl",), "Perl 5.34.0", "perl runs the file", _CG, ("perl",), "perl", ("main.pl", "bot.pl")
    ),
    Language(
        "ruby", "Ruby", (".rb",), "Ruby 3.1.2", "ruby runs the file", _CG, ("ruby",), "ruby", ("main.rb", "bot.rb")
    ),
    Language(
        "php", "PHP", (".php",), "PHP 7.3.9", "php runs the file", _CG, ("php",), "php-cli", ("main.php", "bot.php")
    ),
    Language(
        "lua", "Lua", (".lua",), "Lua 5.4.4", "lua runs the file", _CG, ("lua5.4",), "lua5.4", ("main.lua", "bot.lua")
    ),
    # Recognised, not built: their build and run commands go in arena.toml.
    Language("clojure", "Clojure", (".clj",), "Clojure 1.11.1, Oracle JVM 1.8", "", _CG, built=False),
    Language("d", "D", (".d",), "DMD 2.099.0", "", _CG, built=False),
    Language("dart", "Dart", (".dart",), "Dart 3.9.4", "", _CG, built=False),
    Language("fsharp", "F#", (".fs",), "F# 8.0, .NET Runtime 8.0.401", "", _CG, built=False),
    Language("groovy", "Groovy", (".groovy",), "Groovy 3.0.8, Oracle JVM 1.8", "", _CG, built=False),
    Language("haskell", "Haskell", (".hs",), "Haskell Platform 8.4.3", "", _CG, built=False),
    Language("objective-c", "Objective-C", (".m",), "Clang 13.0.1", "", _CG, built=False),
    Language("ocaml", "OCaml", (".ml",), "OCaml 4.14.0", "", _CG, built=False),
    Language("pascal", "Pascal", (".pas",), "Free Pascal Compiler 3.2.2", "", _CG, built=False),
    Language("swift", "Swift", (".swift",), "Swift 5.3.3", "", _CG, built=False),
    Language("vbnet", "VB.NET", (".vb",), "VB 16.9, .NET Runtime 8.0.401", "", _CG, built=False),
)
BY_KEY = {language.key: language for language in LANGUAGES}
# The languages whose source file runs as it is, by its interpreter: such a file that is executable
# (a script with its #! line) is a program of its own, not sources to build.
SCRIPTS = frozenset({"python", "javascript", "bash", "perl", "ruby", "php", "lua"})
HEADER_SUFFIXES = (".h", ".hpp", ".hh", ".hxx", ".inl", ".ipp", ".tpp")


class LanguageError(ValueError):
    """A file or folder in no language the arena knows, or one it cannot build here."""


def by_suffix(path: Path) -> Language | None:
    if path.suffix == ".C":  # C++ to gcc
        return BY_KEY["cpp"]
    suffix = path.suffix.lower()
    return next((language for language in LANGUAGES if suffix in language.suffixes), None)


def detect(path: Path, files: list[Path] | None = None) -> Language:
    """The language of a bot's file, or of a folder: by a project file (CMakeLists.txt, Cargo.toml,
    go.mod), else by its sources' suffixes (`files`, relative to it: the folder's files), when they
    are of one language (headers go with C or C++)."""
    if path.is_file():
        language = by_suffix(path)
        if language is None:
            raise LanguageError(f"{path}: no language CodinGame runs has files ending in {path.suffix or '(nothing)'}")
        return language
    for language in LANGUAGES:
        if any((path / marker).is_file() for marker in language.markers):
            return language
    found = {language.key for language in map(by_suffix, files or []) if language is not None}
    if found == {"c", "cpp"}:
        found = {"cpp"}
    if len(found) == 1:
        return BY_KEY[found.pop()]
    if not found:
        raise LanguageError(f"{path}: no source file of a language CodinGame runs")
    names = ", ".join(sorted(BY_KEY[key].name for key in found))
    raise LanguageError(f"{path} holds sources of several languages ({names}): declare its build and run commands")


def program(tool: str) -> str | None:
    """Where a tool is: "python" is the arena's own Python."""
    return sys.executable if tool == "python" else shutil.which(tool)


def missing(language: Language) -> str | None:
    """Why this machine cannot build and run `language` (None if it can), in one line."""
    if not language.built:
        return (
            f"the arena does not build {language.name} itself: declare its build and run commands "
            f"([players.NAME] build = ..., run = ... in arena.toml)"
        )
    absent = [tool for tool in language.tools if program(tool) is None]
    if not absent:
        return None
    return (
        f"{language.name} needs {' and '.join(absent)}, which this machine lacks "
        f"(on Debian: apt-get install {language.install})"
    )


_VERSION_ARGUMENTS = {"java": ("-version",), "go": ("version",), "scala": ("-version",), "kotlinc": ("-version",)}


def tool_version(tool: str) -> str:
    """The first line a tool says of its version ("" if it says nothing): part of a build's hash."""
    path = program(tool)
    if path is None:
        return ""
    stat = os.stat(path)
    return _version(path, stat.st_mtime_ns, _VERSION_ARGUMENTS.get(tool, ("--version",)))


@functools.lru_cache(maxsize=None)
def _version(path: str, _stamp: int, arguments: tuple[str, ...]) -> str:
    try:
        done = subprocess.run([path, *arguments], capture_output=True, text=True, timeout=60, errors="replace")
    except (OSError, subprocess.TimeoutExpired):
        return ""
    said = (done.stdout + "\n" + done.stderr).splitlines()
    return next((line.strip() for line in said if line.strip()), "")


def versions(language: Language) -> str:
    """`language`'s tools and what each says of its version, one per line."""
    return "\n".join(f"{tool}: {tool_version(tool)}" for tool in language.tools)
