"""No command writes over its input, and every file written over an existing one is written whole
or not at all (referee/platform/files.py): checked on a full disk (a small tmpfs) where the machine allows."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys

import pytest

from referee.platform.errors import UserError
from referee.platform.files import files_named, refuse_overwriting, same_file, usable_folder, write_atomic
from tests.reliability.commands import ROOT, a_replay, one_line, run

# ---------------------------------------------------------------- the helpers


def test_write_atomic_replaces_a_file_keeping_its_permissions_and_links(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old")
    target.chmod(0o640)
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    write_atomic(link, "new")
    assert target.read_text() == "new" and link.is_symlink()
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    write_atomic(tmp_path / "bytes.bin", b"\0\1")
    assert (tmp_path / "bytes.bin").read_bytes() == b"\0\1"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bytes.bin", "link.txt", "out.txt"]


def test_write_atomic_over_a_folder_fails_and_leaves_nothing(tmp_path):
    (tmp_path / "folder").mkdir()
    with pytest.raises(OSError):
        write_atomic(tmp_path / "folder", "text")
    assert [p.name for p in tmp_path.iterdir()] == ["folder"]


def test_write_atomic_on_a_full_disk_leaves_the_old_file_whole(small_disk):
    target = small_disk.filled_beside("game.json", "the old game")
    with pytest.raises(OSError):
        write_atomic(target, "x" * 100_000)
    assert small_disk.left_alone(target, "the old game")
    small_disk.free()
    write_atomic(target, "x" * 100_000)
    assert target.read_text() == "x" * 100_000


def test_same_file_sees_through_names_and_links(tmp_path):
    a = tmp_path / "a.json"
    a.write_text("{}")
    (tmp_path / "hard.json").hardlink_to(a)
    (tmp_path / "soft.json").symlink_to(a)
    for name in ("hard.json", "soft.json", "./a.json"):
        assert same_file(tmp_path / name, a)
    assert same_file(tmp_path / "new" / ".." / "x", tmp_path / "x")  # neither exists: by path
    assert not same_file(tmp_path / "b.json", a)
    with pytest.raises(UserError, match="is an input"):
        refuse_overwriting(tmp_path / "soft.json", tmp_path / "other", a)
    refuse_overwriting(tmp_path / "b.json", a)


def test_usable_folder_says_why_not(tmp_path):
    (tmp_path / "file").write_text("")
    assert usable_folder(tmp_path / "new" / "deep", "the cache").is_dir()
    with pytest.raises(UserError, match="it is a file, not a folder"):
        usable_folder(tmp_path / "file", "the cache")
    with pytest.raises(UserError, match="Not a directory"):
        usable_folder(tmp_path / "file" / "below", "the cache")


# ---------------------------------------------------------------- the commands


@pytest.fixture
def replay(tmp_path):
    path = tmp_path / "g.json"
    path.write_text(json.dumps(a_replay()))
    return path


@pytest.mark.parametrize("name", ["g.json", "./g.json", "hard.json", "soft.json"])
def test_view_refuses_to_write_over_its_replay(replay, name):
    (replay.parent / "hard.json").hardlink_to(replay)
    (replay.parent / "soft.json").symlink_to(replay)
    before = replay.read_text()
    done = run("referee.cli", "volcanoes", "view", str(replay), "-o", name, cwd=replay.parent)
    one_line(done, "referee volcanoes view", "is an input")
    assert replay.read_text() == before


BOT = "python -S -c \"import sys\nfor line in sys.stdin:\n  print('RANDOM', flush=True)\""
# Commands that write a file over an old one: the file's name, the command given the file (and a
# replay to read), its name in messages, and what it says.
WRITERS = {
    "view": (
        "g.html",
        lambda old, replay: ("referee.cli", "volcanoes", "view", str(replay), "-o", str(old)),
        "referee volcanoes view",
        "cannot write {old}",
    ),
    "play": (
        "r.json",
        lambda old, replay: ("referee.cli", "volcanoes", "play", BOT, BOT, "--turn-ms", "1000", "--replay", str(old)),
        "referee volcanoes play",
        "cannot write the replay",
    ),
    "bundle": (
        "bundle.py",
        lambda old, replay: ("arena.cli", "bundle", "random", "-o", str(old)),
        "arena bundle",
        "cannot write {old}",
    ),
}


# What an earlier run of each left (a command writes over a file of its own kind only).
EARLIER = {
    "g.html": "<!DOCTYPE html><title>the old page</title>",
    "r.json": '{"turn_log": [], "old": true}',
    "bundle.py": "# A CodinGame submission made by `arena bundle` from an old bot\n",
}


@pytest.mark.parametrize("command", WRITERS)
def test_a_command_on_a_full_disk_leaves_the_old_file(command, replay, small_disk):
    name, argv, prog, says = WRITERS[command]
    earlier = EARLIER.get(name, f"the old {name}")
    old = small_disk.filled_beside(name, earlier)
    done = run(*argv(old, replay))
    one_line(done, prog, says.format(old=old), "No space left")
    assert small_disk.left_alone(old, earlier)


def refuses_to_write_over(file, content: bytes, prog: str, *argv: str) -> None:
    """Command `argv` (`prog` in its messages), told to write over its input `file`, which is made to
    hold `content`: it refuses in one line, and leaves `file` as it was."""
    file.write_bytes(content)
    one_line(run(*argv), prog, "is an input")
    assert file.read_bytes() == content


def test_stormyseas_show_refuses_to_write_its_svg_over_its_cards(tmp_path):
    cards = tmp_path / "cards.txt"
    args = ("referee.cli", "stormyseas", "show", str(cards), "--svg", str(cards))
    refuses_to_write_over(cards, b"not even cards", "referee stormyseas show", *args)


def test_analyse_writes_over_its_replay_whole_or_not_at_all(small_disk):
    from arena import analyse
    from arena.errors import UsageError

    original = json.dumps(a_replay())
    target = small_disk.filled_beside("g.json", original)
    analysed = {**json.loads(original), "padding": "x" * 300_000}
    with pytest.raises(UsageError, match="No space left"):
        analyse._write(target, analysed)
    assert small_disk.left_alone(target, original)


def test_analyse_blames_the_page_when_the_page_cannot_be_written(replay):
    replay.with_suffix(".html").mkdir()
    done = run("arena.cli", "analyse", str(replay), "--quiet")
    one_line(done, "arena analyse", f"cannot write the page {replay.with_suffix('.html')}: it is a folder")


def test_analyse_refuses_a_replay_whose_page_would_be_itself(replay):
    named_html = replay.with_suffix(".html")
    replay.rename(named_html)
    before = named_html.read_text()
    done = run("arena.cli", "analyse", str(named_html), "--quiet")
    one_line(done, "arena analyse", "is an input")
    assert named_html.read_text() == before


def test_bundle_refuses_to_write_over_a_module_it_bundles(tmp_path):
    source = ROOT / "bots" / "volcanoes" / "pure" / "random.py"
    before = source.read_bytes()
    try:
        done = run("arena.cli", "bundle", "random", "-o", os.path.relpath(source, tmp_path), cwd=tmp_path)
        one_line(done, "arena bundle", "is an input")
    finally:
        if source.read_bytes() != before:  # the test failed: the project's file comes back all the same
            source.write_bytes(before)


def test_bench_refuses_to_save_over_the_baseline_it_compares_with(tmp_path):
    baseline = tmp_path / "base.json"
    args = ("arena.cli", "bench", "--save", str(baseline), "--compare", str(baseline))
    refuses_to_write_over(baseline, b"{}", "arena bench", *args)


def test_report_refuses_to_write_its_page_over_the_database(arena_run, tmp_path):
    db = tmp_path / "run.sqlite"
    refuses_to_write_over(db, arena_run.read_bytes(), "arena report", "arena.cli", "report", str(db), "-o", str(db))


BOT_FILE = b"import sys\nfor line in sys.stdin:\n    print('RANDOM', flush=True)\n"


def test_play_refuses_to_write_its_replay_over_a_bot_s_file(tmp_path):
    bot = tmp_path / "bot.py"
    args = ("referee.cli", "volcanoes", "play", f"python3 {bot}", "python3 -m bots.volcanoes.random")
    refuses_to_write_over(bot, BOT_FILE, "referee volcanoes play", *args, "--replay", str(bot))


def test_brutaltester_s_mode_refuses_to_write_its_log_over_a_bot_s_file(tmp_path):
    bot = tmp_path / "bot.py"
    args = ("referee.cli", "volcanoes", "-p1", f"python3 {bot}", "-p2", "python3 -m bots.volcanoes.random")
    refuses_to_write_over(bot, BOT_FILE, "referee volcanoes", *args, "-seed", "3", "-l", str(bot))


@pytest.mark.parametrize("option", ["--record", "--save"])
def test_bench_refuses_to_write_over_the_file_of_the_bot_it_times(option, tmp_path):
    bot = tmp_path / "bot.py"
    refuses_to_write_over(bot, BOT_FILE, "arena bench", "arena.cli", "bench", "--bot", str(bot), option, str(bot))
    args = ("arena.cli", "bench", "--bot", f"python3 {bot}", "--quick", option, str(bot))
    refuses_to_write_over(bot, BOT_FILE, "arena bench", *args)


def test_bundle_refuses_to_write_over_the_opponent_of_its_check(tmp_path):
    opponent = tmp_path / "opponent.py"
    args = ("arena.cli", "bundle", "random", "-o", str(opponent), "--check", "1", "--opponent", f"python3 {opponent}")
    refuses_to_write_over(opponent, BOT_FILE, "arena bundle", *args)


def test_files_named_are_a_spec_s_files_whole_or_word_by_word(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("bot.py", "my bot.py", "weights.bin"):
        (tmp_path / name).write_text("x")
    specs = ["python3 bot.py --weights weights.bin", "my bot.py", "greedy", None, "python3 'unbalanced"]
    assert files_named(*specs) == ["bot.py", "weights.bin", "my bot.py"]
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.py").write_text("x")
    assert files_named("env -C sub python3 b.py", "env --chdir=sub python3 b.py") == ["sub/b.py", "sub/b.py"]
    (tmp_path / "sub" / "__init__.py").write_text("")
    assert files_named("python3 -m sub.b") == ["sub/b.py"]  # as the docs write a bot (it was written over)


@pytest.mark.parametrize(
    "replay,said",
    [
        ("/nonexistent/x.json", "cannot write /nonexistent/x.json: its folder /nonexistent does not exist"),
        ("", "--replay needs a file name"),
        (".", "--replay . is a folder"),
    ],
)
def test_a_replay_that_cannot_be_written_is_refused_before_the_game(replay, said, tmp_path):
    """Found at the game's end, the mistake cost the game's result (nothing printed); an empty
    name wrote no replay, saying nothing."""
    done = run("referee.cli", "volcanoes", "play", "python3 -c pass", "python3 -c pass", "--replay", replay)
    one_line(done, "referee volcanoes play", said)


@pytest.mark.parametrize("option", ["--save", "--record"])
def test_bench_refuses_to_replace_a_file_that_is_not_its_own_output(option, tmp_path):
    """`--record _common.py` replaced the module the timed bot imports: named by no command line, it
    was no input of the command; only an output of the same kind (an earlier run's) is replaced."""
    module = tmp_path / "_common.py"
    module.write_text("def helper():\n    return 42\n")
    bot = f"python3 {tmp_path / 'bot.py'}"
    extra = ["--bot", bot, "--referee", "python -m tests.games.pebbles.sdk_referee", "--protocol", "sdk"]
    done = run("arena.cli", "bench", *(extra if option == "--record" else ["--only", "pure"]), option, str(module))
    one_line(done, "arena bench", f"{module} holds something else than")
    assert module.read_text() == "def helper():\n    return 42\n"


HELPER = b"def pick(moves):\n    return moves[0]\n"  # a bot's module, named by no command line


@pytest.mark.parametrize(
    "command",
    [
        ("referee volcanoes play", "referee.cli", "volcanoes", "play", "RANDOM", "RANDOM", "--replay", "OUT"),
        ("referee volcanoes view", "referee.cli", "volcanoes", "view", "REPLAY", "-o", "OUT"),
        ("arena report", "arena.cli", "report", "RUN", "-o", "OUT"),
        ("arena report", "arena.cli", "report", "RUN", "--json", "OUT"),
        ("arena report", "arena.cli", "report", "RUN", "--csv", "OUT"),
        ("arena bundle", "arena.cli", "bundle", "random", "-o", "OUT"),
        ("referee iqtwist show", "referee.cli", "iqtwist", "show", "a7A7b6A7i6B0j2B0", "--svg", "OUT"),
        ("referee vikings show", "referee.cli", "vikings", "show", "O1O0O1N1N2N2N3N3N3BuGcRjYk", "--svg", "OUT"),
    ],
)
def test_an_output_over_a_file_of_another_kind_is_refused(command, arena_run, tmp_path):
    """`--replay helper.py`, `-o helper.py`: a bot's module that no command line names was replaced
    by a replay or a page, exit 0."""
    prog, *argv = command
    helper, replay = tmp_path / "helper.py", tmp_path / "game.json"
    helper.write_bytes(HELPER)
    replay.write_text(json.dumps(a_replay()))
    bot = tmp_path / "bot.py"
    bot.write_bytes(BOT_FILE)
    given = {"OUT": str(helper), "RUN": str(arena_run), "REPLAY": str(replay), "RANDOM": f"python3 {bot}"}
    one_line(run(*[given.get(word, word) for word in argv]), prog, f"{helper} holds something else than")
    assert helper.read_bytes() == HELPER


@pytest.mark.parametrize("name", ["game-2.html", "game-1.frames.json.gz", "game-99.html"])
def test_report_refuses_to_replace_a_file_of_another_kind_in_its_games_folder(name, arena_run, tmp_path):
    """A user's report_games/game-2.html (a bot's module) was replaced by a game's page, and one of a
    game the run has not (game-99.html) removed as another report's, exit 0: only the page itself
    was checked. Nothing is written where one is refused."""
    folder = tmp_path / "report_games"
    folder.mkdir()
    (folder / name).write_bytes(HELPER)
    done = run("arena.cli", "report", str(arena_run), "-o", str(tmp_path / "report.html"))
    one_line(done, "arena report", f"{folder / name} holds something else than a game's")
    assert sorted(p.name for p in tmp_path.rglob("*")) == sorted(["report_games", name])
    assert (folder / name).read_bytes() == HELPER


def test_replay_writes_no_file_of_its_folder_over_the_database_nor_another_kind(arena_run, tmp_path):
    """A link in the folder to the run's database: `arena replay` wrote the page through it, and the
    run was lost (`... is not an arena database`)."""
    db = tmp_path / "run.sqlite"
    db.write_bytes(arena_run.read_bytes())
    out = tmp_path / "out"
    out.mkdir()
    (out / "index.html").symlink_to(db)
    one_line(run("arena.cli", "replay", str(db), "1", "-o", str(out)), "arena replay", "is an input")
    assert db.read_bytes() == arena_run.read_bytes()
    (out / "index.html").unlink()
    (out / "record.html").write_bytes(HELPER)
    one_line(run("arena.cli", "replay", str(db), "1", "-o", str(out)), "arena replay", "holds something else than")
    assert (out / "record.html").read_bytes() == HELPER


def test_replay_to_an_empty_name_or_a_closed_folder_is_one_line(arena_run, tmp_path):
    """`-o "$UNSET"` wrote into the current folder, over its index.html; a folder closed to the user
    ended in a traceback."""
    (tmp_path / "index.html").write_text("my own page")
    done = run("arena.cli", "replay", str(arena_run), "1", "-o", "", cwd=tmp_path)
    one_line(done, "arena replay", "-o/--output: is empty")
    assert (tmp_path / "index.html").read_text() == "my own page"
    (tmp_path / "game.json").write_text(json.dumps(a_replay()))  # (`view -o ""` wrote game.html, exit 0)
    done = run("referee.cli", "volcanoes", "view", "game.json", "-o", "", cwd=tmp_path)
    one_line(done, "referee volcanoes view", "-o/--output: is empty")
    assert not (tmp_path / "game.html").exists()
    closed = tmp_path / "closed"
    closed.mkdir(mode=0o555)
    as_a_user = []  # (root writes in a folder closed to others: as root, without that power)
    if os.geteuid() == 0:
        if not shutil.which("setpriv"):
            pytest.skip("root writes in a folder closed to others, and setpriv is missing to drop that power")
        as_a_user = ["setpriv", "--inh-caps=-dac_override", "--bounding-set=-dac_override"]
    argv = [*as_a_user, sys.executable, "-m", "arena.cli", "replay", str(arena_run), "1", "-o", str(closed)]
    done = subprocess.run(
        argv, capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)}
    )
    one_line(done, "arena replay", f"cannot write {closed}: ")  # (the folder, not the mark in it)
