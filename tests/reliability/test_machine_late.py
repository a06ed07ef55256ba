"""Timeouts the machine caused are not charged to the bots: a bot that timed out while it (or the arena
reading it) waited for a processor a tenth of its limit or more is late by the machine's fault
(`referee.platform.lateness.late_by_machine`). Its game is a failure of the machine, not a result: kept
out of every statistic, said in the report with what to do (fewer --workers), played again once at
the end of the run and on --resume. A busy machine had charged 9 timeouts in 176 games to the bots,
silently.

The machine is made busy here by a process that keeps one processor busy, beside a bot that runs on
that processor alone at the lowest priority (scripts/starved_bot.py)."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from arena.games.base import Player
from arena.games.sdk import SdkGame
from arena.play.store import Store
from referee.platform.lateness import late_by_machine
from referee.platform.bot_errors import BotTimeout
from referee.platform.process import BotProcess
from tests.reliability.commands import run

SCRIPTS = Path(__file__).parent / "scripts"
CPU = min(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 0

pytestmark = pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs Linux's processor affinity")


def starved(work_ms: float = 900) -> str:
    """A bot that works 900 ms of processor time a turn: late beside the busy process unless it gets
    nine tenths of the processor (Linux shares a processor between sessions, so it gets about half;
    with 600 ms, a machine busy with other work besides gave it enough once in a full test run)."""
    return shlex.join([sys.executable, str(SCRIPTS / "starved_bot.py"), str(CPU), str(work_ms)])


def spinner() -> str:
    """A bot in an endless loop from its first input on, on the busy processor at the usual priority:
    it gets about half of the processor, so its timeout looks late by the machine at its limit."""
    code = f"import os, sys\nos.sched_setaffinity(0, {{{CPU}}})\nsys.stdin.readline()\nwhile True:\n    pass"
    return shlex.join([sys.executable, "-c", code])


def sleeper(seconds: float) -> str:
    """A bot that sleeps `seconds` before each answer: late by its own fault (a sleeping process waits
    for no processor)."""
    return shlex.join([sys.executable, str(SCRIPTS / "answer_zero.py"), str(seconds)])


@pytest.fixture
def busy():
    """A process that keeps processor CPU busy for the test's length (in the test's session: the bot, in a
    session of its own, gets about half of the processor)."""
    hog = subprocess.Popen(
        [sys.executable, "-c", f"import os\nos.sched_setaffinity(0, {{{CPU}}})\nwhile True:\n    pass"]
    )
    yield
    hog.kill()
    hog.wait()


def test_the_rule():
    assert late_by_machine(ran=0.08, waited=0.02, limit=0.1) and late_by_machine(ran=0.5, waited=0.5, limit=1.0)
    assert not late_by_machine(ran=0.1, waited=0.005, limit=0.1)  # it had the processor: its own overrun
    assert not late_by_machine(ran=0.01, waited=0.03, limit=0.1)  # it slept, or waited for input, most of the turn
    # Two of its own processes on the one processor they filled: the cgroup's pressure counts their
    # waits for each other, and a bot that hung so was excused as the machine's.
    assert not late_by_machine(ran=1.0, waited=1.0, limit=1.0)


def test_a_bot_starved_of_processor_times_out_late_by_the_machine(busy):
    with BotProcess(starved()) as bot:
        with pytest.raises(BotTimeout) as late:
            bot.ask(["hello"], 1.0)
    assert late_by_machine(late.value.ran, late.value.waited, 1.0), (late.value.ran, late.value.waited)


def test_a_bot_late_by_its_own_fault_is_not(busy):
    with BotProcess(sleeper(2.0)) as bot:
        with pytest.raises(BotTimeout) as late:
            bot.ask(["hello"], 0.3)
    assert not late_by_machine(late.value.ran, late.value.waited, 0.3), (late.value.ran, late.value.waited)


def test_an_sdk_game_says_whose_timeout_was_the_machines(busy):
    other = shlex.join([sys.executable, str(SCRIPTS / "answer_zero.py")])
    players = [
        Player("starved", starved(), "command", starved(), "test"),
        Player("other", other, "command", other, "t"),
    ]
    game = SdkGame([sys.executable, str(SCRIPTS / "sdk_scripted.py"), "fair"], 2, reply_s=10)
    outcome = game.play(1, players, [0, 0])
    assert outcome.errors == ["timeout", None]
    assert outcome.late.startswith("player 0 timed out waiting") and "for a processor" in outcome.late


def test_one_game_says_when_the_machine_was_late(busy):
    command = [sys.executable, "-m", "referee.cli", "volcanoes", "play", starved(), "python -m bots.volcanoes.random"]
    done = subprocess.run([*command, "--seed", "1", "--json"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["reason"] == "timeout" and result["late"].startswith("blue timed out waiting"), result
    assert "the machine's fault, not the bot's" in done.stderr


class Owed:
    """A bot as `late_by_machine` watches it past its limit: it answers within its processor time or not."""

    def __init__(self, answers: bool):
        self.answers, self.asked = answers, []

    def answers_within(self, cpu_seconds: float, wall_seconds: float) -> bool:
        self.asked.append((cpu_seconds, wall_seconds))
        return self.answers


def test_a_turn_that_looks_late_is_the_machines_only_if_the_bot_answers_once_it_has_had_its_time():
    endless, owed = Owed(answers=False), Owed(answers=True)
    assert not late_by_machine(ran=0.04, waited=0.06, limit=0.1, bot=endless)  # an endless loop, starved
    assert late_by_machine(ran=0.04, waited=0.06, limit=0.1, bot=owed)
    assert [round(cpu, 6) for cpu, _ in owed.asked] == [0.06]  # the rest of its limit
    own = Owed(answers=True)
    assert not late_by_machine(ran=0.1, waited=0.005, limit=0.1, bot=own) and own.asked == []  # not watched


def test_a_bot_in_an_endless_loop_does_not_answer_within_its_time_and_a_starved_one_does(busy):
    with BotProcess(spinner()) as bot:
        with pytest.raises(BotTimeout):
            bot.ask(["hello"], 0.3)
        assert not bot.answers_within(0.3, 60.0)  # it ran 0.3 s more, no answer
    with BotProcess(starved(85)) as bot:  # 85 ms of work a turn: late unless it has the processor
        with pytest.raises(BotTimeout):  # (it shares it with the busy process: half of it, at most)
            bot.ask(["hello"], 0.1)
        assert bot.answers_within(0.1, 60.0)  # it answers once it has had them


def test_one_game_charges_an_endless_loop_with_its_timeout(busy):
    command = [sys.executable, "-m", "referee.cli", "volcanoes", "play", spinner(), "python -m bots.volcanoes.random"]
    done = subprocess.run([*command, "--seed", "1", "--json"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["reason"] == "timeout" and result["winner"] == "orange" and not result.get("late"), result


def _match(tmp_path: Path, bot: str, db: str) -> tuple[subprocess.CompletedProcess, list, list]:
    args = ["match", f"bot={bot}", "random", "--pairs", "1", "--seed", "1", "--workers", "1", "--db", db]
    done = run("arena.cli", *args, cwd=tmp_path, timeout=300)
    store = Store.open(tmp_path / db, readonly=True)
    games, failures = store.games(), store.failures()
    store.close()
    return done, games, failures


def test_a_run_plays_a_late_game_again_and_counts_it_for_nobody(tmp_path, busy):
    done, games, failures = _match(tmp_path, starved(), "late.sqlite")
    assert done.returncode == 0, done.stderr
    assert games == [], [g["detail"] for g in games]  # no timeout charged to the bot
    assert len(failures) == 4  # both games, each played again once at the end, late again
    assert all(f["kind"] == "machine" and "for a processor" in f["detail"] for f in failures)
    assert "--workers" in failures[-1]["detail"] and "cores" in failures[-1]["detail"]
    assert "2 by the machine" in done.stdout or "4 by the machine" in done.stdout, done.stdout
    assert "fewer --workers" in done.stdout and "fewer --workers" in done.stderr


def test_a_bots_own_timeout_is_still_its_loss(tmp_path, busy):
    done, games, failures = _match(tmp_path, sleeper(2.0), "own.sqlite")
    assert done.returncode == 0, done.stderr
    assert failures == [] and len(games) == 2
    assert all(g["errors"][g["seats"].index("bot")] == "timeout" for g in games)
