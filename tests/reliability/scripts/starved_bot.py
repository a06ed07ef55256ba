"""A bot that a busy machine makes late: it runs on one processor only, at the lowest priority, and
works WORK_MS of processor time before each answer. usage: starved_bot.py CPU WORK_MS

Beside a busy process on the same processor it gets almost no time, and times out while it waits for
the processor; alone it answers in time. It answers RANDOM to each Volcanoes turn (its input read as
scripts/escaper.py reads it) and 0 to each line of any other game."""

import os
import sys
import time

cpu, work = int(sys.argv[1]), float(sys.argv[2]) / 1000
os.sched_setaffinity(0, {cpu})
os.nice(19)
while True:
    line = sys.stdin.readline()
    if not line:
        break
    volcanoes = line.strip() == "80"  # a Volcanoes game's first input: the board, then the turn
    if volcanoes:
        for _ in range(80):
            sys.stdin.readline()
        line = sys.stdin.readline()
    if len(line.split()) == 80:  # a Volcanoes turn: the position, then the valid moves
        sys.stdin.readline()
        volcanoes = True
    started = time.process_time()
    while time.process_time() - started < work:
        pass
    print("RANDOM" if volcanoes else "0", flush=True)
