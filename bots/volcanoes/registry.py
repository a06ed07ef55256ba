"""The project's Volcanoes bots by name: the one list that the arena, the referee's warm-up, the
bench and the bundler read. One record a bot: its module and class, its parameters (typed, with
defaults and ranges), where it stands on the default ladder, and its stand-in; `parse` reads a bot as
a user writes it (`mcts:c=0.2,ms=300`) and `make` builds one.

Every bot implements `bots.volcanoes.bot.Bot` and runs as `python -m MODULE`, the numba engines'
through `bots.volcanoes.launch`. The `pure-` bots are the pure-Python engine (`bots/volcanoes/pure`)
that `arena bundle` submits to CodinGame.

To add a bot: its record in BOTS (the constructor takes its parameters as keyword arguments, besides
`seed`, and reads its defaults here with `defaults(NAME)`).
"""

from __future__ import annotations

import importlib
import math
from dataclasses import dataclass, field

from bots.volcanoes.bot import Bot
from bots.volcanoes.pure import mcts as pure_mcts  # pure Python: the bundled bot declares its own
from referee.platform.limits import TURN_MS


@dataclass(frozen=True)
class Parameter:
    """A declared option of a registered bot: its constructor takes it as a keyword argument, typed,
    within [low, high]."""

    name: str
    default: float
    low: float
    high: float
    type: type = float

    def parse(self, text: str):
        """The value of `text`; a ValueError says what is wrong in one line."""
        try:
            value = self.type(text)
        except ValueError:
            raise ValueError(f"{self.name}={text!r} is not {self._kind}") from None
        return self._in_range(value, text)

    def check(self, value):
        """`value`, typed (an int for an integer parameter, a float for a number), when it is one and
        in range; a ValueError says what is wrong in one line."""
        whole = isinstance(value, int) or (isinstance(value, float) and value.is_integer())
        if isinstance(value, bool) or not isinstance(value, int | float) or (self.type is int and not whole):
            raise ValueError(f"{self.name}={value!r} is not {self._kind}")
        return self._in_range(self.type(value), value)

    @property
    def _kind(self) -> str:
        return "an integer" if self.type is int else "a number"

    def _in_range(self, value, shown):
        if not (self.low <= value <= self.high) or value != value:
            raise ValueError(f"{self.name}={shown} is out of range [{self.low:g}, {self.high:g}]")
        return value


PURE_PREFIX = "pure-"  # the pure-Python engine's bots (`bots/volcanoes/pure`)
DEFAULT_STAND_IN = "pure-mcts"


@dataclass(frozen=True)
class Record:
    """One registered bot: everything the project says of it, in one place."""

    name: str
    module: str  # runs as `python -m MODULE` too
    cls: str  # the class in it, a `bots.volcanoes.bot.Bot`
    # Its parameters: the constructor takes them as keyword arguments (besides `seed`) and reads its
    # defaults here (`defaults(NAME)`). Why each default is what it is: docs/experiments/<bot>.md.
    parameters: tuple[Parameter, ...] = ()
    ladder: int | None = None  # its rung on the default tournament's ladder (0 the strongest); None: off it
    # The pure-Python bot that plays for it while its process imports numba and loads its kernels
    # (`bots.volcanoes.launch`): the strongest pure engine, but a random bot stays random.
    stand_in: str = DEFAULT_STAND_IN

    @property
    def pure(self) -> bool:
        """Whether it is of the pure-Python engine (no numba, no warm-up)."""
        return self.name.startswith(PURE_PREFIX)


# Every registered bot, by name. The pure-mcts bot declares its options in its own module: the bundled
# file carries no registry.
BOTS = {
    record.name: record
    for record in (
        Record("random", "bots.volcanoes.random", "RandomBot", ladder=6, stand_in="pure-random"),
        Record("boss", "bots.volcanoes.boss", "BossBot", ladder=5),
        Record("greedy", "bots.volcanoes.greedy", "GreedyBot", ladder=4),
        Record("uct", "bots.volcanoes.uct", "UctBot", (Parameter("c", math.sqrt(2), 0.0, 10.0),), ladder=2),
        Record(
            "mcts",
            "bots.volcanoes.mcts",
            "MctsBot",
            (
                Parameter("c", 0.1026, 0.0, 10.0),
                Parameter("rave_k", 304.0, 0.0, 1e7),
                Parameter("expand", 1, 1, 100, int),  # a leaf's visits before it gets children
                Parameter("first_turn", 0.3, 0.0, 1.0),  # the most seconds searched on a game's first turn
                Parameter("time_fraction", 0.9, 0.05, 1.0),  # the share of a turn's budget searched
                Parameter("iterations", 0, 0, 10_000_000, int),  # a fixed search a turn (0: by the clock)
                Parameter("first_play", 0.6, 0.0, 1e9),  # RAVE's value of a child nothing has valued yet
                Parameter("capacity", 1 << 21, 1 << 10, 1 << 24, int),  # rows of each tree
                Parameter("reuse", 1, 0, 1, int),  # keep the subtree of the position shown next
                Parameter("opening", 1, 0, 1, int),  # the pure engine's opening book while the game is on it
            ),
            ladder=0,
        ),
        # a transposition table of 2**tt_bits entries
        Record(
            "alphabeta", "bots.volcanoes.alphabeta", "AlphaBetaBot", (Parameter("tt_bits", 18, 10, 24, int),), ladder=1
        ),
        Record(
            "pure-mcts",
            "bots.volcanoes.pure.mcts",
            "MCTSBot",
            tuple(
                Parameter(name, default, low, high, type(default))
                for name, (default, low, high) in pure_mcts.OPTIONS.items()
            ),
            ladder=3,
        ),
        Record("pure-random", "bots.volcanoes.pure.random", "RandomBot"),
    )
}
# The default tournament, a ladder over the whole range of strength, strongest first: the engines,
# the pure-Python submission, the baselines.
LADDER = tuple(sorted((r.name for r in BOTS.values() if r.ladder is not None), key=lambda name: BOTS[name].ladder))

# `NAME:ms=300`: a bot's own turn limit in ms (time odds; its first turn scales alike). Not a
# parameter of the bot: the referee's limit for its seat, which the adapter budgets the bot from.
TIME_OPTION = "ms"
TIME_LIMIT = Parameter(TIME_OPTION, TURN_MS, 1.0, 600_000.0)


def parameters(name: str) -> tuple[Parameter, ...]:
    """The declared parameters of registered bot `name`."""
    return BOTS[name].parameters if name in BOTS else ()


def defaults(name: str) -> dict:
    """The default value of each parameter of registered bot `name`."""
    return {p.name: p.default for p in parameters(name)}


def parse_options(name: str, text: str, time_option: bool = False) -> dict:
    """`c=0.3,rave_k=2000` -> {"c": 0.3, "rave_k": 2000.0} for registered bot `name` (and `ms=300`
    -> {"ms": 300.0} with `time_option`); a ValueError says in one line which option is unknown,
    malformed, out of range or given twice."""
    declared = {p.name: p for p in parameters(name)}
    known = ", ".join(declared) or "none"
    if time_option:
        declared[TIME_OPTION] = TIME_LIMIT
    options = {}
    for item in text.split(","):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"{name}: option {item!r} is not NAME=VALUE")
        if key not in declared:
            raise ValueError(f"{name} has no option {key!r} (its options: {known})")
        if key in options:
            raise ValueError(f"{name}: option {key!r} is given twice")
        options[key] = declared[key].parse(value.strip())
    return options


@dataclass(frozen=True)
class Spec:
    """A registered bot as a user writes it, typed once: `mcts`, `mcts:c=0.2,ms=300`."""

    name: str
    options: dict = field(default_factory=dict)  # parameters given, typed (the others: defaults)
    turn_ms: float | None = None  # its own turn limit (`ms`), or None: the run's

    @property
    def options_text(self) -> str:
        """The options written canonically (sorted, typed values, `ms` among them: `c=0.2,ms=300.0`),
        so that equal options read alike: part of the version the arena records with each game."""
        given = dict(self.options, **({TIME_OPTION: self.turn_ms} if self.turn_ms is not None else {}))
        return ",".join(f"{key}={given[key]!r}" for key in sorted(given))

    def __str__(self) -> str:
        """`NAME` or `NAME:OPTIONS`, canonical (`parse` reads it back)."""
        return f"{self.name}:{self.options_text}" if self.options or self.turn_ms is not None else self.name

    def make(self, seed: int | None = None) -> Bot:
        return make(self.name, self.options, seed)


def parse(text: str) -> Spec:
    """`mcts:c=0.2,ms=300` -> Spec("mcts", {"c": 0.2}, 300.0); a ValueError says in one line what is
    wrong: not a registered bot, an option unknown, malformed, out of range or given twice."""
    name, colon, options_text = text.partition(":")
    if name not in BOTS:
        raise ValueError(f"no bot named {name!r}; known bots: {', '.join(BOTS)}")
    options = parse_options(name, options_text, time_option=True) if colon else {}
    turn_ms = options.pop(TIME_OPTION, None)
    return Spec(name, options, turn_ms)


def make(name: str, options: dict | None = None, seed: int | None = None) -> Bot:
    """A new bot `name` with typed `options` (its other parameters at their defaults) and `seed`. A
    KeyError names the known bots; a ValueError says which option is unknown or not a value it takes."""
    cls = bot_class(name)
    declared = {p.name: p for p in parameters(name)}
    checked = {}
    for key, value in (options or {}).items():
        if key not in declared:
            raise ValueError(f"{name} has no option {key!r} (its options: {', '.join(declared) or 'none'})")
        checked[key] = declared[key].check(value)
    return cls(seed=seed, **checked)


def is_pure(name: str) -> bool:
    """Whether registered bot `name` is of the pure-Python engine (no numba, no warm-up)."""
    return BOTS[name].pure


def bot_class(name: str):
    """The class of a registered bot; a KeyError names the known bots."""
    try:
        record = BOTS[name]
    except KeyError:
        raise KeyError(f"no bot named {name!r}; known bots: {', '.join(BOTS)}") from None
    return getattr(importlib.import_module(record.module), record.cls)


# `arena analyse` (bots/volcanoes/analyse.py): the bot that searches every position of a game, and
# its budget per search, in iterations (about 0.1-0.4 s of one core each for mcts; two a position).
ANALYSIS_ENGINE = "mcts"
ANALYSIS_ITERATIONS = 20_000


def stand_in(name: str):
    """A new stand-in for registered bot `name` (pure Python: it imports without numba)."""
    return bot_class(BOTS[name].stand_in)()
