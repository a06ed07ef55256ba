"""Pebbles: the tests' own small game, 2 to 4 players, refereed in every protocol the arena speaks.

The seed lays out a row of pebbles (8 to 14, each worth 1 to 9). Players take turns, player 0
first, each taking one pebble and adding its worth to their score, until none is left; the highest
score wins (equal scores tie). A player that answers late, answers what is not a pebble's index, or
stops answering is out at once: the game ends, that player last.

Input, each turn, to the player to move: on its first turn only, `PLAYERS MY_INDEX`; then every
player's score on one line, the number of pebbles left, and their worths on one line. Output: the
index (from 0) of the pebble to take.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass
class State:
    players: int
    pebbles: list[int]
    scores: list[int]
    turn: int = 0  # turns played
    has_played: list[bool] = field(default_factory=list)

    @property
    def to_move(self) -> int:
        return self.turn % self.players

    @property
    def over(self) -> bool:
        return not self.pebbles


def new_game(seed: int, players: int) -> State:
    if not 2 <= players <= 4:
        raise ValueError(f"pebbles is for 2 to 4 players, not {players}")
    rng = random.Random(seed)
    pebbles = [rng.randint(1, 9) for _ in range(rng.randint(8, 14))]
    return State(players, pebbles, [0] * players, 0, [False] * players)


def turn_input(state: State) -> list[str]:
    """The lines the player to move is given this turn."""
    me = state.to_move
    lines = [] if state.has_played[me] else [f"{state.players} {me}"]
    state.has_played[me] = True
    return lines + [" ".join(map(str, state.scores)), str(len(state.pebbles)), " ".join(map(str, state.pebbles))]


def play(state: State, answer: str) -> str | None:
    """Apply the mover's answer; None if it was a pebble's index, else why it was not."""
    text = answer.strip()
    if not text.lstrip("-").isdigit() or not 0 <= int(text) < len(state.pebbles):
        return f"{answer!r} is not the index of one of the {len(state.pebbles)} pebbles"
    state.scores[state.to_move] += state.pebbles.pop(int(text))
    state.turn += 1
    return None


def final_scores(state: State, out: int | None = None) -> list[int]:
    """Each player's score at the end; a player that went out scores -1 (CodinGame's mark of a
    player that failed)."""
    return [-1 if i == out else s for i, s in enumerate(state.scores)]
