"""How a bot's sources in each language are built here, as CodinGame builds them (the flags are the
table's, arena/builds/languages.py): the commands, run in a copy of the sources, and the command that
runs the result.

A build's folder holds `src/` (the copy, where each step runs), `out/` (what the steps make) and
the arena's own files a language needs (the JavaScript prelude). A step names files relative to
`src/`; the run command names the build's folder `{build}`, filled in once the build is in place.
"""

from __future__ import annotations

import re
import shutil
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from arena.builds.languages import BY_KEY, CODINGAME_LIBRARIES, HEADER_SUFFIXES, Language, LanguageError

BUILD = "{build}"  # the build's folder, in a run command
HERE = Path(__file__).parent
PRELUDE = "codingame_prelude.js"  # readline(), print() and printErr() for JavaScript and TypeScript
DECLARATIONS = "codingame.d.ts"  # the same, declared for tsc

# Python's syntax check: compiles each file without writing bytecode, and says where it fails as
# the compilers do (file:line:column: error: message).
_PYTHON_CHECK = (
    "import sys\n"
    "for name in sys.argv[1:]:\n"
    "    try:\n"
    "        compile(open(name, 'rb').read(), name, 'exec', dont_inherit=True)\n"
    "    except SyntaxError as e:\n"
    "        sys.exit(f'{e.filename}:{e.lineno}:{e.offset or 0}: error: {type(e).__name__}: {e.msg}')\n"
)


@dataclass(frozen=True)
class Recipe:
    steps: tuple[tuple[str, ...], ...]  # commands run in order in `src/`
    run: tuple[str, ...]  # the bot's command
    extras: dict[str, bytes] = field(default_factory=dict)  # the arena's files, relative to the build's folder
    tools: tuple[tuple[str, str], ...] = ()  # (program, Debian package) this recipe needs beyond the language's
    only_program: bool = False  # True: `out/bot` is made a link to the one program the steps made (CMake's)


def recipe(language: Language, root: Path, files: list[str], entry: str | None) -> Recipe:
    """How to build `files` (POSIX paths relative to `root`, a folder holding them) in `language`:
    `entry` is the file to build (a single file's build), or None for a folder's."""
    make = _RECIPES.get(language.key)
    if make is None:
        raise LanguageError(f"the arena does not build {language.name} itself: declare its build and run commands")
    return make(language, root, files, entry)


def entry_of(language: Language, root: Path, files: list[str]) -> str:
    """A folder's entry file: the first of the language's entry names at its top, else its only
    source of the language at the top."""
    top = [name for name in files if "/" not in name and Path(name).suffix.lower() in language.suffixes]
    for name in language.entries:
        if name in top:
            return name
    if len(top) == 1:
        return top[0]
    expected = " or ".join(language.entries) or f"one {language.suffixes[0]} file"
    raise LanguageError(f"{root}: which file is the {language.name} bot? (expected {expected} at its top)")


def _of(language: Language, files: list[str]) -> list[str]:
    return [name for name in files if PurePosixPath(name).suffix.lower() in language.suffixes]


# CodinGame's C starter code prints each answer with printf and never flushes it ("DON'T FORGET
# THE TRAILING \n"; its C++ code ends each with endl, its Ruby and Perl code turn their own buffering
# off: "DO NOT REMOVE"): there a C program's output is line-buffered, as stdbuf makes it here (C's
# stdio, and C++'s streams synchronised with it; a program that sets its own buffering keeps it).
# Fully buffered, as C's output into a pipe is, such a bot would keep its answers and time out.
_LINE_BUFFERED = ("stdbuf", "-oL")
_STDBUF = ("stdbuf", "coreutils")


def _c_family(language: Language, root: Path, files: list[str], entry: str | None) -> Recipe:
    run = (*_LINE_BUFFERED, f"{BUILD}/out/bot")
    if entry is None and (root / "CMakeLists.txt").is_file():
        steps = (("cmake", "-S", ".", "-B", "../out/cmake"), ("cmake", "--build", "../out/cmake"))
        return Recipe(steps, run, tools=(("cmake", "cmake"), _STDBUF), only_program=True)
    compiler = "g++" if language.key == "cpp" else "gcc"
    sources = [entry] if entry else _of(language, files)
    if not sources:
        headers = [name for name in files if PurePosixPath(name).suffix.lower() in HEADER_SUFFIXES]
        raise LanguageError(f"{root}: headers ({', '.join(headers[:3])}) but no {language.name} file to compile")
    include = () if entry else ("-I", ".")
    step = (compiler, *language.flags, *include, *sources, "-o", "../out/bot", *CODINGAME_LIBRARIES)
    return Recipe((step,), run, tools=(_STDBUF,))


def _java(language: Language, root: Path, files: list[str], entry: str | None) -> Recipe:
    sources = [entry] if entry else _of(language, files)
    main = _java_main(root, [entry] if entry else sources)
    step = ("javac", "-encoding", "UTF-8", "-d", "../out", *sources)
    return Recipe((step,), ("java", "-cp", f"{BUILD}/out", main))


_JAVA_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)\s*;", re.MULTILINE)
_JAVA_TYPE = re.compile(r"\b(?:class|record|enum|interface)\s+(\w+)")


def _java_main(root: Path, candidates: list[str]) -> str:
    """The class to run: the one with `static void main` (CodinGame's starter code calls it Player)."""
    mains = []
    for name in candidates:
        text = (root / name).read_text(encoding="utf-8", errors="replace")
        if "static void main" not in text:
            continue
        types = _JAVA_TYPE.findall(text)
        simple = next(
            (t for t in ("Player", "Main", PurePosixPath(name).stem) if t in types), types[0] if types else ""
        )
        package = _JAVA_PACKAGE.search(text)
        mains.append(f"{package.group(1)}.{simple}" if package else simple)
    preferred = [m for m in mains if m.rpartition(".")[2] in ("Player", "Main")]
    if len(mains) == 1 or len(preferred) == 1:
        return (preferred or mains)[0]
    if not mains:
        raise LanguageError(f"{root}: no Java class with a main method (CodinGame's starter code calls it Player)")
    raise LanguageError(f"{root}: several Java classes with a main method ({', '.join(mains)}): name the file to run")


def _rust(language: Language, root: Path, files: list[str], entry: str | None) -> Recipe:
    if entry is None and (root / "Cargo.toml").is_file():
        step = ("cargo", "build", "--release", "--quiet", "--target-dir", "../out/target")
        binary = _cargo_binary(root / "Cargo.toml", files)
        return Recipe((step,), (f"{BUILD}/out/target/release/{binary}",), tools=(("cargo", "cargo"),))
    entry = entry or entry_of(language, root, files)
    return Recipe((("rustc", *language.flags, "-o", "../out/bot", entry),), (f"{BUILD}/out/bot",))


def _cargo_binary(manifest: Path, files: list[str]) -> str:
    """The program `cargo run` would run: its package's default-run, the one it declares, its
    package's own (src/main.rs), else the one Cargo finds in src/bin/ (`src/bin/NAME.rs`,
    `src/bin/NAME/main.rs`)."""
    try:
        data = tomllib.loads(manifest.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise LanguageError(f"cannot read {manifest}: {exc}") from None
    package = data.get("package", {})
    binaries = [b.get("name") for b in data.get("bin", []) if b.get("name")]
    if package.get("default-run"):
        binaries = [package["default-run"]]
    if not binaries and "src/main.rs" not in files:
        binaries = sorted({match.group(1) for name in files if (match := _CARGO_BIN.fullmatch(name))})
    if len(binaries) > 1:
        raise LanguageError(
            f"{manifest} makes several programs ({', '.join(binaries)}): say which to run "
            '(default-run = "NAME" in its [package])'
        )
    name = binaries[0] if binaries else package.get("name")
    if not name:
        raise LanguageError(f"{manifest} names no package")
    return name


_CARGO_BIN = re.compile(r"src/bin/([^/]+?)(?:\.rs|/main\.rs)")


def _go(language: Language, root: Path, files: list[str], entry: str | None) -> Recipe:
    top = [entry] if entry else [name for name in _of(language, files) if "/" not in name]
    _check_go_main(root, [name for name in top if not name.endswith("_test.go")])
    sources = ["."] if entry is None and (root / "go.mod").is_file() else top
    return Recipe((("go", "build", "-o", "../out/bot", *sources),), (f"{BUILD}/out/bot",))


_GO_PACKAGE = re.compile(r"^package\s+(\w+)", re.MULTILINE)


def _check_go_main(root: Path, sources: list[str]) -> None:
    """A Go bot is a main package (go build makes an archive of any other, which cannot run), at the
    top of the folder given: LanguageError saying so where it is not."""
    if not sources:
        raise LanguageError(
            f"{root}: no Go file at its top: a Go bot's folder holds its main package (package main, with "
            "func main) at its top; for a module whose program is deeper (cmd/NAME/), declare "
            '[players.NAME] build = "go build -o bot ./cmd/NAME" and run = "./bot" in arena.toml'
        )
    for name in sources:
        package = _GO_PACKAGE.search((root / name).read_text(encoding="utf-8", errors="replace"))
        if package and package.group(1) != "main":
            raise LanguageError(
                f"{name} is package {package.group(1)}, of which go build makes no program: a Go bot is "
                "package main, with func main"
            )


def _csharp(language: Language, root: Path, files: list[str], entry: str | None) -> Recipe:
    sources = [entry] if entry else _of(language, files)
    step = ("mcs", *language.flags, "-out:../out/bot.exe", *sources)
    return Recipe((step,), ("mono", f"{BUILD}/out/bot.exe"))


def _python(language: Language, root: Path, files: list[str], entry: str | None) -> Recipe:
    entry = entry or entry_of(language, root, files)
    check = (sys.executable, "-c", _PYTHON_CHECK, *_of(language, files))
    return Recipe((check,), (sys.executable, f"{BUILD}/src/{entry}"))


def _node_run(script: str) -> tuple[str, ...]:
    return ("node", "--require", f"{BUILD}/{PRELUDE}", script)


def _javascript(language: Language, root: Path, files: list[str], entry: str | None) -> Recipe:
    entry = entry or entry_of(language, root, files)
    steps = tuple(("node", "--check", name) for name in _of(language, files))
    return Recipe(steps, _node_run(f"{BUILD}/src/{entry}"), {PRELUDE: (HERE / PRELUDE).read_bytes()})


def _typescript(language: Language, root: Path, files: list[str], entry: str | None) -> Recipe:
    # The entry alone: tsc compiles what it imports, and leaves out the folder's other files (its
    # tests and scripts, which need what a bot does not: Node's types).
    entry = entry or entry_of(language, root, files)
    step = ("tsc", *language.flags, "--rootDir", ".", "--outDir", "../out", entry, f"../{DECLARATIONS}")
    extras = {PRELUDE: (HERE / PRELUDE).read_bytes(), DECLARATIONS: (HERE / DECLARATIONS).read_bytes()}
    script = str(PurePosixPath(entry).with_suffix(".js"))
    return Recipe((step,), _node_run(f"{BUILD}/out/{script}"), extras)


def _kotlin(language: Language, root: Path, files: list[str], entry: str | None) -> Recipe:
    sources = [entry] if entry else _of(language, files)
    step = ("kotlinc", *sources, "-include-runtime", "-d", "../out/bot.jar")
    return Recipe((step,), ("java", "-jar", f"{BUILD}/out/bot.jar"))


def _scala(language: Language, root: Path, files: list[str], entry: str | None) -> Recipe:
    main = PurePosixPath(entry or entry_of(language, root, files)).stem
    step = ("scalac", "-d", "../out", *([entry] if entry else _of(language, files)))
    return Recipe((step,), ("scala", "-classpath", f"{BUILD}/out", main))


# An interpreted language: its syntax check (None: none), then its interpreter runs the entry.
_CHECKS = {"bash": ("bash", "-n"), "perl": ("perl", "-c"), "ruby": ("ruby", "-c"), "php": ("php", "-l"), "lua": None}


def _script(language: Language, root: Path, files: list[str], entry: str | None) -> Recipe:
    entry = entry or entry_of(language, root, files)
    check = _CHECKS[language.key]
    return Recipe(((*check, entry),) if check else (), (language.tools[0], f"{BUILD}/src/{entry}"))


_RECIPES = {
    "cpp": _c_family,
    "c": _c_family,
    "java": _java,
    "rust": _rust,
    "go": _go,
    "csharp": _csharp,
    "python": _python,
    "javascript": _javascript,
    "typescript": _typescript,
    "kotlin": _kotlin,
    "scala": _scala,
    **{key: _script for key in _CHECKS},
}
assert all(BY_KEY[key].built for key in _RECIPES)


def missing_tools(made: Recipe) -> str | None:
    """Why this machine cannot run a recipe's own tools (CMake, Cargo), or None."""
    absent = [(tool, package) for tool, package in made.tools if shutil.which(tool) is None]
    if not absent:
        return None
    tools = " and ".join(tool for tool, _ in absent)
    return f"this build needs {tools}, which this machine lacks (on Debian: apt-get install {' '.join(p for _, p in absent)})"
