"""`arena replay` of a game whose viewer cannot be read: each cause said in one line that names the
path and what to do (arena/web/viewer.py). A mistyped --viewer, a file that is not a jar and a jar
without a viewer were all blamed on the referee, and answered "give one with --viewer"."""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

import pytest

from arena.cli import main
from tests.games.pebbles.harness import BOTS, ROOT

VIEWER = ROOT / "tests" / "games" / "pebbles" / "viewer"
REFEREE = f"{sys.executable} -m tests.games.pebbles.sdk_referee"


def pebbles_jar(path: Path, with_viewer: bool = True) -> Path:
    """A jar holding the stand-in viewer of Pebbles (or only a class, as a library's jar)."""
    with zipfile.ZipFile(path, "w") as jar:
        jar.writestr("com/example/Lib.class", b"\xca\xfe\xba\xbe")
        for file in sorted((VIEWER / "view").rglob("*")) if with_viewer else ():
            if file.is_file():
                jar.write(file, file.relative_to(VIEWER).as_posix())
    return path


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A run of Pebbles whose viewer is a jar of its own, `game.jar` beside its database."""
    folder = tmp_path_factory.mktemp("mistakes")
    jar = pebbles_jar(folder / "game.jar")
    db = folder / "run.sqlite"
    argv = ["match", *(f"{bot}={sys.executable} {BOTS / (bot + '.py')}" for bot in ("first", "greedy"))]
    argv += ["--referee", REFEREE, "--protocol", "sdk", "--viewer", str(jar), "--pairs", "1", "--seed", "2"]
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        assert main([*argv, "--workers", "1", "--quiet", "--db", str(db)]) == 0
    return db, jar


def refused(capsys, *argv: str) -> str:
    """The one line `arena replay ARGV` answers a user's mistake with."""
    capsys.readouterr()
    assert main(["replay", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    return err


def test_a_viewer_given_that_cannot_play_says_why(run, tmp_path, capsys):
    db, _ = run
    out = str(tmp_path / "out")
    typo = tmp_path / "gmae.jar"
    assert (
        refused(capsys, str(db), "1", "-o", out, "--viewer", str(typo))
        == f"arena replay: --viewer: no such file: {typo}"
    )
    text = tmp_path / "fake.jar"
    text.write_text("hello\n")
    err = refused(capsys, str(db), "1", "-o", out, "--viewer", str(text))
    assert err.startswith(f"arena replay: --viewer: {text} is not a jar (")
    library = pebbles_jar(tmp_path / "library.jar", with_viewer=False)
    err = refused(capsys, str(db), "1", "-o", out, "--viewer", str(library))
    assert err == f"arena replay: --viewer: {library} holds no viewer (view/core/Drawer.js)"
    assert not Path(out).exists()


def test_a_run_whose_own_viewer_is_gone_says_so_and_that_viewer_names_it(run, tmp_path, capsys):
    db, jar = run
    out = tmp_path / "out"
    moved = jar.rename(tmp_path / "moved.jar")
    try:
        err = refused(capsys, str(db), "1", "-o", str(out))
        assert err.startswith(f"arena replay: game 1's viewer is gone: no such file: {jar} (moved or deleted")
        assert "--viewer PATH says where it is now" in err
        assert main(["replay", str(db), "1", "-o", str(out), "--viewer", str(moved)]) == 0
        assert (out / "viewer" / "core" / "Drawer.js").is_file()
    finally:
        moved.rename(jar)


MINE = b"MY OWN DRAWER\n"


@pytest.mark.parametrize("name", ["frames.json.gz", "viewer/core/Drawer.js"])
def test_replay_refuses_to_replace_a_file_of_the_user_s_in_its_folder(run, tmp_path, capsys, name):
    """A user's frames.json.gz and viewer/core/Drawer.js in the folder were replaced, exit 0: only
    index.html and record.html were checked. Nothing is written where one is refused; the arena's
    own folder is written again."""
    db, _ = run
    out = tmp_path / "proj"
    (out / name).parent.mkdir(parents=True)
    (out / name).write_bytes(MINE)
    err = refused(capsys, str(db), "1", "-o", str(out))
    assert err.startswith(f"arena replay: {out / name} holds something else than a ")
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == [name]
    assert (out / name).read_bytes() == MINE
    (out / name).unlink()
    assert main(["replay", str(db), "1", "-o", str(out)]) == 0
    assert main(["replay", str(db), "2", "-o", str(out)]) == 0
    assert (out / "viewer" / "core" / "Drawer.js").read_bytes() == (VIEWER / "view" / "core" / "Drawer.js").read_bytes()


MY_PAGE = "<!DOCTYPE html>\n<html><head><title>my notes</title></head><body>my own page</body></html>\n"


def test_replay_and_report_refuse_to_replace_a_page_of_the_user_s(run, tmp_path, capsys):
    """A user's own index.html in the folder given to `arena replay -o`, and a user's game-1.html in a
    report's games folder, were replaced, exit 0: any HTML page was taken for a game's. Pages the arena
    wrote there carry its mark and are written again."""
    db, _ = run
    out = tmp_path / "site"
    out.mkdir()
    (out / "index.html").write_text(MY_PAGE)
    err = refused(capsys, str(db), "1", "-o", str(out))
    assert err == f"arena replay: {out / 'index.html'} holds something else than a game's page written by the " + (
        "arena: it will not write over it; name another output"
    )
    assert [p.name for p in out.iterdir()] == ["index.html"] and (out / "index.html").read_text() == MY_PAGE
    (out / "index.html").unlink()
    (out / "notes.txt").write_text("mine\n")  # (a folder of the user's, not marked as the arena's)
    for game in ("1", "2"):
        assert main(["replay", str(db), game, "-o", str(out)]) == 0
    page = tmp_path / "report_games" / "game-1.html"
    page.parent.mkdir()
    page.write_text(MY_PAGE)
    capsys.readouterr()
    assert main(["report", str(db), "-o", str(tmp_path / "report.html")]) == 2
    assert f"{page} holds something else than a game's page" in capsys.readouterr().err
    assert page.read_text() == MY_PAGE and not (tmp_path / "report.html").exists()
    page.unlink()
    (page.parent / "notes.txt").write_text("mine\n")
    for _ in range(2):
        assert main(["report", str(db), "-o", str(tmp_path / "report.html")]) == 0


def test_report_refuses_to_replace_a_file_of_the_user_s_in_its_games_viewer(run, tmp_path, capsys):
    """A user's report_games/viewer/core/Drawer.js was replaced by the viewer's, exit 0."""
    db, _ = run
    drawer = tmp_path / "report_games" / "viewer" / "core" / "Drawer.js"
    drawer.parent.mkdir(parents=True)
    drawer.write_bytes(MINE)
    capsys.readouterr()
    assert main(["report", str(db), "-o", str(tmp_path / "report.html")]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"arena report: {drawer} holds something else than a file of the game's viewer: it will not " + (
        "write over it; name another output"
    )
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == [drawer] and drawer.read_bytes() == MINE
    drawer.unlink()
    for _ in range(2):  # (its own viewer, written again)
        assert main(["report", str(db), "-o", str(tmp_path / "report.html")]) == 0


def test_the_commands_suggested_to_serve_a_folder_with_a_space_paste_whole(run, tmp_path, capsys):
    """`arena replay DB 1 -o "my games"` said `python -m http.server -d my games`, which fails pasted
    (the report's hint the same)."""
    db, _ = run
    folder = tmp_path / "my games"
    capsys.readouterr()
    assert main(["replay", str(db), "1", "-o", str(folder)]) == 0
    assert f"python -m http.server -d '{folder}', then open http://127.0.0.1:8000/" in capsys.readouterr().out
    assert main(["report", str(db), "-o", str(folder / "my report.html")]) == 0
    said = capsys.readouterr().out
    assert f"python -m http.server -d '{folder}', then open http://127.0.0.1:8000/my%20report.html" in said
