"""Pebbles played by a referee that starts the bots and keeps their clocks itself, as the referees of
protocols (A) and (B) do (`cli_referee.py`, `json_referee.py`): each seat a BotProcess
(referee/platform/process.py), the rules rules.py's."""

from __future__ import annotations

import json
from contextlib import ExitStack
from dataclasses import dataclass, field

from referee.platform.bot_errors import BotError
from referee.platform.process import BotProcess

from . import rules


@dataclass
class Turn:
    player: int
    answer: str | None  # None: it gave none
    stderr: str
    summary: str  # one line for the viewer: `$N` names player N, as CodinGame's summaries do
    view: str  # the position the player was given, as a viewer frame (JSON text)


@dataclass
class Played:
    seed: int
    scores: list[int]  # rules.final_scores: a player that failed scores -1
    out: int | None = None  # the player that failed, if one did
    failure: str | None = None  # how it failed: timeout, invalid, crash or start
    detail: str = ""  # what went wrong, for people
    turns: list[Turn] = field(default_factory=list)


def play(commands: list[str], seed: int, first_turn_s: float, turn_s: float) -> Played:
    """One game between the bot commands, player 0 first; every bot is gone when it returns."""
    state = rules.new_game(seed, len(commands))
    turns: list[Turn] = []

    def end(out: int | None = None, failure: str | None = None, detail: str = "") -> Played:
        return Played(seed, rules.final_scores(state, out), out, failure, detail, turns)

    with ExitStack() as stack:
        seats = []
        for i, command in enumerate(commands):
            try:
                seats.append(stack.enter_context(BotProcess(command)))
            except BotError as exc:
                return end(i, exc.reason, str(exc))
        while not state.over:
            me = state.to_move
            view = json.dumps({"pebbles": state.pebbles, "scores": state.scores})
            limit = turn_s if state.has_played[me] else first_turn_s
            lines = rules.turn_input(state)
            try:
                answer, _ = seats[me].ask(lines, limit)
            except BotError as exc:
                turns.append(Turn(me, None, seats[me].take_stderr(), f"${me} {exc.reason}: {exc}", view))
                return end(me, exc.reason, str(exc))
            stderr = seats[me].take_stderr()
            before = state.scores[me]
            problem = rules.play(state, answer)
            if problem is not None:
                turns.append(Turn(me, answer, stderr, f"${me} invalid: {problem}", view))
                return end(me, "invalid", problem)
            turns.append(Turn(me, answer, stderr, f"${me} takes a pebble worth {state.scores[me] - before}", view))
    return end()
