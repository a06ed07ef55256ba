"""`arena bench` that compared nothing says so and fails: "no figure regressed" over zero figures
would pass a check that checked nothing."""

from __future__ import annotations

import json
import re

import pytest

from arena.bench import timing
from arena.bench.versions import BenchError
from tests.arena.test_bench import BOT as COMMAND_LINE_BOT
from tests.reliability.commands import run


def test_a_comparison_with_a_tree_that_is_no_copy_of_the_project_fails(tmp_path):
    other = tmp_path / "not-the-project"
    for package in ("bots", "referee"):
        (other / package).mkdir(parents=True)
        (other / package / "__init__.py").write_text("")
    done = run(
        "arena.cli", "bench", "--against", str(other), "--only", "pure", "--rounds", "4", "--seconds", "0.01",
        timeout=300,
    )  # fmt: skip
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("arena bench: no figure could be compared with") and "regressed" not in done.stdout


@pytest.mark.parametrize(
    "values,said",
    [
        ([], "has fewer than two values"),
        ([1e9], "has fewer than two values"),
        (["x", 0], "holds 'x', not a positive number"),
        ([5.0, 0], "holds 0, not a positive number"),
        ([5.0, None], "holds None, not a positive number"),
    ],
)
def test_a_damaged_baseline_is_named_not_a_traceback(values, said, tmp_path):
    """Values edited or damaged were a traceback (no data point; text compared with a number), or a
    single value passed as `new/old 0.000 [0.000, inf]`, no figure regressed."""
    path = tmp_path / "baseline.json"
    figures = {"playouts/s": {"unit": "/s", "higher_is_better": True, "values": values}}
    path.write_text(json.dumps({"machine": timing.machine(), "figures": figures}))
    with pytest.raises(BenchError, match=f"^{re.escape(str(path))}: figure 'playouts/s' {re.escape(said)}"):
        timing.load_baseline(str(path), any_machine=False)


BOT = COMMAND_LINE_BOT.format(sleep=0)  # the bench tests' own bot, answering at once


def _saved(tmp_path, *options):
    (tmp_path / "bot.py").write_text(BOT)
    bot = f"python {tmp_path / 'bot.py'}"
    done = run("arena.cli", "bench", "--bot", bot, "--rounds", "4", *options, timeout=300)
    return bot, done


@pytest.mark.parametrize(
    "options,said",
    [
        (["--compare", ""], "argument --compare: is empty"),  # `--compare "$UNSET"` passed, compared with nothing
        (["--against-bot", ""], "argument --against-bot: is empty"),
        (["--save", ""], "argument --save: is empty"),
        (["--only", ""], "argument --only: is empty"),  # (it timed every kernel figure)
        (["--rounds", "0"], "--rounds must be at least 4"),  # (0 ran the default 12)
        (["--save", "."], "--save . is a folder"),  # (said after the whole measurement)
        (["--compare", "base.json", "--against-bot", "python x.py"], "--compare holds one version"),  # (ignored)
        (["--compare", "missing.json"], "no such baseline: missing.json"),
    ],
)
def test_a_bench_that_would_compare_nothing_or_lose_its_figures_is_refused_first(tmp_path, options, said):
    (tmp_path / "base.json").write_text(json.dumps({"machine": timing.machine(), "figures": {}}))
    (tmp_path / "bot.py").write_text(BOT)
    options = [o.replace("base.json", str(tmp_path / "base.json")) for o in options]
    done = run("arena.cli", "bench", "--bot", f"python {tmp_path / 'bot.py'}", *options, timeout=300)
    assert done.returncode == 2 and said in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_a_baseline_of_other_turns_or_a_damaged_one_is_refused(tmp_path):
    """A baseline saved with --quick (10 positions) compared with 20 flagged a 67% regression of an
    unchanged bot; another game's baseline was taken silently; a machine of null, a traceback."""
    bot, done = _saved(tmp_path, "--positions", "5", "--save", str(tmp_path / "five.json"))
    assert done.returncode == 0, done.stderr
    saved = json.loads((tmp_path / "five.json").read_text())
    assert saved["timed"]["what"] == "5 positions of Volcanoes' fixed positions"
    done = run("arena.cli", "bench", "--bot", bot, "--rounds", "4", "--positions", "6", "--compare",
               str(tmp_path / "five.json"), timeout=300)  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "five.json timed 5 positions of Volcanoes' fixed positions, this run 6 positions" in done.stderr
    saved["machine"] = None
    (tmp_path / "null.json").write_text(json.dumps(saved))
    with pytest.raises(BenchError, match="is not a baseline saved by `arena bench --save` \\(its machine is no table"):
        timing.load_baseline(str(tmp_path / "null.json"), any_machine=False)


def test_json_output_is_json_alone_with_its_verdict(tmp_path):
    (tmp_path / "bot.py").write_text(BOT)
    bot = f"python {tmp_path / 'bot.py'}"
    done = run("arena.cli", "bench", "--bot", bot, "--against-bot", bot, "--rounds", "4", "--positions", "3",
               "--json", timeout=300)  # fmt: skip
    parsed = json.loads(done.stdout)  # (the table followed the JSON on stdout)
    assert parsed["versions"] == [bot, bot] and "new/old" in done.stderr
    # The verdict is the exit status's (a bot against itself regresses only by the machine's noise: in 4
    # rounds on a busy machine, it may).
    assert isinstance(parsed["regressions"], list) and done.returncode == (1 if parsed["regressions"] else 0)


def test_a_busy_machine_is_named_beside_a_regression_against_a_baseline():
    assert timing.busy_note(0.5, 0.4) is None
    assert timing.busy_note(0.9, None) is None
    assert "the machine was busy during this run (load 2.50 per core, 0.30 when the baseline was saved)" in (
        timing.busy_note(2.5, 0.3)
    )
    assert timing.busy_note(1.6, 1.5) is not None
