"""The project's Volcanoes bots by name: the one list that the arena, the referee's warm-up, the
bench and the bundler read.

Two kinds: the numba-side bots subclass `bots.volcanoes.base.Bot` and run as `python -m
bots.volcanoes.NAME`; the `pure-` bots are the pure-Python engine that `arena bundle` submits to
CodinGame (their interface is in `bots/volcanoes/pure/player.py`), runnable as `python -m
bots.volcanoes.pure.NAME`."""

from __future__ import annotations

import importlib
import math
from dataclasses import dataclass

from bots.volcanoes.pure import mcts as pure_mcts  # pure Python: the bundled bot keeps its defaults

PURE_PREFIX = "pure-"
# name -> (module, class); each module also runs as `python -m MODULE`.
BOTS = {
    "random": ("bots.volcanoes.random", "RandomBot"),
    "boss": ("bots.volcanoes.boss", "BossBot"),
    "greedy": ("bots.volcanoes.greedy", "GreedyBot"),
    "uct": ("bots.volcanoes.uct", "UctBot"),
    "mcts": ("bots.volcanoes.mcts", "MctsBot"),
    "alphabeta": ("bots.volcanoes.alphabeta", "AlphaBetaBot"),
    "pure-mcts": ("bots.volcanoes.pure.mcts", "MCTSBot"),
    "pure-random": ("bots.volcanoes.pure.random", "RandomBot"),
}


@dataclass(frozen=True)
class Parameter:
    """A tunable option of a registered bot: its constructor takes it as a keyword argument."""

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
            raise ValueError(
                f"{self.name}={text!r} is not {'an integer' if self.type is int else 'a number'}"
            ) from None
        if not (self.low <= value <= self.high) or value != value:
            raise ValueError(f"{self.name}={text} is out of range [{self.low:g}, {self.high:g}]")
        return value


# name -> its tunable parameters (the one place their defaults are written; the bots read them here,
# but for pure-mcts, whose defaults are its module's: the bundled file has no registry).
PARAMETERS: dict[str, tuple[Parameter, ...]] = {
    "uct": (Parameter("c", math.sqrt(2), 0.0, 10.0),),
    # mcts's c and rave_k: SPSA (`arena tune mcts --params c=0.03:0.6,rave_k=200:10000,expand=1:8`,
    # 1700 games) from 0.2 and 3000; then `arena sprt tuned=mcts:c=0.1026,rave_k=304 mcts --elo0 0
    # --elo1 15`: H1 after 980 games, +35 Elo [+12, +58], no timeout. Tuned again with first_play
    # and reuse (`arena tune mcts --params c=0.02:0.4,rave_k=50:3000,first_play=0.3:0.9
    # --iterations 250 --seed 3201`, 2,000 games: c 0.14, rave_k 89, first_play 0.60), then `arena
    # sprt "mcts:c=0.14,rave_k=90" mcts --elo0 0 --elo1 15 --seed 3202`: +6 Elo [-11, +22] after
    # 798 pairs, undecided (2 games on 2 cores), so the defaults stay; against uct (`arena match
    # "mcts:c=0.14,rave_k=90" uct --pairs 150 --seed 3702`) 92.7%, where the defaults scored 92.0%.
    # Tuned against uct itself (`arena tune mcts --params c=0.03:0.4,rave_k=50:3000,first_play=0.3:0.9
    # --opponent uct --iterations 250 --seed 3901`, 4,000 games, both sides 92.4%): c 0.0705, rave_k
    # 344, first_play 0.66; then, on the same seeds (`arena match ... uct --pairs 250 --seed 3903`),
    # 92.1% (+427 Elo [+374, +498]) where the defaults scored 91.7% (+417 [+368, +482]): the
    # defaults stay, near the optimum against uct as against mcts.
    "mcts": (
        Parameter("c", 0.1026, 0.0, 10.0),
        Parameter("rave_k", 304.0, 0.0, 1e7),
        Parameter("expand", 1, 1, 100, int),
        # first_turn 0.8 (of the first turn's 1000 ms) with time_fraction 1.0, against uct: 95.05%
        # (1898-6-96) where the defaults scored 94.2% on the 1,000 pairs of seed 4500, and 93.6%
        # (1867-10-123; the kept subtree rerooted in place, see mcts.py) where they scored 93.2%
        # (1862-4-134) on those of seed 4800 (`arena match mcts:first_turn=0.8,time_fraction=1.0
        # uct --pairs 1000 --seed S`, 2 games on 2 cores, no timeout, max 81.2 ms, first turn 824
        # ms): +0.64 points [-0.40, +1.67] a pair over the 2,000 pairs, undecided: the defaults stay.
        Parameter("first_turn", 0.3, 0.0, 1.0),
        # time_fraction: the share of the turn's 70 ms searched. `arena sprt mcts:time_fraction=0.9
        # mcts --elo0 0 --elo1 15 --workers 2 --seed 2701`: H1 after 1,777 games, +21 Elo [+5, +37],
        # no timeout (max 66.7 ms, 2 games on 2 cores); uct keeps 0.75. 1.0 against uct (`arena match
        # mcts:time_fraction=1.0 uct --pairs 1000 --seed 4500`): 94.5% (1888-3-109), where 0.9 scored
        # 94.2% (1883-1-116) on the same seeds, max 77.9 ms, no timeout: 0.9 stays.
        Parameter("time_fraction", 0.9, 0.05, 1.0),
        Parameter("iterations", 0, 0, 10_000_000, int),
        # first_play: RAVE's value of a child that neither visits nor AMAF have valued yet; 1e9 tried
        # every such child before any other. `arena match "mcts:iterations=6000,first_play=0.6"
        # "mcts:iterations=6000" --pairs 100 --seed 3001`: +91 Elo [+45, +139] (1.0: +76 [+31, +123]);
        # then `arena sprt mcts:first_play=0.6 mcts --elo0 0 --elo1 15 --workers 2 --seed 3002`: H1
        # after 173 pairs, +83 Elo [+44, +123], no timeout (2 games on 2 cores). Against 0.6 at 6,000
        # iterations (seed 3003, 100 pairs each), 0.4 scored +16 [-36, +68] and 0.8 -19 [-67, +28].
        Parameter("first_play", 0.6, 0.0, 1e9),
        # reuse: keep the subtree of the position shown next between turns, in a tree of `capacity`
        # rows (of 44 bytes; a second tree takes the kept part). At 1 << 19 rows the tree often filled
        # within a turn. `arena sprt "mcts:reuse=1,capacity=2097152" mcts --elo0 0 --elo1 15
        # --workers 2 --seed 3103`: H1 after 553 pairs, +28 Elo [+8, +47], no timeout (2 games on 2
        # cores). Alone, neither decided: capacity=2097152 +7 [-11, +24] (691 pairs, seed 3101),
        # reuse=1 +0 [-25, +25] (364 pairs, seed 3102).
        Parameter("capacity", 1 << 21, 1 << 10, 1 << 24, int),
        Parameter("reuse", 1, 0, 1, int),
        # opening: the pure engine's opening book (`pure/book.py`: numba mcts's own long searches, on
        # every line the opponent can choose, up to orange's fourth move) while the game is on it.
        # `arena sprt mcts:opening=1 mcts --elo0 0 --elo1 15 --workers 2 --seed 3428`: H1 after 190
        # pairs, +60 Elo [+28, +92], no timeout (2 games on 2 cores). Against uct, `arena match
        # mcts:opening=1 uct --pairs 1000 --seed 4800`: 95.6% (1911-3-86: 98.0% as orange, 93.3% as
        # blue) where mcts without it scored 93.2% on the same 1,000 pairs, +2.43 points [+1.04,
        # +3.81] a pair, no timeout (2 games on 2 cores); 150 pairs (seed 3429) had shown 91.3%
        # against 93.7%, too few to tell. On by default since (the run that confirmed it: mcts.py's
        # docstring, at its end). Two booked players play the book's one line in every game up to
        # its end (turn 10): `opening=0` on either side varies openings.
        Parameter("opening", 1, 0, 1, int),
    ),
    # iterations=N (mcts, pure-mcts) searches exactly N a turn (0: by the clock), for comparisons
    # that must not depend on the machine's speed.
    "pure-mcts": (
        Parameter("exploration", pure_mcts.EXPLORATION, 0.0, 10.0),
        Parameter("rave_bias", pure_mcts.RAVE_BIAS, 0.0, 100.0),
        Parameter("iterations", 0, 0, 1_000_000, int),
        Parameter("decisive", 1, 0, 1, int),
        Parameter("solver", 1, 0, 1, int),
        Parameter("prior", pure_mcts.PRIOR_VISITS, 0, 1000, int),
        Parameter("prior_own", pure_mcts.PRIOR_NEAR_OWN, 0.0, 1.0),
        Parameter("prior_enemy", pure_mcts.PRIOR_NEAR_ENEMY, 0.0, 1.0),
        Parameter("prior_alone", pure_mcts.PRIOR_ALONE, 0.0, 1.0),
        Parameter("prior_raise", pure_mcts.PRIOR_LONE_RAISE, 0.0, 1.0),
        Parameter("prior_erupting", pure_mcts.PRIOR_BESIDE_ERUPTING, 0.0, 1.0),
        Parameter("prior_strike", pure_mcts.PRIOR_STRIKE, 0.0, 1.0),
        Parameter("opening", 1, 0, 1, int),
    ),
}


def defaults(name: str) -> dict:
    """The default value of each tunable parameter of registered bot `name`."""
    return {p.name: p.default for p in PARAMETERS.get(name, ())}


def parse_options(name: str, text: str) -> dict:
    """`c=0.3,rave_k=2000` -> {"c": 0.3, "rave_k": 2000.0} for registered bot `name`; a ValueError
    says in one line which option is unknown, malformed or out of range."""
    declared = {p.name: p for p in PARAMETERS.get(name, ())}
    known = ", ".join(declared) or "none"
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


def is_pure(name: str) -> bool:
    """Whether registered bot `name` is of the pure-Python engine (no numba, no warm-up)."""
    return name.startswith(PURE_PREFIX)


def bot_class(name: str):
    """The class of a registered bot; a KeyError names the known bots."""
    try:
        module, cls = BOTS[name]
    except KeyError:
        raise KeyError(f"no bot named {name!r}; known bots: {', '.join(BOTS)}") from None
    return getattr(importlib.import_module(module), cls)


# The pure-Python bot that plays for a registered bot while its process imports numba and loads its
# kernels (`bots.volcanoes.launch`): the strongest pure engine, but a random bot stays random.
STAND_INS = {"random": "pure-random"}
DEFAULT_STAND_IN = "pure-mcts"


def stand_in(name: str):
    """A new stand-in for registered bot `name` (pure Python: it imports without numba)."""
    return bot_class(STAND_INS.get(name, DEFAULT_STAND_IN))()
