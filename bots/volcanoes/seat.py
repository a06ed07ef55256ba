"""Any Volcanoes bot as a referee seat in this process (`referee.volcanoes.match.InProcessSeat`): the
one adapter (`bots.volcanoes.bot.Player`) on the same lines a process gets, without a process."""

from __future__ import annotations

import io

from referee.platform.limits import CODINGAME, Limits
from referee.volcanoes.match import InProcessSeat

from .bot import Bot, Player


def open_seat(bot: Bot, limits: Limits = CODINGAME, log=None) -> InProcessSeat:
    """A seat for `bot` under `limits` (in ms: the referee's for this seat, `Settings.limits`), from
    which its adapter budgets each turn. What the adapter says (a position it did not predict) goes
    to `log`, by default to the seat's stderr, kept per turn. An exception the bot raises is a crash
    (`InProcessSeat`). Load the bot first (`bot.load`): its first turn is timed."""
    stderr = io.StringIO()
    return InProcessSeat(Player(bot, limits, log=log or stderr), stderr)
