"""Files the project's commands read and write: read whole or refused in one line, written whole or
not at all, and never over their own input.

`read_text` reads a command's input, or says in one line why it cannot. `write_atomic` writes a
file's new content to a temporary file beside it, then renames it over the old one: a full disk, a
kill or a crash midway leaves the old file as it was (never a truncated one), and a reader sees the
old file or the new, nothing between; what is no regular file (a device, a FIFO) is written to in
place. `refuse_overwriting` is the check every command makes before it writes: an output that is
one of its inputs (the same file by any name) is a user's mistake, said in one line.
`usable_folder` makes a folder a command needs, or says in one line why it cannot.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shlex
import stat
from collections.abc import Callable
from pathlib import Path

from .errors import UserError
from .bot_commands import module_file, run_folder

_DESCRIPTOR = re.compile(r"/dev/fd/|/proc/[^/]+/fd/")


def not_utf8(source: str | os.PathLike, error: UnicodeDecodeError) -> str:
    """How every command says that `source` (a file, "the input") is not UTF-8 text, and where."""
    return f"{source} is not UTF-8 text (byte {error.start})"


def read_text(path: str | os.PathLike, kind: str = "") -> str:
    """The text of the UTF-8 file `path` (less a byte order mark, which some editors begin a file
    with); where it cannot be read, a UserError saying why in one line, of the file of `kind` (a
    replay) where one is named."""
    try:
        return Path(path).read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise UserError(f"cannot read {f'the {kind} ' if kind else ''}{path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        if kind:
            raise UserError(f"{path} is not a {kind} file (not UTF-8 text: byte {exc.start})") from None
        raise UserError(not_utf8(path, exc)) from None


def write_atomic(path: str | os.PathLike, data: str | bytes, encoding: str = "utf-8") -> None:
    """Write `data` (text in `encoding`, or bytes) to `path` through a temporary file in its folder,
    renamed over it once written and flushed to disk. A file replaced keeps its permissions; a
    symbolic link keeps pointing where it did, at the new content. What is no regular file (a
    device such as /dev/null or /dev/stdout, a FIFO) is written to, never replaced: a rename would put
    a file in its place. OSError as `open` raises it (the temporary file is then removed)."""
    content = data.encode(encoding) if isinstance(data, str) else data
    if _written_through(path):
        with open(path, "wb") as file:
            file.write(content)
        return
    target = Path(os.path.realpath(path))
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(4)}.part")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)  # less the umask
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(content)
            file.flush()
            os.fsync(file.fileno())
        try:
            os.chmod(temporary, stat.S_IMODE(os.stat(target).st_mode))
        except FileNotFoundError:
            pass
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _written_through(path: str | os.PathLike) -> bool:
    """Whether `path` is written in place: it is no regular file or folder (a device, a FIFO, a
    socket), or it names a descriptor of this process (/dev/stdout, /dev/fd/N, /proc/self/fd/N),
    whose file a rename would replace instead of writing to."""
    name = os.path.abspath(path)
    for _ in range(40):  # the symbolic links that lead to a descriptor (/dev/stdout -> /proc/self/fd/1)
        if _DESCRIPTOR.match(name):
            return True
        try:
            name = os.path.normpath(os.path.join(os.path.dirname(name), os.readlink(name)))
        except OSError:  # no link (any more)
            break
    try:
        mode = os.stat(path).st_mode
    except OSError:  # no such file (yet): made by the rename
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def same_file(a: str | os.PathLike, b: str | os.PathLike) -> bool:
    """Whether `a` and `b` name the same file: the same inode where both exist (hard and symbolic
    links, `./x` and `x`), else the same resolved path."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return Path(a).resolve() == Path(b).resolve()


def refuse_overwriting(output: str | os.PathLike, *inputs: str | os.PathLike) -> None:
    """UserError when `output` is one of `inputs`: no command writes over what it reads."""
    for source in inputs:
        if same_file(output, source):
            shown = f"{output}" if str(output) == str(source) else f"{output} (the same file as {source})"
            raise UserError(f"{shown} is an input of this command: it will not write over it; name another output")


def check_writable(path: str, option: str) -> None:
    """UserError, before a command's work, where `path` (the value of `option`) cannot be written:
    an empty name, a folder, or a folder of it missing or closed to this user. Checked first, so that
    a game's or a run's result is not lost to a mistyped output path found at its end."""
    if not path.strip():
        raise UserError(f"{option} needs a file name (it was given an empty one)")
    target = Path(path)
    if target.is_dir():
        raise UserError(f"{option} {path} is a folder: name a file")
    folder = target.parent
    if not folder.is_dir():
        raise UserError(f"cannot write {path}: its folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UserError(f"cannot write {path}: its folder {folder} is not writable")


def refuse_replacing_another_kind(path: str | os.PathLike, kind: str, keys: tuple[str, ...]) -> None:
    """UserError where `path` holds a file that is not what the command writes there (`kind`: a JSON
    object with `keys`), a bot's module above all: `--record _common.py` replaced the module the bot
    it timed imports (named by no command line, so no input by `files_named`). A missing or empty
    file, or one of the kind (an earlier run's), is written over; so is what is no regular file (a
    device, a FIFO: written through, never read here, where a read would wait)."""

    def of_the_kind(text: str) -> bool:
        try:
            data = json.loads(text)
        except ValueError:
            return False
        return isinstance(data, dict) and all(key in data for key in keys)

    refuse_replacing(path, kind, of_the_kind)


def refuse_replacing_a_non_svg(path: str | os.PathLike) -> None:
    """As `refuse_replacing_a_non_page`, for an SVG picture."""
    refuse_replacing(path, "an SVG picture", lambda text: text.lstrip()[:20].lower().startswith(("<svg", "<?xml")))


def refuse_replacing_a_non_page(path: str | os.PathLike, kind: str) -> None:
    """UserError where `path` holds a file that is no HTML page (`kind`: the page the command writes),
    as `refuse_replacing_another_kind` does for JSON: `-o helper.py` replaced a bot's module."""
    refuse_replacing(path, kind, lambda text: text.lstrip()[:20].lower().startswith(("<!doctype html", "<html")))


def refuse_replacing(path: str | os.PathLike, kind: str, of_the_kind: Callable[[str], bool]) -> None:
    """UserError where `path` is a regular file, not empty, whose text `of_the_kind` refuses: the
    command writes files of one kind there (`kind`), and what it would replace is of another, a
    bot's module above all, named by no command line."""

    def text_of_the_kind(data: bytes) -> bool:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return False
        return not text.strip() or of_the_kind(text)

    refuse_replacing_data(path, kind, text_of_the_kind)


def refuse_replacing_data(path: str | os.PathLike, kind: str, of_the_kind: Callable[[bytes], bool]) -> None:
    """As `refuse_replacing`, where `of_the_kind` judges the file's bytes (data that is no text)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return
        data = Path(path).read_bytes()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError):
        return  # (none yet; a folder or a closed file: the write says why)
    except OSError:
        data = None
    if data is None or (data and not of_the_kind(data)):
        raise UserError(f"{path} holds something else than {kind}: it will not write over it; name another output")


def files_named(*specs: str | None) -> list[str]:
    """The existing files that players' specs or command lines name, whole or word by word (a bot's
    file, the script its command runs): inputs that no output of the command may be written over."""
    named = []
    for spec in filter(None, specs):
        try:
            words = shlex.split(spec)
        except ValueError:  # (an unbalanced quote: its player is refused with its reason elsewhere)
            words = []
        folder = run_folder(words)  # (`env -C DIR ...` names its files from DIR)
        named += [spec] if os.path.isfile(spec) else [str(folder / w) for w in words if (folder / w).is_file()]
        module = module_file(words)  # (`python3 -m mybots.lowest` runs mybots/lowest.py)
        if module is not None:
            named.append(str(module))
    return named


def refuse_one_file_twice(outputs: dict[str, str | os.PathLike | None]) -> None:
    """UserError when two of a command's `outputs` (option -> path, None where not given) are the same
    file by any name: the second would be written over the first."""
    given = [(option, path) for option, path in outputs.items() if path]
    for i, (option, path) in enumerate(given):
        for other, other_path in given[:i]:
            if same_file(path, other_path):
                raise UserError(f"{other} {other_path} and {option} {path} are the same file: name two")


def usable_folder(path: str | os.PathLike, purpose: str) -> Path:
    """Folder `path`, made (with its parents) if need be; UserError saying why it cannot be used
    for `purpose` ("the player cache", ...) when it cannot be made or is not a folder."""
    folder = Path(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise UserError(f"cannot use {folder} as {purpose}: it is a file, not a folder") from None
    except OSError as exc:
        raise UserError(f"cannot use {folder} as {purpose}: {exc.strerror or exc}") from None
    return folder
