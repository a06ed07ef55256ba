"""`arena bench`: timing regression tests, two versions on one machine in one run.

`arena bench --against REV` measures the working tree and another version (a git revision, extracted
to a cache as a `NAME@REV` player is, or a directory holding a copy of the project) in alternating
rounds, and reports each figure as a ratio new/old with a 95% interval over the paired rounds. A
figure regresses when it is worse with confidence (the interval excludes 1) *and* by more than
`--threshold`; then the command names it and exits 1.

`arena bench --bot CMD --against-bot CMD` does the same for any two command-line bots (any language,
CodinGame's protocol) over Volcanoes' fixed positions, or with `--game NAME` (`--referee CMD
--protocol P`) over turns of that game recorded from real games and replayed to each version
(arena/bench/transcripts.py; `--record FILE` keeps them, `--turns FILE` replays them again): first
answer, per-move latency, CPU, and the work a bot reports on stderr (arena/bench/bots.py). Without
`--against*`, `arena bench` prints the figures of one version; `--save` stores them with the machine they came from and `--compare` holds a later run against them on the
same machine only. The method is in docs/timing.md.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import sys
from pathlib import Path

import numpy as np

from bots.volcanoes import registry
from referee.platform.files import files_named, refuse_overwriting, refuse_replacing_another_kind, write_atomic

from arena.bench import transcripts
from arena.bench.bots import bot_command, command_at, measure_bots, turns_to_time
from arena.bench.kernels import Measured, kernel_specs, measure_kernels
from arena.bench.ratios import is_regression, paired_ratio, unpaired_ratio
from arena.bench.versions import BenchError, Version, version
from arena.games.base import Game
from arena.project import PROJECT_ROOT


DEFAULT_THRESHOLD = 0.05


def machine() -> dict[str, str]:
    """What a saved figure depends on besides the code."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), cpu)
    except OSError:
        pass
    import numba  # (the engines' compiler: a second to import, for this saved figure's record alone)

    return {
        "cpu": cpu,
        "cores": str(os.cpu_count()),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "system": platform.system(),
    }


def save(path: str, measured: Measured) -> None:
    figures = {
        name: {"unit": s.unit, "higher_is_better": s.higher_is_better, "values": measured.values[name][0]}
        for name, s in measured.specs.items()
    }
    write_atomic(path, json.dumps({"machine": machine(), "figures": figures}, indent=1) + "\n")


def load_baseline(path: str, any_machine: bool) -> dict:
    try:
        saved = json.loads(Path(path).read_text())
        figures, recorded = saved["figures"], saved["machine"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise BenchError(f"{path} is not a baseline saved by `arena bench --save` ({exc})") from None
    here = machine()
    differs = [f"{k} {recorded.get(k)!r} there, {here[k]!r} here" for k in here if recorded.get(k) != here[k]]
    if differs:
        message = f"{path} was recorded on another machine: {'; '.join(differs)}"
        if not any_machine:
            raise BenchError(
                message + " (figures from another machine say nothing about a change: "
                "compare two versions here with --against REV, or pass --any-machine)"
            )
        print(f"warning: {message}", file=sys.stderr)
    return _checked_figures(path, figures)


def _checked_figures(path: str, figures) -> dict:
    """A baseline's figures, each with two values or more, every one a positive finite number (a
    ratio's interval needs a spread; a value of 0 or text has no logarithm); BenchError naming the
    first that is not (a file edited by hand, damaged). Those were a traceback, or passed unnoticed."""
    if not isinstance(figures, dict):
        raise BenchError(f"{path} is not a baseline saved by `arena bench --save` (its figures are no table)")
    for name, figure in figures.items():
        values = figure.get("values") if isinstance(figure, dict) else None
        if not isinstance(values, list) or len(values) < 2:
            raise BenchError(
                f"{path}: figure {name!r} has fewer than two values (a baseline of one round has no spread)"
            )
        for value in values:
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < math.inf:
                raise BenchError(f"{path}: figure {name!r} holds {value!r}, not a positive number")
    return figures


def comparison(
    measured: Measured, threshold: float, ratio=paired_ratio, old_values: dict | None = None
) -> tuple[list[str], list[str]]:
    """Table lines, and the regressions named."""
    rows, regressions = [], []
    width = max((len(n) for n in measured.specs), default=10)
    for name, spec in measured.specs.items():
        new = measured.values[name][0]
        old = old_values[name] if old_values is not None else measured.values[name][1]
        r = ratio(new, old, measured.per_process) if old_values is None else ratio(new, old)
        bad = is_regression(r, spec.higher_is_better, threshold)
        flag = "REGRESSION" if bad else ""
        dropped = f" ({r.dropped} outlier{'s' * (r.dropped > 1)} dropped)" if r.dropped else ""
        rows.append(
            f"{name:<{width}}  {statistics.median(new):>12.5g} vs {statistics.median(old):>12.5g} "
            f"{spec.unit:<7}  new/old {r.estimate:6.3f} [{r.low:6.3f}, {r.high:6.3f}]  {flag}{dropped}"
        )
        if bad:
            if spec.higher_is_better:
                change = f"{1 - r.estimate:.1%} lower, {1 / r.estimate - 1:.1%} more time per unit"
            else:
                change = f"{r.estimate - 1:.1%} longer"
            regressions.append(
                f"{name}: {change} (new/old {r.estimate:.3f}, 95% interval "
                f"[{r.low:.3f}, {r.high:.3f}], {r.rounds} rounds)"
            )
    return rows, regressions


def summary(measured: Measured) -> list[str]:
    width = max((len(n) for n in measured.specs), default=10)
    rows = []
    for name, spec in measured.specs.items():
        values = measured.values[name][0]
        rows.append(
            f"{name:<{width}}  {statistics.median(values):>12.5g} {spec.unit:<7}  "
            f"(min {min(values):.5g}, max {max(values):.5g}, {len(values)} rounds)"
        )
    return rows


def _progress(done: int, total: int) -> None:
    """One line rewritten in place on a terminal; a line a round in a log file, not one long line."""
    if sys.stderr.isatty():
        print(f"\rround {done}/{total}", end="\n" if done == total else "", file=sys.stderr, flush=True)
    else:
        print(f"round {done}/{total}", file=sys.stderr, flush=True)


def main(args: argparse.Namespace, game: Game | None) -> int:
    """`arena bench`, its options checked by its command line (arena/cli/bench.py); `game`: the game
    whose recorded turns time a bot (None: Volcanoes' fixed positions)."""
    if args.list:
        print("\n".join(spec.name for spec in kernel_specs(args.only)))
        return 0
    rounds = args.rounds or (8 if args.quick else 12)
    if rounds < 4:
        raise BenchError("--rounds must be at least 4 (an interval needs several pairs of processes)")
    if args.against_bot and not args.bot:
        raise BenchError("--against-bot needs --bot")
    if args.save and args.compare:
        refuse_overwriting(args.save, args.compare)
    for output in filter(None, (args.save, args.record)):  # (a bot's own files are inputs too)
        refuse_overwriting(output, *files_named(args.bot, args.against_bot))
    if args.save:
        refuse_replacing_another_kind(args.save, "a baseline of arena bench --save", ("machine", "figures"))
    if args.record:
        refuse_replacing_another_kind(args.record, "turns of arena bench --record", ("format", "transcripts"))
    baseline = load_baseline(args.compare, args.any_machine) if args.compare else None  # refused before measuring
    new = version(args.tree) if args.tree else Version("working tree", PROJECT_ROOT)
    if args.bot:
        other = args.against_bot
        commands = [bot_command(args.bot, game)]
        if other is None and args.against and args.bot in registry.BOTS:
            other = f"{args.bot}@{args.against}"
        if other:
            commands.append(bot_command(other, game))
        elif args.against:  # the same command line, its files taken from the project at REV
            old = version(args.against)
            commands.append(command_at(args.bot, old))
            other = f"{args.bot} @ {old.label}"
        labels = [args.bot] + ([other] if other else [])
        scripts, check, limits = turns_to_time(args, game, commands[0])
        if args.record:
            transcripts.save(args.record, scripts, game.config() if game else None)
            print(f"turns saved to {args.record}", file=sys.stderr)
        measured = measure_bots(commands, scripts, rounds, _progress, check, *limits)
    else:
        versions = [new] + ([version(args.against)] if args.against else [])
        labels = [v.label for v in versions]
        seconds = args.seconds or (0.1 if args.quick else 0.25)
        measured = measure_kernels(versions, kernel_specs(args.only), rounds, seconds, _progress)
        for name, why in measured.skipped.items():
            if "reports no" not in why:  # a bot without that kind of search: nothing to say
                print(f"skipped {name}: {why}", file=sys.stderr)
    if args.json:
        print(json.dumps({"versions": labels, "figures": measured.values}, indent=1))
    if len(labels) == 2:
        print(f"new: {labels[0]}\nold: {labels[1]}")
        rows, regressions = comparison(measured, args.threshold)
    elif baseline is not None:
        common = {n: s for n, s in measured.specs.items() if n in baseline}
        measured.specs = common
        rows, regressions = comparison(
            measured, args.threshold, unpaired_ratio, {n: baseline[n]["values"] for n in common}
        )
    else:
        rows, regressions = summary(measured), []
    if (len(labels) == 2 or baseline is not None) and not rows:  # every figure skipped: nothing compared
        against = labels[1] if len(labels) == 2 else args.compare
        raise BenchError(
            f"no figure could be compared with {against} (each was skipped: see above), so none is known not to regress"
        )
    print("\n".join(rows))
    if args.save:
        try:
            save(args.save, measured)
        except OSError as exc:
            raise BenchError(f"cannot write {args.save}: {exc.strerror or exc}") from None
        print(f"figures saved to {args.save}")
    for message in regressions:
        print(f"REGRESSION {message}", file=sys.stderr)
    if regressions:
        return 1
    if len(labels) == 2 or args.compare:
        print(f"no figure regressed by more than {args.threshold:.0%} with 95% confidence")
    return 0
