"""Where this project's own code is: the root of its checkout (or of its install), and its packages.
The bundler reads its modules from there, and a player pinned at a git revision is its tree there.
And what the arena itself writes into a user's folders: never part of a bot."""

from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[1]
PROJECT_PACKAGES = ("referee", "bots", "arena")

# Where a run keeps its database unless --db names one, in the folder a command is given in (often
# the bot's own); the databases' names end so, with SQLite's companion files beside them. What a
# bot's build hashes and what travels to a cluster's machines leave both out.
RUNS_FOLDER = "arena-runs"
DATABASE_SUFFIXES = (".sqlite", ".sqlite-wal", ".sqlite-shm", ".sqlite-journal")
