"""The game contract: what the arena needs of a game, whatever the game.

A game plays one seed between N seats and says how it went (`Outcome`): each seat's rank, score and
error, why the game ended, each seat's time per turn where the arena kept the clock, each seat's
stderr per turn, what the game wants kept of it (a replay, the referee's summaries), and, where its
referee draws the game in a viewer of its own, the frames that viewer plays (`Frame`). Everything
above `arena/games/` (scheduling, the store, statistics, reports) reads only this: no module above
it knows which game it is running.

Two failures are told apart. A *bot's* failure (a timeout, an invalid answer, a crash, a bot that
cannot start) is that seat's loss, and the game counts, as on CodinGame. A *referee's* failure (it
crashed, hung, printed what its protocol does not allow, exited non-zero) is `RefereeFailure`: the
game did not happen, is recorded as a failure with its reason, and counts for nobody.
"""

from __future__ import annotations

import copy
import json
import math
import re
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Annotated

from annotated_types import Gt, Le

from referee.platform.errors import shorten
from referee.platform.options import MAX_MS, MAX_SECONDS

from arena.errors import UsageError

# Why a seat lost its game through its own fault (`Outcome.errors`), as CodinGame counts them.
BOT_ERRORS = ("timeout", "invalid", "crash", "start")
SEATS_KEY = "players"  # a game's `seats`, as its config (and arena.toml) names them


def seats_vary(kind) -> bool:
    """Whether a game's number of players (its class's, or a game's) is a setting, `--players N`, not
    one fixed number (Volcanoes' two)."""
    return any(f.name == "seats" for f in fields(kind))


# The types of a game's time settings: checked when a game is made (`arena.games.protocols.make`).
Milliseconds = Annotated[float, Gt(0), Le(MAX_MS)]
Seconds = Annotated[float, Gt(0), Le(MAX_SECONDS)]
# How deep a referee's JSON (a result, a log) may nest: far past any real one, and far enough below
# Python's recursion limit that storing it never fails (json.dumps recurses, from deep in a run).
MAX_NESTING = 100


@dataclass(frozen=True)
class Player:
    """What takes a seat: resolved once from what the user wrote (arena/players/), stored with the
    run, and handed to the game for each of its games."""

    label: str  # unique in a run, used in tables
    spec: str  # what the user wrote (without the label)
    kind: str  # which provider owns it: "bot" (a game's own, in-process); "git", "file" or "command" (a process)
    target: str  # for a process, its command line; for an in-process bot, what the game makes of it
    version: str  # recorded with every game: a run resumes only while it is unchanged
    cwd: str | None = None  # where a process runs (a pinned tree)


class GameError(UsageError, ValueError):
    """A game's settings that cannot be used (a mistake in arena.toml or on the command line); the
    message says which setting and why."""


class DamagedGame(ValueError):
    """A stored game no page can show (moves no game has, fields of no type, frames that do not
    inflate): the message says what is wrong with it."""


class RefereeFailure(Exception):
    """The referee failed, not a bot: the message says how (one line a person can act on), and
    `stderr` keeps the end of what the referee wrote on its stderr."""

    def __init__(self, message: str, stderr: str = ""):
        super().__init__(message)
        self.stderr = stderr


# A jar built on CodinGame's SDK 1.x to 4.4 (Guice 4, whose cglib defines classes through
# ClassLoader.defineClass) run on Java 16+ without java.lang opened to it says this, deep in a trace.
_CLOSED_JAVA_LANG = 'does not "opens java.lang"'
OPENS_HINT = "its JVM needs --add-opens java.base/java.lang=ALL-UNNAMED, as jars of CodinGame's SDK before 4.5 do"
_STACK_FRAME = re.compile(r"\s+(at |\.\.\. \d+ more)")


def is_finite_number(value) -> bool:
    """Whether `value` is a number that a float holds (not a bool, NaN, an infinity, or an integer of
    309 digits and more, which float() refuses)."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def nesting(value) -> int:
    """How deep lists and objects nest in the JSON value `value` (0 for a scalar), counted without
    recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            depth += 1
            deepest = max(deepest, depth)
            stack.extend((child, depth) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


class TooDeep(ValueError):
    """JSON nested deeper than MAX_NESTING."""


def json_of(text: str):
    """`text` as JSON: ValueError where it is not JSON, TooDeep where it nests deeper than MAX_NESTING."""
    try:
        value = json.loads(text)
    except RecursionError:  # deeper than Python reads
        raise TooDeep(f"nested more than {MAX_NESTING} deep") from None
    if nesting(value) > MAX_NESTING:
        raise TooDeep(f"nested more than {MAX_NESTING} deep")
    return value


def stderr_gist(stderr: str) -> str:
    """What of a failed referee's stderr goes in the one line that reports it: how to fix a JVM
    that needs java.lang opened, else its last line that is no stack frame ("" if none)."""
    if _CLOSED_JAVA_LANG in stderr:
        return OPENS_HINT
    last = next(
        (line.strip() for line in reversed(stderr.splitlines()) if line.strip() and not _STACK_FRAME.match(line)), ""
    )
    return f"its stderr ends: {shorten(last, 200)}" if last else ""


@dataclass
class Frame:
    """One frame of a game as its referee's viewer plays it: what the referee sent the viewer (`view`,
    opaque to the arena), what it said of the game then (`summary`, `tooltips`), and the turn whose
    answer led to it, as CodinGame's player shows a frame: `seat`'s answer in the round before
    (`output`, None where none came in time), what it was given then (`input`), what it wrote on
    stderr during that turn, its time. The first frame has no turn (`seat` None), nor has a frame
    that follows a round in which nobody was asked."""

    view: str  # the referee's view frame as sent (its lines joined by "\n": a header line, then data)
    summary: str = ""  # the game's summary lines of this frame (`$N` names player N)
    tooltips: list[tuple[str, int]] = field(default_factory=list)  # (text, the seat it concerns)
    seat: int | None = None
    input: list[str] = field(default_factory=list)
    expected: int = 0  # lines asked of it (0: given its input, no answer read)
    limit_ms: float | None = None
    output: list[str] | None = None
    stderr: str = ""
    ms: float | None = None  # its time, where the arena kept the clock

    def to_json(self) -> dict:
        """A JSON-ready dict, without the fields left at their defaults (a replay has hundreds)."""
        kept = {"view": self.view}
        for name, value in (("summary", self.summary), ("tooltips", [list(t) for t in self.tooltips])):
            if value:
                kept[name] = value
        if self.seat is not None:
            kept.update(seat=self.seat, input=self.input, expected=self.expected, output=self.output)
            for name in ("limit_ms", "ms"):
                if getattr(self, name) is not None:
                    kept[name] = getattr(self, name)
            if self.stderr:
                kept["stderr"] = self.stderr
        return kept


@dataclass
class Outcome:
    """How one game went, seat by seat (seat 0 is the first player: CodinGame's player 0)."""

    ranks: list[int]  # 0 is first; equal ranks are a tie. A seat with an error ranks below the others.
    scores: list[float | None]  # as the referee gave them (None where it gave none)
    errors: list[str | None]  # None, or one of BOT_ERRORS: that seat lost by its own fault
    reason: str  # why the game ended, one word: "score", "connection", "timeout", "max-turns", ...
    detail: str = ""  # one line for people ("player 1 timed out on turn 12")
    turns: int | None = None
    # Each seat's time for each turn it answered, in ms, first turn first; None where the arena did
    # not keep the clock (the referee ran the bots and timed them itself: protocol (A) and (B)).
    times_ms: list[list[float]] | None = None
    stderr: list[list[str]] | None = None  # per seat, per turn it played: what it wrote (bounded)
    # What a repeat of this seed must reproduce whatever the bots do: the first input each seat was
    # given, or what the referee says of the seed (its echo of it, its game parameters). None where
    # the game cannot say. `arena` compares two plays of one seed to find a referee that ignores seeds.
    fingerprint: str | None = None
    data: dict = field(default_factory=dict)  # game-specific, JSON-ready: moves, summaries, tdata/pdata
    referee_stderr: str = ""  # the end of what an external referee wrote on stderr (kept and shown)
    # Where a seat's timeout, its error, was the machine's fault (`referee.platform.lateness.late_by_machine`:
    # it, or the arena reading it, waited for a processor): one line saying who and how long. Where the
    # arena keeps the clock; such a game is no result of the bots' (the arena plays it again).
    late: str = ""
    # The frames of its referee's viewer, first to last, where the referee sends them (None: it
    # sends none). How many games of a run keep theirs is the run's choice (arena/play/replays.py).
    frames: list[Frame] | None = None

    @property
    def seats(self) -> int:
        return len(self.ranks)

    @classmethod
    def ranked(cls, scores: list[float | None], errors: list[str | None], detail: str, ranked_by=None, **rest):
        """The outcome of a game ranked by its scores (or by `ranked_by`, higher first: places made
        scores), a seat with an error below the others; its reason the first seat's error, else the
        score. `rest`: the other fields."""
        reason = next((error for error in errors if error is not None), "score")
        ranks = ranks_from_scores(scores if ranked_by is None else ranked_by, errors)
        return cls(ranks=ranks, scores=scores, errors=errors, reason=reason, detail=detail, **rest)


def ranks_from_scores(scores: list[float | None], errors: list[str | None] | None = None) -> list[int]:
    """Competition ranks (0 best; equal scores share a rank, the next rank skips) from scores,
    higher better; a seat with an error or without a score ranks below every seat without."""
    errors = errors or [None] * len(scores)

    def key(i: int) -> tuple[int, float]:
        broken = errors[i] is not None or scores[i] is None
        return (1, 0.0) if broken else (0, -float(scores[i]))

    keys = [key(i) for i in range(len(scores))]
    return [sum(other < mine for other in keys) for mine in keys]


def head_to_head(outcome_ranks: list[int], i: int, j: int) -> float:
    """What seat i scored against seat j in one game: 1, 0.5 or 0, from their ranks."""
    if outcome_ranks[i] == outcome_ranks[j]:
        return 0.5
    return 1.0 if outcome_ranks[i] < outcome_ranks[j] else 0.0


class Game(ABC):
    """A game the arena can run: our own referee in-process, or an external referee in one of the
    community's protocols. An instance is plain data (it travels to worker processes and Ray): its
    `config()` makes it again through `arena.games.protocols.make`. Written as a dataclass, its fields are its
    settings: `config()` and `make` read them."""

    protocol: str  # its key in arena.games.protocols.PROTOCOLS
    name: str
    seats: int  # players in one game
    # True when the referee runs the bots and keeps their clocks (protocols A and B): the arena then
    # sees no turn, reports no time per turn, and says so.
    timed_by_referee: bool = False
    # True when a seed is known to replay the same game (our own referee): no check before a run.
    replays_seeds: bool = False
    # What to fix where the referee turns out to ignore the seed (the arena's seed check).
    seed_advice: str = "give the referee the seed"

    @property
    def passes_seed(self) -> bool:
        """Whether the game can give its referee the seed at all (a json command without a seed
        placeholder cannot: its games are known unseeded before any is played)."""
        return True

    # Absolute paths the user declares present on every machine of a cluster (a JDK, a data folder):
    # a command may name them there, though they do not travel with the run (see `travels`).
    node_paths: Sequence[str] = ()

    def config(self) -> dict:
        """What makes this game again (`arena.games.protocols.make(config)`): JSON-ready, stored with a run.
        Its protocol and its dataclass fields (`seats` as SEATS_KEY)."""
        settings = {
            SEATS_KEY if f.name == "seats" else f.name: copy.deepcopy(getattr(self, f.name)) for f in fields(self)
        }
        return {"protocol": self.protocol, **settings}

    @abstractmethod
    def play(self, seed: int, players: list[Player], bot_seeds: list[int]) -> Outcome:
        """Play one game with `players[i]` in seat i. A bot's failure is in the outcome; a referee's
        is a `RefereeFailure`. Every process the game started is gone when it returns or raises."""

    def prepare(self, log) -> None:
        """Check, before any game, what the game itself needs (an external referee's program), saying
        what it does on `log`; a UserError for what the user must fix. Its players are prepared by
        their providers (arena/players/)."""
        return None

    def travels(self) -> list[str]:
        """The files and folders of this machine the game reads (an external referee's program, its
        folder), absolute: what travels with a run to machines that have none of them (a cluster's
        nodes), where each path it names is rewritten to that machine's copy. [] for none."""
        return []

    def replay_page(self, record: dict) -> str | None:
        """A page showing one stored game (None: the report shows its record alone); DamagedGame
        for a record that no page can show."""
        return None

    def sends_frames(self) -> bool:
        """Whether its referee sends the frames of a viewer of its own (`Outcome.frames`)."""
        return False

    def viewer_paths(self) -> list[str]:
        """Where the files of its referee's viewer are: jars or class-path folders, each of which may
        hold a `view/` folder, in class-path order (arena/web/viewer.py says which wins where two
        hold one file); [] where it has none."""
        return []
