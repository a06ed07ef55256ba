"""A replay as one self-contained HTML page: CodinGame's flat map of the board, stepped turn by turn.

The page needs no network and no server: the replay, the tile triangles and the script are inline.
"""

from __future__ import annotations

import html
import json
import math

from .analysis import mistakes
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
        shown.append(
            {
                "turn": entry["turn"],
                "actor": entry["actor"],
                "move": entry.get("move"),
                "received": entry.get("received"),
                "time_ms": entry.get("time_ms"),
                "stderr": entry.get("stderr", ""),
                "levels": after,
                "dormant": after_dormant,
                "changed": changed,
                "erupted": erupted,
            }
        )
        levels, dormant = after, after_dormant
    return shown


_SCRIPT_UNSAFE = str.maketrans({c: f"\\u{ord(c):04x}" for c in "<>&\u2028\u2029"})


def script_json(data) -> str:
    """`data` as JSON that is safe inside a <script> element, whatever its strings hold: "</script>"
    would end the element, "<!--" would start a comment that swallows the code after it, and
    U+2028/2029 end lines in older JavaScript. Outside strings JSON has none of these characters, so
    each is written as the string escape that JSON.parse reads back unchanged. NaN and Infinity are
    refused (ValueError): JSON.parse would fail on them, and the page stay blank."""
    return json.dumps(data, separators=(",", ":"), allow_nan=False).translate(_SCRIPT_UNSAFE)


def render(replay: dict) -> str:
    """The replay as one HTML page."""
    data = {
        "names": list(NAMES),
        "triangles": tile_triangles(),
        "frames": frames(replay),
        "players": replay.get("players", {}),
        "result": {k: replay.get(k) for k in ("winner", "reason", "detail", "seed", "turns")},
        "chain": winning_chain(frames(replay)[-1]["levels"]) if replay.get("reason") == "connection" else [],
        "analysis": replay.get("analysis"),
        "mistakes": [vars(m) for m in mistakes(replay)] if replay.get("analysis") else [],
    }
    winner = replay.get("winner")  # (a crash, a timeout: the loser's; "orange (crash)" read as orange's)
    result = "a draw" if winner == "draw" else f"{winner} wins"
    title = html.escape(f"Volcanoes, seed {replay.get('seed')}: {result} ({replay.get('reason')})")
    return _PAGE.replace("__TITLE__", title).replace("__DATA__", script_json(data))


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>__TITLE__</title>
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
text.name { font-size: 5px; fill: #111; text-anchor: middle; pointer-events: none; display: none; }
#board.names text.name { display: inline; }
polygon.best { stroke: #7dff8a; stroke-width: 2.4; stroke-dasharray: 3 1.5; }
circle#best-marker { fill: none; stroke: #7dff8a; stroke-width: 1.6; pointer-events: none; }
#analysis { display: none; margin-top: 8px; }
#curve { width: 760px; height: 150px; background: #262a33; border-radius: 6px; cursor: pointer; }
#curve .guide { stroke: #777; stroke-dasharray: 4 3; stroke-width: 0.8; }
#curve .point { fill: #cfd3dc; }
#curve .point.mistake { fill: #ff4d6a; stroke: #fff; stroke-width: 0.8; }
#curve-now { stroke: #7dff8a; stroke-width: 1.2; }
#curve text { fill: #cfd3dc; font-size: 9px; }
.legend { font-size: 13px; display: flex; gap: 16px; align-items: center; margin: 4px 0; }
.key { display: inline-block; width: 18px; height: 3px; vertical-align: middle; margin-right: 4px; }
.key.dot { width: 9px; height: 9px; border-radius: 50%; }
#mistakes button { margin: 2px 4px 2px 0; font-size: 12px; }
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
  <label title="show each tile's name (N)"><input id="names" type="checkbox"> tile names</label>
</div>
<div id="analysis">
  <svg id="curve" viewBox="0 0 760 150" xmlns="http://www.w3.org/2000/svg"></svg>
  <div class="legend">
    <span><span class="key" style="background:#5aa9ff"></span>blue's expected score (top: blue wins, bottom: orange wins)</span>
    <span><span class="key dot" style="background:#ff4d6a"></span>a move that lost the most</span>
    <span><span class="key" style="background:#7dff8a"></span>this turn; on the board, the engine's move</span>
  </div>
  <div id="mistakes"></div>
</div>
<div id="info">
  <span>turn</span><span id="turn"></span>
  <span>played</span><span id="move"></span>
  <span>time</span><span id="time"></span>
  <span>eruptions</span><span id="eruptions"></span>
  <span>changed</span><span id="changed"></span>
  <span>result</span><span id="result"></span>
  <span>engine</span><span id="engine"></span>
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
  const name = document.createElementNS(NS, "text");
  name.setAttribute("x", label.getAttribute("x"));
  name.setAttribute("y", Number(label.getAttribute("y")) + 6.5);
  name.setAttribute("class", "name");
  name.textContent = names[t];
  svg.appendChild(name);
});
const bestMarker = document.createElementNS(NS, "circle");
bestMarker.id = "best-marker"; bestMarker.setAttribute("r", 7); bestMarker.style.display = "none";
svg.appendChild(bestMarker);
const namesBox = document.getElementById("names");
namesBox.onchange = () => svg.classList.toggle("names", namesBox.checked);
// The analysis: blue's expected score after each turn, drawn under the board; a click picks a turn.
const analysis = data.analysis, curve = document.getElementById("curve");
const CW = 760, CH = 150, CPAD = 14;
function cx(i) { return CPAD + i * (CW - 2 * CPAD) / Math.max(frames.length - 1, 1); }
function cy(v) { return CPAD + (1 - v) * (CH - 2 * CPAD); }
function svgNode(kind, attrs) {
  const node = document.createElementNS(NS, kind);
  for (const k in attrs) node.setAttribute(k, attrs[k]);
  curve.appendChild(node); return node;
}
let nowLine = null;
if (analysis) {
  document.getElementById("analysis").style.display = "block";
  const av = analysis.frames;
  svgNode("line", {x1: CPAD, x2: CW - CPAD, y1: cy(0.5), y2: cy(0.5), class: "guide"});
  svgNode("text", {x: 2, y: cy(1) + 3}).textContent = "blue";
  svgNode("text", {x: 2, y: cy(0) + 3}).textContent = "orange";
  svgNode("polyline", {points: av.map((a, i) => cx(i) + "," + cy(a.value)).join(" "), fill: "none",
    stroke: "#5aa9ff", "stroke-width": 1.6, id: "curve-line"});
  nowLine = svgNode("line", {y1: CPAD - 6, y2: CH - CPAD + 6, id: "curve-now"});
  const marked = new Set(data.mistakes.map(m => m.frame));
  av.forEach((a, i) => {
    const dot = svgNode("circle", {cx: cx(i), cy: cy(a.value), r: marked.has(i) ? 3.6 : 1.8,
      class: "point" + (marked.has(i) ? " mistake" : "")});
    dot.dataset.frame = i; dot.dataset.value = a.value;
    const tip = document.createElementNS(NS, "title");
    tip.textContent = "turn " + frames[i].turn + ": blue " + pct(a.value) + ", orange " + pct(1 - a.value);
    dot.appendChild(tip);
  });
  curve.addEventListener("click", e => {
    const box = curve.getBoundingClientRect(), x = (e.clientX - box.left) * CW / box.width;
    stop(); show(Math.round((x - CPAD) * (frames.length - 1) / (CW - 2 * CPAD)));
  });
  const list = document.getElementById("mistakes");
  list.textContent = data.mistakes.length ? "moves that lost the most (go to the position before): " : "no move lost 10% or more of its player's expected score";
  data.mistakes.forEach(m => {
    const b = document.createElement("button");
    b.className = m.player; b.dataset.frame = m.frame;
    b.textContent = "turn " + frames[m.frame].turn + " " + m.player + " " + (m.played || "forfeit") + " -" + pct(m.loss) +
      (m.best ? " (engine: " + m.best + ")" : "");
    b.onclick = () => { stop(); show(m.frame - 1); };  // the position the mistake was made in
    list.appendChild(b);
  });
}
function pct(v) { return Math.round(100 * v) + "%"; }
const slider = document.getElementById("slider");
slider.max = frames.length - 1;
// Text from the replay goes in as text (textContent, createElement), never as markup.
function span(cls, text) { const s = document.createElement("span"); s.className = cls; s.textContent = text; return s; }
document.getElementById("players").append(
  span("blue", "blue: " + (data.players.blue || "?")), "\\u00a0 ", span("orange", "orange: " + (data.players.orange || "?")));
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
  const turn = document.getElementById("turn");
  if (f.turn) turn.replaceChildren(f.turn + " ", span(f.actor, f.actor)); else turn.textContent = "start";
  document.getElementById("move").textContent = f.actor === "growth" ? "growth: every volcano rises"
    : (f.move || (f.received === null || f.received === undefined ? "" : "answer " + JSON.stringify(f.received)));
  document.getElementById("time").textContent = f.time_ms == null ? "" : f.time_ms.toFixed(1) + " ms";
  document.getElementById("eruptions").textContent = (f.erupted || []).join(" ");
  document.getElementById("changed").textContent = f.changed.map(t => names[t]).join(" ");
  document.getElementById("stderr").textContent = f.stderr || "";
  showAnalysis(f);
  const r = data.result;
  document.getElementById("result").textContent = last ? r.winner + " (" + r.reason + ": " + r.detail + ")" : "";
}
function showAnalysis(f) {
  polys.forEach(p => p.classList.remove("best"));
  bestMarker.style.display = "none";
  const engine = document.getElementById("engine");
  if (!analysis) { engine.textContent = ""; return; }
  const a = analysis.frames[index], next = frames[index + 1];
  nowLine.setAttribute("x1", cx(index)); nowLine.setAttribute("x2", cx(index));
  let text = "blue " + pct(a.value) + ", orange " + pct(1 - a.value);
  if (a.best) {  // the engine's move for the next turn, marked on this position
    const t = names.indexOf(a.best), tri = data.triangles[t];
    polys[t].classList.add("best");
    bestMarker.setAttribute("cx", (tri[0][0] + tri[1][0] + tri[2][0]) / 3);
    bestMarker.setAttribute("cy", (tri[0][1] + tri[1][1] + tri[2][1]) / 3);
    bestMarker.style.display = "";
    bestMarker.dataset.tile = a.best;
    text += "; " + analysis.engine + " prefers " + a.best + " for " + next.actor;
    if (next.move) {
      const lost = analysis.frames[index + 1].loss;
      text += "; " + next.actor + " played " + next.move + (lost > 0 ? " and lost " + pct(lost) : "");
    }
  }
  engine.textContent = text;
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
  else if (e.key === "n" || e.key === "N") { namesBox.checked = !namesBox.checked; namesBox.onchange(); }
});
show(0);
</script>
</body></html>
"""
