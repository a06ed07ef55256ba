"""The project's Volcanoes bots by name: what `python -m bots.volcanoes.NAME` runs."""
from __future__ import annotations

import importlib

# name -> (module, class); each module also runs as `python -m bots.volcanoes.NAME`.
BOTS = {
    "random": ("bots.volcanoes.random", "RandomBot"),
    "boss": ("bots.volcanoes.boss", "BossBot"),
    "greedy": ("bots.volcanoes.greedy", "GreedyBot"),
    "uct": ("bots.volcanoes.uct", "UctBot"),
    "mcts": ("bots.volcanoes.mcts", "MctsBot"),
    "alphabeta": ("bots.volcanoes.alphabeta", "AlphaBetaBot"),
}


def bot_class(name: str):
    """The class of a registered bot; a KeyError names the known bots."""
    try:
        module, cls = BOTS[name]
    except KeyError:
        raise KeyError(f"no bot named {name!r}; known bots: {', '.join(BOTS)}") from None
    return getattr(importlib.import_module(module), cls)


# The pure-Python bot that plays for a registered bot while its process imports numba and loads its
# kernels (`bots.volcanoes.launch`): the strongest pure engine, but a random bot stays random.
STAND_INS = {"random": ("bots.volcanoes.pure.random", "RandomBot")}
DEFAULT_STAND_IN = ("bots.volcanoes.pure.mcts", "MCTSBot")


def stand_in(name: str):
    """A new stand-in for registered bot `name` (pure Python: it imports without numba)."""
    module, cls = STAND_INS.get(name, DEFAULT_STAND_IN)
    return getattr(importlib.import_module(module), cls)()
