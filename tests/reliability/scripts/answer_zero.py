"""A bot that answers 0 to every line it is given; usage: answer_zero.py [SECONDS], SECONDS the wait
before each answer (default none)."""

import sys
import time

wait = float(sys.argv[1]) if len(sys.argv) > 1 else 0.0
for _ in sys.stdin:
    time.sleep(wait)
    print("0", flush=True)
