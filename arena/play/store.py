"""SQLite: the record of one run. Everything else (ratings, tables, SPRT state) is derived from it.

One file is one run: its configuration (players, pairings, seed, settings, what kind of run), its
players with their versions, and one row per game, each written in its own transaction when the game
ends. SQLite's journal keeps the file whole if the process is killed at any moment, so a run can be
resumed from whatever games are there.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

from arena.errors import UsageError
from arena.play.players import Player

SCHEMA_VERSION = 2  # stored as the run's "schema"; a file of a newer one is refused, not misread
# 1: run, players, games. 2: tune_iterations (`arena tune`); a file of schema 1 reads as before.
TABLES = {"run", "players", "games"}  # every run has these

_SCHEMA = """
CREATE TABLE IF NOT EXISTS run (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (
    label TEXT PRIMARY KEY, spec TEXT NOT NULL, kind TEXT NOT NULL, target TEXT NOT NULL,
    version TEXT NOT NULL, cwd TEXT
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    a TEXT NOT NULL, b TEXT NOT NULL, pair INTEGER NOT NULL, swap INTEGER NOT NULL,
    blue TEXT NOT NULL, orange TEXT NOT NULL, blue_version TEXT, orange_version TEXT,
    seed INTEGER NOT NULL, blue_seed INTEGER, orange_seed INTEGER,
    winner TEXT NOT NULL, reason TEXT NOT NULL, detail TEXT, turns INTEGER,
    blue_ms_mean REAL, blue_ms_max REAL, orange_ms_mean REAL, orange_ms_max REAL,
    blue_ms TEXT, orange_ms TEXT,
    blue_error TEXT, orange_error TEXT,
    moves TEXT, seconds REAL, worker TEXT, finished_at TEXT NOT NULL,
    UNIQUE (a, b, pair, swap)
);
CREATE TABLE IF NOT EXISTS tune_iterations (
    iteration INTEGER PRIMARY KEY,
    theta TEXT NOT NULL, delta TEXT NOT NULL, c TEXT NOT NULL, plus TEXT NOT NULL, minus TEXT NOT NULL,
    net INTEGER, after TEXT, finished_at TEXT
);
"""
ITERATION_JSON = ("theta", "delta", "c", "plus", "minus", "after")  # {parameter: value} objects

GAME_COLUMNS = (
    "a",
    "b",
    "pair",
    "swap",
    "blue",
    "orange",
    "blue_version",
    "orange_version",
    "seed",
    "blue_seed",
    "orange_seed",
    "winner",
    "reason",
    "detail",
    "turns",
    "blue_ms_mean",
    "blue_ms_max",
    "orange_ms_mean",
    "orange_ms_max",
    "blue_ms",
    "orange_ms",
    "blue_error",
    "orange_error",
    "moves",
    "seconds",
    "worker",
)


class StoreError(UsageError, RuntimeError):
    """A database that cannot be used as asked; the message says why."""


class Store:
    """One run's file. `create` makes a new one; `open` checks that a file is an arena database of a
    schema this code reads before anything is written to it, and `readonly=True` (reports) never
    writes to it at all."""

    def __init__(self, path: str | Path, readonly: bool = False):
        self.path = Path(path)
        self.readonly = readonly
        self._lock_fd: int | None = None
        self.db = _connect(self.path, readonly)

    def _set_up(self) -> None:
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL survives a killed process
        self.db.executescript(_SCHEMA)

    @classmethod
    def create(cls, path: str | Path, config: dict, players: list[Player]) -> "Store":
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # Made here, exclusively: of two runs created on one path at once, one gets the file.
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        except FileExistsError:
            raise StoreError(f"{path} exists: resume it with --resume, or choose another --db") from None
        except OSError as exc:
            raise StoreError(f"cannot create the database {path}: {exc.strerror or exc}") from None
        store = cls(path)
        store._set_up()
        with store.transaction():
            store._put("schema", SCHEMA_VERSION)
            store._put("config", config)
            store._put("created", datetime.now(timezone.utc).isoformat(timespec="seconds"))
            for p in players:
                store.db.execute(
                    "INSERT INTO players (label, spec, kind, target, version, cwd) VALUES (?, ?, ?, ?, ?, ?)",
                    (p.label, p.spec, p.kind, p.target, p.version, p.cwd),
                )
        return store

    @classmethod
    def open(cls, path: str | Path, readonly: bool = False) -> "Store":
        """An existing run: to play on (`readonly=False`), or only to read."""
        path = Path(path)
        if not path.is_file():
            raise StoreError(f"no such database: {path}")
        store = cls(path, readonly=True)  # checked before anything may be written to it
        try:
            store._check()
        finally:
            store.close()
        store = cls(path, readonly=readonly)
        if not readonly:
            try:
                store._set_up()
            except sqlite3.Error as exc:
                store.close()
                raise StoreError(f"cannot write to {path} (is its folder read-only?): {exc}") from None
        return store

    def _check(self) -> None:
        path = self.path
        try:
            tables = {row[0] for row in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not TABLES <= tables:
                raise StoreError(
                    f"{path} is not an arena database (it has no {', '.join(sorted(TABLES - tables))} table)"
                )
            schema, config = self.get("schema"), self.get("config")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{path} is not an arena database, or is damaged: {exc}") from None
        except ValueError:  # a value that is not JSON
            raise StoreError(f"{path} is not an arena database (its run table is not the arena's)") from None
        if not isinstance(schema, int) or config is None:
            raise StoreError(f"{path} is not an arena database (it has no schema version or run configuration)")
        if schema > SCHEMA_VERSION:
            raise StoreError(
                f"{path} was written by a newer arena (schema {schema}; this one reads up to "
                f"{SCHEMA_VERSION}): update Caldera to read it"
            )

    def lock(self) -> None:
        """Claim the run for this process, so that two processes never play it at once. The lock is
        an flock on the file (independent of SQLite's own locks); it goes when the process does."""
        fd = os.open(self.path, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise StoreError(f"another arena process is playing {self.path}") from None
        self._lock_fd = fd

    def transaction(self):
        return _Transaction(self.db)

    def _put(self, key: str, value) -> None:
        self.db.execute("INSERT OR REPLACE INTO run (key, value) VALUES (?, ?)", (key, json.dumps(value)))

    def put(self, key: str, value) -> None:
        with self.transaction():
            self._put(key, value)

    def get(self, key: str, default=None):
        row = self.db.execute("SELECT value FROM run WHERE key = ?", (key,)).fetchone()
        return json.loads(row["value"]) if row else default

    @property
    def config(self) -> dict:
        return self.get("config")

    def players(self) -> list[Player]:
        rows = self.db.execute("SELECT label, spec, kind, target, version, cwd FROM players ORDER BY rowid")
        return [Player(**dict(row)) for row in rows]

    def add_game(self, record: dict) -> None:
        """One game, in its own transaction."""
        values = [record.get(c) for c in GAME_COLUMNS]
        finished = datetime.now(timezone.utc).isoformat(timespec="milliseconds")
        placeholders = ", ".join("?" * (len(GAME_COLUMNS) + 1))
        with self.transaction():
            self.db.execute(
                f"INSERT INTO games ({', '.join(GAME_COLUMNS)}, finished_at) VALUES ({placeholders})",
                (*values, finished),
            )

    def games(self) -> list[dict]:
        """Every game, in the order they ended."""
        return [dict(row) for row in self.db.execute("SELECT * FROM games ORDER BY id")]

    def add_iteration(self, iteration: int, **planned: dict) -> None:
        """A tuning iteration, planned before its games: the values it plays (`ITERATION_JSON`)."""
        with self.transaction():
            self.db.execute(
                "INSERT INTO tune_iterations (iteration, theta, delta, c, plus, minus) VALUES (?, ?, ?, ?, ?, ?)",
                (iteration, *(json.dumps(planned[k]) for k in ("theta", "delta", "c", "plus", "minus"))),
            )

    def finish_iteration(self, iteration: int, net: int, after: dict) -> None:
        """The iteration's result, once its last game is stored: plus's net wins and the values after."""
        finished = datetime.now(timezone.utc).isoformat(timespec="milliseconds")
        with self.transaction():
            self.db.execute(
                "UPDATE tune_iterations SET net = ?, after = ?, finished_at = ? WHERE iteration = ?",
                (net, json.dumps(after), finished, iteration),
            )

    def iterations(self) -> list[dict]:
        """Every tuning iteration planned, in order (`net` and `after` None until it is finished)."""
        rows = []
        for row in self.db.execute("SELECT * FROM tune_iterations ORDER BY iteration"):
            row = dict(row)
            rows.append({k: json.loads(v) if k in ITERATION_JSON and v is not None else v for k, v in row.items()})
        return rows

    def done_keys(self) -> set[tuple[str, str, int, int]]:
        return {tuple(row) for row in self.db.execute("SELECT a, b, pair, swap FROM games")}

    def close(self) -> None:
        self.db.close()
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None


def _connect(path: Path, readonly: bool) -> sqlite3.Connection:
    try:
        if readonly:
            db = _connect_readonly(path)
        else:
            db = sqlite3.connect(path, isolation_level=None)  # transactions are explicit
    except sqlite3.OperationalError as exc:
        raise StoreError(f"cannot open the database {path}: {exc}") from None
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{path} is not an arena database, or is damaged: {exc}") from None
    db.row_factory = sqlite3.Row
    return db


def _connect_readonly(path: Path) -> sqlite3.Connection:
    """A connection that cannot write to the file. A WAL file in a folder we may not write to cannot
    be opened even read-only (SQLite needs its -shm file); nobody can be writing it there either, so
    it is then opened as immutable."""
    uri = f"{path.resolve().as_uri()}?mode=ro"
    db = sqlite3.connect(uri, uri=True, isolation_level=None)
    try:
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return db
    except sqlite3.OperationalError:
        if os.access(path.parent, os.W_OK):
            raise
        db.close()
    db = sqlite3.connect(uri + "&immutable=1", uri=True, isolation_level=None)
    return db


class _Transaction:
    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind, value, traceback):
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")
        return False
