"""Players: what the user writes -> a `Player` that takes a seat in a game, whatever the game.

A player spec is what the user wrote, optionally labelled as `LABEL=SPEC`. The game is asked first
(`Game.resolve`: its own registered bots, such as Volcanoes' `mcts:c=0.3`, `greedy@HEAD~3` or
`bundle:mcts`); what it does not know is, for any game:
- a file (`old/my_bot.py`, `./a.out`): copied into the cache when the run starts, so edits to the file
  during or after the run do not change what plays; a `.py` file runs with this Python;
- any other command line (`"java -jar bot.jar"`), run as it is.

Every player has a version recorded with each game: the hash of a file's content, or of a command
line and every file it names (the game's own players say theirs), so a run resumes only while its
players are unchanged.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

from arena.errors import UsageError
from arena.games.base import Game, Player

PROJECT_ROOT = Path(__file__).resolve().parents[2]
_LABEL = re.compile(r"^([A-Za-z0-9_.+-]+)=(.+)$")


class PlayerError(UsageError, ValueError):
    """A player spec that cannot be resolved; the message says why."""


def split_label(text: str) -> tuple[str | None, str]:
    """(`LABEL`, `SPEC`) of `LABEL=SPEC`, or (None, text)."""
    match = _LABEL.match(text)
    return (match.group(1), match.group(2)) if match else (None, text)


def resolve(text: str, game: Game, cache: Path | None = None) -> Player:
    """A player from its spec; raises PlayerError with a message a user can act on."""
    cache = cache or cache_dir()
    label, spec = split_label(text)
    own = game.resolve(spec, label, cache)
    if own is not None:
        return own
    path = Path(spec)
    if " " not in spec and path.is_file():
        return _file_pin(label, path, cache)
    try:
        args = shlex.split(spec)
    except ValueError as exc:  # an unbalanced quote
        raise PlayerError(f"player {text!r}: cannot split it as a command line: {exc}") from None
    if args and (shutil.which(args[0]) or Path(args[0]).is_file()):
        # It runs where it was given (a worker, a resumed run or a Ray node may stand elsewhere).
        here = os.getcwd()
        return Player(label or _command_label(args), spec, "command", spec, _command_version(args, here), here)
    known = game.known_players()
    raise PlayerError(
        f"unknown player {text!r}: not {known + ', ' if known else ''}a file or a command"
        + (f" (no such file: {args[0]})" if args and "/" in args[0] else "")
    )


def resolve_all(texts: list[str], game: Game, cache: Path | None = None) -> list[Player]:
    players = [resolve(text, game, cache) for text in texts]
    labels = [p.label for p in players]
    duplicates = sorted({label for label in labels if labels.count(label) > 1})
    if duplicates:
        raise PlayerError(
            f"two players are called {duplicates[0]!r}: name them apart with LABEL=SPEC (e.g. new={duplicates[0]})"
        )
    return players


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "caldera" / "pins"


def hash_bytes(*chunks: bytes) -> str:
    digest = hashlib.sha256()
    for chunk in chunks:
        digest.update(chunk)
    return digest.hexdigest()[:12]


def _command_label(args: list[str]) -> str:
    """A command's default label: the module it runs (`python -m bots.volcanoes.greedy`: greedy), or
    the last file it names, or its program."""
    if "-m" in args[:-1]:
        return args[args.index("-m") + 1].rpartition(".")[2]
    files = [a for a in args if Path(a).is_file()]
    return Path(files[-1] if files else args[0]).stem or args[0]


def _command_version(args: list[str], cwd: str | None = None) -> str:
    """The command line and the content of every file it names, from `cwd` (an executable found on
    PATH too)."""
    chunks = [shlex.join(args).encode()]
    for i, arg in enumerate(args):
        path = Path(cwd or ".") / arg
        if i == 0 and not path.is_file() and shutil.which(arg):
            path = Path(shutil.which(arg))
        if path.is_file():
            chunks.append(path.read_bytes())
    return hash_bytes(*chunks)


def _file_pin(label: str | None, path: Path, cache: Path) -> Player:
    if path.suffix != ".py" and not os.access(path, os.X_OK):
        raise PlayerError(f"player {path}: the file is not executable (chmod +x {shlex.quote(str(path))})")
    content = path.read_bytes()
    version = hash_bytes(content)
    copy = pin_file(cache / f"file-{version}" / path.name, content, mode=path.stat().st_mode)
    args = [sys.executable, str(copy)] if path.suffix == ".py" else [str(copy)]
    return Player(label or path.stem, str(path), "file", shlex.join(args), version)


def pin_file(copy: Path, content: bytes, mode: int = 0o644) -> Path:
    """`content` kept at `copy` in the cache (written once, atomically: runs may pin it at once)."""
    if not copy.is_file():
        try:
            copy.parent.mkdir(parents=True, exist_ok=True)
            partial = copy.with_name(f".{copy.name}.part{os.getpid()}")
            partial.write_bytes(content)
            partial.chmod(mode & 0o777 | 0o400)
            partial.replace(copy)
        except OSError as exc:
            raise PlayerError(f"cannot keep a copy of a player in {copy.parent}: {exc.strerror or exc}") from None
    return copy


def changed_since(player: Player, game: Game) -> str | None:
    """Why `player` would not play as it did when its run began (None if it would)."""
    if player.kind == "bot":
        return game.changed_since(player)
    if player.kind == "git":
        return None if Path(player.cwd).is_dir() else f"its pinned tree {player.cwd} is gone"
    args = shlex.split(player.target)
    if player.kind == "file":
        copy = Path(args[-1])
        if not copy.is_file():
            return f"its pinned copy {copy} is gone"
        now = hash_bytes(copy.read_bytes())
    else:
        now = _command_version(args, player.cwd)
    return None if now == player.version else f"its program changed (version {player.version}, now {now})"


# ---------------------------------------------------------------- the project at a git revision


def git(*args: str) -> bytes:
    try:
        done = subprocess.run(["git", "-C", str(PROJECT_ROOT), *args], capture_output=True, check=True)
    except FileNotFoundError as exc:
        raise PlayerError("pinning a git revision needs git on PATH") from exc
    except subprocess.CalledProcessError as exc:
        said = exc.stderr.decode(errors="replace").strip() or f"exit status {exc.returncode}"
        raise PlayerError(f"git {' '.join(args)}: {said}") from exc
    return done.stdout


def project_at(revision: str, cache: Path | None = None) -> tuple[str, Path]:
    """(commit, tree): the project's tree at `revision`, extracted once into the cache."""
    commit = git("rev-parse", "--verify", f"{revision}^{{commit}}").decode().strip()  # no --quiet: git says why
    tree = (cache or cache_dir()) / f"git-{commit}"
    if not tree.is_dir():
        extract(commit, tree)
    return commit, tree


def extract(commit: str, tree: Path) -> None:
    """The project's tree at `commit`."""
    archive = git("archive", "--format=tar", commit)
    partial = tree.with_name(tree.name + f".part{os.getpid()}")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(partial, filter="data")
    try:
        partial.rename(tree)
    except OSError:  # another run extracted it meanwhile
        shutil.rmtree(partial, ignore_errors=True)
    # A game's `prepare` compiles what a pinned tree's bots need, at this final path (numba's
    # cache is keyed by it).
