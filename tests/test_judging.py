"""Every solo puzzle's judge has the same command shape."""
import argparse

import pytest

import referee.cli
from referee.judging import positive_ms

PUZZLES = [game for game in referee.cli.GAMES if game != "volcanoes"]


@pytest.mark.parametrize("game", PUZZLES)
def test_every_puzzle_judges_with_one_command_shape(game):
    args = referee.cli.build_parser().parse_args([game, "judge", "puzzles.txt", "python -m solver", "--time-ms",
                                                  "250", "--json"])
    assert (args.file, args.solver, args.time_ms, args.json) == ("puzzles.txt", "python -m solver", 250.0, True)
    assert callable(args.run)


def test_time_must_be_a_positive_number():
    assert positive_ms("1.5") == 1.5
    for bad in ("0", "-3", "fast"):
        with pytest.raises(argparse.ArgumentTypeError):
            positive_ms(bad)
