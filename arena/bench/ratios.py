"""The statistics of `arena bench`: a figure of a new version over an old one, with its 95% interval,
from paired rounds (or from two separate runs), and whether it regressed."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass


# Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom (then the normal's).
_T95 = [
    12.706,
    4.303,
    3.182,
    2.776,
    2.571,
    2.447,
    2.365,
    2.306,
    2.262,
    2.228,
    2.201,
    2.179,
    2.160,
    2.145,
    2.131,
    2.120,
    2.110,
    2.101,
    2.093,
    2.086,
    2.080,
    2.074,
    2.069,
    2.064,
    2.060,
    2.056,
    2.052,
    2.048,
    2.045,
    2.042,
]


def t95(df: int) -> float:
    return _T95[df - 1] if df <= len(_T95) else 1.96


def drop_outliers(values: list[float]) -> list[float]:
    """Without the values far from the median (beyond 4 robust standard deviations, 1.4826 MAD),
    at most a fifth of them: a round hit by a burst of load on a shared machine."""
    return [values[i] for i in kept_indices(values)]


def kept_indices(values: list[float]) -> list[int]:
    """The places of the values `drop_outliers` keeps, in order."""
    if len(values) < 5:
        return list(range(len(values)))
    med = statistics.median(values)
    spread = 1.4826 * statistics.median(abs(v - med) for v in values)
    far = sorted(
        (i for i, v in enumerate(values) if spread and abs(v - med) > 4 * spread), key=lambda i: -abs(values[i] - med)
    )
    dropped = set(far[: len(values) // 5])
    return [i for i in range(len(values)) if i not in dropped]


@dataclass(frozen=True)
class Ratio:
    """A figure new/old: its estimate and 95% interval, over `rounds` (of which `dropped` outliers);
    `new` and `old`, the geometric means of the values the estimate kept, whose quotient it is (a
    median of each could differ from it, even in direction)."""

    estimate: float
    low: float
    high: float
    rounds: int
    dropped: int
    new: float
    old: float


def paired_ratio(new: list[float], old: list[float], per_process: int = 1) -> Ratio:
    """new/old from paired rounds: a t-interval on the per-round log ratios, outliers dropped. Pairing
    cancels what drifts during a run (load, frequency, thermal state) as long as it drifts slowly.
    Rounds measured by the same pair of processes (`per_process` in a row) are averaged first: a
    process can be a few percent faster than an identical one for its whole life (memory layout,
    its core), so the interval must come from several processes, not from one pair's rounds."""
    pairs = [(math.log(n), math.log(o)) for n, o in zip(new, old, strict=True) if n > 0 and o > 0]
    processes = [pairs[i : i + per_process] for i in range(0, len(pairs), per_process)]
    logs = [statistics.fmean(n - o for n, o in rounds) for rounds in processes]
    kept = kept_indices(logs)
    kept_logs = [logs[i] for i in kept]
    mean = statistics.fmean(kept_logs)
    half = t95(len(kept) - 1) * statistics.stdev(kept_logs) / math.sqrt(len(kept)) if len(kept) > 1 else math.inf
    kept_pairs = [pair for i in kept for pair in processes[i]]
    center_new, center_old = (math.exp(statistics.fmean(side)) for side in zip(*kept_pairs, strict=True))
    return Ratio(
        math.exp(mean),
        math.exp(mean - half),
        math.exp(mean + half),
        len(new),
        len(logs) - len(kept),
        center_new,
        center_old,
    )


def unpaired_ratio(new: list[float], old: list[float]) -> Ratio:
    """new/old from two separate runs (a saved baseline): Welch's interval on log values."""
    a, b = drop_outliers([math.log(v) for v in new if v > 0]), drop_outliers([math.log(v) for v in old if v > 0])
    center_new, center_old = math.exp(statistics.fmean(a)), math.exp(statistics.fmean(b))
    if len(a) < 2 or len(b) < 2:
        return Ratio(center_new / center_old, 0.0, math.inf, len(a), 0, center_new, center_old)
    va, vb = statistics.variance(a) / len(a), statistics.variance(b) / len(b)
    se = math.sqrt(va + vb)
    df = int((va + vb) ** 2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1))) if se else 1000
    mean, half = statistics.fmean(a) - statistics.fmean(b), t95(max(df, 1)) * se
    dropped = len(new) + len(old) - len(a) - len(b)
    return Ratio(
        math.exp(mean), math.exp(mean - half), math.exp(mean + half), len(new), dropped, center_new, center_old
    )


def is_regression(ratio: Ratio, higher_is_better: bool, threshold: float) -> bool:
    """Worse with confidence and by more than `threshold`: for a rate, costlier per unit of work by
    more than `threshold` (0.05 = 5%); for a time, longer by more than that."""
    if higher_is_better:
        return ratio.high < 1 and ratio.estimate < 1 / (1 + threshold)
    return ratio.low > 1 and ratio.estimate > 1 + threshold
