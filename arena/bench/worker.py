"""The measuring side of `arena bench`: runs inside one version of the project and times its kernels.

`arena bench` starts one worker per version (the working tree, a git revision extracted to a cache, a
saved tree), each as `python -c` with that version's root first on sys.path, and asks them in turn
for one figure at a time (one JSON object a line on stdin, one answer a line on stdout). This file is
the same for both versions (it is the current tree's, read and run in the other tree), so only the
measured code differs, never the way it is measured. Hence only the standard library at the top: the
project's modules are imported inside each figure, from the version under test.

Every figure is a rate per CPU second of this process (`time.process_time`): the workloads are
single-threaded loops, so CPU time is the honest measure, and time spent waiting for a core on a
shared machine does not count against them (cache and frequency effects still do; `arena bench`
pairs and repeats rounds for those).
"""

from __future__ import annotations

import gzip
import importlib
import json
import signal
import sys
import time
import traceback
from pathlib import Path

ROOT = Path.cwd().resolve()  # the version under test; `arena bench` starts the worker there


class Unavailable(Exception):
    """This version has no such workload (an older or newer layout): the figure is skipped."""


def _project_module(name: str):
    """Import `name` from the version under test, never from another install of the project (an
    editable install would otherwise fill in a package this version lacks)."""
    try:
        module = importlib.import_module(name)
    except ImportError as exc:
        raise Unavailable(f"no {name}: {exc}") from exc
    if not Path(module.__file__).resolve().is_relative_to(ROOT):
        raise Unavailable(f"{name} is not part of this version ({module.__file__})")
    return module


def _first_module(*names: str):
    """The first of `names` that the version under test has (its layout changed over time)."""
    for name in names[:-1]:
        try:
            return _project_module(name)
        except Unavailable:
            pass
    return _project_module(names[-1])


def _rate(batch, seconds: float) -> float:
    """Units of work per CPU second: `batch()` (returns units done) repeated for about `seconds`."""
    batch()  # warm: caches, allocations, a numba cache load
    done, clock = 0, time.process_time
    start = clock()
    while True:
        done += batch()
        spent = clock() - start
        if spent >= seconds:
            return done / spent


# ---------------------------------------------------------------- the figures


def pure_playouts(seconds: float, **_) -> float:
    """The pure-Python engine (the one that plays on CodinGame): its own benchmark function."""
    bench = _project_module("bots.volcanoes.pure.bench")
    bench.playouts_per_second(min(seconds, 0.05))  # warm
    return bench.playouts_per_second(seconds)


def _numba_playouts(seconds: float, decisive: bool) -> float:
    playout = _first_module(
        "arena.bench.playout_baseline",
        "arena.playout_baseline",  # a version from before the arena's folders (1540db3)
    )
    rules = _project_module("referee.volcanoes.rules")
    try:
        playout.warm_up()
        playout.seed(1)
        levels, dormant = rules.new_state()
        scratch = playout.new_scratch()
    except (AttributeError, TypeError) as exc:
        raise Unavailable(f"{playout.__name__}'s interface differs: {exc}") from exc
    count = 64 if decisive else 256

    def batch():
        playout.playouts_from(levels, dormant, 0, count, decisive, scratch)
        return count

    return _rate(batch, seconds)


def _bitboard_playouts(seconds: float, decisive: bool) -> float:
    bitboard = _project_module("bots.volcanoes.search.bitboard")
    try:
        bitboard.warm_up()
        board, scratch, rng = bitboard.new_board(), bitboard.new_scratch(), bitboard.new_rng(1)
    except (AttributeError, TypeError) as exc:
        raise Unavailable(f"search.bitboard's interface differs: {exc}") from exc
    count = 64 if decisive else 256

    def batch():
        bitboard.playouts_from(board, 0, count, decisive, scratch, rng)
        return count

    return _rate(batch, seconds)


def bitboard_playouts(seconds: float, **_) -> float:
    """The bitboard core's jitted playout loop (issue 21), beside the older `numba_playouts`."""
    return _bitboard_playouts(seconds, False)


def bitboard_decisive_playouts(seconds: float, **_) -> float:
    return _bitboard_playouts(seconds, True)


def numba_playouts(seconds: float, **_) -> float:
    """The older jitted playout loop (`arena/bench/playout_baseline.py`; uniform random legal moves, the
    loop inside jitted code), the baseline of `bitboard_playouts`."""
    return _numba_playouts(seconds, False)


def numba_decisive_playouts(seconds: float, **_) -> float:
    """The same loop with mcts's decisive moves."""
    return _numba_playouts(seconds, True)


def rules_playouts(seconds: float, **_) -> float:
    """The rules engine's own `random_playout` kernel, called once a playout from Python (the
    search's loop keeps the loop inside jitted code: this shows what that saves)."""
    rules = _project_module("referee.volcanoes.rules")
    seed = [0]

    def batch():
        for _ in range(16):
            seed[0] += 1
            levels, dormant = rules.new_state()
            rules.random_playout(levels, dormant, 0, rules.MAX_TURNS, seed[0])
        return 16

    try:
        rules.warm_up()
    except AttributeError as exc:
        raise Unavailable(f"referee.volcanoes.rules' interface differs: {exc}") from exc
    return _rate(batch, seconds)


def referee_turns(seconds: float, **_) -> float:
    """Turns per CPU second of whole games between two random bots through the referee: the
    referee's own overhead, the rules, and the in-process adapter."""
    registry = _project_module("bots.volcanoes.registry")
    match = _project_module("referee.volcanoes.match")
    try:
        open_seat = _project_module("bots.volcanoes.seat").open_seat
    except Unavailable:  # a version from before the one adapter (1540db3 and older)
        open_seat = _project_module("bots.volcanoes.base").InProcessSeat
    seed = [0]

    def batch():
        seed[0] += 1
        blue = open_seat(registry.bot_class("random")(seed=seed[0]))
        orange = open_seat(registry.bot_class("random")(seed=seed[0] + 10_000))
        settings = match.Settings(turn_ms=10_000, first_turn_ms=10_000)
        return match.play_game(blue, orange, seed[0], settings).turns

    return _rate(batch, seconds)


def _recorded_instances(puzzle: str, path: str, text_of=lambda line: line) -> list:
    """The instances of one of this version's data files (tests/data/...), parsed by the puzzle's
    contract; `text_of` takes an instance's text from a line of the file."""
    contract = _project_module("referee.puzzle")
    try:
        lines = (ROOT / path).read_text(encoding="utf-8")
        rules = contract.load(puzzle)
        if text_of is None:
            return rules.parse_instances(lines, path)
        return [rules.parse_instance(text_of(line)) for line in lines.splitlines() if line and line[0] != "#"]
    except (AttributeError, KeyError, OSError, ValueError) as exc:
        raise Unavailable(f"{path} or the {puzzle} contract differs here: {exc}") from exc


def iqtwist_challenges(seconds: float, **_) -> float:
    """IQ-Twist challenges solved to the end (every solution, proving each unique) per CPU second by
    the solver's `solve`, over a fixed sample of the 108 recorded ones, so both versions solve the
    same mix."""
    solver = _project_module("bots.iqtwist.solver")
    challenges = _recorded_instances("iqtwist", "tests/data/iqtwist/challenges.tsv", lambda row: row.split("\t")[3])
    sample = challenges[:: max(1, len(challenges) // 6)][:6]

    def batch():
        for challenge in sample:
            solver.solve(challenge)
        return len(sample)

    return _rate(batch, seconds)


def iqtwist_empty_board(seconds: float, **_) -> float:
    """The empty board's canonical solutions (5992) counted per CPU second: the search's whole tree."""
    search = _project_module("bots.iqtwist.search")
    rules = _project_module("referee.iqtwist.rules")
    try:
        search.warm_up()
        empty = rules.State()
    except (AttributeError, TypeError) as exc:
        raise Unavailable(f"the IQ-Twist search's interface differs: {exc}") from exc
    return _rate(lambda: search.count_solutions(empty), seconds)


def stormyseas_cards(seconds: float, metric: str, **_) -> float:
    """Stormy Seas cards solved optimally by `metric` per CPU second by the solver's `solve`: the known
    cards 3, 10 and 31 (card 26 alone takes longer than the three together)."""
    solver = _project_module("bots.stormyseas.solver")
    cards = _recorded_instances("stormyseas", "tests/data/stormyseas/cards.txt", None)
    sample = [cards[0], cards[1], cards[3]]

    def batch():
        for card in sample:
            solver.solve(card, metric=metric)
        return len(sample)

    return _rate(batch, seconds)


def puzzle_solves(seconds: float, puzzle: str, **_) -> float:
    """A puzzle's first documented example (`Puzzle.examples`) solved by the project's solver
    (`bots/NAME/solver.py`'s `solve`), per CPU second: every puzzle of the contract gets this figure."""
    contract = _project_module("referee.puzzle")
    solver = _project_module(f"bots.{puzzle}.solver")
    try:
        rules = contract.load(puzzle)
        instance = rules.parse_instance(rules.examples[0])
        solve = solver.solve
    except (AttributeError, KeyError) as exc:
        raise Unavailable(f"{puzzle} does not keep the puzzle contract here: {exc}") from exc

    def batch():
        solve(instance)
        return 1

    return _rate(batch, seconds)


_bots: dict = {}


def search_speed(seconds: float, bot: str, kind: str, positions: str, moves: int = 6, **_) -> float:
    """Iterations (or nodes) per CPU second of a search bot, the bot's own count (`last_search`) over
    this process's CPU time, from the same `moves` positions every time (spread over the fixed
    positions), each at a budget of seconds/moves: both versions search the same positions."""
    registry = _project_module("bots.volcanoes.registry")
    state_module = _project_module("bots.volcanoes.state")
    import numpy as np  # (only this figure needs it)

    if bot not in _bots:
        if bot not in registry.BOTS:
            raise Unavailable(f"no bot {bot!r} in this version")
        # The search's speed, not an opening book's: a bot that declares `opening` plays without it.
        declared = getattr(registry, "defaults", lambda name: {})(bot)
        instance = registry.bot_class(bot)(seed=1, **({"opening": 0} if "opening" in declared else {}))
        instance.warm_up()
        with gzip.open(positions, "rt") as f:
            recorded = json.load(f)
        states = [
            state_module.GameState(np.array(lv, dtype=np.int8), np.abs(np.array(lv)) == 4, turns)
            for lv, turns in recorded[:: max(1, len(recorded) // moves)][:moves]
        ]
        instance.start(states[0].player)
        instance.choose(states[0].copy(), 0.05)  # the first move may set up tables: not timed
        _bots[bot] = (instance, states)
    instance, states = _bots[bot]
    work, clock = 0, time.process_time
    start = clock()
    for state in states:
        instance.choose(state.copy(), seconds / len(states))
        work += getattr(instance, "last_search", {}).get(kind, 0)
    if not work:
        raise Unavailable(f"{bot} reports no {kind}")
    return work / (clock() - start)


FIGURES = {
    "pure_playouts": pure_playouts,
    "numba_playouts": numba_playouts,
    "numba_decisive_playouts": numba_decisive_playouts,
    "bitboard_playouts": bitboard_playouts,
    "bitboard_decisive_playouts": bitboard_decisive_playouts,
    "rules_playouts": rules_playouts,
    "referee_turns": referee_turns,
    "search_speed": search_speed,
    "iqtwist_challenges": iqtwist_challenges,
    "iqtwist_empty_board": iqtwist_empty_board,
    "stormyseas_cards": stormyseas_cards,
    "puzzle_solves": puzzle_solves,
}


def serve() -> None:
    """Answer requests until stdin closes: {"figure": NAME, "seconds": S, ...} ->
    {"value": V} | {"unavailable": WHY} | {"error": TRACEBACK}."""
    if sys.argv[1:]:
        sys.exit(f"python -m arena.bench.worker: it takes no arguments, only requests on stdin ({sys.argv[1]!r})")
    # Ctrl+C reaches the worker with `arena bench`'s whole process group: `arena bench` says it was
    # interrupted, and the worker ends without a word (it printed its KeyboardInterrupt's traceback).
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    for number, line in enumerate(sys.stdin, 1):
        try:
            request = json.loads(line)
            figure = FIGURES[request.pop("figure")]
        except (ValueError, KeyError, TypeError, AttributeError):  # (`arena bench` sends none of these)
            sys.exit(f"python -m arena.bench.worker: request {number} is not a known figure's request: {line[:80]!r}")
        try:
            value = figure(**request)
            answer = {"value": value}
        except Unavailable as exc:
            answer = {"unavailable": str(exc)}
        except Exception:  # noqa: BLE001 - sent back whole, raised by `arena bench`
            answer = {"error": traceback.format_exc()}
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    serve()
