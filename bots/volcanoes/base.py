"""The numba engines' side of the bot interface (`bots.volcanoes.bot`): `NumbaBot`, whose states are
`GameState`s (numpy arrays, with the opponent's last moves inferred by `tracking.Tracker`, which also
says when a position is not the one the rules predict), and whose `warm_up` compiles (or loads from
numba's cache) the kernels that the bot and its view use.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager

from referee.volcanoes import rules

from . import bot, tracking
from .bot import Bot
from .state import GameState  # noqa: F401 - a numba bot's state, imported from here by the bots
from .tracking import Tracker

__all__ = ["Bot", "NumbaBot", "GameState", "hiding_scipy", "main"]


class NumbaBot(Bot):
    """Subclass and implement `choose(state: GameState, budget)`; call `super().warm_up()` from your
    own `warm_up`, which runs every kernel the bot uses once."""

    def warm_up(self) -> None:
        rules.warm_up()
        tracking.warm_up()

    def view(self) -> Tracker:
        return Tracker()


class _HideSciPy:
    """An import hook that makes SciPy look absent. numba probes SciPy's BLAS on its first compile
    or cache load, a few tenths of a second of a cold start's first turn, and no kernel here uses
    BLAS."""

    def find_spec(self, name, path=None, target=None):
        if name == "scipy" or name.startswith("scipy."):
            raise ImportError("SciPy is hidden while the bot warms up")
        return None


@contextmanager
def hiding_scipy():
    """SciPy looks absent inside the block (see `_HideSciPy`)."""
    hook = _HideSciPy()
    sys.meta_path.insert(0, hook)
    try:
        yield
    finally:
        sys.meta_path.remove(hook)


def main(numba_bot: NumbaBot) -> None:
    """Play a numba bot on stdin/stdout, after loading its kernels (its first turn waits for them: the
    project's registered bots start through `bots.volcanoes.launch` instead, which answers at once)."""
    with hiding_scipy():
        bot.main(numba_bot, cold_start=True)
