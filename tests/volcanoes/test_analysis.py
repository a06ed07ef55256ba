"""Game analysis: the positions searched, what the replay gains, the mistakes, the engine's answers,
`arena analyse` end to end, and the value curve of the page in a real browser."""

import json
import subprocess
import sys

import pytest

from referee.volcanoes import analysis, rules
from referee.volcanoes.board import INDEX, NAMES
from referee.volcanoes.replay import replay_problem
from referee.volcanoes.view import frames


@pytest.fixture(scope="module")
def game(conformance_games, recorded_replay):
    """A recorded game of 40 turns or more that blue won by a connection, as a replay."""
    recorded = min(
        (g for g in conformance_games if g["winner"] == "blue" and len(g["moves"].split()) >= 40),
        key=lambda g: len(g["moves"].split()),
    )
    return recorded_replay(recorded, {"blue": "b", "orange": "o"})


def test_positions_are_the_frames_before_each_players_turn(game):
    found = analysis.positions(game)
    shown = frames(game)
    assert [p.frame for p in found] == [i for i in range(len(shown) - 1) if shown[i + 1]["actor"] != "growth"]
    for p in found:
        assert p.levels == shown[p.frame]["levels"] and p.turns_played == p.frame
        assert [NAMES[t] for t in p.dormant] == shown[p.frame]["dormant"]


def _fake_answers(game, values):
    """An engine's answers if `values(frame)` were exact: the position's value, and the same after
    its move (tile `frame % 80`)."""
    return {p.frame: (p.frame % 80, values(p.frame), values(p.frame)) for p in analysis.positions(game)}


def test_annotate_values_best_moves_and_losses(game):
    found = {p.frame for p in analysis.positions(game)}
    out = analysis.annotate(game, _fake_answers(game, lambda f: 0.5), "mcts", 100)
    shown = out["analysis"]["frames"]
    assert out["analysis"]["engine"] == "mcts" and len(shown) == len(game["turn_log"]) + 1
    assert shown[-1]["value"] == 1.0  # blue won: the end is certain
    for frame, entry in reversed(list(enumerate(shown[:-1]))):
        searched = frame in found  # else a growth turn follows: the value after it
        assert entry["value"] == (0.5 if searched else shown[frame + 1]["value"])
        assert entry.get("best") == (NAMES[frame % 80] if searched else None)
    for frame, entry in enumerate(shown):
        actor = frames(game)[frame]["actor"]
        if actor in ("blue", "orange"):
            gained = entry["value"] - shown[frame - 1]["value"]
            assert entry["loss"] == pytest.approx(-gained if actor == "blue" else gained)
        else:
            assert "loss" not in entry
    assert replay_problem(out) is None


def _blue_turns(game):
    """The searched frames right after blue's moves (past the first few)."""
    searched = {p.frame for p in analysis.positions(game)}
    return [i + 1 for i, e in enumerate(game["turn_log"]) if e["actor"] == "blue" and i > 3 and i + 1 in searched]


def test_a_blue_mistake_loses_blue_value(game):
    after = _blue_turns(game)[0]
    answers = _fake_answers(game, lambda f: 0.8 if f < after else 0.3)
    out = analysis.annotate(game, answers, "mcts", 100)
    assert out["analysis"]["frames"][after]["loss"] == pytest.approx(0.5)
    [m] = [m for m in analysis.mistakes(out) if m.player == "blue"]
    assert (m.frame, m.before, m.loss) == (after, pytest.approx(0.8), pytest.approx(0.5))
    assert m.played == game["turn_log"][after - 1]["move"] and m.best == NAMES[(after - 1) % 80]
    assert not [m for m in analysis.mistakes(out) if m.player == "orange"]  # orange gained


def test_only_the_largest_mistakes_of_a_side_are_marked(game):
    falls = _blue_turns(game)[:5]  # blue loses 0.15, 0.16, ... at each

    def value(frame):
        return 0.95 - sum(0.15 + 0.01 * k for k, after in enumerate(falls) if frame >= after)

    out = analysis.annotate(game, _fake_answers(game, value), "mcts", 100)
    marked = [m.frame for m in analysis.mistakes(out) if m.player == "blue"]
    assert marked == falls[-analysis.MISTAKES_SHOWN :]
    assert len([m for m in analysis.mistakes(out, per_side=None) if m.player == "blue"]) == 5


def test_a_loss_compares_the_position_after_the_engines_move_with_the_one_after_the_move_played(game):
    # A search leans to the player to move: blue's value reads 0.7 where blue moves next, 0.5 where
    # orange does, 0.6 in truth. Comparing two positions with different players to move would see
    # losses of 0.2 everywhere; the position after the engine's move has the same side to move as
    # the one after the move played, so the lean cancels.
    def lean(turn):  # of a position before turn `turn` (a growth turn: the turn after it)
        turn += int(rules.actor(turn)) == rules.GROWTH
        return 0.1 if int(rules.actor(turn)) == rules.BLUE else -0.1

    found = analysis.positions(game)
    answers = {p.frame: (p.frame % 80, 0.6 + lean(p.turns_played + 1), 0.6 + lean(p.turns_played + 2)) for p in found}
    out = analysis.annotate(game, answers, "mcts", 100)
    frames_ = out["analysis"]["frames"]
    losses = [f["loss"] for f in frames_[1:-1] if "loss" in f]
    assert losses and all(loss == pytest.approx(0.0, abs=1e-9) for loss in losses)
    assert analysis.mistakes(out) == []


def test_after_a_move_comes_the_growth_that_follows_or_the_games_end(game, shortest_path):
    first = analysis.positions(game)[1]  # orange to move on turn 2; growth follows
    tile = INDEX[game["turn_log"][1]["move"]]
    following = analysis.after(first, tile)
    assert following.turns_played == 3 and following.levels == frames(game)[3]["levels"]
    path = shortest_path(0, 40)  # blue joins N01 to its antipode by one placement
    levels = [0] * 80
    for t in path[1:]:
        levels[t] = 1
    assert analysis.after(analysis.Position(0, levels, [], 0), path[0]) == 1.0


@pytest.mark.parametrize(
    "bad, why",
    [
        ({"frames": []}, "one entry for each"),
        ("nonsense", "one entry for each"),
        ({"frames": "x"}, "one entry for each"),
    ],
)
def test_a_malformed_analysis_is_refused(game, bad, why):
    assert why in replay_problem({**game, "analysis": bad})


def test_a_value_out_of_range_or_an_unknown_tile_is_refused(game):
    good = analysis.annotate(game, _fake_answers(game, lambda f: 0.5), "mcts", 100)
    for change in ({"value": 1.5}, {"value": float("nan")}, {"best": "X99"}, {"loss": "much"}):
        bad = json.loads(json.dumps(good))
        bad["analysis"]["frames"][2].update(change)
        assert "position 2 of its analysis" in replay_problem(bad)


def test_engine_sees_a_win_in_one_and_answers_alike_each_time(shortest_path):
    from bots.volcanoes.mcts import MctsBot
    from bots.volcanoes.state import GameState

    bot = MctsBot(seed=0)
    bot.warm_up()
    levels, dormant = rules.new_state()
    first = bot.evaluate(GameState(levels, dormant, 0), 500)
    assert first == bot.evaluate(GameState(levels, dormant, 0), 500)  # reseeded: the same answer
    assert 0.0 <= first[1] <= 1.0 and rules.is_legal(levels, dormant, rules.BLUE, first[0])
    path = shortest_path(0, 40)  # blue holds a path from N01 to its antipode S01 but for one tile
    gap = path[len(path) // 2]
    for tile in path:
        levels[tile] = 1 if tile != gap else 0
    assert bot.evaluate(GameState(levels, dormant, 0), 500) == (gap, 1.0)


def test_analyser_in_parallel_gives_what_one_process_gives(game):
    from bots.volcanoes.analyse import Analyser

    short = {**game, "turn_log": game["turn_log"][:8]}  # the first turns: quick to search
    with Analyser("mcts", 300, workers=1) as one:
        alone = one.analyse(short)
    seen = []
    with Analyser("mcts", 300, workers=2) as two:
        pooled = two.analyse(short, lambda done, total: seen.append((done, total)))
    assert pooled["analysis"] == alone["analysis"]
    shown = pooled["analysis"]["frames"]
    for frame in range(1, len(shown)):  # where the engine's move was played, nothing is lost
        if short["turn_log"][frame - 1].get("move") == shown[frame - 1].get("best") and "loss" in shown[frame]:
            assert shown[frame]["loss"] == 0.0
    total = len(analysis.positions(short))
    assert seen == [(i, total) for i in range(1, total + 1)]


def test_arena_analyse_refuses_a_bot_that_cannot_search(tmp_path, game):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game))
    run = subprocess.run(
        [sys.executable, "-m", "arena.cli", "analyse", str(path), "--engine", "greedy"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2 and "cannot analyse" in run.stderr and "Traceback" not in run.stderr
    assert "analysis" not in json.loads(path.read_text())


def test_browser_value_curve_goes_to_a_turn_and_shows_the_preferred_move(browser, game, tmp_path):
    from selenium.webdriver.common.by import By

    path = tmp_path / "game.json"
    path.write_text(json.dumps(game))
    run = subprocess.run(
        [sys.executable, "-m", "arena.cli", "analyse", str(path), "--iterations", "400", "--workers", "1", "--quiet"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    analysed = json.loads(path.read_text())
    values = [f["value"] for f in analysed["analysis"]["frames"]]
    browser.get(path.with_suffix(".html").as_uri())

    shown = browser.execute_script(
        "return Array.from(document.querySelectorAll('#curve circle.point')).map(c => Number(c.dataset.value))"
    )
    assert shown == values  # the curve is the analysis, one point a position
    assert browser.find_element(By.ID, "curve-line").get_attribute("points").count(",") == len(values)

    shown_frames = frames(analysed)
    target = max(i for i, f in enumerate(analysed["analysis"]["frames"]) if f.get("best") and i > 2)
    browser.find_element(By.CSS_SELECTOR, f'#curve circle.point[data-frame="{target}"]').click()
    last_turn = shown_frames[-1]["turn"]
    assert browser.find_element(By.ID, "counter").text == f"turn {shown_frames[target]['turn']} / {last_turn}"
    levels = browser.execute_script(
        "return Array.from(document.querySelectorAll('#board polygon')).map(p => Number(p.dataset.level))"
    )
    assert levels == shown_frames[target]["levels"]
    best = analysed["analysis"]["frames"][target]["best"]
    marked = browser.execute_script(
        "return Array.from(document.querySelectorAll('#board polygon.best')).map(p => p.dataset.tile)"
    )
    assert marked == [best]
    assert browser.find_element(By.ID, "best-marker").get_attribute("data-tile") == best
    assert best in browser.find_element(By.ID, "engine").text

    for m in analysis.mistakes(analysed):  # each is marked, and its button shows the position it was made in
        assert browser.find_element(By.CSS_SELECTOR, f'#curve circle.mistake[data-frame="{m.frame}"]')
        browser.find_element(By.CSS_SELECTOR, f'#mistakes button[data-frame="{m.frame}"]').click()
        before = shown_frames[m.frame - 1]["turn"]
        assert browser.find_element(By.ID, "counter").text == f"turn {before} / {last_turn}"
        assert browser.find_element(By.ID, "best-marker").get_attribute("data-tile") == m.best
        assert f"played {m.played} and lost" in browser.find_element(By.ID, "engine").text

    hidden = "return getComputedStyle(document.querySelector('#board text.name')).display"
    assert browser.execute_script(hidden) == "none"
    browser.find_element(By.ID, "names").click()
    assert browser.execute_script(hidden) != "none"
    browser.save_screenshot(str(tmp_path / "analysed.png"))


def test_view_draws_an_analysed_replay_and_refuses_a_broken_analysis(game, tmp_path):
    good = analysis.annotate(game, _fake_answers(game, lambda f: 0.5), "mcts", 100)
    bad = json.loads(json.dumps(good))
    bad["analysis"]["frames"][1]["value"] = 7
    for name, replay in (("good", good), ("bad", bad)):
        (tmp_path / f"{name}.json").write_text(json.dumps(replay))
    view = [sys.executable, "-m", "referee.cli", "volcanoes", "view"]
    ok = subprocess.run(view + [str(tmp_path / "good.json")], capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0 and '"analysis":{"engine":"mcts"' in (tmp_path / "good.html").read_text()
    refused = subprocess.run(view + [str(tmp_path / "bad.json")], capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert "position 1 of its analysis" in refused.stderr
