"""A player whose working folder or file path holds a space, under a referee that splits player
commands on spaces as CodinGame's SDK runner does (tests/reliability/scripts/space_splitting_referee.py):
it gets a command without spaces to split (a wrapper script), and plays. Every game had been a loss
for each such player ("invalid": its command, cut at the space, could not start)."""

from __future__ import annotations

import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest

from arena.games.base import Player
from arena.games.cli import CliGame
from arena.games.json_game import JsonGame

SCRIPTS = Path(__file__).parent / "scripts"
REFEREE = shlex.join([sys.executable, str(SCRIPTS / "space_splitting_referee.py")])


@pytest.fixture
def spaced(tmp_path) -> Path:
    """A folder whose path holds a space, with a copy of a bot that answers 0 to each line."""
    folder = tmp_path / "my bots"
    folder.mkdir()
    shutil.copy(SCRIPTS / "answer_zero.py", folder / "answer zero.py")
    return folder


def players(spaced: Path) -> list[Player]:
    in_folder = f"{shlex.quote(sys.executable)} {shlex.quote('answer zero.py')}"
    by_path = shlex.join([sys.executable, str(spaced / "answer zero.py")])
    return [
        Player("in-folder", in_folder, "command", in_folder, "test", cwd=str(spaced)),
        Player("by-path", by_path, "command", by_path, "test"),
    ]


def test_a_referee_that_splits_on_spaces_runs_players_whose_paths_hold_spaces(spaced):
    outcome = CliGame(name="splitter", command=REFEREE, log=False).play(3, players(spaced), [0, 0])
    assert outcome.errors == [None, None], outcome.detail
    assert outcome.scores == [1, 1]


def test_the_same_under_a_json_command(spaced):
    # A play-one-game command given the players' commands (psyleague runs them through a shell).
    code = (
        "import json, subprocess, sys; "
        "ok = [subprocess.run(c, shell=True, input='x\\n', capture_output=True, text=True).stdout.strip() == '0' "
        "for c in sys.argv[1:]]; "
        "print(json.dumps({'ranks': [0, 0], 'errors': [0 if o else 1 for o in ok]}))"
    )
    game = JsonGame(name="shell", command=shlex.join([sys.executable, "-c", code]) + " {p1} {p2}", seats=2)
    outcome = game.play(3, players(spaced), [0, 0])
    assert outcome.errors == [None, None], outcome.detail


def test_a_plain_command_is_handed_over_as_it_is(tmp_path):
    from arena.games.command import split_on_spaces

    assert split_on_spaces("env CALDERA_SEED=3 python bot.py", tmp_path / "w") == "env CALDERA_SEED=3 python bot.py"
    assert not (tmp_path / "w").exists()


def test_a_path_with_spaces_given_unquoted_is_told_to_be_quoted(tmp_path, monkeypatch):
    """`"sp dir/my solver.sh"` runs `sp`: the judge said `cannot start 'sp dir/my solver.sh': No such
    file or directory` of a file that is there."""
    from referee.platform.bot_commands import check_command
    from referee.platform.bot_errors import BotStartError
    from referee.platform.process import BotProcess

    monkeypatch.chdir(tmp_path)
    (tmp_path / "sp dir").mkdir()
    solver = tmp_path / "sp dir" / "my solver.sh"
    solver.write_text("#!/bin/sh\nread line\n")
    solver.chmod(0o755)
    quote = "the file 'sp dir/my solver.sh' has spaces in its path: quote it ('sp dir/my solver.sh')"
    with pytest.raises(BotStartError) as started:
        BotProcess("sp dir/my solver.sh")
    assert (
        str(started.value)
        == f"cannot start 'sp' (the program of sp dir/my solver.sh): No such file or directory; {quote}"
    )
    for command, said in (
        ("sp dir/my solver.sh", "sp: no such command (not on PATH)"),
        ("./sp dir/my solver.sh", "./sp: no such file"),
    ):
        with pytest.raises(BotStartError, match=re.escape(f"{said}; the file '{command}'")):
            check_command(command)
    check_command("'sp dir/my solver.sh'")  # quoted, it runs
