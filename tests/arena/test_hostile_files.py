"""Files that are not what `arena` expects: garbage, truncated, foreign and newer-schema databases, a
read-only place, two runs created on one file at once. Each gets one line and exit status 2, and a
file that is only read is byte-identical afterwards."""

import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from arena.cli import main
from arena.errors import UsageError
from arena.games.volcanoes.game import VolcanoesGame
from arena.players import registry as arena_players
from arena.play.store import Store, StoreError

ROOT = Path(__file__).resolve().parents[2]


def resolve_all(texts):
    return arena_players.resolve_all(texts, VolcanoesGame())


@pytest.fixture(scope="module")
def real_db(play_match):
    return play_match("random", "boss", pairs=2, seed=1)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _sqlite(path: Path, *statements: str) -> Path:
    db = sqlite3.connect(path)
    for statement in statements:
        db.execute(statement)
    db.commit()
    db.close()
    return path


def _bad_files(real_db: Path, folder: Path) -> dict[str, tuple[Path, str]]:
    """name -> (file, what the one line must say)."""
    garbage = folder / "garbage.sqlite"
    garbage.write_bytes(bytes(range(256)) * 40)
    truncated = folder / "truncated.sqlite"
    truncated.write_bytes(real_db.read_bytes()[:3000])
    empty = folder / "empty.sqlite"
    empty.write_bytes(b"")
    foreign = _sqlite(folder / "foreign.sqlite", "CREATE TABLE t (x)", "INSERT INTO t VALUES (1)")
    lookalike = _sqlite(
        folder / "lookalike.sqlite",
        "CREATE TABLE run (k, v)",
        "CREATE TABLE players (x)",
        "CREATE TABLE games (x)",
        "INSERT INTO run VALUES ('config', '{}')",
    )
    newer = folder / "newer.sqlite"
    shutil.copy(real_db, newer)
    _sqlite(newer, "UPDATE run SET value = '7' WHERE key = 'schema'")
    damaged = folder / "damaged.sqlite"  # bytes of one game's record overwritten: a traceback everywhere
    shutil.copy(real_db, damaged)
    _sqlite(damaged, "UPDATE games SET ranks = '[#, 1]' WHERE id = 2")
    misshapen = folder / "misshapen.sqlite"  # JSON still, but no game's: a KeyError in the ratings
    shutil.copy(real_db, misshapen)
    _sqlite(misshapen, """UPDATE games SET seats = '["#%{dom", "boss"]' WHERE id = 2""")
    return {
        "damaged": (damaged, "game 2 cannot be read: the file is damaged"),
        "misshapen": (misshapen, "game 2 cannot be read: its seats are not players of the run"),
        "garbage": (garbage, "is not an arena database"),
        "truncated": (truncated, "is not an arena database"),
        "empty": (empty, "is not an arena database"),
        "foreign": (foreign, "is not an arena database"),
        "lookalike": (lookalike, "is not an arena database"),
        "newer": (newer, "newer arena (schema 7"),
    }


@pytest.mark.parametrize(
    "name", ["damaged", "misshapen", "garbage", "truncated", "empty", "foreign", "lookalike", "newer"]
)
@pytest.mark.parametrize("command", ["report", "resume"])
def test_a_file_that_is_not_an_arena_database_gets_one_line_and_stays_as_it_was(
    name, command, real_db, tmp_path, capsys
):
    path, reason = _bad_files(real_db, tmp_path)[name]
    before = digest(path)
    argv = ["report", str(path)] if command == "report" else ["match", "--resume", "--db", str(path), "--quiet"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and reason in err, err
    assert digest(path) == before


def test_a_report_reads_a_run_without_changing_it(real_db, capsys):
    before = digest(real_db)
    assert main(["report", str(real_db)]) == 0
    assert "random vs boss" in capsys.readouterr().out
    assert digest(real_db) == before


def _read_only(folder: Path, command: list[str]) -> subprocess.CompletedProcess:
    """`command` run with `folder` read-only: by permissions, or for root (whom permissions do not
    stop) in a mount namespace of its own where the folder is a read-only bind mount."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            return subprocess.run(command, capture_output=True, text=True, timeout=120, env=env, cwd=ROOT)
        finally:
            folder.chmod(0o755)
    if not shutil.which("unshare"):
        pytest.skip("root, and no unshare to make a read-only place")
    script = f'mount --bind "{folder}" "{folder}" && mount -o remount,bind,ro "{folder}" && exec "$@"'
    done = subprocess.run(
        ["unshare", "-m", "sh", "-c", script, "sh", *command],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=ROOT,
    )
    if "mount" in done.stderr and "arena" not in done.stderr:
        pytest.skip(f"cannot make a read-only mount here: {done.stderr.strip()}")
    return done


def test_a_read_only_place(real_db, tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    shutil.copy(real_db, folder / "run.sqlite")
    (folder / "garbage.sqlite").write_bytes(b"\x00garbage" * 500)
    arena = [sys.executable, "-m", "arena.cli"]
    before = digest(folder / "run.sqlite")

    done = _read_only(folder, arena + ["report", str(folder / "run.sqlite")])
    assert done.returncode == 0 and "random vs boss" in done.stdout, done.stderr
    for argv, reason in [
        (["report", str(folder / "garbage.sqlite")], "is not an arena database"),
        (["report", str(folder / "run.sqlite"), "-o", str(folder / "r.html")], "Read-only file system"),
        (["match", "random", "boss", "--db", str(folder / "new.sqlite"), "--quiet"], "cannot create the database"),
        (["match", "--resume", "--db", str(folder / "run.sqlite"), "--quiet"], "cannot write to"),
    ]:
        done = _read_only(folder, arena + argv)
        assert done.returncode == 2, (argv, done.stderr)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and reason in lines[0], (argv, done.stderr)
    assert digest(folder / "run.sqlite") == before


def test_two_runs_created_on_one_file_at_once(tmp_path):
    players = resolve_all(["random", "boss"])
    config = {"command": "match", "game": {"protocol": "volcanoes"}, "lineups": [["random", "boss"]], "units": 1}
    config["seed"] = 1
    path = tmp_path / "same.sqlite"
    start = threading.Barrier(8)
    outcomes = []

    def create():
        start.wait()
        try:
            Store.create(path, config, players).close()
            outcomes.append("created")
        except StoreError as exc:
            outcomes.append(str(exc))

    threads = [threading.Thread(target=create) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(outcomes) == 8 and outcomes.count("created") == 1
    assert all("exists" in o for o in outcomes if o != "created")
    store = Store.open(path, readonly=True)
    assert store.config == config and store.players() == players
    store.close()


def test_user_errors_are_typed_and_bugs_show_a_traceback(monkeypatch, capsys):
    assert main(["sprt", "random", "boss", "--alpha", "1.5"]) == 2
    assert "--alpha must lie strictly between 0 and 1" in capsys.readouterr().err
    for value in ("-1", "inf", "nan", "1e400"):
        with pytest.raises(SystemExit) as exited:  # argparse's own way out, with the one line
            main(["match", "random", "boss", "--turn-ms", value])
        assert exited.value.code == 2
        assert "argument --turn-ms: must be" in capsys.readouterr().err
    assert main(["match", 'python "x', "random"]) == 2
    assert "cannot split it as a command line" in capsys.readouterr().err
    assert issubclass(StoreError, UsageError)

    def bug(*args, **kwargs):
        raise ValueError("a bug of ours")

    monkeypatch.setattr("arena.players.registry.resolve_all", bug)
    with pytest.raises(ValueError, match="a bug of ours"):  # not a one-line "user error"
        main(["match", "random", "boss", "--quiet"])


def test_a_player_label_with_markup_cannot_break_the_report_or_its_replays(real_db, tmp_path):
    from arena.web import report_page as report_html

    payload = "<!--<script>x</script>"
    store = Store.open(real_db, readonly=True)
    config, labels, games = store.config, [p.label for p in store.players()], store.games()
    store.close()

    def swap(label):
        return payload if label == "random" else label

    labels = [swap(label) for label in labels]
    config = {
        **config,
        "players": [swap(p) for p in config["players"]],
        "lineups": [[swap(p) for p in lineup] for lineup in config["lineups"]],
    }
    games = [{**g, **{k: [swap(p) for p in g[k]] for k in ("lineup", "seats")}} for g in games]
    folder = report_html.write(config, labels, games, tmp_path / "report.html").folder
    pages = [tmp_path / "report.html", *sorted(folder.glob("*.html"))]
    assert len(pages) == 1 + 2 * len(games)  # (the report, and each game's page and its record's)
    for page in pages:
        text = page.read_text()
        assert "<!--" not in text and text.count("<script") == text.count("</script>") <= 2, page


def test_a_git_error_says_what_git_said(tmp_path):
    from arena.players.base import PlayerError

    if subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True).returncode:
        pytest.skip("not a git checkout")
    with pytest.raises(PlayerError) as caught:
        arena_players.resolve("random@no-such-revision", VolcanoesGame(), tmp_path)
    said = str(caught.value).split("^{commit}:", 1)[1].strip()
    assert said, "git's own message is missing"
