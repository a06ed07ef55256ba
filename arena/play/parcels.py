"""What travels with a run to machines that have none of this one's files (a cluster's nodes): a file
or a folder of this machine packed into one archive named by its content's hash, put once where the
machines can fetch it, and unpacked once per machine into that machine's own cache, where every later
game (and every later run) finds it.

The archive is deterministic (entries sorted, no owner, no time, each file's mode kept): the same
content is the same name wherever and whenever it is packed, so a machine never fetches a thing it
already holds. What a run never needs stays behind (version control, caches of compiled code, the
arena's own databases), and a folder too large to travel is refused in one line. A copy that no run
on a machine used for 30 days leaves that machine's cache when it next fetches something (`prune`).
"""

from __future__ import annotations

import fcntl
import gzip
import hashlib
import io
import os
import shutil
import socket
import stat
import tarfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from arena.errors import UsageError
from arena.project import DATABASE_SUFFIXES, RUNS_FOLDER, arena_output

# Never travel: version control, caches of compiled code (numba's are keyed by this machine's
# paths, of no use elsewhere), virtual environments, and the arena's own runs (written as they play).
LEFT_BEHIND = {".git", ".hg", ".svn", "__pycache__", ".pytest_cache", ".ruff_cache", ".mypy_cache", ".venv", "venv"}
LEFT_BEHIND |= {"node_modules", RUNS_FOLDER}
LEFT_BEHIND_SUFFIXES = (".pyc", ".nbi", ".nbc", *DATABASE_SUFFIXES)
MAX_BYTES = 256 * 2**20  # what one thing may weigh: a folder larger than this is no bot's
DIGEST_CHARS = 24
FETCH_S = 300.0  # the longest wait for one thing's bytes
# A thing no run on this machine used for this long is removed from its cache, when the machine next
# fetches one (the moment its cache grows); a partial copy left by a machine stopped mid-fetch, after a day.
UNUSED_S = 30 * 86400.0
PARTIAL_S = 86400.0


class MachineFailure(Exception):
    """This machine cannot play a game (what travelled could not be fetched, a program is not
    installed, a dependency is missing): the machine's failure, never a bot's nor a referee's. Its
    message names the machine."""


def machine_name() -> str:
    return socket.gethostname()


def machine_cache() -> Path:
    """Where this machine keeps what travelled to it, each thing under its digest."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "caldera" / "travelled"


@dataclass(frozen=True)
class Parcel:
    """A file or folder that travels: its digest (its folder's name on every machine), its path on
    the machine that packed it (what the run's commands name), the archive's size, and where the
    archive is, nested in a tuple (what `put` returned: a task handed it fetches nothing by itself)."""

    digest: str
    source: str
    size: int
    where: tuple
    is_file: bool = False

    def copy(self, folder: Path) -> Path:
        """The thing itself in `folder`, its unpacked archive: the file, or the folder."""
        return folder / Path(self.source).name if self.is_file else folder


def _left_behind(name: str) -> bool:
    return name in LEFT_BEHIND or name.endswith(LEFT_BEHIND_SUFFIXES)


def contents(path: str | Path) -> list[tuple[str, Path]]:
    """(name in the archive, path) of each file and folder of `path` that travels, sorted; a link is
    followed (a folder reached twice by links is taken once), anything but files and folders left."""
    path = Path(path)
    if path.is_file():
        return [(path.name, path)]
    found: list[tuple[str, Path]] = []
    seen: set[str] = set()
    for root, dirs, files in os.walk(path, followlinks=True):
        real = os.path.realpath(root)
        if real in seen:  # a link back up the tree
            dirs[:] = []
            continue
        seen.add(real)
        dirs[:] = sorted(d for d in dirs if not _left_behind(d) and not arena_output(Path(root) / d))
        for name in [*dirs, *files]:
            full = Path(root) / name
            if _left_behind(name) or (name in files and arena_output(full)):
                continue
            try:
                mode = os.stat(full).st_mode
            except OSError:  # a dangling link
                continue
            if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
                found.append((str(full.relative_to(path)), full))
    return sorted(found)


def weight(path: str | Path) -> int:
    """The bytes of what of `path` travels."""
    return sum(full.stat().st_size for _, full in contents(path) if full.is_file())


def check_weight(path: str | Path) -> None:
    """UsageError, in one line, for a thing too large to travel."""
    size = weight(path)
    if size > MAX_BYTES:
        raise UsageError(
            f"{path} holds {size / 2**20:.1f} MiB, more than a run takes to a cluster "
            f"({MAX_BYTES // 2**20} MiB): give the command from a folder that holds only what it needs"
        )


def pack(path: str | Path) -> tuple[str, bytes]:
    """(digest, archive) of the file or folder at `path`: a tar.gz of what travels, the same bytes
    for the same content wherever it lies (no owners, no times; each file's mode kept)."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT, dereference=True) as tar:
        for name, full in contents(path):
            info = tar.gettarinfo(str(full), arcname=name)
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            info.mtime = 0
            info.pax_headers = {}
            if info.isfile():
                with open(full, "rb") as f:
                    tar.addfile(info, f)
            else:
                tar.addfile(info)
    data = io.BytesIO()
    with gzip.GzipFile(fileobj=data, mode="wb", mtime=0, filename="") as gz:
        gz.write(raw.getvalue())
    archive = data.getvalue()
    return digest_of(archive), archive


def digest_of(archive: bytes) -> str:
    return hashlib.sha256(archive).hexdigest()[:DIGEST_CHARS]


def wrap(path: str | Path, put: Callable[[bytes], object]) -> Parcel:
    """`path` packed, and its archive put once (`put`: where machines will fetch it, Ray's object store)."""
    digest, archive = pack(path)
    source = os.path.abspath(path)
    return Parcel(digest, source, len(archive), (put(archive),), os.path.isfile(source))


def unpack(parcel: Parcel, get: Callable[[object], bytes], cache: Path | None = None) -> Path:
    """On the machine that plays: the parcel's copy in this machine's cache, fetched (`get`) and
    unpacked by the first game that needs it, whole or not at all; the others wait for it, then find
    it there. Each call marks the copy used (its folder's time), which keeps it from `prune`.
    MachineFailure when it cannot be fetched or kept."""
    cache = cache or machine_cache()
    final = cache / parcel.digest
    try:
        with open(_lock_of(cache, parcel.digest), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_SH)  # (`prune` takes it alone to remove the copy)
            if final.is_dir():
                os.utime(final)
                return parcel.copy(final)
    except OSError:  # (no cache yet; or one this machine may read but not mark: its copy serves as it is)
        if final.is_dir():
            return parcel.copy(final)
    try:
        cache.mkdir(parents=True, exist_ok=True)
        with open(_lock_of(cache, parcel.digest), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # one fetch a machine, whatever its number of workers
            if not final.is_dir():
                _fetch(parcel, get, cache, final)
                prune(cache, keep=parcel.digest)
            os.utime(final)
    except OSError as exc:
        raise MachineFailure(
            f"{machine_name()} cannot keep {parcel.source} in {cache}: {exc.strerror or exc}"
        ) from None
    return parcel.copy(final)


def _lock_of(cache: Path, digest: str) -> Path:
    """The lock of a thing's copy (kept when the copy goes: a process may hold it open)."""
    return cache / f".{digest}.lock"


def prune(cache: Path, keep: str = "", now: float | None = None) -> list[str]:
    """Remove from this machine's `cache` the copies no run used for UNUSED_S (none in use: each is
    taken under its lock, and its time looked at again there), and the partial copies (and copies
    half removed) older than PARTIAL_S; the digests of the copies removed. `keep` is never removed."""
    now = time.time() if now is None else now
    removed = []
    for entry in cache.iterdir():
        name = entry.name
        try:
            if name.startswith(".") and (".part" in name or ".gone" in name) and entry.is_dir():
                if now - entry.stat().st_mtime > PARTIAL_S:
                    shutil.rmtree(entry, ignore_errors=True)
                continue
            if len(name) != DIGEST_CHARS or name == keep or not entry.is_dir():
                continue
            if now - entry.stat().st_mtime > UNUSED_S and _remove_unused(cache, entry, now):
                removed.append(name)
        except OSError:  # (gone meanwhile: another machine's worker pruned it)
            continue
    return removed


def _remove_unused(cache: Path, entry: Path, now: float) -> bool:
    with open(_lock_of(cache, entry.name), "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:  # in use right now
            return False
        if now - entry.stat().st_mtime <= UNUSED_S:  # used since the first look
            return False
        gone = cache / f".{entry.name}.gone{os.getpid()}"
        entry.rename(gone)  # (out of every run's sight at once; then deleted)
    shutil.rmtree(gone, ignore_errors=True)
    return True


def _fetch(parcel: Parcel, get, cache: Path, final: Path) -> None:
    started = time.perf_counter()
    try:
        archive = get(parcel.where[0])
    except Exception as exc:  # noqa: BLE001 - whatever keeps the bytes from this machine is its failure
        raise MachineFailure(
            f"{machine_name()} could not fetch {parcel.source} ({parcel.size:,} bytes): {type(exc).__name__}: {exc}"
        ) from None
    if digest_of(archive) != parcel.digest:
        raise MachineFailure(f"{machine_name()} fetched {parcel.source} damaged (its digest differs)")
    partial = cache / f".{parcel.digest}.part{os.getpid()}"
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir()
    with tarfile.open(fileobj=io.BytesIO(archive), mode="r:gz") as tar:
        tar.extractall(partial, filter="data")
    partial.rename(final)
    with open(cache / "fetched.log", "a", encoding="utf-8") as log:  # what this machine fetched, and when
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S")
        log.write(f"{stamp} {parcel.digest} {len(archive)} {time.perf_counter() - started:.3f} {parcel.source}\n")
