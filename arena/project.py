"""Where this project's own code is: the root of its checkout (or of its install), and its packages.
The bundler reads its modules from there, and a player pinned at a git revision is its tree there.
And what the arena itself writes into a user's folders: never part of a bot."""

from pathlib import Path

from referee.platform.files import refuse_replacing_data

PROJECT_ROOT = Path(__file__).resolve().parents[1]
PROJECT_PACKAGES = ("referee", "bots", "arena")

# Where a run keeps its database unless --db names one, in the folder a command is given in (often
# the bot's own); the databases' names end so, with SQLite's companion files beside them. What a
# bot's build hashes and what travels to a cluster's machines leave both out.
RUNS_FOLDER = "arena-runs"
DATABASE_SUFFIXES = (".sqlite", ".sqlite-wal", ".sqlite-shm", ".sqlite-journal")

# What the arena writes into a folder that may be a bot's (a report, a replay, a C++ bundle) is marked
# so, and a bot's build and what travels to a cluster leave it out: a report written in the bot's
# folder made the bot `+dirty`, a new version, and a bundle there (a second `main`) broke its build.
# A file: OUTPUT_MARK in its first bytes (a comment, a page's meta tag); a folder: OUTPUT_FOLDER_MARK inside it.
OUTPUT_MARK = "written by the arena, no bot's source"
OUTPUT_FOLDER_MARK = ".arena-output"
_MARK_BYTES = 256


def marked(text: str) -> bool:
    """Whether a file's `text` carries the arena's mark where the arena writes it, at its start."""
    return OUTPUT_MARK in text[:_MARK_BYTES]


def page_mark() -> str:
    """The mark of a page the arena writes, for its head, within its first bytes."""
    return f'<meta name="generator" content="{OUTPUT_MARK}">'


def refuse_replacing_unmarked(path: Path, kind: str) -> None:
    """UserError where `path`, in a folder of the user's, is a file the arena did not write (no mark):
    a user's own index.html was replaced by a game's page, as any HTML page was taken for one."""
    refuse_replacing_data(path, kind, lambda data: marked(data.decode("utf-8", "replace")))


def arena_output(path: Path) -> bool:
    """Whether `path` (a file or a folder) is something the arena wrote, marked as such."""
    if path.is_dir():
        return (path / OUTPUT_FOLDER_MARK).is_file()
    try:
        with open(path, "rb") as file:
            return marked(file.read(_MARK_BYTES).decode("utf-8", "replace"))
    except OSError:
        return False


def mark_output_folder(folder: Path) -> None:
    """`folder`, made by the arena for its output, marked as such (`arena_output`). OSError naming
    the folder where it cannot be written in (the mark is no file a user asked for)."""
    try:
        (folder / OUTPUT_FOLDER_MARK).write_text(f"{OUTPUT_MARK}: this folder's files are the arena's\n")
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(folder)) from None
