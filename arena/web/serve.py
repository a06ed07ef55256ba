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
otherwise. It listens on 127.0.0.1 (this machine only) unless --host says otherwise; there it answers
only requests for its own names (the Host header: a page of another site, whose name was made to
resolve to this machine, cannot read it), and on an address other machines reach, requests for any
name. Starlette routes and checks the requests, uvicorn serves them.
"""

from __future__ import annotations

import ipaddress
import json
import math
import re
import socket
import sys
import threading
from collections import OrderedDict
from pathlib import Path

import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from arena.errors import UsageError
from arena.games.base import DamagedGame, GameError
from arena.games.protocols import make
from arena.play.league import rated
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
    where = "this machine only" if is_loopback(host) else "every machine that can reach this one"
    print(
        f"serving {', '.join(str(p) for p in paths)} at http://{as_in_url(host)}:{port}/ ({where}; read-only)."
        " Ctrl+C stops.",
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
        self._run = None  # which run the file held at the last look

    def _store(self) -> Store:
        return Store.open(self.path, readonly=True)

    def _forget(self) -> None:
        """Drop what was read of the file: it now holds another run."""
        self.total, self.last_id, self.failures = 0, 0, []
        self.boards.clear()
        self.cache.clear()
        self._game = None

    def refresh(self) -> None:
        """Read what was added to the file since the last look, into every board kept; all of it
        afresh where the file now holds another run (a league started again on the same path: its
        games, numbered from 1 again, were never read, and the page showed the old run's)."""
        store = self._store()
        try:
            run = (store.get("created"), store.config.get("command"), store.config.get("seed"))
            if run != self._run:
                if self._run is not None:
                    self._forget()
                self._run = run
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
            return rated(self.standing)
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
        """The view's state as JSON (only `{"etag", "unchanged"}` where `known` is its tag). While
        another request holds the view (reading the file, building a board: seconds on a big one), a
        view computed before is answered as it was, not after a wait: the page asks again soon."""
        if not self.lock.acquire(blocking=False):
            key = (frozenset(players if players is not None else self.default_players()), where or "")
            cached = self.cache.get(key)
            if cached is not None:
                tag, body = cached
                return json.dumps({"etag": tag, "unchanged": True}).encode() if known == tag else body
            self.lock.acquire()  # a view never computed: nothing to answer but what comes
        try:
            return self._state_locked(players, where, known)
        finally:
            self.lock.release()

    def _state_locked(self, players: list[str] | None, where: str | None, known: str | None) -> bytes:
        self.refresh()
        board = self.board(players, where)
        standing = hash((self._run, json.dumps(self.standing, sort_keys=True))) & 0xFFFFFF  # (another run: another tag)
        tag = f"{self.total}.{len(self.failures)}.{standing:x}"
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
        try:
            own = None if page else self._game.replay_page(record)
        except DamagedGame as exc:  # (answered as a damaged database is: 503, in JSON, saying what)
            raise StoreError(f"{self.path} is damaged: game {game_id}: {exc}") from None
        if own:  # (with the links a viewer's page has: its record, and the live page)
            return record_page.linked(own, f"{url}/record", "/")
        return page or record_page.render(record, config)

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


def _json(status: int, value) -> Response:
    return Response(json.dumps(value).encode(), status, media_type="application/json")


def _error(status: int, message: str) -> Response:
    return _json(status, {"error": message})


def _number(text: str, what: str, below: int) -> int:
    """`text` as a whole number (ASCII digits: `int` takes '²' and '١' too) below `below`; LookupError
    saying there is no such `what` otherwise."""
    if not _DIGITS.fullmatch(text) or int(text) >= below:
        raise LookupError(f"no {what} {text!r}")
    return int(text)


_DIGITS = re.compile(r"[0-9]{1,19}")
_GAME_IDS = 1 << 63  # SQLite's integers


def make_app(runs: list[RunView], names: list[str]) -> Starlette:
    """The page's web application: every route reads, and answers only for the host `names` (a page of
    another site, made to resolve to this machine, would read it otherwise: DNS rebinding)."""

    def page(request: Request) -> Response:
        return HTMLResponse(live_page.PAGE)

    def listed(request: Request) -> Response:
        return _json(200, [{"id": i, "name": r.path.name, "path": str(r.path)} for i, r in enumerate(runs)])

    def state(request: Request) -> Response:
        query = request.query_params
        run = runs[_number(query.get("run", "0"), "run", len(runs))]
        # one `bots` per player shown, each a whole label (a file's name may hold a comma); a lone
        # empty one where none is shown
        players = [b for b in query.getlist("bots") if b] if "bots" in query else None
        body = run.state(players, query.get("where") or None, query.get("known"))
        return Response(body, media_type="application/json")

    def game(request: Request) -> Response:
        run, number, part = _game_of(request)
        url = f"/game/{request.path_params['run']}/{number}"
        found = run.game_page(number, url, record_only=part == "record") if number is not None else None
        if found is None:
            return _error(404, f"no game {request.path_params['game']!r}")
        return HTMLResponse(found)

    def frames(request: Request) -> Response:
        run, number, _ = _game_of(request)
        found = run.frames(number) if number is not None else None
        if found is None:
            return _error(404, f"game {request.path_params['game']!r} kept no frames")
        return Response(found, media_type="application/gzip", headers=_KEPT)  # as stored

    def viewer_file(request: Request) -> Response:
        found = VIEWERS.file(request.path_params["jar"], request.path_params["path"])  # named by their hash
        if found is None:
            return _error(404, f"nothing at {request.url.path}")
        body, kind = found
        return Response(body, media_type=kind, headers=_KEPT)

    def _game_of(request: Request) -> tuple[RunView, int | None, str]:
        """The run, the game's number (None where it is no game's) and what of it a request asks."""
        run = runs[_number(request.path_params["run"], "run", len(runs))]
        text = request.path_params["game"]
        number = _number(text, "game", _GAME_IDS) if _DIGITS.fullmatch(text) else None
        return run, number, request.url.path.rsplit("/", 1)[-1]

    async def not_found(request: Request, exc: HTTPException) -> Response:
        return _error(exc.status_code, f"nothing at {request.url.path}" if exc.status_code == 404 else exc.detail)

    async def refused(request: Request, exc: Exception) -> Response:
        if isinstance(exc, StoreError):
            return _error(503, str(exc))
        return _error(400, str(exc))

    return Starlette(
        routes=[
            Route("/", page),
            Route("/api/runs", listed),
            Route("/api/state", state),
            Route("/game/{run}/{game}", game),
            Route("/game/{run}/{game}/record", game),
            Route("/game/{run}/{game}/frames", frames),
            Route("/viewer/{jar}/{path:path}", viewer_file),
        ],
        middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=names), Middleware(_NoStore)],
        exception_handlers={
            HTTPException: not_found,
            DataFilterError: refused,
            LookupError: refused,
            StoreError: refused,
        },
    )


_KEPT = {"cache-control": "max-age=86400"}  # a game's frames and its viewer's files do not change


class _NoStore:
    """Every other answer is of now: no cache keeps it."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        async def sending(message):
            headers = message.get("headers", [])
            if message["type"] == "http.response.start" and not any(k == b"cache-control" for k, _ in headers):
                message["headers"] = [*headers, (b"cache-control", b"no-store")]
            await send(message)

        await self.app(scope, receive, sending)


def is_loopback(address: str) -> bool:
    """Whether `address` (an IP address, or `localhost`) is this machine's alone: no other reaches it."""
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return address.lower() == "localhost"


def as_in_url(address: str) -> str:
    """`address` as a URL and a Host header write it: an IPv6 address in brackets (`[::1]`)."""
    return f"[{address}]" if ":" in address else address


def served_names(host: str, bound: str) -> list[str]:
    """The names the page answers for (as Host headers write them) when it listens on `host`, bound
    at the address `bound`.

    On a loopback address only this machine's browser reaches the page, so a page of another site can
    read it only through a name made to resolve here (DNS rebinding): this machine's own names alone
    are answered. On any other address, every name ("*"): the page (read-only) is open to every
    machine that reaches it, by whatever name or address it knows this one by, and the machine cannot
    list those (its own name often resolves to loopback, through /etc/hosts; a NAT or a proxy adds
    more). A site that rebinds a name to it reads no more than those machines read directly."""
    if not is_loopback(bound):
        return ["*"]
    return sorted({as_in_url(name.lower()) for name in ("localhost", "127.0.0.1", "::1", host, bound)})


class Server:
    """The page's server (uvicorn, on one thread and an event loop: a connection, finished or not,
    holds no thread; each request's reading of a file runs in a thread of a bounded pool). Its socket
    is bound when made, so that a port in use is said at once; `serve_forever()`, `shutdown()` and
    `server_close()` as http.server's servers have them."""

    def __init__(self, runs: list[RunView], host: str = "127.0.0.1", port: int = 8000):
        family, kind, proto, _, address = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        self.socket = socket.socket(family, kind, proto)
        try:
            self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self.socket.bind(address)
            self.socket.listen(128)
        except OSError:
            self.socket.close()
            raise
        self.server_address = self.socket.getsockname()
        config = uvicorn.Config(
            make_app(runs, served_names(host, self.server_address[0])),
            http="h11",
            ws="none",
            lifespan="off",
            log_level="warning",
            access_log=False,
            server_header=False,
        )
        self._server = uvicorn.Server(config)
        self._stopped = threading.Event()

    def serve_forever(self) -> None:
        """Serve until `shutdown()`, or Ctrl+C in the main thread."""
        try:
            self._server.run(sockets=[self.socket])
        finally:
            self._stopped.set()

    def shutdown(self) -> None:
        self._server.should_exit = True
        self._stopped.wait(30)

    def server_close(self) -> None:
        self.socket.close()


def make_server(runs: list[RunView], host: str = "127.0.0.1", port: int = 8000) -> Server:
    one_blas_thread()
    return Server(runs, host, port)
