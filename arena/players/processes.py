"""Players that are processes, in any game: a file, pinned into the cache when the run starts (so
that edits to it during or after the run do not change what plays; a `.py` file runs with this
Python), and any other command line, run as it is where it was given.

A file's version is the hash of its content; a command's, the hash of its command line and of every
file it names. A bot of this project run as `python -m PACKAGE.NAME` is warmed up before its games
(`referee.platform.bot_commands.warm_up`: its kernels compiled, no clock running)."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path

from referee.platform.bot_commands import check_command, command_files, module_file, run_folder, warm_up
from referee.platform.bot_errors import BotStartError

from arena.builds.cache import PINS
from arena.builds.languages import BY_KEY
from arena.bundle.python import BundleError, collect
from arena.games.base import Game, Player
from arena.players.base import PlayerError, Provider, hash_bytes, missing_sibling, pin_file, whole_path
from arena.players.environment import env_split, version_with_values


class ProcessProvider(Provider):
    """What every process player shares: its program there (on another machine too), and warmed up
    before its games where it has a warm-up."""

    def check(self, players: list[Player], game: Game) -> None:
        for player in players:
            self._check_runs_here(player)

    def prepare(self, players: list[Player], game: Game, log) -> None:
        for player in players:
            # (once a process: at once where `check` ran first; a cluster's machine only prepares)
            self._check_runs_here(player)
            try:
                warm_up(player.target, player.cwd, log, label=player.label)
            except BotStartError as exc:
                raise PlayerError(f"{player.label} cannot play: {exc}") from None

    def _check_runs_here(self, player: Player) -> None:
        try:
            check_runs_here(player)
        except PlayerError as exc:
            raise PlayerError(f"{exc}{self.instead(player, str(exc))}") from None

    def instead(self, player: Player, why: str) -> str:
        """What to give instead, said after `why` `player` cannot run here, where its kind knows
        the cause ("" where it does not)."""
        return ""


_runs_here: set[tuple[str, str | None, str]] = set()  # the players this process found it runs


def check_runs_here(player: Player) -> None:
    """PlayerError, in one line, when this machine cannot run `player`'s command (`check_command`:
    its program missing, not executable, or not started here: a build of another processor or
    system, an interpreter or a library missing; or the command ends before its first input: a
    module missing, a syntax error). Once a process for each command and version. On a cluster's
    machine that is the machine's failure: its games are played elsewhere."""
    key = (player.target, player.cwd, player.version)
    if key in _runs_here:
        return
    try:
        check_command(player.target, player.cwd, shown=player.spec)
    except BotStartError as exc:
        raise PlayerError(f"{player.label} cannot play: {exc}") from None
    _runs_here.add(key)


class Files(ProcessProvider):
    """`old/my_bot.py`, `./a.out`: a file, pinned by its content's hash."""

    kinds = ("file",)

    def instead(self, player: Player, why: str) -> str:
        return _alone(player, why)

    def resolve(self, label: str | None, spec: str, game: Game, cache: Path) -> Player | None:
        assignments, named = _file_and_values(spec)
        path = Path(named) if named else None
        if path is None or not path.is_file():
            return None
        if path.suffix != ".py" and not os.access(path, os.X_OK):
            raise PlayerError(f"player {path}: the file is not executable (chmod +x {shlex.quote(str(path))})")
        content = path.read_bytes()
        version = hash_bytes(content)
        copy = pin_file(cache / PINS / f"file-{version}" / path.name, content, mode=path.stat().st_mode)
        args = [sys.executable, str(copy)] if path.suffix == ".py" else [str(copy)]
        env = ["env", *(f"{key}={value}" for key, value in assignments.items())] if assignments else []
        version = version_with_values(version, assignments)
        return Player(label or path.stem, spec if assignments else str(path), "file", shlex.join(env + args), version)

    def known(self) -> str:
        return "a file"

    def travels(self, player: Player) -> list[str]:
        """The folder of its pinned copy (the copy alone)."""
        return [str(Path(shlex.split(player.target)[-1]).parent)]

    def changed_since(self, player: Player) -> str | None:
        copy = Path(shlex.split(player.target)[-1])
        if not copy.is_file():
            return f"its pinned copy {copy} is gone"
        now = hash_bytes(copy.read_bytes())
        return None if now == player.version else f"its program changed (version {player.version}, now {now})"


def _file_and_values(spec: str) -> tuple[dict[str, str], str | None]:
    """(the values in its environment, the file) of a file player's spec: `bot.py`, or `env K=1 bot.py`
    as `arena tune` gives a file its values (it ran `bot.py` as a command, not found on PATH, where
    `arena match bot.py` runs the file by its interpreter); ({}, None) for any other spec."""
    named = whole_path(spec)
    if named is not None:
        return {}, named
    try:
        assignments, rest = env_split(spec)
    except ValueError:  # (an unbalanced quote)
        return {}, None
    return (assignments, rest[0]) if assignments and len(rest) == 1 else ({}, None)


class Commands(ProcessProvider):
    """`"java -jar bot.jar"`: any command line whose program exists, run as it is, from the folder
    it was given in (a worker, a resumed run or a Ray node may stand elsewhere)."""

    kinds = ("command",)

    def resolve(self, label: str | None, spec: str, game: Game, cache: Path) -> Player | None:
        try:
            args = shlex.split(spec)
        except ValueError as exc:  # an unbalanced quote
            raise PlayerError(f"player {spec!r}: cannot split it as a command line: {exc}") from None
        if not args or not _program_found(args):
            return None
        here = os.getcwd()
        return Player(label or command_label(args), spec, "command", spec, command_version(args, here), here)

    def known(self) -> str:
        return "a command"

    def instead(self, player: Player, why: str) -> str:
        return _travelled_alone(player, why)

    def travels(self, player: Player) -> list[str]:
        """The folder it was given in (its files import their siblings; `python3 -m bot` finds its
        module there), and every file it names outside it, alone. PlayerError where such a file is
        Python that imports a module beside it, which would not travel: refused before any game,
        saying what to give instead (every machine would fail it, a fault no resume mends)."""
        named = command_files(player.target, player.cwd)
        for path in named:
            module = _imported_beside(path)
            if module is not None:
                raise PlayerError(
                    f"player {player.label}: {path} imports {module}, which lies beside it, but a file a command names "
                    f"outside the folder it is given in travels to a cluster alone: {_instead(player, path)}"
                )
        here = [player.cwd] if player.cwd else []
        return [*here, *(str(path) for path in named)]

    def changed_since(self, player: Player) -> str | None:
        now = command_version(shlex.split(player.target), player.cwd)
        return None if now == player.version else f"its program changed (version {player.version}, now {now})"


def _imported_beside(path: Path) -> str | None:
    """A module that the Python file `path` imports (at any depth) from its own folder, where
    Python finds it first when the file runs; None for another file, or one that cannot be read
    (its start check says why)."""
    if path.suffix != ".py":
        return None
    folder = path.parent
    try:
        found, _ = collect(path.stem, folder, local=lambda top: True)  # (what is not in the folder is not found)
    except BundleError:
        return None
    return next((name for name in found if name != path.stem), None)


def _instead(player: Player, path: Path) -> str:
    """What to give instead of a command that names `path` outside its folder: the command given
    from the file's folder (which then travels whole), or the folder as the player."""
    base = Path(os.path.abspath(player.cwd or "."))
    words = [path.name if Path(os.path.normpath(base / word)) == path else word for word in shlex.split(player.spec)]
    folder = f", or the folder as the player ({shlex.quote(str(path.parent))}/)" if _an_entry(path) else ""
    return (
        f"give the command from its folder (cd {shlex.quote(str(path.parent))}, then "
        f"{player.label}={shlex.quote(shlex.join(words))}), so that the folder travels{folder}"
    )


def _an_entry(path: Path) -> bool:
    """Whether the Python file `path` is one its folder's build runs (main.py, bot.py, ...): only then
    does the folder, given as a player, play it."""
    return path.name in BY_KEY["python"].entries


_FILE_MISSING = ("No such file or directory", "FileNotFoundError")


def _travelled_alone(player: Player, why: str) -> str:
    """Where a command that travelled to this machine (a cluster's) ended for a file missing, and
    it names a file that travelled alone (named outside the folder it was given in: `python3
    /home/me/bot/bot.py` reading data.txt beside it), what to give instead; else ""."""
    if not any(said in why for said in _FILE_MISSING):
        return ""
    # A command's paths are moved to this machine's copies (arena/play/shipment.py): a word of its
    # target that differs from the one its user wrote is a copy; a copy outside its folder's came alone.
    base = Path(os.path.abspath(player.cwd or "."))
    for was, now in zip(shlex.split(player.spec), shlex.split(player.target), strict=False):
        copy = Path(os.path.normpath(base / now))
        if was != now and copy.is_file() and not copy.is_relative_to(base):
            return (
                f" ({was} travelled to this machine alone, as a file a command names outside the folder it is given "
                f"in does, without the files beside it: give the command from its folder, "
                f"{os.path.dirname(was) or '.'}, so that the folder travels)"
            )
    return ""


def _program_found(args: list[str]) -> bool:
    """Whether a command line's program is here (on PATH, or a file): what makes it a command."""
    return bool(shutil.which(args[0]) or Path(args[0]).is_file())


def program_missing(spec: str) -> str | None:
    """Why `spec` cannot be a command where it is meant as one, a command line that names a file
    here (`python binbot.py`, `pyhton binbot.py`), and its program is not found (a PATH without
    python, a typo): the start check's words (`python: no such command (not on PATH)`); else None
    (a spec of one word is more likely a misspelt player of another kind)."""
    try:
        args = shlex.split(spec)
    except ValueError:
        return None
    if len(args) < 2 or _program_found(args):
        return None
    folder = run_folder(args)
    if not any((folder / arg).is_file() for arg in args[1:]) and module_file(args) is None:
        return None
    try:
        check_command(args)
    except BotStartError as exc:  # (always: its program is not found, so nothing is started)
        return str(exc)
    return None


def _alone(player: Player, why: str) -> str:
    """Where a pinned Python file misses a module that lies beside the file it was copied from (a
    bot of several files), what to give instead; else ""."""
    assignments, named = _file_and_values(player.spec)
    file = named or player.spec
    module = missing_sibling(file, why)
    if module is None:
        return ""
    env = ["env", *(f"{key}={value}" for key, value in assignments.items())] if assignments else []
    command = shlex.join([*env, "python3", file])  # (quoted as a shell and the arena read it: `my bot/bot.py`)
    folder = Path(file).parent
    # (its folder plays only where its entry has a name the folder's build looks for)
    given = f"its folder, {shlex.join([*env, f'{folder}/'])}, or " if _an_entry(Path(file)) else ""
    return (
        f" ({file} is copied alone, so that edits do not change what plays, and {module} is beside it: "
        f'for a bot of several files give {given}its command, "{command}")'
    )


def command_label(args: list[str]) -> str:
    """A command's default label: the module it runs (`python -m bots.volcanoes.greedy`: greedy), or
    the last file it names, or its program."""
    if "-m" in args[:-1]:
        return args[args.index("-m") + 1].rpartition(".")[2]
    folder = run_folder(args)
    files = [a for a in args[1:] if (folder / a).is_file()]
    # A file that is not there is named too (`python bots/greedy.py` run from another folder): two
    # such players were both 'python', and a user was told to label them, not that the files are
    # missing (which the start check then says).
    files = files or [a for a in args[1:] if not a.startswith("-") and ("/" in a or Path(a).suffix)]
    return Path(files[-1] if files else args[0]).stem or args[0]


def command_version(args: list[str], cwd: str | None = None) -> str:
    """The command line and the content of every file it names, from the folder it runs in (an
    executable found on PATH too, and the module `-m` runs): an edit to any of them is a new version."""
    folder = run_folder(args, cwd)
    chunks = [shlex.join(args).encode()]
    for i, arg in enumerate(args):
        path = Path(cwd or ".") / arg if i == 0 else folder / arg
        if i == 0 and not path.is_file() and shutil.which(arg):
            path = Path(shutil.which(arg))
        if path.is_file():
            chunks.append(path.read_bytes())
    module = module_file(args, cwd)
    if module is not None:
        chunks.append(module.read_bytes())
    return hash_bytes(*chunks)
