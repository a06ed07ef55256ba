"""A referee in the brutaltester command line (protocol A) whose first view frame lists one position's
entity updates in an order that changes from run to run, as referees built on CodinGame's SDK 1.x do
(entities hashed by identity; Ultimate Tic-Tac-Toe's among them). usage:
shuffling_cli_referee.py -p1 CMD -p2 CMD -d seed=N -l LOG [--ignore-seed]

It runs no player: the position (nine entities' places) is drawn from the seed (from os.urandom with
--ignore-seed), the updates shuffled by os.urandom. It prints the scores 1 and 0, then seed=N (the seed
given, even when it ignores it), and writes the SDK runner's result JSON to LOG."""

import json
import os
import random
import sys

args = sys.argv[1:]
seed = int(next(word.split("=", 1)[1] for word in args if word.startswith("seed=")))
log = args[args.index("-l") + 1]
drawn = random.Random(int.from_bytes(os.urandom(8), "big") if "--ignore-seed" in args else seed)
updates = [f"{entity} 0 x {drawn.randrange(1920)} y {drawn.randrange(1080)}" for entity in range(1, 10)]
random.Random(os.urandom(8)).shuffle(updates)
view = json.dumps({"entitymodule": "C" + ";".join("R" * 9) + "\nU" + ";".join(updates)})
with open(log, "w") as file:
    json.dump({"views": [view], "uinput": [f"seed={seed}"], "errors": {}, "summaries": []}, file)
print("1\n0")
print(f"seed={seed}")
