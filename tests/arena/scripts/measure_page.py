"""How fast `arena serve`'s page is on a big file (made by fill_league.py): the JSON state's time cold
(the file read the first time), unchanged, and after new games; the page's first paint in headless
Chromium (navigation to a drawn leaderboard) on a cold and a warm server; and how long new games take
to appear on an open page (which asks every 2 s).

    python tests/arena/scripts/fill_league.py /tmp/big.sqlite
    python tests/arena/scripts/measure_page.py /tmp/big.sqlite
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
import time
import urllib.request
from urllib.parse import urlencode
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from arena.web.serve import RunView, make_server  # noqa: E402

FILL = Path(__file__).with_name("fill_league.py")


def fetch(url: str) -> tuple[float, dict]:
    started = time.perf_counter()
    with urllib.request.urlopen(url) as answer:
        body = answer.read()
    return time.perf_counter() - started, json.loads(body)


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1200,900"):
        options.add_argument(flag)
    return webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))


def painted(driver, rows: int, timeout: float = 120) -> float:
    """Seconds from navigation start until the leaderboard has `rows` rows."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        n = driver.execute_script("return document.querySelectorAll('#leaderboard tbody tr').length")
        if n >= rows:
            return driver.execute_script("return performance.now()") / 1000
        time.sleep(0.01)
    raise TimeoutError("the leaderboard never came")


def main() -> None:
    db = Path(sys.argv[1])
    bots = int(sys.argv[2]) if len(sys.argv) > 2 else 100

    def serve():
        httpd = make_server([RunView(db)], "127.0.0.1", 0)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"

    httpd, url = serve()
    cold, state = fetch(url + "/api/state")
    games = state["run"]["games"]
    print(f"{games} games, {len(state['leaderboard'])} bots")
    print(f"/api/state cold (the file read, the leaderboard built): {cold:.2f} s")
    unchanged, _ = fetch(url + "/api/state")
    print(f"/api/state again, nothing new: {1000 * unchanged:.1f} ms")
    known, _ = fetch(url + f"/api/state?known={state['etag']}")
    print(f"/api/state, the page's poll when nothing changed: {1000 * known:.1f} ms")
    subprocess.run([sys.executable, str(FILL), str(db), "--more", "20"], check=True)
    fresh, state = fetch(url + "/api/state")
    print(
        f"/api/state after 20 new games (read, added, refitted): {1000 * fresh:.0f} ms ({state['run']['games']} games)"
    )
    subset = urlencode([("bots", row["label"]) for row in state["leaderboard"][:50]])
    filtered, _ = fetch(url + f"/api/state?{subset}")
    print(f"/api/state for a new subset of 50 bots (a board built from the file): {filtered:.2f} s")
    httpd.shutdown()
    httpd.server_close()

    driver = browser()
    try:
        httpd, url = serve()  # a cold server: the page's first paint reads the file
        driver.get(url + "/")
        print(f"first paint, cold server (navigation to a drawn leaderboard of {bots}): {painted(driver, bots):.2f} s")
        driver.get(url + "/")
        print(f"first paint, warm server: {painted(driver, bots):.2f} s")
        before = driver.find_element("id", "status").text
        started = time.perf_counter()
        subprocess.run([sys.executable, str(FILL), str(db), "--more", "20"], check=True)
        written = time.perf_counter()
        while driver.find_element("id", "status").text.split(",")[0] == before.split(",")[0]:
            time.sleep(0.01)
        seen = time.perf_counter()
        print(
            f"20 new games: on the open page {seen - written:.2f} s after they were written "
            f"(polled every 2 s; writing took {written - started:.2f} s)"
        )
        drawn = driver.execute_script(
            "const t = performance.now(); drawLeaderboard(state); drawHistory(state); drawCross(state);"
            " drawLatest(state); return performance.now() - t"
        )
        print(f"drawing a state in the page (leaderboard, history, {bots}x{bots} cross-table, games): {drawn:.0f} ms")
        httpd.shutdown()
        httpd.server_close()
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
