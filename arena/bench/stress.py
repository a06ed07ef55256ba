"""`arena bench --stress`: do the bots answer in time on a busy machine, from a fresh install?

Plays many games at once (default twice the cores), every bot as the process a user runs
(`python -m bots.volcanoes.NAME`), under CodinGame's limits (`referee/platform/limits.py`), and
prints per bot the first answers' times, the later turns' latency (median, p99, max) and every
forfeit with its stderr. numba's cache starts empty by default (a fresh NUMBA_CACHE_DIR that the
run's games share and fill as they go): what a user's first run looks like. `--cache per-game`
gives every game its own empty cache (every bot starts cold, compiling while it plays);
`--cache warm` compiles the kernels before the first game, so the figures are those of play alone.

A bot's process answers with the pure-Python stand-in until its engine has loaded, as on CodinGame
(`bots.volcanoes.launch`); games here are short and the machine busy, so the stand-in may answer
most turns: the column "own" says what share of the later turns the engine itself answered.
`--load-first` loads every engine before its game's first turn (the arena's way), so that the
engines answer every turn; with `--cache warm` it is the default (`--no-load-first` measures the
stand-ins on a warm cache).

Each game is played by its own worker process, so one game's referee never waits on another's.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor, as_completed
from itertools import combinations
from typing import TYPE_CHECKING

from tqdm import tqdm

from bots.volcanoes.launch import LOAD_FIRST_VARIABLE, TAKE_OVER_NOTE
from bots.volcanoes.registry import BOTS, is_pure
from referee.platform.bot_commands import warm_up
from referee.platform.bot_errors import BotError
from referee.platform.process import BotProcess
from referee.platform.limits import FIRST_TURN_MS, TURN_MS

# The referee (numba, half a second to import) is loaded when a stress run starts, not whenever the
# `arena` command builds its parser: `arena` on another game never loads numba.
if TYPE_CHECKING:
    from referee.volcanoes.match import Settings

FORFEITS = ("timeout", "crash", "invalid")


def default_bots() -> list[str]:
    """Every registered numba-side bot (the pure ones have no start-up to stress)."""
    return [name for name in BOTS if not is_pure(name)]


def command(name: str) -> str:
    return f"{sys.executable} -m {BOTS[name].module}"


def schedule(bots: list[str], games: int) -> list[tuple[str, str, int]]:
    """`games` (blue, orange, seed): every pair in turn, colours alternating, so each bot plays
    about 2 * games / len(bots) games."""
    pairs = list(combinations(bots, 2)) or [(bots[0], bots[0])]
    jobs = []
    for i in range(games):
        a, b = pairs[i % len(pairs)]
        swap = (i // len(pairs)) % 2
        jobs.append((b, a, i) if swap else (a, b, i))
    return jobs


def play_one(
    blue: str, orange: str, seed: int, settings: Settings, cache: str | None, load_first: bool = False
) -> dict:
    """One game in this worker; what `report` needs of it. `load_first`: the bots load their
    engines before the first turn (else their stand-ins answer until they have)."""
    # The referee and its seats (numba): imported by the worker that plays, not by `arena` itself.
    from arena.games.volcanoes.seats import wait_until_loaded
    from referee.volcanoes.match import play_game

    fresh = None
    if cache is None:  # per game: an empty cache of its own
        fresh = tempfile.mkdtemp(prefix="caldera-stress-numba-")
        cache = fresh
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    if load_first:
        env[LOAD_FIRST_VARIABLE] = "1"
    try:
        with BotProcess(command(blue), env=env) as b, BotProcess(command(orange), env=env) as o:
            loaded = {"blue": load_first and wait_until_loaded(b), "orange": load_first and wait_until_loaded(o)}
            result = play_game(b, o, seed, settings)
    except BotError as exc:  # a bot that cannot even start
        return {
            "blue": blue,
            "orange": orange,
            "seed": seed,
            "reason": "crash",
            "winner": "",
            "detail": str(exc),
            "turns": 0,
            "times": {"blue": [], "orange": []},
            "own": {"blue": 0, "orange": 0},
            "stderr": "",
        }
    finally:
        if fresh:
            shutil.rmtree(fresh, ignore_errors=True)
    names = {"blue": blue, "orange": orange}
    times, own = seat_turns(result.turn_log, loaded)
    last = result.turn_log[-1] if result.turn_log else None
    loser = "orange" if result.winner == "blue" else "blue"
    return {
        "blue": blue,
        "orange": orange,
        "seed": seed,
        "reason": result.reason,
        "winner": result.winner,
        "loser": names.get(loser),
        "detail": result.detail,
        "turns": result.turns,
        "times": times,
        "own": own,
        "stderr": (last.stderr if last else "")[-600:],
    }


def seat_turns(turn_log, loaded: dict[str, bool]) -> tuple[dict[str, list[float]], dict[str, int]]:
    """Each seat's turn times in ms (by seat: a bot may play itself), and how many of its later
    turns its engine surely answered itself: all of them for a seat `loaded` before the game, else
    those after the turn whose stderr first holds the take-over note (written right after an
    answer, it comes with that turn's stderr or the next one's), none without it."""
    times: dict[str, list[float]] = {"blue": [], "orange": []}
    noted: dict[str, int | None] = {"blue": None, "orange": None}
    for turn in turn_log:
        if turn.actor in times and turn.time_ms is not None:
            if noted[turn.actor] is None and TAKE_OVER_NOTE in turn.stderr:
                noted[turn.actor] = len(times[turn.actor])
            times[turn.actor].append(turn.time_ms)
    own = {}
    for seat, answered in times.items():
        if loaded[seat]:
            own[seat] = max(len(answered) - 1, 0)
        elif noted[seat] is not None:
            own[seat] = len(answered) - noted[seat] - 1
        else:
            own[seat] = 0
    return times, own


def _quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(records: list[dict], settings: Settings, out=None) -> int:
    """Print the per-bot table and every forfeit (on `out`, stdout by default); the number of forfeits."""
    out = out or sys.stdout
    bots = sorted({r["blue"] for r in records} | {r["orange"] for r in records})
    print(
        f"\n{len(records)} games, limits {settings.first_turn_ms:.0f} ms first turn / "
        f"{settings.turn_ms:.0f} ms after, at most {settings.max_turns} turns",
        file=out,
    )
    header = (
        f"{'bot':<11}{'games':>6}{'forfeits':>9}  {'first answer ms: median':>23}{'max':>7}"
        f"  {'later turns ms: median':>22}{'p99':>7}{'max':>7}{'>' + format(settings.turn_ms, 'g'):>6}{'turns':>8}{'own':>6}"
    )
    print(header, file=out)
    forfeits = [r for r in records if r["reason"] in FORFEITS]
    for bot in bots:
        mine = [r for r in records if bot in (r["blue"], r["orange"])]
        games_times = [r["times"][seat] for r in mine for seat in ("blue", "orange") if r[seat] == bot]
        first = [t[0] for t in games_times if t]
        later = [x for t in games_times for x in t[1:]]
        lost = sum(
            1 for r in forfeits if r.get("loser") == bot or (r["turns"] == 0 and bot in (r["blue"], r["orange"]))
        )
        over = sum(1 for x in later if x > settings.turn_ms)
        own = sum(r["own"][seat] for r in mine for seat in ("blue", "orange") if r[seat] == bot)
        print(
            f"{bot:<11}{len(mine):>6}{lost:>9}  {_quantile(first, 0.5):>23.1f}{max(first, default=float('nan')):>7.1f}"
            f"  {_quantile(later, 0.5):>22.1f}{_quantile(later, 0.99):>7.1f}"
            f"{max(later, default=float('nan')):>7.1f}{over:>6}{len(later):>8}"
            f"{own / max(len(later), 1):>6.0%}",
            file=out,
        )
    for r in forfeits:
        print(
            f"FORFEIT seed {r['seed']} {r['blue']} (blue) v {r['orange']} (orange): {r['loser']} "
            f"{r['reason']} at turn {r['turns']}: {r['detail']}",
            file=out,
        )
        answered = r["times"]["orange" if r["winner"] == "blue" else "blue"]
        if answered:  # how long its earlier turns took: a forfeit out of the blue, or one that built up
            print("  its turns before, ms: " + " ".join(f"{x:.1f}" for x in answered), file=out)
        if r["stderr"].strip():
            print("  its stderr: " + r["stderr"].strip().replace("\n", "\n  "), file=out)
    print(f"{len(forfeits)} forfeits", file=out)
    return len(forfeits)


def run(args: argparse.Namespace) -> int:
    from referee.volcanoes.match import Settings  # here: see the comment above TYPE_CHECKING

    bots = args.engines or default_bots()
    unknown = [b for b in bots if b not in BOTS or is_pure(b)]
    if unknown:
        print(
            f"arena bench --stress: not a registered numba-side bot: {', '.join(unknown)} "
            f"(known: {', '.join(default_bots())})",
            file=sys.stderr,
        )
        return 2
    load_first = loads_first(args)
    parallel = args.parallel or 2 * (os.cpu_count() or 1)
    games = args.games or parallel
    settings = Settings(
        turn_ms=args.turn_ms or TURN_MS,
        first_turn_ms=args.first_turn_ms or FIRST_TURN_MS,
        max_turns=args.max_turns,
    )
    shared = None if args.cache == "per-game" else tempfile.mkdtemp(prefix="caldera-stress-numba-")
    print(
        f"stress: {games} games of {', '.join(bots)}, {parallel} at once on {os.cpu_count()} cores, "
        f"numba cache: {args.cache}"
        + (f" ({shared})" if shared else "")
        + (", engines loaded before each game" if load_first else ""),
        file=sys.stderr,
    )
    try:
        if args.cache == "warm":
            os.environ["NUMBA_CACHE_DIR"] = shared
            for bot in bots:
                warm_up(command(bot), label=bot)
        records = []
        with (
            ProcessPoolExecutor(parallel) as pool,
            tqdm(total=games, unit="game", dynamic_ncols=True, file=sys.stderr) as bar,
        ):
            futures = [
                pool.submit(play_one, b, o, seed, settings, shared, load_first) for b, o, seed in schedule(bots, games)
            ]
            for future in as_completed(futures):
                records.append(future.result())
                bar.update()
                if records[-1]["reason"] in FORFEITS:
                    r = records[-1]
                    bar.write(f"forfeit: seed {r['seed']} {r['loser']} {r['reason']}: {r['detail']}", file=sys.stderr)
    finally:
        if shared:
            shutil.rmtree(shared, ignore_errors=True)
    return 1 if report(records, settings) else 0


def loads_first(args: argparse.Namespace) -> bool:
    """Whether the engines load before their games: as asked, else when the cache is warm (a warm
    cache is there to measure play, and behind a stand-in the engines rarely get to play)."""
    return args.cache == "warm" if args.load_first is None else args.load_first
