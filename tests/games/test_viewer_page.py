"""A stored game of Pebbles in its referee's own viewer, in Chromium: the stand-in viewer of
tests/games/pebbles/viewer (a Drawer-like core and a module, as an SDK jar ships them) read from its
folder by `arena serve` (arena/web/viewer.py) and by a plain static server from `arena replay`'s
folder. The page loads offline (nothing outside 127.0.0.1), its frames advance, a link to frame N
opens frame N, and each player's output and stderr follow the frame."""

from __future__ import annotations

import json
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from arena.cli import main
from arena.play import replays
from arena.play.store import Store
from arena.web.serve import RunView, make_server
from tests.games.pebbles.harness import BOTS, ROOT, until

VIEWER = ROOT / "tests" / "games" / "pebbles" / "viewer"
REFEREE = f"{sys.executable} -m tests.games.pebbles.sdk_referee"


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


def run(folder: Path, name: str, *options: str) -> Path:
    """A match of Pebbles, `first` against `chatty` (which says on stderr which turn it plays)."""
    db = folder / name
    argv = ["match", *(f"{bot}={sys.executable} {BOTS / (bot + '.py')}" for bot in ("first", "chatty"))]
    argv += ["--referee", REFEREE, "--protocol", "sdk", "--viewer", str(VIEWER), "--pairs", "1", "--seed", "2"]
    assert main([*argv, "--workers", "1", "--quiet", "--db", str(db), *options]) == 0
    return db


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("viewer")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        return run(folder, "all.sqlite"), run(folder, "none.sqlite", "--replays", "none"), folder


def serve(server: ThreadingHTTPServer):
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return f"http://127.0.0.1:{server.server_address[1]}"


@pytest.fixture(scope="module")
def site(runs):
    kept, none, _ = runs
    server = make_server([RunView(kept), RunView(none)], "127.0.0.1", 0)
    yield serve(server)
    server.shutdown()
    server.server_close()


def stored(db: Path, game: int) -> tuple[list[dict], list[str]]:
    """A stored game's frames, and its seats' labels."""
    store = Store.open(db, readonly=True)
    try:
        return replays.unpack(store.frames(game)), store.game(game)["seats"]
    finally:
        store.close()


def drawn(frame: dict) -> list[int]:
    """The pebbles a stored frame's view shows."""
    data = json.loads(frame["view"].split("\n")[1])
    return (data["frame"] if "frame" in data else data)["pebbles"]["pebbles"]


def opened(browser, url: str) -> dict:
    browser.get("about:blank")  # a new load, even where only the #frame differs
    browser.get(url)
    until(
        lambda: browser.execute_script("return window.__viewer && window.__viewer.firstFrameMs"), 60, "the first frame"
    )
    return browser.execute_script("return {frame: window.__viewer.frame, frames: window.__viewer.frames}")


def shown(browser) -> dict:
    """What the page shows now: its frame, what the viewer drew, the counter, each player's card."""
    return browser.execute_script(
        """const v = window.__viewer
        const cards = [...document.querySelectorAll('#players section.player')].map(c => ({
          seat: +c.dataset.seat, now: !c.classList.contains('old'),
          out: c.querySelector('pre.out') && c.querySelector('pre.out').textContent,
          err: c.querySelector('pre.err') && c.querySelector('pre.err').textContent}))
        return {frame: v.frame, pebbles: v.drawer.modules.pebbles.shown.pebbles, counter: document.getElementById('counter').textContent,
                summary: document.getElementById('summarytext').textContent, cards, errors: v.errors}"""
    )


def outside(browser, origin: str) -> list[str]:
    """What the page loaded (the document, scripts, modules, images, the frames) from anywhere else."""
    names = browser.execute_script(
        "return [location.href, ...performance.getEntriesByType('resource').map(e => e.name)]"
    )
    assert len(names) > 4  # the frames, the Drawer, its config and module, the image: seen
    return [name for name in names if not name.startswith((origin + "/", "data:"))]


def check_frame(browser, game: tuple[list[dict], list[str]], k: int) -> None:
    frames, seats = game
    now = shown(browser)
    assert now["frame"] == k and now["counter"] == f"{k} / {len(frames) - 1}"
    assert now["pebbles"] == drawn(frames[k])  # the viewer drew frame k
    summary = frames[k].get("summary", "").replace("$0", seats[0]).replace("$1", seats[1])
    assert now["summary"] == (summary or "(none)")
    seat = frames[k].get("seat")
    cards = {card["seat"]: card for card in now["cards"]}
    if seat is not None:  # the answer that led to frame k, and its stderr, beside it
        assert cards[seat]["now"] and cards[seat]["out"] == "\n".join(frames[k]["output"])
        assert cards[seat]["err"] == (frames[k].get("stderr") or "(nothing)")
        assert not cards[1 - seat]["now"]
    assert now["errors"] == []


def test_a_stored_game_plays_in_its_own_viewer_offline(runs, site, browser):
    db = runs[0]
    game = stored(db, 1)
    frames = game[0]
    assert any("turn" in frame.get("stderr", "") for frame in frames)  # chatty's stderr was kept
    state = opened(browser, f"{site}/game/0/1")
    assert state == {"frame": 0, "frames": len(frames)}
    check_frame(browser, game, 0)
    assert outside(browser, site) == []

    # Play: the frames advance, the panels with them.
    browser.execute_script("window.__viewer.api.play()")
    until(lambda: browser.execute_script("return window.__viewer.frame") >= 3, 30, "frames to advance")
    browser.execute_script("window.__viewer.api.pause()")
    check_frame(browser, game, browser.execute_script("return window.__viewer.frame"))

    # A link to frame N opens frame N; a step, and a new #frame, move it.
    for k in (5, len(frames) - 1):
        assert opened(browser, f"{site}/game/0/1#frame={k}")["frame"] == k
        check_frame(browser, game, k)
    browser.find_element("id", "first").click()
    browser.find_element("id", "next").click()
    check_frame(browser, game, 1)
    assert browser.execute_script("return location.hash") == "#frame=1"
    browser.execute_script("location.hash = '#frame=4'")
    until(lambda: shown(browser)["frame"] == 4, 10, "the frame of the new link")
    check_frame(browser, game, 4)
    assert outside(browser, site) == []


def test_a_game_without_frames_shows_its_record(site, browser):
    for url in (f"{site}/game/1/1", f"{site}/game/0/1/record"):
        browser.get(url)
        assert browser.find_element("tag name", "h1").text.startswith("game 1: ")
        assert browser.execute_script("return window.__viewer === undefined")


def test_an_exported_game_plays_from_any_static_server(runs, browser):
    db, _, folder = runs
    out = folder / "exported"
    assert main(["replay", str(db), "2", "-o", str(out)]) == 0
    handler = type("Handler", (Quiet,), {"__init__": lambda self, *a: Quiet.__init__(self, *a, directory=str(out))})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    origin = serve(server)
    try:
        game = stored(db, 2)
        assert opened(browser, f"{origin}/index.html#frame=3")["frame"] == 3
        check_frame(browser, game, 3)
        assert outside(browser, origin) == []
    finally:
        server.shutdown()
        server.server_close()


# As the SDK's Drawer of every release takes its intro: demo.js's, else config.js's `demo`, which it
# plays at each init (an old format fails there, into its error log); none where neither gives one.
SDK_DEMO_DRAWER = """import { Drawer as StandIn } from './StandInDrawer.js'
import { demo as defaultDemo } from '../demo.js'
import * as config from '../config.js'
import { ErrorLog } from './ErrorLog.js'
export class Drawer extends StandIn {
  constructor () { super(); this.demo = defaultDemo ? { frames: defaultDemo.views } : config.demo }
  init (...args) {
    if (this.demo) ErrorLog.push({ message: 'Cannot load demo', cause: new Error('entity type not found: ') })
    return super.init(...args)
  }
}
"""
ERROR_LOG = """const listeners = []
export class ErrorLog {
  static listen (callback) { listeners.push(callback) }
  static push (error) { listeners.forEach((callback) => callback(error)) }
}
"""


def test_a_game_whose_config_has_an_intro_plays_without_it_and_without_an_error(runs, tmp_path, browser):
    """A real game's page showed 'Cannot load demo' twice among its viewer's errors: the demo.js served
    (no intro) made the SDK's Drawer take the older intro of the game's config.js, which it failed to load."""
    import shutil

    db = runs[0]
    view = shutil.copytree(VIEWER, tmp_path / "viewer") / "view"
    (view / "core" / "Drawer.js").rename(view / "core" / "StandInDrawer.js")
    (view / "core" / "Drawer.js").write_text(SDK_DEMO_DRAWER)
    (view / "core" / "ErrorLog.js").write_text(ERROR_LOG)
    with (view / "config.js").open("a") as config:
        config.write("export const demo = { playerCount: 2, frames: ['KEY_FRAME 0\\n{}'] }\n")
    out = tmp_path / "exported"
    assert main(["replay", str(db), "1", "-o", str(out), "--viewer", str(view.parent)]) == 0
    handler = type("Handler", (Quiet,), {"__init__": lambda self, *a: Quiet.__init__(self, *a, directory=str(out))})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    origin = serve(server)
    try:
        assert opened(browser, f"{origin}/index.html#frame=2")["frame"] == 2
        check_frame(browser, stored(db, 1), 2)  # no viewer errors among what it checks
        assert browser.execute_script("return window.__viewer.drawer.demo === undefined")
    finally:
        server.shutdown()
        server.server_close()


def test_a_referee_s_coloured_text_is_drawn_in_its_colour(runs, tmp_path, browser):
    """A bot's crash showed its summary as `¤RED¤first timeout!§RED§`, the SDK's markup of a red text
    (GameManager.formatErrorMessage), which CodinGame's player draws in red."""
    import gzip
    import shutil
    import sqlite3

    db = tmp_path / "coloured.sqlite"
    shutil.copy(runs[0], db)
    with sqlite3.connect(db) as connection:
        body = json.loads(gzip.decompress(connection.execute("SELECT body FROM frames WHERE game = 1").fetchone()[0]))
        body["frames"][3] |= {
            "summary": "¤RED¤$0 timeout!§RED§ then ¤GREEN¤$1§GREEN§ wins",
            "tooltips": [["¤RED¤$0 timeout!§RED§", 0]],
        }
        connection.execute("DROP TRIGGER frames_are_kept_as_stored")
        connection.execute("UPDATE frames SET body = ? WHERE game = 1", (gzip.compress(json.dumps(body).encode()),))
    connection.close()
    seats = stored(db, 1)[1]
    server = make_server([RunView(db)], "127.0.0.1", 0)
    site = serve(server)
    try:
        assert opened(browser, f"{site}/game/0/1#frame=3")["frame"] == 3
        drawn = browser.execute_script(
            """const text = (id) => document.getElementById(id).textContent
            const colours = (id) => [...document.querySelectorAll(`#${id} span`)].map((s) => [s.textContent, getComputedStyle(s).color])
            return {summary: text('summarytext'), frame: text('frameinfo'), colours: colours('summarytext'), tooltip: colours('frameinfo')}"""
        )
    finally:
        server.shutdown()
        server.server_close()
    first, second = seats
    assert drawn["summary"] == f"{first} timeout! then {second} wins"
    assert drawn["colours"] == [[f"{first} timeout!", "rgb(255, 0, 0)"], [second, "rgb(0, 128, 0)"]]
    assert f"tooltip ({first}): {first} timeout!" in drawn["frame"] and "¤" not in drawn["frame"]
    assert drawn["tooltip"] == [[f"{first} timeout!", "rgb(255, 0, 0)"]]


def test_a_record_s_page_shows_the_referee_s_coloured_text_in_its_colour(runs):
    """The record's page showed the referee's summaries in a dump of JSON, `\\u00a4RED\\u00a4$0 timeout!`."""
    from arena.web import record_page

    store = Store.open(runs[0], readonly=True)
    try:
        record, config = store.game(1), store.config
    finally:
        store.close()
    first, second = record["seats"]
    said = {
        "summaries": [[1, "$1 took <b>3</b>"], [4, "¤RED¤$0 timeout!§RED§"]],
        "tooltips": [{"round": 4, "text": "$0 timeout!", "player": 0}],
    }
    page = record_page.render(record | {"data": said}, config)
    assert f'<span style="color:red">{first} timeout!</span>' in page and f"{second} took &lt;b&gt;3&lt;/b&gt;" in page
    assert f"<td>tooltip ({first})</td><td>{first} timeout!</td>" in page
    assert "RED" not in page and "u00a4" not in page
    runner_log = {
        "summaries": ["", "¤GREEN¤$1 wins§GREEN§"],
        "tooltips": [{"text": "$1 wins", "event": 1}],
    }  # protocol cli's
    page = record_page.render(record | {"data": runner_log}, config)
    assert f'<td>1</td><td>summary</td><td><span style="color:green">{second} wins</span>' in page
    assert f"<td>tooltip ({second})</td>" in page


@pytest.mark.parametrize("damage", [b"not gzip", "cut short", "no frames"])
def test_a_game_whose_stored_frames_are_damaged_is_one_line_and_nothing_written(runs, tmp_path, capsys, damage):
    """`arena replay` of a game whose frames do not inflate ended in a traceback (EOFError,
    BadGzipFile, KeyError), its folder already half written."""
    import gzip
    import shutil
    import sqlite3

    kept, _, _ = runs
    db = tmp_path / "damaged.sqlite"
    shutil.copy(kept, db)
    with sqlite3.connect(db) as connection:
        body = connection.execute("SELECT body FROM frames WHERE game = 1").fetchone()[0]
        broken = {"cut short": body[: len(body) // 2], "no frames": gzip.compress(b'{"frame": []}')}.get(damage, damage)
        connection.execute("DROP TRIGGER frames_are_kept_as_stored")
        connection.execute("UPDATE frames SET body = ? WHERE game = 1", (broken,))
    connection.close()
    out = tmp_path / "out"
    assert main(["replay", str(db), "1", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{db} is damaged: game 1: its frames are damaged" in err and len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_a_page_opened_from_a_file_says_how_to_serve_it(runs, tmp_path, browser, capsys):
    """A shared replay folder opened by a double-click (file://) showed only 'the viewer failed' and
    'Failed to fetch' (the CLI's hint about a web server was never seen), its label drawn over the
    buttons; a report's game page the same."""
    db = runs[0]
    out = tmp_path / "my games"
    assert main(["replay", str(db), "1", "-o", str(out)]) == 0
    assert main(["report", str(db), "-o", str(tmp_path / "report.html")]) == 0
    capsys.readouterr()
    for page, folder, url in (
        (out / "index.html", f"'{out}'", "http://127.0.0.1:8000/"),
        (tmp_path / "report_games" / "game-1.html", str(tmp_path), "http://127.0.0.1:8000/report_games/game-1.html"),
    ):
        browser.get(page.as_uri())
        until(lambda: browser.find_element("id", "serve").is_displayed(), 10, "the note on serving the page")
        assert browser.find_element("id", "command").text == f"python -m http.server -d {folder}"
        assert browser.find_element("id", "url").get_attribute("href") == url
        assert browser.execute_script("return window.__viewer.errors") == []
        assert browser.find_element("id", "status").text == "not played: opened from a file"
        label, stage = (browser.find_element("id", name).rect for name in ("status", "stage"))
        assert label["y"] + label["height"] <= stage["y"] + stage["height"]  # (not over the buttons)


def test_a_cli_referee_s_game_plays_in_its_viewer_as_an_sdk_one_does(runs, tmp_path, browser):
    """Pebbles refereed in protocol cli kept its frames, 'arena serve plays them in the game's own
    viewer', and its page showed 'the viewer failed: "undefined" is not valid JSON': the test
    referee's log (-l) held bare JSON views with no `KEY_FRAME n` line, each frame's summary was the
    next turn's, and the position the game ended in was no frame."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        argv = ["match", *(f"{bot}={sys.executable} {BOTS / (bot + '.py')}" for bot in ("first", "chatty"))]
        argv += ["--referee", f"{sys.executable} -m tests.games.pebbles.cli_referee", "--protocol", "cli"]
        argv += ["--viewer", str(VIEWER), "--pairs", "1", "--seed", "2", "--workers", "1", "--quiet"]
        assert main([*argv, "--db", str(tmp_path / "cli.sqlite")]) == 0
    cli, sdk = stored(tmp_path / "cli.sqlite", 1), stored(runs[0], 1)
    assert [drawn(frame) for frame in cli[0]] == [drawn(frame) for frame in sdk[0]]  # the same game, frame by frame
    assert [frame.get("seat") for frame in cli[0]] == [frame.get("seat") for frame in sdk[0]]
    assert all(cli[0][k]["summary"].startswith(f"${cli[0][k]['seat']} takes") for k in range(1, len(cli[0])))
    out = tmp_path / "exported"
    assert main(["replay", str(tmp_path / "cli.sqlite"), "1", "-o", str(out)]) == 0
    handler = type("Handler", (Quiet,), {"__init__": lambda self, *a: Quiet.__init__(self, *a, directory=str(out))})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    origin = serve(server)
    try:
        last = len(cli[0]) - 1
        browser.get(f"{origin}/index.html#frame={last}")
        until(
            lambda: browser.execute_script("return window.__viewer.firstFrameMs || window.__viewer.errors.length"),
            30,
            "a frame",
        )
        check_frame(browser, cli, last)  # (the viewer's errors among what it checks)
        assert shown(browser)["pebbles"] == []
    finally:
        server.shutdown()
        server.server_close()
