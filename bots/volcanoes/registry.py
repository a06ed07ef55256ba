"""The project's Volcanoes bots by name: the one list that the arena, the referee's warm-up, the
bench and the bundler read.

Two kinds: the numba-side bots subclass `bots.volcanoes.base.Bot` and run as `python -m
bots.volcanoes.NAME`; the `pure-` bots are the pure-Python engine that `arena bundle` submits to
CodinGame (their interface is in `bots/volcanoes/pure/player.py`), runnable as `python -m
bots.volcanoes.pure.NAME`."""
from __future__ import annotations

import importlib

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
