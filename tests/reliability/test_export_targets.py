"""Outputs pointed at what is no plain file: a device node, a FIFO, a descriptor of the command's own,
a symbolic link, a file of restricted permissions. Each is written to, as a shell's `>` would, never
replaced (a rename over /dev/full, as root, replaced the machine's device with a CSV file): one
mechanism, `referee.platform.files.write_atomic`, for every output."""

from __future__ import annotations

import os
import stat
import threading

import pytest

from tests.reliability.commands import one_line, run


def report(db, *outputs: str, cwd=None):
    return run("arena.cli", "report", str(db), *outputs, cwd=cwd)


def device(path, major: int, minor: int):
    """A character device node at `path` (1,3 is null; 1,7 is full): root only."""
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(major, minor))
    except PermissionError:
        pytest.skip("making a device node needs root")
    return path


@pytest.mark.parametrize("option", ["--csv", "--json"])
def test_an_export_to_a_full_device_says_so_and_leaves_the_device(arena_run, tmp_path, option):
    full = device(tmp_path / "full", 1, 7)
    one_line(report(arena_run, option, str(full)), "arena report", "No space left on device")
    assert stat.S_ISCHR(full.stat().st_mode)
    assert os.listdir(tmp_path) == ["full"]


def test_an_export_to_a_null_device_is_written_to_it(arena_run, tmp_path):
    null = device(tmp_path / "null", 1, 3)
    done = report(arena_run, "--csv", str(null))
    assert done.returncode == 0, done.stderr
    assert stat.S_ISCHR(null.stat().st_mode) and os.listdir(tmp_path) == ["null"]


def test_an_export_to_a_fifo_goes_to_its_reader(arena_run, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()), daemon=True)
    reader.start()
    done = report(arena_run, "--csv", str(fifo))
    if done.returncode != 0:  # the reader waits for a writer: end it
        with open(fifo, "w"):
            pass
    reader.join(10)
    assert done.returncode == 0, done.stderr
    assert got and got[0].startswith("rank,label,elo"), got
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_an_export_to_the_commands_own_stdout_is_printed(arena_run):
    done = report(arena_run, "--json", "/proc/self/fd/1")
    assert done.returncode == 0, done.stderr
    assert '"players"' in done.stdout


def test_an_export_through_a_link_keeps_the_link_and_the_files_permissions(arena_run, tmp_path):
    target = tmp_path / "ratings.csv"
    target.write_text("rank,label\n1,old\n")  # (an earlier export: a file of another kind is refused)
    target.chmod(0o600)
    link = tmp_path / "latest.csv"
    link.symlink_to(target.name)
    assert report(arena_run, "--csv", str(link)).returncode == 0
    assert link.is_symlink() and os.readlink(link) == target.name
    assert target.read_text().startswith("rank,label,elo")
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


@pytest.mark.parametrize(
    "first,second",
    [("--csv", "--json"), ("-o", "--csv"), ("-o", "--json")],
)
def test_two_outputs_to_one_file_are_refused(arena_run, tmp_path, first, second):
    out = tmp_path / "out"
    (tmp_path / "link").symlink_to("out")
    line = one_line(report(arena_run, first, str(out), second, str(tmp_path / "link")), "arena report")
    assert first in line and second in line and "the same file" in line
    assert os.listdir(tmp_path) == ["link"]


def test_bundle_to_a_fifo_goes_to_its_reader(tmp_path):
    from tests.games.pebbles.harness import BOTS

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()), daemon=True)
    reader.start()
    done = run("arena.cli", "bundle", str(BOTS / "greedy.py"), "-o", str(fifo))
    if done.returncode != 0:
        with open(fifo, "w"):
            pass
    reader.join(10)
    assert done.returncode == 0, done.stderr
    assert got and "def " in got[0]
    assert stat.S_ISFIFO(fifo.stat().st_mode)


@pytest.mark.parametrize("option", ["--csv", "--json"])
def test_an_export_into_a_new_folder_makes_it_and_an_empty_name_is_refused(arena_run, tmp_path, option):
    """`--csv newdir/r.csv` failed with "cannot write the export: No such file or directory", naming
    no file, after the whole report; `-o` made its folder. `--csv ''` wrote nothing, saying nothing."""
    target = tmp_path / "new" / "folder" / "export"
    assert report(arena_run, option, str(target)).returncode == 0 and target.is_file()
    one_line(report(arena_run, option, ""), "arena report", f"{option} needs a file name")


def test_a_report_written_where_another_was_leaves_only_its_own_game_pages(tmp_path):
    """Another run's report written there first left its games' pages beside this one's, unlinked,
    titled with the other run's players; a writer killed there left its temporary files for good."""
    from arena.cli import main

    for name, pairs in (("big", "3"), ("small", "1")):
        argv = ["match", "greedy", "random", "--pairs", pairs, "--workers", "1", "--quiet", "--turn-ms", "1000"]
        assert main([*argv, "--db", str(tmp_path / f"{name}.sqlite")]) == 0
    page = tmp_path / "out" / "r.html"
    page.parent.mkdir()
    assert main(["report", str(tmp_path / "big.sqlite"), "-o", str(page)]) == 0
    folder = tmp_path / "out" / "r_games"
    pages = {f"game-{n}.{kind}html" for n in range(1, 7) for kind in ("", "record.")}  # (a page and its record)
    assert {p.name for p in folder.iterdir()} == pages | {".arena-output"}
    (folder / ".game-9.html.0123abcd.part").write_text("half")
    assert main(["report", str(tmp_path / "small.sqlite"), "-o", str(page)]) == 0
    kept = {name for name in pages if name.startswith(("game-1.", "game-2."))}
    assert {p.name for p in folder.iterdir()} == kept | {".arena-output"}
