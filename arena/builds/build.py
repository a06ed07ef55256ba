"""Builds are artifacts: a bot's file or folder built as CodinGame builds it (or by the `build` and
`run` commands its user declares), once, into the cache, under the hash of what went into it.

The hash covers the sources (a file; a C or C++ file with its local includes; a folder's files), the
language's commands and flags, and what its compiler says of its version. A build is made in a
temporary folder and renamed into place, `builds/LANGUAGE-HASH`, so that every run, worker and
resume that needs the same build finds it made, and two that make it at once do no harm. A failed
build raises BuildError: one line, the compiler's first error with its file and line, and the path
of the whole log, kept in `builds/failed/`. Nothing is built inside a game.

A file is built alone, as CodinGame takes one file (a C or C++ file with its local includes); a bot
of several files is given as its folder. In a folder, files and folders whose name starts with a dot
and build outputs (`target`, `build`, `bin`, `obj`, `node_modules`, `__pycache__`, `cmake-build-*`)
are left out.
"""

from __future__ import annotations

import hashlib
import json
import os
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
from arena.builds.diagnostics import COMMAND_PREFIX, first_error, last_words
from arena.builds.includes import local_includes
from arena.builds.languages import LanguageError
from arena.builds.revisions import Source, SourceError, cache_root, dirty, head, resolve_source
from arena.errors import UsageError

BUILD_FORMAT = "caldera build 1"  # part of every hash: change it when a build's folder changes
CUSTOM = "custom"  # the language of a build made by the user's own commands
DEFAULT_TIMEOUT_S = 600.0
IGNORED_FOLDERS = {"target", "build", "bin", "obj", "node_modules", "__pycache__"}
MAX_FILES, MAX_BYTES = 2000, 50_000_000  # a bot's folder, not a repository with its data
EXITED = "exited: "  # a failed step's reason starts with it when its log says more
RECORD = "build.json"  # in a build's folder, written last: the build is complete


class BuildError(UsageError):
    """A build that failed: the message is one line, the compiler's first error; `log` keeps the whole."""

    def __init__(self, message: str, log: Path | None = None):
        super().__init__(message)
        self.log = log


@dataclass(frozen=True)
class Build:
    """A built bot: what the arena runs, and the version it records."""

    spec: str  # what the user wrote
    language: str  # a key of arena.builds.languages.BY_KEY, or CUSTOM
    command: str  # the command line that runs the bot
    cwd: Path  # where it runs
    version: str  # the hash of what went in, "+dirty" after it for uncommitted changes
    folder: Path  # the build in the cache
    revision: str | None  # the commit built (12 digits), "+dirty" after it for uncommitted changes; None outside git
    reused: bool  # True: found made in the cache; False: made by this call

    @property
    def log(self) -> Path:
        return self.folder / "build.log"


def builds_dir(cache: Path | None = None) -> Path:
    return (cache or cache_root()) / "builds"


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
    the cache. `build_command` and `run_command` (shell command lines, run in the copy of the
    sources) replace the language's; `say` is told when a build starts. Raises SourceError (no such
    source, no language, a compiler missing here) or BuildError (the build failed)."""
    if not isinstance(source, Source):
        source = resolve_source(str(source), cache)
    if build_command and not run_command:
        raise SourceError(f"{source.spec}: a declared build command needs a run command too")
    custom = run_command is not None
    inputs, base, language = _inputs(source, custom)
    relative = [path.relative_to(base).as_posix() for path in inputs]
    if custom:
        made = recipes.Recipe(((build_command,),) if build_command else (), (run_command,))
        key, tool_versions = CUSTOM, ""
    else:
        entry = source.path.relative_to(base).as_posix() if source.path.is_file() else None
        made = _recipe(source, language, base, relative, entry)
        key = language.key
        tool_versions = languages.versions(language) + "".join(
            f"\n{tool}: {languages.tool_version(tool)}" for tool, _ in made.tools
        )
    contents = {name: path.read_bytes() for name, path in zip(relative, inputs, strict=True)}
    digest = _digest(key, made, tool_versions, contents)
    folder = builds_dir(cache) / f"{key}-{digest}"
    reused = (folder / RECORD).is_file()
    if not reused:
        if say:
            say(f"building {source.spec} ({language.name if language else 'its build command'}) ...")
        _make(source, folder, made, contents, tool_versions, base, timeout_s, declared=custom)
    record = json.loads((folder / RECORD).read_text(encoding="utf-8"))
    unsaved = _dirty(source, inputs)
    suffix = "+dirty" if unsaved else ""
    revision = source.commit or (head(source.repository) if source.repository else None)
    return Build(
        spec=source.spec,
        language=key,
        command=record["command"],
        cwd=folder / "src" if custom else folder,
        version=digest + suffix,
        folder=folder,
        revision=revision[:12] + suffix if revision else None,
        reused=reused,
    )


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
            if not name.startswith(".") and name not in IGNORED_FOLDERS and not name.startswith("cmake-build-")
        )
        for name in sorted(names):
            path = Path(top) / name
            if name.startswith(".") or not path.is_file():
                continue
            files.append(path)
            total += path.stat().st_size
            if len(files) > MAX_FILES or total > MAX_BYTES:
                raise SourceError(
                    f"{spec} holds over {MAX_FILES} files or {MAX_BYTES // 1_000_000} MB: give the bot's own folder"
                )
    return files


def _digest(key: str, made: recipes.Recipe, tool_versions: str, contents: dict[str, bytes]) -> str:
    digest = hashlib.sha256()
    header = json.dumps([BUILD_FORMAT, key, made.steps, made.run, tool_versions, sorted(made.extras)])
    digest.update(header.encode())
    for name, content in [*sorted(contents.items()), *sorted(made.extras.items())]:
        digest.update(f"\0{name}\0{len(content)}\0".encode())
        digest.update(content)
    return digest.hexdigest()[:12]


def _make(
    source: Source,
    folder: Path,
    made: recipes.Recipe,
    contents: dict[str, bytes],
    tool_versions: str,
    base: Path,
    timeout_s: float,
    declared: bool,
) -> None:
    """Build into a temporary folder beside `folder`, then rename it into place (or leave the one
    another process put there meanwhile)."""
    partial = folder.with_name(f".{folder.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}")
    try:
        (partial / "out").mkdir(parents=True)
        for name, content in contents.items():
            target = partial / "src" / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
            target.chmod(stat.S_IMODE((base / name).stat().st_mode) | stat.S_IRUSR | stat.S_IWUSR)
        (partial / "src").mkdir(exist_ok=True)
        for name, content in made.extras.items():
            (partial / name).write_bytes(content)
        started = time.monotonic()
        with open(partial / "build.log", "w", encoding="utf-8", errors="replace") as log:
            for step in made.steps:
                failure = _step(step, partial / "src", log, timeout_s - (time.monotonic() - started))
                if failure is not None:
                    log.close()
                    _failed(source, folder, partial, base, failure)
        run = made.run or _only_program(source, partial)
        # A declared run command is a command line as its user wrote it; the arena's own is argv.
        command = run[0] if declared else shlex.join(arg.replace(recipes.BUILD, str(folder)) for arg in run)
        record = {
            "spec": source.spec,
            "command": command,
            "steps": [list(step) for step in made.steps],
            "versions": tool_versions,
            "files": sorted(contents),
            "seconds": round(time.monotonic() - started, 3),
        }
        (partial / RECORD).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        try:
            partial.rename(folder)
        except OSError:
            if not (folder / RECORD).is_file():
                raise
    finally:
        shutil.rmtree(partial, ignore_errors=True)


def _step(step: tuple[str, ...], cwd: Path, log, timeout_s: float) -> str | None:
    """Run one step, its output into `log`; None if it succeeded, else what went wrong (EXITED
    first: see the log). A step of one string is a
    shell command line (a declared build command); its whole process group ends on a timeout."""
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
        )
    except OSError as exc:
        return f"cannot run {step[0]}: {exc.strerror or exc}"
    program = "the build command" if shell else step[0]
    try:
        status = process.wait(timeout=max(timeout_s, 0.001))
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        return f"the build took longer than {timeout_s:.0f} s"
    finally:
        if process.returncode is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    return None if status == 0 else f"{EXITED}{program} exited with status {status}"


def _failed(source: Source, folder: Path, partial: Path, base: Path, failure: str) -> None:
    """Keep the log in `failed/` and raise the BuildError that names its first error, its file
    named as the user finds it (the copy's paths are the cache's)."""
    kept = folder.parent / "failed" / f"{folder.name}.log"
    kept.parent.mkdir(parents=True, exist_ok=True)
    os.replace(partial / "build.log", kept)
    said = failure
    if failure.startswith(EXITED):
        text = kept.read_text(encoding="utf-8", errors="replace")
        said = first_error(text) or failure.removeprefix(EXITED) + (
            f"; its output ends: {last_words(text)}" if last_words(text) else ""
        )
    said = said.replace(str(partial / "src") + os.sep, "").replace(str(partial) + os.sep, "").removeprefix("./")
    anchor, shown = (source.path.parent, source.shown.parent) if source.path.is_file() else (source.path, source.shown)
    place = os.path.relpath(os.path.normpath(shown / os.path.relpath(base, anchor)))
    if place != "." and _names_a_file(said):
        said = f"{place}/{said}"
    at = f" at {source.commit[:12]}" if source.pinned else ""
    raise BuildError(f"cannot build {source.spec}{at}: {said} (the whole log: {kept})", kept)


def _names_a_file(said: str) -> bool:
    """Whether a message starts with a relative file's place (`bot.cpp:3:5: ...`)."""
    name = said.partition(":")[0].partition("(")[0]
    return bool(name) and " " not in name and not name.startswith("/") and "." in name


def _only_program(source: Source, partial: Path) -> tuple[str, ...]:
    """The one program a build without a run command made (CMake's), as a run command."""
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
        raise BuildError(f"{source.spec}: the build made {len(programs)} programs ({names}): declare which to run")
    return (f"{recipes.BUILD}/{programs[0].relative_to(partial).as_posix()}",)


def _dirty(source: Source, inputs: list[Path]) -> bool:
    if source.pinned or source.repository is None:
        return False
    inside = [p for p in inputs if p.is_relative_to(source.repository)]
    return bool(inside) and dirty(source.repository, inside)
