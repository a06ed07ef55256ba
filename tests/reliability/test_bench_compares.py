"""`arena bench` that compared nothing says so and fails: "no figure regressed" over zero figures
would pass a check that checked nothing."""

from __future__ import annotations

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
