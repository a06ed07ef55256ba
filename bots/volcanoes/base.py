"""The Volcanoes bot interface, and the one adapter that turns any bot into a CodinGame player.

A bot is told of a game's start (`start(colour)`) and asked for a move (`choose(state, budget)`);
everything CodinGame's lines do not say (whose seat, where in the blue-orange-growth cycle the game
stands, the dormant flags) is tracked by `Player`, which also checks each position against the one it
predicted. `Player` speaks the protocol on stdin/stdout (`run`) or in-process (`InProcessSeat`), so a
bot plays the same way on CodinGame, in the referee and in fast local tournaments.
"""

from __future__ import annotations

import gc
import io
import sys
import time
from abc import ABC, abstractmethod
from contextlib import contextmanager

from referee.clock import process_age
from referee.errors import InputFormatError
from referee.volcanoes import match, rules
from referee.volcanoes.board import N_TILES, NAMES

from .pure.player import ending_on_bad_input, read_turns
from .state import GameState
from . import tracking
from .tracking import Tracker

BLUE, ORANGE, GROWTH = rules.BLUE, rules.ORANGE, rules.GROWTH

# Time a bot may use of CodinGame's limits; the rest covers reading, writing and process noise. With
# twice as many games as cores, the engines loaded before their games and 30 ms kept back (`arena
# bench --stress --cache warm --parallel 4 --games 600` on 2 cores), mcts, searching 0.9 of the
# 70 ms left, took 91 ms at most and 80.6 at the 99th percentile over 3,378 turns. Measured again
# (`--games 100`, four runs alternating with the version before mcts's tree by column): a p99 of
# 81.5-84.5 ms, but 0 to 5 games of 100 forfeited, 18 in 800. Logged batch by batch, the process
# stalled for 40-75 ms inside a jitted batch of 64 iterations (0.4 ms of work) 2 and 4 times in a
# run of either version (this machine is a virtual one; see `launch.STAND_IN_TURN_SECONDS`): no
# margin that leaves time to search absorbs that. With as many games as cores, no game of
# thousands has lost a turn.
TURN_SECONDS = 0.100
FIRST_TURN_SECONDS = 1.000
SAFETY_SECONDS = 0.030
# A process started to play spends its first turn starting, importing and loading kernels too (the
# referee's clock runs from when it sent the input, right after starting it): its first answer must
# come this long after the process started, at the latest.
COLD_START_SECONDS = 0.75


class Bot(ABC):
    """Subclass and implement `choose`. `warm_up` compiles what the bot needs before any timed turn.
    A search bot may leave figures of this turn's search in `last_search` ("iterations", "nodes",
    "depth"; none after a move it did not search, from an opening book): `arena bench` reports them."""

    name = "bot"
    last_search: dict = {}

    def warm_up(self) -> None:
        """Compile (or load from numba's cache) every kernel the bot and its adapter use."""
        rules.warm_up()
        tracking.warm_up()

    def start(self, colour: int) -> None:  # noqa: B027 - optional: most bots need no notice
        """A new game begins; `colour` is BLUE (first player) or ORANGE."""

    @abstractmethod
    def choose(self, state: GameState, budget: float) -> int:
        """A legal tile for `state.player`, found within `budget` seconds."""


_LEVELS = {str(level) for level in range(rules.MAX_LEVEL + 1)}  # as written, less the sign


class Player:
    """CodinGame's side of the protocol for one bot, one game at a time: lines in, a tile name out."""

    def __init__(
        self,
        bot: Bot,
        safety: float = SAFETY_SECONDS,
        log=sys.stderr,
        cold_start: bool = False,
        turn_seconds: float = TURN_SECONDS,
        first_turn_seconds: float = FIRST_TURN_SECONDS,
    ):
        """`cold_start`: this process was started to play, so its first answer also covers start-up.
        `turn_seconds`, `first_turn_seconds`: the referee's limits (the arena's time odds change them)."""
        self.bot = bot
        self.turn_seconds, self.first_turn_seconds = turn_seconds, first_turn_seconds
        self.safety = safety
        self.cold_start = cold_start
        self.log = log
        self.tracker: Tracker | None = None

    def answer(self, lines: list[str], started: float | None = None) -> str:
        """Answer one turn's lines (the init block first on the first turn)."""
        started = time.perf_counter() if started is None else started
        if lines[0].strip() == str(N_TILES):  # the init block: a new game
            lines = lines[N_TILES + 1 :]
            self.tracker = None
        if len(lines) < 2:
            raise InputFormatError("a turn is a position line and a line of valid moves")
        position, valid = lines[0], lines[1]
        levels = position.split()
        if len(levels) != N_TILES or not all(x.lstrip("-") in _LEVELS for x in levels):
            raise InputFormatError(
                f"not {N_TILES} levels from -{rules.MAX_LEVEL} to {rules.MAX_LEVEL}: {position[:60]!r}",
                "a position line",
            )
        first_turn = self.tracker is None
        if first_turn:
            self.tracker = Tracker()
        state, complaint = self.tracker.observe(position, valid)
        if complaint:
            print(f"[{self.bot.name}] {complaint}", file=self.log, flush=True)
        if not len(state.legal_moves()):  # no answer would be valid: say so rather than crash inside
            raise InputFormatError(f"no legal move in this position: {position[:60]!r}")
        if first_turn:
            self.bot.start(state.player)
        limit = self.first_turn_seconds if first_turn else self.turn_seconds
        budget = limit - self.safety - (time.perf_counter() - started)
        if first_turn and self.cold_start:
            budget = min(budget, COLD_START_SECONDS - process_age())
            self.cold_start = False
        tile = int(self.bot.choose(state, max(budget, 0.001)))
        self.tracker.played(tile)
        return NAMES[tile]

    def resume(self, colour: int, turn: int) -> None:
        """Carry on a game another adapter has played so far, as `colour`, whose last answer was for
        (1-based) turn `turn`: the next lines are taken as the following turn's."""
        self.tracker = Tracker()
        self.tracker.colour, self.tracker.turn = colour, turn
        self.bot.start(colour)

    def run(self, stdin=sys.stdin, stdout=sys.stdout, answered=None) -> None:
        """Play on stdin/stdout until the input ends (warm the bot up first); `answered()` is called
        after each answer is written."""
        gc.disable()  # collections run after answering, never inside a timed turn
        with ending_on_bad_input(self.bot.name):
            for lines, started in read_turns(stdin):
                print(self.answer(lines, started), file=stdout, flush=True)
                if answered:
                    answered()
                gc.collect(1)


class InProcessSeat(match.InProcessSeat):
    """A bot as a referee seat without a process: the same lines, the same adapter, no pipes."""

    def __init__(self, bot: Bot, log=None, time_scale: float = 1.0, first_turn_scale: float | None = None):
        """`time_scale`: the referee's turn limit is this many times CodinGame's (time odds);
        `first_turn_scale` likewise for the first turn (by default the same)."""
        stderr = io.StringIO()
        first_turn_scale = time_scale if first_turn_scale is None else first_turn_scale
        player = Player(
            bot,
            log=log or stderr,
            turn_seconds=TURN_SECONDS * time_scale,
            first_turn_seconds=FIRST_TURN_SECONDS * first_turn_scale,
        )
        super().__init__(player, stderr)


class _HideSciPy:
    """An import hook that makes SciPy look absent. numba probes SciPy's BLAS on its first compile
    or cache load, a few tenths of a second of a cold start's 1000 ms first turn, and no kernel
    here uses BLAS."""

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


def main(bot: Bot) -> None:
    """Play a bot on stdin/stdout after warming it up (its first turn waits for the warm-up: the
    project's registered bots start through `bots.volcanoes.launch` instead, which answers at once)."""
    with hiding_scipy():
        bot.warm_up()
    gc.collect()  # what the imports and compiles left, once, before the first turn
    gc.freeze()
    Player(bot, cold_start=True).run()
