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
import hashlib
import json
import math
import os
import platform
import statistics
import sys
from pathlib import Path

import numpy as np

from bots.volcanoes import registry
from referee.platform.files import (
    UserError,
    check_writable,
    files_named,
    refuse_overwriting,
    refuse_replacing_another_kind,
    write_atomic,
)
from referee.platform.pools import cores

from arena.bench import transcripts
from arena.bench.bots import AGAINST_BOT, bot_command, command_at, measure_bots, turns_to_time
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


def save(path: str, measured: Measured, timed: dict | None = None, load: float | None = None) -> None:
    """The figures of one version, with the machine, what was timed (`timed`, see `what_was_timed`)
    and the machine's load per core while it ran."""
    figures = {
        name: {"unit": s.unit, "higher_is_better": s.higher_is_better, "values": measured.values[name][0]}
        for name, s in measured.specs.items()
    }
    saved = {"machine": machine(), "timed": timed, "load per core": load, "figures": figures}
    write_atomic(path, json.dumps(saved, indent=1) + "\n")


def load_baseline(path: str, any_machine: bool, timed: dict | None = None) -> dict:
    """A saved baseline, refused (BenchError) where it is none, came from another machine (unless
    `any_machine`) or timed other turns than `timed` (a baseline of before these were recorded: not
    checked)."""
    try:
        saved = json.loads(Path(path).read_text())
        figures, recorded = saved["figures"], saved["machine"]
        if not isinstance(recorded, dict):
            raise TypeError("its machine is no table")
    except FileNotFoundError:
        raise BenchError(f"no such baseline: {path}") from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise BenchError(f"{path} is not a baseline saved by `arena bench --save` ({exc})") from None
    then = saved.get("timed")
    if timed is not None and isinstance(then, dict) and then.get("turns") != timed["turns"]:
        raise BenchError(
            f"{path} timed {then.get('what', 'other turns')}, this run {timed['what']}: figures of other "
            "turns say nothing about a change (give the options the baseline was saved with)"
        )
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
    return {"figures": _checked_figures(path, figures), "load per core": saved.get("load per core"), "timed": then}


def what_was_timed(label: str, scripts: list[transcripts.Transcript]) -> dict:
    """What a bot's figures were measured on: its turns (a hash of every line given), said in words."""
    turns = sum(len(t.turns) for t in scripts)
    unit = scripts[0].unit if scripts else "turn"
    digest = hashlib.sha256("\n".join(line for t in scripts for turn in t.turns for line in turn.given).encode())
    return {"what": f"{turns} {unit}s of {label}", "turns": digest.hexdigest()[:16]}


def load_per_core() -> float:
    """The machine's load (the last minute's runnable processes) per core of this process."""
    return os.getloadavg()[0] / cores()


# A run's load per core above this makes its wall-clock figures the machine's as much as the bot's:
# more processes wanted a processor than there were.
BUSY_LOAD = 1.0


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
            f"{name:<{width}}  {r.new:>12.5g} vs {r.old:>12.5g} "
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
    rounds = args.rounds if args.rounds is not None else (8 if args.quick else 12)
    if rounds < 4:
        raise BenchError("--rounds must be at least 4 (an interval needs several pairs of processes)")
    if args.against_bot and not args.bot:
        raise BenchError("--against-bot needs --bot")
    if args.compare and (args.against or args.against_bot):
        raise BenchError(
            "--compare holds one version against a saved baseline, --against/--against-bot two versions "
            "against each other in this run: give one or the other"
        )
    if args.save:
        try:
            check_writable(args.save, "--save")  # before the measurement, not after it
        except UserError as exc:
            raise BenchError(str(exc)) from None
    if args.save and args.compare:
        refuse_overwriting(args.save, args.compare)
    for output in filter(None, (args.save, args.record)):  # (a bot's own files are inputs too)
        refuse_overwriting(output, *files_named(args.bot, args.against_bot))
    if args.save:
        refuse_replacing_another_kind(args.save, "a baseline of arena bench --save", ("machine", "figures"))
    if args.record:
        refuse_replacing_another_kind(args.record, "turns of arena bench --record", ("format", "transcripts"))
    baseline, timed = None, None
    if args.compare and not args.bot:  # refused before measuring (a bot's once its turns are known)
        baseline = load_baseline(args.compare, args.any_machine)
    elif args.compare and not Path(args.compare).is_file():
        raise BenchError(f"no such baseline: {args.compare}")
    # The human-readable lines go to stderr where stdout is JSON: `--json | json.tool` read both.
    say = sys.stderr if args.json else sys.stdout
    load_before = load_per_core()
    new = version(args.tree) if args.tree else Version("working tree", PROJECT_ROOT)
    if args.bot:
        other = args.against_bot
        commands = [bot_command(args.bot, game)]
        if other is None and args.against and args.bot in registry.BOTS:
            other = f"{args.bot}@{args.against}"
        if other:
            commands.append(bot_command(other, game))
        elif args.against:  # the same command line, its files taken from the project at REV
            try:
                old = version(args.against)
            except BenchError as exc:  # (a revision of the bot's own repository, most likely)
                example = f", here --against-bot {args.bot}@{args.against}" if Path(args.bot).is_file() else ""
                raise BenchError(f"{exc}: {AGAINST_BOT}{example}") from None
            commands.append(command_at(args.bot, old))
            other = f"{args.bot} @ {old.label}"
        labels = [args.bot] + ([other] if other else [])
        workload = turns_to_time(args, game, commands[0])
        timed = what_was_timed(workload.label, workload.scripts)
        if args.compare:  # a baseline of other turns refused before the measurement, not after it
            baseline = load_baseline(args.compare, args.any_machine, timed)
        if args.record:
            transcripts.save(args.record, workload.scripts, workload.game)
            print(f"turns saved to {args.record}", file=sys.stderr)
        measured = measure_bots(commands, workload.scripts, rounds, _progress, workload.check, *workload.limits)
        for name, why in measured.incomplete.items():
            print(f"note: {name} is incomplete: {why}", file=sys.stderr)
        for name, why in measured.skipped.items():
            print(f"skipped {name}: {why}", file=sys.stderr)
    else:
        versions = [new] + ([version(args.against)] if args.against else [])
        labels = [v.label for v in versions]
        seconds = args.seconds or (0.1 if args.quick else 0.25)
        measured = measure_kernels(versions, kernel_specs(args.only), rounds, seconds, _progress)
        for name, why in measured.skipped.items():
            if "reports no" not in why:  # a bot without that kind of search: nothing to say
                print(f"skipped {name}: {why}", file=sys.stderr)
    load = max(load_before, load_per_core())
    if len(labels) == 2:
        print(f"new: {labels[0]}\nold: {labels[1]}", file=say)
        rows, regressions = comparison(measured, args.threshold)
    elif baseline is not None:
        common = {n: s for n, s in measured.specs.items() if n in baseline["figures"]}
        unmatched = [n for n in measured.specs if n not in common]
        if unmatched:  # (measured, then dropped unsaid)
            print(f"not in {args.compare}, so not compared: {', '.join(unmatched)}", file=sys.stderr)
        gone = [n for n in baseline["figures"] if n not in measured.specs]
        if gone:  # (a bot that stopped reporting its work: the figure went unsaid)
            print(f"in {args.compare} but not given by this run, so not compared: {', '.join(gone)}", file=sys.stderr)
        measured.specs = common
        rows, regressions = comparison(
            measured, args.threshold, unpaired_ratio, {n: baseline["figures"][n]["values"] for n in common}
        )
    else:
        rows, regressions = summary(measured), []
    if (len(labels) == 2 or baseline is not None) and not rows:  # every figure skipped: nothing compared
        against = labels[1] if len(labels) == 2 else args.compare
        raise BenchError(
            f"no figure could be compared with {against} (each was skipped: see above), so none is known not to regress"
        )
    print("\n".join(rows), file=say)
    if args.save:
        try:
            save(args.save, measured, timed, round(load, 2))
        except OSError as exc:
            raise BenchError(f"cannot write {args.save}: {exc.strerror or exc}") from None
        print(f"figures saved to {args.save}", file=say)
    for message in regressions:
        print(f"REGRESSION {message}", file=sys.stderr)
    busy = busy_note(load, baseline.get("load per core")) if baseline is not None else paired_busy_note(load)
    if regressions and busy:
        print(busy, file=sys.stderr)
    if args.json:
        print(json.dumps({"versions": labels, "figures": measured.values, "regressions": regressions}, indent=1))
    if regressions:
        return 1
    if len(labels) == 2 or args.compare:
        print(f"no figure regressed by more than {args.threshold:.0%} with 95% confidence", file=say)
    return 0


def busy_note(load: float, then: float | None) -> str | None:
    """A line where this run's machine was busy (its load per core over BUSY_LOAD): a baseline was
    not measured beside the new version, as `--against` is, so load slows the new figures alone."""
    if load <= BUSY_LOAD:
        return None
    was = "" if then is None else f", {then:.2f} when the baseline was saved"
    return (
        f"note: the machine was busy during this run (load {load:.2f} per core{was}): the times above "
        "may have grown by the machine's fault, not the bot's. A baseline was measured at another time; "
        "measure on a quiet machine, or compare both versions in one run (--against or --against-bot), "
        "whose alternating rounds share the load"
    )


def paired_busy_note(load: float) -> str | None:
    """A line where this run's machine was busy (its load per core over BUSY_LOAD): the alternating
    rounds share its load between the versions, but wall-clock figures vary with it from round to
    round, and at a load of 3.5-5 a core two identical bots were told apart in 3 runs of 40."""
    if load <= BUSY_LOAD:
        return None
    return (
        f"note: the machine was busy during this run (load {load:.2f} per core): the alternating rounds "
        "share the load, but the wall-clock figures (first answer, latencies, work per second) vary with "
        "it, so a regression of theirs may be the machine's; measure again on a quiet machine"
    )
