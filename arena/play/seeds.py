"""A run's seeds: the seed files of the user (`--seeds FILE`, as CGBenchmark takes them), and the
check that a seed replays the same game.

Paired statistics (units, SPRT, SPSA) rest on that: the games of one unit are compared because they
share the referee's random choices. Some referees take no seed, or ignore the option they are
given, and every game is then a new draw.

The check plays one seed twice with the same players and compares what the game says depends on
the seed alone (`Outcome.fingerprint`: the first input each seat was given, or the referee's own
word on the seed), never the bots' play, which may vary from game to game.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from arena.errors import UsageError
from arena.games.base import Game, Player, RefereeFailure
from arena.play.cluster import session
from arena.players import registry as players

HONOURED, IGNORED, UNKNOWN = "honoured", "ignored", "unknown"


@dataclass(frozen=True)
class SeedVerdict:
    status: str  # HONOURED, IGNORED or UNKNOWN
    detail: str  # one line for people


def check_seed(game: Game, players: list[Player], seed: int, plays=None) -> SeedVerdict:
    """Play `seed` twice between `players` (one per seat) and compare the games' fingerprints; on a
    cluster (`plays`: `Cluster.seed_plays`), on two of its machines, the verdict saying which.
    A RefereeFailure of either game is the caller's to report (a referee that cannot play is
    refused before the run). A game that cannot pass the seed ignores it, whatever its games say
    (they said nothing of their seed, and passed as unchecked)."""
    if plays is None:
        bot_seeds = [seed] * len(players)
        first = game.play(seed, players, bot_seeds)
        second = game.play(seed, players, bot_seeds)
        where = ""
    else:
        (first, here), (second, there) = plays(game, players, seed)
        where = f" on {here} and {there}" if here != there else f" on {here}"
    if not game.passes_seed:
        return SeedVerdict(IGNORED, "its command gives the referee no seed ({seed} or %SEED%): each game draws its own")
    if first.fingerprint is None or second.fingerprint is None:
        return SeedVerdict(UNKNOWN, "the referee says nothing that depends on the seed alone: it cannot be checked")
    if first.fingerprint != second.fingerprint:
        return SeedVerdict(IGNORED, f"seed {seed} played twice{where} began two different games")
    return SeedVerdict(HONOURED, f"seed {seed} played twice{where} began the same game")


def read_seeds(path: str) -> list[int]:
    """The seeds of a seed file, as CGBenchmark takes them: one integer a line (blank lines and
    `#` comments skipped). Unit k of a run plays the k-th; a run never plays more units than the
    file has seeds (a seed played twice would count the same game twice)."""
    try:
        with open(path, encoding="utf-8-sig") as f:  # (a BOM, as Windows editors write, is no seed)
            lines = f.read().splitlines()
    except OSError as exc:
        raise ValueError(f"cannot read the seed file {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ValueError(f"the seed file {path} is not text") from None
    seeds = []
    for number, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            seed = int(text)
        except ValueError:
            raise ValueError(f"{path}, line {number}: {text!r} is not an integer seed") from None
        if not -(2**63) <= seed < 2**63:
            raise ValueError(
                f"{path}, line {number}: {text} is out of a seed's range (a 64-bit integer, as Java's long)"
            )
        seeds.append(seed)
    if not seeds:
        raise ValueError(f"the seed file {path} has no seed")
    return seeds


def seed_list(path: str | None, units: int | None, what: str = "--pairs") -> tuple[list[int] | None, int | None]:
    """(the seeds of the seed file at `path`, or None without one; the units: their number where
    none were asked for). More units than seeds is the user's mistake (a seed played twice would
    count the same game twice): `what` names the option that asked for them."""
    if not path:
        return None, units
    try:
        seeds = read_seeds(path)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if units is not None and units > len(seeds):
        raise UsageError(f"{what} {units} needs {units} seeds; {path} has {len(seeds)}")
    return seeds, len(seeds) if units is None else units


def checked_seed(seed: int, seeds: list[int] | None) -> int:
    """The seed the seed check plays: the first of the run's seed file where it has one (a
    referee may take only such seeds; the check played a seed drawn from --seed, which no game of
    the run plays), else the run's own."""
    return seeds[0] if seeds else seed


def seed_verdict(game: Game, seated: list[Player], seed: int, allow_unseeded: bool, log=None) -> dict:
    """Before a run on an external referee: does a seed replay the same game? What the run's
    configuration keeps of the answer. Paired statistics are honest only if it does; a referee that
    ignores the seed is refused, unless the user allows it knowingly (its games then count one by
    one). `seated`: one player a seat."""
    log = log or sys.stderr
    if game.replays_seeds:
        return {}
    cluster = session()
    there = " on the Ray cluster" if cluster is not None else ""
    print(f"checking that the referee of {game.name} honours the seed (one seed, played twice{there})...", file=log)
    players.prepare(seated, game, log)
    try:
        verdict = check_seed(game, seated, seed, cluster.seed_plays if cluster is not None else None)
    except RefereeFailure as exc:
        raise UsageError(f"the referee of {game.name} failed its first game: {exc}") from None
    print(f"  {verdict.detail}", file=log)
    if verdict.status == IGNORED:
        if not allow_unseeded:
            raise UsageError(
                f"the referee of {game.name} ignores the seed ({verdict.detail}): paired statistics would be "
                f"wrong; {game.seed_advice}, or give --allow-unseeded to count games one by one"
            )
        return {"seed_check": verdict.status, "unpaired": True}
    return {"seed_check": verdict.status}
