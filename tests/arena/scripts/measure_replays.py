"""What a run's replays cost (docs/replays.md): each kept game's frames, compressed as stored and raw,
the mean with a 95% interval (Student's t) over the games, and per 1,000 games; with `--loads N`,
the time from a page's navigation to the viewer's first drawn frame, N loads of the first `--games`
games, each in a fresh headless Chromium (a cold cache; software WebGL), served by `arena serve`'s
server in this process.

    python tests/arena/scripts/measure_replays.py RUN.sqlite [--loads 5] [--games 2]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from arena.play.store import Store  # noqa: E402
from arena.web.serve import RunView, make_server  # noqa: E402

# Student's t, two-sided 95%, for 1 to 30 degrees of freedom (more: 1.96, the normal's)
T95 = [12.71, 4.30, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26, 2.23, 2.20, 2.18, 2.16, 2.14, 2.13]
T95 += [2.12, 2.11, 2.10, 2.09, 2.09, 2.08, 2.07, 2.07, 2.06, 2.06, 2.06, 2.05, 2.05, 2.05, 2.04]


def interval(values: list[float]) -> tuple[float, float]:
    """(mean, half-width of its 95% interval)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, float("nan")
    df = len(values) - 1
    t = T95[df - 1] if df <= len(T95) else 1.96
    return mean, t * statistics.stdev(values) / len(values) ** 0.5


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--window-size=1600,1000",
        "--use-gl=swiftshader",
        "--enable-unsafe-swiftshader",
        "--ignore-gpu-blocklist",
    ):
        options.add_argument(flag)
    return webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))


def first_frame(url: str, timeout: float = 180) -> float:
    """Seconds from navigation to the viewer's first frame of the game, in a fresh browser."""
    driver = browser()
    try:
        driver.get(url)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got = driver.execute_script(
                "return window.__viewer && [window.__viewer.firstFrameMs, window.__viewer.errors]"
            )
            if got and got[1]:
                raise RuntimeError(f"{url}: {got[1]}")
            if got and got[0]:
                return got[0] / 1000
            time.sleep(0.02)
        raise TimeoutError(url)
    finally:
        driver.quit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("db", type=Path)
    parser.add_argument("--loads", type=int, default=0, help="page loads per game timed (0: none)")
    parser.add_argument("--games", type=int, default=2, help="games whose page is timed")
    args = parser.parse_args()
    store = Store.open(args.db, readonly=True)
    rows = store.db.execute("SELECT game, count, raw_bytes, length(body) FROM frames ORDER BY game").fetchall()
    games = len(store.games(light=True))
    store.close()
    if not rows:
        sys.exit(f"{args.db} kept no replay")
    kib = [row[3] / 1024 for row in rows]
    raw = [row[2] / 1024 for row in rows]
    frames = [row[1] for row in rows]
    for name, values in (("compressed KiB", kib), ("raw KiB", raw), ("frames", frames)):
        mean, half = interval(values)
        print(f"{name:>15}: {mean:,.1f} +- {half:,.1f} a game (95%, {len(values)} games)")
    mean, half = interval(kib)
    print(
        f"{'per 1,000 games':>15}: {mean * 1000 / 1024:,.1f} +- {half * 1000 / 1024:,.1f} MiB ({len(rows)} of {games} kept)"
    )
    if not args.loads:
        return
    server = make_server([RunView(args.db)], "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/game/0/"
    times = []
    for game, *_ in rows[: args.games]:
        for _ in range(args.loads):
            times.append(first_frame(f"{base}{game}"))
    mean, half = interval(times)
    print(
        f"first frame after navigation: median {statistics.median(times):.2f} s, mean {mean:.2f} +- {half:.2f} s "
        f"(95%, {len(times)} loads of {min(args.games, len(rows))} games, a fresh browser each)"
    )
    server.shutdown()


if __name__ == "__main__":
    main()
