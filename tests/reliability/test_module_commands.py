"""The `python -m` commands the issue found with tracebacks: each mistake is one line now."""

from __future__ import annotations

import pytest

from tests.reliability.commands import one_line, run

CASES = [
    (["bots.volcanoes.warmup", "nosuchbot"], "no bot named 'nosuchbot'"),
    (["bots.volcanoes.launch"], "give one registered bot to play"),
    (["bots.volcanoes.launch", "nosuchbot"], "give one registered bot to play"),
    (["bots.volcanoes.launch", "--serve", "mcts"], "--serve NAME IN_FD OUT_FD"),
    (["bots.volcanoes.pure.mcts", "--seed"], "options are --seed N and --iterations N"),
    (["bots.volcanoes.pure.mcts", "--iterations", "many"], "options are --seed N and --iterations N"),
    (["referee.platform.process_tree", "--verbose"], "unrecognized arguments"),
    (["bots.volcanoes.greedy", "--help"], "it takes no arguments (--help): it plays Volcanoes on stdin and stdout"),
    (["bots.volcanoes.mcts", "c=0.3"], "its options are the arena's (mcts:OPTION=VALUE"),
]


@pytest.mark.parametrize("argv,words", CASES, ids=[" ".join(argv) for argv, _ in CASES])
def test_a_mistake_is_one_line(argv, words):
    done = run(*argv, input="")
    err = done.stderr.strip()
    assert done.returncode == 2 and "Traceback" not in err and len(err.splitlines()) == 1, done
    assert words in err


def test_the_bench_worker_refuses_what_is_not_a_request():
    done = run("arena.bench.worker", input="garbage\n")
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "request 1 is not a known figure's request" in done.stderr


def test_the_warmup_still_warms_a_bot():
    done = run("bots.volcanoes.warmup", "random")
    assert done.returncode == 0 and done.stdout.startswith("random: ready in"), done


def test_the_pure_bot_still_takes_its_options():
    from bots.volcanoes.pure.mcts import _options

    assert _options(["--seed", "3", "--iterations", "10"]) == {"seed": 3, "iterations": 10}
    one_line(run("bots.volcanoes.pure.bench", "0"), "python -m bots.volcanoes.pure.bench", "must be above 0")
