"""`arena tune BOT --params c,rave_k`: a registered bot's parameters tuned by SPSA over seat-swapped
pairs of games (the arithmetic is in `arena/stats/spsa.py`), then a confirmation match of the tuned values
against the start.

Iteration k plays K pairs between the bot at theta + c_k * delta ("plus") and at theta - c_k * delta
("minus"), or K pairs of each against a fixed opponent, on the same seeds. Its games are pairs
(k-1)*K .. k*K-1 of the run's schedule, so their seeds derive from the run seed alone. Each iteration is
written to the run's database before its first game (the values it plays) and after its last (its net
result and the new theta), each game in between as it ends: a resumed run replays nothing, loses
nothing, and computes the same theta. The iterations run one after the other (iteration k + 1 plays the
theta that k's results made); the games of one iteration run at once on the workers of `arena/play/run.py`.
"""

from __future__ import annotations

import contextlib
import io
import math
import os
import secrets
import shlex
import sys
import time
from dataclasses import asdict, replace

from referee.platform.commands import INTERRUPTED
from referee.platform.errors import counted
from tqdm import tqdm

from arena.errors import UsageError
from arena.games.base import Game, Player, seats_vary
from arena.players import registry as players
from arena.players.base import PlayerError, split_label, whole_path
from arena.players.environment import env_split
from arena.play import replays
from arena.play.cluster import check_travel, make_executor
from arena.play.run import run_jobs
from arena.play.runs import command_again, new_store
from arena.play.schedule import derive_seed, jobs
from arena.play.seeds import checked_seed, seed_list, seed_verdict
from arena.play.store import Store, StoreError, quoted, stored_game
from arena.stats.spsa import C_END, Plan, Spsa, Tuned, rounded
from arena.stats.tables import errors_lines, failures_lines, lineups_rows, players_rows, printable, table, versus

PLUS, MINUS, OPPONENT = "plus", "minus", "opponent"  # the labels of an iteration's games
TUNED, START = "tuned", "start"  # the labels of the confirmation's games
DEFAULTS = {"iterations": 200, "pairs_per_iteration": 4, "c_end": C_END, "r_end": None, "confirm_pairs": 50}
TREND_SHARE = 0.1  # the progress line shows each value's change over this share of the iterations


# ---------------------------------------------------------------- what to tune


def parse_params(bot: str, text: str, game: Game, config: str | None = None) -> tuple[Player, list[Tuned]]:
    """The start player and the tuned parameters.

    A bot of the game's own with declared parameters (`mcts`, or `mcts:c=0.3` to start elsewhere than
    its defaults): `c,rave_k` over their declared ranges, `rave_k=500:20000` over a narrower one. Any
    other bot, a command line or a file, takes its values as environment variables named as the
    parameters (`env C=0.3 python bot.py` starts from C=0.3; the middle of the range otherwise), each
    given with its range: `C=0.05:1,DEPTH=1:8` (integers where both ends are written as integers)."""
    refuse_a_label(bot, game, config)
    start = players.resolve(f"{START}={bot}", game, config=config)
    provider = players.provider_of(start, game)
    declared = provider.parameters(start)
    if declared == {}:
        raise UsageError(f"{bot!r} has no parameters to tune (see `arena bots`)")
    values = provider.values(start)
    tuned = []
    for item in text.split(","):
        key, sep, span = (part.strip() for part in item.partition("="))
        if declared is not None and key not in declared:
            raise UsageError(f"--params: {bot} has no parameter {key!r} (its parameters: {', '.join(declared)})")
        if not key.isidentifier():
            raise UsageError(f"--params: {key!r} is not a parameter's name (letters, digits, _)")
        if key in (t.name for t in tuned):
            raise UsageError(f"--params: {key} is given twice")
        p = declared[key] if declared is not None else None
        low, high, integer = (p.low, p.high, p.type is int) if p else (None, None, False)
        if sep:
            low_text, colon, high_text = span.partition(":")
            try:
                low, high = (p.parse(low_text), p.parse(high_text)) if p else (_number(low_text), _number(high_text))
            except ValueError as exc:
                raise UsageError(f"--params: {exc}") from None
            if not colon or not low < high:
                raise UsageError(f"--params: {item!r}: give a range NAME=LOW:HIGH with LOW < HIGH")
            if not math.isfinite(high - low):  # (each end finite, the span past a float: an overflow later)
                raise UsageError(f"--params: {item!r}: the range is wider than a number holds")
            integer = integer or (p is None and _is_integer(low_text) and _is_integer(high_text))
        elif p is None:
            raise UsageError(f"--params: {key}: a command-line bot's parameter needs its range, {key}=LOW:HIGH")
        default = p.default if p else (round((low + high) / 2) if integer else (low + high) / 2)
        begin = _start_value(start, key, values, default)
        if not low <= begin <= high:
            raise UsageError(
                f"--params: {key} starts at {begin:g}, outside [{low:g}, {high:g}]: give a start inside it"
            )
        if integer and begin != int(begin):  # (EPS=0:1 from 0.5 played 0 against 1, and tuned EPS=1)
            raise UsageError(
                f"--params: {key} is an integer (both ends of {span} are written as integers) and starts at "
                f"{begin:g}: give a real range ({low:g}.0:{high:g}.0) or an integer start"
            )
        tuned.append(Tuned(key, low, high, begin, integer))
    return start, tuned


def one_command_line(spec: str) -> str:
    """A spec as a command line: a path with spaces written whole, without quotes (`my bot/bot.py`,
    as every command takes it), quoted, so that the values' `env` goes before it as one word (it was
    split at its spaces: `env EPS=0.5 my bot/bot.py`)."""
    return shlex.quote(spec) if whole_path(spec) == spec else spec


def refuse_a_label(bot: str, game: Game, config: str | None) -> None:
    """UsageError where BOT is given a label (`mine=env EPS=0.5 ./bot`), which a tune has no use
    for: it names its players itself. (It was taken as the spec of `start=mine=...`, and refused as
    "'start=mine' cannot be a label".)"""
    label, spec = split_label(bot)
    if label is None:
        return
    try:
        players.resolve(spec, game, config=config)
    except PlayerError:  # (no label, then: `K=1 ./bot` is told what it is as it resolves)
        return
    raise UsageError(
        f"{bot!r}: a tune's BOT takes no label ({label}=): it names its players itself "
        f"({PLUS}, {MINUS}, {TUNED}, {START}); give {spec!r}"
    )


def _start_value(start: Player, name: str, values: dict, default: float) -> float:
    """Where parameter `name` starts: the start player's value, else `default`; UsageError where its
    command sets it to no number (`env EPS=0,3`: it started from the middle of its range, unsaid)."""
    if name in values:
        return values[name]
    written = env_split(start.spec)[0].get(name)
    if written is not None:
        raise UsageError(
            f"{name}={written}: {written!r} is not a number: give its start as one, or none to start "
            "from the middle of its range"
        )
    return default


def at_its_start(start: Player, tuned: list[Tuned], game: Game, config: str | None = None) -> Player:
    """The start player playing every tuned value it starts from: a command's parameter left out of
    its environment starts from the middle of its range, and the confirmation's baseline (and the
    suggested check's) must play that value too, not the bot's own default, which the tune never
    played. A bot that declares its parameters starts from its own values already."""
    provider = players.provider_of(start, game)
    values = provider.values(start)
    unset = {t.name: t.start for t in tuned if t.name not in values}
    if provider.parameters(start) is not None or not unset:
        return start
    spec = provider.with_values(one_command_line(start.spec), unset)
    return players.resolve(f"{START}={spec}", game, config=config)


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"{text!r} is not a finite number")
    return value


def _is_integer(text: str) -> bool:
    digits = text.strip().lstrip("+-")
    return digits.isascii() and digits.isdigit()


def spec_with(bot: str, values: dict, game: Game, config: str | None = None) -> str:
    """The spec `bot` with `values` for its tuned parameters, its other options kept: a bot's own
    options where it declares them, else its command's environment (`env C=0.3 python bot.py`)."""
    player = players.resolve(bot, game, config=config)
    return players.provider_of(player, game).with_values(one_command_line(bot), values)


def spsa_of(config: dict) -> Spsa:
    params = tuple(Tuned(**p) for p in config["params"])
    return Spsa(params, config["iterations"], games_per_iteration(config), **config["spsa"])


def games_per_iteration(config: dict) -> int:
    return 2 * config["pairs_per_iteration"] * (2 if config["opponent"] else 1)


def new_config(
    start: Player,
    tuned: list[Tuned],
    *,
    opponent: Player | None,
    baseline: Player | None = None,
    iterations: int,
    pairs: int,
    seed: int,
    game: dict,
    c_end: float,
    r_end: float | None,
    confirm_pairs: int,
) -> dict:
    config = {
        "command": "tune",
        "bot": start.spec,
        "start": (baseline or start).spec,  # the start's values all played (`at_its_start`)
        "params": [asdict(t) for t in tuned],
        "players": [START] + ([OPPONENT] if opponent else []),
        "opponent": opponent.spec if opponent else None,
        "iterations": iterations,
        "pairs_per_iteration": pairs,
        "confirm_pairs": confirm_pairs,
        "seed": seed,
        "game": game,
        "spsa": {"c_end": c_end, "r_end": r_end},
    }
    spsa = spsa_of(config)  # the schedule's constants are recorded, so that a resumed run keeps them
    config["spsa"] = {
        "c_end": spsa.c_end,
        "r_end": spsa.r_end,
        "alpha": spsa.alpha,
        "gamma": spsa.gamma,
        "a_ratio": spsa.a_ratio,
    }
    return config


def opponent_player(text: str, game: Game, config: str | None = None) -> Player:
    return replace(players.resolve(text, game, config=config), label=OPPONENT)


def create_run(
    bot: str | None,
    params: str | None,
    opponent: str | None,
    settings: dict,
    game: Game,
    options,
    game_words: list[str] = (),
) -> Store:
    """A new tune's database: `bot`'s parameters `params` (see `parse_params`) tuned against
    `opponent` (None: the two sides against each other); `settings`: DEFAULTS' keys, None where not
    given; `options`: the run's (arena.play.runs.RunOptions); `game_words`: the game options that
    chose `game`, as a command line gives them (the suggested check plays the same game)."""
    if not bot or not params:
        raise UsageError("arena tune BOT --params NAME[,NAME...] (e.g. arena tune mcts --params c,rave_k)")
    given = {key: DEFAULTS[key] if settings.get(key) is None else settings[key] for key in DEFAULTS}
    for key, least in (("iterations", 1), ("pairs_per_iteration", 1), ("confirm_pairs", 0)):
        if given[key] < least:
            raise UsageError(f"--{key.replace('_', '-')} must be at least {least}, not {given[key]}")
    if not 0 < given["c_end"] <= 0.5:
        raise UsageError(f"--c-end is a fraction of each range, in (0, 0.5], not {given['c_end']:g}")
    if given["r_end"] is not None and not 0 < given["r_end"] < float("inf"):
        raise UsageError(f"--r-end must be a finite number above zero, not {given['r_end']:g}")
    if game.seats != 2:
        raise UsageError(
            f"arena tune plays 2-player games; {game.name} seats {game.seats}"
            + (" (--players 2 plays it with two, where the game takes two)" if seats_vary(game) else "")
        )
    start, tuned = parse_params(bot, params, game, options.config)
    baseline = at_its_start(start, tuned, game, options.config)
    rival = opponent_player(opponent, game, options.config) if opponent else None
    seed = options.seed if options.seed is not None else secrets.randbelow(2**31)
    config = new_config(
        start,
        tuned,
        opponent=rival,
        baseline=baseline,
        iterations=given["iterations"],
        pairs=given["pairs_per_iteration"],
        seed=seed,
        game={"name": game.name, **game.config()},
        c_end=given["c_end"],
        r_end=given["r_end"],
        confirm_pairs=given["confirm_pairs"],
    )
    seeds = seeds_for_iterations(options.seeds, given["iterations"], given["pairs_per_iteration"])
    seed_list(options.seeds, given["confirm_pairs"], "--confirm-pairs")
    config["seeds"] = seeds
    config["game_words"] = list(game_words)
    config["replays"] = replays.chosen(options.replays, config["players"])
    # Where its players are declared: each iteration resolves the bot's spec again, with new values.
    config["config_file"] = os.path.abspath(options.config) if options.config else None
    fixed = [baseline] + ([rival] if rival else [])
    with new_store(options.db, config, fixed) as store:
        players.prepare(fixed, game)
        check_travel(game, fixed)
        verdict = seed_verdict(game, [baseline, rival or baseline], checked_seed(seed, seeds), options.allow_unseeded)
        if verdict:
            store.put("config", {**config, **verdict})
    return store


def seeds_for_iterations(path: str | None, iterations: int, pairs: int) -> list[int] | None:
    """The seeds of the seed file at `path` (None without one), refused where the iterations play
    more pairs than it holds (`seed_list` names one option's count, and a tune's is a product)."""
    seeds, _ = seed_list(path, None)
    if seeds is not None and iterations * pairs > len(seeds):
        raise UsageError(
            f"--iterations {iterations} x --pairs-per-iteration {pairs} needs {iterations * pairs} seeds; "
            f"{path} has {len(seeds)}"
        )
    return seeds


def check_resumable(store: Store, bot: str | None, params: str | None, settings: dict) -> None:
    """What the command line says of a tune (`bot`, `params`, `settings` as `create_run` takes them)
    must be what its database holds (the rest is taken from it)."""
    config = store.config
    stored = {
        "bot": config["bot"],
        "opponent": config["opponent"],
        "iterations": config["iterations"],
        "pairs_per_iteration": config["pairs_per_iteration"],
        "confirm_pairs": config["confirm_pairs"],
        "c_end": config["spsa"]["c_end"],
        "r_end": config["spsa"]["r_end"],
        "params": _ranges_text([Tuned(**p) for p in config["params"]]),
    }
    given = dict(settings, bot=bot)
    if params:
        try:
            tuned = parse_params(bot or config["bot"], params, stored_game(config), config.get("config_file"))[1]
        except UsageError:  # (other ranges than its own: `K starts at 6, outside [0, 4]` told not why)
            raise StoreError(f"{store.path} was run with --params {stored['params']}, not {params}") from None
        given["params"] = _ranges_text(tuned)
    for key, value in stored.items():
        if given.get(key) is not None and given[key] != value:
            option = "BOT" if key == "bot" else f"--{key.replace('_', '-')}"
            began = f"with {option} {value:.4g}" if isinstance(value, float) else f"with {option} {value}"
            said = params if key == "params" else given[key]  # (as the user wrote it)
            raise StoreError(f"{store.path} was run {began if value is not None else f'without {option}'}, not {said}")


def _ranges_text(params: list[Tuned]) -> str:
    """Tuned parameters' ranges as --params writes them: an integer's ends as integers (K=0:8), a real
    one's as reals (C=0.0:1.0), which is what tells them apart."""
    return ",".join(
        f"{p.name}={int(p.low)}:{int(p.high)}" if p.integer else f"{p.name}={p.low!r}:{p.high!r}" for p in params
    )


def play_to_end(store: Store, options) -> int:
    """Play what is left of a tune (`options`: the run's, arena.play.runs.RunOptions), then print
    its report; the exit status (130 when interrupted: every finished game stays stored)."""
    tuning = Tuning(store)
    tuning.prepare()
    executor = make_executor(options.backend, max(options.workers, 1), options.ray_address)
    try:
        tuning.play(executor, games_per_task=max(options.games_per_worker, 1), quiet=options.quiet)
    except KeyboardInterrupt:
        print(
            f"\ninterrupted; {len(store.done_keys())} games are stored. Continue with:\n"
            f"  {command_again('tune --resume', store.path, options)}",
            file=sys.stderr,
        )
        return INTERRUPTED
    finally:
        executor.shutdown()
    print(printable(text_report(store.config, store.games(), store.iterations(), store.failures())), flush=True)
    print(f"\nDatabase: {store.path}  (arena report {quoted(store.path)} rebuilds this report)", file=sys.stderr)
    return 0


# ---------------------------------------------------------------- the run


def tuned_values(params, theta: dict) -> dict:
    """The final theta, each value to a thousandth of its range."""
    return {p.name: rounded(theta[p.name], p) for p in params}


def net(game: dict) -> int:
    """What `game` adds to its iteration's net: +1 for a win of plus (or a loss of minus against the
    opponent), -1 for the opposite, 0 for a draw."""
    side = game["lineup"][0]
    sign = 1 if side == PLUS else -1
    return sign * round(2 * versus(game, side, game["lineup"][1]) - 1)


class Tuning:
    """A tune's state, rebuilt from its database: the iterations finished, theta, the games so far."""

    def __init__(self, store: Store):
        self.store, self.config = store, store.config
        self.spsa = spsa_of(self.config)
        self.fixed = {p.label: p for p in store.players()}
        self.start = self.fixed[START]
        self.games = store.games()
        self.done = store.done_keys()
        self.game = stored_game(self.config)
        self.rows = store.iterations()
        self.history = [self.spsa.start()] + [row["after"] for row in self.rows if row["after"] is not None]

    @property
    def theta(self) -> dict:
        return self.history[-1]

    @property
    def total_games(self) -> int:
        return self.config["iterations"] * games_per_iteration(self.config) + 2 * self.config["confirm_pairs"]

    def prepare(self, log=None) -> None:
        """Compile or load the players' kernels when games are left to play (before the pool starts:
        forked workers then have them loaded)."""
        if len(self.games) < self.total_games:
            players.prepare(list(self.fixed.values()), self.game, log)
            self._prepare_the_ends(log or sys.stderr)

    def _prepare_the_ends(self, log) -> None:
        """The bot at each end of each parameter's range, the others at their start, made ready too:
        an iteration clamps a value to its range, and a value may need what the start did not (mcts
        with rave_k 0 searches a tree of another layout, whose kernels numba compiled in the first
        game's turns, each a timeout that decided its iteration). A value that cannot play is left to
        lose its games, as it would in any iteration."""
        start = tuned_values(self.spsa.params, self.spsa.start())
        ends = [
            self._player(f"{p.name}.end", {**start, p.name: rounded(end, p)})
            for p in self.spsa.params
            for end in (p.low, p.high)
        ]
        began = time.perf_counter()
        print("preparing the ends of the parameters' ranges...", end=" ", file=log, flush=True)
        for player in ends:
            with contextlib.suppress(PlayerError):
                players.prepare([player], self.game, io.StringIO())
        print(f"ready in {time.perf_counter() - began:.1f} s", file=log, flush=True)

    def play(self, executor, *, games_per_task: int = 1, quiet: bool = False, log=None) -> None:
        """Play what is left (`prepare` first): the iterations, then the confirmation. A
        KeyboardInterrupt leaves every finished game stored; the run resumes from there. `log`: stderr
        by default, as it is when called (a stream bound when the module was imported may be closed)."""
        log = log or sys.stderr
        config = self.config
        print(
            f"tune {config['bot']} ({', '.join(p['name'] for p in config['params'])}): {self.total_games} games, "
            f"{len(self.games)} already played; database {self.store.path}",
            file=log,
        )
        bar = tqdm(
            total=self.total_games, initial=len(self.games), unit="game", disable=quiet, dynamic_ncols=True, file=log
        )
        bar.set_postfix_str(self.describe(), refresh=False)

        def on_record(record: dict) -> None:
            if record.get("failure"):  # counts for nobody: the iteration's result rests on the others
                self.store.add_failure(record)
                return
            self.store.add_game(record)
            self.games.append(record)
            bar.update(1)

        def play_pairs(pairings, run_seed, pairs, lineup) -> None:
            seeds = config.get("seeds")
            todo = [job for job in jobs(pairings, run_seed, pairs, seeds=seeds) if job.key not in self.done]
            run_jobs(
                todo,
                self.game,
                lineup,
                executor,
                on_record=on_record,
                games_per_task=games_per_task,
                tasks_in_flight=executor.tasks_in_flight,
            )

        try:
            k_pairs = config["pairs_per_iteration"]
            pairings = [(PLUS, OPPONENT), (MINUS, OPPONENT)] if config["opponent"] else [(PLUS, MINUS)]
            for k in range(len(self.history), config["iterations"] + 1):
                plan = self._plan(k)
                lineup = {**self.fixed, PLUS: self._player(PLUS, plan.plus), MINUS: self._player(MINUS, plan.minus)}
                pairs = range((k - 1) * k_pairs, k * k_pairs)
                play_pairs(pairings, config["seed"], pairs, lineup)
                result = sum(net(g) for g in self.games if g["lineup"][0] in (PLUS, MINUS) and g["unit"] in pairs)
                self.history.append(self.spsa.update(self.theta, plan, result))
                self.store.finish_iteration(k, result, self.theta)
                bar.set_postfix_str(self.describe(), refresh=False)
            if config["confirm_pairs"]:
                lineup = {TUNED: self._player(TUNED, self.tuned()), START: self.start}
                play_pairs(
                    [(TUNED, START)], derive_seed(config["seed"], "confirm"), range(config["confirm_pairs"]), lineup
                )
        finally:
            bar.close()

    def _plan(self, k: int) -> Plan:
        """Iteration k as stored (planned before an interruption), or planned now and stored."""
        row = next((r for r in self.rows if r["iteration"] == k), None)
        if row is not None:
            return Plan(k, row["delta"], row["c"], row["plus"], row["minus"])
        plan = self.spsa.plan(self.theta, k, derive_seed(self.config["seed"], "spsa", k))
        self.store.add_iteration(k, theta=self.theta, delta=plan.delta, c=plan.c, plus=plan.plus, minus=plan.minus)
        return plan

    def _player(self, label: str, values: dict) -> Player:
        return players.varied(self.start, values, self.game, label, self.config.get("config_file"))

    def tuned(self) -> dict:
        return tuned_values(self.spsa.params, self.theta)

    def describe(self) -> str:
        """Where the iterations stand: each value now, and its change over the last TREND_SHARE of them."""
        k = len(self.history) - 1
        back = self.history[max(0, k - max(1, round(TREND_SHARE * self.config["iterations"])))]
        values = " ".join(f"{name} {value:.4g} ({value - back[name]:+.2g})" for name, value in self.theta.items())
        # Errors (timeouts above all) score as losses and pull the values towards whatever avoids them.
        errors = sum(bool(e) for g in self.games for e in g["errors"])
        return f"iteration {k}/{self.config['iterations']}: {values} errors {errors}"


# ---------------------------------------------------------------- the report


def text_report(config: dict, games: list[dict], iterations: list[dict], failures: list[dict] = ()) -> str:
    """The run's course, the tuned values and the confirmation, and the games that failed (the
    referee's, the machine's: an iteration's step is made from its other games), from its database
    alone."""
    params = [Tuned(**p) for p in config["params"]]
    finished = [row for row in iterations if row["after"] is not None]
    against = f"each against {config['opponent']}" if config["opponent"] else "plus against minus"
    lines = [
        f"tune {config['bot']}: {len(finished)} of {counted(config['iterations'], 'iteration')} of "
        f"{counted(config['pairs_per_iteration'], 'pair')} ({against}), seed {config['seed']}, "
        f"{counted(len(games), 'game')}"
    ]
    # (iteration 0 is the start, a column of its own: a short tune repeated it as "it 0")
    marks = sorted({max(1, round(share * len(finished))) for share in (0.25, 0.5, 0.75, 1)}) if finished else []
    course = [finished[0]["theta"]] + [row["after"] for row in finished] if finished else []
    rows = []
    for p in params:
        values = [f"{course[m][p.name]:.4g}" for m in marks] if course else ["-"]  # ("now": none yet)
        kind = " integer" if p.integer else ""  # (EPS=0:1 is one, unsaid, and its values looked real)
        rows.append([p.name, f"[{p.low:g}, {p.high:g}]{kind}", f"{p.start:g}", *values])
    lines += [
        "",
        table(
            rows,
            ["parameter", "range", "start", *(f"it {m}" for m in marks)]
            if course
            else ["parameter", "range", "start", "now"],
        ),
    ]
    if len(finished) == config["iterations"]:
        values = tuned_values(params, finished[-1]["after"])
        tuned_spec = spec_with(config["bot"], values, stored_game(config), config.get("config_file"))
        start = config.get("start", config["bot"])
        check = shlex.join(["arena", "sprt", f"tuned={tuned_spec}", start, *config.get("game_words", [])])
        lines += ["", f"tuned: {tuned_spec}   (check it: {check})"]
    confirmation = [g for g in games if g["lineup"][0] == TUNED]
    if confirmation:
        rows, header = lineups_rows(confirmation, config, [(TUNED, START)])
        lines += [
            "",
            f"Confirmation, {counted(config['confirm_pairs'], 'pair')} (Elo of the tuned values against the start):",
            table(rows, header),
        ]
    labels = [PLUS, MINUS] + ([OPPONENT] if config["opponent"] else []) + ([TUNED, START] if confirmation else [])
    rows, header = players_rows(games, labels, labels)
    for row in rows:
        if row[0] in (PLUS, MINUS):
            row[-1] = "(per iteration)"  # each game's version holds the values it played
    lines += ["", "Players (errors score as losses; times in ms after the first turn):", table(rows, header)]
    errors = errors_lines(games, labels)  # (a crash was counted, and why it crashed said nowhere)
    if errors:
        lines += ["", errors]
    if failures:  # (said nowhere: 8 of 20 games failed, and the report showed 12 games and no failure)
        lines += ["", failures_lines(list(failures), games, "each iteration's step made from its other games")]
    return "\n".join(lines)
