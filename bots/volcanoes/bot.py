"""The Volcanoes bot interface, and the one adapter that turns any bot into a CodinGame player.

A bot subclasses `Bot`: told of a game's start (`start(colour)`), asked for a move (`choose(state,
budget)`, the budget in seconds). `Player` speaks CodinGame's protocol for it: it tracks what the
lines leave out (the seat, the turn), hands the bot the position as its view reads it (`Bot.view`:
`Position` here, or the numba engines' `GameState`, see `base.NumbaBot`), and turns the seat's time
limit (`Limits`, in ms) into the bot's budget (`Budget`). It plays on stdin/stdout (`main`) or in
the referee's process (`bots.volcanoes.seat`). Standard library only: the bundled submission carries
this module.
"""

from __future__ import annotations

import gc
import operator
import sys
import time
from abc import ABC, abstractmethod
from contextlib import contextmanager
from dataclasses import dataclass

from referee.platform.clock import process_age, waited_for_cpu
from referee.platform.errors import InputFormatError
from referee.volcanoes.board import N_TILES, NAMES
from referee.platform.limits import CODINGAME, Limits
from referee.volcanoes.constants import BLUE, CYCLE, MAX_LEVEL, ORANGE

COLD_START_SECONDS = 0.75  # `cold_start`: the first answer this long after the process started, at most


@dataclass(frozen=True)
class Budget:
    """A bot's budget: `share` of a turn's limit (`first_share` of a first turn's) less `reserve_s`
    seconds, less what the adapter spent on the turn (the figures: docs/experiments/budgets.md)."""

    share: float = 1.0
    first_share: float = 1.0
    reserve_s: float = 0.030

    def seconds(self, limits: Limits, first_turn: bool) -> float:
        if first_turn:
            return self.first_share * limits.first_turn_ms / 1000 - self.reserve_s
        return self.share * limits.turn_ms / 1000 - self.reserve_s


@dataclass(frozen=True)
class Position:
    """A position as `Bot.view` gives it by default: 80 blue-positive levels and the turns played
    (growth turns too). At a turn's start a volcano is dormant exactly when it is at the top level."""

    levels: list[int]
    turns_played: int

    @property
    def player(self) -> int:
        """Who moves: BLUE or ORANGE."""
        return CYCLE[self.turns_played % 6]

    def legal_moves(self) -> list[int]:
        """Empty tiles and the mover's volcanoes below the top level, in tile order."""
        player = self.player
        return [tile for tile, level in enumerate(self.levels) if 0 <= level * player < MAX_LEVEL]


class PositionView:
    """The default view of a game: each turn's position as given, nothing inferred."""

    def observe(self, levels: list[int], turns_played: int, valid_line: str) -> tuple[Position, str | None]:
        """This turn's state for the bot, and a complaint when the lines are not what the rules
        predict (never here)."""
        return Position(levels, turns_played), None

    def played(self, tile: int) -> None:
        """The bot answered `tile`."""


class Bot(ABC):
    """Subclass and implement `choose`. The constructor takes `seed` and the bot's options (declared in
    `bots.volcanoes.registry.BOTS`). A search may leave figures of its last search in
    `last_search` ("iterations", "nodes"; none after a book move): `arena bench` reports them."""

    name = "bot"
    budget = Budget()  # of each turn's limit (see `Budget`)
    # Whether `Player.run` collects garbage after each answer (never inside a turn); a bot that makes
    # no reference cycles may leave the collector off for good.
    collect_between_turns = True
    last_search: dict = {}

    def warm_up(self) -> None:  # noqa: B027 - optional: a bot without kernels has nothing to compile
        """Compile (or load) whatever the bot and its view need, before its first timed turn."""

    def start(self, colour: int) -> None:  # noqa: B027 - optional: most bots need no notice
        """A new game begins; `colour` is BLUE (first player) or ORANGE."""

    def view(self) -> PositionView:
        """A new view for one game: how the bot reads each position (`choose`'s `state`)."""
        return PositionView()

    @abstractmethod
    def choose(self, state, budget: float) -> int:
        """A legal tile for `state.player`, found within `budget` seconds."""


def _levels(line: str) -> list[int]:
    """The 80 levels of a position line (the receiver's positive); InputFormatError if it is not one."""
    levels = [_LEVEL.get(word) for word in line.split()]
    if len(levels) != N_TILES or None in levels:
        raise InputFormatError(
            f"a position line holds {N_TILES} levels from -{MAX_LEVEL} to {MAX_LEVEL}, not {line[:60]!r}"
        )
    return levels


# A level as written: its digits, signed "-" when negative ("-0" too, as both adapters read it before).
_LEVEL = {f"{sign}{level}".lstrip("+"): int(f"{sign}{level}") for level in range(MAX_LEVEL + 1) for sign in "+-"}


class Player:
    """CodinGame's side of the protocol for one bot, one game at a time: lines in, a tile name out."""

    def __init__(
        self,
        bot: Bot,
        limits: Limits = CODINGAME,
        log=None,
        cold_start: bool = False,
        budget: Budget | None = None,
    ):
        """`limits`: the referee's, in ms. `cold_start`: this process was started to play, so its first
        answer also covers its start-up. `budget`: by default the bot's own."""
        self.bot = bot
        self.limits = limits
        self.budget = budget or bot.budget
        self.log = log or sys.stderr  # (looked up now: a stream bound at import may be closed since)
        self.cold_start = cold_start
        self.colour = 0
        self.turn = 0  # the 1-based number of the turn we are asked to play (0: before a game)
        self.view = None

    def answer(self, lines: list[str], started: float | None = None) -> str:
        """Answer one turn's lines (the init block first on a game's first turn), which arrived at
        `time.perf_counter()` instant `started` (by default now)."""
        started = time.perf_counter() if started is None else started
        if lines[0].strip() == str(N_TILES):  # the init block: a new game
            lines = lines[N_TILES + 1 :]
            self.turn = 0
        if len(lines) < 2:
            raise InputFormatError("a turn is a position line and a line of valid moves")
        levels = _levels(lines[0])
        first_turn = self.turn == 0
        if first_turn:  # blue moves first, on an empty board
            self.colour = BLUE if not any(levels) else ORANGE
            self.turn = 1 if self.colour == BLUE else 2
            self.view = self.bot.view()
        else:  # blue plays turns 1, 5, 7, 11, ...; orange 2, 4, 8, 10, ...
            self.turn += 4 if self.turn % 6 in (1, 4) else 2
        state, complaint = self.view.observe([level * self.colour for level in levels], self.turn - 1, lines[1])
        if complaint:
            print(f"[{self.bot.name}] {complaint}", file=self.log, flush=True)
        if not len(state.legal_moves()):  # no answer would be valid: say so rather than crash inside
            raise InputFormatError(f"no legal move in this position: {lines[0][:60]!r}")
        if first_turn:
            self.bot.start(self.colour)
        budget = self.budget.seconds(self.limits, first_turn) - (time.perf_counter() - started)
        if first_turn and self.cold_start:
            budget = min(budget, COLD_START_SECONDS - process_age())
            self.cold_start = False
        tile = _tile(self.bot.choose(state, max(budget, 0.001)), self.bot.name)
        self.view.played(tile)
        return NAMES[tile]

    def resume(self, colour: int, turn: int) -> None:
        """Carry on a game another adapter has played so far, as `colour`, whose last answer was for
        (1-based) turn `turn`: the next lines are taken as the following turn's."""
        self.colour, self.turn = colour, turn
        self.view = self.bot.view()
        self.bot.start(colour)

    def run(self, stdin=None, stdout=None, answered=None) -> None:
        """Play on stdin/stdout (by default the process's, as they are now) until the input ends;
        `answered()` is called after each answer is written."""
        stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
        gc.disable()  # no collection inside a timed turn
        with ending_on_bad_input(self.bot.name):
            for lines, started in read_turns(stdin):
                print(self.answer(lines, started), file=stdout, flush=True)
                if answered:
                    answered()
                if self.bot.collect_between_turns:
                    gc.collect(1)


def _tile(chosen, who: str) -> int:
    """A bot's choice as a tile index; ValueError naming what it returned where it is none (-1 or 3.7
    had played S40 or N04)."""
    try:
        tile = operator.index(chosen)  # (an int or NumPy's: not a float, nor None)
    except TypeError:
        tile = -1
    if isinstance(chosen, bool) or not 0 <= tile < N_TILES:
        raise ValueError(f"{who}: choose() returned {chosen!r}, not a tile index (0 to {N_TILES - 1})")
    return tile


def read_turns(stdin):
    """Each turn's lines from CodinGame's input (the init block first on a game's first turn) and
    the `time.perf_counter()` instant its first line arrived (read, less the time this process then
    waited for a processor: `referee.platform.clock`), until the input ends; InputFormatError when it
    ends in the middle of a turn."""

    def line() -> str:
        text = stdin.readline()
        if not text:
            raise InputFormatError("the input ended in the middle of a turn")
        return text.rstrip("\n")

    while True:
        waited = waited_for_cpu()
        first = stdin.readline()
        if not first:
            return
        # The turn began when its line arrived: a wait for a processor after that counts too.
        started = time.perf_counter() - (waited_for_cpu() - waited)
        lines = [first.rstrip("\n")]
        if lines[0].strip() == str(N_TILES):
            lines += [line() for _ in range(N_TILES + 1)]
        lines.append(line())  # the valid moves
        yield lines, started


@contextmanager
def ending_on_bad_input(who: str):
    """Input that is not CodinGame's (cut in the middle of a turn, a garbled position, not UTF-8)
    ends the process with one line on stderr and exit status 1."""
    try:
        yield
    except UnicodeDecodeError:
        raise SystemExit(f"{who}: the input is not UTF-8 text") from None
    except InputFormatError as exc:
        raise SystemExit(f"{who}: bad input: {exc}") from None


def load(bot: Bot) -> None:
    """Before a bot's first timed turn: `warm_up`, then put what that made (numba's kernels: some
    200,000 objects) out of the collector's sight, so that a collection between turns is quick."""
    bot.warm_up()
    gc.collect()
    gc.freeze()


def main(bot: Bot, cold_start: bool = False) -> None:
    """Play `bot` on stdin/stdout after loading it: a bot module's entry point (`if __name__ ==
    "__main__": main(MyBot())`). `cold_start`: see `Player`."""
    load(bot)
    Player(bot, cold_start=cold_start).run()
