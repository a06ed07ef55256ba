"""`arena bench --bot`: any command-line bot timed through the protocol, on Volcanoes' fixed positions
or on turns recorded from real games of any game (arena/bench/transcripts.py): first answer,
per-move latency, CPU, and the work a bot reports on stderr."""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import json
import os
import re
import resource
import shlex
import statistics
import sys
from pathlib import Path

import numpy as np

from bots.volcanoes.launch import LOAD_FIRST_VARIABLE
from referee.platform.bot_commands import warm_up_command
from referee.platform.stderr_sink import STDERR_CUT

from arena.bench import transcripts
from arena.bench.kernels import POSITIONS_FILE, Measured, Spec
from arena.bench.versions import BenchError, Version
from arena.games.base import Game, Player
from arena.games.protocols import DEFAULT_GAME, make
from arena.players import registry as players
from arena.project import PROJECT_ROOT


RECORDED_GAMES = 2  # games recorded for `--bot CMD --game NAME` by default


# A replayed turn's limits: only there to end a bot that hangs (a bot is timed, not judged, here).
REPLAY_FIRST_S, REPLAY_TURN_S = 30.0, 10.0


def bench_positions() -> list[tuple[np.ndarray, int]]:
    """A fixed set of positions (blue-positive levels, turns played) from recorded games."""
    with gzip.open(POSITIONS_FILE, "rt") as f:
        return [(np.array(levels, dtype=np.int8), turns) for levels, turns in json.load(f)]


def protocol_turns(positions) -> list[list[str]]:
    """The lines CodinGame would send for each position (the init block before the first)."""
    # Volcanoes' engine (numba): imported only to time a bot on its positions.
    from bots.volcanoes.state import GameState
    from referee.volcanoes import rules
    from referee.volcanoes.protocol import init_block, position_line, valid_line

    turns = []
    for levels, played in positions:
        state = GameState(levels, np.abs(levels) == rules.MAX_LEVEL, played)
        turns.append([position_line(levels, state.player), valid_line(state.legal_moves())])
    turns[0] = init_block() + turns[0]
    return turns


CPU_FIGURE = "cpu per run ms"

# Work a bot reports on stderr, e.g. "iterations=5230" or "playouts: 812" (summed over its moves).
WORK = re.compile(r"\b(playouts|iterations|nodes|simulations|rollouts)\s*[=:]\s*(\d+)", re.IGNORECASE)


def bot_command(spec: str, game: Game | None = None) -> tuple[str, str | None]:
    """The command line and directory of a player spec of `game` (default Volcanoes; a registered
    bot runs as its own process here, as it would on CodinGame)."""
    refuse_a_revision_in_a_command(spec)
    game = game or make(DEFAULT_GAME)
    return players.command(players.resolve(spec, game), game)


def refuse_a_revision_in_a_command(spec: str) -> None:
    """BenchError where a command line holds FILE@REV ("python bot.py@slow"): a player spec of its
    own, which a command would be given as a file name that does not exist, failing only once the
    turns are replayed."""
    words = shlex.split(spec) if " " in spec.strip() else []
    for word in words:
        file = word.split("@", 1)[0]
        if "@" in word and Path(file).is_file() and not Path(word).exists():
            others = " ".join(w for w in words if w != word)
            raise BenchError(
                f"{spec!r} names {word}, a file at a revision: FILE@REV is a player spec of its own, "
                f"not a word of a command line; give {word} alone (drop {others!r})"
            )


# What to do where --against REV (a revision of this project) cannot give the older bot.
AGAINST_BOT = (
    "give the older bot's command with --against-bot (or FILE@REV, a file at a revision of its own repository)"
)


def command_at(command: str, old: Version) -> tuple[str, str]:
    """`command` with each file it names inside this project replaced by that file in `old`: a
    user's bot kept in the project's repository, at another revision."""
    args, moved = shlex.split(command), False
    for i, arg in enumerate(args):
        path = Path(arg).resolve()
        if path.is_file() and path.is_relative_to(PROJECT_ROOT):
            relative = path.relative_to(PROJECT_ROOT)
            if not (old.root / relative).is_file():
                raise BenchError(f"{relative} does not exist in {old.label}")
            args[i], moved = str(old.root / relative), True
    if not moved:
        raise BenchError(f"{command!r} names no file of this project to take from {old.label}: {AGAINST_BOT}")
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
    incomplete: dict[str, str] | None = None,
) -> dict[str, float]:
    """One run of a bot over the transcripts, a process each: its figures for this run (the first
    answer, the mean over the processes; the latencies of every later turn together; the CPU time
    of them all, every process they started included). `cwd` is the tree of a version of this
    project (None for any other command). A figure known to count short is said in `incomplete`
    (figure -> why) where given."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    firsts, latencies, work, cut, tree_cpu = [], [], {}, 0, []
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
        tree_cpu.append(run.cpu_s)
        latencies += [seconds * 1000 for seconds in run.later_s]
        # The work of the later turns only, over their time: the first turn's (its 1000 ms on
        # CodinGame, a budget of its own) over the later turns' time made a longer first turn
        # look like a faster bot.
        for text in run.stderr[1:]:
            if text.endswith(f"{STDERR_CUT}]"):
                cut += 1
            for kind, done in WORK.findall(text):
                work[kind.lower()] = work.get(kind.lower(), 0) + int(done)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if not latencies:
        raise BenchError("the turns to replay have no turn after a first one: nothing to time per move")
    if None in tree_cpu:  # the bots' own processes alone, reaped: not what they started
        cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        if incomplete is not None:
            incomplete[CPU_FIGURE] = (
                "this machine does not say what the processes a bot starts ran (no cgroup, "
                "no /proc), so a bot started by a script that does not exec it is counted as the script alone"
            )
    else:
        cpu = sum(tree_cpu)
    q = np.percentile(latencies, [50, 99])
    figures = {
        "first answer ms": statistics.fmean(firsts) * 1000,
        "latency p50 ms": float(q[0]),
        "latency p99 ms": float(q[1]),
        "latency max ms": max(latencies),
        CPU_FIGURE: cpu * 1000,
    }
    if cut and work:
        raise BenchError(
            f"{command!r} wrote more than {transcripts.STDERR_BYTES:,} bytes of stderr in {cut} turn(s): "
            "the work it reports there would be counted short; write less debug output while timed"
        )
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
    bots alternating from one round to the next. A figure that not every bot gives in a round (work
    that one version reports on stderr and the other does not) is skipped, with why."""
    out = Measured()
    for r in range(rounds):
        order = range(len(commands)) if r % 2 == 0 else reversed(range(len(commands)))
        got = {i: bot_run(*commands[i], scripts, check, first_s, turn_s, out.incomplete) for i in order}
        shared = set.intersection(*(set(g) for g in got.values()))
        for name in set.union(*(set(g) for g in got.values())) - shared:
            givers = [repr(commands[i][0]) for i in sorted(got) if name in got[i]]
            out.skipped.setdefault(name, f"only {', '.join(givers)} reports it, so there is nothing to compare")
        for name in got[0]:
            if name in shared and name not in out.skipped:
                unit = name.rsplit(" ", 1)[1] if name.endswith(" ms") else "1/s"
                out.specs[name] = Spec(name, {}, unit, higher_is_better=unit == "1/s")
                for i in range(len(commands)):
                    out.values.setdefault(name, [[] for _ in commands])[i].append(got[i][name])
        if progress:
            progress(r + 1, rounds)
    for name in out.skipped:  # (measured in the rounds before one version stopped giving it)
        out.values.pop(name, None)
        out.specs.pop(name, None)
    return out


@dataclasses.dataclass(frozen=True)
class Workload:
    """What a bot is timed on: the transcripts, the check of its answers, its limits (first turn,
    later turns: only there to end a bot that hangs), the game the turns are of in words (a
    baseline's label), and its configuration, saved with the turns by --record (None: Volcanoes'
    fixed positions, or turns saved without it)."""

    scripts: list[transcripts.Transcript]
    check: transcripts.Check | None
    limits: tuple[float, float]
    label: str = "Volcanoes' fixed positions"
    game: dict | None = None


def turns_to_time(args: argparse.Namespace, game: Game | None, bot: tuple[str, str | None]) -> Workload:
    """What a bot is timed on: saved turns (`--turns`), turns recorded from games of `game` (the bot
    against itself or `--opponent`), or Volcanoes' fixed positions."""
    if args.turns is None and game is None:
        scripts = [positions_transcript(args.positions or (10 if args.quick else 20))]
        return Workload(scripts, legal_move, (10.0, 2.0))
    if args.record and args.turns and Path(args.record).resolve() == Path(args.turns).resolve():
        raise BenchError(f"--record {args.record} would write over the --turns file it reads")
    if args.turns:
        saved = transcripts.read(args.turns)
        scripts, config = saved.transcripts, saved.game
        named = config.get("name") if config else None
        label = str(named) if named else f"the turns of {args.turns}"
    else:
        command, cwd = bot
        player = Player(args.bot, args.bot, "command", command, "bench", cwd)
        opponent = None
        if args.opponent:
            command, cwd = bot_command(args.opponent, game)
            opponent = Player(args.opponent, args.opponent, "command", command, "bench", cwd)
        games = args.games or RECORDED_GAMES
        print(f"recording {games} game(s) of {game.name} (seed {args.seed}) ...", file=sys.stderr, flush=True)
        recording = transcripts.record(game, player, opponent, games, args.seed)
        refuse_cut_games(recording.forfeits, args.record)
        scripts, config, label = recording.transcripts, game.config(), game.name
    if args.positions:  # the first turns of each transcript only
        scripts = [dataclasses.replace(t, turns=t.turns[: args.positions]) for t in scripts]
    turns = sum(len(t.turns) for t in scripts)
    print(f"replaying {len(scripts)} transcript(s), {turns} turns, to each version each round", file=sys.stderr)
    return Workload(scripts, None, (REPLAY_FIRST_S, REPLAY_TURN_S), label, config)


def refuse_cut_games(forfeits: list[transcripts.Forfeit], record: str | None) -> None:
    """BenchError where the version under test lost a recorded game by its own error (said above by
    the recording): it fails as it would on CodinGame, and its turns after that one cannot be timed.
    Where only an opponent did, the bot's turns stop early in that game: timed, not saved (--record)."""
    own = next((f for f in forfeits if f.recorded), None)
    if own is not None:
        raise BenchError(
            f"the version under test ({own.player}) lost {own.source} by {own.error}: a version that "
            "fails its games fails the bench (its turns after that one would go untimed)"
        )
    if forfeits and record:
        cut = forfeits[0]
        raise BenchError(
            f"not saving the turns to {record}: {cut.player} (the opponent) lost {cut.source} by {cut.error}, "
            "which cut the bot's turns short; record with another --opponent or --seed"
        )
