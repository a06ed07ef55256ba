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

import sys
from dataclasses import asdict, replace

from tqdm import tqdm

from bots.volcanoes.registry import PARAMETERS

from arena.errors import UsageError
from arena.play.players import Player, fixed_budget_notes, prepare, resolve, target_options
from arena.stats.tables import pairings_rows, players_rows, points, table
from arena.play.run import run_jobs
from arena.play.schedule import derive_seed, jobs
from arena.stats.spsa import C_END, Plan, Spsa, Tuned, rounded
from arena.play.store import Store

PLUS, MINUS, OPPONENT = "plus", "minus", "opponent"  # the labels of an iteration's games
TUNED, START = "tuned", "start"  # the labels of the confirmation's games
DEFAULTS = {"iterations": 200, "pairs_per_iteration": 4, "c_end": C_END, "r_end": None, "confirm_pairs": 50}
TREND_SHARE = 0.1  # the progress line shows each value's change over this share of the iterations


# ---------------------------------------------------------------- what to tune


def parse_params(bot: str, text: str) -> tuple[Player, list[Tuned]]:
    """The start player (`mcts`, or `mcts:c=0.3` to start elsewhere than the defaults) and the tuned
    parameters: `c,rave_k` over their declared ranges, `rave_k=500:20000` over a narrower one."""
    start = resolve(f"{START}={bot}")
    name = bot.partition(":")[0]
    declared = {p.name: p for p in PARAMETERS.get(name, ())} if start.kind == "bot" else {}
    if not declared:
        raise UsageError(f"arena tune takes a registered bot with parameters (see `arena bots`), not {bot!r}")
    values = target_options(start.target)
    tuned = []
    for item in text.split(","):
        key, sep, span = (part.strip() for part in item.partition("="))
        if key not in declared:
            raise UsageError(f"--params: {name} has no parameter {key!r} (its parameters: {', '.join(declared)})")
        if key in (t.name for t in tuned):
            raise UsageError(f"--params: {key} is given twice")
        p = declared[key]
        low, high = p.low, p.high
        if sep:
            low_text, colon, high_text = span.partition(":")
            try:
                low, high = p.parse(low_text), p.parse(high_text)
            except ValueError as exc:
                raise UsageError(f"--params: {exc}") from None
            if not colon or not low < high:
                raise UsageError(f"--params: {item!r}: give a range NAME=LOW:HIGH with LOW < HIGH")
        begin = values.get(key, p.default)
        if not low <= begin <= high:
            raise UsageError(
                f"--params: {key} starts at {begin:g}, outside [{low:g}, {high:g}]: "
                f"give a start inside it ({name}:{key}=VALUE)"
            )
        tuned.append(Tuned(key, low, high, begin, p.type is int))
    return start, tuned


def spec_with(bot: str, values: dict) -> str:
    """The spec `bot` (`mcts`, `mcts:c=0.3,ms=1000`) with `values` for its tuned parameters, its
    other options kept."""
    name, _, written = bot.partition(":")
    options = {
        key.strip(): value.strip() for key, _, value in (item.partition("=") for item in written.split(",") if item)
    }
    options.update({key: repr(value) for key, value in values.items()})
    return f"{name}:{','.join(f'{key}={options[key]}' for key in sorted(options))}"


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
    iterations: int,
    pairs: int,
    seed: int,
    settings: dict,
    c_end: float,
    r_end: float | None,
    confirm_pairs: int,
) -> dict:
    config = {
        "command": "tune",
        "bot": start.spec,
        "params": [asdict(t) for t in tuned],
        "players": [START] + ([OPPONENT] if opponent else []),
        "opponent": opponent.spec if opponent else None,
        "iterations": iterations,
        "pairs_per_iteration": pairs,
        "confirm_pairs": confirm_pairs,
        "seed": seed,
        "settings": settings,
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


def opponent_player(text: str) -> Player:
    return replace(resolve(text), label=OPPONENT)


# ---------------------------------------------------------------- the run


def tuned_values(params, theta: dict) -> dict:
    """The final theta, each value to a thousandth of its range."""
    return {p.name: rounded(theta[p.name], p) for p in params}


def net(game: dict) -> int:
    """What `game` adds to its iteration's net: +1 for a win of plus (or a loss of minus against the
    opponent), -1 for the opposite, 0 for a draw."""
    sign = 1 if game["a"] == PLUS else -1
    return sign * round(2 * points(game, game["a"]) - 1)


class Tuning:
    """A tune's state, rebuilt from its database: the iterations finished, theta, the games so far."""

    def __init__(self, store: Store):
        self.store, self.config = store, store.config
        self.spsa = spsa_of(self.config)
        self.fixed = {p.label: p for p in store.players()}
        self.start = self.fixed[START]
        self.games = store.games()
        self.done = {(g["a"], g["b"], g["pair"], g["swap"]) for g in self.games}
        self.rows = store.iterations()
        self.history = [self.spsa.start()] + [row["after"] for row in self.rows if row["after"] is not None]

    @property
    def theta(self) -> dict:
        return self.history[-1]

    @property
    def total_games(self) -> int:
        return self.config["iterations"] * games_per_iteration(self.config) + 2 * self.config["confirm_pairs"]

    def play(self, executor, *, games_per_task: int = 1, quiet: bool = False, log=sys.stderr) -> None:
        """Play what is left: the iterations, then the confirmation. A KeyboardInterrupt leaves every
        finished game stored; the run resumes from there."""
        config = self.config
        if len(self.games) < self.total_games:
            prepare(list(self.fixed.values()), log)
            for note in fixed_budget_notes(self.fixed.values(), _settings(config)):
                print(note, file=log)
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
            self.store.add_game(record)
            self.games.append(record)
            bar.update(1)

        def play_pairs(pairings, run_seed, pairs, players) -> None:
            todo = [job for job in jobs(pairings, run_seed, pairs) if job.key not in self.done]
            run_jobs(
                todo,
                players,
                _settings(config),
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
                players = {**self.fixed, PLUS: self._player(PLUS, plan.plus), MINUS: self._player(MINUS, plan.minus)}
                pairs = range((k - 1) * k_pairs, k * k_pairs)
                play_pairs(pairings, config["seed"], pairs, players)
                result = sum(net(g) for g in self.games if g["a"] in (PLUS, MINUS) and g["pair"] in pairs)
                self.history.append(self.spsa.update(self.theta, plan, result))
                self.store.finish_iteration(k, result, self.theta)
                bar.set_postfix_str(self.describe(), refresh=False)
            if config["confirm_pairs"]:
                players = {TUNED: self._player(TUNED, self.tuned()), START: self.start}
                play_pairs(
                    [(TUNED, START)], derive_seed(config["seed"], "confirm"), range(config["confirm_pairs"]), players
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
        return resolve(f"{label}={spec_with(self.config['bot'], values)}")

    def tuned(self) -> dict:
        return tuned_values(self.spsa.params, self.theta)

    def describe(self) -> str:
        """Where the iterations stand: each value now, and its change over the last TREND_SHARE of them."""
        k = len(self.history) - 1
        back = self.history[max(0, k - max(1, round(TREND_SHARE * self.config["iterations"])))]
        values = " ".join(f"{name} {value:.4g} ({value - back[name]:+.2g})" for name, value in self.theta.items())
        # Errors (timeouts above all) score as losses and pull the values towards whatever avoids them.
        errors = sum(bool(g["blue_error"]) + bool(g["orange_error"]) for g in self.games)
        return f"iteration {k}/{self.config['iterations']}: {values} errors {errors}"


def _settings(config: dict):
    from referee.volcanoes.match import Settings

    return Settings(**config["settings"])


# ---------------------------------------------------------------- the report


def text_report(config: dict, games: list[dict], iterations: list[dict]) -> str:
    """The run's course, the tuned values and the confirmation, from its database alone."""
    params = [Tuned(**p) for p in config["params"]]
    finished = [row for row in iterations if row["after"] is not None]
    against = f"each against {config['opponent']}" if config["opponent"] else "plus against minus"
    lines = [
        f"tune {config['bot']}: {len(finished)} of {config['iterations']} iterations of "
        f"{config['pairs_per_iteration']} pairs ({against}), seed {config['seed']}, {len(games)} games"
    ]
    marks = sorted({round(share * len(finished)) for share in (0.25, 0.5, 0.75, 1)})
    course = [finished[0]["theta"]] + [row["after"] for row in finished] if finished else []
    rows = []
    for p in params:
        values = [f"{course[m][p.name]:.4g}" for m in marks] if course else ["-"]
        rows.append([p.name, f"[{p.low:g}, {p.high:g}]", f"{p.start:g}", *values])
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
        tuned_spec = spec_with(config["bot"], tuned_values(params, finished[-1]["after"]))
        lines += ["", f"tuned: {tuned_spec}   (check it: arena sprt tuned={tuned_spec} {config['bot']})"]
    confirmation = [g for g in games if g["a"] == TUNED]
    if confirmation:
        rows, header = pairings_rows(confirmation, [(TUNED, START)])
        lines += [
            "",
            f"Confirmation, {config['confirm_pairs']} pairs (Elo of the tuned values against the start):",
            table(rows, header),
        ]
    labels = [PLUS, MINUS] + ([OPPONENT] if config["opponent"] else []) + ([TUNED, START] if confirmation else [])
    rows, header = players_rows(games, labels, labels)
    for row in rows:
        if row[0] in (PLUS, MINUS):
            row[-1] = "(per iteration)"  # each game's version holds the values it played
    lines += ["", "Players (errors score as losses; times in ms after the first turn):", table(rows, header)]
    return "\n".join(lines)
