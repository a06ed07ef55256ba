"""The kernel figures of `arena bench`: each a rate per CPU second measured by a version's worker, the
versions measured in alternating rounds on one core."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from bots.volcanoes.registry import BOTS, is_pure
from referee.puzzle import NAMES as PUZZLES

from arena.bench.versions import BenchError, Version, Worker

POSITIONS_FILE = Path(__file__).parent / "data" / "bench_positions.json.gz"


@dataclass(frozen=True)
class Spec:
    """A figure the worker measures: its name in tables, the request, its unit."""

    name: str
    request: dict
    unit: str
    higher_is_better: bool = True


def kernel_specs(only: list[str] | None = None) -> list[Spec]:
    """Every figure of the project (`arena bench --list` prints their names), or those whose name
    holds one of the words `only`."""
    specs = [
        Spec("playouts/s pure python", {"figure": "pure_playouts"}, "1/cpu-s"),
        Spec("playouts/s numba", {"figure": "numba_playouts"}, "1/cpu-s"),
        Spec("playouts/s numba decisive", {"figure": "numba_decisive_playouts"}, "1/cpu-s"),
        Spec("playouts/s numba bitboard", {"figure": "bitboard_playouts"}, "1/cpu-s"),
        Spec("playouts/s numba bitboard decisive", {"figure": "bitboard_decisive_playouts"}, "1/cpu-s"),
        Spec("playouts/s numba rules (called from python)", {"figure": "rules_playouts"}, "1/cpu-s"),
        Spec("referee turns/s (random bots)", {"figure": "referee_turns"}, "1/cpu-s"),
    ]
    for bot in (name for name in BOTS if not is_pure(name)):  # searches that report `last_search`
        for kind in ("iterations", "nodes"):
            specs.append(
                Spec(
                    f"{bot} {kind}/s",
                    {"figure": "search_speed", "bot": bot, "kind": kind, "positions": str(POSITIONS_FILE)},
                    "1/cpu-s",
                )
            )
    specs.append(Spec("iqtwist challenges/s", {"figure": "iqtwist_challenges"}, "1/cpu-s"))
    specs.append(Spec("iqtwist empty board solutions/s", {"figure": "iqtwist_empty_board"}, "1/cpu-s"))
    for metric in ("units", "slides"):
        specs.append(
            Spec(f"stormyseas cards/s by {metric}", {"figure": "stormyseas_cards", "metric": metric}, "1/cpu-s")
        )
    for puzzle in PUZZLES:  # every puzzle of the contract: its first example, by its solver
        specs.append(Spec(f"puzzle {puzzle} solves/s", {"figure": "puzzle_solves", "puzzle": puzzle}, "1/cpu-s"))
    if only:
        specs = [s for s in specs if any(word in s.name for word in only)]
        if not specs:
            raise BenchError(f"no figure matches {' '.join(only)}")
    return specs


@dataclass
class Measured:
    """Each figure's values per round, per version (index 0 the new one)."""

    specs: dict[str, Spec] = field(default_factory=dict)
    values: dict[str, list[list[float]]] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    incomplete: dict[str, str] = field(default_factory=dict)  # a figure measured, and why it counts short
    per_process: int = 1  # consecutive rounds measured by the same processes


def _current_cpu() -> int | None:
    """The core this process runs on now (so that runs started side by side spread over the
    cores), or None where that cannot be read or set."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    try:
        with open("/proc/self/stat") as f:
            cpu = int(f.read().rsplit(")", 1)[1].split()[36])
    except (OSError, ValueError, IndexError):
        cpu = -1
    allowed = os.sched_getaffinity(0)
    return cpu if cpu in allowed else max(allowed)


def measure_kernels(versions: list[Version], specs: list[Spec], rounds: int, seconds: float, progress=None) -> Measured:
    """`rounds` rounds; in each, every figure of every version, the versions' order alternating from
    one round to the next (so neither always runs first, after the other warmed the caches). Fresh
    worker processes every two rounds (A B, then B A)."""
    out = Measured(per_process=2)
    # Every worker on one core: cores of a shared machine differ (a busy neighbour on the other
    # hyperthread slows a core's CPU time too), and a worker would keep to its core.
    cpu = _current_cpu()
    workers = []
    try:
        for r in range(rounds):
            if r % out.per_process == 0:
                for w in workers:
                    w.close()
                workers = [Worker(v, cpu) for v in versions]
            order = list(range(len(workers))) if r % 2 == 0 else list(reversed(range(len(workers))))
            for spec in specs:
                if spec.name in out.skipped:
                    continue
                got = [None] * len(workers)
                for i in order:
                    value, why = workers[i].measure({**spec.request, "seconds": seconds})
                    if value is None:
                        out.skipped[spec.name] = f"{versions[i].label}: {why}"
                        break
                    got[i] = value
                else:
                    out.specs[spec.name] = spec
                    for i, value in enumerate(got):
                        out.values.setdefault(spec.name, [[] for _ in workers])[i].append(value)
            if progress:
                progress(r + 1, rounds)
    finally:
        for w in workers:
            w.close()
    for name in out.skipped:
        out.values.pop(name, None)
        out.specs.pop(name, None)
    return out
