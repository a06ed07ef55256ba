"""A replay as one self-contained HTML page: CodinGame's flat map of the board, stepped turn by turn.

The page needs no network and no server: the replay, the tile triangles and the script are inline.
"""
from __future__ import annotations

import html
import json
import math

from .board import HALF, N_TILES, NAMES, NEIGHBOURS, NET

SIDE = 100.0  # a big triangle's side, in SVG units
HEIGHT = SIDE * math.sqrt(3) / 2


def _face_corners(face: int) -> tuple[bool, list[tuple[float, float]]]:
    """(points up?, corners) of a big triangle: up faces (top, bottom-left, bottom-right), down
    faces (top-left, top-right, bottom). y grows downwards."""
    if face <= 5:  # top row, pointing up, on the top edge of down face 5 + face
        k = face - 1
        return True, [((k + 0.5) * SIDE, 0.0), (k * SIDE, HEIGHT), ((k + 1) * SIDE, HEIGHT)]
    if face <= 10:  # strip, pointing down
        k = face - 6
        return False, [(k * SIDE, HEIGHT), ((k + 1) * SIDE, HEIGHT), ((k + 0.5) * SIDE, 2 * HEIGHT)]
    if face <= 15:  # strip, pointing up
        k = face - 11
        return True, [((k + 1) * SIDE, HEIGHT), ((k + 0.5) * SIDE, 2 * HEIGHT), ((k + 1.5) * SIDE, 2 * HEIGHT)]
    k = face - 16  # bottom row, pointing down, under up face 10 + face
    return False, [((k + 0.5) * SIDE, 2 * HEIGHT), ((k + 1.5) * SIDE, 2 * HEIGHT), ((k + 1) * SIDE, 3 * HEIGHT)]


def _mid(a, b):
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)


def tile_triangles() -> list[list[tuple[float, float]]]:
    """Each tile's triangle on the map, tile order."""
    triangles = []
    for face, part in NET:
        up, (p, q, r) = _face_corners(face)
        pq, qr, pr = _mid(p, q), _mid(q, r), _mid(p, r)
        if up:  # p top, q bottom-left, r bottom-right
            parts = {"A": [pq, qr, pr], "B": [p, pq, pr], "C": [pr, r, qr], "D": [pq, qr, q]}
        else:  # p top-left, q top-right, r bottom
            parts = {"A": [pq, qr, pr], "C": [p, pq, pr], "D": [pq, q, qr], "B": [pr, qr, r]}
        triangles.append([(round(x, 2), round(y, 2)) for x, y in parts[part]])
    return triangles


def winning_chain(levels: list[int]) -> list[int]:
    """The tiles of a component that joins a tile to its antipode (blue's or orange's), if any."""
    for player in (1, -1):
        seen: dict[int, int] = {}
        for root in range(N_TILES):
            if root in seen or levels[root] * player <= 0:
                continue
            stack, component = [root], []
            seen[root] = root
            while stack:
                t = stack.pop()
                component.append(t)
                for n in NEIGHBOURS[t]:
                    if n not in seen and levels[n] * player > 0:
                        seen[n] = root
                        stack.append(n)
            if any(t < HALF and t + HALF in component for t in component):
                return sorted(component)
    return []


def frames(replay: dict) -> list[dict]:
    """The board before the first turn and after each turn, with what changed."""
    levels, dormant = [0] * N_TILES, []
    shown = [{"turn": 0, "actor": "start", "levels": levels, "dormant": dormant, "changed": []}]
    for entry in replay["turn_log"]:
        after = entry.get("levels") or levels  # a forfeited turn changes nothing
        after_dormant = entry.get("dormant", dormant) if entry.get("levels") else dormant
        changed = [t for t in range(N_TILES) if after[t] != levels[t]]
        erupted = sorted(set(after_dormant) - set(dormant))
        shown.append({
            "turn": entry["turn"], "actor": entry["actor"], "move": entry.get("move"),
            "received": entry.get("received"), "time_ms": entry.get("time_ms"),
            "stderr": entry.get("stderr", ""), "levels": after, "dormant": after_dormant,
            "changed": changed, "erupted": erupted,
        })
        levels, dormant = after, after_dormant
    return shown


_SCRIPT_UNSAFE = str.maketrans({c: f"\\u{ord(c):04x}" for c in "<>&\u2028\u2029"})


def script_json(data) -> str:
    """`data` as JSON that is safe inside a <script> element, whatever its strings hold: "</script>"
    would end the element, "<!--" would start a comment that swallows the code after it, and
    U+2028/2029 end lines in older JavaScript. Outside strings JSON has none of these characters, so
    each is written as the string escape that JSON.parse reads back unchanged."""
    return json.dumps(data, separators=(",", ":")).translate(_SCRIPT_UNSAFE)


def render(replay: dict) -> str:
    """The replay as one HTML page."""
    data = {
        "names": list(NAMES),
        "triangles": tile_triangles(),
        "frames": frames(replay),
        "players": replay.get("players", {}),
        "result": {k: replay.get(k) for k in ("winner", "reason", "detail", "seed", "turns")},
        "chain": winning_chain(frames(replay)[-1]["levels"]) if replay.get("reason") == "connection" else [],
    }
    title = html.escape(f"Volcanoes, seed {replay.get('seed')}: {replay.get('winner')} ({replay.get('reason')})")
    return _PAGE.replace("__TITLE__", title).replace("__DATA__", script_json(data))


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>__TITLE__</title>
<style>
body { font-family: system-ui, sans-serif; margin: 16px; background: #1b1e24; color: #e8e8e8; }
h1 { font-size: 18px; margin: 0 0 8px; }
#board { width: 760px; height: 270px; background: #262a33; border-radius: 6px; }
polygon { stroke: #1b1e24; stroke-width: 0.8; }
polygon.changed { stroke: #ffffff; stroke-width: 1.6; }
polygon.chain { stroke: #ffe14d; stroke-width: 2.4; }
text.level { font-size: 7px; fill: #111; text-anchor: middle; dominant-baseline: middle; pointer-events: none; }
text.dormant { font-weight: bold; fill: #fff; }
#controls { margin: 10px 0; display: flex; gap: 6px; align-items: center; }
#slider { width: 420px; }
#info { display: grid; grid-template-columns: 110px 640px; gap: 3px 10px; font-size: 14px; }
#stderr { white-space: pre-wrap; font-family: monospace; font-size: 12px; max-height: 140px; overflow: auto;
  background: #111; padding: 4px; margin: 0; }
.blue { color: #5aa9ff; } .orange { color: #ff9d3b; }
</style></head>
<body>
<h1>__TITLE__</h1>
<div id="players"></div>
<svg id="board" viewBox="-4 -4 558 268" xmlns="http://www.w3.org/2000/svg"></svg>
<div id="controls">
  <button id="first" title="first turn (Home)">first</button>
  <button id="prev" title="previous turn (&larr;)">&#x25C0;</button>
  <button id="play" title="play / pause (space)">play</button>
  <button id="next" title="next turn (&rarr;)">&#x25B6;</button>
  <button id="last" title="last turn (End)">last</button>
  <input id="slider" type="range" min="0" value="0">
  <span id="counter"></span>
</div>
<div id="info">
  <span>turn</span><span id="turn"></span>
  <span>played</span><span id="move"></span>
  <span>time</span><span id="time"></span>
  <span>eruptions</span><span id="eruptions"></span>
  <span>changed</span><span id="changed"></span>
  <span>result</span><span id="result"></span>
  <span>stderr</span><pre id="stderr"></pre>
</div>
<script id="replay-data" type="application/json">__DATA__</script>
<script>
"use strict";
const data = JSON.parse(document.getElementById("replay-data").textContent);
const frames = data.frames, names = data.names, svg = document.getElementById("board");
const NS = "http://www.w3.org/2000/svg";
const polys = [], labels = [];
// Blue volcanoes in blues, orange in oranges, darker the higher; empty tiles grey.
const BLUE = ["#b9dcff", "#7fbcff", "#3f8ff0", "#1b5fc0"], ORANGE = ["#ffd9b0", "#ffb366", "#f07f1b", "#b85500"];
function colour(level) {
  if (level > 0) return BLUE[Math.min(level, 4) - 1];
  if (level < 0) return ORANGE[Math.min(-level, 4) - 1];
  return "#4a505c";
}
data.triangles.forEach((tri, t) => {
  const p = document.createElementNS(NS, "polygon");
  p.setAttribute("points", tri.map(([x, y]) => x + "," + y).join(" "));
  p.dataset.tile = names[t];
  const tip = document.createElementNS(NS, "title"); p.appendChild(tip);
  svg.appendChild(p); polys.push(p);
  const label = document.createElementNS(NS, "text");
  label.setAttribute("x", (tri[0][0] + tri[1][0] + tri[2][0]) / 3);
  label.setAttribute("y", (tri[0][1] + tri[1][1] + tri[2][1]) / 3);
  label.setAttribute("class", "level");
  svg.appendChild(label); labels.push(label);
});
const slider = document.getElementById("slider");
slider.max = frames.length - 1;
document.getElementById("players").innerHTML =
  '<span class="blue">blue: ' + esc(data.players.blue || "?") + '</span> &nbsp; <span class="orange">orange: ' +
  esc(data.players.orange || "?") + "</span>";
function esc(s) { return String(s).replace(/[&<>]/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;"})[c]); }
let index = 0, timer = null;
function show(i) {
  index = Math.max(0, Math.min(frames.length - 1, i));
  const f = frames[index], last = index === frames.length - 1;
  const dormant = new Set(f.dormant), changed = new Set(f.changed);
  const chain = new Set(last ? data.chain.map(t => names[t]) : []);
  polys.forEach((p, t) => {
    const level = f.levels[t];
    p.setAttribute("fill", colour(level));
    p.setAttribute("class", (chain.has(names[t]) ? "chain " : "") + (changed.has(t) ? "changed" : ""));
    p.dataset.level = level;
    p.firstChild.textContent = names[t] + (level ? " level " + level : " empty") + (dormant.has(names[t]) ? ", dormant" : "");
    labels[t].textContent = level ? Math.abs(level) : "";
    labels[t].setAttribute("class", "level" + (dormant.has(names[t]) ? " dormant" : ""));
  });
  slider.value = index;
  document.getElementById("counter").textContent = "turn " + f.turn + " / " + frames[frames.length - 1].turn;
  document.getElementById("turn").innerHTML = f.turn ? f.turn + ' <span class="' + f.actor + '">' + f.actor + "</span>" : "start";
  document.getElementById("move").textContent = f.actor === "growth" ? "growth: every volcano rises"
    : (f.move || (f.received === null || f.received === undefined ? "" : "answer " + JSON.stringify(f.received)));
  document.getElementById("time").textContent = f.time_ms == null ? "" : f.time_ms.toFixed(1) + " ms";
  document.getElementById("eruptions").textContent = (f.erupted || []).join(" ");
  document.getElementById("changed").textContent = f.changed.map(t => names[t]).join(" ");
  document.getElementById("stderr").textContent = f.stderr || "";
  const r = data.result;
  document.getElementById("result").textContent = last ? r.winner + " (" + r.reason + ": " + r.detail + ")" : "";
}
function stop() { clearInterval(timer); timer = null; document.getElementById("play").textContent = "play"; }
function play() {
  if (timer) return stop();
  if (index === frames.length - 1) show(0);
  document.getElementById("play").textContent = "pause";
  timer = setInterval(() => { if (index >= frames.length - 1) stop(); else show(index + 1); }, 500);
}
document.getElementById("first").onclick = () => { stop(); show(0); };
document.getElementById("prev").onclick = () => { stop(); show(index - 1); };
document.getElementById("next").onclick = () => { stop(); show(index + 1); };
document.getElementById("last").onclick = () => { stop(); show(frames.length - 1); };
document.getElementById("play").onclick = play;
slider.oninput = () => { stop(); show(Number(slider.value)); };
document.addEventListener("keydown", e => {
  if (e.key === "ArrowLeft") { stop(); show(index - 1); }
  else if (e.key === "ArrowRight") { stop(); show(index + 1); }
  else if (e.key === "Home") { stop(); show(0); }
  else if (e.key === "End") { stop(); show(frames.length - 1); }
  else if (e.key === " ") { e.preventDefault(); play(); }
});
show(0);
</script>
</body></html>
"""
