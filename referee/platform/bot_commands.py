"""A bot's command line before any game: split, checked to start here and wait for its first input
(`check_command`), the files it names (for travel to another machine), and its warm-up run (a
numba bot's kernels compiled before the first timed turn)."""

from __future__ import annotations

import errno
import importlib.util
import mmap
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from . import programs
from .bot_errors import BotStartError, signal_name
from .process_tree import ProcessTree
from .stderr_sink import StderrSink, why_it_ended

WARM_UP_SECONDS = 600  # for a bot's warm-up command: compiling numba kernels on a busy machine
# A program that `check_command` starts is watched this long for an exit before its first input: a
# bot must wait for the referee's first lines, so one that ends at once (an import or a library
# missing, a syntax error) cannot play. LOAD_FAILED: the status of a program whose libraries the
# system could not load (and of a shell whose command is not found).
START_CHECK_S = 0.25
LOAD_FAILED = 127
LOADER_FAILED = "error while loading shared libraries"  # what the loader says of a library not here
RUN_STDERR_BYTES = 16384  # the end of the stderr kept of a check or a warm-up: the error is there


def split_command(command: str | Sequence[str]) -> list[str]:
    """A command line as an argument list (a string is split as a POSIX shell splits words)."""
    try:
        args = shlex.split(command) if isinstance(command, str) else list(command)
    except ValueError as exc:  # an unbalanced quote
        raise BotStartError(f"cannot split the command {command!r}: {exc}") from None
    if not args:
        raise BotStartError("empty command")
    return args


def unquoted_path(args: Sequence[str], cwd: str | None) -> str:
    """A message's end telling to quote the path where the command's first words, joined by spaces,
    name a file: a path with spaces given unquoted (`sp dir/my solver.sh` runs `sp`); else ""."""
    for end in range(len(args), 1, -1):
        joined = " ".join(args[:end])
        if Path(cwd or ".", joined).is_file():
            return f"; the file {joined!r} has spaces in its path: quote it ({shlex.quote(joined)})"
    return ""


def check_command(command: str | Sequence[str], cwd: str | None = None, shown: str | None = None) -> list[str]:
    """The command's argument list, once its program is known to run: found on PATH, or a file
    (relative to `cwd`) that is executable, and the command started here waits for its first input
    (`_check_starts`). BotStartError saying what is wrong otherwise; the one rule of every command
    that runs a player (`referee volcanoes play`, the arena, on each of a cluster's machines) before
    any game. The program is the one `env` and its assignments run, if the command begins with them.
    `shown`: what the user calls the command (a pinned copy's command is not what they typed)."""
    args = split_command(command)
    first = program_index(args)
    run, assignments = args[first:], dict(word.split("=", 1) for word in args[1:first])
    program = run[0]
    if os.sep not in program:
        if shutil.which(program) is None:
            hint = _file_here(program, cwd)
            hint = f"; {hint}" if hint else unquoted_path(run, cwd)
            raise BotStartError(f"{_NOT_ON_PATH.format(program=program)}{hint}")
    else:
        path = Path(cwd or ".", program)
        if not path.exists():
            raise BotStartError(f"{program}: no such file{unquoted_path(run, cwd)}")
        if path.is_dir():
            raise BotStartError(f"{program} is a folder, not a program")
        if not os.access(path, os.X_OK):
            raise BotStartError(_not_executable(program, path))
    _check_starts(run, assignments, cwd, shown)
    return args


_NOT_ON_PATH = "{program}: no such command (not on PATH)"


def _file_here(program: str, cwd: str | None) -> str | None:
    """What to run instead of `program`, a word not on PATH, where a file of that name is here
    (the system looks for such a word on PATH only); None where none is."""
    here = Path(cwd or ".", program)
    if not here.is_file():
        return None
    if here.suffix == ".py":
        return f"run the file here by its interpreter ({shlex.join([sys.executable, program])})"
    source = programs.source_hint(here)
    if source:
        return source
    executable = "" if os.access(here, os.X_OK) else f", once executable ({shlex.join(['chmod', '+x', program])})"
    return f"the file here is ./{program}{executable}"


def _not_executable(program: str, path: Path) -> str:
    """Why the file `program` (at `path`), not executable, does not run, and what to do."""
    source = programs.source_hint(path)
    if source:
        return f"{program}: {source}"
    # (the commands quoted, as the shell must be given them: `Mes bots/élan.py`)
    run_it = shlex.join([sys.executable, program])
    hint = f"run it by its interpreter ({run_it}) or " if path.suffix == ".py" else ""
    return f"{program} is not executable: {hint}make it so ({shlex.join(['chmod', '+x', program])})"


def _check_starts(run: list[str], assignments: dict[str, str], cwd: str | None, shown: str | None) -> None:
    """BotStartError when the program and arguments `run` (`env`'s `assignments` in its environment)
    cannot play here: started once with its input open and nothing written to it, it must start
    (not a program of another processor or system, nor a script whose interpreter is not here) and
    still run after START_CHECK_S, waiting for its first input as every bot does (not ended by a
    missing library, module or file, or a syntax error); then it is ended, with everything it started. It is started, not read, because only the system
    and the interpreter know all it needs; a failure seen later than START_CHECK_S (a slow virtual
    machine's start) is still each game's crash. `shown`: the command as that message names it."""
    try:  # (the program itself, not `env`: the system's reason when it cannot start is about the program)
        code, said = _run_owned(run, cwd, START_CHECK_S, hold_input=True, variables=assignments)
    except OSError as exc:
        raise BotStartError(f"{run[0]} cannot start on this machine: {_why_not_started(exc, run[0], cwd)}") from None
    if code is None:
        return
    lines = said.strip().splitlines()
    kind = programs.describe(Path(cwd or ".", run[0])) if os.sep in run[0] else ""
    if code == LOAD_FAILED and kind.endswith(programs.CARRIAGE_RETURN):  # `env` found no "python3\r"
        raise BotStartError(f"{run[0]} cannot start on this machine: {_unix_line_endings(kind)}")
    if code == LOAD_FAILED and LOADER_FAILED in said:  # (a script's missing command exits 127 too: its own)
        raise BotStartError(
            f"{run[0]} cannot start on this machine ({programs.this_machine()}): it exited at once with status "
            f"{LOAD_FAILED}, that of a program whose libraries or commands are not here: "
            f"{lines[0] if lines else '(nothing on stderr)'}"
        )
    how = f"killed by {signal_name(-code)}" if code < 0 else f"status {code}"
    raise BotStartError(
        f"{shown or shlex.join(run)} ended before its first input ({how}): {why_it_ended(said) or '(nothing on stderr)'}"
    )


def _run_owned(
    args: list[str], cwd: str | None, seconds: float, hold_input: bool = False, variables: dict | None = None
) -> tuple[int | None, str]:
    """Run `args` in a `ProcessTree` of its own, its output discarded, for at most `seconds`: its
    exit status (None: it still ran, and was ended) and the end of its stderr (the last
    `RUN_STDERR_BYTES`: a flood is neither held in memory nor written to disk, and a process it left
    behind cannot hold the reading up); everything it started is ended either way. Its input: none,
    or with `hold_input` a pipe held open and never written (a bot waits there as for a referee);
    `variables` added to its environment. OSError when it cannot start."""
    tree = ProcessTree()
    env = {**os.environ, **variables} if variables else None
    stdin = subprocess.PIPE if hold_input else subprocess.DEVNULL
    try:
        proc = tree.start(args, env=env, cwd=cwd, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    except OSError:
        tree.end(None)
        raise
    sink = StderrSink(proc.stderr.fileno(), RUN_STDERR_BYTES, keep_end=True)
    sink.start()
    try:
        code = proc.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        code = None
    finally:
        tree.end(proc)
        proc.wait()
        tree.forget()
        sink.stop(1.0)
        said = sink.take()
        for pipe in (proc.stdin, proc.stderr):
            if pipe is not None:
                pipe.close()
    return code, said


def _why_not_started(exc: OSError, program: str, cwd: str | None) -> str:
    """Why the system did not start `program`, with what the file is where that is the reason."""
    path = Path(cwd or ".", program)
    kind = programs.describe(path)
    if exc.errno == errno.ENOEXEC and kind == programs.NOT_A_PROGRAM:
        interpreter = "#!/usr/bin/env python3" if path.suffix == ".py" else "#!/bin/sh"
        return programs.source_hint(path) or (
            f"it is {kind} ({exc.strerror}): begin it with a #! line naming its interpreter ({interpreter})"
        )
    if exc.errno == errno.ENOEXEC and kind == programs.MARKED:
        return f"it is {kind} ({exc.strerror}): save it as UTF-8 without a byte order mark"
    if exc.errno == errno.ENOEXEC:
        return (
            f"it is {kind} and this machine is {programs.this_machine()} ({exc.strerror}): "
            "build it on this machine, or on one of the same processor and system"
        )
    if exc.errno == errno.ENOENT and path.is_file():
        if kind.endswith(programs.CARRIAGE_RETURN):  # the system looks for "/bin/sh\r"
            return _unix_line_endings(kind)
        if kind.startswith(programs.SCRIPT):
            return f"it is {kind}, an interpreter this machine does not have"
        return f"it is {kind}, whose loader this machine does not have (a program built on another system)"
    return start_failure(exc, cwd)


def _unix_line_endings(kind: str) -> str:
    return f"it is {kind}: save it with Unix line endings (dos2unix does it)"


def program_index(args: Sequence[str]) -> int:
    """Where a command's program is among its words: after `env` and its `NAME=VALUE` assignments
    (`env C=0.3 python3 bot.py` runs python3), else first. Where `env` is given options of its own
    (`env -i ...`, `env -C DIR ...`, `env -u NAME ...`), `env` is the program: it alone reads them."""
    if not args or args[0] != "env":
        return 0
    i = 1
    while i < len(args) and "=" in args[i] and not args[i].startswith("-"):
        i += 1
    if i < len(args) and args[i].startswith("-"):
        return 0
    return min(i, len(args) - 1)


# The programs that run a language's files, by their name less any version (python3.11, lua5.4).
_INTERPRETERS = {
    **dict.fromkeys(("python", "pypy"), "python"),
    **dict.fromkeys(("java", "kotlin", "scala"), "java"),
    **dict.fromkeys(("mono", "dotnet"), "csharp"),
    **dict.fromkeys(("node", "nodejs"), "javascript"),
    **{name: name for name in ("ruby", "perl", "php", "lua")},
}
# What marks a compiled program's language in its file, stripped or not: Go's build information
# (which every Go program carries, for runtime/debug.ReadBuildInfo), and the variable that Rust's
# standard library reads when a program panics.
_COMPILED_MARKS = ((b"\xff Go buildinf:", "go"), (b"RUST_BACKTRACE", "rust"))
_STDBUF_VALUED = ("-i", "-o", "-e")  # stdbuf's options whose value is the next word
LINE_BUFFERED = "c"  # what `program_language` says of another program run under stdbuf: C's stdio is what it sets


def program_language(args: Sequence[str], cwd: str | None = None) -> str | None:
    """The language of the program a command runs (its words `args`, from `cwd`), where the program
    says it: an interpreter's (`java -cp out Player`, `python3 bot.py`, a script's #! line), a
    compiled program's marks (Go, Rust), LINE_BUFFERED for another program run under `stdbuf` (as the
    arena runs C and C++); else None. Keys as arena/builds/languages.py names them."""
    folder, run = run_folder(args, cwd), list(args[program_index(args) :])
    under_stdbuf = bool(run) and Path(run[0]).name == "stdbuf"
    if under_stdbuf:
        run = _after_stdbuf_options(run[1:])
    if not run:
        return None
    language = _interpreted(run[0]) or _language_in_file(folder, run[0])
    return language or (LINE_BUFFERED if under_stdbuf else None)


def _after_stdbuf_options(words: list[str]) -> list[str]:
    """The command that stdbuf runs: `words` (what follows stdbuf) past its options."""
    i = 0
    while i < len(words) and words[i].startswith("-"):
        i += 2 if words[i] in _STDBUF_VALUED else 1
    return words[i:]


def _interpreted(program: str) -> str | None:
    return _INTERPRETERS.get(re.sub(r"[\d.]+$", "", Path(program).name))


def _language_in_file(folder: Path, program: str) -> str | None:
    """The language of the program file `program` (from `folder`, or on PATH): a script's
    interpreter's, or a compiled program's by its marks; None where neither says."""
    found = folder / program if os.sep in program else shutil.which(program)
    try:
        with open(found or "", "rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as data:
            if data[:2] == b"#!":
                return _interpreted(_script_interpreter(data.readline()))
            return next((language for mark, language in _COMPILED_MARKS if data.find(mark) >= 0), None)
    except (OSError, ValueError):  # (not a file here; an empty file, which mmap refuses)
        return None


def _script_interpreter(first_line: bytes) -> str:
    """The program a script's #! line runs (`#!/usr/bin/env python3`: python3)."""
    words = first_line[2:].decode("utf-8", "replace").split()
    if words and Path(words[0]).name == "env":
        words = [word for word in words[1:] if not word.startswith("-") and "=" not in word]
    return words[0] if words else ""


def run_folder(args: Sequence[str], cwd: str | None = None) -> Path:
    """The folder a command's program runs in, where its relative file names point: `cwd`, or the
    folder `env -C DIR` (`--chdir=DIR`) moves it to (`env -C sub python3 bot.py` runs sub/bot.py)."""
    base = Path(cwd or ".")
    if not args or args[0] != "env":
        return base
    i = 1
    while i < len(args):
        word = args[i]
        if word in ("-C", "--chdir") and i + 1 < len(args):
            return base / args[i + 1]
        if word.startswith("--chdir="):
            return base / word.partition("=")[2]
        if word.startswith("-C") and len(word) > 2:
            return base / word[2:]
        if word in ("-u", "--unset"):
            i += 2
        elif word.startswith("-") or "=" in word:
            i += 1
        else:  # the program env runs
            break
    return base


def module_file(args: Sequence[str], cwd: str | None = None) -> Path | None:
    """The file of the module a Python command runs (`python3 -m mybots.lowest`: mybots/lowest.py,
    or a package's __main__.py), found from the folder it runs in; None for another command, or a
    module found elsewhere (installed)."""
    if "-m" not in args[:-1]:
        return None
    module = run_folder(args, cwd).joinpath(*args[args.index("-m") + 1].split("."))
    return next(
        (path for path in (module.with_name(module.name + ".py"), module / "__main__.py") if path.is_file()), None
    )


def command_files(command: str | Sequence[str], cwd: str | None = None) -> list[Path]:
    """The files a command line names outside the folder it runs in (`cwd`), each once, absolute:
    an argument that is the path of a file, relative to `cwd` or absolute (`java -jar ../ref.jar`,
    `python3 /home/me/bot.py`). Its program counts only when given by a relative path (`../bin/bot`):
    a program named alone or by an absolute path (`python3`, `/usr/bin/java`) is the machine's. What
    a command needs to run on another machine, beside its folder."""
    args = split_command(command)
    base = Path(os.path.abspath(cwd or "."))
    program = program_index(args)
    found: list[Path] = []
    for i, arg in enumerate(args):
        if i < program or (i == program and (os.sep not in arg or os.path.isabs(arg))):
            continue
        path = Path(os.path.normpath(base / arg))
        if path.is_file() and not path.is_relative_to(base) and path not in found:
            found.append(path)
    return found


def warm_up_command(command: str | Sequence[str], cwd: str | None = None) -> list[str] | None:
    """The command that prepares bot `command` before its games, or None when it has none.

    The convention: a bot run as a module (`python -m PACKAGE.NAME`) whose package also has a
    `warmup` module is prepared by `python -m PACKAGE.warmup NAME` (for this project's bots it
    compiles their numba kernels into the cache, so no game's clock runs while they compile). The
    package is looked for in the folder the command runs in (`python -m` imports from there first),
    and, where that folder holds none of it and the program is this very Python, wherever this Python
    finds it (installed: the command given from another folder)."""
    args = split_command(command)
    if "-m" not in args[1:-1] or "." not in args[args.index("-m") + 1]:
        return None
    at = args.index("-m")
    package, name = args[at + 1].rsplit(".", 1)
    here = Path(cwd or ".")
    if (here / package.split(".")[0]).exists():
        found = (here / Path(*package.split(".")) / "warmup.py").is_file()
    else:
        found = _is_this_python(args[0]) and _has_module(f"{package}.warmup")
    return [*args[:at], "-m", f"{package}.warmup", name] if found else None


def _is_this_python(program: str) -> bool:
    found = shutil.which(program)
    return found is not None and os.path.realpath(found) == os.path.realpath(sys.executable)


def _has_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # (a parent package that cannot be imported)
        return False


def warm_up(command: str | Sequence[str], cwd: str | None = None, log=None, label: str | None = None) -> None:
    """Run `command`'s warm-up (see `warm_up_command`), if it has one, saying so on `log`;
    BotStartError when it fails."""
    log = log or sys.stderr
    prepare = warm_up_command(command, cwd)
    if prepare is None:
        return
    started = time.perf_counter()
    print(
        f"preparing {label or shlex.join(split_command(command))} ({shlex.join(prepare[2:])})...",
        end=" ",
        file=log,
        flush=True,
    )
    try:  # (a warm-up is the bot's code too: nothing it starts outlives it)
        code, message = _run_owned(prepare, cwd, WARM_UP_SECONDS)
    except OSError as exc:
        raise BotStartError(f"cannot start its warm-up {shlex.join(prepare)}: {start_failure(exc, cwd)}") from None
    if code is None:
        raise BotStartError(f"its warm-up took more than {WARM_UP_SECONDS} s")
    if code != 0:
        last = (message.strip().splitlines() or ["(no message)"])[-1]
        raise BotStartError(f"its warm-up {shlex.join(prepare)} failed: {last}")
    print(f"ready in {time.perf_counter() - started:.1f} s", file=log, flush=True)


def start_failure(exc: OSError, cwd: str | None) -> str:
    """Why a process did not start: its folder missing is said so (Popen's "No such file or
    directory" would blame the program, which may well be there), and a program that is a file here
    but not on PATH, or not executable, as `check_command` says it (what to run instead)."""
    if cwd is not None and not os.path.isdir(cwd):
        return f"its folder {cwd} does not exist here"
    program = exc.filename if isinstance(exc.filename, str) else None  # (Popen's: the program)
    if program and exc.errno == errno.ENOENT and os.sep not in program:
        hint = _file_here(program, cwd)
        if hint:
            return f"{_NOT_ON_PATH.format(program=program)}; {hint}"
    path = Path(cwd or ".", program or "")
    if program and exc.errno == errno.EACCES and path.is_file() and not os.access(path, os.X_OK):
        return _not_executable(program, path)
    return exc.strerror or str(exc)
