"""The Pebbles test bots as the arena's players, what they score by the rules, and the commands of
Pebbles' external referees (run from the checkout's root)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from arena.games.base import Player

from . import rules

ROOT = Path(__file__).resolve().parents[3]
BOTS = Path(__file__).parent / "bots"
PYTHON = shlex.quote(sys.executable)
CLI_REFEREE = f"{PYTHON} -m tests.games.pebbles.cli_referee"
JSON_REFEREE = f"{PYTHON} -m tests.games.pebbles.json_referee"

# What each well-behaved bot picks, by its docstring: an independent account of its play.
CHOICES = {
    "greedy": lambda values: values.index(max(values)),
    "worst": lambda values: values.index(min(values)),
    "first": lambda values: 0,
}


def player(bot: str, *args: str) -> Player:
    """A bot of bots/ as a command-line player (`hostile`'s misbehaviour in `args`)."""
    command = shlex.join([sys.executable, str(BOTS / f"{bot}.py"), *args])
    return Player(" ".join([bot, *args]), command, "command", command, "test")


def final_scores(seed: int, bots: list[str]) -> list[int]:
    """What well-behaved `bots` score against each other on `seed`, by the rules."""
    state = rules.new_game(seed, len(bots))
    while not state.over:
        rules.play(state, str(CHOICES[bots[state.to_move]](state.pebbles)))
    return rules.final_scores(state)
