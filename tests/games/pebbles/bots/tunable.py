"""Takes the K-th most valuable pebble (K from the environment, 0: the greedy choice), for the tests
of `arena tune` on a command-line bot: the lower K, the stronger."""

import os

from _common import play

k = round(float(os.environ.get("K", "0")))
play(lambda values, scores, me: values.index(sorted(values, reverse=True)[min(k, len(values) - 1)]))
