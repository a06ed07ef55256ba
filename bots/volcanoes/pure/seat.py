"""A pure bot as an in-process referee seat (`referee.volcanoes.match`): the same lines and the same
adapter as on CodinGame, without a process."""

from __future__ import annotations

from referee.volcanoes.match import InProcessSeat

from .player import PurePlayer


class PureSeat(InProcessSeat):
    def __init__(self, bot, **player_options):
        super().__init__(PurePlayer(bot, **player_options))
