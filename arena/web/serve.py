"""`arena serve [DB ...]`: a live page over runs' databases, a league's above all, while games are
played: the leaderboard (Elo with 95% intervals, results, errors, time per turn, the bots' PDATA and
TDATA), the rating history, the cross-table, the latest games each linked to its replay, the failed
games; filtered to a subset of the players, to games whose data meet a condition, and to one of the
runs served (each run is one game).

The page is one self-contained file (no network: its script and styles are inline) that asks the
server for the state of the run (`/api/state`) every few seconds and draws it; games' pages are at
`/game/RUN/ID` (the game's own replay where it has one: in its referee's viewer where the game kept its
frames, arena/web/viewer.py; else the record as a page, also at `/game/RUN/ID/record`).

The server only reads: it opens each database read-only, reads its games once, then at each look only
those added since (`Store.games(after=...)`), into leaderboards kept up to date game by game
(`arena/stats/board.py`); a state is computed again only when games were added, and served from cache
otherwise. It listens on 127.0.0.1 (this machine only) unless --host says otherwise.
"""

from __future__ import annotations

import json
import math
import sys
import threading
from collections import OrderedDict
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

from arena.errors import UsageError
from arena.games.base import GameError
from arena.games.protocols import make
from arena.play.store import Store, StoreError
from arena.stats.board import Board, DataFilter, DataFilterError, one_blas_thread
from arena.web import live_page, record_page, viewer

BOARDS_KEPT = 6  # filtered leaderboards kept per run (the default one among them)
LATEST = 50  # games in the latest games' list
FAILURES_SHOWN = 10


def serve(paths: list[Path], host: str, port: int) -> int:
    """Serve the runs at `paths` until Ctrl+C; the exit status."""
    runs = []
    for path in paths:
        store = Store.open(path, readonly=True)  # checked now: a wrong path is said at once
        store.close()
        runs.append(RunView(path))
    try:
        server = make_server(runs, host, port)
    except OSError as exc:
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    for run in runs:  # read the files now, so that the page is ready when it is first opened
        threading.Thread(target=run.state, args=(None, None, None), daemon=True).start()
    host, port = server.server_address[:2]
    where = (
        "this machine only" if host in ("127.0.0.1", "localhost", "::1") else "every machine that can reach this one"
    )
    print(
        f"serving {', '.join(str(p) for p in paths)} at http://{host}:{port}/ ({where}; read-only). Ctrl+C stops.",
        file=sys.stderr,
        flush=True,
    )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def _finite(value):
    """JSON without infinities or NaN (None instead), through lists and dicts."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


class RunView:
    """One run's database as the page sees it: boards fed with each game once."""

    def __init__(self, path: Path):
        self.path = path
        self.lock = threading.Lock()
        self.config: dict = {}
        self.standing: dict[str, dict] = {}
        self.labels: list[str] = []
        self.total = 0  # games in the file
        self.last_id = 0
        self.failures: list[dict] = []
        self.boards: OrderedDict[tuple, Board] = OrderedDict()
        self.cache: dict[tuple, tuple[str, bytes]] = {}
        self._game = None

    def _store(self) -> Store:
        return Store.open(self.path, readonly=True)

    def refresh(self) -> None:
        """Read what was added to the file since the last look, into every board kept."""
        store = self._store()
        try:
            self.config = store.config
            self.standing = store.league_players()
            self.labels = [p.label for p in store.players()]
            games = store.games(after=self.last_id, light=True)
            self.failures += store.failures(after=self.failures[-1]["id"] if self.failures else 0)
        finally:
            store.close()
        if games:
            self.last_id = games[-1]["id"]
            self.total += len(games)
            for board in self.boards.values():
                for game in games:
                    board.add(game)

    def default_players(self) -> list[str]:
        """A league's players but those removed; every player of any other run."""
        if self.standing:
            return [label for label, row in self.standing.items() if row["status"] != "removed"]
        return list(self.labels)

    def board(self, players: list[str] | None, where: str | None) -> Board:
        key = (frozenset(players if players is not None else self.default_players()), where or "")
        board = self.boards.get(key)
        if board is not None:
            self.boards.move_to_end(key)
            return board
        condition = DataFilter(where) if where else None
        store = self._store()
        try:
            games = store.games(after=0, light=True)
        finally:
            store.close()
        games = [g for g in games if g["id"] <= self.last_id]  # the others come with the next refresh
        board = Board(key[0], condition, expected=len(games), latest=LATEST)
        for game in games:
            board.add(game)
        self.boards[key] = board
        while len(self.boards) > BOARDS_KEPT:
            self.boards.popitem(last=False)
        return board

    def state(self, players: list[str] | None, where: str | None, known: str | None) -> bytes:
        with self.lock:
            self.refresh()
            board = self.board(players, where)
            tag = f"{self.total}.{len(self.failures)}.{hash(json.dumps(self.standing, sort_keys=True)) & 0xFFFFFF:x}"
            key = (frozenset(board.subset), where or "")
            if known == tag:
                return json.dumps({"etag": tag, "unchanged": True}).encode()
            cached = self.cache.get(key)
            if cached and cached[0] == tag:
                return cached[1]
            body = json.dumps(_finite(self._state(board, where, tag)), separators=(",", ":")).encode()
            self.cache[key] = (tag, body)
            return body

    def _state(self, board: Board, where: str | None, tag: str) -> dict:
        rows = board.rows()
        for row in rows:
            standing = self.standing.get(row["label"], {})
            row["status"] = standing.get("status", "")
            row["reason"] = standing.get("reason", "")
        order = [row["label"] for row in rows if row["games"]]
        game = self.config.get("game", {})
        kinds: dict[str, int] = {}
        for failure in self.failures:
            kinds[failure["kind"]] = kinds.get(failure["kind"], 0) + 1
        players = [
            {"label": label, "status": self.standing.get(label, {}).get("status", ""), "shown": label in board.subset}
            for label in (list(self.standing) or self.labels)
        ]
        return {
            "etag": tag,
            "run": {
                "name": self.path.name,
                "command": self.config.get("command"),
                "game": game.get("name") or game.get("protocol"),
                "protocol": game.get("protocol"),
                "games": self.total,
                "failures": len(self.failures),
                "mode": self.config.get("mode"),
            },
            "shown": {"games": board.count, "where": where or ""},
            "players": players,
            "data_names": sorted(board.data_names),
            "leaderboard": rows,
            "cross": board.cross_table(order),
            "history": board.history_series(order),
            "latest": [_light(g) for g in reversed(board.latest)],
            "failures": {
                "count": len(self.failures),
                "by_kind": kinds,
                "latest": [
                    {k: f.get(k) for k in ("id", "kind", "detail", "seats", "seed", "finished_at")}
                    for f in reversed(self.failures[-FAILURES_SHOWN:])
                ],
            },
        }

    def game_page(self, game_id: int, url: str = "", record_only: bool = False) -> str | None:
        """A game's page (served at `url`): in its referee's viewer where it kept its frames and its
        game has a viewer, else the game's own replay page, else its record."""
        store = self._store()
        try:
            record = store.game(game_id)
            config = store.config
            framed = not record_only and store.frames(game_id) is not None
        finally:
            store.close()
        if record is None:
            return None
        if self._game is None:
            try:
                self._game = make(config["game"])
            except GameError:
                self._game = False
        if record_only or not self._game:
            return record_page.render(record, config)
        page = viewer.served_page(VIEWERS, self._game, record, url) if framed else None
        return page or self._game.replay_page(record) or record_page.render(record, config)

    def frames(self, game_id: int) -> bytes | None:
        """A game's stored frames, as stored (gzipped JSON: the page inflates it)."""
        store = self._store()
        try:
            return store.frames(game_id)
        finally:
            store.close()


VIEWERS = viewer.Viewers()  # the games' viewers, read from their jars at serve time


def _light(game: dict) -> dict:
    return {
        k: game.get(k) for k in ("id", "seats", "ranks", "scores", "errors", "reason", "turns", "seed", "finished_at")
    }


class _Handler(BaseHTTPRequestHandler):
    runs: list[RunView] = []

    def log_message(self, format, *args) -> None:  # noqa: A002 - the base class's name
        pass  # a request a second: not worth a line each

    def _send(self, status: int, body: bytes, kind: str, cache: str = "no-store") -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", cache)
        self.end_headers()
        self.wfile.write(body)

    def _error(self, status: int, message: str) -> None:
        self._send(status, json.dumps({"error": message}).encode(), "application/json")

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        url = urlparse(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
        parts = [p for p in url.path.split("/") if p]
        try:
            if not parts:
                self._send(HTTPStatus.OK, live_page.PAGE.encode(), "text/html; charset=utf-8")
            elif parts == ["api", "runs"]:
                runs = [{"id": i, "name": r.path.name, "path": str(r.path)} for i, r in enumerate(self.runs)]
                self._send(HTTPStatus.OK, json.dumps(runs).encode(), "application/json")
            elif parts == ["api", "state"]:
                run = self._run(query.get("run", "0"))
                bots = query.get("bots")
                players = None if bots is None else [b for b in bots.split(",") if b]
                body = run.state(players, query.get("where") or None, query.get("known"))
                self._send(HTTPStatus.OK, body, "application/json")
            elif len(parts) in (3, 4) and parts[0] == "game" and parts[2].isdigit() and parts[3:] in ([], ["record"]):
                url = "/" + "/".join(parts[:3])
                page = self._run(parts[1]).game_page(int(parts[2]), url, record_only=parts[3:] == ["record"])
                if page is None:
                    self._error(HTTPStatus.NOT_FOUND, f"no game {parts[2]}")
                else:
                    self._send(HTTPStatus.OK, page.encode(), "text/html; charset=utf-8")
            elif len(parts) == 4 and parts[0] == "game" and parts[2].isdigit() and parts[3] == "frames":
                frames = self._run(parts[1]).frames(int(parts[2]))
                if frames is None:
                    self._error(HTTPStatus.NOT_FOUND, f"game {parts[2]} kept no frames")
                else:
                    self._send(HTTPStatus.OK, frames, "application/gzip", "max-age=86400")  # kept as stored
            elif len(parts) >= 3 and parts[0] == "viewer":
                found = VIEWERS.file(parts[1], unquote("/".join(parts[2:])))  # the jar's files, named by their hash
                if found is None:
                    self._error(HTTPStatus.NOT_FOUND, f"nothing at {url.path}")
                else:
                    self._send(HTTPStatus.OK, *found, "max-age=86400")
            else:
                self._error(HTTPStatus.NOT_FOUND, f"nothing at {url.path}")
        except (DataFilterError, LookupError) as exc:
            self._error(HTTPStatus.BAD_REQUEST, str(exc))
        except StoreError as exc:
            self._error(HTTPStatus.SERVICE_UNAVAILABLE, str(exc))
        except (BrokenPipeError, ConnectionResetError):
            pass  # the browser went away

    def _run(self, text: str) -> RunView:
        if not text.isdigit() or int(text) >= len(self.runs):
            raise LookupError(f"no run {text!r}")
        return self.runs[int(text)]


def make_server(runs: list[RunView], host: str = "127.0.0.1", port: int = 8000) -> ThreadingHTTPServer:
    one_blas_thread()
    handler = type("Handler", (_Handler,), {"runs": runs})
    # A viewer's page asks for tens of files at once: the default backlog (5) makes the browser's
    # extra connections wait a second each (a SYN sent again)
    server_class = type("Server", (ThreadingHTTPServer,), {"request_queue_size": 64, "daemon_threads": True})
    return server_class((host, port), handler)
