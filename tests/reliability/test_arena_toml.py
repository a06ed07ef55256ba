"""A game's table in arena.toml with a value of the wrong type or out of range is the user's mistake,
said in one line that names the key, before any game and before any file is written: every key of
every protocol is checked once, in one place (`arena.games.protocols.make`, each value against the
type its protocol's class declares). Before, such values gave tracebacks (`turn_ms = 1e300`, `cwd =
5`, sdk `parameters = 5`), hung or ran for ever (`reply_s = inf` with a hanging referee), or were
taken for what they were not (`send_seed = "no"` was true, `java_options = "-Xmx1g"` ran `java - X m
x 1 g`)."""

from __future__ import annotations

import sys

import pytest

from arena.cli import main

REFEREE = f"{sys.executable} -m tests.games.pebbles.sdk_referee --hang-at 1"  # it would hang: a limit must end it


@pytest.mark.parametrize(
    "table, says",
    [
        ('protocol = "relay"\ncommand = "r.jar"\nturn_ms = 1e300', "turn_ms = 1e+300: input should be less than"),
        (f'protocol = "sdk"\ncommand = "{REFEREE}"\nreply_s = inf', "reply_s = Infinity"),
        (f'protocol = "sdk"\ncommand = "{REFEREE}"\ngame_s = inf', "game_s = Infinity"),
        ('protocol = "sdk"\ncommand = "r.jar"\nturn_ms = inf', "turn_ms = Infinity"),
        ('protocol = "relay"\ncommand = ""', "its command '': empty command"),
        ('protocol = "sdk"\ncommand = "java -jar \'r.jar"', "cannot split"),
        ('protocol = "cli"\ncommand = "./ref"\ncwd = 5', "cwd = 5: input should be a valid string"),
        ('protocol = "cli"\ncommand = "./ref"\nseed_flag = 5', "seed_flag = 5: input should be a valid string"),
        ('protocol = "sdk"\ncommand = "r.jar"\nparameters = 5', "parameters = 5: input should be an object"),
        ('protocol = "sdk"\ncommand = "r.jar"\nparameters = [1, 2]', "parameters = [1, 2]: input should be an object"),
        ('protocol = "sdk"\ncommand = "r.jar"\nreply_s = "10"', 'reply_s = "10": input should be a valid number'),
        ('protocol = "cli"\ncommand = 5', "command = 5: input should be a valid string"),
        ('command = "./ref"', "no protocol: a game's protocol is one of"),
        ('protocol = "relay"\ncommand = "r.jar"\njava_options = "-Xmx1g"', 'java_options = "-Xmx1g": input should be'),
        (
            'protocol = "relay"\ncommand = "r.jar"\nsend_seed = "no"',
            'send_seed = "no": input should be a valid boolean',
        ),
        ('protocol = "cli"\ncommand = "./ref"\nlog = "yes"', 'log = "yes": input should be a valid boolean'),
        ('protocol = "cli"\ncommand = "./ref"\nplayers = 2.5', "players = 2.5: input should be a valid integer"),
        (
            'protocol = "cli"\ncommand = "./ref"\nextra_args = 1979-05-27',
            "numbers, strings, booleans, lists and tables",
        ),
    ],
)
def test_a_bad_value_in_arena_toml_is_one_line_naming_its_key(table, says, tmp_path, capsys):
    config = tmp_path / "arena.toml"
    config.write_text(f"[games.g]\n{table}\n")
    db = tmp_path / "run.sqlite"
    argv = ["match", "a", "b", "--game", "g", "--config", str(config), "--db", str(db), "--quiet"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("arena match: ") and says in err and err.count("\n") == 1, err
    assert "Traceback" not in err and not db.exists()


@pytest.mark.parametrize("argv", [["a", "b", "--game", "g"], ["random", "greedy"]])
def test_a_config_file_given_that_is_not_there_is_said_so(argv, tmp_path, capsys):
    """`--config nosuch.toml --game g` said "nosuch.toml declares no game", as if it were empty."""
    missing = tmp_path / "nosuch.toml"
    assert main(["match", *argv, "--config", str(missing), "--pairs", "1", "--quiet"]) == 2
    assert capsys.readouterr().err.strip() == f"arena match: --config {missing}: no such file"
