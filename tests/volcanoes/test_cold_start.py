"""A numba bot's process on an empty numba cache (a fresh install) answers every turn in time: the
pure-Python stand-in plays while the kernels compile (`bots.volcanoes.launch`)."""

import os
import sys

import pytest

from referee.platform.process import BotProcess
from referee.volcanoes.match import Settings, play_game


def bot(name: str) -> list[str]:
    return [sys.executable, "-m", "bots.volcanoes." + name]


@pytest.mark.parametrize("name", ["mcts", "alphabeta"])
def test_a_bot_on_an_empty_numba_cache_plays_a_whole_game_without_a_forfeit(name, tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba-cache"))
    # CodinGame's limits with some room for a 2-core machine running tests beside it; compiling
    # the kernels alone takes longer than any of these.
    settings = Settings(turn_ms=150, first_turn_ms=1000)
    for seat in ("blue", "orange"):
        players = {seat: bot(name), "other": bot("random")}
        blue_cmd, orange_cmd = (
            (players[seat], players["other"]) if seat == "blue" else (players["other"], players[seat])
        )
        with BotProcess(blue_cmd, env=env) as blue, BotProcess(orange_cmd, env=env) as orange:
            result = play_game(blue, orange, seed=7, settings=settings)
        assert result.reason not in ("timeout", "invalid", "crash"), (seat, result.reason, result.detail)
        assert result.turns >= 8  # a whole game, not an early forfeit of the random bot


def test_asked_to_load_first_a_bot_says_so_before_its_first_turn_and_then_plays_itself(tmp_path):
    """The arena starts a process bot this way, so that its games are played by the bot it rates."""
    from bots.volcanoes.launch import LOAD_FIRST_VARIABLE, READY_LINE
    from referee.volcanoes.board import NAMES, init_block

    env = dict(os.environ, **{LOAD_FIRST_VARIABLE: "1"})
    with BotProcess(bot("greedy"), env=env) as greedy:
        said = ""
        while READY_LINE not in said and greedy.running():
            said += greedy.take_stderr()
        assert READY_LINE in said and "takes over" in said
        answer, _ = greedy.ask(init_block() + [" ".join(["0"] * 80), " ".join(NAMES)], timeout=5)
        assert answer in NAMES
        assert "takes over" not in greedy.take_stderr()  # it did before the game, once
