"""A bot's file or folder in any git repository, as it is now or at a revision.

`SPEC@REV` (`src/bot.cpp@HEAD~1`, `bots/mine@v2`) names a file or folder at a revision of the
repository it is in: the repository is found from the path (which need not exist in the working tree
any more), the tree at that commit is extracted once into the cache (`trees/COMMIT`, shared by every
run, worker and resume that needs it, written into a temporary folder and renamed into place), and the
path is mapped into it. A path without `@REV` is the working tree's; `dirty` says whether git sees
changes to it that no commit holds.

This is the one way the arena takes a tree at a commit: the project's own bots pinned at a revision
(`greedy@HEAD~3`, arena/players/volcanoes.py) and the versions `arena bench` compares
(arena/bench/versions.py) are trees of the project's repository taken here. A tree is used from its
final path (numba's cache of a pinned bot's kernels is keyed by it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import uuid
from dataclasses import dataclass
from pathlib import Path

from arena.builds.cache import TREES, cache_root
from arena.errors import UsageError


# `bot.cpp@` was the working tree, unsaid.
NO_REVISION = "nothing after its @: give a revision (a commit, a tag, a branch, HEAD~1), or no @ for the working tree"


class SourceError(UsageError, ValueError):
    """A bot's source that cannot be found or built here: the message says why, in one line."""


@dataclass(frozen=True)
class Source:
    """A bot's file or folder to build."""

    spec: str  # as the user wrote it: "src/bot.cpp@HEAD~1"
    path: Path  # the file or folder, absolute: in the working tree, or in a tree extracted at `commit`
    shown: Path  # where a person finds it in their working tree (for messages)
    repository: Path | None = None  # the git working tree it belongs to, if any
    commit: str | None = None  # the commit it was taken at (`SPEC@REV`); None: the working tree as it is

    @property
    def pinned(self) -> bool:
        return self.commit is not None


def split_revision(spec: str, cwd: Path | None = None) -> tuple[str, str | None]:
    """(`PATH`, `REV`) of `PATH@REV`, or (spec, None) where `spec` is an existing path (from `cwd`)
    or has no `@` ("" where nothing follows the `@`: no revision, which is refused). A revision may
    hold `@` too (`HEAD@{1}`, `main@{yesterday}`, `@{u}`): the split is at the first `@` before which
    an existing path stands, else at the first that begins no reflog's `@{`."""
    base = Path(cwd or os.getcwd())
    if "@" not in spec or (base / spec).exists():
        return spec, None
    ats = [i for i, char in enumerate(spec) if char == "@"]
    at = next((i for i in ats if i and (base / spec[:i]).exists()), None)
    if at is None:
        at = next((i for i in ats if spec[i + 1 : i + 2] != "{"), ats[-1])
    return spec[:at], spec[at + 1 :]


def resolve_source(spec: str, cache: Path | None = None, cwd: Path | None = None) -> Source:
    """The file or folder `spec` names (`PATH` or `PATH@REV`), from `cwd` (default: the current
    folder). Raises SourceError."""
    text, revision = split_revision(spec, cwd)
    shown = Path(os.path.abspath(Path(cwd or os.getcwd()) / text))
    if revision == "":  # (before the repository: a path in none has this mistake too)
        raise SourceError(f"{spec}: {NO_REVISION}")
    if revision is None:
        if not shown.exists():
            raise SourceError(f"no such file or folder: {text}")
        return Source(spec, shown.resolve(), shown, repository_of(shown))
    repository = repository_of(shown)
    if repository is None:
        raise SourceError(f"{spec}: {text} is in no git repository, so it has no revision {revision}")
    inside = _inside(shown, repository)
    try:
        commit, tree = tree_at(repository, revision, cache)
    except SourceError as exc:
        raise SourceError(f"{spec}: {exc}") from None
    path = tree / inside
    if not path.exists():
        raise SourceError(f"{spec}: {inside.as_posix()} does not exist at {revision} ({commit[:12]})")
    return Source(spec, path, shown, repository, commit)


def repository_of(path: Path) -> Path | None:
    """The top of the git working tree that holds `path` (which need not exist; a symbolic link: where
    it leads), or None."""
    path = path.resolve() if path.exists() else path
    folder = path if path.is_dir() else path.parent
    while not folder.is_dir():
        folder = folder.parent
    try:
        done = subprocess.run(
            ["git", "-C", str(folder), "rev-parse", "--show-toplevel"], capture_output=True, text=True, timeout=60
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return Path(done.stdout.strip()).resolve() if done.returncode == 0 and done.stdout.strip() else None


def _inside(path: Path, repository: Path) -> Path:
    """`path` relative to the repository's top (its existing part resolved, as git resolves it)."""
    existing, rest = path, []
    while not existing.exists():
        rest.append(existing.name)
        existing = existing.parent
    full = existing.resolve().joinpath(*reversed(rest))
    try:
        return full.relative_to(repository)
    except ValueError:
        raise SourceError(f"{path} is outside its repository {repository}") from None


def git(repository: Path, *args: str, env: dict | None = None) -> bytes:
    """git's output for `args` in `repository` (`env`: variables added to its environment);
    SourceError with what git said if it fails."""
    try:
        done = subprocess.run(
            ["git", "-C", str(repository), *args],
            capture_output=True,
            check=True,
            timeout=600,
            env={**os.environ, **env} if env else None,
        )
    except FileNotFoundError:
        raise SourceError("a revision (SPEC@REV) needs git on PATH") from None
    except subprocess.TimeoutExpired:
        raise SourceError(f"git {' '.join(args)} in {repository} took over 600 s") from None
    except subprocess.CalledProcessError as exc:
        said = exc.stderr.decode(errors="replace").strip().splitlines()
        raise SourceError(f"git {' '.join(args)}: {said[0] if said else f'exit status {exc.returncode}'}") from None
    return done.stdout


def tree_at(repository: Path, revision: str, cache: Path | None = None) -> tuple[str, Path]:
    """(commit, tree): the repository's tree at `revision`, extracted once into the cache."""
    if not revision:
        raise SourceError(NO_REVISION)
    try:  # (no --quiet: git then says why a revision is unknown)
        commit = git(repository, "rev-parse", "--verify", f"{revision}^{{commit}}").decode().strip()
    except SourceError as exc:
        if is_shallow(repository):  # (a CI checkout: the commits before the last are not there)
            raise SourceError(
                f"no commit {revision} in {repository}, a shallow clone: fetch its history "
                "(git fetch --unshallow, or fetch-depth: 0 in actions/checkout)"
            ) from None
        raise SourceError(f"no commit {revision} in {repository} ({exc})") from None
    tree = (cache or cache_root()) / TREES / commit
    if not tree.is_dir():
        extract(repository, commit, tree)
    return commit, tree


def is_shallow(repository: Path) -> bool:
    """Whether `repository` is a shallow clone (`git clone --depth N`, GitHub Actions' default)."""
    try:
        return git(repository, "rev-parse", "--is-shallow-repository").strip() == b"true"
    except SourceError:
        return False


def extract(repository: Path, commit: str, tree: Path) -> None:
    """The repository's tree at `commit` (without its submodules' files), at `tree`, every file of it
    as a checkout writes it: through an index of its own (`git archive` left out the files that
    .gitattributes marks export-ignore, a header a bot includes among them). A concurrent extraction
    of the same commit is harmless (each writes its own folder, the first rename wins)."""
    partial = tree.with_name(f".{tree.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}")
    index = {"GIT_INDEX_FILE": str(partial.with_name(partial.name + ".index").resolve())}
    partial.mkdir(parents=True)
    try:
        git(repository, "read-tree", commit, env=index)
        git(repository, "checkout-index", "--all", f"--prefix={partial.resolve()}{os.sep}", env=index)
        partial.rename(tree)
    except OSError:
        if not tree.is_dir():
            raise
    finally:
        shutil.rmtree(partial, ignore_errors=True)
        Path(index["GIT_INDEX_FILE"]).unlink(missing_ok=True)


def head(repository: Path) -> str | None:
    """The commit the working tree is at (None in a repository without one)."""
    try:
        return git(repository, "rev-parse", "--verify", "HEAD^{commit}").decode().strip()
    except SourceError:
        return None


def dirty(repository: Path, files: list[Path]) -> bool:
    """Whether git sees changes to any of `files` (paths in the working tree) that HEAD lacks,
    untracked files included."""
    inside = [str(_inside(path, repository)) for path in files]
    said = git(repository, "status", "--porcelain", "--untracked-files=all", "--", *inside)
    return bool(said.strip())
