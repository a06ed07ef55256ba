"""SQLite: the record of one run. Everything else (ratings, tables, SPRT state) is derived from it.

One file is one run: its configuration (players, pairings, seed, settings, what kind of run), its
players with their versions, and one row per game, each written in its own transaction when the game
ends, with its replay where the run keeps one (the frames of the game's own viewer, compressed, in a
table of their own that no statement may change: arena/play/replays.py). SQLite's journal keeps the file whole if the process is killed at any moment, so a run can be
resumed from whatever games are there.
"""

from __future__ import annotations

import fcntl
import json
import os
import secrets
import shlex
import shutil
import sqlite3
import tempfile
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

from arena.errors import UsageError
from arena.games.base import Game, GameError, Player
from arena.games.protocols import make
from arena.play import replays
from arena.stats.units import game_key

SCHEMA_VERSION = 5  # stored as the run's "schema"; a file of a newer one is refused, not misread
# 1: run, players, games. 2: tune_iterations (`arena tune`). 3: any game: a game's seats, ranks,
# scores and errors as lists, its unit and seating, and failures (games a referee failed). Files of
# schemas 1 and 2 (Volcanoes, blue and orange) are read as schema 3's records; they are not resumed.
# 4: league_players (`arena league`: each player's standing in the league); a schema 3 file opened
# to be written is brought to 4 (the new table added, nothing else changes). 5: frames (a game's
# replay, arena/play/replays.py); a schema 3 or 4 file opened to be written is brought to 5 alike.
TABLES = {"run", "players", "games"}  # every run has these

_SCHEMA = """
CREATE TABLE IF NOT EXISTS run (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (
    label TEXT PRIMARY KEY, spec TEXT NOT NULL, kind TEXT NOT NULL, target TEXT NOT NULL,
    version TEXT NOT NULL, cwd TEXT
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    lineup TEXT NOT NULL, unit INTEGER NOT NULL, seating INTEGER NOT NULL,
    seats TEXT NOT NULL, versions TEXT NOT NULL, seed INTEGER NOT NULL, bot_seeds TEXT,
    ranks TEXT NOT NULL, scores TEXT, errors TEXT NOT NULL,
    reason TEXT NOT NULL, detail TEXT, turns INTEGER, times TEXT, data TEXT,
    seconds REAL, worker TEXT, finished_at TEXT NOT NULL,
    UNIQUE (lineup, unit, seating)
);
CREATE TABLE IF NOT EXISTS failures (
    id INTEGER PRIMARY KEY,
    lineup TEXT NOT NULL, unit INTEGER NOT NULL, seating INTEGER NOT NULL,
    seats TEXT NOT NULL, seed INTEGER NOT NULL, kind TEXT NOT NULL, detail TEXT NOT NULL, stderr TEXT,
    worker TEXT, finished_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS league_players (
    label TEXT PRIMARY KEY REFERENCES players (label),
    status TEXT NOT NULL, reason TEXT NOT NULL DEFAULT '', added_at TEXT NOT NULL, changed_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS frames (
    game INTEGER PRIMARY KEY REFERENCES games (id), count INTEGER NOT NULL, raw_bytes INTEGER NOT NULL,
    body BLOB NOT NULL
);
CREATE TRIGGER IF NOT EXISTS frames_are_kept_as_stored BEFORE UPDATE ON frames
BEGIN SELECT RAISE(ABORT, 'a game''s frames are kept as they were stored'); END;
CREATE TABLE IF NOT EXISTS tune_iterations (
    iteration INTEGER PRIMARY KEY,
    theta TEXT NOT NULL, delta TEXT NOT NULL, c TEXT NOT NULL, plus TEXT NOT NULL, minus TEXT NOT NULL,
    net INTEGER, after TEXT, finished_at TEXT
);
"""
ITERATION_JSON = ("theta", "delta", "c", "plus", "minus", "after")  # {parameter: value} objects

# A game's record: these keys, the JSON ones stored as JSON text (lists, and `data` an object).
GAME_COLUMNS = (
    "lineup",
    "unit",
    "seating",
    "seats",
    "versions",
    "seed",
    "bot_seeds",
    "ranks",
    "scores",
    "errors",
    "reason",
    "detail",
    "turns",
    "times",
    "data",
    "seconds",
    "worker",
)
GAME_JSON = ("lineup", "seats", "versions", "bot_seeds", "ranks", "scores", "errors", "times", "data")
FAILURE_COLUMNS = ("lineup", "unit", "seating", "seats", "seed", "kind", "detail", "stderr", "worker")


class StoreError(UsageError, RuntimeError):
    """A database that cannot be used as asked; the message says why."""


class StoreExists(StoreError):
    """A new run's database where one is already."""


def quoted(path) -> str:
    """A path as a command line shown to copy takes it (`'my runs/a.sqlite'`): one with a space was
    shown bare, and the command pasted from it failed."""
    return shlex.quote(str(path))


def stored_game(config: dict) -> Game:
    """The game of a stored run's configuration; StoreError where it cannot be made (a file of a
    newer project, or edited by hand)."""
    try:
        return make(config["game"])
    except GameError as exc:
        raise StoreError(f"the run's game cannot be made: {exc}") from None


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
        """A new run's file at `path`, whole or not at all: it is written beside under a name of its
        own, closed, then linked into place (a link fails where the path exists: of two runs created
        on one path at once, one gets it). A run killed while its file was made left a half-made one
        at `path` that `--resume` refused as no database and a new run as existing."""
        path = Path(path)
        if path.is_dir():
            raise StoreError(f"{path} is a folder: give --db the path of a database file")
        if path.exists():
            raise _refusal_of_existing(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the database {path}: {exc.strerror or exc}") from None
        aside = path.with_name(f".{path.name}.{secrets.token_hex(4)}.part")
        try:
            store = cls(aside)
            try:
                store._set_up()
                with store.transaction():
                    store._put("schema", SCHEMA_VERSION)
                    store._put("config", config)
                    store._put("created", datetime.now(timezone.utc).isoformat(timespec="seconds"))
                    for p in players:
                        store._add_player(p)
                store._fold_wal()
            finally:
                store.close()
            _put_in_place(aside, path)
        except FileExistsError:
            raise _refusal_of_existing(path) from None
        except (sqlite3.Error, StoreError, OSError) as exc:  # a full disk, say: no file is left
            if isinstance(exc, sqlite3.Error):
                why = _why(exc, aside, "start the run again")
            else:
                why = getattr(exc, "strerror", None) or exc
            raise StoreError(f"cannot create the database {path}: {why}") from None
        finally:
            try:
                _remove(aside)  # (also on an interruption: nothing half-made is left)
            except OSError:  # (a read-only place, where nothing was made)
                pass
        return cls(path)

    def _fold_wal(self) -> None:
        """Everything in the WAL written into the file itself, or an sqlite3.Error. Closing the last
        connection does it too, but says nothing where it fails: on a nearly full disk the file linked
        into place lacked what only its WAL held (the WAL was removed with the file made aside), and
        every command that read it said it was damaged."""
        busy, _, _ = self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        if busy:  # (no other connection is open to a file made aside: never seen)
            raise sqlite3.OperationalError("its write-ahead log could not be written into it")

    def _add_player(self, p: Player) -> None:
        self.db.execute(
            "INSERT INTO players (label, spec, kind, target, version, cwd) VALUES (?, ?, ?, ?, ?, ?)",
            (p.label, p.spec, p.kind, p.target, p.version, p.cwd),
        )

    @classmethod
    def open(cls, path: str | Path, readonly: bool = False) -> "Store":
        """An existing run: to play on (`readonly=False`), or only to read."""
        path = Path(path)
        if path.is_dir():
            raise StoreError(f"{path} is a folder, not a run's database")
        if not path.is_file():
            raise StoreError(f"no such database: {path}")
        store = cls(path, readonly=True)  # checked before anything may be written to it
        try:
            schema = store._check()
        finally:
            store.close()
        if not readonly and schema < 3:
            raise StoreError(
                f"{path} was written by an older arena (schema {schema}): `arena report` reads it, "
                "but it cannot be resumed; start a new run"
            )
        store = cls(path, readonly=readonly)
        if not readonly:
            try:
                store._set_up()
                if schema < SCHEMA_VERSION:  # schema 3: _set_up added what 4 has more
                    store.put("schema", SCHEMA_VERSION)
            except sqlite3.Error as exc:
                store.close()
                raise StoreError(f"cannot write to {path}: {_why(exc, path)}") from None
        return store

    def _check(self) -> int:
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
        if not isinstance(schema, int) or not isinstance(config, dict) or "command" not in config:
            raise StoreError(f"{path} is not an arena database (it has no schema version or run configuration)")
        if schema > SCHEMA_VERSION:
            raise StoreError(
                f"{path} was written by a newer arena (schema {schema}; this one reads up to "
                f"{SCHEMA_VERSION}): update Caldera to read it"
            )
        return schema

    def lock(self) -> None:
        """Claim the run for this process, so that two processes never play it at once. The lock is
        an flock on the file (independent of SQLite's own locks); it goes when the process does (a
        forked worker closes its copy: see `_held_locks`)."""
        fd = os.open(self.path, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise StoreError(f"another arena process is playing {self.path}") from None
        self._lock_fd = fd
        _held_locks.add(fd)

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
        return normal_config(self.get("config"))

    def players(self) -> list[Player]:
        rows = self.db.execute("SELECT label, spec, kind, target, version, cwd FROM players ORDER BY rowid")
        return [Player(**dict(row)) for row in rows]

    def add_game(self, record: dict) -> None:
        """One game, in its own transaction, with its frames (`record["frames"]`, `Frame.to_json()`s,
        taken out of the record: nothing else keeps them) where the run's replays option keeps them."""
        frames = record.pop("frames", None)
        kept = bool(frames) and replays.keeps(self.config.get("replays", replays.DEFAULT), record)
        body, raw = replays.pack(frames) if kept else (None, 0)
        with self._writing():
            game = self._insert("games", GAME_COLUMNS, record)
            if kept:
                self.db.execute(
                    "INSERT INTO frames (game, count, raw_bytes, body) VALUES (?, ?, ?, ?)",
                    (game, len(frames), raw, body),
                )

    def add_failure(self, failure: dict) -> None:
        """A game that did not happen (its referee failed, or the machine did): kept to be shown,
        and played again when the run resumes."""
        with self._writing():
            self._insert("failures", FAILURE_COLUMNS, failure)

    def _insert(self, table: str, columns: tuple[str, ...], record: dict) -> int:
        """A row of `record`'s `columns` (and the time); its id."""
        values = [json.dumps(record.get(c)) if c in GAME_JSON else record.get(c) for c in columns]
        finished = datetime.now(timezone.utc).isoformat(timespec="milliseconds")
        placeholders = ", ".join("?" * (len(columns) + 1))
        statement = f"INSERT INTO {table} ({', '.join(columns)}, finished_at) VALUES ({placeholders})"
        return self.db.execute(statement, (*values, finished)).lastrowid

    @contextmanager
    def _writing(self):
        """A transaction of writes, a full disk said as such (what is stored stays; the run can resume
        once there is room); an IntegrityError (a game stored twice) as it is."""
        try:
            with self.transaction():
                yield
        except sqlite3.IntegrityError:
            raise
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write to {self.path}: {_why(exc, self.path)}") from None

    def frames(self, game_id: int) -> bytes | None:
        """A game's replay as stored (`replays.unpack` reads it); None where it kept none."""
        try:
            row = self.db.execute("SELECT body FROM frames WHERE game = ?", (game_id,)).fetchone()
        except sqlite3.OperationalError:  # no such table: a file before schema 5, read-only
            return None
        return bytes(row["body"]) if row else None

    def replays_kept(self) -> tuple[int, int]:
        """(games that kept their replay, their compressed bytes in all)."""
        try:
            row = self.db.execute("SELECT count(*), coalesce(sum(length(body)), 0) FROM frames").fetchone()
        except sqlite3.OperationalError:  # no such table: a file before schema 5, read-only
            return 0, 0
        return row[0], row[1]

    def games(self, after: int = 0, light: bool = False) -> list[dict]:
        """Every game, in the order they ended, as records (the JSON columns decoded); those after
        game id `after` only. `light` leaves out what only a game's own page shows (its moves, its
        bots' stderr, its referee's summaries): `data` keeps only the bots' pdata and tdata.
        StoreError naming the first game whose record cannot be read (bytes of the file damaged:
        every command that read it ended in a traceback)."""
        try:
            games = self._games(after, light)
        except (sqlite3.OperationalError, ValueError) as exc:
            if isinstance(exc, sqlite3.OperationalError) and "JSON" not in str(exc):
                raise
            raise StoreError(f"{self.path}: {self._first_damaged(after)} cannot be read: the file is damaged") from None
        # (a tune's sides, plus and minus, are made anew each iteration: no stored players)
        labels = None if self.config.get("command") == "tune" else {p.label for p in self.players()} or None
        for game in games:
            wrong = _misshapen(game, labels)
            if wrong:  # (JSON still, but no game's: each command that read it ended in a traceback)
                raise StoreError(f"{self.path}: game {game.get('id')} cannot be read: {wrong}; the file is damaged")
        return games

    def _first_damaged(self, after: int) -> str:
        for row in self.db.execute("SELECT * FROM games WHERE id > ? ORDER BY id", (after,)):
            try:
                _decoded(dict(row))
            except ValueError:
                return f"game {row['id']}"
        return "a game"

    def _games(self, after: int, light: bool) -> list[dict]:
        if self._old_schema():
            rows = self.db.execute("SELECT * FROM games WHERE id > ? ORDER BY id", (after,))
            return [_from_schema_2(dict(row)) for row in rows]
        if light:  # the JSON columns packed into one array by SQLite: one json.loads a game, not nine
            packed = [c for c in GAME_JSON if c != "data"]
            plain = [c for c in ("id", *GAME_COLUMNS, "finished_at") if c not in GAME_JSON]
            data = "json_object('pdata', json(json_extract(data, '$.pdata')), 'tdata', json(json_extract(data, '$.tdata')))"
            query = (
                f"SELECT {', '.join(plain)}, json_array({', '.join(f'json({c})' for c in packed)}, {data}) FROM games"
            )
            rows = self.db.execute(query + " WHERE id > ? ORDER BY id", (after,))
            keys = (*plain, *packed, "data")
            loads = json.loads
            return [dict(zip(keys, (*row[:-1], *loads(row[-1])), strict=True)) for row in rows]
        rows = self.db.execute("SELECT * FROM games WHERE id > ? ORDER BY id", (after,))
        return [_decoded(dict(row)) for row in rows]

    def game(self, game_id: int) -> dict | None:
        """One game's whole record, by its id (None where there is none: an id past SQLite's
        integers too)."""
        if not -(2**63) <= game_id < 2**63:
            return None
        if self._old_schema():
            row = self.db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
            return _from_schema_2(dict(row)) if row else None
        row = self.db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        try:
            return _decoded(dict(row)) if row else None
        except ValueError:
            raise StoreError(f"{self.path}: game {game_id} cannot be read: the file is damaged") from None

    def failures(self, after: int = 0) -> list[dict]:
        """Every failed game, in the order they failed (none in files of schemas 1 and 2); those
        after failure id `after` only."""
        if self._old_schema():
            return []
        rows = self.db.execute("SELECT * FROM failures WHERE id > ? ORDER BY id", (after,))
        return [_decoded(dict(row)) for row in rows]

    def league_players(self) -> dict[str, dict]:
        """label -> {status, reason, added_at, changed_at} of a league's players, in the order they
        joined ({} for other runs, and files before schema 4)."""
        try:
            rows = self.db.execute("SELECT * FROM league_players ORDER BY added_at, rowid").fetchall()
        except sqlite3.OperationalError:  # no such table: an older file, read-only
            return {}
        return {row["label"]: dict(row) for row in rows}

    def join_league(self, player: Player, status: str = "active") -> None:
        """A new player in the league (its row of players, and its standing), in one transaction."""
        now = datetime.now(timezone.utc).isoformat(timespec="milliseconds")
        with self.transaction():
            self._add_player(player)
            self.db.execute(
                "INSERT INTO league_players (label, status, reason, added_at, changed_at) VALUES (?, ?, '', ?, ?)",
                (player.label, status, now, now),
            )

    def set_standing(self, label: str, status: str, reason: str = "", only_from: str | None = None) -> bool:
        """A league player's new status and why; False if there is no such player, or (`only_from`
        given) its status is another by now: another process (the user's) changed it."""
        now = datetime.now(timezone.utc).isoformat(timespec="milliseconds")
        only = "" if only_from is None else " AND status = ?"
        with self.transaction():
            done = self.db.execute(
                f"UPDATE league_players SET status = ?, reason = ?, changed_at = ? WHERE label = ?{only}",
                (status, reason, now, label, *(() if only_from is None else (only_from,))),
            )
        return done.rowcount == 1

    def _old_schema(self) -> bool:
        return (self.get("schema") or 1) < 3

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

    def done_keys(self) -> set[tuple[tuple[str, ...], int, int]]:
        """The jobs' keys (lineup, unit, seating) of the games stored."""
        return {game_key(g) for g in self.games()}

    def close(self) -> None:
        self.db.close()
        if self._lock_fd is not None:
            _held_locks.discard(self._lock_fd)
            os.close(self._lock_fd)
            self._lock_fd = None

    def discard(self) -> None:
        """Close and remove a run just created that will not be played (a check before its first game
        failed): nothing of it is left."""
        self.close()
        _remove(self.path)


def _refusal_of_existing(path: Path) -> StoreExists:
    """Why a new run is not made at `path`, where something is: an arena database is resumed, and
    anything else is another --db's to hold (a bot's binbot.py given as --db was said to be a run to
    resume, which --resume then said was no database)."""
    if not path.is_file():
        return StoreExists(f"{path} is not an arena database (it is no regular file): choose another --db")
    try:
        Store.open(path, readonly=True).close()
    except StoreError as exc:
        return StoreExists(f"{exc}; choose another --db")
    return StoreExists(f"{path} exists: resume it with --resume, or choose another --db")


def _put_in_place(made: Path, path: Path) -> None:
    """`made` at `path` too, where nothing is (FileExistsError otherwise): a hard link, at once and
    exclusive; where the file system makes none (some network and FAT ones), `path` is claimed
    exclusively, empty, and `made` renamed over it."""
    try:
        os.link(made, path)
    except FileExistsError:
        raise
    except OSError:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        os.replace(made, path)


def _remove(path: Path) -> None:
    """A database's file and SQLite's files beside it."""
    for leftover in (path, *(path.with_name(path.name + end) for end in ("-wal", "-shm", "-journal"))):
        leftover.unlink(missing_ok=True)


FULL_BELOW = 256 * 1024  # free bytes under which a failed write is taken for a full disk


def _why(exc: Exception, path: Path, then: str = "resume the run") -> str:
    """What an SQLite error on `path` means to a person: SQLite says "disk I/O error" or "database
    or disk is full" on a full disk, and "attempt to write a readonly database" in a read-only folder."""
    try:
        if shutil.disk_usage(path.parent).free < FULL_BELOW:
            return f"its disk is full ({exc}); free some space, then {then}"
    except OSError:
        pass
    if not os.access(path.parent, os.W_OK):
        return f"its folder cannot be written ({exc})"
    return str(exc)


def normal_config(config: dict) -> dict:
    """A run's configuration in today's words: a schema 1 or 2 run (Volcanoes) had "pairings" of
    "pairs" under "settings"; today's has "lineups" of "units" and its "game"."""
    if config is None or "game" in config:
        return config
    config = dict(config)
    if "pairings" in config:
        config["lineups"] = config.pop("pairings")
        config["units"] = config.pop("pairs")
    config["game"] = {"protocol": "volcanoes", **config.pop("settings", {})}
    return config


def _misshapen(game: dict, labels: set[str] | None) -> str | None:
    """What makes a stored game's record no record of this run's (None if nothing does): the shape
    its readers take for granted, its players the run's own (`labels`; None: not checked)."""
    seats, lineup, ranks = game.get("seats"), game.get("lineup"), game.get("ranks")
    for name, value in (("seats", seats), ("lineup", lineup)):
        if not isinstance(value, list) or not all(
            isinstance(label, str) and (labels is None or label in labels) for label in value
        ):
            return f"its {name} are not players of the run"
    if len(set(seats)) != len(seats) or set(seats) != set(lineup):
        return "its seats are not its lineup's players, each once"
    if not isinstance(ranks, list) or len(ranks) != len(seats) or not all(type(r) is int and r >= 0 for r in ranks):
        return "its ranks are not one whole number a seat"
    times = game.get("times")
    if times is not None and not (
        isinstance(times, list)
        and all(t is None or isinstance(t, list) and all(type(x) in (int, float) for x in t) for t in times)
    ):
        return "its times are not lists of numbers"
    return None


def _decoded(row: dict) -> dict:
    return {k: json.loads(v) if k in GAME_JSON and v is not None else v for k, v in row.items()}


_RANKS = {"blue": [0, 1], "orange": [1, 0], "draw": [0, 0]}


def _from_schema_2(row: dict) -> dict:
    """A game of a schema 1 or 2 file (Volcanoes, blue and orange) as a schema 3 record."""
    colours = ("blue", "orange")
    return {
        "id": row["id"],
        "lineup": [row["a"], row["b"]],
        "unit": row["pair"],
        "seating": row["swap"],
        "seats": [row[c] for c in colours],
        "versions": [row[f"{c}_version"] for c in colours],
        "seed": row["seed"],
        "bot_seeds": [row[f"{c}_seed"] for c in colours],
        "ranks": _RANKS[row["winner"]],
        "scores": None,
        "errors": [row[f"{c}_error"] for c in colours],
        "reason": row["reason"],
        "detail": row["detail"],
        "turns": row["turns"],
        "times": [[float(t) for t in (row[f"{c}_ms"] or "").split()] for c in colours],
        "data": {"moves": row["moves"]} if row.get("moves") else {},
        "seconds": row["seconds"],
        "worker": row["worker"],
        "finished_at": row["finished_at"],
    }


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
    """A connection that cannot write to the file, and leaves nothing beside it.

    - Nobody plays the run (no arena holds its lock) and its WAL is empty or gone: everything is in
      the file itself, read as a file that cannot change (SQLite then makes no -wal or -shm file).
    - A run in play: read as SQLite reads a database another process writes (its -shm is there).
    - A killed run's WAL, never checkpointed: read as it is where the folder can be written; in a
      folder that cannot, SQLite cannot make the -shm it needs, so a copy of the file and its WAL
      is read in a temporary folder (removed when the connection closes)."""
    uri = path.resolve().as_uri()
    wal = path.with_name(path.name + "-wal")
    if not playing(path) and not (wal.is_file() and wal.stat().st_size):
        return sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True, isolation_level=None)
    db = sqlite3.connect(f"{uri}?mode=ro", uri=True, isolation_level=None)
    try:
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return db
    except sqlite3.OperationalError:
        db.close()
        if os.access(path.parent, os.W_OK):
            raise
    folder = Path(tempfile.mkdtemp(prefix="arena-read-"))
    for source in (path, wal):
        shutil.copyfile(source, folder / source.name)
    db = sqlite3.connect(
        f"{(folder / path.name).as_uri()}?mode=ro", uri=True, isolation_level=None, factory=_CopyConnection
    )
    db.folder = folder
    return db


class _CopyConnection(sqlite3.Connection):
    """A connection to a copy of the run in a temporary folder, removed when it closes."""

    folder: Path | None = None

    def close(self) -> None:
        super().close()
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None


# The descriptors of this process's run locks. An flock belongs to the open file, which a forked
# child (a pool's worker) shares: the child closes its copies at once (closing, unlike unlocking,
# leaves the parent's lock held), or a run killed with SIGKILL would stay locked until its last
# worker had noticed and exited, and an immediate --resume would be refused.
_held_locks: set[int] = set()


def _close_held_locks_after_fork() -> None:
    for fd in _held_locks:
        try:
            os.close(fd)
        except OSError:
            pass
    _held_locks.clear()


os.register_at_fork(after_in_child=_close_held_locks_after_fork)


def playing(path: Path) -> bool | None:
    """Whether an arena process holds the run's lock (`Store.lock`): it is being played; None if
    unknown (the file cannot be opened)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        return False
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # closing releases a lock it got


class _Transaction:
    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind, value, traceback):
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")
        return False
