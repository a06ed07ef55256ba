"""A player that cannot run is refused before any game, by one rule (referee.platform.bot_commands.check_command)
in every command that takes one, on every machine that plays (its command is started once, its input
open: only the system and the interpreter know what it needs, and a bot waits for its first input);
a cache folder that cannot be used is one line too."""

from __future__ import annotations

import resource
import subprocess
import sys

import pytest

from referee.platform.bot_commands import check_command
from referee.platform.bot_errors import BotStartError

from tests.processes import foreign_program, lingering
from tests.reliability.commands import one_line, run

RANDOM = f"{sys.executable} -m bots.volcanoes.random"


@pytest.fixture
def unrunnable(tmp_path):
    """Programs that cannot run, by what is wrong with them."""
    script = tmp_path / "bot.py"
    script.write_text("print('RANDOM')\n")  # no executable bit
    binary = tmp_path / "bot"
    binary.write_text("#!/bin/sh\necho RANDOM\n")
    bare = tmp_path / "bare"
    bare.write_text("echo RANDOM\n")  # no #! line
    missing = tmp_path / "pypy"
    missing.write_text("#!/no/such/pypy3\nprint('RANDOM')\n")
    library = tmp_path / "linked"
    library.write_text(
        "#!/bin/sh\necho './linked: error while loading shared libraries: libcaldera.so.7: cannot open' >&2\nexit 127\n"
    )
    quits = tmp_path / "quits"
    quits.write_text("#!/bin/sh\necho 'quits: cannot open weights.bin' >&2\nexit 1\n")
    crashes = tmp_path / "crashes"
    crashes.write_text("#!/bin/sh\nkill -SEGV $$\n")
    windows = tmp_path / "windows"
    windows.write_bytes(b"#!/bin/sh\r\nwhile read line; do echo RANDOM; done\r\n")
    windows_env = tmp_path / "windows_env"  # (`env` finds no "python3\r": its own words mislead)
    windows_env.write_bytes(b"#!/usr/bin/env python3\r\nimport sys\r\nsys.stdin.readline()\r\n")
    marked = tmp_path / "marked"
    marked.write_bytes(b"\xef\xbb\xbf#!/bin/sh\nwhile read line; do echo RANDOM; done\n")
    source = tmp_path / "bot.cpp"  # (a C++ bot's source, given to the referee as if it ran)
    source.write_text('#include <iostream>\nint main() { std::cout << "RANDOM" << std::endl; }\n')
    built = tmp_path / "Player.java"
    built.write_text("class Player { public static void main(String[] a) {} }\n")
    runs_missing = tmp_path / "runs"  # (a script whose command is not here: status 127, as a loader's)
    runs_missing.write_text("#!/bin/sh\n./no_such_bot_binary\n")
    bare_python = tmp_path / "bare.py"
    bare_python.write_text("print('RANDOM')\n")  # no #! line
    for made in (
        bare,
        missing,
        library,
        quits,
        crashes,
        windows,
        windows_env,
        marked,
        built,
        runs_missing,
        bare_python,
    ):
        made.chmod(0o755)
    return {
        "not executable": str(script),
        "not executable binary": str(binary),
        "folder": str(tmp_path),
        "another processor's": str(foreign_program(tmp_path / "foreign")),
        "no #! line": str(bare),
        "interpreter missing": str(missing),
        "library missing": str(library),
        "ends at once": str(quits),
        "killed at once": str(crashes),
        "a module missing": f"{sys.executable} -c 'import no_such_module_anywhere'",
        "Windows line endings": str(windows),
        "Windows line endings, by env": str(windows_env),
        "a byte order mark": str(marked),
        "source code": str(source),
        "source code made executable": str(built),
        "a command of the script missing": str(runs_missing),
        "no #! line in Python": str(bare_python),
    }


@pytest.mark.parametrize(
    "what,words",
    [
        ("not executable", ["is not executable", "chmod +x"]),
        ("not executable binary", ["is not executable"]),
        ("folder", ["is a folder"]),
        ("another processor's", ["cannot start on this machine", "an ELF program for", "build it on this machine"]),
        ("no #! line", ["cannot start on this machine", "no #! line", "begin it with a #! line"]),
        ("interpreter missing", ["cannot start on this machine", "/no/such/pypy3", "an interpreter"]),
        ("library missing", ["cannot start on this machine", "status 127", "libcaldera.so.7"]),
        ("ends at once", ["ended before its first input (status 1)", "cannot open weights.bin"]),
        ("killed at once", ["ended before its first input (killed by SIGSEGV)"]),
        ("a module missing", ["ended before its first input (status 1)", "No module named 'no_such_module_anywhere'"]),
        ("Windows line endings", ["cannot start on this machine", "carriage return", "dos2unix"]),
        ("Windows line endings, by env", ["cannot start on this machine", "carriage return", "dos2unix"]),
        ("a byte order mark", ["cannot start on this machine", "follows a byte order mark", "without a byte order"]),
        ("source code", ["bot.cpp is source code, not a program: build it first", "arena match"]),
        ("source code made executable", ["Player.java is source code, not a program", "builds a bot's source"]),
        ("a command of the script missing", ["ended before its first input (status 127)", "no_such_bot_binary"]),
        ("no #! line in Python", ["no #! line", "(#!/usr/bin/env python3)"]),
    ],
)
def test_check_command_says_why_a_program_cannot_run(unrunnable, what, words):
    with pytest.raises(BotStartError) as error:
        check_command(unrunnable[what])
    assert all(word in str(error.value) for word in words), str(error.value)
    if what == "a command of the script missing":  # (the script started: its command is missing, not it)
        assert "cannot start on this machine" not in str(error.value)


def test_check_command_takes_a_program_on_path_and_refuses_a_missing_one():
    assert check_command("python -c input()") == ["python", "-c", "input()"]
    # The program `env` runs is started with its assignments: it waits for its input, or ends.
    assert check_command("env DEPTH=3 sh -c '[ $DEPTH = 3 ] && read line'")[:2] == ["env", "DEPTH=3"]
    with pytest.raises(BotStartError, match="ended before its first input"):
        check_command("env DEPTH=4 sh -c '[ $DEPTH = 3 ] && read line'")
    with pytest.raises(BotStartError, match="no such command"):
        check_command("no-such-program-anywhere --flag")
    with pytest.raises(BotStartError, match="no-such-program-anywhere: no such command"):
        check_command("env DEPTH=3 no-such-program-anywhere")  # the program `env` runs
    with pytest.raises(BotStartError, match="no such file"):
        check_command("./no/such/file")


def test_env_with_options_of_its_own_runs_the_command_as_written(tmp_path):
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "wait.sh").write_text("read line\n")
    assert check_command("env -u HOME sh -c 'read line'")[:3] == ["env", "-u", "HOME"]
    assert check_command(f"env -C {tmp_path / 'bots'} DEPTH=3 sh wait.sh")[0] == "env"
    with pytest.raises(BotStartError, match="ended before its first input .*cannot change directory"):
        check_command(f"env -C {tmp_path / 'nowhere'} sh wait.sh")  # env's own words say why


def test_a_program_that_starts_is_taken_and_ended_at_once(tmp_path):
    """Started for the check, it is ended with what it started: nothing is left behind."""
    marker = "caldera-start-check-marker"
    bot = tmp_path / "bot"
    bot.write_text(f"#!/bin/sh\nsleep 60 &\nexec sh -c 'sleep 61; :' {marker}\n")
    bot.chmod(0o755)
    assert check_command(str(bot)) == [str(bot)]
    assert lingering(marker, "cmdline") == []
    assert lingering("sleep 60", "cmdline") == []


@pytest.mark.parametrize("what", ["not executable", "folder", "another processor's", "a module missing"])
def test_referee_play_refuses_a_player_that_cannot_run(unrunnable, what):
    done = run("referee.cli", "volcanoes", "play", unrunnable[what], RANDOM)
    one_line(done, "referee volcanoes play", unrunnable[what])
    done = run("referee.cli", "volcanoes", "play", RANDOM, f"env DEPTH=3 {unrunnable[what]}")
    one_line(done, "referee volcanoes play", unrunnable[what])


@pytest.mark.parametrize(
    "what,word",
    [("not executable binary", "is not executable"), ("another processor's", "cannot start on this machine")],
)
def test_arena_refuses_a_player_that_cannot_run(unrunnable, tmp_path, what, word):
    opponent = tmp_path / "opponent"  # (a bot with no warm-up: nothing is said before the refusal)
    opponent.write_text("#!/bin/sh\nwhile read line; do echo RANDOM; done\n")
    opponent.chmod(0o755)
    done = run("arena.cli", "match", unrunnable[what], str(opponent), "--pairs", "1", cwd=tmp_path)
    one_line(done, "arena match", word)


def test_arena_refuses_a_python_file_that_ends_before_its_first_input(tmp_path):
    """Its games would all be crashes: the run stops before the first, saying what the bot said,
    and before the other player's kernels are compiled (nothing is said before the refusal); it left
    an empty arena-runs/ behind."""
    bot = tmp_path / "bot.py"
    bot.write_text("import no_such_module_anywhere\n")
    done = run("arena.cli", "match", "random", str(bot), "--pairs", "1", cwd=tmp_path)
    one_line(done, "arena match", f"bot cannot play: {bot} ended before its first input", "no_such_module_anywhere")
    assert not (tmp_path / "arena-runs").exists()  # the run is discarded, and the runs' folder it made


def test_an_unusable_cache_folder_is_one_line(tmp_path):
    blocked = tmp_path / "cache"
    blocked.write_text("a file where a folder should be")
    bot = tmp_path / "bot.py"
    bot.write_text("print('RANDOM')\n")
    done = run(
        "arena.cli", "match", str(bot), "random", "--pairs", "1", cwd=tmp_path, env={"XDG_CACHE_HOME": str(blocked)}
    )
    one_line(done, "arena match", str(blocked))


def test_a_start_that_floods_stderr_is_read_in_bounded_memory():
    """The check keeps the end of what a program says (its error is there), not all of it."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # (kilobytes on Linux)
    flood = "head -c 400000000 /dev/zero >&2"
    check_command(["sh", "-c", f"{flood}; read line"])  # still waiting after its flood: taken
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 100_000
    with pytest.raises(BotStartError) as error:
        check_command(["sh", "-c", "head -c 3000000 /dev/zero >&2; echo >&2; echo the last line >&2; exit 1"])
    assert str(error.value).endswith("(status 1): the last line")


def test_a_python_bot_of_several_files_given_by_its_main_file_is_told_to_give_its_folder(tmp_path):
    """A file is copied alone (or, at a revision, built alone as CodinGame takes one file): a bot
    whose main file imports a sibling is refused with what to give instead, and its folder plays."""
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "helper.py").write_text("def move():\n    return 'RANDOM'\n")
    (bot / "main.py").write_text("from helper import move\nwhile True:\n    input()\n    print(move())\n")
    git = ["git", "-C", str(tmp_path), "-c", "user.name=me", "-c", "user.email=me@example.com"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "v1"], check=True)
    pinned = run("arena.cli", "match", "bot/main.py", "random", "--pairs", "1", "--quiet", cwd=tmp_path)
    one_line(pinned, "arena match", "No module named 'helper'", "give its folder, bot/", '"python3 bot/main.py"')
    # With values in its environment (as `arena tune` gives them): the command had "python3 env K=6 ...".
    valued = run("arena.cli", "match", "env K=6 bot/main.py", "random", "--pairs", "1", "--quiet", cwd=tmp_path)
    one_line(valued, "arena match", "bot/main.py is copied alone", "give its folder, env K=6 bot/", '"env K=6 python3')
    built = run("arena.cli", "match", "bot/main.py@HEAD", "random", "--pairs", "1", "--quiet", cwd=tmp_path)
    last = built.stderr.strip().splitlines()[-1]  # (after its build, and random's preparing)
    assert built.returncode == 2 and last.startswith("arena match: main@HEAD cannot play: "), built.stderr
    assert "built alone, as CodinGame takes one file" in last and "give its folder, bot/@HEAD" in last
    folder = run("arena.cli", "match", "bot/@HEAD", "random", "--pairs", "1", "--quiet", cwd=tmp_path)
    assert folder.returncode == 0, folder.stderr


def test_the_hint_for_a_file_bot_of_several_files_gives_commands_that_run(tmp_path):
    """Its path with a space was unquoted ("python3 my bot/solo.py" ran `my`), and it named the
    folder of an entry no folder's build looks for (solo.py: 'which file is the Python 3 bot?')."""
    bot = tmp_path / "my bot"
    bot.mkdir()
    (bot / "helper.py").write_text("def move():\n    return 'RANDOM'\n")
    (bot / "solo.py").write_text("from helper import move\nwhile True:\n    input()\n    print(move())\n")
    refused = run("arena.cli", "match", "my bot/solo.py", "random", "--pairs", "1", "--quiet", cwd=tmp_path)
    one_line(refused, "arena match", "No module named 'helper'", "give its command, \"python3 'my bot/solo.py'\")")
    assert "its folder" not in refused.stderr, refused.stderr


def test_a_league_refuses_to_add_a_player_that_cannot_play(tmp_path):
    """`arena league add` said "joined", status 0, for a bot that could not start; the league paused
    it later, which only its status showed."""
    from arena.play import members
    from arena.play.store import Store

    db = tmp_path / "league.sqlite"
    config = {"command": "league", "game": {"protocol": "volcanoes"}, "players": [], "lineups": [], "units": None}
    config |= {"seatings": "balanced", "seed": 1, "sprt": None, "seeds": None, "mode": "uncertain"}
    Store.create(db, config, []).close()
    bot = tmp_path / "bot.py"
    bot.write_text("import no_such_module_anywhere\n")
    done = run("arena.cli", "league", "add", f"b={bot}", "--db", str(db), cwd=tmp_path)
    assert done.returncode == 2 and "b cannot play" in done.stderr and "no_such_module_anywhere" in done.stderr
    store = members.open_league(db, readonly=True)
    assert store.league_players() == {}
    store.close()


def test_a_file_named_alone_is_looked_for_on_path_and_the_file_here_is_named(tmp_path, monkeypatch):
    """`referee volcanoes play bot.cpp ...` said only "no such command" of a file right there."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bot.cpp").write_text("int main() {}\n")
    (tmp_path / "bot.py").write_text("print('RANDOM')\n")
    with pytest.raises(BotStartError, match=r"bot.cpp: no such command \(not on PATH\); bot.cpp is source code"):
        check_command("bot.cpp")
    with pytest.raises(BotStartError, match=r"not on PATH\); run the file here by its interpreter \(.* bot.py\)"):
        check_command("bot.py")


def test_the_commands_a_message_suggests_are_quoted_as_a_shell_takes_them(tmp_path):
    """`Mes bots/élan.py` not executable was told `chmod +x Mes bots/élan.py`, which fails on the space."""
    folder = tmp_path / "Mes bots"
    folder.mkdir()
    (folder / "élan.py").write_text("print('RANDOM')\n")
    with pytest.raises(BotStartError) as error:
        check_command("'Mes bots/élan.py'", cwd=str(tmp_path))
    assert "(chmod +x 'Mes bots/élan.py')" in str(error.value) and " 'Mes bots/élan.py') or " in str(error.value)
