"""`arena bench`: its statistics, and that comparing two versions on this machine really catches a
slowdown (and stays quiet when nothing changed). The versions are tiny throwaway projects built in a
temporary directory: one with a workload made 30% costlier, so the suite can fail without flaking."""

import math
import os
import random
import re
import signal
import subprocess
import sys
import time

import pytest

from referee.platform.process_tree import NO_CGROUP_VARIABLE

from arena.bench import bots, kernels, ratios, timing, versions
from arena.builds.revisions import SourceError, tree_at
from arena.cli import main
from arena.project import PROJECT_ROOT

# ---------------------------------------------------------------- statistics


def test_paired_ratio_finds_a_ten_percent_drop_under_noise():
    rng = random.Random(1)
    drift = [1 + 0.3 * math.sin(i) for i in range(12)]  # load that changes from round to round
    old = [1000 * d * rng.gauss(1, 0.02) for d in drift]
    new = [900 * d * rng.gauss(1, 0.02) for d in drift]
    r = ratios.paired_ratio(new, old)
    assert r.low < 0.9 < r.high and r.high < 1
    assert ratios.is_regression(r, higher_is_better=True, threshold=0.05)


def test_a_small_change_is_not_a_regression_even_when_certain():
    old = [100.0 + i for i in range(10)]
    new = [v * 0.98 for v in old]  # 2% slower, without any noise
    r = ratios.paired_ratio(new, old)
    assert r.high < 1
    assert not ratios.is_regression(r, higher_is_better=True, threshold=0.05)
    assert ratios.is_regression(r, higher_is_better=True, threshold=0.01)


def test_an_uncertain_change_is_not_a_regression():
    old = [100.0] * 6
    new = [80.0, 125.0, 80.0, 125.0, 80.0, 125.0]  # 20% either way
    r = ratios.paired_ratio(new, old)
    assert r.low < 1 < r.high
    assert not ratios.is_regression(r, higher_is_better=True, threshold=0.05)


def test_times_regress_upwards():
    old = [10.0, 11.0, 10.5, 10.2, 10.8]
    r = ratios.paired_ratio([v * 1.3 for v in old], old)
    assert ratios.is_regression(r, higher_is_better=False, threshold=0.05)
    assert not ratios.is_regression(r, higher_is_better=True, threshold=0.05)


def test_one_round_hit_by_a_burst_of_load_is_dropped():
    logs = [0.01, -0.01, 0.0, 0.02, -0.02, 0.01, 0.0, -0.01, 0.9, 0.01]
    assert ratios.drop_outliers(logs) == [v for v in logs if v != 0.9]
    assert ratios.drop_outliers([0.0] * 10) == [0.0] * 10  # no spread: nothing is far


def test_unpaired_ratio_for_a_saved_baseline():
    r = ratios.unpaired_ratio([80.0, 81.0, 79.0, 80.5], [100.0, 101.0, 99.0, 100.5])
    assert r.low < 0.8 < r.high < 0.85


def test_the_table_shows_the_values_whose_quotient_is_the_ratio():
    """The p99 latencies of a bot's rounds are skewed: their medians (3.6 vs 2.9 ms) said new was
    slower where the ratio (0.785) said faster. The table's two values are the ratio's own."""
    old, new = [2.0, 2.9, 3.0, 9.0], [1.0, 3.6, 3.6, 4.0]
    for r in (ratios.paired_ratio(new, old), ratios.unpaired_ratio(new, old)):
        assert (r.new < r.old) == (r.estimate < 1) and math.isclose(r.new / r.old, r.estimate)
    logs = [0.01, -0.01, 0.0, 0.02, -0.02, 0.01, 0.0, -0.01, 0.9, 0.01]  # one round dropped as an outlier
    r = ratios.paired_ratio([math.exp(v) for v in logs], [1.0] * len(logs))
    assert r.dropped == 1 and math.isclose(r.new / r.old, r.estimate)
    m = kernels.Measured()
    m.specs["latency p99 ms"] = kernels.Spec("latency p99 ms", {}, "ms", higher_is_better=False)
    m.values["latency p99 ms"] = [new, old]
    row = timing.comparison(m, 0.05)[0][0]
    shown_new, shown_old, estimate = (
        float(v) for v in re.findall(r"([\d.]+) vs +([\d.]+) ms +new/old +([\d.]+)", row)[0]
    )
    assert (shown_new < shown_old) == (estimate < 1), row


# ---------------------------------------------------------------- saved baselines


def _measured(values):
    m = kernels.Measured()
    m.specs["playouts/s pure python"] = kernels.Spec("playouts/s pure python", {}, "1/cpu-s")
    m.values["playouts/s pure python"] = [values]
    return m


def test_a_baseline_from_another_machine_is_refused(tmp_path, monkeypatch):
    path = tmp_path / "base.json"
    timing.save(str(path), _measured([100.0, 101.0, 99.0]))
    assert timing.load_baseline(str(path), any_machine=False)["figures"]["playouts/s pure python"]["values"] == [
        100.0,
        101.0,
        99.0,
    ]
    here = timing.machine()
    monkeypatch.setattr(timing, "machine", lambda: {**here, "cpu": "another cpu"})
    with pytest.raises(versions.BenchError, match="another machine"):
        timing.load_baseline(str(path), any_machine=False)
    assert timing.load_baseline(str(path), any_machine=True)  # a warning only


def test_not_a_baseline_is_a_clear_error(tmp_path):
    path = tmp_path / "x.json"
    path.write_text('{"playouts": 3}')
    with pytest.raises(versions.BenchError, match="not a baseline"):
        timing.load_baseline(str(path), any_machine=False)


# ---------------------------------------------------------------- two versions, end to end

# A stand-in for the pure engine's benchmark function, with a per-playout cost to vary.
WORKLOAD = """
import time

def playouts_per_second(seconds=2.0, seed=0):
    count, clock = 0, time.process_time
    start = clock()
    while clock() - start < seconds:
        total = 0
        for i in range({cost}):
            total += i * i
        count += 1
    return count / (clock() - start)
"""


def _version(root, cost):
    package = root / "bots" / "volcanoes" / "pure"
    package.mkdir(parents=True)
    for folder in (root / "bots", root / "bots" / "volcanoes", package):
        (folder / "__init__.py").write_text("")
    (package / "bench.py").write_text(WORKLOAD.format(cost=cost))
    return root


def _bench(*args):
    return subprocess.run(
        [sys.executable, "-m", "arena.cli", "bench", *args], check=False, capture_output=True, text=True, timeout=300
    )


# Many short rounds rather than a few long ones to catch a slowdown: the interval comes from one
# log ratio per pair of worker processes, so 8 rounds give 4 of them and a t of 3.18, and under
# bursts of load the 30% slowdown went unreported in 2 runs of 12 (and once in CI); 24 rounds of
# 0.05 s missed it in none of 12.
SLOWDOWN_SETTINGS = ("--only", "pure", "--rounds", "24", "--seconds", "0.05")


def test_a_version_made_30_percent_slower_is_reported(tmp_path):
    fast, slow = _version(tmp_path / "fast", 2000), _version(tmp_path / "slow", 2600)
    out = _bench("--tree", str(slow), "--against", str(fast), *SLOWDOWN_SETTINGS)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "REGRESSION playouts/s pure python" in out.stderr
    faster = _bench("--tree", str(fast), "--against", str(slow), *SLOWDOWN_SETTINGS)
    assert faster.returncode == 0, faster.stdout + faster.stderr  # an improvement is no regression
    ratio = float(re.search(r"new/old\s+([\d.]+)", faster.stdout).group(1))
    assert 1.1 < ratio < 1.6, faster.stdout  # 1.3 in truth; a busy machine widens the estimate's spread


def test_two_identical_versions_are_clean(tmp_path):
    one, two = _version(tmp_path / "one", 2000), _version(tmp_path / "two", 2000)
    # --quick's 8 rounds: a wider interval than the slowdown test's, so a false alarm is rarer (1
    # in 32 runs at 24 rounds under bursts of load, none in 20 at 8).
    out = _bench("--tree", str(one), "--against", str(two), "--only", "pure", "--quick")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no figure regressed" in out.stdout


def test_a_version_without_the_workload_is_skipped_not_measured_elsewhere(tmp_path):
    """An editable install of the project must not stand in for a package a version lacks."""
    empty = tmp_path / "empty"
    (empty / "bots").mkdir(parents=True)
    (empty / "bots" / "__init__.py").write_text("")
    out = _bench("--tree", str(empty), "--only", "pure", "--rounds", "4", "--seconds", "0.05")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "skipped playouts/s pure python" in out.stderr


def test_unknown_revision_is_a_one_line_error():
    out = _bench("--against", "no-such-revision-xyz", "--only", "pure")
    assert out.returncode == 2
    assert out.stderr.startswith("arena bench: 'no-such-revision-xyz' is neither") and out.stderr.count("\n") == 1


def test_a_revision_missing_from_a_shallow_clone_says_to_fetch_its_history(tmp_path):
    """GitHub Actions clones one commit deep: `--against HEAD~1` said only git's "Needed a single
    revision"."""
    repo, shallow = tmp_path / "repo", tmp_path / "shallow"
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t"}
    env["GIT_COMMITTER_EMAIL"] = "t@t"
    for args in (["init", "-q", str(repo)], ["-C", str(repo), "commit", "-q", "--allow-empty", "-m", "1"]):
        subprocess.run(["git", *args], check=True, env=env, capture_output=True)
    subprocess.run(["git", "-C", str(repo), "commit", "-q", "--allow-empty", "-m", "2"], check=True, env=env)
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{repo}", str(shallow)], check=True)
    with pytest.raises(
        SourceError, match=r"a shallow clone: fetch its history \(git fetch --unshallow, or fetch-depth: 0"
    ):
        tree_at(shallow, "HEAD~1", cache=tmp_path / "cache")
    with pytest.raises(SourceError, match=r"no commit HEAD~9 in .*\(git rev-parse"):  # a full clone: git's words
        tree_at(repo, "HEAD~9", cache=tmp_path / "cache")


# ---------------------------------------------------------------- any command-line bot

BOT = """
import sys, time
n = int(input())
for _ in range(n):
    input()
while True:
    input()
    valid = input().split()
    time.sleep({sleep})
    print("iterations=500", file=sys.stderr, flush=True)
    print(valid[0], flush=True)
"""


def test_a_command_line_bot_made_slower_is_reported(tmp_path):
    (tmp_path / "fast.py").write_text(BOT.format(sleep=0.002))
    (tmp_path / "slow.py").write_text(BOT.format(sleep=0.03))
    new, old = f"{sys.executable} {tmp_path / 'slow.py'}", f"{sys.executable} {tmp_path / 'fast.py'}"
    out = _bench("--bot", new, "--against-bot", old, "--positions", "6", "--rounds", "4")
    assert out.returncode == 1, out.stdout + out.stderr
    for figure in ("latency p50 ms", "latency max ms", "iterations/s"):
        assert f"REGRESSION {figure}" in out.stderr
    assert "first answer ms" in out.stdout


def test_a_bot_that_exits_or_answers_nonsense_is_a_clear_error(tmp_path):
    (tmp_path / "mute.py").write_text("import sys\nsys.exit(3)\n")
    out = _bench("--bot", f"{sys.executable} {tmp_path / 'mute.py'}", "--rounds", "4", "--positions", "3")
    assert out.returncode == 2 and out.stderr.startswith("arena bench: ") and "exited with code 3" in out.stderr
    (tmp_path / "broken.py").write_text("import no_such_module_anywhere\n")  # why it exited: what it said last
    out = _bench("--bot", f"{sys.executable} {tmp_path / 'broken.py'}", "--rounds", "4", "--positions", "3")
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert "exited with code 1: ModuleNotFoundError: No module named 'no_such_module_anywhere'" in out.stderr
    # Its last words come through past what its turn kept of its stderr (the first 4 KiB).
    (tmp_path / "talker.py").write_text(
        "import sys\nsys.stderr.write('x' * 9000 + '\\n')\nsys.exit('no weights.bin')\n"
    )
    out = _bench("--bot", f"{sys.executable} {tmp_path / 'talker.py'}", "--rounds", "4", "--positions", "3")
    assert out.returncode == 2 and out.stderr.strip().endswith("exited with code 1: no weights.bin"), out.stderr
    (tmp_path / "wrong.py").write_text(BOT.format(sleep=0).replace("valid[0]", '"Z99"'))
    out = _bench("--bot", f"{sys.executable} {tmp_path / 'wrong.py'}", "--rounds", "4", "--positions", "3")
    assert out.returncode == 2 and "answered 'Z99' on position 1, not a legal move" in out.stderr


# Reports a million iterations on its first turn, one on each later turn, and pages of debug output
# on a turn when asked.
WORKER = """
import sys
n = int(input())
for _ in range(n):
    input()
turn = 0
while True:
    input()
    valid = input().split()
    if turn == 2 and {flood}:
        sys.stderr.write(("debug " * 20 + "\\n") * 12000)
    print(f"iterations={{1_000_000 if turn == 0 else 1}}", file=sys.stderr, flush=True)
    print(valid[0], flush=True)
    turn += 1
"""


def test_a_bots_work_per_second_counts_its_later_turns_only(tmp_path):
    """The first turn's work over the later turns' time made a bot whose first turn works longer
    (CodinGame's 1000 ms) look faster: `FIRST=0.5` against `FIRST=0.05` at 0.36 the iterations/s."""
    (tmp_path / "worker.py").write_text(WORKER.format(flood=False))
    figures = bots.bot_run(f"{sys.executable} {tmp_path / 'worker.py'}", None, [bots.positions_transcript(10)])
    # 9 iterations over 9 later turns of at least tens of microseconds each; 1,000,009 before
    assert 0 < figures["iterations/s"] < 100_000, figures


def test_a_bot_whose_debug_output_would_hide_its_work_is_told_so(tmp_path):
    """A turn's stderr kept its first 4 KiB: a bot whose debug output came first lost its work
    figure on those turns, and was reported a regression of half its speed."""
    (tmp_path / "worker.py").write_text(WORKER.format(flood=True))
    with pytest.raises(versions.BenchError, match=r"more than 1,048,576 bytes of stderr in 1 turn"):
        bots.bot_run(f"{sys.executable} {tmp_path / 'worker.py'}", None, [bots.positions_transcript(5)])


def test_a_command_of_this_project_taken_at_another_version(tmp_path):
    old = tmp_path / "old"
    (old / "bots" / "volcanoes").mkdir(parents=True)
    (old / "bots" / "volcanoes" / "random.py").write_text("")
    command, cwd = bots.command_at("python bots/volcanoes/random.py --fast", versions.Version("old", old))
    assert command == f"python {old / 'bots' / 'volcanoes' / 'random.py'} --fast" and cwd == str(old)
    with pytest.raises(versions.BenchError, match="does not exist"):
        bots.command_at("python bots/volcanoes/greedy.py", versions.Version("old", old))
    with pytest.raises(versions.BenchError, match="names no file"):
        bots.command_at("java -jar elsewhere.jar", versions.Version("old", old))


def test_bench_positions_are_legal_positions():
    positions = bots.bench_positions()
    assert len(positions) >= 50
    for levels, turns in positions:
        assert levels.shape == (80,) and abs(levels).max() <= 4
        assert turns >= 0
    turns = bots.protocol_turns(positions[:3])
    assert len(turns[0]) == 81 + 2 and all(len(t) == 2 for t in turns[1:])


def test_every_puzzle_and_the_rules_playout_loop_have_a_figure(capsys):
    from arena.bench import worker as bench_worker
    from arena import cli
    from referee.puzzle import NAMES

    puzzles = [spec.request["puzzle"] for spec in kernels.kernel_specs(["puzzle"])]
    assert puzzles == list(NAMES)
    assert cli.main(["bench", "--list", "--only", "puzzle", "rules"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert listed[0] == "playouts/s numba rules (called from python)" and len(listed) == 1 + len(NAMES)
    for name in ("coroutine", "vikings"):  # (the others' kernels take longer to load)
        assert bench_worker.puzzle_solves(0.01, puzzle=name) > 0
    assert bench_worker.rules_playouts(0.01) > 0


def test_the_puzzle_searches_have_the_figures_of_the_former_puzzle_benches():
    """What `referee iqtwist bench` and `referee stormyseas bench` timed: challenges solved to the
    end, the empty board counted, the known cards solved by each metric."""
    from arena.bench import worker as bench_worker

    names = [spec.name for spec in kernels.kernel_specs(["iqtwist", "stormyseas"])]
    assert names == [
        "iqtwist challenges/s",
        "iqtwist empty board solutions/s",
        "stormyseas cards/s by units",
        "stormyseas cards/s by slides",
        "puzzle iqtwist solves/s",
        "puzzle stormyseas solves/s",
    ]
    assert bench_worker.iqtwist_empty_board(0.01) > 5992 / 10  # the former bench's goal: a count within 10 s
    assert bench_worker.iqtwist_challenges(0.01) > 0
    assert bench_worker.stormyseas_cards(0.01, metric="slides") > 0


def test_a_search_is_timed_without_the_bots_opening_book():
    """mcts plays its first moves from a book: its search speed is measured with the book off, so
    that every position is searched, the game's first (on the book) among them."""
    from arena.bench import worker as bench_worker

    assert bench_worker.search_speed(0.06, "mcts", "iterations", str(kernels.POSITIONS_FILE)) > 0
    bot, states = bench_worker._bots["mcts"]
    assert states[0].turns_played == 0 and not bot.use_book
    bot.start(states[0].player)
    bot.choose(states[0].copy(), 0.01)
    assert bot.last_search["iterations"] > 0


# Works 60 ms of CPU a turn, started by a script that runs it without exec: killed at the end of its
# run as the script's child, it was never reaped by the bench, whose CPU figure counted the script alone.
BUSY = """
import sys, time
for line in sys.stdin:
    start = time.process_time()
    while time.process_time() - start < 0.06:
        pass
    print("x", flush=True)
"""
WRAPPER = '#!/bin/sh\n"{python}" "{bot}"\nexit $?\n'


@pytest.mark.parametrize("cgroup", ["allowed", "turned off"])
def test_the_cpu_of_a_bot_started_by_a_wrapper_script_counts(tmp_path, cgroup):
    (tmp_path / "busy.py").write_text(BUSY)
    wrapper = tmp_path / "run.sh"
    wrapper.write_text(WRAPPER.format(python=sys.executable, bot=tmp_path / "busy.py"))
    wrapper.chmod(0o755)
    # In a process of its own: whether bots get cgroups is settled once a process.
    code = (
        "from arena.bench import bots, transcripts; "
        "script = transcripts.Transcript(tuple(transcripts.Turn((str(i),)) for i in range(4))); "
        f"print(bots.bot_run({str(wrapper)!r}, None, [script])['cpu per run ms'])"
    )
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    if cgroup == "turned off":
        env[NO_CGROUP_VARIABLE] = "1"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert float(done.stdout) >= 0.06 * 4 * 1000 * 0.8  # (its 240 ms, less a clock tick a process)


@pytest.mark.parametrize("load, said", [(4.0, True), (0.5, False)])
def test_a_regression_on_a_busy_machine_says_the_machine_was_busy(tmp_path, monkeypatch, capsys, load, said):
    """Identical bots were flagged at a load of 3.5-5 a core, on wall-clock figures, with no word
    of the load: the note was printed against a saved baseline only."""
    (tmp_path / "fast.py").write_text(BOT.format(sleep=0))
    (tmp_path / "slow.py").write_text(BOT.format(sleep=0.03))
    new, old = f"{sys.executable} {tmp_path / 'slow.py'}", f"{sys.executable} {tmp_path / 'fast.py'}"
    monkeypatch.setattr(timing, "load_per_core", lambda: load)
    assert main(["bench", "--bot", new, "--against-bot", old, "--positions", "4", "--rounds", "4"]) == 1
    err = capsys.readouterr().err
    assert "REGRESSION latency p50 ms" in err
    assert ("note: the machine was busy during this run (load 4.00 per core)" in err) == said


def test_work_that_one_version_reports_and_the_other_does_not_is_said_to_be_skipped(tmp_path, capsys):
    """The old version printed iterations=N, the new one not: iterations/s went without a word."""
    (tmp_path / "old.py").write_text(BOT.format(sleep=0))
    (tmp_path / "new.py").write_text(BOT.format(sleep=0).replace('print("iterations=500"', 'print("thinking"'))
    new, old = f"{sys.executable} {tmp_path / 'new.py'}", f"{sys.executable} {tmp_path / 'old.py'}"
    base = tmp_path / "base.json"
    assert main(["bench", "--bot", new, "--against-bot", old, "--positions", "3", "--rounds", "4"]) in (0, 1)
    assert f"skipped iterations/s: only {old!r} reports it" in capsys.readouterr().err
    assert main(["bench", "--bot", old, "--positions", "3", "--rounds", "4", "--save", str(base)]) == 0
    assert main(["bench", "--bot", new, "--positions", "3", "--rounds", "4", "--compare", str(base)]) in (0, 1)
    assert f"in {base} but not given by this run, so not compared: iterations/s" in capsys.readouterr().err


def test_a_threshold_given_as_a_percentage_is_refused_with_the_fraction_meant():
    """`--threshold 5`, meant as 5%, ran and said "no figure regressed by more than 500%"."""
    out = _bench("--threshold", "5", "--only", "pure")
    assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
    assert "--threshold: must be a fraction from 0 to 1 (0.05 for 5%), not 5" in out.stderr


def test_a_revision_of_the_bots_own_repository_is_pointed_to_against_bot(tmp_path, capsys):
    """--against REV is a revision of this project: a bot's own tag said only that it was none."""
    bot = tmp_path / "bot.py"
    bot.write_text(BOT.format(sleep=0))
    assert main(["bench", "--bot", str(bot), "--against", "no-such-tag-xyz", "--rounds", "4"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.strip().endswith(f"here --against-bot {bot}@no-such-tag-xyz"), err


def test_a_file_at_a_revision_inside_a_command_line_is_refused_before_any_run(tmp_path, capsys):
    """`--against-bot "python bot.py@slow"` failed only at the replay: can't open file 'bot.py@slow'."""
    bot = tmp_path / "bot.py"
    bot.write_text(BOT.format(sleep=0))
    new, old = f"{sys.executable} {bot}", f"{sys.executable} {bot}@slow"
    assert main(["bench", "--bot", new, "--against-bot", old, "--rounds", "4", "--positions", "3"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("arena bench: ") and err.count("\n") == 1, err
    assert f"FILE@REV is a player spec of its own, not a word of a command line; give {bot}@slow alone" in err


def test_ctrl_c_during_a_measure_ends_the_bench_in_one_line(tmp_path):
    """Ctrl+C (SIGINT to the command's process group) while a worker measured printed the worker's
    KeyboardInterrupt traceback above `arena bench: interrupted`."""
    slow = _version(tmp_path / "slow", 2000)
    bench = subprocess.Popen(
        [sys.executable, "-m", "arena.cli", "bench", "--tree", str(slow), "--against", str(slow), "--only", "pure"]
        + ["--rounds", "8", "--seconds", "3"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        time.sleep(4)  # (both workers started, one measuring)
        os.killpg(bench.pid, signal.SIGINT)
        _, err = bench.communicate(timeout=60)
    finally:
        if bench.poll() is None:
            os.killpg(bench.pid, signal.SIGKILL)
    assert bench.returncode == 130 and "Traceback" not in err, err
    assert err.strip().splitlines()[-1] == "arena bench: interrupted", err
