"""`arena serve`'s live page in Chromium, open while a league of Pebbles plays (protocol (C), whose
bots' stderr the arena reads, so that their PDATA and TDATA are kept): new games and ratings appear
without a reload, the filters (players, emitted data) change what is shown, and every game's link
opens its page."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest

from arena.web.serve import RunView, make_server
from tests.games.pebbles.harness import until

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "tests" / "games" / "pebbles" / "bots"


def bot(label: str, name: str) -> str:
    return f"{label}={sys.executable} {BOTS / f'{name}.py'}"


@pytest.fixture
def league(tmp_path, leftovers):
    """A league playing in its own process; its database's path."""
    db = tmp_path / "league.sqlite"
    players = [bot("emitter", "emitter"), bot("greedy", "greedy"), bot("first", "first"), bot("worst", "worst")]
    command = [sys.executable, "-m", "arena.cli", "league", *players, "--db", str(db), "--seed", "5"]
    command += ["--referee", f"{sys.executable} -m tests.games.pebbles.sdk_referee", "--protocol", "sdk"]
    command += ["--workers", "2", "--quiet"]
    log = open(tmp_path / "league.log", "wb")
    proc = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=log, start_new_session=True)
    until(lambda: db.exists() and db.stat().st_size > 0 and _games(db) >= 2, what="the league's first games")
    yield db, proc
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=60)
    log.close()


def _games(db: Path) -> int:
    from arena.play.store import Store

    try:
        store = Store.open(db, readonly=True)
    except Exception:  # noqa: BLE001 - being created
        return 0
    try:
        return len(store.games(light=True))
    finally:
        store.close()


@contextmanager
def served(db: Path):
    """The live page of the run in `db`, served in this process; its URL."""
    httpd = make_server([RunView(db)], "127.0.0.1", 0)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture
def server(league):
    db, _ = league
    with served(db) as url:
        yield url


def a_run_whose_label_holds_a_comma(folder: Path) -> Path:
    """A tournament of three Pebbles bots, one in a file named `x,y.py` (labelled `x,y` after it), the
    others `f` and `c`, a pair of games each; its database."""
    bots = folder / "bots dir"
    bots.mkdir()
    for name, source in (("_common", "_common"), ("x,y", "greedy"), ("f", "first"), ("c", "chatty")):
        shutil.copy(BOTS / f"{source}.py", bots / f"{name}.py")
    db = folder / "comma.sqlite"
    players = [shlex.join([sys.executable, str(bots / f"{name}.py")]) for name in ("x,y", "f", "c")]
    referee = shlex.join([sys.executable, "-m", "tests.games.pebbles.sdk_referee"])
    command = [sys.executable, "-m", "arena.cli", "tournament", *players, "--referee", referee, "--protocol", "sdk"]
    command += ["--pairs", "1", "--seed", "1", "--workers", "1", "--quiet", "--db", str(db)]
    subprocess.run(command, cwd=ROOT, capture_output=True, check=True, timeout=120)
    return db


def rows(browser, table: str) -> list[list[str]]:
    return browser.execute_script(
        f"return Array.from(document.querySelectorAll('#{table} tbody tr'))"
        ".map(tr => Array.from(tr.cells).map(td => td.textContent))"
    )


def header(browser, table: str) -> list[str]:
    return browser.execute_script(
        f"return Array.from(document.querySelectorAll('#{table} thead th')).map(th => th.textContent)"
    )


def shown(browser) -> tuple[int, int]:
    """(games in the file, games shown), from the status line."""
    text = browser.find_element("id", "status").text
    match = re.match(r"(\d+) games in the file, (\d+) shown", text)
    return (int(match.group(1)), int(match.group(2))) if match else (-1, -1)


def test_the_live_page_follows_a_league_while_it_plays(league, server, browser):
    from selenium.webdriver.common.by import By

    db, proc = league
    browser.get(server)
    until(lambda: len(rows(browser, "leaderboard")) == 4, what="the leaderboard")
    browser.execute_script("window.sameDocument = true")  # gone if the page were loaded again
    games, _ = shown(browser)
    board = rows(browser, "leaderboard")

    # New games and ratings appear by themselves.
    until(lambda: shown(browser)[0] >= games + 6, what="new games on the page")
    until(lambda: rows(browser, "leaderboard") != board, what="new ratings")
    assert browser.execute_script("return window.sameDocument") is True
    latest = rows(browser, "latest")
    assert latest and int(latest[0][0]) > int(latest[-1][0])  # newest first
    assert browser.find_elements(By.CSS_SELECTOR, "#history polyline")
    assert "pdata.took" in header(browser, "leaderboard") and "tdata.pebbles" in header(browser, "leaderboard")
    took = header(browser, "leaderboard").index("pdata.took")
    assert {row[1]: row[took] for row in rows(browser, "leaderboard")}["greedy"] == "-"  # greedy emits nothing
    assert sorted(header(browser, "cross")[1:]) == ["emitter", "first", "greedy", "worst"]

    # A subset of the players: the leaderboard and the cross-table show them alone.
    browser.find_element(By.CSS_SELECTOR, "input[data-bot='worst']").click()
    until(lambda: "worst" not in [r[1] for r in rows(browser, "leaderboard")], what="worst filtered out")
    until(lambda: "worst" not in header(browser, "cross"))
    assert all("worst" not in row[1:4] for row in rows(browser, "latest"))
    total, among = shown(browser)
    assert among < total
    browser.find_element(By.ID, "all").click()
    until(lambda: "worst" in [r[1] for r in rows(browser, "leaderboard")], what="worst back")

    # Games whose data meet a condition; and a condition that cannot be read says why.
    condition = browser.find_element(By.ID, "where")
    condition.send_keys("tdata.pebbles >= 11")
    browser.find_element(By.ID, "apply").click()
    until(lambda: "(tdata.pebbles >= 11)" in browser.find_element(By.ID, "status").text, what="the data filter")
    total, among = shown(browser)
    assert 0 < among < total
    condition.clear()
    condition.send_keys("pebbles is big")
    browser.find_element(By.ID, "apply").click()
    until(lambda: "not a data condition" in browser.find_element(By.ID, "where-error").text, what="the error")

    # Every game's link opens its page.
    links = browser.execute_script("return Array.from(document.querySelectorAll('#latest a')).map(a => a.href)")
    assert len(links) == len(rows(browser, "latest")) > 0
    proc.send_signal(signal.SIGTERM)
    for link in links:
        browser.get(link)
        heading = browser.find_element(By.TAG_NAME, "h1").text
        assert heading.startswith("game ") and " vs " in heading, link


def test_the_players_filter_takes_a_label_holding_a_comma(tmp_path, browser):
    """The page sent the players shown joined by commas, and the server split them: unticking `c`
    asked for `x`, `y` and `f`, and showed none of the 6 games."""
    from selenium.webdriver.common.by import By

    with served(a_run_whose_label_holds_a_comma(tmp_path)) as url:
        browser.get(url)
        until(lambda: len(rows(browser, "leaderboard")) == 3, what="the leaderboard")
        browser.find_element(By.CSS_SELECTOR, "input[data-bot='c']").click()
        until(lambda: shown(browser) == (6, 2), what="the games of x,y against f")
        assert sorted(row[1] for row in rows(browser, "leaderboard")) == ["f", "x,y"]
