"""The project's linter finds nothing and its formatter would change nothing (ruff, configured in
pyproject.toml): part of the test command, so CI and a developer's `python -m pytest` hold the code
to the same rules."""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing():
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format_would_change_nothing():
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", "--no-cache", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, "run `ruff format .`:\n" + done.stdout + done.stderr


def test_no_default_is_a_standard_stream_bound_when_its_module_was_imported():
    """A parameter whose default is `sys.stderr` holds the stream of the moment its module was
    imported. Once `arena`'s main imported the commands' modules itself, a test's captured stream,
    closed after that test, was a later test's log (ValueError: I/O operation on closed file). A
    default is None, and the stream is looked up when the function runs."""
    bound = []
    for folder in ("arena", "referee", "bots"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    defaults = [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]
                    bound += [f"{path.relative_to(ROOT)}:{d.lineno}" for d in defaults if _is_a_standard_stream(d)]
    assert bound == []


def _is_a_standard_stream(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "sys"
        and node.attr in ("stdin", "stdout", "stderr")
    )
