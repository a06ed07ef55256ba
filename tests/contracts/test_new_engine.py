"""The contract a newcomer follows to add a Volcanoes engine: a bot class on the one interface
(bots/volcanoes/bot.py) and its line in the registry (bots/volcanoes/registry.py). A throwaway
engine, written here into a temporary package and registered for this test alone, plays through the
referee in this process (the one seat, bots/volcanoes/seat.py) and as a process (`python -m MODULE`,
through the one adapter, `bots.volcanoes.bot.main`), with no other file touched."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from bots.volcanoes import registry
from bots.volcanoes.seat import open_seat
from referee.platform.process import BotProcess
from referee.volcanoes.board import NAMES
from referee.volcanoes.match import Settings, play_game

ROOT = Path(__file__).resolve().parents[2]
NORMAL_ENDS = ("connection", "simultaneous", "eruptions", "max-turns")

ENGINE = '''
from bots.volcanoes.bot import Bot, main


class LowestBot(Bot):
    """The lowest legal tile, or with `reverse` the highest."""

    name = "lowest"

    def __init__(self, seed=None, reverse=0):
        self.reverse = reverse

    def choose(self, state, budget):
        moves = state.legal_moves()
        return moves[-1] if self.reverse else moves[0]


if __name__ == "__main__":
    main(LowestBot())
'''


@pytest.fixture
def engine_path(tmp_path, monkeypatch) -> Path:
    """The throwaway engine's package (`throwaway.lowest`), importable and registered as `lowest`."""
    package = tmp_path / "throwaway"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "lowest.py").write_text(ENGINE)
    monkeypatch.syspath_prepend(str(tmp_path))
    record = registry.Record("lowest", "throwaway.lowest", "LowestBot", (registry.Parameter("reverse", 0, 0, 1, int),))
    monkeypatch.setitem(registry.BOTS, "lowest", record)
    return tmp_path


def test_a_registered_engine_takes_typed_options_and_plays_in_process(engine_path):
    spec = registry.parse("lowest:reverse=1,ms=500")
    assert (spec.options, spec.turn_ms, str(spec)) == ({"reverse": 1}, 500.0, "lowest:ms=500.0,reverse=1")
    with pytest.raises(ValueError, match="no option 'depth'"):
        registry.parse("lowest:depth=3")
    settings = Settings(max_turns=60)
    limits = settings.limits(spec.turn_ms)  # the seat's own limits, once a game: its seat and the referee's clock
    blue = open_seat(spec.make(seed=1), limits)
    orange = open_seat(registry.make("pure-random", seed=2))
    result = play_game(blue, orange, seed=3, settings=settings, limits=(limits, None))
    assert result.reason in NORMAL_ENDS, result.detail
    assert result.moves[0] == NAMES[-1]  # the highest tile: its option reached it


def test_a_registered_engine_plays_as_a_process_through_the_one_adapter(engine_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(engine_path), str(ROOT)]))
    module = registry.BOTS["lowest"].module
    with BotProcess([sys.executable, "-m", module], env=env, cwd=str(ROOT)) as blue:
        orange = open_seat(registry.make("pure-random", seed=2))
        result = play_game(blue, orange, seed=3, settings=Settings(turn_ms=1000, first_turn_ms=5000, max_turns=60))
    assert result.reason in NORMAL_ENDS, (result.detail, [t.stderr for t in result.turn_log])
    assert result.moves[0] == NAMES[0]  # the lowest tile: its default
