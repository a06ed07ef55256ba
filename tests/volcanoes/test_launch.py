"""The launcher's relay and its loading child (`bots.volcanoes.launch`), piece by piece."""
import os
import signal
import subprocess
import sys
import time

import pytest

from bots.volcanoes import launch


def _state(pid: int) -> str:
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[1].split()[0]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_loading_child_is_stopped_while_the_stand_in_thinks_and_let_go_after():
    engine = launch._Engine.__new__(launch._Engine)
    engine.proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    engine.ready, engine.paused = False, False
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


class _KillingTheBotAfter:
    """A process seat whose launcher's child (the bot, which has taken over) is killed after the
    seat's `turns`-th answer."""

    def __init__(self, seat, turns: int):
        self.seat, self.turns, self.killed = seat, turns, False

    def ask(self, lines, timeout):
        answer = self.seat.ask(lines, timeout)
        self.turns -= 1
        if self.turns == 0:
            for child in _children(self.seat._proc.pid):
                os.kill(child, signal.SIGKILL)
                self.killed = True
        return answer

    def take_stderr(self):
        return self.seat.take_stderr()

    def close(self):
        self.seat.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_bot_plays_on_the_game_s_own_pipes_and_if_it_dies_the_stand_in_plays_on():
    from referee.process import BotProcess
    from referee.volcanoes.match import Settings, play_game

    env = dict(os.environ, **{launch.LOAD_FIRST_VARIABLE: "1"})
    with BotProcess([sys.executable, "-m", "bots.volcanoes.greedy"], env=env) as greedy, \
            BotProcess([sys.executable, "-m", "bots.volcanoes.random"]) as rival:
        said = ""
        while launch.READY_LINE not in said and greedy.running():
            said += greedy.take_stderr()
        seat = _KillingTheBotAfter(greedy, turns=2)
        result = play_game(seat, rival, seed=11, settings=Settings(turn_ms=150, first_turn_ms=1000))
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
