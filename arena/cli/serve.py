"""`arena serve [DB ...]`: a live page over runs' databases while games are played (arena/web/serve.py)."""

from __future__ import annotations

from pathlib import Path

from arena.play.league import DEFAULT_DB
from arena.web import serve


def register(sub) -> None:
    p = sub.add_parser(
        "serve",
        help="a live page of a league (or any run) while it plays: leaderboard, history, games",
        description=serve.__doc__,
    )
    p.add_argument("dbs", nargs="*", metavar="DB", help=f"the runs' databases (default {DEFAULT_DB})")
    p.add_argument("--host", default="127.0.0.1", help="where to listen (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="the port (default 8000; 0: any free one)")
    p.set_defaults(run=cmd_serve)


def cmd_serve(args) -> int:
    return serve.serve([Path(db) for db in args.dbs] or [DEFAULT_DB], args.host, args.port)
