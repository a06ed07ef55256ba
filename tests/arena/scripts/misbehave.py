"""A Volcanoes player for the arena's tests: answers RANDOM until its second turn, then misbehaves
as MODE says (crash, invalid, slow). usage: misbehave.py MODE"""

import sys
import time

mode = sys.argv[1]
turn = 0
while True:
    line = sys.stdin.readline()
    if not line:
        break
    if line.strip() == "80":  # the init block: 80 tiles, then the position
        for _ in range(81):
            sys.stdin.readline()
    sys.stdin.readline()  # the valid moves
    turn += 1
    if turn == 2 and mode == "crash":
        sys.exit(1)
    if turn == 2 and mode == "slow":
        time.sleep(0.5)
    print("Z99" if turn == 2 and mode == "invalid" else "RANDOM", flush=True)
