"""`arena analyse`'s work (its command line: arena/cli/analyse.py): replays of files or of a run's games
searched by an engine (`bots/volcanoes/analyse.py`), written back with their analysis and pages, and
a player's typical mistakes."""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import time
from collections import Counter
from pathlib import Path

from tqdm import tqdm

from bots.volcanoes.analyse import Analyser, engines
from referee.platform.files import (
    refuse_overwriting,
    refuse_replacing,
    refuse_replacing_a_non_page,
    usable_folder,
    write_atomic,
)
from referee.volcanoes import analysis
from referee.volcanoes.replay import read_replay, replay_problem
from referee.volcanoes.view import render

from arena.errors import UsageError
from arena.games.volcanoes.game import VolcanoesGame
from arena.play.store import Store, StoreError
from arena.stats.tables import points, table

PHASES = ("opening (the game's first third)", "middle (its second third)", "end (its last third)")
WORST_SHOWN = 10
WINNING = 0.9  # a player's expected score in a position it should win
SQLITE_HEADER = b"SQLite format 3\x00"  # the first bytes of every SQLite database: an arena run
RUN_OPTIONS = {"--player": "player", "--games": "games", "--limit": "limit"}  # with --db only (None: not given)


def run_analyse(args) -> int:
    if args.replays and args.db:
        raise UsageError("give replay files, or --db RUN --player LABEL, not both")
    if not args.replays and not args.db:
        raise UsageError("give replay files, or --db RUN --player LABEL: what to analyse")
    if args.engine not in engines():
        raise UsageError(f"--engine {args.engine}: it cannot analyse; engines that can: {', '.join(engines())}")
    if args.db:
        (todo, unplayed), player = _run_games(args), args.player
    else:
        todo, unplayed, player = _replay_files(args), "", None
    for target, replay in todo:  # before hours of search, not after
        _check_target(target, replay)
    with _prepared(args) as analyser:
        analysed = []
        for number, (target, replay) in enumerate(todo, 1):
            with tqdm(
                unit="position",
                disable=args.quiet,
                file=sys.stderr,
                dynamic_ncols=True,
                desc=f"analysing {number}/{len(todo)} {target.name}",
            ) as bar:

                def progress(done, total, bar=bar):
                    bar.total = total
                    bar.update(done - bar.n)

                replay = analyser.analyse(replay, progress)
            _write(target, replay)
            analysed.append((target.stem, replay))
            print(f"{target} (page {target.with_suffix('.html')}):")
            side = _side(replay, player)
            print(_mistake_lines([m for m in analysis.mistakes(replay, per_side=None) if side in (None, m.player)]))
    if player:
        print(summary(analysed, player))
    if unplayed:
        print(f"  {unplayed}")
    return 0


def _prepared(args) -> Analyser:
    """The engine of `args`, its kernels compiled or loaded first, said on stderr (unless --quiet): at
    their first compilation, half a minute passed in silence before the first progress line."""
    if not args.quiet:
        print(f"preparing {args.engine} (compiling or loading its kernels)...", end=" ", file=sys.stderr, flush=True)
    started = time.perf_counter()
    analyser = Analyser(args.engine, args.iterations, args.workers)
    if not args.quiet:
        print(f"ready in {time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)
    return analyser


def _replay_files(args) -> list[tuple[Path, dict]]:
    """The replay files given, each with where its analysed replay goes: over it, or into -o FOLDER
    (never over the file itself there: no command writes over its input)."""
    run_only = [option for option, given in RUN_OPTIONS.items() if getattr(args, given) is not None]
    if run_only:
        raise UsageError(f"{run_only[0]} chooses games of a run: give it with --db RUN, not with replay files")
    sources = [Path(name) for name in args.replays]
    if args.output is None:
        targets = sources
    else:
        folder = usable_folder(args.output, "the folder of the analysed replays")
        targets = [folder / source.name for source in sources]
        for source, target in zip(sources, targets, strict=True):
            refuse_overwriting(target, source)
    _refuse_writing_twice(sources, targets)
    return [(target, _analysable_replay(str(source))) for source, target in zip(sources, targets, strict=True)]


def _refuse_writing_twice(sources: list[Path], targets: list[Path]) -> None:
    """UsageError where two replays given would be written to one file, or their pages would (g.json
    and g.replay both have g.html): the second replaced the first, found out after both searches."""
    written: dict[Path, Path] = {}
    for source, target in zip(sources, targets, strict=True):
        for path in (target, target.with_suffix(".html")):
            first = written.setdefault(path.resolve(), source)
            if first is not source:
                raise UsageError(f"{first} and {source} would both be written to {path}: analyse them apart")


def _analysable_replay(name: str) -> dict:
    """The replay in file `name`; UsageError where it is none, or one the engine cannot value."""
    if _is_database(name):
        raise UsageError(f"{name} is an arena run, not a replay file: give --db {name} --player LABEL")
    replay = read_replay(name)
    problem = analysis.shortened_problem(replay)
    if problem:
        raise UsageError(f"{name}: {problem}")
    return replay


def _run_games(args) -> tuple[list[tuple[Path, dict]], str]:
    """The games of `--player` in the run (its losses, or all), each with where its replay goes, and
    a line on those of them that have no move to analyse ("" where there are none)."""
    store = Store.open(args.db, readonly=True)
    try:
        labels, games, config = [p.label for p in store.players()], store.games(), store.config
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{args.db} is damaged: {exc}") from None
    finally:
        store.close()
    if store_game(config) != "volcanoes":
        raise UsageError(f"{args.db} is a run of {_game_named(config)}: arena analyse reads Volcanoes games")
    if args.player not in labels:
        raise UsageError(f"--player: give one of the run's players: {', '.join(labels)}")
    kind = "game" if args.games == "all" else "lost game"
    wanted = [g for g in games if args.player in g["seats"] and (args.games == "all" or points(g, args.player) < 1.0)]
    chosen = [g for g in wanted if (g.get("data") or {}).get("moves")]
    unplayed = _unplayed_line([g for g in wanted if g not in chosen], kind)
    if not chosen:
        raise UsageError(f"{args.player} has no {kind} in {args.db}" + (f" to analyse: {unplayed}" if unplayed else ""))
    folder = Path(args.output) if args.output else Path(args.db).with_name(Path(args.db).stem + "_analysis")
    usable_folder(folder, "the folder of the analysed replays")
    todo = [(folder / f"game-{g['id']}.json", _stored_replay(g, args.db)) for g in chosen[: args.limit]]
    return todo, unplayed


def _unplayed_line(unplayed: list[dict], kind: str) -> str:
    """What to say of a player's games that ended before any move (a timeout or a crash on the first
    turn), which have nothing to analyse: a player that lost only so was said to have no lost game."""
    if not unplayed:
        return ""
    games = ", ".join(f"game {g['id']} ({g.get('reason')}: {g.get('detail')})" for g in unplayed)
    return f"{_plural(len(unplayed), kind)} ended before any move, with nothing to analyse: {games}"


def _plural(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _stored_replay(game: dict, db: str) -> dict:
    """A stored game's replay; UsageError naming the game where the database holds no playable game."""
    try:
        replay = VolcanoesGame().replay(game)
    except (ValueError, TypeError, AttributeError, KeyError) as exc:  # moves no game has, fields of no type
        raise UsageError(f"{db} is damaged: game {game.get('id')}: {exc}") from None
    problem = replay_problem(replay)
    if problem:
        raise UsageError(f"{db} is damaged: game {game.get('id')}: {problem}")
    return replay


def _check_target(target: Path, replay: dict) -> None:
    """`replay`, analysed, can be written to `target`, and its page beside it (.html): `target` holds
    nothing yet or this very game (an earlier analysis of it, or the replay given), in a folder this
    user may write in (a read-only one was found out after the whole search), the page is not the
    replay itself, nor a folder, nor what is no page. A user's own game-N.json in an -o folder,
    or an earlier run's, was replaced by an analysed game of this run."""
    if not os.access(target.parent, os.W_OK | os.X_OK):  # (a read-only mount too, for root)
        raise UsageError(
            f"cannot write {target} and its page: its folder {target.parent} is not writable; "
            "give -o FOLDER, a folder you may write in"
        )
    refuse_replacing(target, "this game's replay", lambda text: _same_game(text, replay))
    page = target.with_suffix(".html")
    refuse_overwriting(page, target)
    if page.is_dir():
        raise UsageError(f"cannot write the page {page}: it is a folder")
    refuse_replacing_a_non_page(page, "a replay's page")


def _same_game(text: str, replay: dict) -> bool:
    """Whether `text` is the JSON of `replay`, with or without an analysis."""
    try:
        held = json.loads(text)
    except ValueError:
        return False
    unanalysed = json.loads(json.dumps(replay))  # (tuples as JSON lists)
    for game in (held, unanalysed):
        if isinstance(game, dict):
            game.pop("analysis", None)
    return held == unanalysed


def _is_database(path: str) -> bool:
    try:
        with open(path, "rb") as file:
            return file.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False  # (read_replay says why)


def _game_named(config: dict) -> str:
    """A run's game as its user knows it: its name, and its referee's command where it has one."""
    game = config.get("game", {})
    command = game.get("command")
    return f"{game.get('name', store_game(config))}" + (f" ({command})" if command else "")


def store_game(config: dict) -> str:
    return config.get("game", {}).get("protocol", "volcanoes")


def _write(target: Path, replay: dict) -> None:
    """The analysed replay over `target` (the replay analysed, when it is a file given: it only
    gains its analysis) and its page beside it, each whole or not at all."""
    for path, text in ((target, json.dumps(replay)), (target.with_suffix(".html"), render(replay))):
        try:
            write_atomic(path, text)
        except OSError as exc:
            raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None


def _side(replay: dict, player: str | None) -> str | None:
    """The colour `player` had in `replay` (None: both sides count)."""
    if player is None:
        return None
    return next(colour for colour in ("blue", "orange") if replay["players"].get(colour) == player)


def _mistake_lines(found: list[analysis.Mistake]) -> str:
    if not found:
        return f"  no move lost {analysis.MISTAKE:.0%} of its player's expected score"
    rows = [
        [m.frame, m.player, m.played or "(forfeit)", m.best or "-", f"{m.before:.0%}", f"-{m.loss:.0%}"] for m in found
    ]
    return "  " + table(rows, ["turn", "player", "played", "engine", "expected before", "lost"]).replace("\n", "\n  ")


def summary(games: list[tuple[str, dict]], player: str) -> str:
    """`player`'s typical mistakes over analysed games (name, replay): how many, when in the game,
    the worst."""
    found = [
        (name, m, len(replay["turn_log"]))
        for name, replay in games
        for m in analysis.mistakes(replay, per_side=None)
        if m.player == _side(replay, player)
    ]
    moves = sum(1 for _, replay in games for entry in replay["turn_log"] if entry["actor"] == _side(replay, player))
    average = sum(m.loss for _, m, _ in found) / max(len(found), 1)
    lines = [
        f"\n{player}: {_plural(len(found), 'mistake')} (moves that lost {analysis.MISTAKE:.0%} or more of its "
        f"expected score; {average:.0%} on average) in {_plural(len(games), 'game')}, {_plural(moves, 'move')}"
    ]
    thrown = sum(1 for _, m, _ in found if m.before >= WINNING and m.before - m.loss < 0.5)
    lines.append(f"  {thrown} of them threw a winning position away ({WINNING:.0%} or more before, under 50% after)")
    by_phase = Counter(PHASES[_third(m.frame, turns)] for _, m, turns in found)
    lines += ["  by the phase of the game:"] + [f"    {name}: {by_phase[name]}" for name in PHASES]
    worst = sorted(found, key=lambda item: -item[1].loss)[:WORST_SHOWN]
    if worst:
        rows = [
            [name, m.frame, m.played or "(forfeit)", m.best or "-", f"{m.before:.0%}", f"-{m.loss:.0%}"]
            for name, m, _ in worst
        ]
        lines += [
            "  the worst:",
            "  " + table(rows, ["game", "turn", "played", "engine", "expected before", "lost"]).replace("\n", "\n  "),
        ]
    return "\n".join(lines)


def _third(turn: int, turns: int) -> int:
    """Which third of a game of `turns` turns its turn `turn` (1 to `turns`) is in, 0 to 2: a 2-turn
    game's last turn is in its end, not in its middle."""
    return (3 * turn - 1) // turns
