"""A game's replay in its referee's own viewer, without a browser (tests/games/test_viewer_page.py has
the page): the frames a referee sends, each with the answer that led to it (arena/games/sdk.py, cli.py);
which games of a run keep them, stored once and never changed (arena/play/replays.py, store.py); the
viewer's files read from a jar or a folder (arena/web/viewer.py); `arena replay` and `arena report -o`."""

from __future__ import annotations

import gzip
import json
import re
import os
import sqlite3
import sys
import zipfile
from pathlib import Path

import pytest

from arena.cli import main
from arena.errors import UsageError
from arena.games.base import GameError
from arena.games import sdk
from arena.games.cli import log_frames
from arena.games.protocols import make
from arena.play import replays
from arena.play.store import SCHEMA_VERSION, Store
from arena.web import viewer
from tests.games.pebbles.harness import BOTS, ROOT, driven_game, player

VIEWER = ROOT / "tests" / "games" / "pebbles" / "viewer"
REFEREE = f"{sys.executable} -m tests.games.pebbles.sdk_referee"


# ---------------------------------------------------------------- the frames a game keeps


def test_each_frame_shows_the_answer_that_led_to_it_with_its_input_and_stderr():
    outcome = driven_game("sdk").play(4, [player("chatty"), player("first")], [0, 0])
    frames = outcome.frames
    assert len(frames) == outcome.turns + 1  # one view a round, the last one's too
    assert frames[0].seat is None and frames[0].view.startswith("KEY_FRAME 0\n")
    first = json.loads(frames[0].view.split("\n")[1])["frame"]["pebbles"]
    pebbles = first["pebbles"]
    for k, frame in enumerate(frames[1:], 1):
        assert frame.view.split("\n")[0] == f"KEY_FRAME {k}"
        drawn = json.loads(frame.view.split("\n")[1])["pebbles"]
        # what it drew is the answer's doing: the pebble that answer took is gone, its worth scored
        seat, index = frame.seat, int(frame.output[0])
        assert seat == (k - 1) % 2 and frame.expected == 1
        assert drawn["taken"] == [seat, index, pebbles[index]]
        assert frame.input[-1] == " ".join(map(str, pebbles))  # what it was given then
        assert frame.summary == f"${seat} took a pebble"
        pebbles = drawn["pebbles"]
        # its stderr of that turn, at this frame (chatty says which turn it plays)
        assert frame.stderr == (f"turn {(k + 1) // 2}\n" if seat == 0 else "")
        assert frame.ms is not None and frame.limit_ms > 0
    assert frames[1].input[0] == "2 0"  # a first turn's own line


def test_a_game_whose_frames_outgrow_their_bound_keeps_none_and_says_so(monkeypatch):
    monkeypatch.setattr(sdk, "FRAMES_CHARS", 1000)
    monkeypatch.setattr(sdk, "INPUT_CHARS", 12)
    outcome = driven_game("sdk").play(4, [player("greedy"), player("first")], [0, 0])
    assert outcome.frames is None and "ran past 1,000 characters" in outcome.data["frames_not_kept"]
    monkeypatch.setattr(sdk, "FRAMES_CHARS", 10**6)
    frames = driven_game("sdk").play(4, [player("greedy"), player("first")], [0, 0]).frames
    assert (
        frames[1].input[0] == "2 0"
        and frames[1].input[-1].startswith("... [")
        and "more lines not kept" in frames[1].input[-1]
    )


def test_a_game_s_frames_travel_as_json_and_keep_only_what_was_said():
    outcome = driven_game("sdk").play(4, [player("greedy"), player("first")], [0, 0])
    first, later = outcome.frames[0].to_json(), outcome.frames[1].to_json()
    assert set(first) == {"view"}
    assert {"view", "summary", "seat", "input", "expected", "output", "limit_ms", "ms"} == set(later)
    assert json.loads(json.dumps(later)) == later


def test_a_cli_referee_s_log_gives_each_frame_the_round_before_s_answer():
    """The SDK runner's result (what -l writes): `outputs` and `errors` of a player begin with an entry
    before any round, so that their entry k is the answer that led to view k (as CodinGame's player
    and the runner's own page show it); a player's stderr before its first turn goes with that turn."""
    log = {
        "views": ["KEY_FRAME 0\n{}", "KEY_FRAME 1\n{}", "KEY_FRAME 2\n{}", None],
        "outputs": {"0": [None, "3\n", None], "1": [None, None, "0\n"], "referee": ["", "", ""]},
        "errors": {"0": ["hello\n", "turn 1\n", None], "1": ["", None, "mine\n"], "referee": ["", "", ""]},
        "summaries": ["", "$0 took a pebble", "$1 took a pebble"],
        "tooltips": [{"text": "$1 went", "event": 1, "turn": 2}],
    }
    frames = log_frames(log, 2)
    assert len(frames) == 3  # the runner's null view (a round that never completed) ends them
    assert frames[0].seat is None and frames[0].summary == ""
    assert (frames[1].seat, frames[1].output, frames[1].stderr) == (0, ["3"], "hello\nturn 1\n")
    assert (frames[2].seat, frames[2].output, frames[2].stderr) == (1, ["0"], "mine\n")
    assert frames[2].tooltips == [("$1 went", 1)] and frames[2].summary == "$1 took a pebble"
    assert log_frames({"views": []}, 2) is None


# ---------------------------------------------------------------- which games keep them


def record(seats, ranks, errors=None, lineup=None) -> dict:
    return {"seats": seats, "ranks": ranks, "errors": errors or [None] * len(seats), "lineup": lineup or seats}


@pytest.mark.parametrize(
    "policy, game, kept",
    [
        ("all", record(["a", "b"], [0, 1]), True),
        ("none", record(["a", "b"], [1, 0], ["crash", None]), False),
        ("lost", record(["a", "b"], [0, 1]), False),  # the lineup's first won
        ("lost", record(["b", "a"], [0, 1], lineup=["a", "b"]), True),  # it lost, in the other seat
        ("lost", record(["a", "b"], [0, 0]), True),  # a draw is no win
        ("lost", record(["a", "b", "c"], [0, 0, 2]), True),  # first of three, not alone
        ("lost:c", record(["a", "b", "c"], [1, 1, 0]), False),  # first alone
        ("lost", record(["a", "b"], [0, 1], [None, "timeout"]), True),  # a bot failed
        ("lost:b", record(["a", "b"], [0, 1]), True),
        ("lost:b", record(["a", "b", "c"], [1, 0, 2]), False),
        ("lost:c", record(["a", "b", "c"], [1, 0, 2]), True),  # third of three
    ],
)
def test_a_run_keeps_the_replays_its_option_says(policy, game, kept):
    assert replays.keeps(policy, game) is kept


@pytest.mark.parametrize("text", ["some", "lost:", "all:x", "none:y", "LOST"])
def test_a_replays_option_that_means_nothing_is_refused(text):
    with pytest.raises(UsageError, match="is none of all, lost, lost:LABEL"):
        replays.parse(text)


def frames_of(n: int) -> list[dict]:
    return [{"view": f"KEY_FRAME {k}\n{{}}", "summary": "x" * 50} for k in range(n)]


def game_record(unit: int, frames=None, ranks=(0, 1)) -> dict:
    rec = {
        "lineup": ["a", "b"],
        "unit": unit,
        "seating": 0,
        "seats": ["a", "b"],
        "versions": ["1", "1"],
        "seed": unit,
        "ranks": list(ranks),
        "scores": [1, 0],
        "errors": [None, None],
        "reason": "score",
        "turns": 3,
        "data": {},
    }
    return rec | ({"frames": frames} if frames is not None else {})


def test_frames_are_stored_with_their_game_compressed_and_never_changed(tmp_path):
    store = Store.create(tmp_path / "r.sqlite", {"command": "match", "replays": "lost", "seed": 1}, [])
    store.add_game(game_record(0, frames_of(40)))  # a won: not kept
    store.add_game(game_record(1, frames_of(40), ranks=(1, 0)))  # a lost: kept
    store.add_game(game_record(2, ranks=(1, 0)))  # no frames sent
    assert [store.frames(g["id"]) is not None for g in store.games()] == [False, True, False]
    assert "frames" not in store.games()[1]["data"]
    blob = store.frames(2)
    assert replays.unpack(blob) == frames_of(40)
    kept, size = store.replays_kept()
    assert kept == 1 and size == len(blob) < len(json.dumps(frames_of(40))) / 5  # compressed
    with pytest.raises(sqlite3.IntegrityError, match="kept as they were stored"):
        store.db.execute("UPDATE frames SET body = x'00'")
    store.close()


def test_a_schema_4_file_is_read_and_gets_the_frames_table_when_written(tmp_path):
    path = tmp_path / "old.sqlite"
    Store.create(path, {"command": "match", "seed": 1}, []).close()
    db = sqlite3.connect(path)
    db.execute("DROP TABLE frames")
    db.execute("UPDATE run SET value = '4' WHERE key = 'schema'")
    db.commit()
    db.close()
    old = Store.open(path, readonly=True)
    assert old.get("schema") == 4 and old.frames(1) is None and old.replays_kept() == (0, 0)
    old.close()
    store = Store.open(path)
    assert store.get("schema") == SCHEMA_VERSION == 5
    store.add_game(game_record(0, frames_of(3)))  # an old run keeps all (no option stored)
    assert replays.unpack(store.frames(1)) == frames_of(3)
    store.close()


# ---------------------------------------------------------------- the option, the report, the export


def pebbles_run(tmp_path, *options: str, first: str = "first", second: str = "chatty", name="r.sqlite") -> Path:
    db = tmp_path / name
    argv = [
        "match",
        f"{first}={sys.executable} {BOTS / (first + '.py')}",
        f"{second}={sys.executable} {BOTS / (second + '.py')}",
    ]
    argv += ["--referee", REFEREE, "--protocol", "sdk", "--viewer", str(VIEWER), "--pairs", "1", "--seed", "3"]
    argv += ["--workers", "1", "--quiet", "--db", str(db), *options]
    assert main(argv) == 0
    return db


def test_the_run_stores_its_replays_option_and_its_report_states_it(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    db = pebbles_run(tmp_path, "--replays", "lost:chatty")  # chatty (greedy) wins both: none kept
    store = Store.open(db, readonly=True)
    assert store.config["replays"] == "lost:chatty" and store.replays_kept()[0] == 0
    store.close()
    assert main(["report", str(db)]) == 0
    said = capsys.readouterr().out
    assert "Replays (lost:chatty: the games chatty did not win, and every game a bot failed): 0 of 2 games" in said
    assert "0.0 KiB compressed\n" in said  # nothing kept: nothing to play, in a viewer or not
    db = pebbles_run(tmp_path, name="all.sqlite")  # all, by default
    assert main(["report", str(db)]) == 0
    out = capsys.readouterr().out
    assert "Replays (all: every game): 2 of 2 games keep theirs" in out
    assert "KiB a game); arena serve plays them in the game's own viewer\n" in out  # its --viewer's
    # a resume that says otherwise changes it for the games it plays
    assert (
        main(["match", "--resume", "--db", str(db), "--pairs", "2", "--replays", "none", "--quiet", "--workers", "1"])
        == 0
    )
    assert "Replays (none: no game): 2 of 4 games keep theirs" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["match", "a", "b", "--replays", "some"])
    assert "argument --replays: 'some' is none of all, lost" in capsys.readouterr().err
    bots = [f"{name}={sys.executable} {BOTS / 'first.py'}" for name in ("a", "b")]
    assert main(["match", *bots, "--replays", "lost:c", "--referee", REFEREE, "--protocol", "sdk"]) == 2
    assert "--replays lost:c: c is none of the players (a, b)" in capsys.readouterr().err


def test_a_game_is_exported_with_its_page_frames_and_viewer(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    db = pebbles_run(tmp_path)
    out = tmp_path / "replay"
    assert main(["replay", str(db), "2", "-o", str(out)]) == 0
    said = capsys.readouterr().out
    assert f"wrote {out}: game 2 (" in said and "python -m http.server -d" in said
    assert {p.name for p in out.iterdir()} == {"index.html", "frames.json.gz", "record.html", "viewer", ".arena-output"}
    store = Store.open(db, readonly=True)
    assert (out / "frames.json.gz").read_bytes() == store.frames(2)
    store.close()
    assert (out / "viewer" / "core" / "Drawer.js").read_bytes() == (VIEWER / "view" / "core" / "Drawer.js").read_bytes()
    assets = (out / "viewer" / "assets.js").read_text()
    assert json.loads(assets.removeprefix("export const assets = ")) == {
        "baseUrl": "viewer/",
        "images": {"pebble.svg": "assets/pebble.svg"},
        "sprites": [],
        "fonts": [],
    }
    assert (out / "viewer" / "demo.js").read_text() == "export const demo = null\n"
    page = (out / "index.html").read_text()
    meta = json.loads(page.split('<script id="replay" type="application/json">')[1].split("</script>")[0])
    assert meta["frames"] == "frames.json.gz" and meta["viewer"]["base"] == "viewer/"
    assert meta["game"]["id"] == 2 and meta["viewer"]["pixi"] is None and meta["record"] == "record.html"
    local = page.replace("http.server", "").replace("'http://127.0.0.1:8000/'", "")  # (what serves the page)
    assert "http" not in local  # nothing of it is fetched from outside

    assert main(["replay", str(db), "9", "-o", str(tmp_path / "x")]) == 2
    assert "has no game 9" in capsys.readouterr().err
    assert main(["replay", str(db), str(2**63), "-o", str(tmp_path / "x")]) == 2  # past SQLite's integers
    assert f"has no game {2**63}" in capsys.readouterr().err
    none = pebbles_run(tmp_path, "--replays", "none", name="none.sqlite")
    assert main(["replay", str(none), "1", "-o", str(tmp_path / "y")]) == 2
    err = capsys.readouterr().err
    assert "game 1 of" in err and "kept no frames (the run's --replays none keeps no game)" in err
    volcanoes = tmp_path / "volcanoes.sqlite"  # refereed in-process: no frames, its own page instead
    assert main(["match", "greedy", "random", "--pairs", "1", "--quiet", "--db", str(volcanoes)]) == 0
    capsys.readouterr()
    assert main(["replay", str(volcanoes), "1", "-o", str(tmp_path / "z")]) == 0
    assert "game 1's page (index.html, whole: open it in a browser)" in capsys.readouterr().out
    page = (tmp_path / "z" / "index.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and "<title>Volcanoes, seed " in page
    assert not re.search(r"(src|href)=\"https?:", page), "it fetches nothing"
    assert (tmp_path / "z" / "record.html").is_file() and not (tmp_path / "z" / "viewer").exists()


def test_a_run_begun_without_a_viewer_is_replayed_with_one_given_later(tmp_path, capsys, monkeypatch):
    """Its frames were kept, yet no command could play them: `arena replay` had no --viewer."""
    monkeypatch.chdir(ROOT)
    db = tmp_path / "r.sqlite"
    argv = ["match", f"first={sys.executable} {BOTS / 'first.py'}", f"chatty={sys.executable} {BOTS / 'chatty.py'}"]
    argv += ["--referee", REFEREE, "--protocol", "sdk", "--pairs", "1", "--seed", "3", "--workers", "1", "--quiet"]
    assert main([*argv, "--db", str(db)]) == 0
    said = capsys.readouterr().out
    assert "arena serve" not in said  # which would show their records only
    assert f"the run knows no viewer to play them in: arena replay {db} GAME -o FOLDER --viewer PATH" in said
    assert main(["replay", str(db), "1", "-o", str(tmp_path / "x")]) == 2
    assert "(give one with --viewer PATH: the referee's jar, or a folder holding view/)" in capsys.readouterr().err
    assert main(["replay", str(db), "1", "-o", str(tmp_path / "x"), "--viewer", str(VIEWER)]) == 0
    assert (tmp_path / "x" / "viewer" / "core" / "Drawer.js").is_file()


def test_the_report_s_page_links_each_game_to_its_viewer(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    db = pebbles_run(tmp_path)
    report = tmp_path / "site" / "report.html"
    assert main(["report", str(db), "-o", str(report)]) == 0
    assert "2 games play in their referee's viewer" in capsys.readouterr().out
    folder = tmp_path / "site" / "report_games"
    assert (folder / "viewer" / "config.js").is_file() and (folder / "game-1.frames.json.gz").is_file()
    page = report.read_text()
    assert 'href="report_games/game-1.html"' in page and "2 games kept their replay (the run's replays: all," in page
    assert '"base":"viewer/"' in (folder / "game-1.html").read_text()
    assert (folder / "game-1.record.html").read_text().count("<h1>game 1") == 1


# ---------------------------------------------------------------- the viewer's files


def make_jar(path: Path, files: dict[str, str | bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as jar:
        for name, body in files.items():
            jar.writestr(name, body)
    return path


DRAWER_JS = (
    "export class Drawer { static get requirements () { return { PIXI: 'PIXI6' } } static get VERSION () { return 2 } }"
)


def test_a_jar_s_view_files_are_served_and_made_as_the_sdk_s_runner_would(tmp_path):
    jar = make_jar(
        tmp_path / "game.jar",
        {
            "view/core/Drawer.js": DRAWER_JS,
            "view/core/ErrorLog.js": "export const ErrorLog = {}",
            "view/lib/pixi6.js": "window.PIXI = {}",
            "view/config.js": "export const modules = []",
            "view/assets/font.fnt": '<font><info face="x"/><pages><page id="0" file="font.png"/></pages></font>',
            "view/assets/font.png": b"\x89PNG",
            "view/assets/sheet.json": json.dumps({"meta": {"image": "sheet.png"}}),
            "view/assets/sheet.png": b"\x89PNG",
            "view/assets/hero.png": b"\x89PNG",
            "view/ViewController.class": b"\xca\xfe",  # a game's Java package `view`
            "com/x/Referee.class": b"\xca\xfe",
        },
    )
    folder = tmp_path / "classes" / "view"
    folder.mkdir(parents=True)
    (folder / "config.js").write_text("export const modules = ['mine']")  # a folder's file wins
    files = viewer.ViewerFiles([str(jar), str(folder.parent)])
    assert files.info() == {
        "drawer": True,
        "pixi": "PIXI6",
        "pixiScript": "lib/pixi6.js",
        "drawerVersion": 2,
        "errorLog": True,
    }
    assert files.file("config.js", "/v/") == (b"export const modules = ['mine']", "text/javascript; charset=utf-8")
    assert files.file("assets/font.fnt", "/v/")[1] == "application/xml"  # PIXI reads it as an XML document
    for refused in ("ViewController.class", "../com/x/Referee.class", "../../etc/passwd", "nothing.js"):
        assert files.file(refused, "/v/") is None
    made = json.loads(files.file("assets.js", "/v/")[0].decode().removeprefix("export const assets = "))
    assert made == {
        "baseUrl": "/v/",
        "images": {"hero.png": "assets/hero.png"},
        "sprites": ["assets/sheet.json"],
        "fonts": ["assets/font.fnt"],
    }
    assert files.file("demo.js", "/v/")[0] == b"export const demo = null\n"
    key = files.key
    os.utime(jar, (1, 1))
    assert viewer.ViewerFiles([str(jar), str(folder.parent)]).key == key  # named by content, not time
    (folder / "config.js").write_text("export const modules = ['changed']")
    assert viewer.ViewerFiles([str(jar), str(folder.parent)]).key != key


def test_a_viewer_is_found_where_the_game_s_command_names_its_jar_or_where_it_says(tmp_path):
    def paths(**settings):
        return make({"protocol": "sdk", "cwd": str(tmp_path), **settings}).viewer_paths()

    jar = str(tmp_path / "g.jar")
    assert paths(command="g.jar") == [jar]
    assert paths(command="java -Xmx1g -jar g.jar") == [jar]
    assert paths(command=f"java -cp g.jar{os.pathsep}lib/x.jar Main") == [jar, str(tmp_path / "lib" / "x.jar")]
    assert paths(command="./run.sh") == []
    assert paths(command="./run.sh", viewer="build/classes") == [str(tmp_path / "build" / "classes")]
    assert make({"protocol": "cli", "command": "java -jar b.jar", "cwd": "/r"}).viewer_paths() == ["/r/b.jar"]
    with pytest.raises(GameError, match="sends no view frames"):
        make({"protocol": "relay", "command": "x", "viewer": "v.jar", "first_turn_ms": 1, "turn_ms": 1})
    with pytest.raises(GameError, match="viewer"):
        make({"protocol": "sdk", "command": "x", "viewer": 3})


def test_a_viewer_without_a_drawer_or_its_pixi_is_no_viewer(tmp_path):
    views = viewer.Viewers()
    assert views.of([]) is None
    assert views.of([str(make_jar(tmp_path / "a.jar", {"view/config.js": ""}))]) is None
    assert views.of([str(make_jar(tmp_path / "b.jar", {"view/core/Drawer.js": DRAWER_JS}))]) is None  # no PIXI 6
    assert views.of([str(tmp_path / "missing.jar")]) is None
    found = views.of([str(VIEWER)])
    assert found is not None and views.file(found.key, "core/Drawer.js")[0].startswith(b"// A stand-in")
    assert views.file("nokey", "core/Drawer.js") is None


def test_a_stored_replay_is_gzipped_json():
    blob, raw = replays.pack(frames_of(2))
    assert json.loads(gzip.decompress(blob)) == {"format": 1, "frames": frames_of(2)} and raw > len(blob)


def test_a_volcanoes_game_forfeited_has_its_forfeit_in_its_replay(tmp_path, capsys):
    """Rebuilt from the moves alone, the forfeited turn was missing (`arena analyse --db` never saw
    it), a game forfeited on its first turn had no replay at all, and no turn had its stderr."""
    from arena.games.volcanoes.game import VolcanoesGame

    bot = tmp_path / "bad.py"
    bot.write_text(
        "import sys\nn = int(input())\nfor _ in range(n): input()\n"
        "input(); input()\nprint('thinking', file=sys.stderr, flush=True)\nprint('ZZZ', flush=True)\n"
    )
    db = tmp_path / "v.sqlite"
    args = ["match", f"bad={sys.executable} {bot}", "random", "--pairs", "1", "--workers", "1", "--quiet"]
    assert main([*args, "--db", str(db)]) == 0
    store = Store.open(db, readonly=True)
    games = store.games()
    store.close()
    for record in games:  # blue's and orange's first turn, each an invalid move
        log = VolcanoesGame().replay(record)["turn_log"]
        seat = record["seats"].index("bad")
        assert log[-1].pop("time_ms") >= 0  # it answered (ZZZ), in time
        assert log[-1] == {
            "turn": record["turns"],
            "actor": ("blue", "orange")[seat],
            "move": None,
            "levels": [],
            "dormant": [],
            "stderr": "thinking\n",
        }
    first = next(g for g in games if g["turns"] == 1)  # forfeited before any move
    assert main(["replay", str(db), str(first["id"]), "-o", str(tmp_path / "page")]) == 0
