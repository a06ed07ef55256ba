"""Where this project's own code is: the root of its checkout (or of its install), and its packages.
The bundler reads its modules from there, and a player pinned at a git revision is its tree there."""

from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[1]
PROJECT_PACKAGES = ("referee", "bots", "arena")
