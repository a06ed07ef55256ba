// A stand-in for the SDK's Drawer (view/core/Drawer.js), written for the tests' game Pebbles: the
// calling contract CodinGame's player keeps with a Drawer (init, isReady, initFrames, update,
// getFrameSpeed, onAfterRender) and the one a Drawer keeps with its modules (handleGlobalData,
// handleFrameData, reinitScene, updateScene), with the SDK's frames (`KEY_FRAME n` and one JSON
// line: the first `{global, frame}`, the later ones each module's data; `INTERMEDIATE_FRAME n`,
// none). It needs no PIXI: the modules draw on a 2D canvas, and its assets (assets.js: images
// under baseUrl) are loaded as plain images.
import * as config from '../config.js'
import { assets } from '../assets.js'

export class Drawer {
  static get VERSION () { return 2 }
  static get playerColors () { return config.playerColors }
  static getGameRatio () { return 16 / 9 }

  constructor () {
    this.modules = {}
    for (const Module of config.modules) this.modules[Module.name] = new Module(assets)
    this.currentFrame = -1
    this.progress = 1
    this.loaded = 0
    this.loading = false
    this.images = {}
  }

  getDefaultOverSampling () { return 1 }

  init (canvas, width, height, colours, oversampling, endCallback) {
    this.canvas = canvas
    this.width = width
    this.height = height
    this.oversampling = oversampling
    this.context = canvas.getContext('2d')
    if (!this.assetsLoading) {
      this.assetsLoading = Promise.all(Object.entries(assets.images || {}).map(([name, path]) => new Promise((resolve, reject) => {
        const image = new Image()
        image.onload = () => { this.images[name] = image; resolve() }
        image.onerror = () => reject(new Error('cannot load ' + assets.baseUrl + path))
        image.src = assets.baseUrl + path
      }))).then(() => { this.loaded = 1 })
    } else if (this.frames) {
      this.reinit()
    }
  }

  isReady () { return this.loaded >= 1 }

  initFrames (frames, agents) {
    this.agents = agents
    const first = JSON.parse(frames[0][1])
    for (const [name, module] of Object.entries(this.modules)) module.handleGlobalData(agents, (first.global || {})[name])
    this.frames = []
    let previous = null
    frames.forEach((lines, number) => {
      const header = lines[0].split(' ')
      const keyframe = header[0] === 'KEY_FRAME'
      const data = keyframe ? JSON.parse(lines[1]) : {}
      const own = number === 0 ? data.frame : data
      const info = { number, frameId: +header[1], keyframe, previous }
      const parsed = {}
      for (const [name, module] of Object.entries(this.modules)) parsed[name] = module.handleFrameData(info, own ? own[name] : undefined)
      this.frames.push({ info, data: parsed })
      previous = info
    })
    this.currentFrame = 0
    this.reinit()
  }

  reinit () {
    const scene = { width: this.width, height: this.height, oversampling: this.oversampling, images: this.images }
    for (const module of Object.values(this.modules)) module.reinitScene(this.context, scene)
    this.render()
  }

  update (frame, progress, speed) {
    this.currentFrame = frame
    this.progress = progress
    this.render()
  }

  getFrameSpeed (frame) { return 1 }

  render () {
    if (!this.frames) return
    const current = this.frames[this.currentFrame]
    const previous = this.frames[Math.max(0, this.currentFrame - 1)]
    this.context.clearRect(0, 0, this.width, this.height)
    for (const [name, module] of Object.entries(this.modules)) module.updateScene(previous.data[name], current.data[name], this.progress)
    if (this.onAfterRender) this.onAfterRender()
  }
}
