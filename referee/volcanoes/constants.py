"""Volcanoes' game constants, defined once: the referee, every rules engine (numba, pure Python,
reference), every bot's adapter and the arena import them from here (CodinGame's limits, the same
for every game, are `referee.platform.limits`). Standard library only, so the CodinGame bundle can
carry it.

numba freezes these into compiled kernels, and its cache does not notice an edit to this file:
after changing a value, delete the `__pycache__/*.nb*` files of the packages that use it."""

from __future__ import annotations

BLUE, ORANGE, GROWTH = 1, -1, 0  # the players (a level's sign), and the growth turn's actor
CYCLE = (BLUE, ORANGE, GROWTH, ORANGE, BLUE, GROWTH)  # who acts on turn t (0-based): CYCLE[t % 6]
MAX_LEVEL = 4  # a volcano at this level (either sign) is dormant
MAX_ERUPTION_PHASES = 100  # more phases in one turn and the game is a draw
MAX_TURNS = 200  # turns (growth turns count) before the game is a draw
ONGOING, BLUE_WINS, ORANGE_WINS, DRAW = 0, 1, 2, 3  # outcomes
