"""What travels with a run to a cluster's machines, without a cluster: the parcels (content-addressed,
the same bytes for the same content, fetched once per machine, refused when damaged), the paths of a
command moved to a machine's copies, what each kind of player and an external referee declare, the
absolute paths refused in one line unless the game declares them on every machine, and `run_jobs`
playing again the games of a machine that failed or was lost (tests/cluster/ runs all of it on a
simulated cluster)."""

from __future__ import annotations

import fcntl
import io
import os
import shlex
import sys
import threading
import time
from concurrent.futures import Future
from pathlib import Path

import pytest

from arena.errors import UsageError
from arena.games.base import GameError, Player
from arena.games.protocols import make
from arena.play import parcels, run
from arena.play.shipment import Shipment, arrive, moved, moved_place, travelling
from arena.play.parcels import MachineFailure, machine_name
from arena.play.schedule import Job
from arena.players.processes import Commands
from arena.stats.tables import failures_lines
from referee.platform.bot_commands import command_files

from tests.processes import foreign_program


def folder_with(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_the_same_content_is_the_same_parcel_wherever_and_whenever_it_lies(tmp_path):
    one = folder_with(tmp_path / "one", {"bot.py": "print(1)\n", "lib/_common.py": "x = 1\n"})
    two = folder_with(tmp_path / "two", {"lib/_common.py": "x = 1\n", "bot.py": "print(1)\n"})
    os.utime(two / "bot.py", (1, 1))
    assert parcels.pack(one)[0] == parcels.pack(two)[0]
    (two / "bot.py").write_text("print(2)\n")
    assert parcels.pack(one)[0] != parcels.pack(two)[0]


def test_what_a_run_never_needs_stays_behind(tmp_path):
    root = folder_with(
        tmp_path / "user",
        {
            "bot.py": "",
            ".git/config": "",
            "__pycache__/bot.cpython-311.pyc": "",
            "kernels/x.nbi": "",
            "arena-runs/match.sqlite": "",
            "run.sqlite-wal": "",
        },
    )
    assert [name for name, _ in parcels.contents(root)] == ["bot.py", "kernels"]


def test_a_parcel_is_fetched_once_by_a_machine_and_kept_whole(tmp_path):
    user = folder_with(tmp_path / "user", {"bot.sh": "#!/bin/sh\necho 0\n", "data/map.txt": "3 4\n"})
    (user / "bot.sh").chmod(0o755)
    store, fetched = {}, []

    def put(archive: bytes) -> str:
        store["ref"] = archive
        return "ref"

    def get(ref: str) -> bytes:
        fetched.append(ref)
        return store[ref]

    parcel = parcels.wrap(user, put)
    cache = tmp_path / "machine"
    copies = [parcels.unpack(parcel, get, cache) for _ in range(3)]
    assert fetched == ["ref"]  # once, then found in the machine's cache
    assert copies[0] == cache / parcel.digest and copies[0].name == parcel.digest
    assert (copies[0] / "data" / "map.txt").read_text() == "3 4\n"
    assert os.access(copies[0] / "bot.sh", os.X_OK)
    single = parcels.wrap(user / "data" / "map.txt", put)
    assert parcels.unpack(single, get, cache) == cache / single.digest / "map.txt"


def test_a_copy_no_run_used_for_a_month_leaves_the_machine_at_its_next_fetch(tmp_path):
    """The cache of a machine that plays for months does not grow without end; a copy in use, or
    used lately, stays."""
    store = {}

    def put(archive: bytes) -> str:
        store[len(store)] = archive
        return len(store) - 1

    cache = tmp_path / "machine"
    old, recent, busy, new = (
        parcels.wrap(folder_with(tmp_path / name, {"bot.py": f"# {name}\n"}), put)
        for name in ("old", "recent", "busy", "new")
    )
    for parcel in (old, recent, busy):
        parcels.unpack(parcel, store.__getitem__, cache)
    month_ago = time.time() - parcels.UNUSED_S - 3600
    for parcel in (old, recent, busy):
        os.utime(cache / parcel.digest, (month_ago, month_ago))
    parcels.unpack(recent, store.__getitem__, cache)  # used again: it stays
    leftover = cache / f".{'0' * parcels.DIGEST_CHARS}.part123"  # a fetch stopped midway, a day ago
    leftover.mkdir()
    os.utime(leftover, (month_ago, month_ago))
    with open(cache / f".{busy.digest}.lock") as lock:
        fcntl.flock(lock, fcntl.LOCK_SH)  # a worker unpacking it right now
        parcels.unpack(new, store.__getitem__, cache)  # the cache grows: what is stale goes
    assert sorted(p.name for p in cache.iterdir() if not p.name.startswith(".")) == sorted(
        [recent.digest, busy.digest, new.digest, "fetched.log"]
    )
    assert not leftover.exists()
    fetched = len((cache / "fetched.log").read_text().splitlines())
    assert (parcels.unpack(old, store.__getitem__, cache) / "bot.py").read_text() == "# old\n"
    assert len((cache / "fetched.log").read_text().splitlines()) == fetched + 1, "fetched again when needed"


def test_a_damaged_or_missing_parcel_is_the_machine_s_failure(tmp_path):
    user = folder_with(tmp_path / "user", {"bot.py": "print(1)\n"})
    parcel = parcels.wrap(user, lambda archive: "ref")
    with pytest.raises(MachineFailure, match="damaged"):
        parcels.unpack(parcel, lambda ref: b"other bytes", tmp_path / "machine")

    def lost(ref):
        raise ConnectionError("the object is lost")

    with pytest.raises(MachineFailure, match=f"could not fetch {user}.*the object is lost"):
        parcels.unpack(parcel, lost, tmp_path / "machine")
    assert not (tmp_path / "machine" / parcel.digest).exists()


def test_a_machine_that_cannot_start_a_player_s_program_fails_its_games_not_the_player(tmp_path, monkeypatch):
    """A build made on another processor or system: the machine that cannot start it cannot play,
    and says so; its games go to the other machines (a failure of the machine, not a crash of the bot)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    user = folder_with(tmp_path / "user", {"ref.py": ""})
    foreign = foreign_program(tmp_path / "bot")
    shipment = Shipment(referee_game(user, "python3 ref.py").config(), {"bot": player("bot", "file", str(foreign))}, ())
    with pytest.raises(
        MachineFailure, match=f"^{machine_name()} cannot play: bot cannot play: .*cannot start on this machine"
    ):
        arrive(shipment, ["bot"], get=None)


def test_a_folder_too_large_to_travel_is_refused_in_one_line(tmp_path, monkeypatch):
    user = folder_with(tmp_path / "user", {"big.bin": "x" * 5000})
    monkeypatch.setattr(parcels, "MAX_BYTES", 4096)
    with pytest.raises(UsageError, match=f"{user} holds 0.0 MiB, more than a run takes to a cluster"):
        parcels.check_weight(user)


def test_the_files_a_command_names_outside_its_folder(tmp_path):
    user = folder_with(tmp_path / "user", {"bot.py": "", "lib/x.py": ""})
    other = folder_with(tmp_path / "other", {"ref.jar": "", "bin/tool": ""})
    command = f"python3 bot.py ../other/ref.jar {other / 'bin' / 'tool'} lib/x.py -v"
    assert command_files(command, str(user)) == [other / "ref.jar", other / "bin" / "tool"]
    # A program is the machine's when named alone or by an absolute path; a relative one travels.
    assert command_files(f"{other / 'bin' / 'tool'} -x", str(user)) == []
    assert command_files("env K=2 ../other/bin/tool", str(user)) == [other / "bin" / "tool"]


def test_a_command_s_paths_move_to_a_machine_s_copies():
    places = {"/home/me/cg": "/cache/aa", "/home/me/lib/ref.jar": "/cache/bb/ref.jar", sys.executable: "/opt/py"}
    assert moved("python3 bot.py --fast", "/home/me/cg", places) == "python3 bot.py --fast"  # the same text
    assert moved("java -jar ../lib/ref.jar", "/home/me/cg", places) == "java -jar /cache/bb/ref.jar"
    assert moved("python3 ../cg/bot.py", "/home/me/cg", places) == "python3 bot.py"  # not by the folder's name
    assert moved(f"{sys.executable} /home/me/cg/x.py", None, places) == "/opt/py /cache/aa/x.py"
    assert moved("java -Dconf=/home/me/cg/c.txt Main", None, places) == "java -Dconf=/cache/aa/c.txt Main"
    assert moved(["java", "-jar", "/home/me/lib/ref.jar"], None, places) == ["java", "-jar", "/cache/bb/ref.jar"]
    assert moved_place("/home/me/cgx", places) == "/home/me/cgx"  # by path components, not by characters
    assert moved_place("/home/me/cg/a/b", places) == "/cache/aa/a/b"


def player(label: str, kind: str, target: str, cwd: str | None = None) -> Player:
    return Player(label, target, kind, target, "v1", cwd)


def referee_game(user: Path, command: str, **settings):
    return make({"protocol": "cli", "command": command, "cwd": str(user), **settings})


def test_what_travels_with_each_kind_of_player_and_the_referee(tmp_path):
    user = folder_with(tmp_path / "user", {"ref.py": "", "bot.py": "", "sub/first.py": ""})
    elsewhere = folder_with(tmp_path / "elsewhere", {"solo.py": "", "map.txt": ""})
    pinned = folder_with(tmp_path / "pins" / "file-abc", {"solo.py": ""})
    tree = folder_with(tmp_path / "pins" / "git-123", {"bots/x.py": ""})
    game = referee_game(user, f"python3 ref.py --map {elsewhere / 'map.txt'}")
    players = [
        player("a", "command", f"python3 sub/first.py {elsewhere / 'solo.py'}", str(user)),
        player("b", "file", shlex.join([sys.executable, str(pinned / "solo.py")])),
        player("c", "git", f"{sys.executable} -m bots.x", str(tree)),
    ]
    assert travelling(game, players) == sorted(
        [str(user), str(elsewhere / "map.txt"), str(elsewhere / "solo.py"), str(pinned), str(tree)]
    )


def test_a_python_file_named_outside_its_folder_that_imports_its_neighbours_is_refused(tmp_path):
    """`python3 /abs/impbot/bot.py` given from another folder played here and failed on every machine
    (No module named 'helper': the file travels alone), told as the machines' fault, to resume."""
    bot = folder_with(tmp_path / "impbot", {"bot.py": "from helper import pick\n", "helper.py": "import os\n"})
    user = folder_with(tmp_path / "user", {"ref.py": ""})
    imp = player("imp", "command", f"python3 {bot / 'bot.py'}", str(user))
    with pytest.raises(
        UsageError,
        match=rf"^player imp: {bot}/bot.py imports helper, which lies beside it, but a file a command names outside "
        rf"the folder it is given in travels to a cluster alone: give the command from its folder \(cd {bot}, then "
        rf"imp='python3 bot.py'\), so that the folder travels, or the folder as the player \({bot}/\)$",
    ):
        travelling(referee_game(user, "python3 ref.py"), [imp])
    (bot / "bot.py").write_text("import os, json\n")  # a file that imports no neighbour travels alone
    assert travelling(referee_game(user, "python3 ref.py"), [imp]) == [str(bot / "bot.py"), str(user)]
    # A file no folder's build would run (strong.py): its folder as the player was refused ("which file
    # is the Python 3 bot?"), so it is not offered.
    (bot / "strong.py").write_text("from helper import pick\n")
    strong = player("strong", "command", f"python3 {bot / 'strong.py'}", str(user))
    with pytest.raises(UsageError, match=r"\(cd .*, then strong='python3 strong.py'\), so that the folder travels$"):
        travelling(referee_game(user, "python3 ref.py"), [strong])


def test_a_command_whose_file_travelled_alone_and_misses_a_file_says_what_to_give(tmp_path):
    """A bot reading data.txt beside it, named outside the folder its command was given in, failed on
    every machine for a file missing, with nothing said of why it was missing there."""
    reader = "import os\nopen(os.path.join(os.path.dirname(__file__), 'data.txt'))\ninput()\n"
    copy = folder_with(tmp_path / "travelled" / "aa", {"bot.py": reader})
    user = folder_with(tmp_path / "travelled" / "bb", {"ref.py": ""})
    copied = Player(
        "imp",
        f"{sys.executable} /home/me/impbot/bot.py",
        "command",
        f"{sys.executable} {copy / 'bot.py'}",
        "v1",
        str(user),
    )
    with pytest.raises(
        UsageError,
        match=r"^imp cannot play: .*FileNotFoundError: .*data\.txt.* \(/home/me/impbot/bot.py travelled to this "
        r"machine alone, .*: give the command from its folder, /home/me/impbot, so that the folder travels\)$",
    ):
        Commands().prepare([copied], referee_game(user, "python3 ref.py"), io.StringIO())  # (all a machine runs)


def test_an_absolute_path_that_does_not_travel_is_refused_unless_every_machine_has_it(tmp_path):
    user = folder_with(tmp_path / "user", {"bot.py": ""})
    mine = player("a", "command", "python3 bot.py --data /srv/maps", str(user))
    game = referee_game(user, "/opt/jdk/bin/java -jar ref.jar")
    with pytest.raises(UsageError, match="the referee's command names /opt/jdk/bin/java, which does not travel"):
        travelling(game, [mine])
    declared = referee_game(user, "/opt/jdk/bin/java -jar ref.jar", node_paths=["/opt/jdk", "/srv"])
    assert travelling(declared, [mine]) == [str(user)]
    with pytest.raises(UsageError, match="player a's command names /srv/maps"):
        travelling(referee_game(user, "java -jar ref.jar", node_paths=["/opt/jdk"]), [mine])


def test_node_paths_are_a_game_setting_checked_like_the_others(tmp_path):
    with pytest.raises(GameError, match="node_paths are absolute paths, not 'jdk'"):
        referee_game(tmp_path, "java -jar ref.jar", node_paths=["jdk"])
    with pytest.raises(GameError, match="node_paths"):
        referee_game(tmp_path, "java -jar ref.jar", node_paths="/opt/jdk")


class Machines:
    """An executor whose first `fail` batches fail on a machine (a record per game with `again`
    set, as a node that cannot play answers) or with the machine lost (`lost`), the others played."""

    tasks_in_flight = 3

    def __init__(self, fail: int, lost: bool):
        self.fail, self.lost = fail, lost
        self.played: list[tuple] = []

    def submit(self, fn, game, batch, players) -> Future:
        future: Future = Future()

        def settle():
            if self.fail > 0:
                self.fail -= 1
                if self.lost:
                    future.set_exception(run.MachineLost("node1 was lost mid-game"))
                    return
                future.set_result(
                    [run.failure(job, run.MACHINE, "node1 cannot play") | {"again": True} for job in batch]
                )
                return
            self.played += [job.key for job in batch]
            future.set_result([{"lineup": list(job.lineup), "unit": job.unit, "seating": job.seating} for job in batch])

        threading.Timer(0.01, settle).start()
        return future

    def cancel(self, future) -> bool:
        return future.cancel()

    def restart(self) -> None:
        pass


@pytest.mark.parametrize("lost", [False, True])
def test_the_games_of_a_machine_that_failed_are_recorded_and_played_again(lost):
    jobs = [Job(("a", "b"), unit, 0, ("a", "b"), unit, (0, 0)) for unit in range(6)]
    machines = Machines(fail=2, lost=lost)
    records: list[dict] = []
    run.run_jobs(jobs, None, {}, machines, on_record=records.append, tasks_in_flight=3, games_per_task=2)
    failed = [r for r in records if r.get("failure")]
    played = [r for r in records if not r.get("failure")]
    assert len(failed) == 4 and all(r["kind"] == run.MACHINE and "node1" in r["detail"] for r in failed)
    assert sorted(r["unit"] for r in played) == list(range(6))  # every game once
    assert sorted(machines.played) == sorted(job.key for job in jobs)


def test_a_game_whose_machines_keep_failing_is_given_up_after_a_few_tries():
    jobs = [Job(("a", "b"), 0, 0, ("a", "b"), 0, (0, 0))]
    records: list[dict] = []
    run.run_jobs(jobs, None, {}, Machines(fail=99, lost=False), on_record=records.append, tasks_in_flight=1)
    assert len(records) == run.MACHINE_TRIES and all(r.get("failure") for r in records)


def test_failures_played_again_are_said_apart_from_those_left_to_resume():
    failure = {"lineup": ["a", "b"], "unit": 0, "seating": 0, "kind": "machine", "detail": "node1 was lost"}
    other = dict(failure, unit=1, kind="referee", detail="it crashed")
    said = failures_lines([failure, other], [{"lineup": ["a", "b"], "unit": 0, "seating": 0}])
    assert "1 games failed and count for nobody (played again by --resume):\n  1 by the referee" in said
    assert "1 failures of games played again since (each counted once, as played):\n  1 by the machine" in said
