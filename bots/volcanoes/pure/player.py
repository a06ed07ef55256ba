"""The CodinGame adapter for pure-Python bots: the same protocol as `bots/volcanoes/base.py`'s
`Player`, without numba (whose kernels `Player` tracks positions with), so a bundled bot runs on
the judge as it runs here.

CodinGame's lines do not say whose seat it is, where in the blue-orange-growth cycle the game
stands, nor which volcanoes are dormant; this adapter tracks the first two and reads the third off
the levels (dormant exactly when |level| == 4 at a turn boundary). A pure bot implements
`start(colour)` and `choose(board, turns_played, deadline) -> tile`, where `board` is a
`pure.rules` board (bytearray of cells, blue positive), `turns_played` counts growth turns too, and
`deadline` is a `time.perf_counter()` instant.
"""

from __future__ import annotations

import gc
import sys
import time
from contextlib import contextmanager

from referee.clock import waited_for_cpu
from referee.errors import InputFormatError
from referee.volcanoes.board import N_TILES, NAMES

from . import rules

# Thinking time, counted from reading the turn's first line. CodinGame allows 100 ms a turn and
# 1000 ms for the first, which also pays for the interpreter's start and the imports (up to 0.6 s
# on a busy machine); the margins cover pipes and a shared CPU's scheduling. The referee measured
# the bundle's turns at most 9 ms over this budget (30 games against boss, 166 turns, on 2 cores
# at load 6: 60 ms gave 68 ms at most, 70 gave 78.5, 75 gave 83.9); each 10 ms more of search is
# about 15% more iterations.
TURN_SECONDS = 0.075
FIRST_TURN_SECONDS = 0.150


class PurePlayer:
    """One bot's side of the protocol, one game at a time: lines in, a tile name out."""

    def __init__(self, bot, turn_seconds: float = TURN_SECONDS, first_turn_seconds: float = FIRST_TURN_SECONDS):
        self.bot = bot
        self.turn_seconds = turn_seconds
        self.first_turn_seconds = first_turn_seconds
        self.colour = 0
        self.turn = 0  # the 1-based number of the turn we are asked to play

    def answer(self, lines: list[str], started: float | None = None) -> str:
        """Answer one turn's lines (the init block first on a game's first turn)."""
        started = time.perf_counter() if started is None else started
        if lines[0].strip() == str(N_TILES):  # the init block: a new game
            lines = lines[N_TILES + 1 :]
            self.turn = 0
        if len(lines) < 2:
            raise InputFormatError("a turn is a position line and a line of valid moves")
        try:
            observed = [int(x) for x in lines[0].split()]
        except ValueError:
            observed = []
        if len(observed) != N_TILES or not all(-4 <= x <= 4 for x in observed):
            raise InputFormatError(f"a position line holds {N_TILES} levels from -4 to 4, not {lines[0][:60]!r}")
        first_turn = self.turn == 0
        if first_turn:  # blue moves first, on an empty board
            self.colour = rules.BLUE if not any(observed) else rules.ORANGE
            self.turn = 1 if self.colour == rules.BLUE else 2
            self.bot.start(self.colour)
        else:  # blue plays turns 1, 5, 7, 11, ...; orange 2, 4, 8, 10, ...
            self.turn += 4 if self.turn % 6 in (1, 4) else 2
        board = rules.from_levels([x * self.colour for x in observed])
        if not rules.legal_moves(board, self.colour):
            raise InputFormatError(f"no legal move in this position: {lines[0][:60]!r}")
        limit = self.first_turn_seconds if first_turn else self.turn_seconds
        tile = int(self.bot.choose(board, self.turn - 1, started + limit))
        return NAMES[tile]

    def run(self, stdin=sys.stdin, stdout=sys.stdout) -> None:
        """Play on stdin/stdout until the input ends."""
        with ending_on_bad_input(self.bot.name):
            for lines, started in read_turns(stdin):
                print(self.answer(lines, started), file=stdout, flush=True)


def read_turns(stdin):
    """Each turn's lines from CodinGame's input (the init block first on a game's first turn) and
    the `time.perf_counter()` instant its first line arrived (read, less the time this process then
    waited for a processor: `referee.clock`), until the input ends; InputFormatError when it
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


def main(bot) -> None:
    """Entry point of a pure bot's module (and of its bundle): play on stdin/stdout.

    The cyclic garbage collector is off: a search tree is a few thousand objects without cycles,
    and a collection in the middle of a turn is a pause the turn cannot afford."""
    gc.disable()
    PurePlayer(bot).run()
