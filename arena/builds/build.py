"""Builds are artifacts: a bot's file or folder built as CodinGame builds it (or by the `build` and
`run` commands its user declares), once, into the cache, under the hash of what went into it.

The hash covers the sources (a file; a C or C++ file with its local includes; a folder's files), the
language's commands and flags, and what its compiler says of its version. A build is named before it
is made (`plan`): its hash, its folder and the command that will run it are known at once, and what
goes into it is kept in the cache from that moment (`builds/inputs/LANGUAGE-HASH`), so that a run
plays what it named whatever is edited later, and a resumed run, a worker or another machine can make
it from the cache alone. It is made (`make`) in a temporary folder renamed into place,
`builds/LANGUAGE-HASH`, so that every run, worker and resume that needs the same build finds it made,
and two that make it at once do no harm. A failed build raises BuildError: one line, the compiler's
first error with its file and line, and the path of the whole log, kept in `builds/failed/`. Nothing
is built inside a game.

A file is built alone, as CodinGame takes one file (a C or C++ file with its local includes); a bot
of several files is given as its folder. In a folder, files and folders whose name starts with a dot
and build outputs are left out: `node_modules` and `__pycache__` anywhere, and at the folder's top,
where the tools write them, `target`, `build`, `bin`, `obj` and `cmake-build-*` (deeper, such a
folder is sources: a Java package `game.build`, Cargo's `src/bin/`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import stat
import subprocess
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from arena.builds import languages, recipes
from arena.builds.cache import BUILDS, cache_root
from arena.builds.diagnostics import COMMAND_PREFIX, first_error, last_words
from arena.builds.languages import LanguageError
from arena.builds.revisions import Source, SourceError, dirty, head, resolve_source
from arena.bundle.cpp import local_includes
from arena.errors import UsageError
from arena.project import DATABASE_SUFFIXES, RUNS_FOLDER, arena_output

BUILD_FORMAT = "caldera build 2"  # part of every hash: change it when a build's folder changes
CUSTOM = "custom"  # the language of a build made by the user's own commands
DEFAULT_TIMEOUT_S = 600.0
# A build's output kept in its log: one that writes more (a loop that prints) is stopped there,
# before it fills the disk the runs' databases are on. Looked at every STEP_POLL_S.
BUILD_LOG_BYTES = 64_000_000
STEP_POLL_S = 0.05
# Build outputs: anywhere in a bot's folder, and at its top only (where Cargo, CMake, Gradle and
# dotnet write theirs; deeper, `build` is a Java package, `bin` Cargo's src/bin/ of programs).
IGNORED_FOLDERS = {"node_modules", "__pycache__"}
IGNORED_AT_TOP = {"target", "build", "bin", "obj"}
MAX_FILES, MAX_BYTES = 2000, 50_000_000  # a bot's folder, not a repository with its data
EXITED = "exited: "  # a failed step's reason starts with it when its log says more
RECORD = "build.json"  # in a build's folder, written last: the build is complete
INPUTS = "inputs"  # builds/inputs/LANGUAGE-HASH: what goes into the build of that name
PLAN = "plan.json"  # in an inputs folder: how to build it
DIRTY = "+dirty"  # after a build's version and revision: git sees uncommitted changes to its sources


class BuildError(UsageError):
    """A build that failed: the message is one line, the compiler's first error; `log` keeps the whole."""

    def __init__(self, message: str, log: Path | None = None):
        super().__init__(message)
        self.log = log


@dataclass(frozen=True)
class Plan:
    """A build named before it is made: what runs it, where, and the version it records."""

    spec: str  # what the user wrote
    language: str  # a key of arena.builds.languages.BY_KEY, or CUSTOM
    command: str  # the command line that runs the bot, once built
    version: str  # the hash of what goes in, "+dirty" after it for uncommitted changes
    folder: Path  # the build in the cache (made or not)
    revision: str | None  # the commit built (12 digits), "+dirty" after it for uncommitted changes; None outside git
    place: str = "."  # the folder its files are in, as the user finds them (for the compiler's messages)

    @property
    def cwd(self) -> Path:
        """Where the bot runs: its copy of the sources, beside what was built."""
        return self.folder / "src"

    @property
    def made(self) -> bool:
        return whole(self.folder)

    @property
    def log(self) -> Path:
        return self.folder / "build.log"


@dataclass(frozen=True)
class Build(Plan):
    """A built bot."""

    reused: bool = False  # True: found made in the cache; False: made by this call


def builds_dir(cache: Path | None = None) -> Path:
    return (cache or cache_root()) / BUILDS


def build(
    source: Source | str | Path,
    *,
    build_command: str | None = None,
    run_command: str | None = None,
    cache: Path | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    say: Callable[[str], None] | None = None,
) -> Build:
    """The build of `source` (a Source, or a spec: `PATH` or `PATH@REV`), made now or found made in
    the cache (see `plan` and `make`)."""
    named = plan(source, build_command=build_command, run_command=run_command, cache=cache)
    reused = make(named, timeout_s=timeout_s, say=say)
    return Build(**{f: getattr(named, f) for f in named.__dataclass_fields__}, reused=reused)


def plan(
    source: Source | str | Path,
    *,
    build_command: str | None = None,
    run_command: str | None = None,
    cache: Path | None = None,
) -> Plan:
    """The build of `source` (a Source, or a spec: `PATH` or `PATH@REV`), named, and what goes into
    it kept in the cache; nothing compiled yet. `build_command` and `run_command` (shell command
    lines, run in the copy of the sources) replace the language's; a `run_command` alone replaces
    only its run command, where the arena builds the language (what it makes is in `../out/`).
    Raises SourceError (no such source, no language, a compiler missing here)."""
    if not isinstance(source, Source):
        source = resolve_source(str(source), cache)
    if build_command and not run_command:
        raise SourceError(f"{source.spec}: a declared build command needs a run command too")
    declared_run = run_command is not None
    inputs, base, language = _inputs(source, declared_run)
    relative = [path.relative_to(base).as_posix() for path in inputs]
    # A run command alone is built as its language is, where the arena builds it; else it runs as
    # its sources are (a script in a language the arena does not build).
    custom = build_command is not None or (declared_run and (language is None or not language.built))
    if custom:
        made = recipes.Recipe(((build_command,),) if build_command else (), (run_command,))
        key, tool_versions = CUSTOM, ""
    else:
        entry = source.path.relative_to(base).as_posix() if source.path.is_file() else None
        made = _recipe(source, language, base, relative, entry)
        if declared_run:
            made = dataclasses.replace(made, run=(run_command,))
        key = language.key
        tool_versions = _tool_versions(language, made)
    contents = {name: path.read_bytes() for name, path in zip(relative, inputs, strict=True)}
    modes = {name: stat.S_IMODE(path.stat().st_mode) for name, path in zip(relative, inputs, strict=True)}
    steps, run = [list(step) for step in made.steps], list(made.run)
    digest = _digest(key, [*steps, made.only_program], run, tool_versions, contents, made.extras)
    folder = builds_dir(cache) / f"{key}-{digest}"
    how = {
        "language": key,
        "steps": steps,
        "run": run,
        "declared": custom,
        "versions": tool_versions,
        "tools": [tool for tool, _ in made.tools],
        "extras": sorted(made.extras),
        "only_program": made.only_program,
    }
    _keep_inputs(folder, how, contents, modes, made.extras)
    # A declared run command is a command line as its user wrote it; the arena's own is argv.
    command = run[0] if declared_run else shlex.join(arg.replace(recipes.BUILD, str(folder)) for arg in run)
    suffix = DIRTY if _dirty(source, inputs) else ""
    revision = source.commit or (head(source.repository) if source.repository else None)
    anchor, shown = (source.path.parent, source.shown.parent) if source.path.is_file() else (source.path, source.shown)
    return Plan(
        spec=source.spec,
        language=key,
        command=command,
        version=digest + suffix,
        folder=folder,
        revision=revision[:12] + suffix if revision else None,
        place=os.path.relpath(os.path.normpath(shown / os.path.relpath(base, anchor))),
    )


def program_version(version: str) -> str:
    """`version` without the mark of uncommitted changes after a build's hash (what follows, kept): the
    hash alone names the program, and a working tree that holds a commit's files again is the
    commit's program, though git sees it changed."""
    digest, mark, rest = version.partition(DIRTY)
    return digest + rest if mark and re.fullmatch("[0-9a-f]+", digest) else version


def _tool_versions(language: languages.Language, made: recipes.Recipe) -> str:
    """What the language's tools and the recipe's own (CMake, Cargo) say of their versions."""
    return languages.versions(language) + "".join(f"\n{tool}: {languages.tool_version(tool)}" for tool, _ in made.tools)


def make(plan: Plan, *, timeout_s: float = DEFAULT_TIMEOUT_S, say: Callable[[str], None] | None = None) -> bool:
    """Make the build `plan` names from what was kept of its inputs, unless it is made already:
    True if it was found made. `say` is told when a build starts. BuildError if it fails, or if its
    inputs are gone from the cache."""
    if plan.made:
        return True
    inputs = plan.folder.parent / INPUTS / plan.folder.name
    try:
        how = json.loads((inputs / PLAN).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise BuildError(f"cannot build {plan.spec}: what goes into it is gone from the cache ({inputs})") from None
    if say:
        name = "its build command" if how["declared"] else languages.BY_KEY[how["language"]].name
        say(f"building {plan.spec} ({name}) ...")
    _make(plan, inputs, how, timeout_s)
    return False


def whole(plan_folder: Path) -> bool:
    """Whether the build in `plan_folder` is made and whole: its record, written last, and every part
    of it the record names (a part deleted between runs makes the whole build again)."""
    try:
        record = json.loads((plan_folder / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if not isinstance(record, dict):
        return False
    # (a record written before its parts were named: its sources and what was made)
    parts = record.get("parts") or [*(f"src/{name}" for name in record.get("files", [])), "out"]
    return all((plan_folder / part).exists() for part in parts)


def gone(plan_folder: Path) -> bool:
    """Whether the build in `plan_folder` is neither made nor has its inputs kept (the cache was
    deleted): only its sources, where they still are, can name it again."""
    return not whole(plan_folder) and not (plan_folder.parent / INPUTS / plan_folder.name / PLAN).is_file()


def cache_of(plan_folder: Path) -> Path:
    """The cache that holds the build in `plan_folder` (see `builds_dir`)."""
    return plan_folder.parent.parent


def changed(plan_folder: Path) -> str | None:
    """Why the build in `plan_folder` would not be the one named when its run began (None if it
    would): made, or its inputs kept, unchanged, and its tools those it was named with."""
    if whole(plan_folder):
        return None
    inputs = plan_folder.parent / INPUTS / plan_folder.name
    try:
        how = json.loads((inputs / PLAN).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return f"its build and its sources are gone from the cache ({plan_folder})"
    contents = {
        path.relative_to(inputs / "src").as_posix(): path.read_bytes()
        for path in sorted((inputs / "src").rglob("*"))
        if path.is_file()
    }
    extras = {name: (inputs / name).read_bytes() for name in how.get("extras", [])}
    steps = [*how["steps"], how["only_program"]]
    digest = _digest(how["language"], steps, how["run"], how["versions"], contents, extras)
    if not plan_folder.name.endswith(f"-{digest}"):
        return f"its sources kept in {inputs} changed"
    if not how["declared"]:
        language = languages.BY_KEY[how["language"]]
        made = recipes.Recipe((), None, tools=tuple((tool, "") for tool in how.get("tools", [])))
        now = _tool_versions(language, made)
        if now != how["versions"]:
            return f"its compiler changed ({how['versions']!r}, now {now!r})"
    return None


def _recipe(
    source: Source, language: languages.Language, base: Path, relative: list[str], entry: str | None
) -> recipes.Recipe:
    """The language's recipe for these files, once this machine is known to have what it needs."""
    why = languages.missing(language)
    if why:
        raise SourceError(f"{source.spec}: {why}")
    try:
        made = recipes.recipe(language, base, relative, entry)
    except LanguageError as exc:
        raise SourceError(f"{source.spec}: {exc}") from None
    why = recipes.missing_tools(made)
    if why:
        raise SourceError(f"{source.spec}: {why}")
    return made


def _inputs(source: Source, custom: bool) -> tuple[list[Path], Path, languages.Language | None]:
    """The files that go into the build (absolute), the folder they are relative to, and their
    language (None for a build by the user's commands, when it is in none the arena knows)."""
    path = source.path
    if path.is_file():
        try:
            language = languages.detect(path)
        except LanguageError as exc:
            if not custom:
                raise SourceError(f"{source.spec}: {exc}") from None
            language = None
        if language is not None and language.key in ("c", "cpp"):
            inputs = local_includes(path, (path.parent,))
            base = Path(os.path.commonpath([p.parent for p in inputs]))
        else:
            inputs, base = [path], path.parent
        return inputs, base, language
    inputs = _folder_files(path, source.spec)
    relative = [p.relative_to(path) for p in inputs]
    try:
        language = languages.detect(path, relative)
    except LanguageError as exc:
        if not custom:
            raise SourceError(f"{source.spec}: {exc}") from None
        language = None
    return inputs, path, language


def _folder_files(folder: Path, spec: str) -> list[Path]:
    files, total = [], 0
    for top, folders, names in os.walk(folder):
        folders[:] = sorted(
            name
            for name in folders
            if not name.startswith(".")
            and name not in IGNORED_FOLDERS
            and name != RUNS_FOLDER
            and not (top == str(folder) and (name in IGNORED_AT_TOP or name.startswith("cmake-build-")))
            and not arena_output(Path(top) / name)
        )
        for name in sorted(names):
            path = Path(top) / name
            if name.startswith(".") or name.endswith(DATABASE_SUFFIXES) or not path.is_file() or arena_output(path):
                continue  # (the arena's own run databases and outputs, made in the folder a run is given in, are no bot's)
            files.append(path)
            total += path.stat().st_size
            if len(files) > MAX_FILES or total > MAX_BYTES:
                raise SourceError(
                    f"{spec} holds over {MAX_FILES} files or {MAX_BYTES // 1_000_000} MB: give the bot's own folder"
                )
    return files


def _digest(
    key: str, steps: list, run: list, tool_versions: str, contents: dict[str, bytes], extras: dict[str, bytes]
) -> str:
    digest = hashlib.sha256()
    digest.update(json.dumps([BUILD_FORMAT, key, steps, run, tool_versions, sorted(extras)]).encode())
    for name, content in [*sorted(contents.items()), *sorted(extras.items())]:
        digest.update(f"\0{name}\0{len(content)}\0".encode())
        digest.update(content)
    return digest.hexdigest()[:12]


def _keep_inputs(
    folder: Path, how: dict, contents: dict[str, bytes], modes: dict[str, int], extras: dict[str, bytes]
) -> None:
    """What goes into the build `folder`, kept in the cache once (written whole or not at all: a run
    may name the same build at once)."""
    inputs = folder.parent / INPUTS / folder.name
    parts = [*(f"src/{name}" for name in contents), *extras]
    if _inputs_kept(inputs, parts):
        return
    partial = inputs.with_name(f".{inputs.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}")
    try:
        (partial / "src").mkdir(parents=True)
        for name, content in contents.items():
            target = partial / "src" / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
            target.chmod(modes[name] | stat.S_IRUSR | stat.S_IWUSR)
        for name, content in extras.items():
            (partial / name).write_bytes(content)
        (partial / PLAN).write_text(json.dumps(how, indent=1) + "\n", encoding="utf-8")
        _publish(partial, inputs, lambda kept: _inputs_kept(kept, parts))
    except OSError as exc:
        raise SourceError(f"cannot keep the sources of a build in {inputs.parent}: {exc.strerror or exc}") from None
    finally:
        shutil.rmtree(partial, ignore_errors=True)


def _inputs_kept(inputs: Path, parts: list[str]) -> bool:
    """Whether the inputs folder `inputs` is whole: its plan, written last, and each of its `parts`."""
    return (inputs / PLAN).is_file() and all((inputs / part).is_file() for part in parts)


def _publish(partial: Path, final: Path, complete: Callable[[Path], bool]) -> None:
    """The folder made at `partial` renamed into place as `final`. Where another process put a
    `complete` one there meanwhile, theirs stands and ours goes; one with parts missing (deleted
    between runs) is moved aside and replaced, so that `final` is never seen half made."""
    try:
        partial.rename(final)
        return
    except OSError:
        if complete(final):
            return
    aside = final.with_name(f".{final.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.old")
    try:
        final.rename(aside)
    except FileNotFoundError:  # (another process moved it aside first)
        pass
    try:
        partial.rename(final)
    except OSError:
        if not complete(final):
            raise
    finally:
        shutil.rmtree(aside, ignore_errors=True)


def _make(plan: Plan, inputs: Path, how: dict, timeout_s: float) -> None:
    """Build into a temporary folder beside the build's, from a copy of its inputs, then rename it
    into place (or leave the one another process put there meanwhile). Its steps' temporary files
    go to a folder of their own beside it (their TMPDIR), removed whatever happens: a step ended by
    a timeout or an interrupt is killed with its whole group, so a compiler cannot remove its own
    (gcc's cc*.s, megabytes each, were left in /tmp)."""
    folder = plan.folder
    partial = folder.with_name(f".{folder.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}")
    scratch = partial.with_name(f"{partial.name}.tmp")
    try:
        scratch.mkdir()
        shutil.copytree(inputs, partial, ignore=lambda folder, names: [PLAN] if Path(folder) == inputs else [])
        (partial / "out").mkdir()
        started = time.monotonic()
        with open(partial / "build.log", "w", encoding="utf-8", errors="replace") as log:
            for step in how["steps"]:
                failure = _step(tuple(step), partial / "src", log, timeout_s - (time.monotonic() - started), scratch)
                if failure is not None:
                    log.close()
                    _failed(plan, partial, failure)
        program = partial / "out" / "bot"
        if how["only_program"] and not program.exists():
            program.symlink_to(_only_program(plan, partial).relative_to(partial / "out"))
        files = sorted(p.relative_to(inputs / "src").as_posix() for p in (inputs / "src").rglob("*") if p.is_file())
        record = {
            "spec": plan.spec,
            "command": plan.command,
            "steps": how["steps"],
            "versions": how["versions"],
            "files": files,
            "parts": _parts(partial, files, how),
            "seconds": round(time.monotonic() - started, 3),
        }
        (partial / RECORD).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        _publish(partial, folder, whole)
    finally:
        shutil.rmtree(partial, ignore_errors=True)
        shutil.rmtree(scratch, ignore_errors=True)


def _parts(partial: Path, files: list[str], how: dict) -> list[str]:
    """The parts of the build made in `partial` that its bot needs (see `whole`): its sources, what
    `out/` holds at its top, and the files its run command names in the build's folder."""
    named = [arg.removeprefix(f"{recipes.BUILD}/") for arg in how["run"] if arg.startswith(f"{recipes.BUILD}/")]
    made = [f"out/{path.name}" for path in sorted((partial / "out").iterdir())]
    parts = [*(f"src/{name}" for name in files), "out", *made, *named]
    return sorted({part for part in parts if (partial / part).exists()})


def _step(step: tuple[str, ...], cwd: Path, log, timeout_s: float, scratch: Path) -> str | None:
    """Run one step, its output into `log` and its temporary files into `scratch` (its TMPDIR); None
    if it succeeded, else what went wrong (EXITED first: see the log). A step of one string is a
    shell command line (a declared build command); its whole process group ends with it, on a
    timeout, or once its output passes BUILD_LOG_BYTES (the log then cut there)."""
    shell = len(step) == 1
    log.write(f"{COMMAND_PREFIX}{step[0] if shell else shlex.join(step)}\n")
    log.flush()
    try:
        process = subprocess.Popen(
            step[0] if shell else list(step),
            shell=shell,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env={**os.environ, "TMPDIR": str(scratch)},
        )
    except OSError as exc:
        return f"cannot run {step[0]}: {exc.strerror or exc}"
    program = "the build command" if shell else step[0]
    deadline = time.monotonic() + timeout_s
    try:
        while True:
            try:
                status = process.wait(timeout=min(STEP_POLL_S, max(deadline - time.monotonic(), 0.001)))
                break
            except subprocess.TimeoutExpired:
                if os.fstat(log.fileno()).st_size > BUILD_LOG_BYTES:
                    _end_group(process)
                    os.truncate(log.fileno(), BUILD_LOG_BYTES)
                    return f"{program} wrote more than {BUILD_LOG_BYTES // 1_000_000} MB of output"
                if time.monotonic() >= deadline:
                    return f"the build took longer than {timeout_s:.0f} s"
    finally:
        _end_group(process)
    return None if status == 0 else f"{EXITED}{program} exited with status {status}"


def _end_group(process: subprocess.Popen) -> None:
    """Kill a step's process group: the step if it still runs, and what it left running there (a
    process in the background that would go on writing to the log); reap the step."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):  # (the group is gone)
        pass
    process.wait()


def _failed(plan: Plan, partial: Path, failure: str) -> None:
    """Keep the log in `failed/` and raise the BuildError that names its first error, its file
    named as the user finds it (the copy's paths are the cache's)."""
    kept = plan.folder.parent / "failed" / f"{plan.folder.name}.log"
    kept.parent.mkdir(parents=True, exist_ok=True)
    os.replace(partial / "build.log", kept)
    said = failure
    if failure.startswith(EXITED):
        text = kept.read_text(encoding="utf-8", errors="replace")
        said = first_error(text) or failure.removeprefix(EXITED) + (
            f"; its output ends: {last_words(text)}" if last_words(text) else ""
        )
    said = said.replace(str(partial / "src") + os.sep, "").replace(str(partial) + os.sep, "").removeprefix("./")
    at_commit = plan.revision if "@" in plan.spec else None
    if _names_a_file(said):
        said = _as_the_user_finds_it(said, plan.place, at_commit)
        at_commit = None  # (said with the file)
    at = f" at {at_commit}" if at_commit else ""
    raise BuildError(f"cannot build {plan.spec}{at}: {said} (the whole log: {kept})", kept)


def _as_the_user_finds_it(said: str, place: str, commit: str | None) -> str:
    """A compiler's message that starts with a file's place (`bot.cpp:3:5: ...`), the file named from
    the user's folder, and with the commit its version is of (`bot.cpp@186b1cfdd7a0:3:5: ...`): a
    build at a commit names a file whose working tree's lines may differ."""
    file = re.match(r"[^:(]*", said)[0]  # (C#'s messages: `Program.cs(3,5): error ...`)
    found = file if place == "." else f"{place}/{file}"
    return found + (f"@{commit}" if commit else "") + said[len(file) :]


def _names_a_file(said: str) -> bool:
    """Whether a message starts with a relative file's place (`bot.cpp:3:5: ...`)."""
    name = said.partition(":")[0].partition("(")[0]
    return bool(name) and " " not in name and not name.startswith("/") and "." in name


def _only_program(plan: Plan, partial: Path) -> Path:
    """The one program a build without a run command made (CMake's)."""
    out = partial / "out"
    programs = sorted(
        path
        for path in out.rglob("*")
        if path.is_file()
        and os.access(path, os.X_OK)
        and "CMakeFiles" not in path.parts
        and path.suffix not in (".so", ".a", ".o", ".sh")
    )
    if len(programs) != 1:
        names = ", ".join(p.name for p in programs) or "none"
        raise BuildError(f"{plan.spec}: the build made {len(programs)} programs ({names}): declare which to run")
    return programs[0]


def _dirty(source: Source, inputs: list[Path]) -> bool:
    if source.pinned or source.repository is None:
        return False
    inside = [p for p in inputs if p.is_relative_to(source.repository)]
    return bool(inside) and dirty(source.repository, inside)
