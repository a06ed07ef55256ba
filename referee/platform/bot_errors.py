"""How a bot fails, as the referees and the arena name it: the typed exceptions a bot's process
raises (a timeout, an exit, a start that failed) and a signal's name."""

from __future__ import annotations

import signal


class BotError(Exception):
    """A bot failed. `reason` is a short word for records (timeout, crash, ...)."""

    reason = "error"


class BotTimeout(BotError):
    reason = "timeout"
    # Seconds the bot ran on a processor, and waited for one, during the turn it timed out in (0 where
    # the system does not say): `lateness.late_by_machine` tells the machine's fault from the bot's.
    ran: float = 0.0
    waited: float = 0.0


class TooLong(BotTimeout):
    """An answer ran past the bytes read for it: CodinGame's runner stops reading there and, the
    answer incomplete, times the player out, however soon it came (no clock ran out: say so)."""


# How a TooLong's message ends: a line that is a timeout on CodinGame though no clock ran out.
WHERE_CODINGAME_STOPS = "where CodinGame stops reading (a timeout, as on CodinGame)"


class BotExited(BotError):
    """The bot closed its output: it exited or crashed."""

    reason = "crash"


class BotStartError(BotError):
    reason = "start"


def signal_name(number: int) -> str:
    """A signal's name: SIGKILL, or SIGRTMIN+N for a real-time signal (34 to 64 on Linux), which
    has none of its own (`signal.Signals(40)` is a ValueError), else its number."""
    try:
        return signal.Signals(number).name
    except ValueError:
        pass
    low, high = getattr(signal, "SIGRTMIN", None), getattr(signal, "SIGRTMAX", None)
    if low is not None and high is not None and low <= number <= high:
        return f"SIGRTMIN+{number - low}"
    return f"signal {number}"
