"""The arena's cache: one folder, where what the arena makes once and shares between runs is kept.

    ~/.cache/caldera/          ($XDG_CACHE_HOME/caldera where that is set)
        builds/LANGUAGE-HASH/  a bot built from its sources (arena/builds/build.py)
        builds/inputs/...      what went into a build, kept from the moment a run names it
        builds/failed/         the logs of builds that failed
        trees/COMMIT/          a git repository's tree at a commit (arena/builds/revisions.py)
        pins/                  players' files pinned by their content (arena/players/)

Everything in it is named by the hash of what it holds, written whole or not at all, and made again
when missing: deleting any of it is safe between runs.
"""

from __future__ import annotations

import os
from pathlib import Path

BUILDS, TREES, PINS = "builds", "trees", "pins"


def cache_root() -> Path:
    """The arena's cache: $XDG_CACHE_HOME/caldera, else ~/.cache/caldera."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "caldera"
