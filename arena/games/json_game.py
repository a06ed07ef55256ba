"""Protocol (B), game "json": a play-one-game command, as psyleague (`cmd_play_game`) and CGArena
(`cmd_play_match`) run one, which starts the bots and keeps their clocks itself and prints the
result as JSON (so the arena reports no time per turn for it).

The command is a template, split into words as a POSIX shell splits them (no shell runs it: for
pipes or `cd`, write `sh -c '...'`), in which these placeholders are replaced:
- a player's command: `{p1}`, `{p2}`, ... (`{P1}` too, CGArena's form) or `%P1%`, `%P2%`, ...
  (psyleague's). A placeholder that is a whole word becomes one argument, the command with its
  spaces (as CGArena passes it); inside a longer word it is replaced as text.
- all the players' commands: `{players}` (`{PLAYERS}`, CGArena's), a whole word, becomes one
  argument per player; a word holding `%ALL_PLAYERS%` (psyleague's) is repeated once per player
  with the player's command in its place (`bots/%ALL_PLAYERS%` -> `bots/CMD1 bots/CMD2`).
- the seed: `{seed}` (`{SEED}`, CGArena's) or `%SEED%`. psyleague passes none: a command without a
  seed placeholder draws its own, and paired statistics on it are not honest (the arena's seed
  check refuses it without playing, `passes_seed`, unless the user allows it).
Every player must be placed, once or through an all-players placeholder.

Its stdout must be one JSON object (or a list holding one, as psyleague also accepts): `ranks`
(one per player, 0 first, equal for a tie) and `errors` (one per player: 0 or false for none; a
number above 0 or true for a player that failed, of a kind the command does not say; or one of
the arena's words, timeout, invalid, crash, start) are required; `scores` (numbers) may come; the
rest is kept in `Outcome.data` (psyleague's `test_data` and `player_data`, CGArena's `attributes`).
A seed it reports (`seed`, `test_data.seed`, or a CGArena attribute named `seed` for no player) is
the game's fingerprint. A command that crashes, hangs past `timeout_s`, exits non-zero or prints
anything else fails the game as a `RefereeFailure`.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from referee.platform.errors import shorten

from .base import BOT_ERRORS, Outcome, TooDeep, is_finite_number, json_of
from arena.games.command import UNTOLD_ERROR, CommandGame, Finished, run_referee

PROTOCOL = "json"
_SEAT = re.compile(r"\{[pP]([1-9])\}|%P([1-9])%")
_SEED = re.compile(r"\{seed\}|\{SEED\}|%SEED%")
_ALL_WORDS = ("{players}", "{PLAYERS}")  # CGArena's: a whole word
_ALL_IN_WORD = "%ALL_PLAYERS%"  # psyleague's: inside a word
_FOREIGN = re.compile(r"%[A-Z_]+%|\{[A-Za-z_]+\}")  # another tool's placeholder (%DIR%, {DIR}, {LANG})


@dataclass
class JsonGame(CommandGame):
    """A play-one-game command as a game. Its arguments are plain data (`config()` gives them back)."""

    protocol = PROTOCOL
    seed_advice = "check that its command passes the seed ({seed} or %SEED%) to a game that uses it"

    def __post_init__(self):
        super().__post_init__()
        placed = []
        for word in shlex.split(self.command):
            if word in _ALL_WORDS or _ALL_IN_WORD in word:
                placed += range(1, self.seats + 1)
            placed += [int(a or b) for a, b in _SEAT.findall(word)]
            rest = _SEED.sub("", _SEAT.sub("", word.replace(_ALL_IN_WORD, "")))
            if rest not in _ALL_WORDS and (foreign := _FOREIGN.search(rest)):
                if foreign.group() in _ALL_WORDS:
                    raise self.mistake(f"{foreign.group()} is replaced only as a word of its own, not in {word!r}")
                raise self.mistake(f"its command has {foreign.group()}, which the arena does not replace")
        if sorted(placed) != list(range(1, self.seats + 1)):
            given = ", ".join(map(str, sorted(placed))) or "none"
            raise self.mistake(
                f"its command must place each of its {self.seats} players once "
                f"({{p1}}..., %P1%..., {{players}} or %ALL_PLAYERS%); it places {given}"
            )

    @property
    def passes_seed(self) -> bool:
        return bool(_SEED.search(self.command))

    def arguments(self, seed: int, commands: list[str]) -> list[str]:
        """The command line for one game."""

        def replace(word: str) -> str:
            word = _SEED.sub(str(seed), word)
            return _SEAT.sub(lambda m: commands[int(m.group(1) or m.group(2)) - 1], word)

        args = []
        for word in shlex.split(self.command):
            if word in _ALL_WORDS:
                args += commands
            elif _ALL_IN_WORD in word:
                args += [replace(word.replace(_ALL_IN_WORD, f"%P{i}%")) for i in range(1, len(commands) + 1)]
            else:
                args.append(replace(word))
        return args

    def _play(self, seed: int, commands: list[str]) -> Outcome:
        finished = run_referee(self.arguments(seed, commands), self.timeout_s, self.cwd)
        finished.check_exit(self.timeout_s)
        return outcome(finished, self.seats)


# ---------------------------------------------------------------- reading the command's result


def outcome(finished: Finished, seats: int) -> Outcome:
    """The game's outcome from the command's JSON, read strictly."""
    result = _result_object(finished)

    def listed(key: str, required: bool) -> list | None:
        value = result.get(key)
        if value is None and not required:
            return None
        if not isinstance(value, list):
            raise finished.failure(
                f"the command's JSON has no {key!r} list" if value is None else f"its {key!r} is not a list"
            )
        if len(value) != seats:
            raise finished.failure(f"the command's JSON gives {len(value)} {key} for {seats} players")
        return value

    ranks = listed("ranks", True)
    if not all(_is_int(r) and r >= 0 for r in ranks):
        raise finished.failure(f"the command's JSON has ranks that are not whole numbers from 0: {shorten(str(ranks))}")
    errors = [_error(e, finished) for e in listed("errors", True)]
    scores = listed("scores", False)
    if scores is not None and not all(s is None or is_finite_number(s) for s in scores):
        raise finished.failure(f"the command's JSON has scores that are not numbers: {shorten(str(scores))}")
    if not isinstance(result.get("test_data", {}), dict):
        raise finished.failure("the command's JSON has a 'test_data' that is not an object")
    player_data = listed("player_data", False)
    if player_data is not None and not all(isinstance(d, dict) for d in player_data):
        raise finished.failure("the command's JSON has a 'player_data' whose entries are not objects")
    # A seat with an error ranks below every seat without, as the contract has it; the command's
    # order stands among the others.
    keys = [(errors[i] is not None, ranks[i]) for i in range(seats)]
    failed = [i for i in range(seats) if errors[i]]
    return Outcome(
        ranks=[sum(other < mine for other in keys) for mine in keys],
        scores=list(scores) if scores is not None else [None] * seats,
        errors=errors,
        reason=errors[failed[0]] if failed else "score",
        detail="; ".join(f"player {i} {errors[i]}" for i in failed) or "ranks " + " ".join(map(str, ranks)),
        fingerprint=_reported_seed(result),
        data={key: value for key, value in result.items() if key not in ("ranks", "errors", "scores", "players")},
        referee_stderr=finished.stderr,
    )


def _result_object(finished: Finished) -> dict:
    text = finished.stdout.strip()
    if not text:
        raise finished.failure("the command printed nothing, where one JSON object comes")
    try:
        result = json_of(text)
    except TooDeep as exc:
        raise finished.failure(f"the command printed JSON {exc}") from None
    except ValueError:
        raise finished.failure(f"the command printed what is not JSON: {shorten(text)}") from None
    if isinstance(result, list):
        if len(result) != 1:
            raise finished.failure(f"the command reported {len(result)} games for one")
        result = result[0]
    if not isinstance(result, dict):
        raise finished.failure(f"the command printed JSON that is not an object: {shorten(text)}")
    return result


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _error(value, finished: Finished) -> str | None:
    """A player's entry in `errors` as an Outcome error."""
    if value is None or value is False or (_is_int(value) and value == 0):
        return None
    if value is True or (_is_int(value) and value > 0):
        return UNTOLD_ERROR
    if isinstance(value, str) and value in BOT_ERRORS:
        return value
    raise finished.failure(
        f"the command's JSON has {shorten(repr(value))} among its errors (0, 1 or one of {', '.join(BOT_ERRORS)})"
    )


def _reported_seed(result: dict) -> str | None:
    """What the command says its seed was: `seed`, `test_data.seed`, or a CGArena attribute."""
    test_data = result.get("test_data") or {}
    for value in (result.get("seed"), test_data.get("seed")):
        if value is not None:
            return f"seed={value}"
    for attribute in result.get("attributes") or []:
        if isinstance(attribute, dict) and attribute.get("name") == "seed" and attribute.get("player") is None:
            return f"seed={attribute.get('value')}"
    return None
