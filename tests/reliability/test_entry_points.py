"""The promise of docs/reliability.md, "a traceback is a bug", for every command of the project: each
console command (setup.cfg) and each `python -m` entry point (every module of the project's packages that
runs as a script), found here, not listed, is fed bad arguments (an unknown option, a file that does
not exist, NaN and absurd numbers for every numeric option, a value outside every choice) and bad
input (garbage on stdin, for the players and the solvers), and must answer each with a message and
a non-zero exit status, never a traceback. Every subcommand is reached through the entry point's
own argparse parser. Fast: each entry point is imported once (scripts/entry_driver.py) and each case
runs in a forked child; entry points run in parallel."""

from __future__ import annotations

import configparser
import json
import os
import re
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.reliability.commands import ROOT

DRIVER = Path(__file__).parent / "scripts" / "entry_driver.py"
GARBAGE = "\udcff\udcfe garbage \x00\x1b[2J\n" + "1 2 3 x y z\n" * 3 + "\n"  # not UTF-8, not anything
NO_FILE = "/no/such/file"
NOT_FINITE = "nan"  # for every numeric option
ABSURD_TIME = "1e300"  # for every option of a time (milliseconds, seconds, a delay)
TIME_OPTION = re.compile(r"-ms$|seconds|delay")
CASE_SECONDS = 30  # a case that runs longer accepted its bad argument: a failure
MAIN = re.compile(r"^if __name__ == .__main__.:", re.MULTILINE)


def _setup() -> configparser.ConfigParser:
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg")
    return config


def console_scripts() -> dict[str, str]:
    """setup.cfg's console scripts: {command: MODULE:FUNCTION}."""
    lines = _setup()["options.entry_points"]["console_scripts"].strip().splitlines()
    return {name.strip(): target.strip() for name, target in (line.split("=", 1) for line in lines)}


def entry_points() -> list[str]:
    """Every entry point: console scripts as MODULE:FUNCTION, then `python -m` modules as MODULE
    (those that are a console script's module too are run as the console script only)."""
    config = _setup()
    scripts = list(console_scripts().values())
    covered = {s.partition(":")[0] for s in scripts}
    modules = []
    for package in config["options.packages.find"]["include"].split():
        if "*" in package:
            continue
        for path in sorted((ROOT / package).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            name = name.removesuffix(".__main__")
            if (path.name == "__main__.py" or MAIN.search(path.read_text())) and name not in covered:
                modules.append(name)
    return scripts + modules


class _Driver:
    """scripts/entry_driver.py for one entry point: requests answered one after the other by the same
    process (the entry point imported once), which is killed past its whole time."""

    def __init__(self, target: str):
        self.process = subprocess.Popen(
            [sys.executable, str(DRIVER), target],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"},
            cwd=ROOT,
        )
        self.watchdog = threading.Timer(CASE_SECONDS * 40, self.process.kill)
        self.watchdog.start()
        self.stderr: str | None = None

    def ask(self, request: dict) -> object:
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            pytest.fail(f"the driver ended without answering {list(request)}: {self.close()}")
        return json.loads(answer)

    def close(self) -> str:
        """Its stderr, once it has ended."""
        if self.stderr is None:
            self.watchdog.cancel()
            self.stderr = self.process.communicate()[1]
        return self.stderr


def _leaves(shape: dict, path: list[str]):
    yield path, shape
    for name, command in shape["commands"].items():
        yield from _leaves(command, [*path, name])


def cases(target: str, shape: dict | None) -> list[dict]:
    """The bad arguments and inputs for one entry point, from its parser's shape."""
    if shape is None:  # a player: it reads the game on stdin
        return [{"argv": argv, "stdin": GARBAGE} for argv in ([], ["--definitely-not-an-option"])]
    found = []
    if re.fullmatch(r"bots\.\w+\.solver", target):  # a puzzle's solver reads instances on stdin
        found.append({"argv": [], "stdin": GARBAGE})
    for path, command in _leaves(shape, []):
        found.append({"argv": [*path, "--definitely-not-an-option"]})
        if command["commands"]:
            found.append({"argv": path})  # a group without its command
            continue
        if command["positionals"]:
            counts = [p["nargs"] if isinstance(p["nargs"], int) else 1 for p in command["positionals"]]
            found.append({"argv": [*path, *[NO_FILE] * sum(counts)]})
        for option in command["options"]:
            if not option["takes_value"]:
                continue
            if option["typed"]:
                found.append({"argv": [*path, option["flag"], NOT_FINITE]})
                if TIME_OPTION.search(option["flag"]):
                    found.append({"argv": [*path, option["flag"], ABSURD_TIME]})
            if option["choices"]:
                found.append({"argv": [*path, option["flag"], "not-a-choice"]})
    return found


def _named(target: str, argv: list[str]) -> str:
    """A case as a person types it: `arena match --turn-ms nan`, `python -m bots.x.solver`."""
    module, _, function = target.partition(":")
    if function:
        prog = next(name for name, script in console_scripts().items() if script == target)
    else:
        prog = f"python -m {module}"
    return " ".join([prog, *argv])


def _failure(result: dict) -> str | None:
    if result["timed_out"]:
        return f"still running after {CASE_SECONDS} s"
    if "Traceback" in result["stderr"]:
        return "a traceback:\n" + result["stderr"]
    if result["status"] <= 0:
        return f"exit status {result['status']}:\n{result['stderr']}"
    if not (result["stderr"] + result["stdout"]).strip():
        return f"exit status {result['status']} without a word"
    return None


# Commands whose players are the game's, by their protocol: a player that cannot start loses its game
# and the command says so in its result, with exit status 0 (psyleague and CGArena stop their whole
# league on a play-one-game command that fails).
PLAYERS_LOSE = ("referee volcanoes psyleague",)


def _check(target: str) -> dict[str, str]:
    """{case: what went wrong} for one entry point."""
    driver = _Driver(target)
    try:
        shape = driver.ask({"shape": True})
        todo = cases(target, shape)
        results = driver.ask({"cases": todo, "timeout": CASE_SECONDS})
    finally:
        stderr = driver.close()
    assert driver.process.returncode == 0, stderr
    failures = {}
    for case, result in zip(todo, results, strict=True):
        why = _failure(result)
        named = _named(target, case["argv"])
        if why and named.startswith(PLAYERS_LOSE) and result["status"] == 0 and '"errors": [1, 1]' in result["stdout"]:
            why = None
        if why:
            failures[named + (" < garbage" if case.get("stdin") else "")] = why
    return failures


@pytest.fixture(scope="module")
def failures() -> dict[str, str]:
    with ThreadPoolExecutor(max_workers=max(2, (os.cpu_count() or 1))) as pool:
        found = {}
        for result in pool.map(_check, entry_points()):
            found.update(result)
    return found


def test_every_entry_point_is_found():
    found = entry_points()
    for expected in ("referee.cli:main", "arena.cli:main", "bots.coroutine.solver", "bots.volcanoes.mcts"):
        assert expected in found
    assert "referee.cli" not in found  # the console script's own module: run once, as the script


def test_bad_arguments_and_input_get_a_message_and_a_failing_status_never_a_traceback(failures):
    assert not failures, "\n\n".join(f"{case}: {why}" for case, why in sorted(failures.items()))
