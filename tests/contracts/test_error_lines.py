"""One convention for a user's mistake, across `referee`, `arena` and the puzzle commands in bots/:
one line on stderr, `PROG: message` (PROG the command as its usage names it), exit status 2, no
traceback (referee/platform/errors.py). Mistakes found by argparse and by the commands themselves alike."""

from __future__ import annotations

import pytest

import arena.cli
import referee.cli
from bots.coroutine import generate as coroutine_generate
from bots.vikings import solver as vikings_solver

MISSING = "/no/such/file"
CASES = [
    (
        referee.cli.main,
        ["coroutine", "judge", MISSING, "solver"],
        f"referee coroutine judge: cannot read {MISSING}: No such file or directory",
    ),
    (
        referee.cli.main,
        ["vikings", "judge", MISSING, "solver", "--time-ms", "0"],
        "referee vikings judge: argument --time-ms: must be above 0, not 0",
    ),
    (
        referee.cli.main,
        ["volcanoes", "view", MISSING],
        f"referee volcanoes view: cannot read the replay {MISSING}: No such file or directory",
    ),
    (referee.cli.main, ["volcanoes", "play"], "referee volcanoes play: the following arguments are required: "),
    (referee.cli.main, ["iqtwist", "show", "a7A7b6A"], "referee iqtwist show: length 7 is not a multiple of 4"),
    (referee.cli.main, ["stormyseas", "show", MISSING], f"referee stormyseas show: cannot read {MISSING}: "),
    (referee.cli.main, ["chess"], "referee: argument GAME: invalid choice: 'chess'"),
    (arena.cli.main, ["match", "nobody", "greedy"], "arena match: unknown player 'nobody'"),
    (arena.cli.main, ["match", "--pairs", "many"], "arena match: argument --pairs/--units: not a whole number: 'many'"),
    (arena.cli.main, ["report", MISSING], f"arena report: no such database: {MISSING}"),
    (arena.cli.main, ["bench", "--rounds", "2"], "arena bench: --rounds must be at least 4"),
    (coroutine_generate.main, ["--turns", "99"], "python -m bots.coroutine.generate: --turns must be 1 to 29"),
    (vikings_solver.main, ["--search", "dfs"], "python -m bots.vikings.solver: argument --search: invalid choice"),
]


@pytest.mark.parametrize("main, argv, line", CASES, ids=[" ".join(argv) for _, argv, _ in CASES])
def test_a_users_mistake_is_one_line_naming_its_command(main, argv, line, capsys):
    try:
        status = main(argv)
    except SystemExit as exit_:  # argparse's mistakes end the process
        status = exit_.code
    captured = capsys.readouterr()
    assert status == 2
    assert captured.err.startswith(line) and captured.err.count("\n") == 1, captured.err
    assert "Traceback" not in captured.err and captured.out == ""
