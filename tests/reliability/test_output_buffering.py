"""A C or C++ bot written as CodinGame's C starter code writes it (each answer printf'd with its
newline, never flushed) is answered each turn, as CodinGame's line-buffered output answers it: a
pipe would keep its answers in its buffer until the timeout. An answer written without its end of
line times out, saying what came."""

from __future__ import annotations

import subprocess
import sys

import pytest

from arena.builds.build import build
from referee.platform.bot_errors import BotExited, BotTimeout
from referee.platform.process import FLUSH_ANY, BotProcess, unflushed

from tests.builds.helpers import needs, write
from tests.processes import says_where_a_reader_sleeps

# Each reads a number a turn and answers it plus one, by printf, reading on with scanf.
PRINTF_BOT = (
    '#include <stdio.h>\nint main(void) {\n    int n;\n    while (scanf("%d", &n) == 1) printf("%d\\n", n + 1);\n}\n'
)


@pytest.mark.parametrize(("key", "name"), [("c", "bot.c"), ("cpp", "bot.cpp")])
def test_a_bot_that_printf_s_its_answers_without_flushing_them_is_answered_each_turn(key, name, tmp_path):
    needs(key)
    built = build(write(tmp_path / "bot", name, PRINTF_BOT), cache=tmp_path / "cache")
    with BotProcess(built.command, cwd=str(built.cwd)) as bot:
        for n in (41, 6, 99):
            assert bot.ask([str(n)], timeout=5.0)[0] == str(n + 1)


def test_an_answer_without_its_end_of_line_times_out_saying_what_came(tmp_path):
    script = write(
        tmp_path, "bot.py", "import sys, time\nsys.stdout.write('N12')\nsys.stdout.flush()\ntime.sleep(30)\n"
    )
    with BotProcess(f"{sys.executable} {script}") as bot:
        with pytest.raises(BotTimeout) as caught:
            bot.ask(["1"], timeout=1.0)
    assert str(caught.value) == "no answer in time: it wrote 'N12' without ending the line"


def test_a_program_that_never_wrote_a_byte_is_told_of_its_output_buffer(tmp_path):
    """A C bot compiled by hand (`gcc bot.c`, printf, no fflush) and given as a command keeps its
    answers in its buffer: it timed out on its first turn with nothing said of why."""
    needs("c")
    if not says_where_a_reader_sleeps():
        pytest.skip("this system does not say where a thread sleeps (/proc/PID/task/TID/wchan)")
    source = write(tmp_path, "bot.c", PRINTF_BOT)
    program = tmp_path / "bot"
    subprocess.run(["gcc", "-o", str(program), str(source)], check=True)
    with BotProcess(str(program)) as bot:
        with pytest.raises(BotTimeout) as caught:
            bot.ask(["1"], timeout=1.0)
    assert str(caught.value).startswith("no answer in time: it waits for input and wrote nothing: an answer")
    assert "stdbuf -oL" in str(caught.value)
    with BotProcess(f"stdbuf -oL {program}") as bot:  # as the message says
        assert bot.ask(["1"], timeout=5.0)[0] == "2"
    slow = write(tmp_path, "slow.py", "import time\ntime.sleep(30)\n")  # a bot that thinks too long is not told so
    threaded = write(tmp_path, "threaded.py", THINKS_WHILE_A_THREAD_READS)  # nor one whose thread reads meanwhile
    for thinker in (slow, threaded):
        with BotProcess(f"{sys.executable} {thinker}") as bot:
            with pytest.raises(BotTimeout) as caught:
                bot.ask(["1"], timeout=1.0)
        assert str(caught.value) == "no answer in time"


# A Go bot that writes through a bufio.Writer and never flushes it, as a fast Go bot does.
UNFLUSHED_GO = """package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	w := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		fmt.Fprintln(w, in.Text())
	}
}
"""


def test_a_go_bot_that_never_flushed_is_told_to_flush_as_go_does(tmp_path):
    """A Go bot (bufio.Writer, no Flush()) was told to flush as C, C++ and Python do, never as Go does."""
    needs("go")
    if not says_where_a_reader_sleeps():
        pytest.skip("this system does not say where a thread sleeps (/proc/PID/task/TID/wchan)")
    built = build(write(tmp_path / "bot", "bot.go", UNFLUSHED_GO), cache=tmp_path / "cache")
    with BotProcess(built.command, cwd=str(built.cwd)) as bot:
        with pytest.raises(BotTimeout) as caught:
            bot.ask(["1"], timeout=1.0)
    assert "(flush after each answer: w.Flush() of its bufio.Writer)" in str(caught.value)


@pytest.mark.parametrize(
    ("command", "way"),
    [
        ("java -cp out Player", "flush() of its PrintWriter"),
        ("env K=3 java -jar bot.jar", "flush() of its PrintWriter"),
        ("mono out/bot.exe", "Console.Out.Flush()"),
        ("python3.11 bot.py", "print(..., flush=True)"),
        ("./go_bot", "w.Flush() of its bufio.Writer"),
        ("stdbuf -oL ./rust_bot", "flush() of its BufWriter"),
        ("stdbuf -o L ./c_bot", "fflush(stdout) in C, std::endl in C++"),
        ("./script", "STDOUT.sync = true"),
        ("./c_bot", FLUSH_ANY),
    ],
)
def test_the_unflushed_hint_names_the_way_to_flush_of_the_program_s_language(command, way, tmp_path):
    """The hint named C's, C++'s and Python's ways only, for a bot in any language."""
    for name, text in [
        ("go_bot", b"\x7fELF...\xff Go buildinf:..."),
        ("rust_bot", b"\x7fELF...RUST_BACKTRACE..."),
        ("c_bot", b"\x7fELF...printf..."),
        ("script", b"#!/usr/bin/env ruby\nputs 1\n"),
    ]:
        (tmp_path / name).write_bytes(text)
    said = unflushed(command.split(), str(tmp_path))
    assert f"(flush after each answer: {way}" in said and said.endswith("or it reads more lines than it was sent"), said
    assert unflushed(["node", "bot.js"]) == "it waits for input and wrote nothing: it reads more lines than it was sent"


THINKS_WHILE_A_THREAD_READS = """import sys, threading, time
threading.Thread(target=sys.stdin.read, daemon=True).start()
start = time.time()
while time.time() - start < 30:
    pass
"""


def test_a_solver_s_last_line_may_end_where_its_output_does_a_bot_s_not(tmp_path):
    """A puzzle's solver that wrote its answer without a newline and exited was judged a crash
    ("exited with code 0"), its answer thrown away; CodinGame's puzzles take it. A game's bot that
    does so still has answered nothing (it lives on in a game; here it exits)."""
    from tests.reliability.commands import run

    objective = tmp_path / "objective.txt"
    objective.write_text("N0O1N1N0O0O1N0N3N1Rt Rv\n")
    solver = write(tmp_path, "solver.py", "import sys\nsys.stdin.readline()\nsys.stdout.write('8547776')\n")
    done = run("referee.cli", "vikings", "judge", str(objective), f"{sys.executable} {solver}")
    assert done.returncode == 0 and "solved, 7 moves, optimum 7" in done.stdout, done.stdout + done.stderr
    bot = write(tmp_path, "bot.py", "import sys\nsys.stdin.readline()\nsys.stdout.write('N12')\n")
    with BotProcess(f"{sys.executable} {bot}") as player:
        with pytest.raises(BotExited):
            player.ask(["1"], timeout=5.0)
