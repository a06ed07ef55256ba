"""`arena report` (a run's report rebuilt from its database alone, as text, a page, CSV or JSON) and
`arena bots` (the registered bots)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import quote as url_quote

from bots.volcanoes import registry
from referee.platform.files import (
    refuse_one_file_twice,
    refuse_overwriting,
    refuse_replacing,
    refuse_replacing_a_non_page,
    refuse_replacing_another_kind,
    usable_folder,
)

from arena.errors import UsageError
from arena.games.base import DamagedGame
from arena.play import runs, tune
from arena.play.league import REMOVED, among_rated, rated
from arena.play.store import Store, StoreError, quoted
from arena.stats import export
from arena.stats.export import CSV_HEAD, LEFT_OUT, left_out_line
from arena.stats.tables import printable, text_report
from arena.web import report_page


def register(sub) -> None:
    p = sub.add_parser("report", help="rebuild a run's report from its database alone")
    p.add_argument("db", metavar="DB")
    p.add_argument(
        "-o", "--output", metavar="HTML", help="also write the report as a page, with each game's replay page beside it"
    )
    p.add_argument("--csv", metavar="FILE", help="also write the ratings and the cross-table as CSV (a row a player)")
    p.add_argument(
        "--json", metavar="FILE", help="also write the ratings and the cross-table (and an SPRT's test) as JSON"
    )
    p.set_defaults(run=cmd_report)

    p = sub.add_parser("bots", help="the registered bots")
    p.set_defaults(run=cmd_bots)


def cmd_report(args) -> int:
    for option, output in (("-o", args.output), ("--csv", args.csv), ("--json", args.json)):
        if output is not None and not output.strip():
            raise UsageError(f"{option} needs a file name (it was given an empty one)")
        if output:
            refuse_overwriting(output, args.db)
            usable_folder(Path(output).parent, f"the folder of {output}")  # (made, as a page's is)
    refuse_one_file_twice({"-o": args.output, "--csv": args.csv, "--json": args.json})
    if args.output:  # (nor over a file of another kind that it names by mistake: a bot's module)
        refuse_replacing_a_non_page(args.output, "a report's page")
        report_page.refuse_replacing_in_games_folder(Path(args.output))
    if args.json:
        refuse_replacing_another_kind(args.json, "a report's JSON", ("run", "players"))
    if args.csv:
        refuse_replacing(args.csv, "a report's CSV", lambda text: text.startswith(CSV_HEAD))
    store = Store.open(args.db, readonly=True)  # a report never changes the file it reads
    try:
        return _report(args, store)
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{args.db} is damaged: {exc}") from None
    finally:
        store.close()


def _report(args, store: Store) -> int:
    config, labels, games = store.config, [p.label for p in store.players()], store.games()
    failures = store.failures()
    standing = store.league_players()
    removed = [label for label, row in standing.items() if row["status"] == REMOVED]
    if removed:  # as its standings (`arena league status`, the live page) rate them
        labels, all_games, games = rated(standing), games, among_rated(standing, games)
        lineups = [lineup for lineup in config["lineups"] if set(lineup) <= set(labels)]
        left_out = {"players": removed, "games": len(all_games) - len(games)}
        config = {**config, "lineups": lineups, LEFT_OUT: left_out}  # (what the page and the JSON say too)
        print(left_out_line(left_out))
    if config["command"] == "tune":
        # (--csv and --json ranked plus, minus, tuned and start, players that never met: plus and minus
        # are other values every iteration)
        given = [option for option, value in (("-o", args.output), ("--csv", args.csv), ("--json", args.json)) if value]
        if given:
            raise UsageError(f"a tune's report is text only: drop {' and '.join(given)}")
        print(printable(tune.text_report(config, games, store.iterations(), failures)))
        return 0
    print(text_report(config, labels, games, failures))
    line = runs.replays_line(store, len(games))
    if line:
        print(f"\n{line}")
    _export(args, config, labels, games, failures)
    if args.output:
        try:
            written = report_page.write(config, labels, games, Path(args.output), failures, store.frames)
        except DamagedGame as exc:
            raise StoreError(f"{args.db} is damaged: {exc}") from None
        except OSError as exc:  # (the page, or a game's page in its folder: the error names which)
            named = exc.filename or f"the report {args.output}"
            raise UsageError(f"cannot write {named}: {exc.strerror or exc}") from None
        print(f"\nwrote {args.output} (game pages in {written.folder})")
        if written.viewed:
            print(
                f"{written.viewed} games play in their referee's viewer, which a browser runs only from a web "
                f"server: python -m http.server -d {quoted(Path(args.output).parent)}, then open "
                f"http://127.0.0.1:8000/{url_quote(Path(args.output).name)} (or arena serve {quoted(args.db)})"
            )
    return 0


def _export(args, config, labels, games, failures) -> None:
    """--csv and --json, never over the database read."""
    try:
        export.export(config, labels, games, failures, args.csv, args.json)
    except OSError as exc:
        # (a full disk fails the write, whose error names no file: name the export's)
        named = exc.filename or " or ".join(filter(None, (args.csv, args.json)))
        raise UsageError(f"cannot write {named}: {exc.strerror or exc}") from None


def cmd_bots(args) -> int:
    for record in registry.BOTS.values():
        declared = " ".join(
            f"{p.name}={p.default:g} [{p.low:g}, {p.high:g}] ({p.type.__name__})" for p in record.parameters
        )
        print(f"{record.name:12} {record.module + ':' + record.cls:36} {declared}".rstrip())
    print(
        f"\nOptions: NAME:OPT=VALUE,... (e.g. mcts:c=0.3,rave_k=2000); {registry.TIME_OPTION}=N sets a "
        "player's turn limit in ms (its first turn scales with it), e.g. uct:ms=1000."
    )
    print("These are Volcanoes' own bots; in any game, a player is also a file or a command line.")
    return 0
