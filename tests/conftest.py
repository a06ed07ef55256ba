import gzip
import json
import shutil
from collections import deque
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def conformance_games():
    """The 800 games recorded from CodinGame's Volcanoes referee (see tests/data/volcanoes)."""
    with gzip.open(DATA / "volcanoes" / "conformance.jsonl.gz", "rt") as f:
        return [json.loads(line) for line in f]


@pytest.fixture(scope="session")
def shortest_path():
    """A function: the tiles of a shortest path on the Volcanoes board from `start` to `goal`."""
    from referee.volcanoes.board import NEIGHBOURS

    def path(start: int, goal: int) -> list[int]:
        parent = {start: None}
        queue = deque([start])
        while queue:
            t = queue.popleft()
            for n in NEIGHBOURS[t]:
                if n not in parent:
                    parent[n] = t
                    queue.append(n)
        tiles = [goal]
        while parent[tiles[-1]] is not None:
            tiles.append(parent[tiles[-1]])
        return tiles

    return path


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium driven by Selenium (Debian's chromium and chromium-driver)."""
    webdriver = pytest.importorskip("selenium.webdriver")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    chromedriver = shutil.which("chromedriver")
    if not (chromium and chromedriver):
        pytest.skip("needs Debian's chromium and chromium-driver (.ci/run installs them)")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--window-size=1000,800",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(chromedriver))
    yield driver
    driver.quit()
