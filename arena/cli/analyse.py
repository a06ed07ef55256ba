"""`arena analyse`: see why games were lost. Every position of a game is searched by an engine at a
fixed budget (`bots/volcanoes/analyse.py`); the replay gains each position's value and the
engine's preferred move, its page draws the value curve and marks the moves that lost the most.

    arena analyse game.json                  # the replay gains its analysis; game.html beside it
    arena analyse game.json -o analysed      # analysed/game.json and analysed/game.html; game.json as it was
    arena analyse --db RUN --player NAME     # NAME's lost games of a run, and its typical mistakes

The command lives in `arena`, not in `referee volcanoes`, because the engine is a bot and `referee`
imports no bot; `referee volcanoes view` draws an analysed replay like any other.
"""

from __future__ import annotations

from bots.volcanoes.registry import ANALYSIS_ENGINE as ENGINE
from bots.volcanoes.registry import ANALYSIS_ITERATIONS as ITERATIONS
from referee.platform.options import count
from referee.platform.pools import check_workers


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "analyse", help="search every position of games: values, preferred moves, mistakes", description=__doc__
    )
    p.add_argument("replays", nargs="*", metavar="REPLAY", help="replay files (referee volcanoes play --replay)")
    p.add_argument("--db", metavar="RUN", help="analyse games of this arena run instead (with --player)")
    p.add_argument("--player", metavar="LABEL", help="with --db: the run's player whose games to analyse")
    p.add_argument(
        "--games",
        choices=("losses", "all"),
        help="with --db: the player's lost games (the default; draws count) or all its games",
    )
    p.add_argument("--limit", type=count(1), metavar="N", help="with --db: at most N games (the first played)")
    p.add_argument(
        "-o",
        "--output",
        metavar="DIR",
        help="where the analysed replays and pages go (default: with --db, RUN_analysis/; replay files gain "
        "their analysis, their pages beside them)",
    )
    p.add_argument("--engine", default=ENGINE, help=f"the searching bot (default {ENGINE})")
    p.add_argument(
        "--iterations",
        type=count(1),
        default=ITERATIONS,
        help=f"search iterations per position (default {ITERATIONS:,})",
    )
    p.add_argument("--workers", type=count(1), help="processes searching at once (default: every core)")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    p.set_defaults(run=_run)


def _run(args) -> int:
    # The work (Volcanoes' engines and rules: numba, half a second to import) is imported when the
    # command runs, so that `arena` on another game loads no numba.
    from arena.analyse import run_analyse

    if args.workers is not None:
        check_workers(args.workers)
    return run_analyse(args)
