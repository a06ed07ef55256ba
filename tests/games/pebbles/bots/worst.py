"""Takes the least valuable pebble: the weakest bot there is."""

from _common import play

play(lambda values, scores, me: values.index(min(values)))
