"""What every game refereed by an external program shares, whichever its protocol: the referee's
command (a command line, or a jar's path) and the folder it runs in, the number of seats, and the
checks of them, said with the game's name; the referee's program found before any game.

Two families build on it: the referee runs the bots itself (protocols A and B: `command.py`), or the
arena runs and times them while it drives the referee line by line (C and D: `runner.py`)."""

from __future__ import annotations

import glob
import os
import shutil
from dataclasses import KW_ONLY, dataclass, field
from typing import ClassVar

from referee.platform.bot_commands import command_files, split_command
from referee.platform.bot_errors import BotStartError

from arena.games.base import Game, GameError


@dataclass
class ExternalGame(Game):
    command: str | list[str]  # the referee's command line (a template of the protocol's), or a jar's path
    seats: int = 2
    _: KW_ONLY
    name: str = ""  # the game's name (a table's name in arena.toml); each protocol's own by default
    cwd: str | None = None  # where the referee runs (relative paths in its command start there)
    # Absolute paths every machine of a cluster has (a JDK, a data folder): its command may name
    # them on a cluster, where anything else it names must travel with the run.
    node_paths: list[str] = field(default_factory=list)
    # Where its viewer is, where the command names no jar (a wrapper script): a jar or a class-path
    # folder holding `view/`, or several joined by os.pathsep (None: the jars its command names).
    viewer: str | None = None

    max_players: ClassVar[int] = 8  # the SDK's runner's and CGArena's limit

    def __post_init__(self):
        self.name = self.name or f"{self.protocol} game"
        try:
            split_command(self.command)
        except BotStartError as exc:  # an unbalanced quote, or nothing
            raise self.mistake(f"its command {self.command!r}: {exc}") from None
        relative = [path for path in self.node_paths if not os.path.isabs(path)]
        if relative:
            raise self.mistake(f"its node_paths are absolute paths, not {relative[0]!r}")
        if not 2 <= self.seats <= self.max_players:
            raise self.mistake(
                f"a game of the {self.protocol} protocol has 2 to {self.max_players} players, not {self.seats}"
            )
        if self.viewer is not None and not self.sends_frames():
            raise self.mistake(f"viewer = {self.viewer!r}: its referee sends no view frames for a viewer to play")

    def viewer_paths(self) -> list[str]:
        """`viewer`'s jars and folders, else the jars and folders of the command's class path (a lone
        jar, `java -jar JAR`, `java -cp PATH`), absolute (relative ones start in `cwd`)."""
        base = self.cwd or os.getcwd()
        if self.viewer is not None:
            entries = self.viewer.split(os.pathsep)
        else:
            args = split_command(self.command)
            entries = []
            if len(args) == 1 and args[0].endswith(".jar"):
                entries = [args[0]]
            elif args and os.path.basename(args[0]) in ("java", "java.exe"):
                for flag, value in zip(args, args[1:], strict=False):
                    if flag == "-jar":
                        entries = [value]
                        break
                    if flag in ("-cp", "-classpath", "--class-path"):
                        entries = value.split(os.pathsep)
        paths = []
        for entry in filter(None, entries):
            path = os.path.join(base, os.path.expanduser(entry))
            paths += sorted(glob.glob(path[:-1] + "*.jar")) if entry.endswith("*") else [path]  # java's dir/*
        return [os.path.abspath(path) for path in paths]

    def mistake(self, message: str) -> GameError:
        """The user's mistake in this game's settings, said with its name."""
        return GameError(f"game {self.name!r}: {message}")

    def prepare(self, log) -> None:
        """A referee that cannot start is the user's mistake: said once, before any game."""
        args = split_command(self.command)
        base = self.cwd or "."
        if len(args) == 1 and args[0].endswith(".jar"):
            if not os.path.isfile(os.path.join(base, args[0])):
                raise self.mistake(f"no such referee jar: {args[0]}")
            args = ["java"]
        program = args[0]
        found = os.path.isfile(os.path.join(base, program)) if os.sep in program else shutil.which(program)
        if not found:
            raise self.mistake(f"cannot find the referee's program {program!r}")

    def travels(self) -> list[str]:
        """The folder the referee runs in, and every file its command names outside it (a lone jar's
        path among them): what a machine without them needs to run it."""
        base = self.cwd or os.getcwd()
        args = split_command(self.command)
        if len(args) == 1 and args[0].endswith(".jar"):  # a jar, run by the machine's java
            jar = os.path.normpath(os.path.join(base, args[0]))
            return [base] if jar.startswith(os.path.join(base, "")) else [base, jar]
        return [base, *(str(path) for path in command_files(args, base))]
