"""The page `arena serve` sends: one file, its script and styles inline (no network), that asks
`/api/state` for the run's state every POLL_MS and draws it. Everything shown comes from the state's
data and is put into the page as text (`textContent`, SVG attributes), never as HTML: labels, details
and emitted data are what users and bots wrote."""

import json

from arena.stats.tables import N_PLAYER_RESULTS, TWO_PLAYER_RESULTS

POLL_MS = 2000

PAGE = (
    """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>arena: live</title>
<style>
body { font-family: system-ui, sans-serif; margin: 16px; background: #1b1e24; color: #e8e8e8; }
h1 { font-size: 19px; margin: 0 0 6px; } h2 { font-size: 15px; margin: 22px 0 6px; }
table { border-collapse: collapse; font-size: 12.5px; }
th, td { padding: 2px 8px; border-bottom: 1px solid #3a3f4a; text-align: right; white-space: nowrap; }
th { color: #aab; font-weight: 600; position: sticky; top: 0; background: #1b1e24; }
td.l, th.l { text-align: left; }
a { color: #7fbcff; }
#status { color: #aab; font-size: 13px; }
#filters { background: #262a33; padding: 8px; border-radius: 6px; font-size: 13px; }
#bots label { margin-right: 10px; white-space: nowrap; }
.paused { color: #e0b050; } .removed { color: #888; } .error { color: #ff7b7b; }
.scroll { max-width: 100%; overflow: auto; max-height: 480px; }
svg { background: #262a33; border-radius: 6px; }
.axis { fill: #cfd3dc; font-size: 11px; }
#cross td.cell { color: #111; }
</style></head>
<body>
<h1 id="title">arena</h1>
<div id="status">loading...</div>
<div id="filters">
  <span id="run-choice" hidden>run <select id="run"></select> &nbsp;</span>
  players: <button id="all" type="button">all</button> <button id="none" type="button">none</button>
  <span id="bots"></span><br>
  games whose data meet <input id="where" size="28" placeholder="tdata.size >= 10">
  <select id="names"><option value="">(names)</option></select>
  <button id="apply" type="button">apply</button> <span id="where-error" class="error"></span>
</div>
<h2>Leaderboard</h2>
<div class="scroll"><table id="leaderboard"><thead></thead><tbody></tbody></table></div>
<div id="reasons"></div>
<h2>Rating history (Elo by games played)</h2>
<svg id="history" width="900" height="300" viewBox="0 0 900 300"></svg>
<h2>Cross-table (score of the row against the column)</h2>
<div class="scroll"><table id="cross"><thead></thead><tbody></tbody></table></div>
<h2>Latest games</h2>
<div class="scroll"><table id="latest"><thead></thead><tbody></tbody></table></div>
<h2>Failed games (the referee's or the machine's: they count for nobody)</h2>
<div id="failures"></div>
<script>
"use strict";
const POLL_MS = """
    + str(POLL_MS)
    + """;
const TWO_PLAYER_RESULTS = """
    + json.dumps(TWO_PLAYER_RESULTS)
    + """, N_PLAYER_RESULTS = """
    + json.dumps(N_PLAYER_RESULTS)
    + """;
const COLOURS = ["#5aa9ff", "#ff9d3b", "#7bd389", "#e06c9f", "#c9b458", "#9d8df1", "#4fd1c5", "#f56565"];
let run = 0, chosen = null, where = "", etag = null, state = null, timer = null;

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}
function num(v, digits) { return v === null || v === undefined ? "-" : Number(v).toFixed(digits); }
function signed(v) { return v === null || v === undefined ? "-" : (v >= 0 ? "+" : "") + Math.round(v); }

function fillTable(id, header, rows, left) {
  const table = document.getElementById(id);
  const head = el("tr");
  header.forEach((h, i) => head.appendChild(el("th", h, i < left ? "l" : "")));
  table.tHead.replaceChildren(head);
  const body = document.createDocumentFragment();
  rows.forEach(cells => {
    const tr = el("tr");
    cells.forEach((c, i) => {
      if (c instanceof Node) { const td = el("td", null, i < left ? "l" : ""); td.appendChild(c); tr.appendChild(td); }
      else tr.appendChild(el("td", c, i < left ? "l" : ""));
    });
    body.appendChild(tr);
  });
  table.tBodies[0].replaceChildren(body);
}

function query() {
  const q = new URLSearchParams({run: String(run)});
  if (chosen !== null) {  // one "bots" per player, so that a label may hold any character; "" for none
    if (chosen.length) chosen.forEach(label => q.append("bots", label)); else q.set("bots", "");
  }
  if (where) q.set("where", where);
  if (etag) q.set("known", etag);
  return q.toString();
}

async function poll() {
  clearTimeout(timer);
  try {
    const response = await fetch("/api/state?" + query(), {cache: "no-store"});
    const data = await response.json();
    if (!response.ok) {
      document.getElementById("where-error").textContent = data.error || response.statusText;
      if (where) { where = ""; etag = null; }
    } else if (!data.unchanged) {
      document.getElementById("where-error").textContent = "";
      etag = data.etag; state = data; draw(data);
    }
    document.getElementById("status").dataset.polled = String(Date.now());
  } catch (err) {
    document.getElementById("status").textContent = "no answer from the server: " + err;
  }
  timer = setTimeout(poll, POLL_MS);
}

function draw(s) {
  const r = s.run;
  document.getElementById("title").textContent = r.command + " of " + r.game + " (" + r.name + ")";
  document.getElementById("status").textContent =
    r.games + " games in the file, " + s.shown.games + " shown" + (s.shown.where ? " (" + s.shown.where + ")" : "") +
    ", " + r.failures + " failed; updated " + new Date().toLocaleTimeString() +
    (r.mode ? "; matchmaking: " + r.mode : "");
  drawFilters(s); drawLeaderboard(s); drawHistory(s); drawCross(s); drawLatest(s); drawFailures(s);
}

function drawFilters(s) {
  const box = document.getElementById("bots");
  box.replaceChildren();
  s.players.forEach(p => {
    const label = el("label", null, p.status === "removed" ? "removed" : (p.status === "paused" ? "paused" : ""));
    const input = el("input"); input.type = "checkbox"; input.checked = p.shown; input.value = p.label;
    input.dataset.bot = p.label;
    input.addEventListener("change", () => {
      chosen = Array.from(box.querySelectorAll("input:checked")).map(i => i.value);
      etag = null; poll();
    });
    label.appendChild(input); label.appendChild(document.createTextNode(" " + p.label));
    box.appendChild(label);
  });
  const names = document.getElementById("names");
  const keep = names.value;
  names.replaceChildren(el("option", "(names)"));
  names.firstChild.value = "";
  s.data_names.forEach(n => { const o = el("option", n); o.value = n; names.appendChild(o); });
  names.value = keep;
}

function drawLeaderboard(s) {
  const names = Array.from(new Set(s.leaderboard.flatMap(r => Object.keys(r.data)))).sort();
  // the report's name for them: every game of a run has as many players, and the latest tell how many
  const results = s.latest.some(g => g.seats.length > 2) ? N_PLAYER_RESULTS : TWO_PLAYER_RESULTS;
  const header = ["#", "player", "status", "Elo", "95% interval", "over next", "games", results, "score",
    "timeouts", "invalid", "crashes", "forfeits", "ms median", "ms p99", "ms max", "1st turn max", ...names];
  const rows = s.leaderboard.map(r => [
    r.rank === null ? "-" : r.rank, r.label, r.status || "", signed(r.elo),
    r.elo === null ? "-" : "[" + signed(r.low) + ", " + signed(r.high) + "]",
    r.gap ? signed(r.gap.elo) + " [" + signed(r.gap.low) + ", " + signed(r.gap.high) + "]" : "-",
    r.games, r.wins + "-" + r.draws + "-" + r.losses, r.score === null ? "-" : (100 * r.score).toFixed(1) + "%",
    r.timeout, r.invalid, r.crash, r.forfeits, num(r.ms_median, 1), num(r.ms_p99, 1), num(r.ms_max, 1),
    num(r.first_turn_max, 1), ...names.map(n => r.data[n] === undefined ? "-" : Number(r.data[n]).toPrecision(4))]);
  fillTable("leaderboard", header, rows, 3);
  const reasons = document.getElementById("reasons");
  reasons.replaceChildren();
  s.leaderboard.filter(r => r.reason).forEach(r => reasons.appendChild(el("div", r.label + " " + r.status + ": " + r.reason, r.status)));
}

function svg(tag, attrs, text) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  Object.entries(attrs).forEach(([k, v]) => e.setAttribute(k, String(v)));
  if (text !== undefined) e.textContent = String(text);
  return e;
}

function drawHistory(s) {
  const chart = document.getElementById("history");
  chart.replaceChildren();
  const xs = s.history.games, series = s.history.elo;
  const labels = Object.keys(series);
  if (!xs.length) return;
  const W = 900, H = 300, pad = 40, legend = 130;
  const ys = labels.flatMap(l => series[l].filter(v => v !== null));
  const x0 = 0, x1 = Math.max(...xs, 1), y0 = Math.min(...ys, 0), y1 = Math.max(...ys, 0) || 1;
  const px = x => pad + (x - x0) / (x1 - x0 || 1) * (W - 2 * pad - legend);
  const py = y => H - pad - (y - y0) / (y1 - y0 || 1) * (H - 2 * pad);
  chart.appendChild(svg("text", {x: pad - 4, y: py(y1) + 4, class: "axis", "text-anchor": "end"}, Math.round(y1)));
  chart.appendChild(svg("text", {x: pad - 4, y: py(y0) + 4, class: "axis", "text-anchor": "end"}, Math.round(y0)));
  chart.appendChild(svg("text", {x: px(x1), y: H - pad + 16, class: "axis", "text-anchor": "end"}, x1 + " games"));
  chart.appendChild(svg("line", {x1: px(x0), x2: px(x1), y1: py(0), y2: py(0), stroke: "#666", "stroke-dasharray": "4 3"}));
  labels.slice(0, 24).forEach((label, i) => {
    const colour = COLOURS[i % COLOURS.length];
    const points = xs.map((x, k) => series[label][k] === null ? null : px(x).toFixed(1) + "," + py(series[label][k]).toFixed(1))
      .filter(p => p !== null).join(" ");
    chart.appendChild(svg("polyline", {points: points, fill: "none", stroke: colour, "stroke-width": 2, "data-series": label}));
    if (i < 18) {
      const g = svg("g", {class: "legend-key", "data-series": label});
      g.appendChild(svg("line", {x1: W - legend, x2: W - legend + 16, y1: pad + 14 * i - 4, y2: pad + 14 * i - 4, stroke: colour, "stroke-width": 3}));
      g.appendChild(svg("text", {x: W - legend + 22, y: pad + 14 * i, class: "axis"}, label));
      chart.appendChild(g);
    }
  });
}

function drawCross(s) {
  const order = s.cross.order;
  const rows = order.map((me, i) => [me, ...order.map((them, j) => {
    const v = s.cross.score[i][j];
    if (i === j || v === null) return "";
    const td = el("span", Math.round(100 * v) + "% /" + s.cross.games[i][j]);
    td.dataset.score = String(v);
    return td;
  })]);
  fillTable("cross", ["", ...order], rows, 1);
  document.querySelectorAll("#cross tbody td span").forEach(span => {
    const v = Number(span.dataset.score), td = span.parentNode;
    td.className = "cell";
    td.style.background = "rgb(" + Math.round(255 - 120 * v) + "," + Math.round(135 + 120 * v) + ",140)";
  });
}

function drawLatest(s) {
  const seats = Math.max(2, ...s.latest.map(g => g.seats.length));
  const header = ["#", ...Array.from({length: seats}, (_, i) => "seat " + (i + 1)), "ranks", "scores", "errors", "reason", "turns", "seed", "ended", "game"];
  const rows = s.latest.map(g => {
    const link = el("a", "view"); link.href = "/game/" + run + "/" + g.id; link.target = "_blank";
    return [g.id, ...Array.from({length: seats}, (_, i) => g.seats[i] || ""), g.ranks.map(r => r + 1).join(" "),
      (g.scores || []).map(v => v === null ? "-" : v).join(" "), g.errors.map(e => e || "-").join(" "),
      g.reason, g.turns === null ? "-" : g.turns, g.seed, (g.finished_at || "").replace("T", " ").slice(0, 19), link];
  });
  fillTable("latest", header, rows, 1 + seats);
}

function drawFailures(s) {
  const box = document.getElementById("failures");
  box.replaceChildren();
  const f = s.failures;
  if (!f.count) { box.appendChild(el("p", "none")); return; }
  box.appendChild(el("p", f.count + " failed: " + Object.entries(f.by_kind).map(([k, n]) => n + " by the " + k).join(", ")));
  const list = el("ul");
  f.latest.forEach(x => list.appendChild(el("li", (x.finished_at || "").slice(0, 19) + " " + x.seats.join(" vs ") + " (seed " + x.seed + "), " + x.kind + ": " + x.detail)));
  box.appendChild(list);
}

async function start() {
  const runs = await (await fetch("/api/runs")).json();
  const select = document.getElementById("run");
  runs.forEach(r => { const o = el("option", r.name); o.value = String(r.id); select.appendChild(o); });
  if (runs.length > 1) document.getElementById("run-choice").hidden = false;
  select.addEventListener("change", () => { run = Number(select.value); chosen = null; where = ""; etag = null; poll(); });
  document.getElementById("all").addEventListener("click", () => { chosen = state ? state.players.map(p => p.label) : null; etag = null; poll(); });
  document.getElementById("none").addEventListener("click", () => { chosen = []; etag = null; poll(); });
  document.getElementById("apply").addEventListener("click", () => { where = document.getElementById("where").value.trim(); etag = null; poll(); });
  document.getElementById("names").addEventListener("change", e => { if (e.target.value) document.getElementById("where").value = e.target.value + " = "; });
  poll();
}
start();
</script>
</body></html>
"""
)
