"""The launcher's relay and its loading child (`bots.volcanoes.launch`), piece by piece."""

import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager

import pytest

from bots.volcanoes import launch


def _state(pid: int) -> str:
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[1].split()[0]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_loading_child_is_stopped_while_the_stand_in_thinks_and_let_go_after():
    engine = launch._Engine.__new__(launch._Engine)
    engine.proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    engine.ready, engine.paused, engine.idle = False, False, False
    try:
        engine.pause()
        time.sleep(0.1)
        assert _state(engine.proc.pid) == "T"
        engine.carry_on()
        time.sleep(0.1)
        assert _state(engine.proc.pid) != "T"
        engine.ready = True  # a child that has loaded waits for its turns: it is never stopped
        engine.pause()
        time.sleep(0.1)
        assert _state(engine.proc.pid) != "T"
    finally:
        engine.proc.kill()
        engine.proc.wait()


def _children(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as children:
        return [int(child) for child in children.read().split()]


def _dead(pid: int) -> bool:
    try:
        return _state(pid) == "Z"
    except (FileNotFoundError, ProcessLookupError):  # (reaped before the open, or during the read)
        return True


class _KillingTheBotAfter:
    """A process seat whose launcher's child (the bot, which has taken over) is killed after the
    seat's `turns`-th answer, and dead before the next turn is sent. (A child killed while it waits
    for the next turn can otherwise, on a busy machine, take that turn's line out of the pipe before
    it dies: the launcher would never see it. What the launcher recovers from is a bot that dies
    between turns.)"""

    def __init__(self, seat, turns: int):
        self.seat, self.turns, self.killed = seat, turns, False

    def ask(self, lines, timeout):
        answer = self.seat.ask(lines, timeout)
        self.turns -= 1
        if self.turns == 0:
            for child in _children(self.seat._proc.pid):
                os.kill(child, signal.SIGKILL)
                self.killed = True
                deadline = time.monotonic() + 10
                while not _dead(child) and time.monotonic() < deadline:
                    time.sleep(0.001)
        return answer

    def take_stderr(self):
        return self.seat.take_stderr()

    def close(self):
        self.seat.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_bot_plays_on_the_game_s_own_pipes_and_if_it_dies_the_stand_in_plays_on():
    from referee.platform.process import BotProcess
    from referee.volcanoes.match import Settings, play_game

    env = dict(os.environ, **{launch.LOAD_FIRST_VARIABLE: "1"})
    with (
        BotProcess([sys.executable, "-m", "bots.volcanoes.greedy"], env=env) as greedy,
        BotProcess([sys.executable, "-m", "bots.volcanoes.random"]) as rival,
    ):
        said = ""
        while launch.READY_LINE not in said and greedy.running():
            said += greedy.take_stderr()
        seat = _KillingTheBotAfter(greedy, turns=2)
        # (Generous limits: what is tested is that the game goes on, not how fast, on a machine that may be busy.)
        result = play_game(seat, rival, seed=11, settings=Settings(turn_ms=500, first_turn_ms=2000))
        stderr = "".join(turn.stderr for turn in result.turn_log if turn.stderr) + greedy.take_stderr()
    assert seat.killed
    assert result.reason not in ("timeout", "invalid", "crash"), (result.reason, result.detail)
    assert result.turns > 6  # the game went on past the bot's death
    assert "stand-in plays on" in stderr


def test_an_in_process_seat_collects_no_garbage_inside_a_timed_turn():
    """A full collection in a process that has loaded numba took 0.2 s: never inside a turn."""
    import gc

    from referee.volcanoes.match import InProcessSeat

    inside, collections = [False], []

    class Allocating:
        def answer(self, lines, started):
            inside[0] = True
            for _ in range(20_000):  # far past the collector's first threshold (700 objects)
                cycle = []
                cycle.append(cycle)
            inside[0] = False
            return "A"

    def watch(phase, info):
        if phase == "start" and inside[0]:
            collections.append(info["generation"])

    was_enabled = gc.isenabled()
    gc.enable()  # (a bot's `Player.run` in this test process turns it off for good)
    gc.callbacks.append(watch)
    try:
        assert InProcessSeat(Allocating()).ask(["x"], timeout=10.0)[0] == "A"
        assert gc.isenabled()  # on again for the referee's work between turns
    finally:
        gc.callbacks.remove(watch)
        if not was_enabled:
            gc.disable()
    assert collections == []


@contextmanager
def _loading(name: str, idle: bool):
    """A launcher's loading child for registered bot `name`, on a game of two pipes nobody writes."""
    game_in, to_game = os.pipe()
    from_game, game_out = os.pipe()
    with open(game_in) as stdin, open(game_out, "w") as stdout:
        engine = launch._Engine(name, stdin, stdout, idle=idle)
    try:
        yield engine
    finally:
        engine.close()
        os.close(to_game)
        os.close(from_game)


@pytest.mark.skipif(not launch.can_load_idle(), reason="needs the right to leave SCHED_IDLE (Linux)")
def test_the_child_loads_at_the_idle_priority_and_plays_at_the_usual_one():
    """A loading child runs only on a processor nothing else wants; once loaded it must play at
    the usual priority, or a busy machine would starve its turns."""
    with _loading("random", idle=True) as engine:
        assert os.sched_getscheduler(engine.proc.pid) == os.SCHED_IDLE
        deadline = time.monotonic() + 300  # (an empty numba cache compiles first)
        while not engine.poll_ready(sys.stderr, wait=True):
            assert engine.proc is not None and time.monotonic() < deadline, "the child did not load"
        assert os.sched_getscheduler(engine.proc.pid) == os.SCHED_OTHER


@pytest.mark.skipif(not launch.can_load_idle(), reason="needs the right to leave SCHED_IDLE (Linux)")
def test_a_child_still_loading_after_a_while_goes_on_at_the_usual_priority(monkeypatch):
    """(It is compiling, or no processor is ever idle: it must finish all the same.)"""
    with _loading("random", idle=True) as engine:
        engine.carry_on()  # (just started)
        assert os.sched_getscheduler(engine.proc.pid) == os.SCHED_IDLE
        monkeypatch.setattr(launch, "IDLE_LOAD_SECONDS", 0.0)
        engine.carry_on()
        assert os.sched_getscheduler(engine.proc.pid) == os.SCHED_OTHER


@pytest.mark.skipif(not hasattr(os, "sched_getscheduler"), reason="Linux's scheduling policies")
def test_without_the_idle_priority_the_child_loads_at_the_usual_one():
    with _loading("random", idle=False) as engine:
        assert os.sched_getscheduler(engine.proc.pid) == os.SCHED_OTHER


@pytest.mark.skipif(not launch.can_load_idle(), reason="needs the right to leave SCHED_IDLE (Linux)")
def test_a_child_that_compiles_does_so_at_the_usual_priority(monkeypatch, tmp_path):
    """Loading from a warm cache fits in idle moments; compiling (an empty cache) takes 10 to 30 s of
    processor time and must end, so numba's first compile lifts the child to the usual priority."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))  # empty: the child compiles
    monkeypatch.setattr(launch, "IDLE_LOAD_SECONDS", 1e9)  # (not the launcher's own time limit)
    with _loading("random", idle=True) as engine:
        assert os.sched_getscheduler(engine.proc.pid) == os.SCHED_IDLE
        deadline = time.monotonic() + 120
        while os.sched_getscheduler(engine.proc.pid) == os.SCHED_IDLE:
            assert not engine.poll_ready(sys.stderr) and time.monotonic() < deadline
            time.sleep(0.01)
