"""Protocol (C): a game refereed by a jar built on CodinGame's game engine SDK, driven as CodinGame's
own runner drives `com.codingame.gameengine.core.RefereeMain`, the arena owning the bots' processes
and their clocks.

The protocol, as the SDK's public source has it (CodinGame/codingame-game-engine: engine/core
GameManager, MultiplayerGameManager, AbstractPlayer, InputCommand, OutputCommand, OutputData,
GameEngineModule; runner/ GameRunner, MultiplayerGameRunner, GameTurnInfo, Command, Agent):

- Framing, both ways: a header line `[[COMMAND] N]` (the SDK matches `\\[\\[(.+)\\] ?([0-9]+)\\]` on
  the trimmed line), then exactly N lines. '\\r', '\\n' and '\\r\\n' all end a line.
- The referee is one JVM per game; it learns the game mode and the league from system properties,
  not from the protocol: `-Dgame.mode=multi` (without it an SDK 2.x+ referee stops: "Unknown game
  mode") and `-Dleague.level=N` (1 to 19; 1 when absent). A jar built on SDK 1.x to 4.4 bundles
  Guice 4, whose cglib cannot start on Java 16+ unless java.lang is opened to it: the JVM gets
  `JAVA_OPENS` unless `java_options` says otherwise (`-XX:+IgnoreUnrecognizedVMOptions` keeps Java 8
  from refusing `--add-opens`).
- We send `[[INIT] k]`, the player count, then k-1 game parameters as `key=value` lines, `seed=N`
  first (MultiplayerGameManager reads `seed`; without it the referee draws one itself). It reads
  each line with java.util.Properties, the last `seed` kept: no game parameter may be one.
- Then, each round: we send `[[GET_GAME_INFO] 0]` and read frames until the round is complete: a
  player's turn has VIEW, INFOS, NEXT_PLAYER_INPUT and NEXT_PLAYER_INFO (SUMMARY, TOOLTIP and, once
  per game since SDK 4.6, MONITORING may come too); the last round has VIEW, INFOS and SCORES
  (UINPUT, METADATA before SCORES); a FAIL frame (SDK 2.x+: the referee threw) ends everything.
  NEXT_PLAYER_INFO is three lines: the player's index, how many lines it must answer, its time limit
  in ms (its first turn's limit, 1000 ms by default, then the turn limit; since SDK 4.7.7 each with 50
  ms more, the referee judging the overrun itself; in 4.7.7's time-bank mode, what is left of the
  player's bank). The player is given NEXT_PLAYER_INPUT's lines;
  we answer `[[SET_PLAYER_OUTPUT] n]` and its n lines, or `[[SET_PLAYER_TIMEOUT] 0]` when it did not
  answer them all in time. Once MONITORING was seen, every SET_PLAYER_OUTPUT starts with one more
  line, the player's time in whole ms, from which SDK 4.7.7+ referees count overruns (the third is
  a timeout): an overrun is a time past the referee's own limit, the one it asked less the 50 ms
  (AbstractPlayer.execute). A round that executes nobody (SDK 3.x+) still makes a frame: player 0 is "asked" for 0
  lines; it is given its input, and we answer at once, reading nothing.
- The last round's frames are printed without waiting for its GET_GAME_INFO; SCORES is one
  `index score` line per player; UINPUT the game parameters as the referee used them.
- An answer's lines are read into one buffer of 10,000 bytes; answers are not trimmed.

Each round's VIEW is a frame of the game's own viewer (the jar's `view/`, see arena/web/viewer.py):
the outcome keeps them (`Outcome.frames`), each with the round's summary and tooltips and the answer
that led to it, as CodinGame's player shows a frame: frame k (round k's view) shows round k-1's
answer, its input and its stderr, the view being the state that answer made.

Clocks are ours: each turn's limit is what the referee asks (or our override), and a player's time
runs from the write of its input to its last line. Where our override holds, the time line tells the
referee the time scaled to its own limit (`reported_ms`): else a 4.7.7+ referee would judge an
answer in time by the override late by its own limit. `soft_timeouts` adds SDK 4.7.7's rule for older
referees: 50 ms of grace past the limit, and the third overrun is a timeout.

A timeout is news to the referee, not a verdict: the referee decides what it costs, and some ask for
answers they never read (Legends of Code and Magic, SDK 2.6, shows each action of a turn in a frame
of its own by executing the player with no input and a 1 ms limit). So a seat's timeout is its error
only where the referee marks the seat as failed (a score below 0, or none); else the seat played on,
and the answers it missed are counted in `data["missed_turns"]`. A crash stays the seat's error.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from fractions import Fraction

from referee.platform.limits import GRACE_MS, OVERRUNS_ALLOWED
from referee.platform.options import MAX_MS

from arena.games.base import Frame, Outcome, is_finite_number
from arena.games.cli import failure_of
from arena.games.runner import Referee, RefereeGame, Seats, bounded, garbage, outcome

PROTOCOL = "sdk"
JAVA_OPENS = ("-XX:+IgnoreUnrecognizedVMOptions", "--add-opens=java.base/java.lang=ALL-UNNAMED")
REFEREE_MAIN = "com.codingame.gameengine.core.RefereeMain"
MAX_PLAYERS = 8  # GameRunner: "You may add up to eight players only"

FRAME_HEADER = re.compile(r"\[\[(?P<command>.+)\] ?(?P<count>[0-9]+)\]")
REFEREE_FRAMES = frozenset(
    {"VIEW", "INFOS", "NEXT_PLAYER_INPUT", "NEXT_PLAYER_INFO", "SCORES", "UINPUT", "TOOLTIP", "SUMMARY", "METADATA"}
    | {"FAIL", "MONITORING"}
)
PLAYER_TURN = frozenset({"VIEW", "INFOS", "NEXT_PLAYER_INPUT", "NEXT_PLAYER_INFO"})  # GameTurnInfo
LAST_TURN = frozenset({"VIEW", "INFOS", "SCORES"})
FRAME_BYTES = 8 * 1024 * 1024  # a whole frame; the SDK's own quota for a game's view data is 1 MiB
PROPERTY_KEY = re.compile(r"[ \t\f]*((?:\\.|[^=: \t\f\\])*)")  # java.util.Properties' key of a line
_JAVA_BLANK = "".join(map(chr, range(33)))  # what Java's String.trim() removes

# What Outcome.data keeps of a game (it is stored with every game): bounded.
SUMMARY_CHARS = 64_000
# What Outcome.frames keeps: each input cut at INPUT_CHARS; a game whose frames run past FRAMES_CHARS
# in all (the SDK's own quota for a game's view data is 1 MiB) keeps none.
INPUT_CHARS = 20_000
FRAMES_CHARS = 32 * 1024 * 1024
TOOLTIPS = 500
METADATA_CHARS = 16_000
UINPUT_LINES = 200


@dataclass(kw_only=True)
class SdkGame(RefereeGame):
    """A game refereed by an SDK jar's RefereeMain (see the module's docstring). Plain data.

    `command`: the referee's command line, or the path of the game's jar (then run as `java
    JAVA_OPTIONS -cp JAR RefereeMain`); `java_options`: the JVM's options (None: `JAVA_OPENS`).
    `parameters`: game parameters beside the seed. `league`: the league level (1 first).
    `first_turn_ms`, `turn_ms`: override the limits the referee asks (None: as it asks).
    `negative_score_is_error`: a player the referee scores below 0 failed (CodinGame's referees mark a
    deactivated player so: of the kind its tooltips say, else `invalid`), and a timeout counts only
    for a player so marked (False: every timeout counts)."""

    name: str = PROTOCOL
    league: int | None = None
    parameters: dict[str, str | int | float] | None = None
    soft_timeouts: bool = False
    negative_score_is_error: bool = True

    protocol = PROTOCOL
    max_players = MAX_PLAYERS
    jar_main = ("-cp", "{jar}", REFEREE_MAIN)
    default_java_options = JAVA_OPENS
    referee_asks_limits = True

    def __post_init__(self):
        super().__post_init__()
        if self.league is not None and not 1 <= self.league < 20:
            raise self.mistake(f"a league level is 1 to 19 (the SDK's own bounds), not {self.league!r}")
        self.parameters = {str(k): str(v) for k, v in (self.parameters or {}).items()}
        for key, value in self.parameters.items():  # one line each in [[INIT]]: a line end would add frames
            if "=" in key or any(char in key + value for char in "\r\n") or not key.strip():
                raise self.mistake(f"game parameter {key!r} = {value!r}: a parameter is one line, key=value")
            if property_key(f"{key}={value}") == "seed":  # the referee keeps the last seed it is given
                raise self.mistake(
                    f"game parameter {key!r} = {value!r}: the arena gives each game its seed (--seed N fixes"
                    " the run's, from which each game's derives; --seeds FILE gives the games' own), and a"
                    " seed among the parameters would play every game on it while the run records others"
                )

    def sends_frames(self) -> bool:
        return True

    def java_properties(self) -> list[str]:
        """The game mode and the league, as the SDK reads them."""
        return ["-Dgame.mode=multi"] + ([f"-Dleague.level={self.league}"] if self.league else [])

    def _play(self, referee: Referee, seats: Seats, seed: int) -> Outcome:
        init = [str(self.seats)] + ([f"seed={seed}"] if self.send_seed else [])
        init += [f"{key}={value}" for key, value in self.parameters.items()]
        referee.send([f"[[INIT] {len(init)}]", *init])
        kept = Kept()
        frames = FrameLog()
        monitoring = False
        overruns = [0] * self.seats
        rounds = 0
        while True:
            referee.send(["[[GET_GAME_INFO] 0]"])
            turn = read_turn(referee)
            monitoring = monitoring or "MONITORING" in turn
            kept.add(turn, rounds, referee, self.seats)
            frames.view(turn)
            if "SCORES" in turn:
                break
            rounds += 1
            seat, count, asked_ms = next_player(turn["NEXT_PLAYER_INFO"], referee, self.seats)
            override_ms = self.override_ms(seats, seat)
            limit_ms = self.limit_ms(seats, seat, asked_ms)
            hard_ms = limit_ms + (GRACE_MS if self.soft_timeouts else 0)
            seats.send(seat, turn["NEXT_PLAYER_INPUT"], hard_ms / 1000)
            stderr_turns = len(seats.stderr[seat])
            if count == 0:  # a frame in which nobody plays: no answer is read (GameRunner)
                answer, ms = [], 0.0
            else:
                answer, ms = seats.answer(seat, count, hard_ms / 1000)
                if answer is not None and self.soft_timeouts and ms > limit_ms:
                    overruns[seat] += 1
                    if overruns[seat] > OVERRUNS_ALLOWED:
                        answer = None
                        seats.missed[seat] += 1
                        seats.errors[seat] = seats.errors[seat] or "timeout"
                        seats.details[seat] = seats.details[seat] or (
                            f"player {seat} answered over its limit ({limit_ms:g} ms) a third time"
                        )
            stderr = seats.stderr[seat][-1] if len(seats.stderr[seat]) > stderr_turns else ""
            timed = count and answer is not None
            frames.played(seat, turn["NEXT_PLAYER_INPUT"], count, limit_ms, answer, stderr, ms if timed else None)
            if answer is None:
                referee.send(["[[SET_PLAYER_TIMEOUT] 0]"])
            else:
                body = ([str(reported_ms(ms, asked_ms, override_ms))] if monitoring else []) + answer
                referee.send([f"[[SET_PLAYER_OUTPUT] {len(body)}]", *body])
        referee.finish()
        scores = read_scores(turn["SCORES"], referee, self.seats)
        errors = list(seats.errors)
        details = list(seats.details)
        if self.negative_score_is_error:
            for seat, score in enumerate(scores):
                marked = score is None or score < 0
                if errors[seat] == "timeout" and not marked:  # the referee let it play on (see above)
                    errors[seat], details[seat] = None, ""
                elif errors[seat] is None and marked and score is not None:
                    # What the referee said of it, as the SDK runner's log would have it (protocol A):
                    # an SDK 4.7.7+ referee times out a player whose third answer came in time by our
                    # clock but over its limit, and says so in its tooltip.
                    kind, said = failure_of(seat, kept.runner_log())
                    errors[seat] = kind
                    details[seat] = f"player {seat} scored {score}" + (f": {said}" if said else "")
        data = kept.data()
        if self.soft_timeouts:
            data["overruns"] = overruns
        if any(seats.missed):
            data["missed_turns"] = list(seats.missed)
        if frames.over:
            data["frames_not_kept"] = f"its view frames ran past {FRAMES_CHARS:,} characters"
        done = outcome(referee, seats, errors, details, scores=scores, turns=rounds, data=data)
        done.frames = frames.kept()
        return done


def property_key(line: str) -> str:
    """The key java.util.Properties reads from one `key=value` line of [[INIT]], as the SDK reads the
    game parameters: blanks before it skipped, up to the first unescaped `=`, `:` or blank."""
    written = PROPERTY_KEY.match(line)[1]
    return re.sub(r"\\(.)", r"\1", written)


def reported_ms(ms: float, asked_ms: int, override_ms: float | None) -> int:
    """The time, in whole ms, that the monitoring line of an answer tells the referee: the time
    measured, or where our override replaced the limit the referee asked, that time scaled by the
    referee's own limit (what it asked less GRACE_MS) over the override, rounded up, exactly (as
    fractions): an answer in time by our clock is in time by the referee's, one late is late."""
    if override_ms is None:
        return int(ms)
    own_ms = max(asked_ms - GRACE_MS, 0)
    return math.ceil(Fraction(ms) * Fraction(own_ms) / Fraction(override_ms))


def read_frame(referee: Referee) -> tuple[str, list[str]]:
    header = referee.read_line("a frame")
    match = FRAME_HEADER.fullmatch(header.strip(_JAVA_BLANK))
    if match is None:
        raise referee.failure(f"the referee printed {garbage(header)} where a frame [[COMMAND] N] was due")
    command, count = match["command"], int(match["count"])
    if command not in REFEREE_FRAMES:
        raise referee.failure(f"the referee sent a frame the protocol does not have: [[{command[:40]}]]")
    lines, size = [], 0
    for index in range(count):
        lines.append(referee.read_line(f"line {index + 1} of {count} of its [[{command}]] frame"))
        size += len(lines[-1])
        if size > FRAME_BYTES:
            raise referee.failure(f"the referee's [[{command}]] frame ran past {FRAME_BYTES:,} characters")
    return command, lines


def read_turn(referee: Referee) -> dict[str, list[str]]:
    """The frames of one round, until it is complete (GameTurnInfo); a FAIL frame is the referee's
    failure, its lines (a Java stack trace) the detail."""
    turn: dict[str, list[str]] = {}
    while not (PLAYER_TURN <= turn.keys() or LAST_TURN <= turn.keys()):
        command, lines = read_frame(referee)
        if command == "FAIL":
            cause = next((line.strip() for line in lines if line.strip()), "no cause given")
            raise referee.failure(f"the referee failed: {cause}", bounded("\n".join(lines), METADATA_CHARS))
        turn[command] = lines
    return turn


def _integers(lines: list[str], what: str, referee: Referee) -> list[int]:
    try:
        return [int(line) for line in lines]
    except ValueError:
        raise referee.failure(f"the referee's {what} are not integers: {garbage(' | '.join(lines))}") from None


def next_player(lines: list[str], referee: Referee, players: int) -> tuple[int, int, int]:
    """(seat, lines it must answer, time limit in ms) from a NEXT_PLAYER_INFO frame."""
    if len(lines) != 3:
        raise referee.failure(f"the referee's [[NEXT_PLAYER_INFO]] has {len(lines)} lines, not 3")
    seat, count, timeout = _integers(lines, "[[NEXT_PLAYER_INFO]] lines", referee)
    if not 0 <= seat < players or count < 0 or not 0 <= timeout <= MAX_MS:
        raise referee.failure(f"the referee asked player {seat} for {count} lines in {timeout} ms ({players} players)")
    return seat, count, timeout


def read_scores(lines: list[str], referee: Referee, players: int) -> list[float | None]:
    """Each seat's score from the SCORES frame (`index score` lines; others are skipped, as the
    SDK's runner skips them). Every seat is scored once (the SDK's referees score each player):
    else the referee fails."""
    scores: list[float | None] = [None] * players
    scored: set[int] = set()
    skipped = []
    for line in lines:
        parts = line.split(" ")
        if len(parts) < 2:
            skipped.append(line)
            continue
        seat, score = _integers(parts[:2], "[[SCORES]]", referee)
        if not is_finite_number(score):
            raise referee.failure(
                f"the referee's [[SCORES]] give player {seat} {garbage(parts[1])}, no number a float holds"
            )
        if not 0 <= seat < players:
            raise referee.failure(f"the referee scored player {seat} of a {players}-player game")
        if seat in scored:
            raise referee.failure(f"the referee's [[SCORES]] score player {seat} twice")
        scored.add(seat)
        scores[seat] = score
    if len(scored) < players:
        missing = min(set(range(players)) - scored)
        shape = f" (a line such as {garbage(skipped[0])} is no `index score`)" if skipped and skipped[0].strip() else ""
        raise referee.failure(f"the referee's [[SCORES]] give no score for player {missing}{shape}")
    return scores


class FrameLog:
    """The frames of the game's viewer as they come (`Frame`): each round's VIEW, summary and tooltips,
    and the answer of the round before it, bounded (INPUT_CHARS, FRAMES_CHARS)."""

    def __init__(self):
        self.frames: list[Frame] = []
        self.turn: dict | None = None  # the latest round's answer, for the next frame
        self.chars = 0
        self.over = False

    def view(self, turn: dict[str, list[str]]) -> None:
        tooltip = turn.get("TOOLTIP", [])
        tooltips = [(text, int(seat)) for text, seat in zip(tooltip[0::2], tooltip[1::2], strict=False)]
        frame = Frame(
            view="\n".join(turn["VIEW"]),
            summary="\n".join(turn.get("SUMMARY", turn.get("INFOS", []))),
            tooltips=tooltips,
            **(self.turn or {}),
        )
        self.turn = None
        self.chars += len(frame.view) + len(frame.summary) + sum(len(line) for line in frame.input)
        self.chars += len(frame.stderr) + sum(len(line) for line in frame.output or ())
        self.over = self.over or self.chars > FRAMES_CHARS
        if not self.over:
            self.frames.append(frame)

    def played(self, seat, lines, count, limit_ms, answer, stderr, ms) -> None:
        given, size = [], 0
        for line in lines:
            size += len(line) + 1
            if size > INPUT_CHARS:
                given.append(f"... [{len(lines) - len(given)} more lines not kept]")
                break
            given.append(line)
        self.turn = dict(seat=seat, input=given, expected=count, limit_ms=limit_ms, output=answer, stderr=stderr)
        if ms is not None:
            self.turn["ms"] = round(ms, 3)

    def kept(self) -> list[Frame] | None:
        return None if self.over or not self.frames else self.frames


class Kept:
    """What a game keeps of the referee's frames for `Outcome.data`, bounded: summaries, tooltips,
    the game parameters (uinput), metadata, the number of view frames."""

    def __init__(self):
        self.summaries: list[list] = []  # [round, text]
        self.summary_chars = 0
        self.tooltips: list[dict] = []
        self.uinput: list[str] = []
        self.metadata: str | None = None
        self.views = 0
        self.cut = False

    def add(self, turn: dict[str, list[str]], round_: int, referee: Referee, players: int) -> None:
        self.views += "VIEW" in turn
        summary = "\n".join(turn.get("SUMMARY", turn.get("INFOS", [])))
        if summary:
            if self.summary_chars + len(summary) <= SUMMARY_CHARS:
                self.summaries.append([round_, summary])
                self.summary_chars += len(summary)
            else:
                self.cut = True
        tooltip = turn.get("TOOLTIP", [])
        for text, seat in zip(tooltip[0::2], tooltip[1::2], strict=False):
            (number,) = _integers([seat], "[[TOOLTIP]] player indices", referee)
            if len(self.tooltips) < TOOLTIPS:
                self.tooltips.append({"round": round_, "text": text, "player": number})
            else:
                self.cut = True
        if "UINPUT" in turn:
            self.uinput = turn["UINPUT"][:UINPUT_LINES]
        if "METADATA" in turn:
            self.metadata = "\n".join(turn["METADATA"])

    def runner_log(self) -> dict:
        """The tooltips and summaries kept, shaped as in the SDK runner's result JSON."""
        tooltips = [{"text": t["text"], "event": t["player"]} for t in self.tooltips]
        return {"tooltips": tooltips, "summaries": [text for _, text in self.summaries]}

    def data(self) -> dict:
        data: dict = {"summaries": self.summaries, "tooltips": self.tooltips, "uinput": self.uinput}
        data["views"] = self.views
        if self.metadata is not None:
            try:
                data["metadata"] = json.loads(self.metadata) if len(self.metadata) <= METADATA_CHARS else None
            except ValueError:
                data["metadata"] = bounded(self.metadata, METADATA_CHARS)
            if data["metadata"] is None:
                data["metadata"] = bounded(self.metadata, METADATA_CHARS)
        if self.cut:
            data["cut"] = True  # more summaries or tooltips came than are kept
        return data
