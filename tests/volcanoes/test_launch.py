"""The launcher's relay and its loading child (`bots.volcanoes.launch`), piece by piece."""
import io
import subprocess
import sys
import time

import pytest

from bots.volcanoes import base, launch
from referee.volcanoes.board import NAMES, init_block


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


class _Recording(base.Bot):
    name = "recording"

    def __init__(self):
        self.budgets = []

    def choose(self, state, budget):
        self.budgets.append(budget)
        return int(state.legal_moves()[0])


def test_a_relayed_turn_is_timed_from_when_the_parent_read_it():
    """The child's budget counts the relay's time: the parent read the turn 50 ms before the child."""
    lines = init_block() + [" ".join(["0"] * 80), " ".join(NAMES)]
    read_by_parent = time.perf_counter() - 0.050
    relayed = io.StringIO(f"{read_by_parent!r} {len(lines)}\n" + "\n".join(lines) + "\n")
    bot, out = _Recording(), io.StringIO()
    base.Player(bot, first_turn_seconds=0.100).run(relayed, out, turns=launch._relayed_turns(relayed))
    assert out.getvalue().strip() in NAMES
    assert len(bot.budgets) == 1
    assert bot.budgets[0] <= 0.100 - base.SAFETY_SECONDS - 0.050


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
