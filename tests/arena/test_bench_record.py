"""The recording proxy of `arena bench` (arena/bench/record.py): whatever passes through it reaches
the other side unchanged, byte for byte, and its log splits into the turns the bot played."""

import shlex
import signal
import subprocess
import sys

import pytest

from arena.bench import transcripts
from arena.bench.record import Lines
from referee.platform.process import BotProcess

# Copies its input to its output as bytes, as they come.
ECHO = "import os\nwhile chunk := os.read(0, 7):\n    os.write(1, chunk)\n"
# Each turn: reads two lines, answers three (their sum, and two fixed lines); a status and stderr on its way out.
TURNS = """
import sys
while True:
    a, b = sys.stdin.readline(), sys.stdin.readline()
    if not b:
        print("done", file=sys.stderr)
        sys.exit(3)
    print(int(a) + int(b))
    print("second line")
    print("third line", flush=True)
"""


def _recorded(tmp_path, script: str) -> tuple[list[str], object]:
    (tmp_path / "bot.py").write_text(script)
    log = tmp_path / "log.jsonl"
    command = transcripts.recorded_command(shlex.join([sys.executable, str(tmp_path / "bot.py")]), log)
    return shlex.split(command), log


def test_bytes_and_line_ends_pass_through_unchanged(tmp_path):
    args, log = _recorded(tmp_path, ECHO)
    data = b"one\r\ntwo\rthree\n\xff\xfe not utf-8\n\n\xc3\xa9t\xc3\xa9\r\n" + b"x" * 200_000 + b"\nno end"
    done = subprocess.run(args, input=data, capture_output=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert done.stdout == data
    events = transcripts.read_log(log)
    expected = ["one", "two", "three", "\ufffd\ufffd not utf-8", "", "été", "x" * 200_000, "no end"]
    for direction in "<>":
        assert [line for d, line in events if d == direction] == expected


def test_the_log_splits_into_the_turns_played(tmp_path):
    args, log = _recorded(tmp_path, TURNS)
    asked = [("1", "2"), ("10", "20"), ("5", "-5")]
    with BotProcess(args) as bot:
        for a, b in asked:
            answer = bot.ask([a, b], 10)[0], bot.read_line(10), bot.read_line(10)
            assert answer == (str(int(a) + int(b)), "second line", "third line")
        bot.send(["7"], 10)  # a turn it never answers: the game ended first
        bot.close_input()
        code = None
        while code is None:
            code = bot.exit_code()
        assert code == 3 and bot.take_stderr() == "done\n"  # its exit status and stderr are the proxy's
    turns = transcripts.turns_of(transcripts.read_log(log))
    assert turns == [transcripts.Turn((a, b), (str(int(a) + int(b)), "second line", "third line")) for a, b in asked]


def test_a_bot_killed_by_a_signal_kills_the_proxy_alike(tmp_path):
    args, _ = _recorded(tmp_path, "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n")
    assert subprocess.run(args, timeout=30).returncode == -signal.SIGKILL


def test_a_signal_to_the_proxy_is_passed_to_the_bot(tmp_path):
    script = "import signal, sys, time\nsignal.signal(signal.SIGTERM, lambda *_: sys.exit(7))\nprint('up', flush=True)\ntime.sleep(60)\n"
    args, _ = _recorded(tmp_path, script)
    with subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE) as proxy:
        assert proxy.stdout.readline() == b"up\n"
        proxy.send_signal(signal.SIGTERM)
        assert proxy.wait(timeout=30) == 7


def test_usage():
    done = subprocess.run(
        [sys.executable, str(transcripts.RECORDER), "log"], capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 2 and done.stderr.startswith("usage: record.py LOG -- CMD")


@pytest.mark.parametrize(
    "chunks, lines",
    [
        ([b"a\r", b"\nb\n"], ["a", "b"]),  # a '\r\n' split between two chunks ends one line
        ([b"a\r", b"\r\n"], ["a", ""]),
        ([b"a\n\r\n"], ["a", ""]),
        ([b"a", b"b", b"\n"], ["ab"]),
    ],
)
def test_lines_across_chunks(chunks, lines):
    splitter = Lines()
    assert [line for chunk in chunks for line in splitter.feed(chunk)] == lines
    assert splitter.rest() is None


def test_turns_of_a_log():
    events = [(">", "hello"), ("<", "1"), ("<", "2"), (">", "a"), (">", "b"), ("<", "3"), (">", "c"), ("<", "4")]
    assert transcripts.turns_of(events) == [
        transcripts.Turn((), ("hello",)),  # a bot that speaks first: a turn given nothing
        transcripts.Turn(("1", "2"), ("a", "b")),
        transcripts.Turn(("3",), ("c",)),
    ]
