"""A stored game as a page, for games without a replay viewer of their own (external referees):
who sat where, ranks, scores and errors, why it ended, the seeds, each seat's time per turn and
stderr turn by turn, the data the bots emitted and what the referee wrote. Every text in it comes from
bots or users, so every one is escaped."""

from __future__ import annotations

import html
import json
import re

from arena.project import page_mark
from arena.stats.tables import PLAYERS_FROM_0, names_a_player

# shown in sections of their own
_SKIP = ("stderr", "referee_stderr", "pdata", "tdata", "fingerprint", "summaries", "tooltips")
# The SDK's markup of a coloured text (GameManager.formatErrorMessage: ¤RED¤text§RED§), which
# CodinGame's player draws in that colour
_COLOURED = re.compile(r"¤(\w+)¤(.*?)§\1§", re.DOTALL)
_SEAT = re.compile(r"\$(\d)")


def _e(value) -> str:
    return html.escape("" if value is None else str(value))


def _table(header: list[str], rows: list[list]) -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def render(record: dict, config: dict) -> str:
    seats = record["seats"]
    data = record.get("data") or {}
    times = record.get("times")
    pdata = data.get("pdata") or [{} for _ in seats]
    rows = []
    for i, label in enumerate(seats):
        mine = times[i] if times else None
        rows.append(
            [
                i + 1,  # seats from 1, as the report's and the live page's games tables number them
                label,
                record["ranks"][i] + 1,
                (record.get("scores") or [None] * len(seats))[i],
                record["errors"][i] or "",
                (record.get("versions") or [""] * len(seats))[i],
                (record.get("bot_seeds") or [""] * len(seats))[i],
                len(mine) if mine is not None else "-",
                f"{max(mine):.1f}" if mine else "-",
                ", ".join(f"{k} = {v}" for k, v in pdata[i].items()) if i < len(pdata) else "",
            ]
        )
    game = config.get("game", {})
    parts = [
        f"<h1>game {_e(record.get('id'))}: {_e(' vs '.join(seats))}</h1>",
        f"<p>{_e(game.get('name') or game.get('protocol'))}, seed {_e(record['seed'])}, unit {_e(record['unit'])}, "
        f"seating {_e(record['seating'])}; ended by {_e(record['reason'])} after {_e(record.get('turns'))} turns"
        f"{_detail(record.get('detail'))}; finished {_e(record.get('finished_at'))}</p>",
        _table(
            ["seat", "player", "rank", "score", "error", "version", "bot seed", "turns timed", "max ms", "PDATA"], rows
        ),
    ]
    if data.get("tdata"):
        parts += ["<h2>TDATA</h2>", _table(["name", "value"], [[k, v] for k, v in data["tdata"].items()])]
    if times:
        longest = max((len(t) for t in times), default=0)
        turns = [[k + 1, *[f"{t[k]:.1f}" if k < len(t) else "" for t in times]] for k in range(longest)]
        parts += ["<h2>Time per turn (ms)</h2>", _table(["turn", *seats], turns)]
    summaries = _referee_said(data, seats)
    if summaries:
        parts += ["<h2>The referee's summaries and tooltips</h2>", summaries]
    stderr = data.get("stderr")
    if stderr:
        parts.append("<h2>Bots' stderr, turn by turn</h2>")
        for i, label in enumerate(seats):
            said = [(k + 1, text) for k, text in enumerate(stderr[i] if i < len(stderr) else []) if text]
            if said:
                parts.append(f"<h3>{_e(label)} (seat {i + 1})</h3>")
                parts.append("".join(f"<pre><b>turn {k}</b>\n{_e(text)}</pre>" for k, text in said))
    if data.get("referee_stderr"):
        parts += ["<h2>The referee's stderr</h2>", f"<pre>{_e(data['referee_stderr'])}</pre>"]
    rest = {k: v for k, v in data.items() if k not in _SKIP}
    if rest:
        parts += ["<h2>More of the record</h2>", f"<pre>{_e(json.dumps(rest, indent=1)[:100_000])}</pre>"]
    title = _e(f"game {record.get('id')}: {' vs '.join(seats)}")
    return _PAGE.replace("__MARK__", page_mark()).replace("__TITLE__", title).replace("__BODY__", "\n".join(parts))


def _detail(detail: str | None) -> str:
    """A game's detail after its reason, as HTML ("" for none)."""
    if not detail:
        return ""
    return f": {_e(detail)}" + (f" ({PLAYERS_FROM_0})" if names_a_player(detail) else "")


def linked(page: str, record_url: str, back_url: str | None = None) -> str:
    """A game's own page (Volcanoes', as its referee draws it) with the links a viewer page has at its
    top: its record's page, and the page it was reached from (None: none)."""
    links = [(record_url, "the game's record"), (back_url, "back")]
    anchors = " ".join(f'<a href="{_e(url)}" style="color: #7fbcff">{text}</a>' for url, text in links if url)
    page = _HEAD.sub(lambda head: head[0] + page_mark(), page, count=1)  # (the arena's now, as its other pages)
    return _BODY.sub(lambda body: f'{body[0]}\n<nav style="margin-bottom: 8px">{anchors}</nav>', page, count=1)


_HEAD = re.compile(r"<head[^>]*>", re.IGNORECASE)
_BODY = re.compile(r"<body[^>]*>", re.IGNORECASE)


def _referee_said(data: dict, seats: list[str]) -> str:
    """The summaries and tooltips the referee wrote, round by round, as a table (empty for none): as
    kept by protocol sdk ([round, text]; {round, text, player}) or read from a runner's log (texts in
    frame order; {text, event})."""
    rows = []
    for number, summary in enumerate(data.get("summaries") or []):
        round_, text = summary if isinstance(summary, list) and len(summary) == 2 else (number, summary)
        rows.append((round_, "summary", text))
    for tooltip in data.get("tooltips") or []:
        if isinstance(tooltip, dict):
            seat = tooltip.get("player", tooltip.get("event"))
            about = f"tooltip ({seats[seat]})" if isinstance(seat, int) and 0 <= seat < len(seats) else "tooltip"
            rows.append((tooltip.get("round", ""), about, tooltip.get("text")))
    rows = [row for row in rows if row[2]]  # (a runner's log has a summary for each frame, most empty)
    if not rows:
        return ""
    body = "".join(
        f"<tr><td>{_e(round_)}</td><td>{_e(kind)}</td><td>{_referee_text(text, seats)}</td></tr>"
        for round_, kind, text in rows
    )
    return f"<table class='said'><thead><tr><th>round</th><th>what</th><th>text</th></tr></thead><tbody>{body}</tbody></table>"


def _referee_text(text, seats: list[str]) -> str:
    """A referee's text as HTML, as CodinGame's player shows it: $N the name of seat N, a coloured
    text in its colour; the rest escaped."""
    text = "" if text is None else str(text)

    def named(part: str) -> str:
        return _e(_SEAT.sub(lambda found: seats[int(found[1])] if int(found[1]) < len(seats) else found[0], part))

    out, last = [], 0
    for found in _COLOURED.finditer(text):
        out += [named(text[last : found.start()]), f'<span style="color:{found[1].lower()}">{named(found[2])}</span>']
        last = found.end()
    return "".join([*out, named(text[last:])])


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">__MARK__<link rel="icon" href="data:,"><title>__TITLE__</title>
<style>
body { font-family: system-ui, sans-serif; margin: 20px; background: #1b1e24; color: #e8e8e8; }
h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 24px; } h3 { font-size: 14px; }
table { border-collapse: collapse; font-size: 13px; }
th, td { padding: 3px 10px; border-bottom: 1px solid #3a3f4a; text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
pre { background: #262a33; padding: 8px; white-space: pre-wrap; }
table.said td:last-child { text-align: left; white-space: pre-wrap; }
</style></head>
<body>
__BODY__
</body></html>
"""
