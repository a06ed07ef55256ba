"""Players at a git revision: a tree of the project at a commit (arena/builds/revisions.py extracts it
once into the cache), a player running from it as a process (`greedy@HEAD~3`: Volcanoes' own bots
name them; see arena/players/volcanoes.py). A pinned tree's version is its commit."""

from __future__ import annotations

from pathlib import Path

from arena.builds.revisions import SourceError, tree_at
from arena.games.base import Game, Player
from arena.players.base import PlayerError
from arena.players.processes import ProcessProvider
from arena.project import PROJECT_ROOT


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


def project_at(revision: str, cache: Path, spec: str) -> tuple[str, Path]:
    """(commit, tree): the project's tree at `revision`, extracted once into the cache, for the
    player `spec` (which a failure names)."""
    try:
        return tree_at(PROJECT_ROOT, revision, cache)
    except SourceError as exc:
        raise PlayerError(f"{spec}: {exc}") from None
