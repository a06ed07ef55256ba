"""`arena bench` that compared nothing says so and fails: "no figure regressed" over zero figures
would pass a check that checked nothing."""

from __future__ import annotations

import json
import re

import pytest

from arena.bench import timing
from arena.bench.versions import BenchError
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
