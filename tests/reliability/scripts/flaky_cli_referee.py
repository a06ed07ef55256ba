"""A referee in the brutaltester command line (protocol A) that fails some of its runs: usage:
flaky_cli_referee.py COUNTER FIRST LAST -p1 CMD -p2 CMD -d seed=N -l LOG

Each run adds one to the number in the file COUNTER; runs FIRST to LAST (counted from 1) exit with
status 1, the others print the scores 1 and 0 and seed=N and write an empty log. It runs no player."""

import json
import sys
from pathlib import Path

counter, first, last, *args = sys.argv[1:]
path = Path(counter)
runs = int(path.read_text()) + 1 if path.exists() else 1
path.write_text(str(runs))
if int(first) <= runs <= int(last):
    sys.exit(f"run {runs}: failing, as told")
seed = next(word.split("=", 1)[1] for word in args if word.startswith("seed="))
Path(args[args.index("-l") + 1]).write_text(json.dumps({}))
print(f"1\n0\nseed={seed}")
