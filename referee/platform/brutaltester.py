"""Protocol (A), the brutaltester referee command line, as our own referees speak it:

    REFEREE -p1 CMD -p2 CMD [-p3 CMD -p4 CMD] [-d seed=N | -seed N] [-l LOG.json]

What cg-brutaltester (dreignier/cg-brutaltester, GameThread.java) and the community's referees (a
`CommandLineInterface` class around the SDK's GameRunner, in each game's repository) agree on:
- each player's command is one argument after `-pN` (the SDK runs it split on spaces);
- the seed comes as `-d seed=N` (game parameters, `key=value`: brutaltester's form, which it also
  uses to hand a game's parameters back for a replay) or, in later referees, `-seed N`; without
  one the referee draws one;
- stdout: one integer score per player, in seat order, one a line (a player that failed, by a
  timeout or an invalid answer, scores negative), then the game's parameters as `key=value` lines
  (the SDK's `uinput`: `seed=N` and whatever the referee derived from it);
- `-l FILE` writes the SDK runner's result (its GameResultDto, as JSON): see `SdkLog`.
A mistake on the command line is a non-zero exit; a bot's mistake is that player's negative score.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from .errors import UserError

MAX_PLAYERS = 4  # -p1 .. -p4, as brutaltester and the community's referees take them
FAILED_SCORE = -1  # a failed player's score, as CodinGame's referees set it


def add_options(parser: argparse.ArgumentParser, players: int = MAX_PLAYERS) -> None:
    """The protocol's options on `parser` (their values land in `cg_*` attributes). -p1 .. -p4 are
    all taken, those past a game's `players` unlisted: `player_commands` refuses them in words."""
    for i in range(1, MAX_PLAYERS + 1):
        shown = f"player {i}'s command line" if i <= players else argparse.SUPPRESS
        parser.add_argument(f"-p{i}", dest=f"cg_p{i}", metavar="CMD", help=shown)
    parser.add_argument(
        "-d", dest="cg_parameters", metavar="KEY=VALUE", help="game parameters (brutaltester gives seed=N)"
    )
    parser.add_argument("-seed", dest="cg_seed", metavar="N", help="the game's seed (as -d seed=N)")
    parser.add_argument("-l", dest="cg_log", metavar="LOG.json", help="write the SDK runner's result JSON here")


def given(args: argparse.Namespace) -> bool:
    """Whether the protocol's command line was used (a first player given)."""
    return getattr(args, "cg_p1", None) is not None


def player_commands(args: argparse.Namespace, players: range) -> list[str]:
    """The players' commands, -p1 first; UserError unless they are -p1 .. -pN with N in `players`."""
    commands = []
    for i in range(1, MAX_PLAYERS + 1):
        command = getattr(args, f"cg_p{i}", None)
        if command is None:
            break
        commands.append(command)
    for j in range(len(commands) + 2, MAX_PLAYERS + 1):
        if getattr(args, f"cg_p{j}", None) is not None:
            raise UserError(f"-p{j} without -p{len(commands) + 1}: give the players as -p1, -p2, ... in order")
    if len(commands) not in players:
        counts = f"{players.start}" if len(players) == 1 else f"{players.start} to {players.stop - 1}"
        raise UserError(f"this game is for {counts} players, not {len(commands)}: give -p1 CMD -p2 CMD")
    return commands


def parameters(text: str | None) -> dict[str, str]:
    """Game parameters as `-d` gives them: `key=value` pairs, one a line or separated by spaces."""
    pairs = {}
    for word in (text or "").split():
        key, equals, value = word.partition("=")
        if not equals or not key:
            raise UserError(f"-d takes key=value game parameters (seed=N), not {word!r}")
        pairs[key] = value
    return pairs


def seed(args: argparse.Namespace) -> int | None:
    """The seed given by `-seed N` or `-d seed=N` (None if neither); UserError if it is no integer
    or the two disagree."""
    found = {}
    if args.cg_seed is not None:
        found["-seed"] = args.cg_seed
    if "seed" in (given_parameters := parameters(args.cg_parameters)):
        found["-d seed="] = given_parameters["seed"]
    values = set()
    for option, text in found.items():
        try:
            values.add(int(text))
        except ValueError:
            raise UserError(f"{option} takes an integer seed, not {text!r}") from None
    if len(values) > 1:
        raise UserError(f"-seed and -d seed= disagree: {found['-seed']} and {found['-d seed=']}")
    return values.pop() if values else None


def print_result(scores: list[int], game_parameters: dict[str, object], file=None) -> None:
    """The protocol's stdout: the scores, one a line in seat order, then `key=value` lines."""
    file = file or sys.stdout
    for score in scores:
        print(int(score), file=file)
    for key, value in game_parameters.items():
        print(f"{key}={value}", file=file)
    file.flush()


class SdkLog:
    """The SDK runner's result JSON (GameResultDto, what `-l` writes), built frame by frame.

    Frame 0 is the players' start: each player's `errors` (stderr) entry is what it wrote before
    its first turn, its `outputs` entry null. Each later frame is one turn: the player who played
    has its answer in `outputs` and its stderr in `errors`, every other player null there; the
    referee's own entries are strings. `summaries` and `views` hold one entry per turn (the game's
    summary lines, the viewer's frame as a string), `tooltips` the events the viewer marks (as
    `{"turn", "text", "event"}`, `event` being the player a tooltip concerns: the SDK adds one
    when a player is deactivated, with the reason), `scores` maps a player's index (a string in
    JSON) to its score, `uinput` holds the game's parameters as `key=value` lines, `failCause`
    the referee's own crash (else null)."""

    def __init__(self, players: int, names: list[str] | None = None):
        self.players = players
        seats = [str(i) for i in range(players)]
        self.errors: dict[str, list[str | None]] = {"referee": [], **{s: [] for s in seats}}
        self.outputs: dict[str, list[str | None]] = {"referee": [], **{s: [None] for s in seats}}
        self.summaries: list[str] = []
        self.views: list[str | None] = []
        self.scores: dict[str, int] = {}
        self.uinput: list[str] = []
        self.metadata: str | None = None
        self.tooltips: list[dict] = []
        self.fail_cause: str | None = None
        self.names = names or [f"Player {i}" for i in range(players)]

    def start(self, stderr: list[str]) -> None:
        """Frame 0: what each player wrote on stderr before its first turn."""
        for i, text in enumerate(stderr):
            self.errors[str(i)].append(text)

    def turn(self, player: int | None, answer: str | None, stderr: str, summary: str, view: str | None) -> None:
        """One turn's frame: `player` answered `answer` (None: it did not), or None for a turn
        where no player plays."""
        for i in range(self.players):
            mine = i == player
            self.outputs[str(i)].append(answer + "\n" if mine and answer is not None else None)
            self.errors[str(i)].append(stderr if mine else None)
        self.outputs["referee"].append("")
        self.errors["referee"].append("")
        self.summaries.append(summary)
        self.views.append(view)

    def tooltip(self, player: int, text: str) -> None:
        """A tooltip about `player` on the latest frame (why it was deactivated)."""
        self.tooltips.append({"turn": max(len(self.views) - 1, 0), "text": text, "event": player})

    def end(self, scores: list[int], game_parameters: dict[str, object], metadata: dict | None = None) -> None:
        self.scores = {str(i): int(s) for i, s in enumerate(scores)}
        self.uinput = [f"{key}={value}" for key, value in game_parameters.items()]
        self.metadata = None if metadata is None else json.dumps(metadata)

    def as_json(self) -> dict:
        """The JSON object, its fields in GameResultDto's order."""
        return {
            "errors": self.errors,
            "outputs": self.outputs,
            "summaries": self.summaries,
            "views": self.views,
            "scores": self.scores,
            "uinput": self.uinput,
            "metadata": self.metadata,
            "tooltips": self.tooltips,
            "ids": {str(i): i for i in range(self.players)},
            "agents": [{"index": i, "agentId": i, "avatar": None, "name": name} for i, name in enumerate(self.names)],
            "failCause": self.fail_cause,
        }

    def write(self, path: str) -> None:
        """Write the JSON to `path`, replacing it atomically; UserError if it cannot."""
        target = Path(path)
        try:
            handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as f:
                    json.dump(self.as_json(), f)
                os.replace(temporary, target)
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise
        except OSError as exc:
            raise UserError(f"cannot write the log {path}: {exc.strerror or exc}") from None
