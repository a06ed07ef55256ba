"""Protocol (A), game "cli": an external referee with the brutaltester command line, which starts the
bots and keeps their clocks itself (so the arena reports no time per turn for it).

    REFEREE -p1 CMD -p2 CMD [... -pN CMD] [SEED FLAG] [LEAGUE FLAG] [EXTRA ARGS] [-l LOG.json]

The flags vary by referee, hence templates: the seed flag `-d seed={seed}` (brutaltester's, the
default), `-seed {seed}`, or none (the referee then draws its seed: paired statistics are not
honest); the league `-league {league}` (the default), `-lvl {league}`, or `{league}` written in the
command itself where it is a JVM property (`java -Dleague.level={league} -jar referee.jar`: before
`-jar`); extra arguments after them. Java 17 and later want `--add-opens
java.base/java.lang=ALL-UNNAMED` in the command (the SDK's command-line runners use reflection).

Its stdout is read strictly: exactly one score per player, one a line, in seat order (an integer;
`null`, which an SDK runner prints for a game that never ended, is no score), then `key=value`
lines (the game's parameters, `seed=N` among them), and nothing else but, before the scores, lines
of the referee's own: the SDK's runner plays the referee in its own JVM, so what a referee prints
with System.out (Legends of Code and Magic's log of its turns) precedes the scores; brutaltester
skips such lines too, and they are kept in `data["referee_stdout"]`. A player with a negative
score failed (CodinGame's referees score a deactivated player -1): that is its error, and the game
counts (`negative_score_is_error = false` for a game whose normal scores may be below 0). With
`-l` (`log = true`, the default) the referee writes the SDK runner's result JSON (GameResultDto:
see referee/platform/brutaltester.py) to a temporary file, which gives each player's stderr turn by turn,
the tooltips that say why a player was deactivated (its error's kind: timeout, crash, start, else
`invalid`), the summaries, the uinput, the view frames (`Outcome.frames`, for the game's own viewer:
`log_frames`) and the `failCause` of a referee that crashed. The referee crashing, hanging past `timeout_s`, exiting non-zero, printing
anything else or writing no log when asked for one fails the game as a `RefereeFailure`.
"""

from __future__ import annotations

import hashlib
import json
import re
import shlex
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from annotated_types import Ge

from referee.platform.errors import shorten
from referee.platform.limits import STDERR_BYTES_PER_TURN

from .base import BOT_ERRORS, Frame, Outcome, TooDeep, is_finite_number, json_of
from arena.games.command import UNTOLD_ERROR, CommandGame, Finished, run_referee

PROTOCOL = "cli"
SEED_FLAG = "-d seed={seed}"  # brutaltester's
LEAGUE_FLAG = "-league {league}"
_PARAMETER = re.compile(r"([^=\s][^=]*)=(.*)")
FINGERPRINT_CHARS = 200  # a longer fingerprint is kept as its hash
REFEREE_STDOUT_KEPT = 4096  # the end of what a referee printed of its own before the scores


@dataclass(kw_only=True)
class CliGame(CommandGame):
    """A protocol-(A) referee as a game. Its arguments are plain data (`config()` gives them back)."""

    seed_flag: str = SEED_FLAG
    league: Annotated[int, Ge(0)] | None = None
    league_flag: str = LEAGUE_FLAG
    extra_args: str = ""
    log: bool = True
    negative_score_is_error: bool = True  # False for a game whose scores may be below 0 (then ranks only)

    protocol = PROTOCOL
    seed_advice = "fix how it is given the seed (--seed-flag, seed_flag in arena.toml)"

    def __post_init__(self):
        for label, text in (("seed flag", self.seed_flag), ("extra args", self.extra_args)):
            try:
                shlex.split(text)
            except ValueError as exc:
                raise self.mistake(f"cannot split its {label} {text!r}: {exc}") from None
        super().__post_init__()
        if self.seed_flag.strip() and "{seed}" not in self.seed_flag:
            raise self.mistake(f"its seed flag {self.seed_flag!r} has no {{seed}} (or give none: '')")
        for label, text in (("command", self.command), ("extra args", self.extra_args)):
            given = self._seed_given_in(shlex.split(text))
            if given:
                raise self.mistake(
                    f"{given!r} in its {label} {text!r} gives the referee a seed of its own, which it would keep "
                    f"and play every game on; its seed flag {self.seed_flag!r} gives each game the arena's "
                    "(--seed, --seeds): remove it"
                )
        if self.league is not None and "{league}" not in self.command + self.league_flag:
            raise self.mistake(
                f"league {self.league} is given, but neither its command nor its league flag has {{league}}"
            )
        if self.league is None and "{league}" in self.command:
            raise self.mistake("its command has {league}, but no league is given")

    def _seed_given_in(self, words: list[str]) -> str | None:
        """The words among `words` that give the referee a seed as the seed flag does (`seed=7` for
        `-d seed={seed}`, `-seed 7` for `-seed {seed}`): brutaltester's runner keeps the last one,
        so every game was played on it, under the different seeds the run recorded. None for none."""
        flag = shlex.split(self.seed_flag)
        for i, word in enumerate(flag):
            if "{seed}" not in word:
                continue
            before, after = word.split("{seed}", 1)
            if before or after:
                pattern = re.compile(re.escape(before) + ".*" + re.escape(after))
                found = next((w for w in words if pattern.fullmatch(w)), None)
                if found:
                    return found
            elif i > 0 and flag[i - 1] in words[:-1]:
                at = words.index(flag[i - 1])
                return f"{words[at]} {words[at + 1]}"
        return None

    def sends_frames(self) -> bool:
        return self.log  # in its log (-l)

    def arguments(self, seed: int, commands: list[str], log_path: str | None = None) -> list[str]:
        """The referee's command line for one game (in brutaltester's order: the players, the seed,
        then the rest, the log last)."""
        league = "" if self.league is None else str(self.league)
        args = [word.replace("{league}", league) for word in shlex.split(self.command)]
        for i, command in enumerate(commands, 1):
            args += [f"-p{i}", command]
        args += [word.replace("{seed}", str(seed)) for word in shlex.split(self.seed_flag)]
        if self.league is not None and "{league}" not in self.command:
            args += [word.replace("{league}", league) for word in shlex.split(self.league_flag)]
        args += shlex.split(self.extra_args)
        if log_path is not None:
            args += ["-l", log_path]
        return args

    def _play(self, seed: int, commands: list[str]) -> Outcome:
        with tempfile.TemporaryDirectory(prefix="caldera-cli-") as folder:
            log_path = str(Path(folder) / "log.json") if self.log else None
            finished = run_referee(self.arguments(seed, commands, log_path), self.timeout_s, self.cwd)
            finished.check_exit(self.timeout_s)
            if log_path and not Path(log_path).exists():
                parse_stdout(finished, self.seats)  # a referee printing no result failed at that first
            log = read_log(log_path, finished) if log_path else None
        return outcome(finished, log, self.seats, self.negative_score_is_error)


# ---------------------------------------------------------------- reading the referee's result


def read_log(path: str, finished: Finished) -> dict:
    """The SDK runner's result JSON the referee wrote with -l; RefereeFailure if there is none."""
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        raise finished.failure("the referee wrote no log with -l (for a referee without -l, set log = false)") from None
    try:
        log = json_of(text)
    except TooDeep as exc:
        raise finished.failure(f"the referee's log (-l) is {exc}") from None
    except ValueError as exc:
        raise finished.failure(f"the referee's log (-l) is not JSON: {exc}") from None
    if not isinstance(log, dict):
        raise finished.failure("the referee's log (-l) is not the SDK runner's result (a JSON object)")
    for key, kind in (("errors", dict), ("summaries", list), ("views", list), ("uinput", list), ("tooltips", list)):
        if log.get(key) is not None and not isinstance(log[key], kind):
            raise finished.failure(f"the referee's log (-l) has a malformed {key!r}")
    return log


def parse_stdout(finished: Finished, seats: int) -> tuple[list[float], list[str], list[str]]:
    """(scores, `key=value` lines, the lines before the scores) from the referee's stdout, read
    strictly: lines of the referee's own are taken only before a complete result (`seats` scores,
    then `key=value` lines to the end), and never end with a score (more scores than players are no
    result: which of them would be the players' cannot be told)."""
    lines = finished.stdout.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    end = len(lines)
    while end > 0 and _PARAMETER.fullmatch(lines[end - 1]):
        end -= 1
    start = end - seats
    chatter: list[str] = []
    if start > 0 and all(_score(line) is not None for line in lines[start:end]):
        extra = start - next((i + 1 for i in range(start - 1, -1, -1) if _score(lines[i]) is None), 0)
        if extra:
            raise finished.failure(f"the referee printed {seats + extra} scores for {seats} players")
        chatter, lines = lines[:start], lines[start:]
    scores: list[float] = []
    for line in lines[:seats]:
        if _PARAMETER.fullmatch(line):
            break
        score = _score(line)
        if score is None:
            raise finished.failure(f"the referee printed {shorten(line)} where player {len(scores)}'s score comes")
        scores.append(score)
    if len(scores) < seats:
        raise finished.failure(f"the referee printed {len(scores)} score{'s' * (len(scores) != 1)} for {seats} players")
    parameters = lines[seats:]
    for line in parameters:
        if not _PARAMETER.fullmatch(line):
            raise finished.failure(
                f"the referee printed {shorten(line)} after the scores, where only key=value lines come"
            )
    return scores, parameters, chatter


def _score(line: str) -> float | None:
    text = line.strip()
    try:
        value = int(text)
    except ValueError:
        try:
            value = float(text)
        except ValueError:
            return None
    return value if is_finite_number(value) else None


def outcome(finished: Finished, log: dict | None, seats: int, negative_score_is_error: bool = True) -> Outcome:
    """The game's outcome from the referee's stdout and, where it wrote one, its log. A negative
    score is that player's failure unless `negative_score_is_error` is False (a game whose normal
    scores may be below 0): then scores only rank."""
    log = log or {}
    if log.get("failCause"):
        cause = str(log["failCause"]).strip().splitlines() or ["?"]
        raise finished.failure(f"the referee's game failed: {shorten(cause[0], 200)}")
    scores, parameter_lines, chatter = parse_stdout(finished, seats)
    errors: list[str | None] = [None] * seats
    why: list[str] = [""] * seats
    for seat, score in enumerate(scores):
        if score < 0 and negative_score_is_error:
            errors[seat], why[seat] = failure_of(seat, log)
    failed = [seat for seat in range(seats) if errors[seat]]
    if failed:
        detail = "; ".join(f"player {seat} {errors[seat]}" + (f": {why[seat]}" if why[seat] else "") for seat in failed)
    else:
        detail = "scores " + " ".join(_number(s) for s in scores)
    stderr, turns = seat_stderr(log, seats)
    data: dict = {"parameters": dict(_PARAMETER.fullmatch(line).groups() for line in parameter_lines)}
    for key in ("summaries", "tooltips", "uinput", "metadata"):
        if log.get(key) is not None:
            data[key] = log[key]
    if chatter:
        data["referee_stdout"] = "\n".join(chatter)[-REFEREE_STDOUT_KEPT:]
    return Outcome.ranked(
        scores,
        errors,
        detail,
        turns=turns,
        stderr=stderr,
        fingerprint=fingerprint(parameter_lines, log),
        data=data,
        referee_stderr=finished.stderr,
        frames=log_frames(log, seats),
    )


def _number(score: float) -> str:
    return str(int(score)) if float(score).is_integer() else f"{score:g}"


_KIND_WORDS = (
    ("timeout", re.compile(r"time ?out|timed out|in time", re.IGNORECASE)),
    ("start", re.compile(r"cannot start|could not start|failed to (?:launch|start)", re.IGNORECASE)),
    ("crash", re.compile(r"crash|exited|killed by", re.IGNORECASE)),
)


def failure_of(seat: int, log: dict) -> tuple[str, str]:
    """(kind, what the referee said) of a failed player: from the log's tooltips about it (the SDK
    adds one when a player is deactivated, with the reason), else its summary lines; a tooltip
    whose text starts with a kind (`$1 timeout: ...`, as ours write them) is that kind, else words in
    it tell (`timeout`, `in time`, `crash`, `exited`, `cannot start`); else UNTOLD_ERROR."""
    mark = f"${seat}"
    texts = [
        str(t.get("text", "")) for t in log.get("tooltips") or [] if isinstance(t, dict) and t.get("event") == seat
    ]
    texts += [
        line for text in reversed(log.get("summaries") or []) for line in str(text or "").splitlines() if mark in line
    ]
    said = [text.strip().removeprefix(mark).strip().removeprefix(":").strip() for text in texts]  # "$0: why"
    for text in said:
        kind, colon, rest = text.partition(":")
        if colon and kind.strip().lower() in BOT_ERRORS:
            return kind.strip().lower(), rest.strip()
    for text in said:
        for kind, pattern in _KIND_WORDS:
            if pattern.search(text):
                return kind, text
    return UNTOLD_ERROR, said[0] if said else ""


def seat_stderr(log: dict, seats: int) -> tuple[list[list[str]] | None, int | None]:
    """Each player's stderr per turn it played (what it wrote before its first turn counted with
    that turn), and the number of turns (frames after the start), from the log's `errors`; (None,
    None) without."""
    frames = log.get("errors")
    if not frames:
        return None, None
    per_seat, turns = [], 0
    for seat in range(seats):
        entries = frames.get(str(seat)) or []
        turns = max(turns, len(entries) - 1)
        start = entries[0] if entries and isinstance(entries[0], str) else ""
        played = [str(entry) for entry in entries[1:] if entry is not None]
        if played:
            played[0] = start + played[0]
        elif start:
            played = [start]
        per_seat.append([_bounded(text) for text in played])
    return per_seat, turns


_VIEW_COMMAND = re.compile(r"([A-Z]+)(?=\d)")  # the SDK's command letter before a line's first entry (U1 0 x 5)


def view_entries(view: str) -> list[str]:
    """A view frame as the list of what it draws, whose order means nothing. A referee built on an
    SDK 1.x writes the entity updates of one position in an order that changes from one JVM run to
    the next (entities hashed by identity), so the frame's text changes while the position does not:
    the SDK's entity module writes each update as `ID TIME KEY VALUE ...`, updates separated by ';',
    commands by lines, each line led by its command's letter (`U1 0 x 5;2 0 x 7`). A frame that is
    JSON (`{"entitymodule": ...}`) is read as JSON, objects by key and strings by those rules."""
    try:
        value = json.loads(view)
    except (ValueError, RecursionError):
        value = view
    entries: list[str] = []
    stack = [("", value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, dict):
            stack.extend((f"{where}/{key}", child) for key, child in item.items())
        elif isinstance(item, list):
            stack.extend((f"{where}[]", child) for child in item)
        elif isinstance(item, str):
            for entry in re.split(r"[;\n]", item):
                command = _VIEW_COMMAND.match(entry)
                if command:
                    entries.append(f"{where}:{command[1]}")
                    entry = entry[command.end() :]
                entries.append(f"{where}:{entry}")
        else:
            entries.append(f"{where}={json.dumps(item)}")
    return entries


def log_frames(log: dict, seats: int) -> list[Frame] | None:
    """The viewer's frames from the log (None where it has no view): frame k is `views[k]` with
    `summaries[k]`, the tooltips of round k, and the answer that led to it. The runner's `outputs`
    and `errors` of a player begin with an entry before any round (no answer; its stderr until its
    first turn), so their entry k is round k-1's, the round whose answer frame k draws, as
    CodinGame's player shows it; the stderr before a player's first turn goes with that turn."""
    views = log.get("views") or []
    outputs, errors = log.get("outputs") or {}, log.get("errors") or {}
    summaries = log.get("summaries") or []
    tooltips: dict[int, list[tuple[str, int]]] = {}
    for tip in log.get("tooltips") or []:
        if isinstance(tip, dict) and isinstance(tip.get("turn"), int) and isinstance(tip.get("event"), int):
            tooltips.setdefault(tip["turn"], []).append((str(tip.get("text", "")), tip["event"]))
    early = {seat: _entry(errors, seat, 0) or "" for seat in range(seats)}
    frames = []
    for k, view in enumerate(views):
        if not isinstance(view, str):  # the runner's null for a round that never completed: the end
            break
        summary = summaries[k] if k < len(summaries) and isinstance(summaries[k], str) else ""
        frame = Frame(view=view, summary=summary, tooltips=tooltips.get(k, []))
        for seat in range(seats):
            output, stderr = _entry(outputs, seat, k), _entry(errors, seat, k)
            if k and (output is not None or stderr is not None):  # the round's only player
                answer = None if output is None else output.removesuffix("\n").split("\n")
                frame.seat, frame.output, frame.expected = seat, answer, len(answer or ())
                frame.stderr = _bounded(early.pop(seat, "") + (stderr or ""))
        frames.append(frame)
    return frames or None


def _entry(entries: dict, seat: int, index: int) -> str | None:
    """A player's entry of the log's `outputs` or `errors` (None where there is none or no text)."""
    column = entries.get(str(seat))
    value = column[index] if isinstance(column, list) and index < len(column) else None
    return value if isinstance(value, str) else None


def _bounded(text: str) -> str:
    data = text.encode("utf-8")
    return text if len(data) <= STDERR_BYTES_PER_TURN else data[:STDERR_BYTES_PER_TURN].decode("utf-8", "ignore")


def fingerprint(parameter_lines: list[str], log: dict) -> str | None:
    """What the referee says of the seed alone, whatever the bots do: its game parameters (`seed=N`
    and what it derived from it) and its first view frame (the position before any answer), as the
    position it draws (`view_entries`), not as the order it was written in."""
    parts = sorted(parameter_lines) or sorted(str(line) for line in log.get("uinput") or [])
    views = log.get("views") or []
    if views and isinstance(views[0], str):
        entries = "\0".join(sorted(view_entries(views[0])))
        parts.append("view:" + hashlib.sha256(entries.encode("utf-8")).hexdigest()[:16])
    text = " ".join(parts)
    if len(text) > FINGERPRINT_CHARS:
        return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()
    return text or None
