"""`arena bench`: its comparison logic, and that it catches a bot made slower on purpose."""
import json
import time


from arena import bench
from bots.volcanoes import registry
from bots.volcanoes.random import RandomBot


class SlowRandomBot(RandomBot):
    """The random bot, made slower on purpose."""

    def choose(self, state, budget):
        time.sleep(0.02)
        return super().choose(state, budget)


def test_compare_names_regressions_in_either_direction():
    baseline = {
        "playouts/s numba": {"value": 1000.0},
        "latency x median": {"value": 10.0},
        "cold start x": {"value": 500.0},
    }
    figures = [
        bench.Figure("playouts/s numba", 400.0, "1/s", True),  # 60% slower: a regression
        bench.Figure("latency x median", 14.0, "ms", False),  # 40% slower: within 50%
        bench.Figure("cold start x", 300.0, "ms", False),  # faster: fine
        bench.Figure("new figure", 1.0, "ms", False),  # not in the baseline: ignored
    ]
    regressions = bench.compare(figures, baseline, tolerance=0.5)
    assert len(regressions) == 1 and regressions[0].startswith("playouts/s numba")


def test_a_bot_made_slower_on_purpose_fails_the_comparison(monkeypatch, tmp_path):
    positions = bench.bench_positions()[:8]
    baseline = {f.name: {"value": f.value} for f in bench.move_latency("random", positions, 0.08)}
    monkeypatch.setitem(registry.BOTS, "random", (__name__, "SlowRandomBot"))
    slower = bench.move_latency("random", positions, 0.08)
    regressions = bench.compare(slower, baseline, tolerance=0.5)
    assert any(r.startswith("latency random median") for r in regressions)


def test_bench_positions_are_legal_positions():
    positions = bench.bench_positions()
    assert len(positions) >= 50
    for levels, turns in positions:
        assert levels.shape == (80,) and abs(levels).max() <= 4
        assert turns >= 0


def test_quick_bench_passes_against_the_committed_baseline():
    """The short comparison CI runs: every figure printed, none regressed on an unchanged tree
    (the tolerance is wide: CI machines are shared and noisy)."""
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "arena.cli", "bench", "--quick", "--compare", str(bench.DEFAULT_BASELINE),
         "--tolerance", "0.6"],
        capture_output=True, text=True, timeout=600,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    baseline = json.loads(bench.DEFAULT_BASELINE.read_text())
    for name in baseline:  # every figure of the baseline is measured again
        assert name in out.stdout
    for kind in ("playouts/s numba", "playouts/s pure python", "mcts iterations/s", "alphabeta nodes/s",
                 "latency mcts p99", "cold start mcts", "referee overhead per turn"):
        assert kind in out.stdout
