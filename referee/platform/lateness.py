"""Whose fault a timeout was, the bot's or the machine's: a bot that timed out wanting a processor
all along, which it waited for a tenth of its limit or more, timed out by the machine's fault, not its
own (`late_by_machine`), and the arena plays such a game again rather than charge the bot. What a
bot process ran and waited is read from Linux's accounting of its threads (`cpu_times_of`) where its
cgroup does not say; whether it sleeps reading a pipe, its input most likely, from where Linux says
each thread sleeps (`waits_on_a_pipe`). Apart from `clock` (a bot's own time) because the bundled
submission carries that module and has no use for this one.
"""

from __future__ import annotations

import os

LATE_SHARE = 0.1  # of a turn's limit: a wait for a processor this long, in a timeout, is the machine's
BUSY_SHARE = 0.5  # of a turn's limit: a bot that ran or waited to run this long wanted a processor
FULL_SHARE = 0.95  # of a turn's limit: a bot that ran this long had a processor (its waits were its own)
# How long past its limit a turn that looks late by the machine is watched for the bot's answer, while
# it runs the rest of its limit: a bot given a fifth of a processor, at a load of five a core, has run
# its limit within five limits.
OVERTIME_LIMITS = 5
OVERTIME_S = 0.2
# Where Linux says a thread sleeps (/proc/PID/task/TID/wchan) when it reads a pipe, by kernel version.
PIPE_READS = frozenset({"pipe_read", "pipe_wait", "pipe_read_wait", "anon_pipe_read"})


def late_by_machine(ran: float, waited: float, limit: float, bot=None) -> bool:
    """Whether a turn that timed out after `limit` seconds, in which the bot ran `ran` seconds on a
    processor and waited `waited` for one, timed out by the machine's fault: it wanted a processor
    half the turn or more (a bot that sleeps, or hangs on its input, does not; a first turn's start
    reads files), waited for one a tenth of the limit or more (a bot that searches until near its
    limit has no more to spare; on a quiet machine such waits are a millisecond or less), and did not
    have one processor's worth of the turn all the same: a bot whose own processes or threads
    waited for each other on the processors it filled (a cgroup's pressure counts those waits too)
    had what CodinGame gives a bot, and its timeout is its own.

    Where `bot` is given (a BotProcess, or a seat with its `answers_within`), a turn that looks late
    by the machine is watched on past its limit, up to OVERTIME_LIMITS limits more, until the bot has
    run the rest of its limit on a processor: a bot that answers by then was owed that time; one that
    does not (an endless loop, which a busy machine always starves) timed out by its own fault."""
    looks_late = waited >= LATE_SHARE * limit and ran + waited >= BUSY_SHARE * limit and ran < FULL_SHARE * limit
    return looks_late and (bot is None or bot.answers_within(limit - ran, OVERTIME_LIMITS * limit + OVERTIME_S))


def cpu_times_of(pid: int) -> tuple[float, float] | None:
    """(seconds run on a processor, seconds waited for one) of the threads of process `pid` since
    they started (Linux's /proc/PID/task/*/schedstat), or None where the system does not say."""
    ran = waited = 0
    found = False
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return None
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat", "rb") as stat:
                fields = stat.read().split()
            ran, waited, found = ran + int(fields[0]), waited + int(fields[1]), True
        except (OSError, ValueError, IndexError):
            continue
    return (ran * 1e-9, waited * 1e-9) if found else None


def waits_on_a_pipe(pid: int) -> bool:
    """Whether a thread of process `pid`, or of a process it started, sleeps reading a pipe and none
    runs (False where the system does not say): a bot that timed out so waits for input, its answer
    unwritten; one whose reading thread waits while another thinks does not."""
    reading, todo, seen = False, [pid], set()
    while todo:
        process = todo.pop()
        if process in seen:
            continue
        seen.add(process)
        try:
            tasks = os.listdir(f"/proc/{process}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{process}/task/{task}/stat") as stat:
                    if stat.read().rsplit(")", 1)[1].split()[0] == "R":  # (running, or ready to)
                        return False
                with open(f"/proc/{process}/task/{task}/wchan") as wchan:
                    reading |= wchan.read().strip() in PIPE_READS
                with open(f"/proc/{process}/task/{task}/children") as children:
                    todo += [int(child) for child in children.read().split()]
            except (OSError, ValueError, IndexError):
                continue
    return reading
