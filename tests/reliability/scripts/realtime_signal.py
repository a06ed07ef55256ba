"""A process (a bot, or a referee) that dies of a real-time signal, which has no name in Python's
`signal.Signals`. usage: realtime_signal.py [N]

It reads its first line of input, then kills itself with SIGRTMIN+N (default 6: signal 40 on Linux),
whose default action ends the process."""

import os
import signal
import sys

offset = int(sys.argv[1]) if len(sys.argv) > 1 else 6
sys.stdin.readline()
os.kill(os.getpid(), signal.SIGRTMIN + offset)
