"""Analyse games: search every position of a replay with an engine at a fixed budget, and the
position after the engine's move, on every core, and add the values and preferred moves to the replay (`referee.volcanoes.analysis` says which
positions and what the replay gains; the page draws them).

The budget is a number of search iterations, not seconds, and every position is searched from a
fresh, reseeded tree: the same replay gets the same analysis on any machine, whatever its load.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np

from referee.platform.pools import cores, end_pool, start_pool, worker_start_method
from referee.volcanoes import analysis
from referee.volcanoes.board import N_TILES

from .registry import ANALYSIS_ENGINE, ANALYSIS_ITERATIONS, BOTS, bot_class
from .state import GameState


def engines() -> list[str]:
    """The registered bots that can analyse: those with `evaluate(state, iterations)`."""
    return [name for name in BOTS if hasattr(bot_class(name), "evaluate")]


_engine = None  # this process's engine (one per worker)


def _load(engine: str, seed: int) -> None:
    global _engine
    _engine = bot_class(engine)(seed=seed)
    _engine.warm_up()


def _search(position: analysis.Position, iterations: int) -> tuple[int, float]:
    levels = np.array(position.levels, dtype=np.int8)
    dormant = np.zeros(N_TILES, dtype=np.bool_)
    dormant[position.dormant] = True
    return _engine.evaluate(GameState(levels, dormant, position.turns_played), iterations)


def _evaluate(position: analysis.Position, iterations: int) -> tuple[int, int, float, float]:
    """(frame, the engine's move, blue's value of the position, blue's value after that move)."""
    tile, value = _search(position, iterations)
    following = analysis.after(position, tile) if tile >= 0 else value
    after_best = following if isinstance(following, float) else _search(following, iterations)[1]
    return position.frame, tile, value, after_best


class Analyser:
    """An engine on `workers` processes (1: this process), ready for many games: warm once, then
    `analyse` replay after replay. Use it as a context manager."""

    def __init__(
        self,
        engine: str = ANALYSIS_ENGINE,
        iterations: int = ANALYSIS_ITERATIONS,
        workers: int | None = None,
        seed: int = 0,
    ):
        if engine not in engines():
            raise ValueError(f"{engine} cannot analyse games; engines that can: {', '.join(engines())}")
        if iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations}")
        self.engine, self.iterations = engine, iterations
        workers = workers or cores()
        self._pool = None
        if workers == 1 or worker_start_method() == "fork":
            _load(engine, seed)  # here: the engine's kernels, which forked workers then have loaded
        if workers > 1:
            self._pool = start_pool(workers, _load, (engine, seed))

    def __enter__(self) -> Analyser:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self._pool is not None:
            end_pool(self._pool)
            self._pool = None

    def _answers(self, found: list[analysis.Position]) -> Iterable[tuple[int, int, float, float]]:
        iterations = [self.iterations] * len(found)
        if self._pool is None:
            return map(_evaluate, found, iterations)
        return self._pool.map(_evaluate, found, iterations)

    def analyse(self, replay: dict, progress: Callable[[int, int], None] | None = None) -> dict:
        """The replay with its analysis; `progress(done, total)` after each position."""
        found = analysis.positions(replay)
        answers = {}
        for frame, *answer in self._answers(found):
            answers[frame] = tuple(answer)
            if progress:
                progress(len(answers), len(found))
        return analysis.annotate(replay, answers, self.engine, self.iterations)
