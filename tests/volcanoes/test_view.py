"""The replay page: its geometry and data in Python, and what it shows in a real browser."""

import json
import subprocess
import sys

import pytest

from referee.volcanoes import reference
from referee.volcanoes.board import INDEX, NAMES, NEIGHBOURS
from referee.volcanoes.match import Settings, play_game
from referee.volcanoes.view import frames, render, tile_triangles, winning_chain


class ScriptedSeat:
    def __init__(self, moves):
        self.moves = list(moves)

    def ask(self, lines, timeout):
        return self.moves.pop(0), 0.001

    def take_stderr(self):
        return ""

    def close(self):
        pass


def _chain_eruption_turns(game):
    """Turns of a recorded game whose eruptions set off further eruptions."""
    pos, turns = reference.Position(), []
    original = reference._erupt
    for number, move in enumerate(game["moves"].split(), 1):
        phases = []
        reference._erupt = lambda p, e, phases=phases: phases.append(original(p, e)) or phases[-1]
        try:
            reference.grow(pos) if move == "GROW" else reference.play(pos, INDEX[move])
        finally:
            reference._erupt = original
        if phases and phases[0] >= 2:
            turns.append(number)
    return turns


@pytest.fixture(scope="module")
def chain_game(conformance_games):
    """A recorded game with a chain eruption that ends with a connection, played by the referee."""
    for game in conformance_games:
        if game["winner"] in ("blue", "orange") and _chain_eruption_turns(game):
            moves = {"blue": [], "orange": []}
            for _, mover, _, _, move in game["turns"]:
                moves[mover].append(move)
            result = play_game(ScriptedSeat(moves["blue"]), ScriptedSeat(moves["orange"]), seed=9, settings=Settings())
            replay = result.replay({"blue": "scripted blue", "orange": "scripted orange"})
            return game, replay, _chain_eruption_turns(game)[0]
    pytest.fail("no recorded game with a chain eruption and a win")


def test_map_triangles_that_share_an_edge_are_neighbours():
    edges = {}
    for tile, triangle in enumerate(tile_triangles()):
        for i in range(3):
            edges.setdefault(frozenset([triangle[i], triangle[(i + 1) % 3]]), []).append(tile)
    shared = [tiles for tiles in edges.values() if len(tiles) == 2]
    assert len(shared) == 98  # of the 120 edges, 22 are cut to unfold the board
    assert all(b in NEIGHBOURS[a] for a, b in shared)
    assert max(len(tiles) for tiles in edges.values()) == 2


def test_frames_follow_the_replay(chain_game):
    game, replay, _ = chain_game
    shown = frames(replay)
    assert len(shown) == len(replay["turn_log"]) + 1
    assert (
        shown[-1]["levels"] == [int(x) for x in game["final_levels"].split()]
        if isinstance(game["final_levels"], str)
        else game["final_levels"]
    )
    chain = winning_chain(shown[-1]["levels"])
    owner = 1 if replay["winner"] == "blue" else -1
    assert chain and all(shown[-1]["levels"][t] * owner > 0 for t in chain)


def test_page_is_one_file_with_no_network():
    page = render({"seed": 1, "winner": "draw", "reason": "max-turns", "detail": "</script>", "turn_log": []})
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in page
    assert page.count("</script>") == 2  # the replay's own text cannot end a script early


def _colour(level):
    blue = ["#b9dcff", "#7fbcff", "#3f8ff0", "#1b5fc0"]
    orange = ["#ffd9b0", "#ffb366", "#f07f1b", "#b85500"]
    return blue[level - 1] if level > 0 else orange[-level - 1] if level < 0 else "#4a505c"


def _open_page_of(replay, browser, tmp_path):
    """Write the replay's page with `referee volcanoes view`, as a user does, and open it."""
    page, replay_file = tmp_path / "game.html", tmp_path / "game.json"
    replay_file.write_text(json.dumps(replay))
    subprocess.run(
        [sys.executable, "-m", "referee.cli", "volcanoes", "view", str(replay_file), "-o", str(page)],
        check=True,
        timeout=60,
    )
    browser.get(page.as_uri())


def test_browser_steps_through_a_chain_eruption_to_the_win(browser, chain_game, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    _, replay, eruption_turn = chain_game
    _open_page_of(replay, browser, tmp_path)
    body = browser.find_element(By.TAG_NAME, "body")
    shown = frames(replay)
    last_turn = shown[-1]["turn"]
    assert browser.find_element(By.ID, "counter").text == f"turn 0 / {last_turn}"

    fills_script = "return Array.from(document.querySelectorAll('#board polygon')).map(p => p.getAttribute('fill'))"
    for index in range(1, len(shown)):  # every turn, with the arrow key, against the recorded state
        body.send_keys(Keys.ARROW_RIGHT)
        frame = shown[index]
        assert browser.find_element(By.ID, "counter").text == f"turn {frame['turn']} / {last_turn}"
        assert browser.execute_script(fills_script) == [_colour(level) for level in frame["levels"]]
        dormant = browser.execute_script("return Array.from(document.querySelectorAll('#board text.dormant')).length")
        assert dormant == len(frame["dormant"])
        if index == eruption_turn:
            erupted = browser.find_element(By.ID, "eruptions").text.split()
            assert len(erupted) >= 2 and erupted == frame["erupted"]

    browser.find_element(By.ID, "last").click()
    assert browser.find_element(By.ID, "counter").text == f"turn {last_turn} / {last_turn}"
    chain = browser.execute_script(
        "return Array.from(document.querySelectorAll('#board polygon.chain')).map(p => p.dataset.tile)"
    )
    expected_chain = [NAMES[t] for t in winning_chain(shown[-1]["levels"])]
    assert chain and sorted(chain) == sorted(expected_chain)
    assert replay["winner"] in browser.find_element(By.ID, "result").text
    browser.find_element(By.ID, "first").click()
    assert browser.find_element(By.ID, "counter").text == f"turn 0 / {last_turn}"
    browser.save_screenshot(str(tmp_path / "start.png"))


PAYLOAD = "<!--<script>x</script> & \u2028\u2029 <!--<script>"  # no "-->": the comment would swallow the code


def _hostile_replay(replay):
    """The replay with the attack in every place a bot or a user writes: stderr, labels, detail."""
    replay = json.loads(json.dumps(replay))
    for entry in replay["turn_log"]:
        entry["stderr"] = PAYLOAD
    replay["players"] = {"blue": PAYLOAD, "orange": "</script>" + PAYLOAD}
    replay["detail"] = PAYLOAD
    return replay


def test_data_in_the_page_holds_no_markup_and_reads_back_unchanged(chain_game):
    replay = _hostile_replay(chain_game[1])
    page = render(replay)
    start = page.index('<script id="replay-data" type="application/json">') + len(
        '<script id="replay-data" type="application/json">'
    )
    payload = page[start : page.index("</script>", start)]
    assert not set(payload) & set("<>&\u2028\u2029")
    assert json.loads(payload)["players"] == replay["players"]
    assert json.loads(payload)["frames"][1]["stderr"] == PAYLOAD


def test_browser_steps_through_a_replay_whose_stderr_holds_a_script_comment(browser, chain_game, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    replay = _hostile_replay(chain_game[1])
    _open_page_of(replay, browser, tmp_path)
    last_turn = frames(replay)[-1]["turn"]
    assert browser.find_element(By.ID, "counter").text == f"turn 0 / {last_turn}"
    assert PAYLOAD.split("\u2028")[0] in browser.find_element(By.ID, "players").text
    body = browser.find_element(By.TAG_NAME, "body")
    for turn in (1, 2, 3):
        body.send_keys(Keys.ARROW_RIGHT)
        assert browser.find_element(By.ID, "counter").text == f"turn {turn} / {last_turn}"
        shown = browser.execute_script("return document.getElementById('stderr').textContent")
        assert shown == PAYLOAD
    browser.find_element(By.ID, "last").click()
    assert browser.find_element(By.ID, "counter").text == f"turn {last_turn} / {last_turn}"
    assert browser.execute_script("return document.querySelectorAll('script').length") == 2


def test_the_title_says_who_won_not_who_erred():
    """The title "orange (crash)" read as orange's crash, where blue had crashed and orange won."""
    page = render({"seed": 4, "winner": "orange", "reason": "crash", "detail": "blue exited", "turn_log": []})
    assert "<title>Volcanoes, seed 4: orange wins (crash)</title>" in page
    page = render({"seed": 4, "winner": "draw", "reason": "max-turns", "detail": "", "turn_log": []})
    assert "<title>Volcanoes, seed 4: a draw (max-turns)</title>" in page
