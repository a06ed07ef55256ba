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
answer, per-move latency, CPU, and the work a bot reports on stderr. Without `--against*`, `arena bench` prints the figures of one version; `--save`
stores them with the machine they came from and `--compare` holds a later run against them on the
same machine only. The method is in docs/timing.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import json
import math
import os
import platform
import re
import resource
import shlex
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from referee.platform.files import refuse_overwriting, write_atomic
from referee.platform.options import count, number, positive_seconds

from bots.volcanoes import registry
from bots.volcanoes.launch import LOAD_FIRST_VARIABLE
from referee.platform.process import warm_up_command

from arena.bench import transcripts
from arena.play import players
from arena.errors import UsageError
from arena.games.base import Game, Player

POSITIONS_FILE = Path(__file__).parent / "data" / "bench_positions.json.gz"
WORKER = Path(__file__).with_name("worker.py")
DEFAULT_THRESHOLD = 0.05
RECORDED_GAMES = 2  # games recorded for `--bot CMD --game NAME` by default
# A replayed turn's limits: only there to end a bot that hangs (a bot is timed, not judged, here).
REPLAY_FIRST_S, REPLAY_TURN_S = 30.0, 10.0


class BenchError(UsageError):
    """A user's mistake (an unknown revision, a bot that does not answer): one line, exit 2."""


# ---------------------------------------------------------------- statistics


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
    if len(values) < 5:
        return list(values)
    med = statistics.median(values)
    spread = 1.4826 * statistics.median(abs(v - med) for v in values)
    far = sorted((v for v in values if spread and abs(v - med) > 4 * spread), key=lambda v: -abs(v - med))
    far = far[: len(values) // 5]
    kept = list(values)
    for v in far:
        kept.remove(v)
    return kept


@dataclass(frozen=True)
class Ratio:
    """A figure new/old: its estimate and 95% interval, over `rounds` (of which `dropped` outliers)."""

    estimate: float
    low: float
    high: float
    rounds: int
    dropped: int


def paired_ratio(new: list[float], old: list[float], per_process: int = 1) -> Ratio:
    """new/old from paired rounds: a t-interval on the per-round log ratios, outliers dropped. Pairing
    cancels what drifts during a run (load, frequency, thermal state) as long as it drifts slowly.
    Rounds measured by the same pair of processes (`per_process` in a row) are averaged first: a
    process can be a few percent faster than an identical one for its whole life (memory layout,
    its core), so the interval must come from several processes, not from one pair's rounds."""
    logs = [math.log(n / o) for n, o in zip(new, old, strict=True) if n > 0 and o > 0]
    logs = [statistics.fmean(logs[i : i + per_process]) for i in range(0, len(logs), per_process)]
    kept = drop_outliers(logs)
    mean = statistics.fmean(kept)
    half = t95(len(kept) - 1) * statistics.stdev(kept) / math.sqrt(len(kept)) if len(kept) > 1 else math.inf
    return Ratio(math.exp(mean), math.exp(mean - half), math.exp(mean + half), len(new), len(logs) - len(kept))


def unpaired_ratio(new: list[float], old: list[float]) -> Ratio:
    """new/old from two separate runs (a saved baseline): Welch's interval on log values."""
    a, b = drop_outliers([math.log(v) for v in new if v > 0]), drop_outliers([math.log(v) for v in old if v > 0])
    if len(a) < 2 or len(b) < 2:
        return Ratio(math.exp(statistics.fmean(a) - statistics.fmean(b)), 0.0, math.inf, len(a), 0)
    va, vb = statistics.variance(a) / len(a), statistics.variance(b) / len(b)
    se = math.sqrt(va + vb)
    df = int((va + vb) ** 2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1))) if se else 1000
    mean, half = statistics.fmean(a) - statistics.fmean(b), t95(max(df, 1)) * se
    return Ratio(
        math.exp(mean), math.exp(mean - half), math.exp(mean + half), len(new), len(new) + len(old) - len(a) - len(b)
    )


def is_regression(ratio: Ratio, higher_is_better: bool, threshold: float) -> bool:
    """Worse with confidence and by more than `threshold`: for a rate, costlier per unit of work by
    more than `threshold` (0.05 = 5%); for a time, longer by more than that."""
    if higher_is_better:
        return ratio.high < 1 and ratio.estimate < 1 / (1 + threshold)
    return ratio.low > 1 and ratio.estimate > 1 + threshold


# ---------------------------------------------------------------- versions


@dataclass(frozen=True)
class Version:
    label: str
    root: Path


def version(text: str) -> Version:
    """A directory holding a copy of the project, or a git revision of this project (extracted once
    into the players' cache, with a warm numba cache, exactly as a `NAME@REV` player is)."""
    path = Path(text)
    if path.is_dir() and (path / "bots").is_dir():
        return Version(text, path.resolve())
    try:
        commit = players.git("rev-parse", "--verify", "--quiet", f"{text}^{{commit}}").decode().strip()
    except players.PlayerError as exc:
        raise BenchError(f"{text!r} is neither a project directory nor a git revision ({exc})") from None
    tree = players.cache_dir() / f"git-{commit}"
    if not tree.is_dir():
        print(f"extracting {text} ({commit[:12]}) to {tree} ...", file=sys.stderr, flush=True)
        players.extract(commit, tree)
    return Version(f"{text} ({commit[:12]})", tree)


class Worker:
    """arena/bench/worker.py running in one version's tree; asked for one figure at a time."""

    def __init__(self, v: Version, cpu: int | None = None):
        self.version = v
        boot = (
            f"import runpy, sys; sys.path.insert(0, {str(v.root)!r}); "
            f"runpy.run_path({str(WORKER)!r}, run_name='__main__')"
        )
        env = {**os.environ, "PYTHONPATH": str(v.root), "PYTHONHASHSEED": "0"}
        self._proc = subprocess.Popen(
            [sys.executable, "-c", boot], cwd=v.root, env=env, text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        if cpu is not None:
            os.sched_setaffinity(self._proc.pid, {cpu})

    def measure(self, request: dict) -> tuple[float | None, str]:
        """(value, "") or (None, why this version has no such figure)."""
        self._proc.stdin.write(json.dumps(request) + "\n")
        self._proc.stdin.flush()
        line = self._proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the bench worker in {self.version.root} exited ({self._proc.wait()})")
        answer = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"measuring {request['figure']} in {self.version.label} failed:\n{answer['error']}")
        return answer.get("value"), answer.get("unavailable", "")

    def close(self) -> None:
        self._proc.stdin.close()
        self._proc.wait(timeout=30)


# ---------------------------------------------------------------- the kernel figures


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
    from bots.volcanoes.registry import BOTS, is_pure
    from referee.puzzle import NAMES as PUZZLES

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


# ---------------------------------------------------------------- any command-line bot


def bench_positions() -> list[tuple[np.ndarray, int]]:
    """A fixed set of positions (blue-positive levels, turns played) from recorded games."""
    with gzip.open(POSITIONS_FILE, "rt") as f:
        return [(np.array(levels, dtype=np.int8), turns) for levels, turns in json.load(f)]


def protocol_turns(positions) -> list[list[str]]:
    """The lines CodinGame would send for each position (the init block before the first)."""
    from bots.volcanoes.state import GameState
    from referee.volcanoes import rules
    from referee.volcanoes.protocol import init_block, position_line, valid_line

    turns = []
    for levels, played in positions:
        state = GameState(levels, np.abs(levels) == rules.MAX_LEVEL, played)
        turns.append([position_line(levels, state.player), valid_line(state.legal_moves())])
    turns[0] = init_block() + turns[0]
    return turns


# Work a bot reports on stderr, e.g. "iterations=5230" or "playouts: 812" (summed over its moves).
WORK = re.compile(r"\b(playouts|iterations|nodes|simulations|rollouts)\s*[=:]\s*(\d+)", re.IGNORECASE)


def bot_command(spec: str, game: Game | None = None) -> tuple[str, str | None]:
    """The command line and directory of a player spec of `game` (default Volcanoes; a registered
    bot runs as its own process here, as it would on CodinGame)."""
    from arena.games.volcanoes import players as volcanoes_players
    from arena.games.volcanoes.game import VolcanoesGame

    player = players.resolve(spec, game or VolcanoesGame())
    if player.kind == "bot":
        module = registry.BOTS[volcanoes_players.spec_of(player).name][0]
        return shlex.join([sys.executable, "-m", module]), str(players.PROJECT_ROOT)
    return player.target, player.cwd


def command_at(command: str, old: Version) -> tuple[str, str]:
    """`command` with each file it names inside this project replaced by that file in `old`: a
    user's bot kept in the project's repository, at another revision."""
    args, moved = shlex.split(command), False
    for i, arg in enumerate(args):
        path = Path(arg).resolve()
        if path.is_file() and path.is_relative_to(players.PROJECT_ROOT):
            relative = path.relative_to(players.PROJECT_ROOT)
            if not (old.root / relative).is_file():
                raise BenchError(f"{relative} does not exist in {old.label}")
            args[i], moved = str(old.root / relative), True
    if not moved:
        raise BenchError(
            f"{command!r} names no file of this project to take from {old.label}: give the "
            "older bot's command with --against-bot"
        )
    return shlex.join(args), str(old.root)


def positions_transcript(count: int) -> transcripts.Transcript:
    """The first `count` fixed positions as one game-like transcript (one line answered a turn)."""
    turns = protocol_turns(bench_positions()[:count])
    return transcripts.Transcript(tuple(transcripts.Turn(tuple(lines)) for lines in turns), unit="position")


def legal_move(turn: transcripts.Turn, answer: tuple[str, ...]) -> str | None:
    """What is wrong with a Volcanoes answer to a fixed position (None if it is a legal move)."""
    if (answer[0].split() or [""])[0].upper() not in [*turn.given[-1].split(), "RANDOM"]:
        return "not a legal move"
    return None


def bot_run(
    command: str,
    cwd: str | None,
    scripts: list[transcripts.Transcript],
    check: transcripts.Check | None = None,
    first_s: float = 10.0,
    turn_s: float = 2.0,
) -> dict[str, float]:
    """One run of a bot over the transcripts, a process each: its figures for this run (the first
    answer, the mean over the processes; the latencies of every later turn together; the CPU time
    of them all). `cwd` is the tree of a version of this project (None for any other command)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    firsts, latencies, work = [], [], {}
    # A version of this project runs with its own tree first on the path, never another's.
    env = {**os.environ, "PYTHONPATH": cwd} if cwd else dict(os.environ)
    if warm_up_command(command, cwd) is not None:
        # One of the project's bots: its engine loads before its first answer (which then includes
        # the loading), so the turns time the engine, not the pure-Python stand-in that covers a
        # process's start-up on CodinGame's clock (`bots.volcanoes.launch`).
        env[LOAD_FIRST_VARIABLE] = "1"
    for script in scripts:
        run = transcripts.replay(command, script, cwd=cwd, env=env, first_s=first_s, turn_s=turn_s, check=check)
        firsts.append(run.first_s)
        latencies += [seconds * 1000 for seconds in run.later_s]
        for text in run.stderr:
            for kind, done in WORK.findall(text):
                work[kind.lower()] = work.get(kind.lower(), 0) + int(done)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if not latencies:
        raise BenchError("the turns to replay have no turn after a first one: nothing to time per move")
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    q = np.percentile(latencies, [50, 99])
    figures = {
        "first answer ms": statistics.fmean(firsts) * 1000,
        "latency p50 ms": float(q[0]),
        "latency p99 ms": float(q[1]),
        "latency max ms": max(latencies),
        "cpu per run ms": cpu * 1000,
    }
    for kind, done in work.items():
        figures[f"{kind}/s"] = done / (sum(latencies) / 1000)
    return figures


def measure_bots(
    commands: list[tuple[str, str | None]],
    scripts: list[transcripts.Transcript],
    rounds: int,
    progress=None,
    check: transcripts.Check | None = None,
    first_s: float = 10.0,
    turn_s: float = 2.0,
) -> Measured:
    """`rounds` rounds; in each, a run of every bot over the same transcripts, the order of the
    bots alternating from one round to the next."""
    out = Measured()
    for r in range(rounds):
        order = range(len(commands)) if r % 2 == 0 else reversed(range(len(commands)))
        got = {i: bot_run(*commands[i], scripts, check, first_s, turn_s) for i in order}
        shared = set.intersection(*(set(g) for g in got.values()))
        for name in got[0]:
            if name in shared:
                unit = name.rsplit(" ", 1)[1] if name.endswith(" ms") else "1/s"
                out.specs[name] = Spec(name, {}, unit, higher_is_better=unit == "1/s")
                for i in range(len(commands)):
                    out.values.setdefault(name, [[] for _ in commands])[i].append(got[i][name])
        if progress:
            progress(r + 1, rounds)
    return out


# ---------------------------------------------------------------- machines and baselines


def machine() -> dict[str, str]:
    """What a saved figure depends on besides the code."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), cpu)
    except OSError:
        pass
    import numba

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
    return figures


# ---------------------------------------------------------------- reports


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


def register(commands) -> None:
    from arena.cli import _game_options  # (arena.cli imports this module: it is loaded by now)

    bench = commands.add_parser(
        "bench",
        help="timing regression tests: two versions (or two bots) on this machine, in one run",
        description=__doc__,
    )
    what = bench.add_argument_group("what to compare")
    what.add_argument(
        "--against",
        metavar="REV",
        help="compare with this git revision (main, HEAD~1, a tag) or a directory holding a copy "
        "of the project; with --bot, that bot (a registered one, or the files of this project its command names) at REV",
    )
    what.add_argument("--tree", metavar="DIR", default=None, help="the new version (default: this working tree)")
    what.add_argument(
        "--bot",
        metavar="SPEC",
        help='time a bot through the protocol: a command line ("python my_bot.py"), a file, '
        "a registered bot or NAME@REV",
    )
    what.add_argument("--against-bot", metavar="SPEC", help="the older bot to compare --bot with")
    what.add_argument(
        "--only",
        nargs="+",
        metavar="WORD",
        help="only the kernel figures whose name contains one of these words (pure, numba, mcts...)",
    )
    how = bench.add_argument_group("how")
    how.add_argument("--quick", action="store_true", help="fewer, shorter rounds (for CI)")
    how.add_argument("--rounds", type=int, help="alternating rounds (default 12, 8 with --quick)")
    how.add_argument(
        "--seconds",
        type=positive_seconds,
        help="CPU seconds per kernel figure per version per round (default 0.25, 0.1 with --quick)",
    )
    how.add_argument(
        "--positions",
        type=count(1),
        help="positions per bot run (default 20, 10 with --quick); with a game's turns, the first N "
        "turns of each recorded transcript (default: all)",
    )
    how.add_argument(
        "--threshold",
        type=number(float, least=0),
        default=DEFAULT_THRESHOLD,
        help="a figure regresses when worse with 95%% confidence AND by more than this (default %(default)s = 5%%)",
    )
    saved = bench.add_argument_group("saved baselines (this machine only)")
    saved.add_argument("--save", metavar="FILE", help="store the figures, with this machine's description")
    saved.add_argument("--compare", metavar="FILE", help="exit 1 if a figure regressed against FILE")
    saved.add_argument(
        "--any-machine",
        action="store_true",
        help="compare with FILE although it came from another machine (a warning, not a refusal)",
    )
    recorded = bench.add_argument_group(
        "a bot of any game (--bot with --game NAME or --referee CMD): timed on turns recorded from its games"
    )
    recorded.add_argument(
        "--opponent", metavar="SPEC", help="the bot's opponent in the recorded games (default: the bot itself)"
    )
    recorded.add_argument(
        "--seed", type=int, default=1, help="the recorded games' seeds derive from it (default %(default)s)"
    )
    recorded.add_argument("--record", metavar="FILE", help="save the turns timed to FILE (JSON), for --turns")
    recorded.add_argument("--turns", metavar="FILE", help="time the bot on the turns saved in FILE by --record")
    _game_options(bench)
    bench.add_argument("--json", action="store_true", help="print every measured value as JSON")
    bench.add_argument("--list", action="store_true", help="list the figures (for --only) and exit")
    bench.set_defaults(run=main)


def chosen_game(args: argparse.Namespace) -> Game | None:
    """The game whose recorded turns time a bot (`--game`, `--referee`), or None: Volcanoes' fixed
    positions. The options that go with it are refused without a bot to time."""
    from arena.cli import _game

    named = args.game is not None or args.referee is not None or args.protocol is not None
    if not args.bot:
        given = [
            flag
            for flag, value in (
                ("--game/--referee", named),
                ("--turns", args.turns),
                ("--record", args.record),
                ("--opponent", args.opponent),
            )
            if value
        ]
        if given:
            raise BenchError(f"{given[0]} goes with --bot CMD (the bot to time on a game's turns)")
        return None
    if named and args.turns:
        raise BenchError("--turns FILE replays saved turns, --game/--referee records new ones: give one or the other")
    if args.opponent and not named:
        raise BenchError("--opponent goes with --game or --referee (the games to record)")
    return _game(args) if named else None


def turns_to_time(
    args: argparse.Namespace, game: Game | None, bot: tuple[str, str | None]
) -> tuple[list[transcripts.Transcript], transcripts.Check | None, tuple[float, float]]:
    """The transcripts a bot is timed on, the check of its answers, and its limits (first turn,
    later turns: only there to end a bot that hangs): saved ones (`--turns`), ones recorded from
    games of `game` (the bot against itself or `--opponent`), or Volcanoes' fixed positions."""
    if args.turns is None and game is None:
        return [positions_transcript(args.positions or (10 if args.quick else 20))], legal_move, (10.0, 2.0)
    if args.record and args.turns and Path(args.record).resolve() == Path(args.turns).resolve():
        raise BenchError(f"--record {args.record} would write over the --turns file it reads")
    if args.turns:
        scripts = transcripts.load(args.turns)
    else:
        command, cwd = bot
        player = Player(args.bot, args.bot, "command", command, "bench", cwd)
        opponent = None
        if args.opponent:
            command, cwd = bot_command(args.opponent, game)
            opponent = Player(args.opponent, args.opponent, "command", command, "bench", cwd)
        games = args.games or RECORDED_GAMES
        print(f"recording {games} game(s) of {game.name} (seed {args.seed}) ...", file=sys.stderr, flush=True)
        scripts = transcripts.record_games(game, player, opponent, games, args.seed)
    if args.positions:  # the first turns of each transcript only
        scripts = [dataclasses.replace(t, turns=t.turns[: args.positions]) for t in scripts]
    turns = sum(len(t.turns) for t in scripts)
    print(f"replaying {len(scripts)} transcript(s), {turns} turns, to each version each round", file=sys.stderr)
    return scripts, None, (REPLAY_FIRST_S, REPLAY_TURN_S)


def _progress(done: int, total: int) -> None:
    """One line rewritten in place on a terminal; a line a round in a log file, not one long line."""
    if sys.stderr.isatty():
        print(f"\rround {done}/{total}", end="\n" if done == total else "", file=sys.stderr, flush=True)
    else:
        print(f"round {done}/{total}", file=sys.stderr, flush=True)


def main(args: argparse.Namespace) -> int:
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
    baseline = load_baseline(args.compare, args.any_machine) if args.compare else None  # refused before measuring
    new = version(args.tree) if args.tree else Version("working tree", players.PROJECT_ROOT)
    game = chosen_game(args)
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
