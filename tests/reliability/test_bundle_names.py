"""`arena bundle NAME` writes only a file that can play: a name that is no bot's module is one line,
and nothing is written."""

from __future__ import annotations

import pytest

from tests.reliability.commands import one_line, run


@pytest.mark.parametrize(
    "name,why",
    [
        ("", "'' is neither a bot name"),
        ("pure", "bots.volcanoes.pure is a package, not a bot's module"),
        ("bots.volcanoes", "bots.volcanoes is a package"),
        ("bad\nname", r"'bad\nname' is neither a bot name"),
        ("bots.volcanoes.pure.rules", "does not run as a program"),
        ("../etc/passwd", "no bot file ../etc/passwd"),  # a path: taken for a bot of any game (a .py file)
    ],
)
def test_a_name_that_is_no_bots_module_is_one_line_and_nothing_is_written(name, why, tmp_path):
    done = run("arena.cli", "bundle", name, "-o", "bot.py", cwd=tmp_path)
    one_line(done, "arena bundle", why)
    assert list(tmp_path.iterdir()) == []
