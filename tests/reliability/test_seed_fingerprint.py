"""The seed check (arena/play/seeds.py) against a referee whose first view frame lists the same
position's updates in a random order, as CodinGame's SDK 1.x referees do (Ultimate Tic-Tac-Toe was
refused as "ignores the seed" in 2 runs of 3): the fingerprint is a function of the position, not of
its serialisation, so 20 checks of 20 pass, and a referee that ignores the seed is still caught."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from arena.games.base import Player
from arena.games.cli import CliGame
from arena.play.seeds import HONOURED, IGNORED, check_seed

REFEREE = shlex.join([sys.executable, str(Path(__file__).parent / "scripts" / "shuffling_cli_referee.py")])
PLAYERS = [Player(name, "true", "command", "true", "test") for name in ("a", "b")]


def test_a_view_written_in_a_random_order_passes_the_seed_check_20_times_of_20():
    game = CliGame(name="shuffler", command=REFEREE)
    verdicts = [check_seed(game, PLAYERS, seed).status for seed in range(20)]
    assert verdicts == [HONOURED] * 20


def test_a_referee_that_ignores_the_seed_is_still_caught():
    game = CliGame(name="shuffler", command=REFEREE, extra_args="--ignore-seed")
    assert [check_seed(game, PLAYERS, seed).status for seed in range(3)] == [IGNORED] * 3


def test_two_seeds_still_give_two_fingerprints():
    game = CliGame(name="shuffler", command=REFEREE)
    prints = {game.play(seed, PLAYERS, [0, 0]).fingerprint for seed in (1, 1, 2)}
    assert len(prints) == 2
