"""Every registered Volcanoes bot (bots/volcanoes/registry.py) keeps the bot contract
(bots/volcanoes/bot.py): from random positions, the first turns' to the last before a game ends, it
answers a legal move within the budget it is given, the position as its own view reads it; and it
plays whole games through the referee in the one in-process seat (`bots.volcanoes.seat`), one after
the other with the same bot, within CodinGame's limits as its adapter budgets them, to their end.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from bots.volcanoes import registry
from bots.volcanoes.random import RandomBot
from bots.volcanoes.seat import open_seat
from bots.volcanoes.state import GameState
from referee.volcanoes import rules
from referee.volcanoes.match import Settings, play_game

BUDGET = 0.05  # seconds a move
SLACK = 0.5  # seconds more allowed: the machine running the tests is shared
NORMAL_ENDS = ("connection", "simultaneous", "eruptions", "max-turns")


def positions(games: int = 4) -> list[GameState]:
    """From each of `games` random games: a position early, one midway, and the last position with
    a player to move before the game ended (near a win, or with the board crowded)."""
    found = []
    moves = np.empty(80, dtype=np.int64)
    for seed in range(games):
        rng = np.random.default_rng(seed)
        levels, dormant = rules.new_state()
        seen = []
        for turn in range(1, rules.MAX_TURNS + 1):
            who = rules.actor(turn)
            if who != rules.GROWTH:
                seen.append(GameState(levels.copy(), dormant.copy(), turn - 1))
            tile = moves[rng.integers(rules.legal_moves(levels, dormant, who, moves))] if who else 0
            if rules.take_turn(levels, dormant, turn, tile) != rules.ONGOING:
                break
        found += [seen[1], seen[len(seen) // 2], seen[-1]]
    return found


POSITIONS = positions()


@pytest.fixture(scope="module", params=list(registry.BOTS))
def name(request):
    return request.param


def new_bot(name: str, seed: int):
    bot = registry.make(name, seed=seed)
    bot.warm_up()  # compile or load numba's kernels before any timed move
    return bot


def choose(bot, state: GameState, budget: float) -> int:
    """`bot`'s move in `state`, given as its own view reads a position (a first turn's: nothing before)."""
    bot.start(state.player)
    seen, _ = bot.view().observe(state.levels.tolist(), state.turns_played, "")
    return bot.choose(seen, budget)


def test_a_legal_move_within_the_budget_from_random_positions(name):
    bot = new_bot(name, seed=3)
    for state in POSITIONS:
        legal = set(state.legal_moves().tolist())
        started = time.perf_counter()
        tile = choose(bot, state, BUDGET)
        took = time.perf_counter() - started
        assert tile in legal, (state.turns_played, tile)
        assert took < BUDGET + SLACK, f"{took:.3f} s at turn {state.turns_played + 1}"
        figures = getattr(bot, "last_search", {}) or {}  # a search bot's work, for `arena bench`
        for work in ("iterations", "nodes"):
            assert figures.get(work, 1) > 0, figures


def test_whole_games_through_the_referee_one_after_the_other(name):
    """Two short games with the same bot, one on each side, against random bots: the referee sees
    no timeout, invalid move or crash, and each game ends by the rules (or the turn cap)."""
    bot = registry.make(name, seed=5)
    settings = Settings(turn_ms=100 + 1000 * SLACK, first_turn_ms=30_000, max_turns=60)
    for game in range(2):
        seat = open_seat(bot)  # (budgeted from CodinGame's limits; the referee's clock is relaxed)
        other = open_seat(RandomBot(seed=game))
        blue, orange = (seat, other) if game == 0 else (other, seat)
        result = play_game(blue, orange, seed=game, settings=settings)
        assert result.reason in NORMAL_ENDS, (game, result.reason, result.detail)
        seat.close()
