// Pebbles' viewer module (tests/games/pebbles/sdk_referee.py sends its data): the row of pebbles
// left, each with its worth, the players' scores, and who took which pebble last.
export class PebblesModule {
  static get name () { return 'pebbles' }

  constructor (assets) {
    this.state = null
    this.shown = null // what it drew last (the tests read it)
  }

  handleGlobalData (players, globalData) {
    this.players = players
    this.count = globalData.players
  }

  handleFrameData (frameInfo, data) {
    // an intermediate frame has no data: the position stays
    if (data) this.state = data
    return this.state
  }

  reinitScene (context, scene) {
    this.context = context
    this.scene = scene
  }

  updateScene (previous, current, progress) {
    const g = this.context
    const { width, height, images } = this.scene
    const unit = width / 16
    g.fillStyle = '#1d2b38'
    g.fillRect(0, 0, width, height)
    const row = current.pebbles
    row.forEach((worth, i) => {
      const x = unit * (1 + i)
      const y = height / 2
      if (images['pebble.svg']) g.drawImage(images['pebble.svg'], x - unit * 0.45, y - unit * 0.45, unit * 0.9, unit * 0.9)
      g.fillStyle = '#ffffff'
      g.font = `bold ${Math.round(unit * 0.4)}px sans-serif`
      g.textAlign = 'center'
      g.textBaseline = 'middle'
      g.fillText(String(worth), x, y)
    })
    this.players.forEach((player, i) => {
      g.fillStyle = player.color
      g.font = `${Math.round(unit * 0.35)}px sans-serif`
      g.textAlign = 'left'
      g.fillText(`${player.name}: ${current.scores[i]}`, unit, unit * (1 + i * 0.6))
    })
    if (current.taken) {
      const [who, index, worth] = current.taken
      g.fillStyle = '#cccccc'
      g.fillText(`${this.players[who].name} took pebble ${index}, worth ${worth}`, unit, height - unit)
    }
    this.shown = current
  }
}
