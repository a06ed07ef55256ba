"""Misbehaving players for the referee's tests. usage: hostile.py MODE [FILE]

Each answers RANDOM like a normal player except where its MODE says otherwise.
"""

import os
import signal
import subprocess
import sys
import time

mode = sys.argv[1]
turn = 0
if mode == "exit":
    sys.exit(3)
if mode == "sigterm-child":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    # A child that would outlive us if the referee killed only its direct child.
    subprocess.Popen(
        [sys.executable, "-c", "import time, signal; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(120)"]
    )
    with open(sys.argv[2], "w") as f:
        f.write(str(os.getpgid(0)))
if mode in ("setsid", "setsid-bare", "setsid-exit"):
    # A grandchild in a session of its own, orphaned, holding our pipes open: out of reach of the
    # process group; "bare" also empties its environment (and so drops the referee's token). It
    # writes its pid to PREFIX.<our pid>.
    report = f"{sys.argv[2]}.{os.getpid()}"
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            with open(report + ".part", "w") as f:
                f.write(str(os.getpid()))
            os.rename(report + ".part", report)
            code = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(120)"
            os.execve(
                sys.executable, [sys.executable, "-S", "-c", code], {} if mode == "setsid-bare" else dict(os.environ)
            )
        os._exit(0)
    while not os.path.exists(report):
        time.sleep(0.01)
while True:
    line = sys.stdin.readline()
    if not line:
        break
    if line.strip() == "80":
        for _ in range(81):
            sys.stdin.readline()
    sys.stdin.readline()
    turn += 1
    if mode == "silent" or (mode == "sigterm-child" and turn == 2):
        time.sleep(120)
    if mode == "setsid-exit" and turn == 2:
        sys.exit(0)  # gone, but the grandchild keeps our output open: the referee must not wait for it
    if mode == "late3" and turn == 3:
        time.sleep(0.5)
    if mode == "stderr1mb":
        sys.stderr.write("x" * 1_000_000)
        sys.stderr.flush()
    answer = {
        "invalid": "Z99",
        "lowercase": "random" if turn > 1 else "n01",
        "empty": "",
        "flood": "N" * 20_000,
    }.get(mode, "RANDOM")
    print(answer, flush=True)
