"""`arena report DB -o report.html`: the run as a page. The tables are the text report's own rows;
a rating-progress chart, the SPRT's course when there is one, and every game linked to its replay.

The page is one file that needs no network; each game's replay page is written beside it, in a folder
named after it (`report.html` -> `report_games/`), rebuilt from the moves kept in the database; a
game that kept its frames gets its page in its referee's own viewer (arena/web/viewer.py: the
viewer's files once, in `report_games/viewer/`), or its record's page where its game has no viewer.
"""

from __future__ import annotations

import html
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from referee.platform.files import refuse_replacing_data, usable_folder, write_atomic

from arena.games.base import DamagedGame
from arena.games.protocols import make
from arena.project import arena_output, mark_output_folder, page_mark, refuse_replacing_unmarked
from arena.play import replays
from arena.web import record_page, viewer
from arena.stats.export import LEFT_OUT, left_out_line
from arena.stats.ratings import openskill_ratings
from arena.stats.tables import (
    cross_rows,
    failures_lines,
    game_name,
    lineups_rows,
    players_rows,
    ratings_rows,
    sprt_course,
    sprt_lines,
)

COLOURS = ["#5aa9ff", "#ff9d3b", "#7bd389", "#e06c9f", "#c9b458", "#9d8df1", "#4fd1c5", "#f56565"]


def _table(table_id: str, rows: list[list], header: list[str]) -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return f'<table id="{table_id}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def rating_progress(games: list[dict], labels: list[str], points: int = 40) -> list[tuple[int, dict[str, float]]]:
    """OpenSkill's mu of every player after 1/points, 2/points, ... of the games."""
    if not games:
        return []
    marks = sorted({max(1, round(len(games) * k / points)) for k in range(1, points + 1)})
    return [(n, {r.label: r.mu for r in openskill_ratings(games[:n], labels)}) for n in marks]


def _line_chart(
    series: dict[str, list[tuple[float, float]]], guides: dict[str, float], title: str, chart_id: str
) -> str:
    """A plain SVG line chart: one polyline per series, dashed horizontal guides."""
    width, height, pad, legend = 720, 240, 40, 110
    xs = [x for line in series.values() for x, _ in line] or [0, 1]
    ys = [y for line in series.values() for _, y in line] + list(guides.values()) or [0, 1]
    x0, x1 = min(xs), max(xs) if max(xs) > min(xs) else min(xs) + 1
    y0, y1 = min(ys), max(ys) if max(ys) > min(ys) else min(ys) + 1

    def at(x, y):
        return (
            pad + (x - x0) / (x1 - x0) * (width - 2 * pad - legend),
            height - pad - (y - y0) / (y1 - y0) * (height - 2 * pad),
        )

    parts = [
        f'<svg id="{chart_id}" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        'xmlns="http://www.w3.org/2000/svg">',
        f'<text x="{pad}" y="16" class="chart-title">{html.escape(title)}</text>',
        f'<text x="{pad - 4}" y="{height - pad}" class="axis" text-anchor="end">{y0:.1f}</text>',
        f'<text x="{pad - 4}" y="{pad}" class="axis" text-anchor="end">{y1:.1f}</text>',
        f'<text x="{width - pad - legend}" y="{height - pad + 16}" class="axis" text-anchor="end">{x1:g}</text>',
    ]
    for name, y in guides.items():
        (ax, ay), (bx, _) = at(x0, y), at(x1, y)
        parts.append(
            f'<line x1="{ax:.1f}" y1="{ay:.1f}" x2="{bx:.1f}" y2="{ay:.1f}" class="guide"/>'
            f'<text x="{bx:.1f}" y="{ay - 3:.1f}" class="axis" text-anchor="end">{html.escape(name)}</text>'
        )
    for i, (name, line) in enumerate(series.items()):
        colour = COLOURS[i % len(COLOURS)]
        points = " ".join(f"{px:.1f},{py:.1f}" for px, py in (at(x, y) for x, y in line))
        parts.append(
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2" '
            f'data-series="{html.escape(name)}"/>'
        )
        y = pad + 14 * i  # the legend: a key in the series' colour and style, then its name
        parts.append(
            f'<g class="legend-key" data-series="{html.escape(name)}">'
            f'<line x1="{width - legend}" y1="{y - 4}" x2="{width - legend + 18}" y2="{y - 4}" '
            f'stroke="{colour}" stroke-width="3"/>'
            f'<text x="{width - legend + 24}" y="{y}" class="axis">{html.escape(name)}</text></g>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _games_table(games: list[dict], folder: str, pages: set[int]) -> str:
    seats = max((len(g["seats"]) for g in games), default=2)
    header = ["#", *(f"seat {i + 1}" for i in range(seats)), "seed", "ranks", "reason", "turns", "replay"]
    body = []
    for g in games:
        cells = [g["id"], *g["seats"], *[""] * (seats - len(g["seats"])), g["seed"]]
        cells += [" ".join(str(r + 1) for r in g["ranks"]), g["reason"], g["turns"] if g["turns"] is not None else "-"]
        row = "".join(f"<td>{html.escape(str(c))}</td>" for c in cells)
        link = f'<a href="{folder}/game-{g["id"]}.html">view</a>' if g["id"] in pages else ""
        body.append(f"<tr>{row}<td>{link}</td></tr>")
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    return f'<table id="games"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


def render(
    config: dict,
    labels: list[str],
    games: list[dict],
    folder: str,
    pages: set[int] = frozenset(),
    failures=(),
    viewed: int = 0,
) -> str:
    """The report page; game links point into `folder` (relative to the page), for the games in
    `pages` (their ids), `viewed` of which play in their referee's viewer."""
    rows, header, order = ratings_rows(games, labels)
    name = game_name(config)
    sections = [
        f"<h1>{html.escape(config['command'])} ({html.escape(name)}): {len(games)} games, seed {config['seed']}</h1>"
    ]
    if config.get(LEFT_OUT):
        sections.append(f'<p id="left-out">{html.escape(left_out_line(config[LEFT_OUT]))}</p>')
    if failures:
        sections.append(f'<pre id="failures">{html.escape(failures_lines(list(failures), games))}</pre>')
    if config["command"] == "sprt":
        course = sprt_course(games, config)
        llr = [(state.pairs, state.llr) for state in course.history]
        what = "pairs" if len(config["lineups"][0]) == 2 else "units"
        sections += [
            "<h2>SPRT</h2>",
            f'<pre id="sprt">{html.escape(sprt_lines(games, config))}</pre>',
            _line_chart(
                {"LLR": llr},
                {"H1": course.state.upper, "H0": course.state.lower},
                f"log-likelihood ratio by {what}",
                "sprt-chart",
            ),
        ]
    sections += [
        "<h2>Lineups</h2>",
        "<p>Elo of the first against the second, from complete units (one seed in every seating).</p>",
        _table("pairings", *lineups_rows(games, config)),
    ]
    if config["command"] in ("tournament", "league"):
        progress = rating_progress(games, labels)
        series = {label: [(n, mus[label]) for n, mus in progress] for label in order}
        sections += [
            "<h2>Ratings</h2>",
            "<p>Best first by Elo (a Bradley-Terry fit, mean 0), and OpenSkill's (Plackett-Luce mu and sigma).</p>",
            _table("ratings", rows, header),
            _line_chart(series, {}, "OpenSkill mu by games played", "rating-chart"),
            "<h2>Cross-table</h2>",
            _table("cross", *cross_rows(games, order)),
        ]
    sections += [
        "<h2>Players</h2>",
        "<p>Errors score as losses, as on CodinGame.</p>",
        _table("players", *players_rows(games, labels, order)),
        "<h2>Games</h2>",
        *([_viewed_note(config, viewed)] if viewed else []),
        _games_table(games, folder, pages),
    ]
    page = _PAGE.replace("__MARK__", page_mark()).replace("__TITLE__", html.escape(f"arena {config['command']}"))
    return page.replace("__BODY__", "\n".join(sections))


def _viewed_note(config: dict, viewed: int) -> str:
    policy = config.get("replays", replays.DEFAULT)
    return (
        f'<p id="replays">{viewed} games kept their replay (the run\'s replays: {html.escape(policy)}, '
        f"{html.escape(replays.describe(policy))}) and play in their referee's own viewer, which a browser runs "
        "only from a web server: serve this page's folder (<code>python -m http.server</code>), or "
        "<code>arena serve DB</code>.</p>"
    )


@dataclass
class Written:
    folder: Path  # of the game pages
    viewed: int  # games whose page plays them in their referee's viewer


def write(
    config: dict,
    labels: list[str],
    games: list[dict],
    out: Path,
    failures=(),
    frames: Callable[[int], bytes | None] | None = None,
) -> Written:
    """Write the page and one page per game where the game draws one, or kept its frames (`frames`:
    a game's by its id, `Store.frames`). Each file is written whole (`write_atomic`); DamagedGame
    for a game that cannot be drawn."""
    game = make(config["game"])
    folder = games_folder(out)
    shown = viewer.Viewers().of(game.viewer_paths()) if frames else None
    if shown is not None:  # (before anything is written)
        viewer.refuse_replacing_in_viewer(shown, folder / viewer.EXPORT_VIEWER)
    made = not folder.exists()
    usable_folder(folder, "the folder of the report's game pages")
    ours = made or not any(folder.iterdir())  # (a folder of the user's stays theirs: a bot's build reads it)
    try:
        if ours:
            mark_output_folder(folder)
        return _write_pages(config, labels, games, out, folder, failures, frames, game, shown)
    except BaseException:  # a full disk, a damaged game: no half-written folder left behind
        if made:
            shutil.rmtree(folder, ignore_errors=True)
        raise


def games_folder(out: Path) -> Path:
    """The folder of the game pages of the report page `out`."""
    return out.with_name(out.stem + "_games")


def refuse_replacing_in_games_folder(out: Path) -> None:
    """UserError where the folder of `out`'s game pages holds a file of another kind under a name the
    report gives its games' pages, records and frames, which it writes over or removes as another
    report's: a user's `report_games/game-2.html` holding a bot's module was replaced by a game's
    page. A folder the arena made is marked as its own (`arena_output`), and its files are not read
    (a run's thousands of pages would be, at each report)."""
    folder = games_folder(out)
    if not folder.is_dir() or arena_output(folder):
        return
    for path in sorted(folder.iterdir()):
        found = _GAME_FILE.fullmatch(path.name)
        if found is None:
            continue
        if found.group(2) == "frames.json.gz":
            refuse_replacing_data(path, "a game's frames", viewer.are_frames)
        else:
            refuse_replacing_unmarked(path, "a game's page written by the arena")


def _write_pages(config, labels, games, out: Path, folder: Path, failures, frames, game, shown) -> Written:
    """The pages of `write`, in `folder`; those of the games that kept their frames in the viewer
    `shown` (a `ViewerFiles`, None for none)."""
    pages = set()
    viewed = 0
    for g in games:
        kept = frames(g["id"]) if frames else None
        name = f"game-{g['id']}.html"
        if kept is not None and shown is not None:
            if not viewed:
                viewer.write_viewer(shown, folder / viewer.EXPORT_VIEWER)
            replay = viewer.Replay(
                g,
                game.name,
                f"game-{g['id']}.frames.json.gz",
                viewer.EXPORT_VIEWER,
                shown.info(),
                f"game-{g['id']}.record.html",
                f"../{out.name}",
                "../",
            )
            viewer.write_game(folder, name, replay, kept)
            write_atomic(folder / replay.record_url, record_page.render(g, config))
            pages.add(g["id"])
            viewed += 1
            continue
        try:
            own = game.replay_page(g)
            page = own or (record_page.render(g, config) if kept is not None else None)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:  # (DamagedGame, or fields of no type)
            raise DamagedGame(f"game {g.get('id')}: {exc}") from None
        if own:  # (beside its record, linked from it as a viewer's page is)
            record = f"game-{g['id']}.record.html"
            write_atomic(folder / record, record_page.render(g, config))
            page = record_page.linked(own, record, f"../{out.name}")
        if page:
            write_atomic(folder / name, page)
            pages.add(g["id"])
    write_atomic(out, render(config, labels, games, folder.name, pages, failures, viewed))
    _remove_stale(folder, pages)
    return Written(folder, viewed)


_GAME_FILE = re.compile(r"game-(\d+)\.(html|record\.html|frames\.json\.gz)")


def _remove_stale(folder: Path, pages: set[int]) -> None:
    """The folder holds this report's pages alone: another run's report written there before left
    its games' pages (game-15.html of another run, beside this one's), and a writer killed there its
    temporary files (`.game-104.html.9334b69f.part`)."""
    for path in folder.iterdir():
        found = _GAME_FILE.fullmatch(path.name)
        stale = found is not None and int(found.group(1)) not in pages
        if stale or (path.name.startswith(".") and path.name.endswith(".part") and path.is_file()):
            path.unlink(missing_ok=True)


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">__MARK__<title>__TITLE__</title>
<style>
body { font-family: system-ui, sans-serif; margin: 20px; background: #1b1e24; color: #e8e8e8; }
h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 24px; }
table { border-collapse: collapse; font-size: 13px; }
th, td { padding: 3px 10px; border-bottom: 1px solid #3a3f4a; text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
th { color: #aab; font-weight: 600; }
a { color: #7fbcff; }
svg { background: #262a33; border-radius: 6px; margin-top: 8px; }
.chart-title, .axis { fill: #cfd3dc; font-size: 11px; }
.guide { stroke: #888; stroke-dasharray: 4 3; }
pre { background: #262a33; padding: 8px; }
</style></head>
<body>
__BODY__
</body></html>
"""
