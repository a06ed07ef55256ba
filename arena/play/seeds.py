"""Does a seed replay the same game? Paired statistics (units, SPRT, SPSA) rest on it: the games of
one unit are compared because they share the referee's random choices. Some referees take no seed,
or ignore the option they are given, and every game is then a new draw.

The check plays one seed twice with the same players and compares what the game says depends on
the seed alone (`Outcome.fingerprint`: the first input each seat was given, or the referee's own
word on the seed), never the bots' play, which may vary from game to game.
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.games.base import Game, Player

HONOURED, IGNORED, UNKNOWN = "honoured", "ignored", "unknown"


@dataclass(frozen=True)
class SeedVerdict:
    status: str  # HONOURED, IGNORED or UNKNOWN
    detail: str  # one line for people


def check_seed(game: Game, players: list[Player], seed: int) -> SeedVerdict:
    """Play `seed` twice between `players` (one per seat) and compare the games' fingerprints.
    A RefereeFailure of either game is the caller's to report."""
    bot_seeds = [seed] * len(players)
    first = game.play(seed, players, bot_seeds)
    second = game.play(seed, players, bot_seeds)
    if first.fingerprint is None or second.fingerprint is None:
        return SeedVerdict(UNKNOWN, "the referee says nothing that depends on the seed alone: it cannot be checked")
    if first.fingerprint != second.fingerprint:
        return SeedVerdict(IGNORED, f"seed {seed} played twice began two different games")
    return SeedVerdict(HONOURED, f"seed {seed} played twice began the same game")
