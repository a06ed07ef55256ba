"""Which games of a run keep their replay, and how a replay is kept.

A replay is the frames of the game's own viewer (`Outcome.frames`: what the referee sent its viewer
each round, with the summary and the answer, input and stderr that led to it), kept beside the
game's record in the run's database (`Store.add_game`), compressed, and never changed afterwards.
How many games keep theirs is the run's `replays` option, written in its configuration when it is
created (and changed only by a resume that gives it again), stated by its report:

- `all` (the default): every game whose referee sends frames;
- `lost`: the games the first player of their lineup did not win (a match's first player, an SPRT's
  NEW, a gauntlet's hero), and every game in which a bot failed (a timeout, an invalid answer, a
  crash, a bot that could not start); `lost:LABEL`: those LABEL played and did not win, and the
  failed ones. A win is first place alone, as the report's W-D-L counts it: a draw is kept;
- `none`: no game.

A game costs a few KiB to a few tens of KiB (docs/replays.md has figures of real games).
"""

from __future__ import annotations

import gzip
import json
import zlib

from arena.errors import UsageError
from arena.games.base import DamagedGame
from arena.stats.tables import won

ALL, LOST, NONE = "all", "lost", "none"
DEFAULT = ALL
FORMAT = 1  # of a stored replay: {"format": 1, "frames": [Frame.to_json(), ...]}


def parse(text: str) -> str:
    """The option as given, checked: all, lost, lost:LABEL or none."""
    kind, colon, label = text.partition(":")
    if kind in (ALL, NONE) and not colon or kind == LOST and (not colon or label.strip()):
        return text if not colon else f"{LOST}:{label.strip()}"
    raise UsageError(f"{text!r} is none of all, lost, lost:LABEL (a player's label), none")


def chosen(given: str | None, labels: list[str] | None = None) -> str:
    """A new run's policy: as given (DEFAULT if not), a `lost:LABEL` naming one of `labels` (where
    the players are known)."""
    policy = DEFAULT if given is None else parse(given)
    who = player_of(policy)
    if who is not None and labels is not None and who not in labels:
        raise UsageError(f"--replays {policy}: {who} is none of the players ({', '.join(labels)})")
    return policy


def player_of(policy: str) -> str | None:
    """The player a `lost:LABEL` policy names (None for the others)."""
    return policy.partition(":")[2] or None if policy.startswith(LOST) else None


def keeps(policy: str, record: dict) -> bool:
    """Whether a game (its record: seats, ranks, errors, lineup) keeps its replay under `policy`."""
    if policy == ALL:
        return True
    if policy == NONE:
        return False
    if any(error is not None for error in record["errors"]):
        return True
    label = player_of(policy) or record["lineup"][0]
    return any(not won(record["ranks"], seat) for seat, name in enumerate(record["seats"]) if name == label)


def describe(policy: str) -> str:
    """What a policy keeps, in words."""
    if policy == ALL:
        return "every game"
    if policy == NONE:
        return "no game"
    who = player_of(policy)
    return f"the games {who} did not win" if who else "the games the first player of their lineup did not win"


def report_line(policy: str, kept: int, size: int, games: int, db: str, viewer_known: bool) -> str:
    """The report's line on replays: the policy, how many games kept one, what they weigh, and what
    plays them: `arena serve` where the run knows its viewer, else `arena replay` given one."""
    line = f"Replays ({policy}: {describe(policy)}"
    line += ", and every game a bot failed): " if policy.startswith(LOST) else "): "
    line += f"{kept} of {games} games keep theirs, {size / 1024:,.1f} KiB compressed"
    if not kept:
        return line
    line += f" ({size / 1024 / kept:,.1f} KiB a game)"
    if viewer_known:
        return line + "; arena serve plays them in the game's own viewer"
    return line + (
        f"; the run knows no viewer to play them in: arena replay {db} GAME -o FOLDER --viewer PATH "
        "(the referee's jar, or a folder holding view/)"
    )


def pack(frames: list[dict]) -> tuple[bytes, int]:
    """A replay as stored: its JSON gzipped (the page that plays it inflates it itself), and the
    JSON's own size in bytes."""
    text = json.dumps({"format": FORMAT, "frames": frames}, separators=(",", ":"), ensure_ascii=False).encode()
    return gzip.compress(text, compresslevel=6, mtime=0), len(text)


def unpack(blob: bytes) -> list[dict]:
    """The frames of a stored replay; DamagedGame where they are not (cut short, not gzip, not JSON)."""
    try:
        frames = json.loads(gzip.decompress(blob))["frames"]
    except (OSError, EOFError, zlib.error, ValueError, TypeError, KeyError) as exc:
        raise DamagedGame(f"its frames are damaged ({type(exc).__name__}: {exc})") from None
    if not isinstance(frames, list):
        raise DamagedGame("its frames are damaged (no list of frames)")
    return frames
