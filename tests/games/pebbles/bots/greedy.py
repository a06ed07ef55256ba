"""Takes the most valuable pebble (the first of equals)."""

from _common import play

play(lambda values, scores, me: values.index(max(values)))
