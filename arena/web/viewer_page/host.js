// A stored game played in its referee's own viewer (arena/web/viewer.py): the SDK's Drawer
// (view/core/Drawer.js) and the game's modules, read from its jar, driven as CodinGame's player
// drives a Drawer of SDK 1.x to 4.x: new Drawer(); init(canvas, width, height, colours,
// oversampling, endCallback); initFrames(frames as lines, agents); update(frame, progress, speed)
// from a play loop like the player's. Nothing is fetched from outside: avatars are drawn here, and
// the fonts the SDK's page takes from a CDN are other names of local ones (see the page's style).
// Frame k is the referee's view of round k; beside it, the answer that led to it (round k-1's:
// the view draws what it did), with the input it answered and its stderr, as CodinGame shows them.

const meta = JSON.parse(document.getElementById('replay').textContent)
const $id = (id) => document.getElementById(id)
const state = { ready: false, firstFrameMs: null, errors: [], frame: 0, frames: 0, phases: {} }
const mark = (what) => { state.phases[what] = Math.round(performance.now()) }
window.__viewer = state

// A browser runs ES modules (the viewer) and fetches (the frames) from a web server only: a page opened
// from a file says so, with the command that serves it, and nothing else (every load there fails)
const fromFile = location.protocol === 'file:'

function reportError (message) {
  if (fromFile) return
  state.errors.push(String(message))
  $id('errors').hidden = false
  $id('errortext').textContent = state.errors.join('\n')
  $id('status').textContent = 'the viewer failed: see its errors'
}
window.addEventListener('error', (e) => reportError(e.message || e))
window.addEventListener('unhandledrejection', (e) => reportError((e.reason && (e.reason.stack || e.reason.message)) || e.reason))

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
async function until (test, what, ms = 120000) {
  const end = performance.now() + ms
  while (!test()) {
    if (performance.now() > end) throw new Error('timed out waiting for ' + what)
    await sleep(10)
  }
}
const loadScript = (src) => new Promise((resolve, reject) => {
  const s = document.createElement('script')
  s.src = src
  s.onload = resolve
  s.onerror = () => reject(new Error('cannot load ' + src))
  document.head.appendChild(s)
})

// The stored frames: gzipped JSON (a server that inflated it on the way gives the JSON itself)
async function loadFrames (url) {
  const response = await fetch(url)
  if (!response.ok) throw new Error(`${url}: ${response.status}`)
  const bytes = new Uint8Array(await response.arrayBuffer())
  let text
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))
    text = await new Response(stream).text()
  } else {
    text = new TextDecoder().decode(bytes)
  }
  return JSON.parse(text).frames
}

// The little of jQuery the SDK's Drawer uses: $(canvas).off(type), .bind(type, fn), .mousemove(fn)
// (its own page takes jQuery from a CDN)
function miniJQuery (el) {
  const handlers = el.__hostHandlers || (el.__hostHandlers = {})
  const api = {
    0: el,
    length: 1,
    on (type, fn) { el.addEventListener(type, fn); (handlers[type] = handlers[type] || []).push(fn); return api },
    bind (type, fn) { return api.on(type, fn) },
    off (type) { for (const fn of handlers[type] || []) el.removeEventListener(type, fn); handlers[type] = []; return api },
    mousemove (fn) { return api.on('mousemove', fn) },
    width () { return el.clientWidth },
    height () { return el.clientHeight }
  }
  return api
}

// SDK 2.x-3.x jars ship PIXI 4 only inside CodinGame's player (lib/player.js: AngularJS, jQuery and
// PIXI in one bundle); its drawerFactory hands the library to a Drawer class (and to window.PIXI).
// It is asked through an injector of our own: no Angular page.
async function pixiFromPlayer (DrawerClass) {
  if (!window.angular) return
  const rootElement = function ($provide) { $provide.value('$rootElement', window.angular.element(document.body)) }
  rootElement.$inject = ['$provide']
  const factory = window.angular.injector(['ng', 'player', rootElement]).get('drawerFactory')
  await factory.createDrawer(DrawerClass) // sets DrawerClass.PIXI and window.PIXI; its wrapper is not used
}

function avatar (color, letter) {
  const c = document.createElement('canvas')
  c.width = c.height = 96
  const g = c.getContext('2d')
  g.fillStyle = color
  g.fillRect(0, 0, 96, 96)
  g.fillStyle = 'rgba(255,255,255,0.85)'
  g.font = 'bold 56px sans-serif'
  g.textAlign = 'center'
  g.textBaseline = 'middle'
  g.fillText(letter, 48, 52)
  return c.toDataURL('image/png')
}

// ------------------------------------------------------------------ the viewer
const game = meta.game
const info = meta.viewer
const BASE = new URL(info.base, document.baseURI).href
const names = game.seats
for (const [url, text] of [[meta.record, "the game's record"], [meta.back, 'back']]) {
  if (!url) continue
  const a = document.createElement('a')
  a.href = url
  a.textContent = text
  $id('links').append(' ', a)
}

// As shlex.quote writes a word for a POSIX shell
const shellWord = (word) => /^[\w@%+=:,./-]+$/.test(word) ? word : "'" + word.replaceAll("'", "'\"'\"'") + "'"

// `python -m http.server -d FOLDER` and the URL that shows this page then: FOLDER is the page's
// `meta.root` (its own folder; a report's, for a report's game page, whose links lead there)
function showHowToServe () {
  const root = new URL(meta.root, location.href)
  const path = decodeURIComponent(root.pathname).replace(/^\/([A-Za-z]:\/)/, '$1') // (Windows: /C:/...)
  const folder = path.length > 1 ? path.replace(/\/$/, '') : path
  const rest = location.pathname.slice(root.pathname.length)
  const url = 'http://127.0.0.1:8000/' + (rest === 'index.html' ? '' : rest)
  $id('command').textContent = `python -m http.server -d ${shellWord(folder)}`
  $id('url').href = url
  $id('url').textContent = url
  $id('serve').hidden = false
  $id('status').textContent = 'not played: opened from a file'
}

if (fromFile) {
  showHowToServe()
  throw new Error('opened from a file') // (the page stops here: said above, not among the viewer's errors)
}

const framesLoaded = loadFrames(meta.frames)
const ownStyles = new Set(document.querySelectorAll('style, link[rel=stylesheet]'))
if (info.pixiScript) await loadScript(BASE + info.pixiScript)
mark('pixi script')
if (typeof window.$ !== 'function') window.$ = miniJQuery
const { Drawer } = await import(BASE + 'core/Drawer.js')
if (info.errorLog) {
  const { ErrorLog } = await import(BASE + 'core/ErrorLog.js')
  ErrorLog.listen((e) => reportError('viewer: ' + (e.message || e) + (e.cause ? ' (' + (e.cause.message || e.cause) + ')' : '')))
}
// (SDK 3.4.5's bundle leaves a window.PIXI of its own, not the library: its factory is always asked)
if (info.pixiScript === 'lib/player.js') await pixiFromPlayer(Drawer)
// CodinGame's player brings its page's styles (body { overflow: hidden }, * { margin: 0 }): not ours
for (const node of document.querySelectorAll('style, link[rel=stylesheet]')) if (!ownStyles.has(node)) node.remove()
if (info.pixi) {
  if (!window.PIXI) throw new Error(`${info.pixiScript} gave no PIXI`)
  Drawer.PIXI = window.PIXI // as the player's drawerFactory does with the library the Drawer requires
  // PIXI 5 (SDK 4.0) refuses a software WebGL (no GPU, a headless browser) unless told otherwise
  if (window.PIXI.settings && 'FAIL_IF_MAJOR_PERFORMANCE_CAVEAT' in window.PIXI.settings) window.PIXI.settings.FAIL_IF_MAJOR_PERFORMANCE_CAVEAT = false
}
mark('drawer imported')
const frames = await framesLoaded
mark('frames loaded')

const n = frames.length
const seats = names.length
const colors = (Drawer.playerColors && Drawer.playerColors.length) ? Drawer.playerColors : ['#ff1d5c', '#22a1e4', '#ff8f16', '#6ac371', '#9975e2', '#3ac5ca', '#de6ddf', '#ff0000']
const agents = names.map((name, i) => ({
  index: i, name, color: colors[i % colors.length], avatar: avatar(colors[i % colors.length], String(name || '?')[0].toUpperCase()), type: 'DEFAULT', typeData: {}
}))
const keyframe = frames.map((f) => !f.view.startsWith('INTERMEDIATE_FRAME'))
// each seat's latest answer at or before each frame (a frame that asked no answer is the referee's)
const lastTurn = [...Array(seats)].map(() => new Array(n).fill(-1))
for (let s = 0; s < seats; s++) {
  let last = -1
  for (let f = 0; f < n; f++) {
    if (frames[f].seat === s && frames[f].expected > 0) last = f
    lastTurn[s][f] = last
  }
}
state.frames = n
$id('about').textContent = `${game.name} · seed ${game.seed} · ${n} frames` + (info.pixi ? ` · ${info.pixi}` + (window.PIXI && window.PIXI.VERSION ? ` (${window.PIXI.VERSION})` : '') : '')

// PIXI draws text with the fonts loaded then: the local ones first
await Promise.all(['16px Lato', 'bold 16px Lato', '16px "Open Sans"'].map((f) => document.fonts.load(f).catch(() => null)))
const canvas = $id('canvas')
const stage = $id('stage')
const drawer = new Drawer()
// No intro (its avatars are on CodinGame's servers): the Drawer of every SDK release takes the served
// demo.js's null for "none given" and falls back to config.js's `demo` (an older format in some
// games: 'Cannot load demo' in the error log, at each init); a demo left undefined is the one no
// game declared, which it skips without a word
drawer.demo = undefined
state.drawer = drawer
const previousHook = drawer.onAfterRender
drawer.onAfterRender = function () {
  if (previousHook) previousHook.apply(this, arguments)
  if (state.firstFrameMs === null && state.ready && drawer.loaded >= 1 && !drawer.loading && drawer.currentFrame >= 0 && !drawer.intro) {
    state.firstFrameMs = Math.round(performance.now())
    $id('status').textContent = ''
  }
}

function layout (scale = 1) {
  const ratio = Drawer.getGameRatio ? Drawer.getGameRatio() : 16 / 9
  const w = stage.clientWidth
  const h = Math.round(w / ratio)
  stage.style.height = h + 'px'
  // as CodinGame's player: the Drawer's oversampling, less where the canvas would outgrow its largest
  let os = ((drawer.getDefaultOverSampling && drawer.getDefaultOverSampling()) || 1) * scale
  const max = (drawer.getMaxCanvasSize && drawer.getMaxCanvasSize()) || { width: 1920, height: 1080 }
  const over = Math.max(w * os / max.width, h * os / max.height)
  if (over > 1) os /= over
  canvas.width = Math.round(w * os)
  canvas.height = Math.round(h * os)
  drawer.init(canvas, canvas.width, canvas.height, colors, os, () => {}, 'replay')
}
// The Drawer draws its loading bar at every animation frame while its assets load, which costs
// much at full size without a GPU: a small canvas until they are loaded
layout(0.25)
await until(() => drawer.isReady(), "the viewer's assets")
mark('assets loaded')
layout()
drawer.initFrames(frames.map((f) => f.view.split('\n')), agents)
await until(() => !drawer.loading && drawer.currentFrame >= 0, 'the frames')
mark('frames parsed')
// A module may still load what its frames asked for (the entity module's sprite sheets): until
// then it draws nothing, and nothing asks it again
const stillLoading = () => Object.values(drawer.modules || {}).some((m) => m && typeof m.stillLoading === 'function' && m.stillLoading())
await until(() => !stillLoading(), "the modules' textures")
mark('modules ready')

// ------------------------------------------------------------------ the play loop (as the player's)
let frame = 0
let progress = 1
let playing = false
let speed = 1
let lastTime = null
const nextKey = (i) => { let j = i; do { j++ } while (j < n && !keyframe[j]); return Math.min(j, n - 1) }
const prevKey = (i) => { let j = i; do { j-- } while (j > 0 && !keyframe[j]); return Math.max(j, 0) }

function show () {
  drawer.update(frame, progress, playing ? speed : 0)
  if (state.frame !== frame || !state.shown) {
    state.frame = frame
    state.shown = true
    renderPanels()
  }
}
function setFrame (i) {
  pause()
  frame = Math.max(0, Math.min(n - 1, Math.trunc(i) || 0))
  progress = 1
  show()
  history.replaceState(null, '', '#frame=' + frame)
}
function tick (t) {
  if (!playing) return
  const dt = lastTime === null ? 0 : Math.min(t - lastTime, 250) // a hidden tab's pause is no jump
  lastTime = t
  if (progress >= 1) {
    if (nextKey(frame) === frame) { pause(); return }
    frame = nextKey(frame)
    progress = 0
  }
  const frameSpeed = (drawer.getFrameSpeed && drawer.getFrameSpeed(frame)) || 1 // 500 ms / the frame's duration
  progress = Math.min(1, progress + speed * dt * frameSpeed / 500)
  show()
  requestAnimationFrame(tick)
}
function play () {
  if (playing) return
  if (nextKey(frame) === frame && progress >= 1) frame = 0
  playing = true
  lastTime = null
  $id('play').textContent = '⏸'
  requestAnimationFrame(tick)
}
function pause () {
  if (!playing) return
  playing = false
  $id('play').textContent = '▶'
  history.replaceState(null, '', '#frame=' + frame)
  show()
}

// ------------------------------------------------------------------ beside it
const withNames = (text) => (text || '').replace(/\$(\d)/g, (m, d) => names[+d] || m)
// A referee's text as CodinGame's player shows it: $N the name of player N, and the SDK's markup of a
// coloured text (GameManager.formatErrorMessage's ¤RED¤...§RED§, formatSuccessMessage's GREEN) in
// that colour, as nodes (never HTML: the text is the referee's)
const COLOURED = /¤(\w+)¤([\s\S]*?)§\1§/g
function refereeText (text = '') {
  const nodes = []
  let last = 0
  for (const found of text.matchAll(COLOURED)) {
    nodes.push(withNames(text.slice(last, found.index)), el('span', { style: `color:${found[1].toLowerCase()}` }, withNames(found[2])))
    last = found.index + found[0].length
  }
  nodes.push(withNames(text.slice(last)))
  return nodes.filter((node) => node !== '')
}
function el (tag, attrs = {}, ...children) {
  const e = document.createElement(tag)
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v
    else if (k === 'style') e.style.cssText = v
    else e.setAttribute(k, v)
  }
  for (const c of children) e.append(c)
  return e
}
function turnCard (s) {
  const t = lastTurn[s][frame]
  const turn = t >= 0 ? frames[t] : null
  const now = t === frame
  const said = turn ? (now ? 'its answer led to this frame' : `its latest answer led to frame ${t}`) : 'has not answered yet'
  const card = el('section', { class: 'player' + (now ? '' : ' old'), style: `--c:${colors[s % colors.length]}`, 'data-seat': s },
    el('h2', {}, `${names[s]} (player ${s}) · ${said}`))
  if (turn) {
    const time = turn.ms != null ? `${turn.ms} ms` : ''
    const limit = turn.limit_ms != null ? ` of ${turn.limit_ms} ms` : ''
    const missed = turn.output === null || turn.output === undefined
    card.append(el('div', { class: 'tag' }, `output (${turn.expected} line(s) asked${time ? ', in ' + time + limit : ''})`),
      el('pre', { class: 'out' }, missed ? '(no answer in time)' : (turn.output.join('\n') || '(an empty line)')))
    card.append(el('div', { class: 'tag' }, 'stderr'), el('pre', { class: 'err' }, turn.stderr || '(nothing)'))
    if (turn.input && turn.input.length) {
      card.append(el('details', {}, el('summary', {}, `its input then (${turn.input.length} lines)`), el('pre', { class: 'in' }, turn.input.join('\n'))))
    }
  }
  return card
}
function renderPanels () {
  const f = frames[frame]
  $id('counter').textContent = `${frame} / ${n - 1}`
  $id('seek').value = frame
  $id('link').href = '#frame=' + frame
  const next = frame + 1 < n ? frames[frame + 1] : null
  const asked = next && next.seat != null ? `next, ${names[next.seat]} is asked` + (next.expected ? '' : ' for no answer') : (frame === n - 1 ? 'the game is over' : 'next, nobody is asked')
  const info = [el('div', {}, `frame ${frame} (${keyframe[frame] ? 'key' : 'intermediate'}): ${asked}`)]
  if (f.seat != null && !f.expected) info.push(el('div', { class: 'tag' }, `a frame of the referee's own: ${names[f.seat]} was given its input, and no answer asked`))
  for (const [text, seat] of f.tooltips || []) info.push(el('div', { class: 'tag' }, `tooltip (${names[seat] || seat}): `, ...refereeText(text)))
  $id('frameinfo').replaceChildren(...info)
  const summary = refereeText(f.summary)
  $id('summarytext').replaceChildren(...(summary.length ? summary : ['(none)']))
  $id('players').replaceChildren(...[...Array(seats)].map((_, s) => turnCard(s)))
}
$id('resulttext').replaceChildren(
  ...names.map((name, i) => el('div', {}, `${name}: rank ${game.ranks[i] + 1}` +
    (game.scores && game.scores[i] !== null && game.scores[i] !== undefined ? `, score ${game.scores[i]}` : '') +
    (game.errors[i] ? `, ${game.errors[i]}` : ''))),
  el('div', { class: 'tag' }, `ended by ${game.reason}` + (game.detail ? `: ${game.detail}` : ''))
)

// ------------------------------------------------------------------ controls
$id('seek').max = n - 1
$id('play').onclick = () => (playing ? pause() : play())
$id('next').onclick = () => setFrame(nextKey(frame))
$id('prev').onclick = () => setFrame(prevKey(frame))
$id('first').onclick = () => setFrame(0)
$id('last').onclick = () => setFrame(n - 1)
$id('seek').oninput = (e) => setFrame(+e.target.value)
$id('speed').onchange = (e) => { speed = +e.target.value }
document.addEventListener('keydown', (e) => {
  if (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT') return
  const actions = { ' ': () => (playing ? pause() : play()), ArrowRight: () => setFrame(nextKey(frame)), ArrowLeft: () => setFrame(prevKey(frame)), Home: () => setFrame(0), End: () => setFrame(n - 1) }
  if (actions[e.key]) { e.preventDefault(); actions[e.key]() }
})
const fromHash = () => { const m = /frame=(\d+)/.exec(location.hash); return m ? +m[1] : null }
window.addEventListener('hashchange', () => { const f = fromHash(); if (f !== null && f !== frame) setFrame(f) })
let resizing = null
window.addEventListener('resize', () => { clearTimeout(resizing); resizing = setTimeout(() => { layout(); show() }, 150) })

state.ready = true
setFrame(fromHash() ?? 0)
state.api = { setFrame, play, pause, get frame () { return frame }, get playing () { return playing } }
mark('ready')
