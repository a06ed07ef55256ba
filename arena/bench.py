"""`arena bench`: the timing regression suite.

Measures and prints, as a table and as JSON: random playouts per second of each engine, search
speed of the engines, per-move latency of each bot over a fixed set of positions at its normal
budget, cold-start time to the first answer, and the referee's own overhead per turn. `--save`
stores a baseline, `--compare` names every figure that regressed beyond a tolerance (as ratios:
machines differ, so only a figure's change against the same machine's baseline means anything).
"""
from __future__ import annotations

import argparse
import gzip
import json
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bots.volcanoes.base import SAFETY_SECONDS, TURN_SECONDS, InProcessSeat
from bots.volcanoes.registry import BOTS, bot_class
from bots.volcanoes.state import GameState
from referee.volcanoes import rules
from referee.volcanoes.board import INDEX, init_block
from referee.volcanoes.match import Settings, play_game
from referee.volcanoes.protocol import valid_line

POSITIONS_FILE = Path(__file__).parent / "data" / "bench_positions.json.gz"
DEFAULT_BASELINE = Path(__file__).parent / "data" / "bench_baseline.json"


@dataclass(frozen=True)
class Figure:
    name: str
    value: float
    unit: str
    higher_is_better: bool


# ---------------------------------------------------------------- throughput


def _playouts_per_second(playout, seconds: float) -> float:
    """Random playouts from the opening, in batches, for about `seconds`."""
    done, seed, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        done += playout(256, seed)
        seed += 256
    return done / (time.perf_counter() - start)


def engine_playouts(seconds: float) -> list[Figure]:
    """Random playouts per second from the opening: the search's jitted loop, and the pure-Python
    engine that plays on CodinGame."""
    from bots.volcanoes.search import playout

    playout.warm_up()
    playout.seed(1)
    levels, dormant = rules.new_state()
    scratch = playout.new_scratch()

    def numba_batch(count, seed):
        playout.playouts_from(levels, dormant, 0, count, False, scratch)
        return count

    from bots.volcanoes.pure.bench import playouts_per_second

    return [Figure("playouts/s numba", _playouts_per_second(numba_batch, seconds), "1/s", True),
            Figure("playouts/s pure python", playouts_per_second(seconds), "1/s", True)]


# ---------------------------------------------------------------- latency


def bench_positions() -> list[tuple[np.ndarray, int]]:
    """A fixed set of positions (blue-positive levels, turns played) from recorded games."""
    with gzip.open(POSITIONS_FILE, "rt") as f:
        return [(np.array(levels, dtype=np.int8), turns) for levels, turns in json.load(f)]


def move_latency(name: str, positions, budget: float) -> list[Figure]:
    """Milliseconds a bot takes to choose a move at its normal budget, over the fixed positions."""
    bot = bot_class(name)(seed=1)
    bot.warm_up()
    states = [GameState(levels.copy(), np.abs(levels) == rules.MAX_LEVEL, turns) for levels, turns in positions]
    bot.start(states[0].player)
    bot.choose(states[0], budget)  # a game's first turn has its own budget: not timed here
    times, work = [], {}
    for state in states:
        start = time.perf_counter()
        tile = bot.choose(state, budget)
        times.append((time.perf_counter() - start) * 1000)
        assert tile in state.legal_moves(), f"{name} chose an illegal move"
        searched = getattr(bot, "last_search", {})  # what a search bot did this turn
        for kind in ("iterations", "nodes"):
            if kind in searched:
                work[kind] = work.get(kind, 0) + searched[kind]
    q = np.percentile(times, [50, 95, 99])
    speed = [Figure(f"{name} {kind}/s", count / (sum(times) / 1000), "1/s", True) for kind, count in work.items()]
    return speed + [
        Figure(f"latency {name} median", float(q[0]), "ms", False),
        Figure(f"latency {name} p95", float(q[1]), "ms", False),
        Figure(f"latency {name} p99", float(q[2]), "ms", False),
        Figure(f"latency {name} max", max(times), "ms", False),
    ]


def cold_start(name: str, runs: int = 3) -> list[Figure]:
    """Seconds from starting `python -m bots.volcanoes.NAME` to its first answer (cache present),
    the median of a few runs."""
    lines = init_block() + [" ".join(["0"] * 80), valid_line(range(80))]
    payload = "\n".join(lines) + "\n"
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", f"bots.volcanoes.{name}"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        proc.stdin.write(payload)
        proc.stdin.flush()
        answer = proc.stdout.readline().strip()
        times.append(time.perf_counter() - start)
        proc.kill()
        proc.wait()
        if answer.upper() not in INDEX:
            raise RuntimeError(f"{name} answered {answer!r} to its first turn")
    return [Figure(f"cold start {name}", statistics.median(times) * 1000, "ms", False)]


def referee_overhead(games: int = 5) -> list[Figure]:
    """The referee's own time per turn: a game's wall time less the bots' answering time."""
    overheads = []
    for seed in range(games):
        blue, orange = InProcessSeat(bot_class("random")(seed=seed)), InProcessSeat(bot_class("random")(seed=seed + 1))
        start = time.perf_counter()
        result = play_game(blue, orange, seed, Settings(turn_ms=10_000, first_turn_ms=10_000))
        wall = (time.perf_counter() - start) * 1000
        bots = sum(t.time_ms or 0 for t in result.turn_log)
        overheads.append((wall - bots) / result.turns)
    return [Figure("referee overhead per turn", statistics.median(overheads), "ms", False)]


# ---------------------------------------------------------------- the suite


def run(quick: bool = False, bots: list[str] | None = None) -> list[Figure]:
    bots = bots or list(BOTS)
    positions = bench_positions()[: 10 if quick else None]
    budget = TURN_SECONDS - SAFETY_SECONDS
    figures = engine_playouts(1.0 if quick else 3.0)
    for name in bots:
        figures += move_latency(name, positions, budget)
    for name in bots:
        figures += cold_start(name, runs=1 if quick else 3)
    figures += referee_overhead(3 if quick else 10)
    return figures


# Latencies of a few milliseconds or less jitter by more than any ratio on a shared machine: a
# change smaller than this is never a regression.
NOISE_MS = 2.0


def compare(figures: list[Figure], baseline: dict, tolerance: float) -> list[str]:
    """The figures worse than the baseline by more than `tolerance` (0.5 = 50%), as messages."""
    regressions = []
    for f in figures:
        if f.name not in baseline:
            continue
        base = baseline[f.name]["value"]
        if base <= 0 or (f.unit == "ms" and abs(f.value - base) < NOISE_MS):
            continue
        ratio = f.value / base
        worse = ratio < 1 - tolerance if f.higher_is_better else ratio > 1 + tolerance
        if worse:
            regressions.append(f"{f.name}: {f.value:.3g} {f.unit} against {base:.3g} (x{ratio:.2f})")
    return regressions


def table(figures: list[Figure]) -> str:
    width = max(len(f.name) for f in figures)
    return "\n".join(f"{f.name:<{width}}  {f.value:>12.2f} {f.unit}" for f in figures)


def register(commands) -> None:
    bench = commands.add_parser("bench", help="timing regression suite: measure, save or compare a baseline")
    bench.add_argument("--quick", action="store_true", help="fewer positions and shorter runs (for CI)")
    bench.add_argument("--bots", nargs="+", metavar="BOT", help="bots to time (default: every registered bot)")
    bench.add_argument("--save", metavar="FILE", help="store these figures as a baseline")
    bench.add_argument("--compare", metavar="FILE", help="exit non-zero if a figure regressed against FILE")
    bench.add_argument("--tolerance", type=float, default=0.5,
                       help="allowed change before a figure counts as a regression (0.5 = 50%%)")
    bench.add_argument("--json", action="store_true", help="print the figures as JSON")
    bench.set_defaults(run=main)


def main(args: argparse.Namespace) -> int:
    figures = run(args.quick, args.bots)
    as_dict = {f.name: {"value": f.value, "unit": f.unit, "higher_is_better": f.higher_is_better} for f in figures}
    print(json.dumps(as_dict, indent=1) if args.json else table(figures))
    if args.save:
        Path(args.save).write_text(json.dumps(as_dict, indent=1) + "\n")
        print(f"baseline saved to {args.save}")
    if args.compare:
        regressions = compare(figures, json.loads(Path(args.compare).read_text()), args.tolerance)
        for message in regressions:
            print(f"REGRESSION {message}", file=sys.stderr)
        if regressions:
            return 1
        print(f"no figure regressed beyond {args.tolerance:.0%} of {args.compare}")
    return 0
