"""The turns a bot is timed on: transcripts of what a bot was given and what it answered, turn by
turn, in games of any game; recorded, saved, loaded, and replayed to a bot run as a process.

- *Recorded* (`record`): a few games of the chosen game are played, each seat that the bot
  under test takes wrapped in the recording proxy (record.py), whoever starts it (an external referee
  in protocols A and B, the arena in C, D and Volcanoes). A seat's log splits into turns: the lines
  it was given up to its answer, and the lines of that answer.
- *Saved* and *loaded* (`save`, `load`): a JSON file, so that a regression test replays the same
  turns every time (`arena bench --record FILE`, `--turns FILE`).
- *Replayed* (`replay`): one process of a bot per transcript, given each turn's lines as they were
  recorded, whatever it answers, and timed from the write of a turn's first line to its answer's
  last; it is given the seed its seat had in the recorded game (referee/platform/bot_env.py), so that a bot
  that takes it answers as it did, where its play depends on nothing else.
"""

from __future__ import annotations

import dataclasses
import json
import shlex
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from referee.platform.clock import turn_clock, turn_seconds
from referee.platform.files import write_atomic
from referee.platform.bot_errors import BotError, BotExited
from referee.platform.process import BotProcess

from arena.bench.record import ANSWERED, GIVEN
from arena.errors import UsageError
from arena.games.base import Game, Outcome, Player, RefereeFailure
from arena.play.run import machine_load
from arena.play.schedule import derive_seed
from arena.players import registry as players

RECORDER = Path(__file__).with_name("record.py")
FORMAT = "caldera bench transcripts"
FORMAT_VERSION = 1


class TranscriptError(UsageError):
    """Turns that cannot be recorded, read or replayed: one line that says why."""


@dataclass(frozen=True)
class Turn:
    given: tuple[str, ...]  # the lines the bot is given
    answer: tuple[str, ...] | None = None  # what it answered when recorded (None: a one-line answer, not recorded)

    @property
    def lines(self) -> int:
        """How many lines the answer has."""
        return 1 if self.answer is None else len(self.answer)


@dataclass(frozen=True)
class Transcript:
    """One seat's turns in one game, from its first: a bot replays them in one process."""

    turns: tuple[Turn, ...]
    seed: int | None = None  # the seat's bot seed in the recorded game, given again on replay
    source: str = ""  # where the turns come from, for messages: "game 2 (seed 1234), seat 1"
    unit: str = "turn"  # what a turn is called in messages ("position" for Volcanoes' fixed positions)

    def where(self, i: int) -> str:
        return f"{self.unit} {i + 1}" + (f" of {self.source}" if self.source else "")


# ---------------------------------------------------------------- a proxy's log


def read_log(path: Path) -> list[tuple[str, str]]:
    """The (direction, line) events of a proxy's log; a last line cut short (the proxy killed as it
    wrote) is left out."""
    events = []
    for text in path.read_text(encoding="utf-8").splitlines():
        try:
            direction, line = json.loads(text)
        except ValueError:
            break
        events.append((direction, line))
    return events


def turns_of(events: list[tuple[str, str]]) -> list[Turn]:
    """The turns of a log: each the lines given since the last answer, and the answer's lines up to
    the next line given. Lines given that no answer followed (the game ended first) are no turn."""
    turns: list[Turn] = []
    given: list[str] = []
    answer: list[str] = []
    for direction, line in events:
        if direction == GIVEN:
            if answer:
                turns.append(Turn(tuple(given), tuple(answer)))
                given, answer = [], []
            given.append(line)
        elif direction == ANSWERED:
            answer.append(line)
    if answer:
        turns.append(Turn(tuple(given), tuple(answer)))
    return turns


# ---------------------------------------------------------------- recording games


def recorded_command(command: str, log: Path) -> str:
    """`command` run through the recording proxy, which logs to `log`. Words joined by spaces, quoted
    only where needed: protocol (A) referees split a player's command on spaces."""
    return shlex.join([sys.executable, "-S", str(RECORDER), str(log), "--"]) + " " + command


# A recorded game in which a bot timed out by the machine's fault (`Outcome.late`) is played again, as
# the arena plays such a game again, up to this often in all: its turns stop where the machine failed.
MACHINE_TRIES = 3


@dataclass(frozen=True)
class Forfeit:
    """A seat that lost a recorded game by its player's own error (a timeout, a crash...)."""

    source: str  # "game 2 (seed 1234), seat 1"
    player: str  # the player's label
    error: str  # one of arena.games.base.BOT_ERRORS
    detail: str  # the game's line for people ("player 1 timed out on its turn 3...")
    recorded: bool  # a seat of the bot recorded (else of its opponent, which cut the bot's game short)

    def __str__(self) -> str:
        who = "the bot" if self.recorded else f"its opponent {self.player}"
        return f"recording {self.source}: {who} lost by {self.error} ({self.detail})"


@dataclass(frozen=True)
class Recording:
    """The transcripts of the bot's seats, and every seat that lost a recorded game by an error:
    each cut its game short, and with it the turns recorded."""

    transcripts: list[Transcript]
    forfeits: list[Forfeit]


def record_games(
    game: Game,
    bot: Player,
    opponent: Player | None,
    games: int,
    seed: int,
    log=None,
    forfeits: list[str] | None = None,
) -> list[Transcript]:
    """`record`'s transcripts; the error of each seat of the bot's that lost by one added to
    `forfeits` where given."""
    recording = record(game, bot, opponent, games, seed, log)
    if forfeits is not None:
        forfeits += [f.error for f in recording.forfeits if f.recorded]
    return recording.transcripts


def record(game: Game, bot: Player, opponent: Player | None, games: int, seed: int, log=None) -> Recording:
    """Play `games` games of `game` and keep the transcripts of the seats `bot` took: every seat
    when it plays itself (`opponent` None), else one seat a game, in turn, the opponent in the
    others. Game k's seeds derive from `seed` as the arena's schedule derives them. Each seat that
    lost by its player's error (a timeout, a crash) is said on `log`; a game in which a bot timed out
    by the machine's fault is played again (TranscriptError if it still is)."""
    log = log or sys.stderr
    if games < 1:
        raise TranscriptError(f"the number of games to record must be at least 1, not {games}")
    for player in (bot, opponent):
        if player is not None and player.kind == "bot":
            raise TranscriptError(f"{player.label} is an in-process bot: only a bot run as a process can be recorded")
    players.prepare([bot] + ([opponent] if opponent is not None else []), game, log)
    transcripts: list[Transcript] = []
    forfeits: list[Forfeit] = []
    with tempfile.TemporaryDirectory(prefix="caldera-record-") as folder:
        for k in range(games):
            game_seed = derive_seed(seed, "game", k)
            ours = [opponent is None or s == k % game.seats for s in range(game.seats)]
            logs = [Path(folder, f"game{k}-seat{s}.jsonl") if ours[s] else None for s in range(game.seats)]
            seated = [
                dataclasses.replace(bot, label=f"{bot.label}#{s}", target=recorded_command(bot.target, logs[s]))
                if ours[s]
                else opponent
                for s in range(game.seats)
            ]
            bot_seeds = [derive_seed(seed, "bot", s, k) for s in range(game.seats)]
            outcome = _play_in_time(game, k, game_seed, seated, bot_seeds, log)
            for s in range(game.seats):
                source = f"game {k + 1} (seed {game_seed}), seat {s}"
                error = outcome.errors[s] if s < len(outcome.errors) else None
                if error is not None:
                    label = bot.label if ours[s] else opponent.label
                    forfeits.append(Forfeit(source, label, error, outcome.detail, ours[s]))
                    print(forfeits[-1], file=log)
                if not ours[s]:
                    continue
                turns = turns_of(read_log(logs[s])) if logs[s].is_file() else []
                if error == "timeout" and turns:  # an answer that came too late is no turn of a game
                    turns.pop()
                if turns:
                    transcripts.append(Transcript(tuple(turns), bot_seeds[s], source))
    if not transcripts:
        raise TranscriptError(f"the {games} recorded game(s) of {game.name} gave no turn that {bot.label} answered")
    return Recording(transcripts, forfeits)


def _play_in_time(game: Game, k: int, game_seed: int, seated: list[Player], bot_seeds: list[int], log) -> Outcome:
    """Game k played, again where a bot timed out by the machine's fault (MACHINE_TRIES in all)."""
    for attempt in range(1, MACHINE_TRIES + 1):
        try:
            outcome = game.play(game_seed, seated, bot_seeds)
        except RefereeFailure as exc:
            raise TranscriptError(f"recording game {k + 1} (seed {game_seed}): the referee failed: {exc}") from None
        if not outcome.late:
            return outcome
        late = f"recording game {k + 1} (seed {game_seed}): {outcome.late}, the machine's fault, not the bot's ({machine_load()})"
        if attempt < MACHINE_TRIES:
            print(f"{late}: playing it again", file=log)
    raise TranscriptError(
        f"{late}, in each of {MACHINE_TRIES} tries: record on a quieter machine (run less beside the bench)"
    )


# ---------------------------------------------------------------- files


def save(path: str, transcripts: list[Transcript], game: dict | None = None) -> None:
    """Write `transcripts` (and the configuration of the game they come from) to `path`, atomically."""
    data = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "game": game,
        "transcripts": [
            {
                "source": t.source,
                "unit": t.unit,
                "seed": t.seed,
                "turns": [{"given": list(turn.given), "answer": turn.answer} for turn in t.turns],
            }
            for t in transcripts
        ],
    }
    try:
        write_atomic(path, json.dumps(data) + "\n")
    except OSError as exc:
        raise TranscriptError(f"cannot write {path}: {exc.strerror or exc}") from None


@dataclass(frozen=True)
class Saved:
    """What `save` wrote to a file: the transcripts, and the configuration of the game they are of
    (None: not said, as in a file saved from other saved turns before it was kept)."""

    transcripts: list[Transcript]
    game: dict | None


def load(path: str) -> list[Transcript]:
    """The transcripts `save` wrote to `path`."""
    return read(path).transcripts


def read(path: str) -> Saved:
    """What `save` wrote to `path`."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise TranscriptError(f"cannot read {path}: {exc.strerror or exc}") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise TranscriptError(f"{path} is not a transcripts file of `arena bench --record` ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise TranscriptError(f"{path} is not a transcripts file of `arena bench --record`")
    if data.get("version") != FORMAT_VERSION:
        raise TranscriptError(
            f"{path} is in version {data.get('version')!r} of the format; this arena reads {FORMAT_VERSION}"
        )
    try:
        transcripts = [
            Transcript(
                tuple(
                    Turn(_lines(turn["given"]), None if turn["answer"] is None else _lines(turn["answer"]))
                    for turn in t["turns"]
                ),
                t["seed"] if isinstance(t["seed"], int) else None,
                str(t["source"]),
                str(t["unit"]),
            )
            for t in data["transcripts"]
        ]
    except (KeyError, TypeError, ValueError) as exc:
        raise TranscriptError(f"{path}: a malformed transcript ({type(exc).__name__}: {exc})") from None
    transcripts = [t for t in transcripts if t.turns]
    if not transcripts:
        raise TranscriptError(f"{path} holds no turn")
    game = data.get("game")
    return Saved(transcripts, game if isinstance(game, dict) else None)


def _lines(value) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(line, str) for line in value):
        raise ValueError("lines are a list of strings")
    if any("\n" in line or "\r" in line for line in value):
        raise ValueError("a line holds a line end")
    return tuple(value)


# ---------------------------------------------------------------- replaying


# What a turn's stderr keeps: the work a bot reports there ("iterations=5230") may follow pages of
# its debug output, which a referee's 4 KiB a turn cut off, and the work figure with it.
STDERR_BYTES = 1 << 20


@dataclass
class Replayed:
    """What one process of a bot did over one transcript."""

    first_s: float  # from its start to its first answer (start, imports, the first turn)
    later_s: list[float]  # each later turn, from the write of its input to its answer's last line
    answers: list[tuple[str, ...]]
    stderr: list[str]  # what it wrote on stderr, turn by turn (bounded)
    # What every process of it ran on a processor, read before they were killed (None: not known).
    cpu_s: float | None = None


# A check of an answer: (turn, answer) -> what is wrong with it, or None.
Check = Callable[[Turn, tuple[str, ...]], str | None]


def replay(
    command: str,
    transcript: Transcript,
    *,
    cwd: str | None = None,
    env: dict[str, str] | None = None,
    first_s: float = 10.0,
    turn_s: float = 2.0,
    check: Check | None = None,
) -> Replayed:
    """Give `command`, started afresh, each turn of `transcript` and time its answers; within
    `first_s` for the first, `turn_s` for each later one. TranscriptError if it fails a turn."""
    started = time.perf_counter()
    replayed = Replayed(0.0, [], [], [])
    i = 0
    try:
        with BotProcess(command, cwd=cwd, env=env, seed=transcript.seed, stderr_bytes_per_turn=STDERR_BYTES) as bot:
            try:
                for i, turn in enumerate(transcript.turns):
                    answer, seconds = _ask(bot, turn, first_s if i == 0 else turn_s)
                    if i == 0:
                        replayed.first_s = time.perf_counter() - started
                    else:
                        replayed.later_s.append(seconds)
                    problem = check(turn, answer) if check else None
                    if problem:
                        raise TranscriptError(
                            f"{command!r} answered {answer[0][:40]!r} on {transcript.where(i)}, {problem}"
                        )
                    replayed.answers.append(answer)
                    replayed.stderr.append(bot.take_stderr())
                replayed.cpu_s = bot.tree.cpu_seconds()
            except BotExited as exc:  # (what it said last, an exception's message, says why)
                said = bot.last_stderr_line()
                raise TranscriptError(
                    f"{command!r} on {transcript.where(i)}: {exc}" + (f": {said}" if said else "")
                ) from None
    except BotError as exc:  # it could not start, or answered too late
        raise TranscriptError(f"{command!r} on {transcript.where(i)}: {exc}") from None
    return replayed


def _ask(bot: BotProcess, turn: Turn, limit_s: float) -> tuple[tuple[str, ...], float]:
    """Send a turn's lines and read its answer's: the answer and its time in seconds, less what this
    process meanwhile waited for a processor (as `BotProcess.ask` counts it)."""
    start = turn_clock()
    deadline = start[0] + limit_s
    bot.send(turn.given, limit_s)
    answer = tuple(bot.read_line(deadline - time.perf_counter()) for _ in range(turn.lines))
    return answer, turn_seconds(start)
