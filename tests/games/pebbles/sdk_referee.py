"""Pebbles refereed the way a jar built on CodinGame's game engine SDK is: this speaks what
`com.codingame.gameengine.core.RefereeMain` speaks on its stdin and stdout (see arena/games/sdk.py
for the protocol and its sources), with the game's rules from rules.py. Its own code, written from
the SDK's public description, not the SDK's.

As a JVM would, it takes the SDK's system properties (`-Dgame.mode=multi`, `-Dleague.level=N`)
from JAVA_TOOL_OPTIONS, and stops, as an SDK 2.x+ referee does, without `game.mode=multi`; with
`--needs-opens` it stops, as a jar of SDK 1.x to 4.4 (Guice 4) does on Java 16+, unless java.lang is
opened to it (`--add-opens java.base/java.lang=ALL-UNNAMED`).

`--sdk` picks the framing of an SDK version: 1 (2018: no METADATA, no FAIL frame, no frame for a
round that executes nobody), 3 (those three), 4.6 (the MONITORING frame and the time line before
each answer), 4.7 (the default: limits sent 50 ms longer, the third overrun of a limit a timeout).
`--unread-asks` adds, before each turn of a player that has played before, an ask the referee never
reads: the player executed with no input and a 1 ms limit, its timeout ignored (Legends of Code and
Magic's "frame-only" turns, SDK 2.6: `setTurnMaxTime(1); execute()`, no getOutputs()).
Other flags make it misbehave for tests; ROUND counts the GET_GAME_INFO requests, from 1.

Its VIEW frames are an SDK game's, for the stand-in viewer of tests/games/pebbles/viewer (a
module named `pebbles`): the first key frame `{"global": {...}, "frame": {...}}`, the later ones
`{"pebbles": {...}}`, each the position at the round's start (the previous answer's doing).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shlex
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import faults  # noqa: E402
import rules  # noqa: E402
from faults import read  # noqa: E402

HEADER = re.compile(r"\[\[(?P<command>.+)\] ?(?P<count>[0-9]+)\]")


def options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sdk", type=float, default=4.7)
    parser.add_argument("--first-turn-ms", type=int, default=1000)
    parser.add_argument("--turn-ms", type=int, default=100)
    parser.add_argument("--soft-extra-ms", type=int, default=50, help="4.7: what is added to each limit sent")
    parser.add_argument("--idle-rounds", type=int, default=0, help="rounds at the start that execute nobody")
    parser.add_argument("--unread-asks", action="store_true", help="ask players for answers it never reads")
    parser.add_argument("--needs-opens", action="store_true", help="stop unless java.lang is opened to it")
    faults.add_flags(parser)
    parser.add_argument("--bad-frame-at", type=int, metavar="ROUND", help="send a frame the protocol lacks")
    parser.add_argument("--fail-at", type=int, metavar="ROUND", help="throw there: a [[FAIL]] frame")
    parser.add_argument("--stderr-bytes", type=int, default=0, help="log that much on stderr first")
    return parser.parse_args()


def java_lang_opened() -> bool:
    words = shlex.split(os.environ.get("JAVA_TOOL_OPTIONS", ""))
    opened = "java.base/java.lang=ALL-UNNAMED"
    return f"--add-opens={opened}" in words or any(
        a == "--add-opens" and b == opened for a, b in zip(words, words[1:], strict=False)
    )


def jvm_properties() -> dict[str, str]:
    found = {}
    for word in shlex.split(os.environ.get("JAVA_TOOL_OPTIONS", "")):
        if word.startswith("-D") and "=" in word:
            key, _, value = word[2:].partition("=")
            found[key] = value
    return found


def frame(command: str, lines: list[str]) -> str:
    """A frame as the SDK's OutputData prints it: the content trimmed, its lines counted."""
    content = "".join(line + "\n" for line in lines).strip("".join(map(chr, range(33))))
    count = len(re.split(r"\r\n|\r|\n", content)) if content else 0
    return f"[[{command}] {count}]" + ("\n" + content if content else "")


class Referee:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.out = sys.stdout
        self.round = 0  # GET_GAME_INFO requests read
        self.frame = 0
        self.monitoring = False
        self.new_turn = True
        self.summary: list[str] = []  # this round's, shown with the next round's first frame
        self.shown_summary: list[str] | None = None
        self.tooltips: list[str] = []
        self.shown_tooltips: list[str] = []
        self.executed = [False] * 8
        self.overruns = [0] * 8
        self.state: rules.State | None = None
        self.taken: list[int] | None = None  # [player, index, worth] of the latest pebble taken

    def print(self, command: str, lines: list[str]) -> None:
        self.out.write(frame(command, lines) + "\n")

    def misbehave(self) -> None:
        args, now = self.args, self.round
        faults.misbehave(args, now, "Exception in thread main java.lang.IllegalStateException: crash-at")
        if now == args.bad_frame_at:
            self.print("SET_PLAYER_SCORE", ["0 1"])
            self.out.flush()
        if now == args.fail_at:
            self.fail(RuntimeError("fail-at: the referee threw"))

    def fail(self, error: Exception) -> None:
        trace = [f"java.lang.RuntimeException: {error}", "\tat Referee.gameTurn(Referee.java:42)"]
        if self.args.sdk >= 2:
            self.print("FAIL", trace)
            self.out.flush()
        print("\n".join(["Exception in thread main"] + trace), file=sys.stderr, flush=True)
        os._exit(1)

    def view(self) -> None:
        if self.new_turn:
            data = {"pebbles": list(self.state.pebbles), "scores": list(self.state.scores), "taken": self.taken}
            if self.frame == 0:
                data = {"global": {"pebbles": {"players": self.state.players}}, "frame": {"pebbles": data}}
            else:
                data = {"pebbles": data}
            self.print("VIEW", [f"KEY_FRAME {self.frame}", json.dumps(data)])
        else:
            self.print("VIEW", [f"INTERMEDIATE_FRAME {self.frame}"])
        self.frame += 1

    def infos(self) -> None:
        self.print("INFOS", [])
        if self.new_turn and self.shown_summary is not None:
            self.print("SUMMARY", self.shown_summary)
        if self.new_turn and self.shown_tooltips:
            self.print("TOOLTIP", self.shown_tooltips)

    def next_turn(self) -> None:
        self.shown_summary, self.summary = self.summary, []
        self.shown_tooltips, self.tooltips = self.tooltips, []
        self.new_turn = True

    def execute(self, player: int, inputs: list[str], count: int, limit: int | None = None) -> list[str] | None:
        """Execute `player` as GameManager.execute does: its answer, or None on a timeout."""
        header = read()
        if header != "[[GET_GAME_INFO] 0]":
            self.fail(RuntimeError(f"Invalid command: {header}"))
        self.round += 1
        self.misbehave()
        self.view()
        if self.args.sdk >= 4.6 and not self.monitoring:
            self.print("MONITORING", [])
            self.monitoring = True
        self.infos()
        self.print("NEXT_PLAYER_INPUT", inputs)
        first = count > 0 and not self.executed[player]
        if limit is None:
            limit = self.args.first_turn_ms if first else self.args.turn_ms
        extra = self.args.soft_extra_ms if self.args.sdk >= 4.7 else 0
        self.print("NEXT_PLAYER_INFO", [str(player), str(count), str(limit + extra)])
        self.out.flush()
        match = HEADER.fullmatch(read())
        if match is None:
            self.fail(RuntimeError("Error in data sent to referee"))
        lines = [read() for _ in range(int(match["count"]))]
        self.new_turn = False
        if count > 0:
            self.executed[player] = True
        if match["command"] == "SET_PLAYER_TIMEOUT":
            return None
        if match["command"] != "SET_PLAYER_OUTPUT":
            self.fail(RuntimeError(f"Invalid command: {match['command']}"))
        if self.monitoring:
            ms = int(lines.pop(0))
            if self.args.sdk >= 4.7 and count > 0 and ms > limit:
                self.overruns[player] += 1
                if self.overruns[player] > 2:
                    return None
        return lines

    def play(self) -> int:
        args = self.args
        properties = jvm_properties()
        if args.sdk >= 2 and properties.get("game.mode") != "multi":
            print("Exception in thread main java.lang.RuntimeException: Unknown game mode", file=sys.stderr)
            return 1
        if args.needs_opens and not java_lang_opened():  # what Guice 4's cglib meets on Java 16+
            print(
                'Exception in thread "main" java.lang.ExceptionInInitializerError\n'
                "\tat com.google.inject.internal.cglib.reflect.$FastClassEmitter.<init>(FastClassEmitter.java:67)\n"
                "Caused by: java.lang.reflect.InaccessibleObjectException: Unable to make protected final "
                "java.lang.Class java.lang.ClassLoader.defineClass(...) accessible: module java.base does not "
                '"opens java.lang" to unnamed module @69eee410\n'
                "\tat java.base/java.lang.reflect.AccessibleObject.checkCanSetAccessible(AccessibleObject.java:354)\n"
                "\t... 21 more",
                file=sys.stderr,
            )
            return 1
        if args.stderr_bytes:
            sys.stderr.write(("x" * 99 + "\n") * (args.stderr_bytes // 100) + "the end of the log\n")
            sys.stderr.flush()
        header = HEADER.fullmatch(read())
        if header is None or header["command"] != "INIT":
            self.fail(RuntimeError("Error in data sent to referee"))
        players = int(read().split()[0])
        parameters = dict(read().partition("=")[::2] for _ in range(int(header["count"]) - 1))
        seed = int(parameters["seed"]) if parameters.get("seed", "").lstrip("-").isdigit() else random.getrandbits(63)
        parameters["seed"] = str(seed)
        state = self.state = rules.new_game(int.from_bytes(os.urandom(8)) if args.ignore_seed else seed, players)
        out = None
        for _ in range(args.idle_rounds):
            self.summary.append("The pebbles are laid out.")
            if args.sdk >= 3:  # a round in which nobody plays still makes a frame
                self.execute(0, [], 0)
            self.next_turn()
        while not state.over and out is None:
            mover = state.to_move
            if args.unread_asks and self.executed[mover]:
                self.execute(mover, [], 1, limit=1)  # a frame of its own; whatever comes is not read
            answer = self.execute(mover, rules.turn_input(state), 1)
            if answer is None:
                out, why = mover, f"${mover} timed out"
            else:
                index = answer[0].strip()
                worth = state.pebbles[int(index)] if index.isdigit() and int(index) < len(state.pebbles) else None
                error = rules.play(state, answer[0])
                if error is not None:
                    out, why = mover, f"${mover}: {error}"
                else:
                    why = f"${mover} took a pebble"
                    self.taken = [mover, int(index), worth]
            self.summary.append(why)
            if out is not None:
                self.tooltips += [why, str(out)]
            self.next_turn()
        self.view()
        self.infos()
        self.print("UINPUT", [f"{key}={value}" for key, value in parameters.items()])
        if args.sdk >= 3:
            self.print("METADATA", [json.dumps({"league": properties.get("league.level", "1")})])
        scores = rules.final_scores(state, out)
        self.print("SCORES", [f"{i} {score}" for i, score in enumerate(scores)])
        self.out.flush()
        return args.exit_code


def main() -> int:
    args = options()
    faults.spawn(args)
    return Referee(args).play()


if __name__ == "__main__":
    sys.exit(main())
