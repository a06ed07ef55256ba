"""Players at a git revision: the project's tree at a commit, extracted once into the cache, a
player running from it as a process (`greedy@HEAD~3`: Volcanoes' own bots name them; see
arena/players/volcanoes.py). A pinned tree's version is its commit."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import tarfile
from pathlib import Path

from arena.games.base import Game, Player
from arena.project import PROJECT_ROOT
from arena.players.base import PlayerError, cache_dir
from arena.players.processes import ProcessProvider


class GitTrees(ProcessProvider):
    """The life of a player pinned at a revision: warmed up from its tree, unchanged while its tree
    is there (a commit does not change). Made by the providers whose specs name revisions."""

    kinds = ("git",)

    def resolve(self, label: str | None, spec: str, game: Game, cache: Path) -> Player | None:
        return None

    def changed_since(self, player: Player) -> str | None:
        return None if Path(player.cwd).is_dir() else f"its pinned tree {player.cwd} is gone"

    def travels(self, player: Player) -> list[str]:
        """Its pinned tree."""
        return [player.cwd]


def git(*args: str) -> bytes:
    """The output of `git ARGS` run on the project's repository; PlayerError saying why it failed."""
    try:
        done = subprocess.run(["git", "-C", str(PROJECT_ROOT), *args], capture_output=True, check=True)
    except FileNotFoundError as exc:
        raise PlayerError("pinning a git revision needs git on PATH") from exc
    except subprocess.CalledProcessError as exc:
        said = exc.stderr.decode(errors="replace").strip() or f"exit status {exc.returncode}"
        raise PlayerError(f"git {' '.join(args)}: {said}") from exc
    return done.stdout


def project_at(revision: str, cache: Path | None = None) -> tuple[str, Path]:
    """(commit, tree): the project's tree at `revision`, extracted once into the cache."""
    commit = git("rev-parse", "--verify", f"{revision}^{{commit}}").decode().strip()  # no --quiet: git says why
    tree = (cache or cache_dir()) / f"git-{commit}"
    if not tree.is_dir():
        extract(commit, tree)
    return commit, tree


def extract(commit: str, tree: Path) -> None:
    """The project's tree at `commit`, written to `tree` whole or not at all (runs may extract it at
    once). A game's players are prepared from this final path (numba's cache is keyed by it)."""
    archive = git("archive", "--format=tar", commit)
    partial = tree.with_name(tree.name + f".part{os.getpid()}")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(partial, filter="data")
    try:
        partial.rename(tree)
    except OSError:  # another run extracted it meanwhile
        shutil.rmtree(partial, ignore_errors=True)
