"""Takes the first pebble of the row."""

from _common import play

play(lambda values, scores, me: 0)
