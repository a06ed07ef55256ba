"""Statistics of N-player games: head-to-head unit scores, the SPRT on them and the ratings' fit, by hand,
against the two-player statistics they extend (number for number), and on games simulated from a
Plackett-Luce model with known strengths."""

import itertools
import math
import random

import numpy as np
import pytest

from arena.stats.estimates import pentanomial_estimate, sprt_state, unit_sprt_state
from arena.stats.ratings import bradley_terry_fit, openskill_ratings
from arena.stats.units import HeadToHead, head_to_head_counts, head_to_head_estimate, head_to_head_sprt


def plackett_luce_ranks(rng, elos, games):
    """Ranks (0 best) of `games` games between players of these Elo ratings, seat by seat: Plackett-Luce
    with strengths 10^(elo / 400), drawn as independent exponential clocks with those rates (the
    first to ring ranks first). i ranks above j with probability 1 / (1 + 10^((elo_j - elo_i) / 400))."""
    clocks = rng.exponential(1.0 / 10.0 ** (np.asarray(elos, dtype=float) / 400.0), size=(games, len(elos)))
    return np.argsort(np.argsort(clocks, axis=1), axis=1)


def rotations(players):
    return [players[r:] + players[:r] for r in range(len(players))]


# ---------------------------------------------------------------- head-to-head units


def test_two_player_units_are_the_pentanomial_number_for_number():
    """Seat-swapped pairs read as units of two games give the pentanomial, its estimate and its SPRT,
    exactly (==, not approximately), with draws, another pairing's games, and a pair left unfinished."""
    rng = random.Random(3)
    old, new = [], []
    for pair in range(300):
        a, b = ("x", "y") if pair % 5 else ("x", "z")
        for swap in (0, 1):
            if pair == 17 and swap:  # its second game failed: the pair does not count
                continue
            winner = rng.choice(["a", "a", "b", None])
            blue, orange = (b, a) if swap else (a, b)
            won = {"a": a, "b": b}.get(winner)
            colour = "draw" if won is None else "blue" if won == blue else "orange"
            old.append({"a": a, "b": b, "pair": pair, "swap": swap, "blue": blue, "orange": orange, "winner": colour})
            ranks = [0, 0] if won is None else [0, 1] if won == blue else [1, 0]
            new.append({"seats": [blue, orange], "ranks": ranks, "unit": pair})
    counts = _pentanomial(old, "x", "y")
    assert head_to_head_counts(new, "x", "y", 2) == counts
    assert sum(counts) == 239 and all(counts)  # 240 pairs of x and y, one unfinished; every class seen
    assert head_to_head_estimate(new, "x", "y", 2) == pentanomial_estimate(counts)
    assert head_to_head_sprt(new, "x", "y", 2, -5, 15) == sprt_state(counts, -5, 15)
    swapped = head_to_head_estimate(new, "y", "x", 2)
    assert swapped.score == pytest.approx(1 - pentanomial_estimate(counts).score)


def _pentanomial(games, a, b):
    """The pentanomial of pairing (a, b) counted the plain way: x's points in each whole pair."""
    points = {}
    for g in games:
        if (g["a"], g["b"]) == (a, b):
            got = 0.5 if g["winner"] == "draw" else float(g[g["winner"]] == a)
            points.setdefault(g["pair"], []).append(got)
    counts = [0] * 5
    for pair in points.values():
        if len(pair) == 2:
            counts[round(2 * sum(pair))] += 1
    return counts


def _unit(key, players, ranks_per_game):
    """A unit's games, seats in rotation; fewer ranks than rotations leave it unfinished."""
    games = zip(rotations(players), ranks_per_game, strict=False)
    return [{"seats": seats, "ranks": ranks, "unit": key} for seats, ranks in games]


def test_three_player_unit_scores_by_hand():
    games = [
        # a against b: above, above, level -> (1 + 1 + 1/2) / 3 = 5/6, k = 5 half-points of 6.
        *_unit(1, ["a", "b", "c"], [[0, 1, 2], [2, 1, 0], [0, 1, 1]]),
        # seats (b, c, a), (c, a, b), (a, b, c): a below, below, above -> 1/3, k = 2.
        *_unit(2, ["b", "c", "a"], [[0, 1, 2], [1, 2, 0], [0, 1, 2]]),
        # b does not sit: no head-to-head. a against d: above, below, below -> k = 2.
        *_unit(3, ["a", "c", "d"], [[0, 1, 2]] * 3),
        # a referee failed one game: the unit does not count.
        *_unit(4, ["a", "b", "c"], [[0, 1, 2], [0, 1, 2]]),
        # a ranked above b in all three: k = 6.
        *_unit([5, 0], ["c", "a", "b"], [[2, 0, 1], [0, 1, 2], [1, 2, 0]]),
    ]
    assert head_to_head_counts(games, "a", "b", 3) == [0, 0, 1, 0, 0, 1, 1]
    # Unit scores 5/6, 1/3, 1: mean 13/18; population variance (25/36 + 1/9 + 1) / 3 - (13/18)^2 = 13/162;
    # standard error sqrt(13/162 / 3) = 0.163551.
    est = head_to_head_estimate(games, "a", "b", 3)
    assert (est.n, est.score, est.stderr) == (3, pytest.approx(13 / 18), pytest.approx(0.163551, rel=1e-5))
    assert head_to_head_estimate(games, "b", "a", 3).score == pytest.approx(5 / 18)
    assert head_to_head_counts(games, "a", "d", 3) == [0, 0, 1, 0, 0, 0, 0]


def test_the_sprt_follows_units_as_they_complete():
    counter = HeadToHead("a", "b", 3)
    unit = _unit(1, ["a", "b", "c"], [[0, 1, 2], [1, 2, 0], [2, 0, 1]])  # a first each time
    assert [counter.add(g) for g in unit] == [False, False, True]
    assert counter.add(_unit(2, ["a", "c", "d"], [[0, 1, 2]])[0]) is False
    assert counter.counts == [0, 0, 0, 0, 0, 0, 1]
    # Ten units all won by a: H1 (the minimum of ten units reached; the empty classes regularized).
    games = [g for key in range(10) for g in _unit(key, ["a", "b", "c"], [[0, 1, 2], [1, 2, 0], [2, 0, 1]])]
    assert head_to_head_sprt(games[:-1], "a", "b", 3, 0, 20).verdict is None  # nine units
    state = head_to_head_sprt(games, "a", "b", 3, 0, 20)
    assert (state.units, state.pairs, state.verdict) == (10, 10, "H1")


@pytest.mark.parametrize(
    "games, message",
    [
        ([*_unit(1, ["a", "b", "c"], [[0, 1, 2]] * 3), _unit(1, ["a", "b", "c"], [[0, 1, 2]])[0]], "more than its 3"),
        (
            [
                {"seats": ["a", "b", "c"], "ranks": [0, 1, 2], "unit": 1},
                {"seats": ["a", "b", "d"], "ranks": [0, 1, 2], "unit": 1},
            ],
            "seats",
        ),
        ([{"seats": ["a", "b", "a"], "ranks": [0, 1, 2], "unit": 1}], "one seat"),
        ([{"seats": ["a", "b", "c"], "ranks": [0, 1], "unit": 1}], "a rank for each"),
    ],
)
def test_malformed_units_are_refused(games, message):
    with pytest.raises(ValueError, match=message):
        head_to_head_counts(games, "a", "b", 3)


def _simulated_sprt(rng, elo_a, elo0, elo1, *, max_units=4000, batch=64):
    """One SPRT of a against b (Elo 0) in three-player games with c (Elo 0), each seed played in its three
    rotations, 2% of games lost to referee failures; the verdict, or None after max_units."""
    elos = {"a": elo_a, "b": 0.0, "c": 0.0}
    orders = rotations(["a", "b", "c"])
    counter = HeadToHead("a", "b", 3)
    for start in range(0, max_units, batch):
        ranks = [plackett_luce_ranks(rng, [elos[p] for p in order], batch) for order in orders]
        failed = rng.random((batch, 3)) < 0.02
        for k in range(batch):
            games = [
                {"seats": order, "ranks": ranks[r][k].tolist(), "unit": start + k}
                for r, order in enumerate(orders)
                if not failed[k, r]
            ]
            if [counter.add(game) for game in games][-1:] == [True]:
                verdict = unit_sprt_state(counter.counts, elo0, elo1).verdict
                if verdict:
                    return verdict
    return None


def test_sprt_error_rates_on_simulated_three_player_games():
    """elo0 0, elo1 40, alpha = beta = 0.05, 400 SPRTs per true difference. At the hypotheses' own
    differences each wrong verdict should come about 5% of the time (the normal approximation with a
    variance estimated from ~130 units runs a little over: about 7% at elo0 in longer simulations);
    well beyond them, almost never."""
    rng = np.random.default_rng(42)
    runs = 400
    verdicts = {elo: [_simulated_sprt(rng, elo, 0, 40) for _ in range(runs)] for elo in (-40, 0, 40, 80)}
    assert None not in itertools.chain(*verdicts.values())
    assert 0.02 * runs <= verdicts[0].count("H1") <= 0.10 * runs  # alpha
    assert 0.02 * runs <= verdicts[40].count("H0") <= 0.10 * runs  # beta
    assert verdicts[80].count("H1") >= 0.99 * runs
    assert verdicts[-40].count("H0") >= 0.99 * runs


# ---------------------------------------------------------------- ratings


def _decomposed(games):
    """Each game's head-to-head results as two-player games: the pairs taken as independent."""
    out = []
    for game in games:
        seats, ranks = game["seats"], game["ranks"]
        for s, t in itertools.combinations(range(len(seats)), 2):
            pair_ranks = [0, 0] if ranks[s] == ranks[t] else [0, 1] if ranks[s] < ranks[t] else [1, 0]
            out.append({"seats": [seats[s], seats[t]], "ranks": pair_ranks})
    return out


def _tournament(rng, elos, seats, units):
    """`units` seeds, each between `seats` players drawn from `elos`, in every rotation of the seats."""
    labels = list(elos)
    games = []
    for unit in range(units):
        players = [labels[i] for i in rng.choice(len(labels), seats, replace=False)]
        for order in rotations(players):
            [ranks] = plackett_luce_ranks(rng, [elos[p] for p in order], 1).tolist()
            games.append({"seats": order, "ranks": ranks, "unit": unit})
    return games


def test_two_player_games_rate_alike_in_both_shapes():
    rng = random.Random(8)
    old = [
        {"blue": b, "orange": o, "winner": rng.choice(["blue", "orange", "draw"])}
        for b, o in [("a", "b"), ("b", "c"), ("c", "a")] * 7
    ]
    ranks = {"blue": [0, 1], "orange": [1, 0], "draw": [0, 0]}
    new = [{"seats": [g["blue"], g["orange"]], "ranks": ranks[g["winner"]]} for g in old]
    before, after = bradley_terry_fit(old, ["a", "b", "c"]), bradley_terry_fit(new, ["a", "b", "c"])
    assert before.ratings == after.ratings and (before.covariance == after.covariance).all()
    assert openskill_ratings(old, ["a", "b", "c"]) == openskill_ratings(new, ["a", "b", "c"])


def test_n_player_ratings_are_the_pairwise_fit_with_errors_clustered_by_game():
    rng = np.random.default_rng(5)
    games = _tournament(rng, {"a": 100, "b": 0, "c": 0, "d": -100}, 3, 30)
    games.append({"seats": ["a", "b", "c", "d"], "ranks": [1, 1, 0, 3]})  # a tie, and four seats
    labels = ["a", "b", "c", "d"]
    fit, independent = bradley_terry_fit(games, labels), bradley_terry_fit(_decomposed(games), labels)
    assert {k: r.elo for k, r in fit.ratings.items()} == {k: r.elo for k, r in independent.ratings.items()}
    # The covariance against the sandwich written out: J = H (the independent fit's information) plus,
    # for each game, the products of two different results' score contributions.
    c = math.log(10) / 400
    r = np.array([fit.ratings[k].elo for k in labels])
    cross = np.zeros((4, 4))
    for game in games:
        seats = [labels.index(s) for s in game["seats"]]
        contributions = []
        for s, t in itertools.combinations(range(len(seats)), 2):
            i, j = seats[s], seats[t]
            y = 0.5 if game["ranks"][s] == game["ranks"][t] else float(game["ranks"][s] < game["ranks"][t])
            u = np.zeros(4)
            u[i], u[j] = 1.0, -1.0
            contributions.append(c * (y - 1 / (1 + math.exp(-c * (r[i] - r[j])))) * u)
        for p, q in itertools.permutations(range(len(contributions)), 2):
            cross += np.outer(contributions[p], contributions[q])
    h_inverse = independent.covariance
    sandwich = h_inverse @ (np.linalg.pinv(h_inverse) + cross) @ h_inverse
    assert fit.covariance == pytest.approx(sandwich, abs=1e-6 * np.abs(sandwich).max())
    # Under Plackett-Luce one player's results in a game go together: a's errors are wider than if independent.
    assert fit.ratings["a"].stderr > 1.1 * independent.ratings["a"].stderr


def test_a_player_who_won_every_n_player_game_has_a_finite_rating():
    games = [g for key in range(6) for g in _unit(key, ["a", "b", "c"], [[0, 1, 2], [1, 2, 0], [2, 0, 1]])]
    fit = bradley_terry_fit(games, ["a", "b", "c"])
    assert fit.ratings["a"].elo > fit.ratings["b"].elo > fit.ratings["c"].elo
    assert all(math.isfinite(r.elo) and 0 < r.stderr < math.inf for r in fit.ratings.values())


@pytest.mark.parametrize("seats, units", [(3, 40), (4, 30)])
def test_n_player_intervals_cover_the_true_differences(seats, units):
    """200 tournaments among six players 60 Elo apart, Plackett-Luce games in rotated units: each of the
    15 rating differences lands in its 95% interval about 95% of the time (3000 intervals). Taking a
    game's results as independent would cover less (about 91% for three seats, 88% for four)."""
    rng = np.random.default_rng(seats)
    elos = dict(zip("abcdef", [-150, -90, -30, 30, 90, 150], strict=True))
    covered = covered_if_independent = total = 0
    for _ in range(200):
        games = _tournament(rng, elos, seats, units)
        fit, independent = bradley_terry_fit(games, list(elos)), bradley_terry_fit(_decomposed(games), list(elos))
        for a, b in itertools.combinations(elos, 2):
            low, high = fit.gap(a, b).interval
            covered += low <= elos[a] - elos[b] <= high
            low, high = independent.gap(a, b).interval
            covered_if_independent += low <= elos[a] - elos[b] <= high
            total += 1
    assert 0.93 <= covered / total <= 0.97
    assert covered_if_independent < covered - 0.02 * total


@pytest.mark.parametrize("seats", [3, 4])
def test_n_player_ratings_recover_the_order(seats):
    rng = np.random.default_rng(10 + seats)
    elos = dict(zip("abcdef", [150, 90, 30, -30, -90, -150], strict=True))
    games = _tournament(rng, elos, seats, 400)
    fit = bradley_terry_fit(games, sorted(elos, reverse=True))
    assert sorted(elos, key=lambda k: -fit.ratings[k].elo) == list(elos)
    assert [r.label for r in openskill_ratings(games, list(elos))] == list(elos)


def test_openskill_takes_the_ranks_of_n_players():
    games = [{"seats": ["a", "b", "c"], "ranks": [0, 1, 2]}, {"seats": ["c", "a", "b"], "ranks": [2, 0, 1]}] * 5
    assert [r.label for r in openskill_ratings(games, ["c", "b", "a"])] == ["a", "b", "c"]
    tied = openskill_ratings([{"seats": ["a", "b", "c", "d"], "ranks": [0, 0, 2, 2]}], list("abcd"))
    mu = {r.label: r.mu for r in tied}
    assert mu["a"] == pytest.approx(mu["b"]) and mu["c"] == pytest.approx(mu["d"]) and mu["a"] > mu["c"]


def test_openskill_rates_a_runs_games_alike_whatever_order_they_finished_in():
    """The same games of a tournament, finished in another order (two workers, a resumed run), gave
    other OpenSkill ratings, once in another order than Elo's."""
    rng = random.Random(4)
    games = [
        {"seats": list(seats), "ranks": rng.choice([[0, 1], [1, 0], [0, 0]]), "lineup": lineup, "unit": unit}
        | {"seating": seating}
        for unit in range(6)
        for lineup in (["a", "b"], ["a", "c"], ["b", "c"])
        for seating, seats in enumerate([lineup, lineup[::-1]])
    ]
    finished = games[:]
    rng.shuffle(finished)
    assert openskill_ratings(finished, list("abc")) == openskill_ratings(games, list("abc"))
