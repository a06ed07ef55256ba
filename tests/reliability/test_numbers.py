"""Numbers at the command line: one argparse type (referee.platform.options.number) refuses NaN, infinities,
numbers out of range and absurd times everywhere, so none reaches arithmetic that overflows, hangs or
poisons a stored result."""

from __future__ import annotations

import argparse

import pytest

from referee.platform.options import MAX_MS, count, number, positive_ms
from referee.platform.pools import WORKERS_PER_CORE, cores
from tests.reliability.commands import one_line, run


@pytest.mark.parametrize(
    "text,why",
    [
        ("nan", "must be a finite number"),
        ("inf", "must be a finite number"),
        ("-inf", "must be a finite number"),
        ("1e999", "must be a finite number"),
        ("1e300", f"must be at most {MAX_MS:,}"),
        ("0", "must be above 0"),
        ("-1", "must be above 0"),
        ("fast", "not a number: 'fast'"),
    ],
)
def test_a_time_in_milliseconds_is_finite_positive_and_not_absurd(text, why):
    with pytest.raises(argparse.ArgumentTypeError, match=why):
        positive_ms(text)


def test_a_count_is_a_whole_number_from_its_least():
    assert count(0)("0") == 0 and count(1)("3") == 3
    for text, why in (("-2", "must be at least 0"), ("2.5", "not a whole number"), ("nan", "not a whole number")):
        with pytest.raises(argparse.ArgumentTypeError, match=why):
            count(0)(text)
    assert number(float, least=0, most=1)("0.5") == 0.5


RANDOM = "python -m bots.volcanoes.random"
CASES = [
    (["referee.cli", "volcanoes", "play", RANDOM, RANDOM, "--first-turn-ms", "inf"], "referee volcanoes play"),
    (["referee.cli", "volcanoes", "play", RANDOM, RANDOM, "--turn-ms", "1e300"], "referee volcanoes play"),
    (["referee.cli", "coroutine", "judge", "x.txt", "solver", "--oracle-time-ms", "nan"], "referee coroutine judge"),
    (["referee.cli", "stormyseas", "show", "x.txt", "--delay", "-1"], "referee stormyseas show"),
    (["arena.cli", "bundle", "random", "-o", "x.py", "--check", "-2"], "arena bundle"),
    (["arena.cli", "bench", "--seconds", "-1"], "arena bench"),
    (["arena.cli", "bench", "--stress", "--turn-ms", "inf"], "arena bench"),
    (["arena.cli", "analyse", "x.json", "--iterations", "0"], "arena analyse"),
    (["bots.coroutine.generate", "--hardest", "--seconds", "-1"], "python -m bots.coroutine.generate"),
    (["bots.volcanoes.pure.bench", "abc"], "python -m bots.volcanoes.pure.bench"),
]


@pytest.mark.parametrize("argv,prog", CASES, ids=[" ".join(argv) for argv, _ in CASES])
def test_a_bad_number_is_one_line_before_anything_runs(argv, prog, tmp_path):
    one_line(run(*argv, cwd=tmp_path), prog, "argument")
    assert list(tmp_path.iterdir()) == []  # nothing written


LEAD_CASES = [
    (
        ["match", "random", "boss", "--turn-ms", "inf"],
        "arena/cli/options.py: --turn-ms type=referee.platform.options.positive_ms",
    ),
    (
        ["match", "random", "boss", "--first-turn-ms", "1e300"],
        "arena/cli/options.py: --first-turn-ms type=referee.platform.options.positive_ms",
    ),
    (
        ["tune", "uct", "--params", "c", "--r-end", "inf"],
        "arena/cli/play.py: --r-end type=referee.platform.options.number(float, above=0)",
    ),
]


@pytest.mark.parametrize("argv,where", LEAD_CASES, ids=[" ".join(argv) for argv, _ in LEAD_CASES])
def test_the_arenas_numbers_are_refused_by_argparse(argv, where, tmp_path, request):
    done = run("arena.cli", *argv, "--db", str(tmp_path / "run.sqlite"), cwd=tmp_path, timeout=60)
    one_line(done, f"arena {argv[0]}", argv[-2])
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "command",
    [["match", "greedy", "random", "--pairs", "1"], ["analyse", "no-such-replay.json"]],
    ids=["match", "analyse"],
)
def test_more_workers_than_the_machine_runs_at_once_are_one_line(command, tmp_path):
    """`arena analyse g.json --workers 100000` forked until the memory was full, SIGTERM held off for
    minutes; a match of 2 games forked 12 workers. Refused before anything is made."""
    workers = str(WORKERS_PER_CORE * cores() + 1)
    done = run("arena.cli", *command, "--workers", workers, cwd=tmp_path)
    one_line(done, f"arena {command[0]}", f"--workers {workers}", "more processes than this machine runs at once")
    assert not (tmp_path / "arena-runs").exists()
