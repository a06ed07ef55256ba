"""A replay is data, never code: every field the page or a command reads is checked when a replay
is loaded (one line saying what is wrong), and the page puts the replay's text in as text, so that
even a page made from an unchecked replay runs no script of it (in a real browser)."""

from __future__ import annotations

import json

import pytest

from referee.volcanoes.replay import replay_from_moves, replay_problem
from referee.volcanoes.view import render
from tests.reliability.commands import a_replay, one_line, run

ATTACK = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>'


@pytest.fixture(scope="module")
def replay():
    return a_replay(seed=5)


def test_replays_the_project_writes_are_fit(replay):
    assert replay_problem(replay) is None
    moves = replay["moves"].split()
    rebuilt = replay_from_moves(moves, seed=5, players={"blue": "a", "orange": "b"}, winner="draw", reason="x")
    assert replay_problem(rebuilt) is None


def _changed(replay, change):
    bad = json.loads(json.dumps(replay))
    change(bad)
    return bad


def _set(path, value):
    def change(replay):
        *keys, last = path
        target = replay
        for key in keys:
            target = target[key]
        target[last] = value

    return change


def _analysed(replay, frame_change):
    def change(bad):
        bad["analysis"] = {"engine": "mcts", "frames": [{"value": 0.5} for _ in range(len(bad["turn_log"]) + 1)]}
        frame_change(bad)

    return change


def _growth_frame(replay) -> int:
    return next(i for i, entry in enumerate(replay["turn_log"], 1) if entry["actor"] == "growth")


BAD = {
    "turn as text": (_set(("turn_log", 0, "turn"), ATTACK), "its turn is not a whole number"),
    "turns out of order": (_set(("turn_log", 1, "turn"), 1), "its turn is not a whole number above"),
    "actor": (_set(("turn_log", 0, "actor"), ATTACK), "its actor is not one of"),
    "move": (_set(("turn_log", 0, "move"), "\x1b[2J" + ATTACK), "its move is not a tile name"),
    "stderr": (_set(("turn_log", 0, "stderr"), ["list"]), "are not text"),
    "time": (_set(("turn_log", 0, "time_ms"), "fast"), "its time is not a number"),
    "negative time": (_set(("turn_log", 0, "time_ms"), -1), "its time is not a number"),
    "seed": (_set(("seed",), "\x1b]0;title\x07" + ATTACK), "its seed is not a whole number"),
    "winner": (_set(("winner",), ATTACK), "its winner is not one of"),
    "game": (_set(("game",), "chess"), "it is a replay of 'chess', not of volcanoes"),
    "reason": (_set(("reason",), {"a": 1}), "its reason is not text"),
    "players": (_set(("players",), {"blue": ["x"]}), "its players are not an object of names"),
    "loss on a growth": (
        _analysed(None, lambda bad: bad["analysis"]["frames"][_growth_frame(bad)].update(loss=0.5)),
        "has a loss, but no player moved to it",
    ),
    "best on the last position": (
        _analysed(None, lambda bad: bad["analysis"]["frames"][-1].update(best="N01")),
        "has the engine's move, but no player moves from it",
    ),
}


@pytest.mark.parametrize("name", list(BAD))
def test_a_field_of_the_wrong_type_or_range_is_named(replay, name):
    change, why = BAD[name]
    assert why in replay_problem(_changed(replay, change))


@pytest.mark.parametrize(
    "text,why",
    [
        ('{"turn_log": [], "seed": NaN}', "NaN is not a JSON number"),
        ('{"turn_log": [], "seed": Infinity}', "Infinity is not a JSON number"),
        ('{"turn_log": [], "detail": 1e999}', "beyond a float's range"),
        ('{"turn_log": [], "x": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deep"),
    ],
    ids=["NaN", "Infinity", "1e999", "deep"],
)
@pytest.mark.parametrize("command", ["view", "analyse"])
def test_a_file_that_json_cannot_hold_is_one_line(tmp_path, text, why, command):
    path = tmp_path / "g.json"
    path.write_text(text)
    if command == "view":
        done = run("referee.cli", "volcanoes", "view", str(path))
        one_line(done, "referee volcanoes view", why)
    else:
        done = run("arena.cli", "analyse", str(path), "--quiet")
        one_line(done, "arena analyse", why)
    assert not (tmp_path / "g.html").exists()


@pytest.mark.parametrize("name", ["turn as text", "loss on a growth", "seed"])
def test_view_and_analyse_refuse_a_bad_replay_in_one_line(replay, tmp_path, name):
    path = tmp_path / "g.json"
    path.write_text(json.dumps(_changed(replay, BAD[name][0])))
    one_line(run("referee.cli", "volcanoes", "view", str(path)), "referee volcanoes view", BAD[name][1])
    one_line(run("arena.cli", "analyse", str(path), "--quiet"), "arena analyse", BAD[name][1])
    assert not (tmp_path / "g.html").exists()


def test_a_page_runs_no_script_of_its_replay_even_unchecked(replay, browser, tmp_path):
    # The page is made from the replay as it is (no check on the way), the attack in every field of
    # text; stepping through every turn must run none of it and show it as text.
    from selenium.webdriver.common.by import By

    bad = json.loads(json.dumps(replay))
    for entry in bad["turn_log"]:
        entry["turn"] = f"{entry['turn']} {ATTACK}"
        entry["stderr"] = entry["received"] = ATTACK
    bad["players"] = {"blue": ATTACK, "orange": ATTACK}
    bad["detail"] = bad["reason"] = ATTACK
    page = tmp_path / "page.html"
    page.write_text(render(bad))
    browser.get(page.as_uri())
    assert ATTACK in browser.find_element(By.ID, "players").text
    for _ in bad["turn_log"]:
        browser.find_element(By.ID, "next").click()
    assert browser.execute_script("return window.pwned === undefined")
    assert browser.execute_script("return document.querySelectorAll('img').length") == 0
    assert ATTACK in browser.find_element(By.ID, "turn").text
    assert ATTACK in browser.find_element(By.ID, "result").text
    assert browser.execute_script("return document.querySelectorAll('script').length") == 2
