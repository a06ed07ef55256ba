"""Time as the OS counts it (`referee.platform.clock`), and the two clocks that use it: a bot's turn starts
when its line arrived (`read_turns`), and the referee does not charge a bot with its own waits for a
processor (`BotProcess.ask`)."""

import io
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bots.volcanoes import bot
from referee.platform import clock, process

linux = pytest.mark.skipif(not os.path.exists("/proc/thread-self/schedstat"), reason="Linux's schedstat")


@linux
def test_waiting_for_a_processor_is_counted_and_running_is_not():
    """Alone on a processor this thread hardly waits; sharing it with a busy process, it waits
    about half the time."""
    cpu = sorted(os.sched_getaffinity(0))[0]
    affinity = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {cpu})
    spinner = subprocess.Popen(
        [sys.executable, "-c", f"import os; os.sched_setaffinity(0, {{{cpu}}})\nwhile True: pass"]
    )
    try:
        time.sleep(0.3)  # the spinner has started and spins
        before, started = clock.waited_for_cpu(), time.perf_counter()
        while time.perf_counter() - started < 0.6:
            pass
        waited = clock.waited_for_cpu() - before
    finally:
        spinner.kill()
        spinner.wait()
        os.sched_setaffinity(0, affinity)
    assert 0.1 < waited < 0.6

    before, started = clock.waited_for_cpu(), time.perf_counter()
    time.sleep(0.2)  # asleep is not waiting for a processor
    assert clock.waited_for_cpu() - before < 0.1


def test_a_turn_s_clock_starts_when_its_line_arrived(monkeypatch):
    """`read_turns` dates a turn back by what the bot waited for a processor while reading it."""
    waits = iter([1.0, 1.025, 1.025, 1.025])  # 25 ms of waiting during the first read
    monkeypatch.setattr(bot, "waited_for_cpu", lambda: next(waits))
    turns = bot.read_turns(io.StringIO("1 2\nA1 B2\n3 4\nA1\n"))
    (lines, started), read = next(turns), time.perf_counter()
    assert lines == ["1 2", "A1 B2"]
    assert 0.025 <= read - started < 0.5
    lines, started = next(turns)  # no wait this time
    assert lines == ["3 4", "A1"] and time.perf_counter() - started < 0.02


def test_the_referee_does_not_charge_a_bot_with_its_own_waits(monkeypatch):
    """A turn read by a referee that (as the stub says) waited 40 ms for a processor meanwhile: the
    turn's time leaves those 40 ms out."""
    waits = iter([5.0, 5.040])
    monkeypatch.setattr(clock, "waited_for_cpu", lambda: next(waits))
    answers = "import time; input(); time.sleep(0.1); print('A1', flush=True)"  # (a turn longer than its waits)
    with process.BotProcess([sys.executable, "-c", answers]) as bot:
        started = time.perf_counter()
        line, seconds = bot.ask(["turn"], timeout=5.0)
        wall = time.perf_counter() - started
    assert line == "A1"
    assert wall - 0.041 < seconds < wall - 0.039


def test_a_wait_between_a_clock_s_two_readings_is_charged_never_taken_off_twice(monkeypatch):
    """A thread preempted between reading the time and its waits, at a turn's start and at its end
    (a busy machine): those waits are in the turn's time, not taken off a time that lacks them, so
    a turn of 10 ms with no wait inside it never comes out shorter (it came out negative)."""

    class Machine:  # every reading is followed by a 30 ms wait for a processor
        now = waited = 0.0

        def read(self, value):
            self.now += 0.030
            self.waited += 0.030
            return value

    machine = Machine()
    monkeypatch.setattr(clock.time, "perf_counter", lambda: machine.read(machine.now))
    monkeypatch.setattr(clock, "waited_for_cpu", lambda: machine.read(machine.waited))
    start = clock.turn_clock()
    machine.now += 0.010  # the turn itself: 10 ms, no wait in it
    assert clock.turn_seconds(start) >= 0.010


def test_without_schedstat_nothing_is_subtracted(monkeypatch):
    monkeypatch.setattr(clock, "_SCHEDSTATS", ("/nonexistent/schedstat",))
    monkeypatch.setattr(clock, "_schedstats", {})
    assert clock.waited_for_cpu() == 0.0 == clock.waited_for_cpu()


def test_a_forked_child_counts_its_own_waits_not_its_parents(tmp_path):
    """A pool's forked worker had read its parent's thread's file (opened before the fork), whose
    waits do not move while the worker waits: it saw none of its own."""
    if not Path("/proc/thread-self/schedstat").exists() or not hasattr(os, "fork"):
        pytest.skip("needs Linux's schedstat")
    clock.waited_for_cpu()  # the parent's file, opened
    report = tmp_path / "child"
    pid = os.fork()
    if pid == 0:
        try:
            with open("/proc/thread-self/schedstat") as own:
                truth = int(own.read().split()[1]) * 1e-9
            report.write_text(str(abs(clock.waited_for_cpu() - truth)))
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    assert float(report.read_text()) < 0.01
