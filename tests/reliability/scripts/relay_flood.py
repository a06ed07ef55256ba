"""A referee in the relay protocol (arena/games/relay.py) that, once started, reports player 0's error
without end: `###Error 0 ...` as fast as its output is read."""

import sys

while not sys.stdin.readline().startswith("###Start"):
    pass
line = "###Error 0 flood\n" * 1000
while True:
    sys.stdout.write(line)
    sys.stdout.flush()
