// Pebbles' stand-in viewer, as an SDK game's config.js: the modules the Drawer runs, the players'
// colours. Written for the tests (tests/games/pebbles/), after the SDK's public module interface.
import { PebblesModule } from './pebbles-module/PebblesModule.js'

export const modules = [PebblesModule]
export const playerColors = ['#22a1e4', '#ff1d5c', '#ff8f16', '#6ac371']
export const gameName = 'Pebbles'
