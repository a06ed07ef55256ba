"""A pure bot as an in-process referee seat (`referee.volcanoes.match`): the same lines and the same
adapter as on CodinGame, without a process. A turn cannot be interrupted in-process, so an answer
later than the limit is a timeout after the fact."""
from __future__ import annotations

import time

from referee.process import BotTimeout

from .player import PurePlayer


class PureSeat:
    def __init__(self, bot, **player_options):
        self.player = PurePlayer(bot, **player_options)

    def ask(self, lines: list[str], timeout: float) -> tuple[str, float]:
        started = time.perf_counter()
        answer = self.player.answer(lines, started)
        seconds = time.perf_counter() - started
        if seconds > timeout:
            raise BotTimeout(f"answered after {seconds * 1000:.0f} ms")
        return answer, seconds

    def take_stderr(self) -> str:
        return ""

    def close(self) -> None:
        pass
