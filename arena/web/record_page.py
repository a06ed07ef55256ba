"""A stored game as a page, for games without a replay viewer of their own (external referees):
who sat where, ranks, scores and errors, why it ended, the seeds, each seat's time per turn and
stderr turn by turn, the data the bots emitted and what the referee wrote. Every text in it comes from
bots or users, so every one is escaped."""

from __future__ import annotations

import html
import json

_SKIP = ("stderr", "referee_stderr", "pdata", "tdata", "fingerprint")  # shown in sections of their own


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
                i,
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
        f"{': ' + _e(record['detail']) if record.get('detail') else ''}; finished {_e(record.get('finished_at'))}</p>",
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
    stderr = data.get("stderr")
    if stderr:
        parts.append("<h2>Bots' stderr, turn by turn</h2>")
        for i, label in enumerate(seats):
            said = [(k + 1, text) for k, text in enumerate(stderr[i] if i < len(stderr) else []) if text]
            if said:
                parts.append(f"<h3>{_e(label)} (seat {i})</h3>")
                parts.append("".join(f"<pre><b>turn {k}</b>\n{_e(text)}</pre>" for k, text in said))
    if data.get("referee_stderr"):
        parts += ["<h2>The referee's stderr</h2>", f"<pre>{_e(data['referee_stderr'])}</pre>"]
    rest = {k: v for k, v in data.items() if k not in _SKIP}
    if rest:
        parts += ["<h2>More of the record</h2>", f"<pre>{_e(json.dumps(rest, indent=1)[:100_000])}</pre>"]
    title = _e(f"game {record.get('id')}: {' vs '.join(seats)}")
    return _PAGE.replace("__TITLE__", title).replace("__BODY__", "\n".join(parts))


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>__TITLE__</title>
<style>
body { font-family: system-ui, sans-serif; margin: 20px; background: #1b1e24; color: #e8e8e8; }
h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 24px; } h3 { font-size: 14px; }
table { border-collapse: collapse; font-size: 13px; }
th, td { padding: 3px 10px; border-bottom: 1px solid #3a3f4a; text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
pre { background: #262a33; padding: 8px; white-space: pre-wrap; }
</style></head>
<body>
__BODY__
</body></html>
"""
