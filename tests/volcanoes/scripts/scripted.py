"""A player that answers recorded moves and logs every line it receives.

usage: scripted.py LOG_FILE MOVE [MOVE ...]
"""

import sys

log_path, moves = sys.argv[1], sys.argv[2:]
with open(log_path, "w") as log:
    for move in moves:
        first = sys.stdin.readline()
        if not first:
            break
        log.write(first)
        if first.strip() == "80":  # the init block comes before the first position
            for _ in range(81):
                log.write(sys.stdin.readline())
        log.write(sys.stdin.readline())  # valid moves
        log.flush()
        print(move, flush=True)
