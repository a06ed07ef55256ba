"""A referee in the brutaltester command line (protocol A: `-p1 CMD -p2 CMD ... [-d seed=N]`) that
starts each player as CodinGame's SDK runner does: its command split on spaces, no quote understood
(Java's Runtime.exec(String)). Each player is sent one line and must answer one; it scores 1, or -1
where it could not start or did not answer within 10 s. It prints the scores, then seed=N."""

import subprocess
import sys

args = sys.argv[1:]
commands = [args[i + 1] for i, word in enumerate(args) if word.startswith("-p") and word[2:].isdigit()]
seed = next((word.split("=", 1)[1] for word in args if word.startswith("seed=")), "0")
scores = []
for command in commands:
    try:
        player = subprocess.Popen(
            command.split(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
    except OSError:
        scores.append(-1)
        continue
    try:
        answer, _ = player.communicate("hello\n", timeout=10)
    except subprocess.TimeoutExpired:
        player.kill()
        answer = ""
    scores.append(1 if answer.strip() else -1)
print("\n".join(map(str, scores)))
print(f"seed={seed}")
