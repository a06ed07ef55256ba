"""`arena report DB -o report.html`: the page of a 4-bot tournament shows what the text report says."""

import re
import subprocess
import sys

import pytest

from arena.stats.tables import errors_lines
from arena.web import record_page
from arena.web.serve import RunView

ICON = '<link rel="icon" href="data:,">'  # no request at all, not even the browser's for /favicon.ico


@pytest.fixture(scope="module")
def tournament(tmp_path_factory):
    """A small 4-bot tournament, its text report and its page."""
    folder = tmp_path_factory.mktemp("report")
    db, page = folder / "t.sqlite", folder / "report.html"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "arena.cli",
            "tournament",
            "random",
            "boss",
            "greedy",
            "twin=random",
            "--pairs",
            "2",
            "--seed",
            "5",
            "--db",
            str(db),
            "--quiet",
            "--workers",
            "2",
        ],
        check=True,
        capture_output=True,
        timeout=600,
    )
    out = subprocess.run(
        [sys.executable, "-m", "arena.cli", "report", str(db), "-o", str(page)],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return out.stdout, page


def _text_table(report: str, heading: str) -> list[list[str]]:
    """The body rows of the text table under `heading`, cells split on runs of 2+ spaces."""
    lines = report.split(heading, 1)[1].splitlines()[1:]
    rows = []
    for line in lines[2:]:  # header and rule
        if not line.strip():
            break
        rows.append(re.split(r"\s{2,}", line.strip()))
    return rows


def _page_table(browser, table_id):
    return browser.execute_script(
        f"return Array.from(document.querySelectorAll('#{table_id} tbody tr'))"
        ".map(tr => Array.from(tr.cells).map(td => td.textContent))"
    )


def test_report_page_matches_the_text_report(tournament, browser):
    from selenium.webdriver.common.by import By

    text, page = tournament
    browser.get(page.as_uri())
    ratings = _page_table(browser, "ratings")
    assert ratings == _text_table(text, "Ratings, ")
    players = _page_table(browser, "players")
    assert players == _text_table(text, "Players (")
    assert len(players) == 4 and {row[0] for row in players} == {"random", "boss", "greedy", "twin"}
    # The cross-table's empty diagonal vanishes when the text is split; compare the filled cells.
    cross = [[cell for cell in row if cell] for row in _page_table(browser, "cross")]
    assert cross == _text_table(text, "Cross-table:")
    assert browser.find_elements(By.CSS_SELECTOR, "#rating-chart polyline")  # the progress chart
    # Its legend: a key for each line, in the line's colour, beside the line's name.
    lines = browser.execute_script(
        "return Array.from(document.querySelectorAll('#rating-chart polyline'))"
        ".map(p => [p.dataset.series, p.getAttribute('stroke')])"
    )
    keys = browser.execute_script(
        "return Array.from(document.querySelectorAll('#rating-chart .legend-key'))"
        ".map(g => [g.textContent, g.querySelector('line').getAttribute('stroke')])"
    )
    assert keys == lines and len(keys) == 4

    games = _page_table(browser, "games")
    assert len(games) == 4 * 3 // 2 * 2 * 2  # 6 pairings, 2 pairs each, 2 games a pair
    browser.find_element(By.CSS_SELECTOR, "#games a").click()
    counter = browser.find_element(By.ID, "counter").text
    assert counter == f"turn 0 / {games[0][6]}"


def test_page_and_replays_need_no_network(tournament):
    """Nor a request for /favicon.ico, which a page served by `arena serve` answered 404 (an error in
    the browser's console): each page has an icon of its own, empty."""
    _, page = tournament
    text = page.read_text()
    assert "https://" not in text and "<script src" not in text
    assert re.findall(r"<link[^>]*>", text) == [ICON]
    replays = list(page.with_name("report_games").glob("game-*.html"))
    assert len(replays) == 2 * 24  # each game's page and its record's
    assert all(re.findall(r"<link[^>]*>", replay.read_text()) == [ICON] for replay in replays)


def test_a_volcanoes_game_s_page_links_its_record_and_the_report(tournament, tmp_path):
    """A Volcanoes game's page (the game's own) had no link back to the report nor to its record,
    where a viewer's page has both; nor had the page `arena replay` writes of it."""
    _, page = tournament
    folder = page.with_name("report_games")
    links = re.findall(
        r'<nav[^>]*><a href="([^"]+)"[^>]*>the game\'s record</a> <a href="([^"]+)"',
        (folder / "game-3.html").read_text(),
    )
    assert links == [("game-3.record.html", "../report.html")]
    assert (folder / "game-3.record.html").read_text().count("<h1>game 3: ") == 1
    out = tmp_path / "replay"
    subprocess.run(
        [sys.executable, "-m", "arena.cli", "replay", str(page.with_name("t.sqlite")), "3", "-o", str(out)],
        check=True,
        capture_output=True,
        timeout=60,
    )
    assert '<a href="record.html"' in (out / "index.html").read_text() and (out / "record.html").is_file()
    served = RunView(page.with_name("t.sqlite")).game_page(3, "/game/0/3")  # (arena serve's, the same)
    assert '<a href="/game/0/3/record"' in served and '<a href="/"' in served


def test_a_game_s_record_numbers_seats_from_1_as_the_games_tables_do():
    """The record page listed seats 0..3 beside the report's and the live page's seat 1..seat 4, and
    gave the referee runner's "player 2 crashed" (counted from 0) with no word of it."""
    record = {
        "id": 8,
        "seats": ["greedy", "first", "worst", "hostile"],
        "ranks": [1, 1, 1, 3],
        "errors": [None, None, None, "crash"],
        "seed": 5,
        "unit": 0,
        "seating": 3,
        "reason": "crash",
        "turns": 9,
        "detail": "player 3 crashed on its turn 3: exited with code 3",
        "data": {"stderr": [[], [], [], ["", "", "boom"]]},
    }
    page = record_page.render(record, {"game": {"name": "pebbles"}})
    rows = re.findall(r"<tr><td>(\d+)</td><td>(\w+)</td>", page)
    assert rows == [("1", "greedy"), ("2", "first"), ("3", "worst"), ("4", "hostile")]
    assert "<h3>hostile (seat 4)</h3>" in page
    assert "player 3 crashed on its turn 3: exited with code 3 (players counted from 0, player 0 in seat 1)" in page
    said = errors_lines([{**record, "versions": ["v"] * 4}], record["seats"])
    assert "players counted from 0, player 0 in seat 1" in said.splitlines()[0]  # the text report says it too
    volcanoes = {**record, "versions": ["v"] * 4, "detail": "orange printed a line of 10,000 bytes or more"}
    assert "counted from 0" not in errors_lines([volcanoes], record["seats"])  # (where no line numbers one)
