"""`arena replay DB GAME -o FOLDER`: a stored game in its referee's own viewer, as a folder any static
server serves (arena/web/viewer.py); a game that kept no frames but has a page of its own (Volcanoes
refereed in-process) as that page, which opens without a server."""

from __future__ import annotations

from pathlib import Path

from referee.platform.files import refuse_overwriting
from referee.platform.options import given

from arena.errors import UsageError
from arena.games.base import DamagedGame
from arena.play.store import Store, StoreError, quoted
from arena.web import viewer


def register(sub) -> None:
    p = sub.add_parser(
        "replay",
        help="a stored game in its referee's own viewer, as a folder to serve with any static server",
        description=__doc__,
    )
    p.add_argument("db", metavar="DB", help="the run's database")
    p.add_argument("game", type=int, metavar="GAME", help="the game's id (the reports and pages show it)")
    p.add_argument(
        "-o", "--output", required=True, type=given, metavar="FOLDER", help="where to write the page, game and viewer"
    )
    p.add_argument(
        "--viewer",
        metavar="PATH",
        help="the game's viewer, where the run was begun without one (the referee's jar, or a folder holding view/)",
    )
    p.set_defaults(run=cmd_replay)


def cmd_replay(args) -> int:
    refuse_overwriting(args.output, args.db)
    store = Store.open(args.db, readonly=True)
    try:
        done = viewer.export(store, args.game, Path(args.output), args.viewer)
    except DamagedGame as exc:
        raise StoreError(f"{args.db} is damaged: game {args.game}: {exc}") from None
    except OSError as exc:  # (a folder closed to this user, a full disk: the error names the file)
        raise UsageError(f"cannot write {exc.filename or args.output}: {exc.strerror or exc}") from None
    finally:
        store.close()
    if done.own_page:
        print(f"wrote {done.folder}: game {args.game}'s page (index.html, whole: open it in a browser) and its record")
        return 0
    print(
        f"wrote {done.folder}: game {args.game} ({done.frames} frames) and its viewer ({done.files} files, "
        f"{done.size / 1024:,.0f} KiB, read from {', '.join(done.paths)}). A browser runs the viewer from a web "
        f"server only: python -m http.server -d {quoted(done.folder)}, then open http://127.0.0.1:8000/"
    )
    return 0
