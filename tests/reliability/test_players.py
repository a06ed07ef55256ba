"""A player that cannot run is refused before any game, by one rule (referee.platform.process.check_command)
in every command that takes one; a cache folder that cannot be used is one line too."""

from __future__ import annotations

import sys

import pytest

from referee.platform.process import BotStartError, check_command

from tests.reliability.commands import one_line, run

RANDOM = f"{sys.executable} -m bots.volcanoes.random"


@pytest.fixture
def unrunnable(tmp_path):
    """Programs that cannot run, by what is wrong with them."""
    script = tmp_path / "bot.py"
    script.write_text("print('RANDOM')\n")  # no executable bit
    binary = tmp_path / "bot"
    binary.write_text("#!/bin/sh\necho RANDOM\n")
    return {"not executable": str(script), "not executable binary": str(binary), "folder": str(tmp_path)}


@pytest.mark.parametrize(
    "what,words",
    [
        ("not executable", ["is not executable", "chmod +x"]),
        ("not executable binary", ["is not executable"]),
        ("folder", ["is a folder"]),
    ],
)
def test_check_command_says_why_a_program_cannot_run(unrunnable, what, words):
    with pytest.raises(BotStartError) as error:
        check_command(unrunnable[what])
    assert all(word in str(error.value) for word in words)


def test_check_command_takes_a_program_on_path_and_refuses_a_missing_one():
    assert check_command("python -m x") == ["python", "-m", "x"]
    with pytest.raises(BotStartError, match="no such command"):
        check_command("no-such-program-anywhere --flag")
    with pytest.raises(BotStartError, match="no such file"):
        check_command("./no/such/file")


@pytest.mark.parametrize("what", ["not executable", "folder"])
def test_referee_play_refuses_a_player_that_cannot_run(unrunnable, what):
    done = run("referee.cli", "volcanoes", "play", unrunnable[what], RANDOM)
    one_line(done, "referee volcanoes play", unrunnable[what])


def test_arena_refuses_a_player_that_cannot_run(unrunnable, tmp_path):
    done = run("arena.cli", "match", unrunnable["not executable binary"], "random", "--pairs", "1", cwd=tmp_path)
    one_line(done, "arena match", "is not executable")


def test_an_unusable_cache_folder_is_one_line(tmp_path):
    blocked = tmp_path / "cache"
    blocked.write_text("a file where a folder should be")
    bot = tmp_path / "bot.py"
    bot.write_text("print('RANDOM')\n")
    done = run(
        "arena.cli", "match", str(bot), "random", "--pairs", "1", cwd=tmp_path, env={"XDG_CACHE_HOME": str(blocked)}
    )
    one_line(done, "arena match", str(blocked))
