"""`arena bundle ... --check`: a written submission played before it is pasted into the judge.

- The submission of one of the project's Volcanoes bots is played as CodinGame's judge would run it,
  a process under `python -S` at CodinGame's limits, through our referee, against an opponent (any
  Volcanoes player: a registered bot in this process, under its own limits, or a command), the
  seats alternating. What a judge we cannot see would care about is printed: its first answer, its
  worst turn, its forfeits (a slow turn on a busy machine forfeits, and the check says so).
- A user's bot file of any game is checked against its original: the turns of recorded games (or of
  saved transcripts) replayed to the original and to the bundle, their answers compared turn by turn
  (see arena/bundle/folder.py); for C and C++, the bot of several files and its one file are each
  built as CodinGame builds them, then compared so (arena/bundle/cpp.py).
"""

from __future__ import annotations

import shlex
import shutil
import sys
import tempfile
from pathlib import Path

from referee.platform.errors import counted

from arena.bench import transcripts
from arena.builds.revisions import split_revision
from arena.games.base import Game, Player
from arena.games.protocols import DEFAULT_GAME, make
from arena.players import registry as players

RECORDING_SEED = 1  # the seeds of the games recorded for a bot file's check derive from it
FORFEITS = ("timeout", "invalid", "crash")


def check_submission(path: Path, games: int, opponent: str) -> int:
    """Play `games` games of the submission at `path` against `opponent`, seats alternating; print
    what a judge would care about. 1 if it forfeited a game, else 0."""
    game = make(DEFAULT_GAME)
    submission = Player("submission", str(path), "file", shlex.join([sys.executable, "-S", str(path)]), "check")
    rival = players.resolve(opponent, game)
    players.prepare([rival], game)
    first, later, forfeits, wins = [], [], [], 0
    for number in range(games):
        ours = number % 2
        seats = [submission, rival] if ours == 0 else [rival, submission]
        outcome = game.play(number, seats, [number, number])
        times = (outcome.times_ms or [[], []])[ours]
        first += times[:1]
        later += times[1:]
        wins += outcome.ranks[ours] < outcome.ranks[1 - ours]
        if outcome.errors[ours] in FORFEITS:
            forfeits.append(f"game {number + 1}: {outcome.errors[ours]} ({outcome.detail})")
    later.sort()
    print(
        f"check: {counted(games, 'game')} against {opponent} as a process under `python -S`: {wins} won; "
        f"first answer max {max(first, default=0):.0f} ms; later turns median "
        f"{later[len(later) // 2] if later else 0:.0f} ms, max {max(later, default=0):.0f} ms; "
        f"{len(forfeits)} forfeits"
    )
    for line in forfeits:
        print("  " + line)
    return 1 if forfeits else 0


def check_file_bot(
    entry: Path, output: Path, games: int, turns_file: str | None, game: Game, opponent: str | None
) -> int:
    """A Python bot file's bundle against its original (see `compare`): the original as `python
    ENTRY`, the bundle by `python -S`, copied alone into an empty folder (Python puts a script's own
    folder first on sys.path: the bundle run where it was written, in the bot's folder, would still
    import the bot's modules)."""
    original = Player(entry.stem, str(entry), "command", shlex.join([sys.executable, str(entry.resolve())]), "check")
    with tempfile.TemporaryDirectory(prefix="caldera-bundle-check-") as empty:
        alone = Path(empty, output.name)
        shutil.copyfile(output, alone)
        bundled = Player(
            "bundle", str(output), "command", shlex.join([sys.executable, "-S", str(alone)]), "check", empty
        )
        return compare(original, bundled, "by `python -S`, from an empty folder", games, turns_file, game, opponent)


def check_built_bot(
    bot: str, output: Path, games: int, turns_file: str | None, game: Game | None, opponent: str | None
) -> int:
    """A C or C++ bot's one file against the bot of several files (see `compare`): each built as
    CodinGame builds its language (arena/builds/), the entry `bot` (`PATH` or `PATH@REV`, as the user
    wrote it, which a failed build names) with its local includes, and the one file alone, before any
    turn is played."""
    sources = game or make(DEFAULT_GAME)  # replayed turns need no game: a source is built the same in any
    original = players.resolve(f"{Path(split_revision(bot)[0]).stem}={bot}", sources)
    bundled = players.resolve(f"bundle={output}", sources)
    players.prepare([original, bundled], sources, sys.stderr)
    return compare(original, bundled, "built with CodinGame's flags", games, turns_file, game, opponent)


def compare(
    original: Player,
    bundled: Player,
    how: str,
    games: int,
    turns_file: str | None,
    game: Game,
    opponent: str | None,
) -> int:
    """Replay turns to the original and to the bundle (each a process player, `how` says what the
    bundle is) and compare their answers: 0 if the bundle answered every turn as the original did,
    1 if not. The turns: `turns_file`'s, or those of `games` games of `game` recorded now, the
    original against itself or `opponent`."""
    forfeits: list[str] = []
    if turns_file:
        scripts, recorded_by_original = transcripts.load(turns_file), False
    else:
        scripts, recorded_by_original = _record(original, games, game, opponent, forfeits), True
    turns = sum(len(t.turns) for t in scripts)
    first_ms, later_ms = [], []
    for script in scripts:
        theirs = transcripts.replay(original.target, script, cwd=original.cwd, first_s=30.0, turn_s=10.0)
        try:
            ours = transcripts.replay(bundled.target, script, cwd=bundled.cwd, first_s=30.0, turn_s=10.0)
        except transcripts.TranscriptError as exc:
            print(f"check: the bundle failed: {exc}")
            return 1
        first_ms.append(ours.first_s * 1000)
        later_ms += [s * 1000 for s in ours.later_s]
        for i, (a, b) in enumerate(zip(theirs.answers, ours.answers, strict=True)):
            if a != b:
                print(
                    f"check: on {script.where(i)} the bundle answered {_text(b)}, the original {_text(a)} "
                    f"({turns} turns of {len(scripts)} transcript(s))"
                )
                recorded = tuple(turn.answer for turn in script.turns)
                if recorded_by_original and tuple(theirs.answers) != recorded:
                    print(
                        "  the original itself answers otherwise than in its recorded game: its answers "
                        "depend on time or on unseeded randomness (give it a fixed budget for the check)"
                    )
                return 1
    later_ms.sort()
    print(
        f"check: the bundle ({how}) answered all {turns} turns of {len(scripts)} transcript(s) as the "
        f"original did; first answer max {max(first_ms):.0f} ms; later turns median "
        f"{later_ms[len(later_ms) // 2] if later_ms else 0:.1f} ms, max {max(later_ms, default=0):.1f} ms"
    )
    if forfeits:  # (the check passed over every recorded game lost to a crash: a forfeit is no pass)
        print(
            f"check: but the original forfeited {len(forfeits)} of its recorded games "
            f"({', '.join(sorted(set(forfeits)))}): the turn each lost is not compared, and on CodinGame "
            "the bundle loses it as the original did"
        )
        return 1
    return 0


def _record(
    original: Player, games: int, game: Game, opponent: str | None, forfeits: list[str]
) -> list[transcripts.Transcript]:
    """The transcripts of `games` games of `game` played by the original (a game's own bot opposing
    it runs as a process: recorded games need processes)."""
    rival = None
    if opponent:
        command, cwd = players.command(players.resolve(opponent, game), game)
        rival = Player(opponent, opponent, "command", command, "check", cwd)
    print(f"check: recording {games} game(s) of {game.name} ...", file=sys.stderr, flush=True)
    return transcripts.record_games(game, original, rival, games, RECORDING_SEED, forfeits=forfeits)


def _text(answer: tuple[str, ...]) -> str:
    return repr(answer[0][:60]) if len(answer) == 1 else repr([line[:60] for line in answer])
