"""`--version` of the `referee` and `arena` commands: the project's version as installed (setup.cfg's,
read from the package's metadata) and, where it runs from a git checkout, its commit, so that a
report of a bug or a figure says exactly what made it. Computed only when asked: git is not run at
every start of a command."""

from __future__ import annotations

import argparse
import subprocess
from importlib import metadata
from pathlib import Path

PACKAGE = "caldera"
_ROOT = Path(__file__).resolve().parents[2]  # the checkout (or site-packages) that holds `referee`


def version_line() -> str:
    """`caldera 0.1.0 (commit 6eafe76c1c2a)`, `+uncommitted changes` where the checkout has them; the
    version alone outside a git checkout, "unknown" where the package is not installed."""
    try:
        line = f"{PACKAGE} {metadata.version(PACKAGE)}"
    except metadata.PackageNotFoundError:
        line = f"{PACKAGE} (version unknown: not installed)"
    commit = _git("rev-parse", "--short=12", "HEAD")
    if commit:
        changed = _git("status", "--porcelain", "--untracked-files=no")
        line += f" (commit {commit}{', with uncommitted changes' if changed else ''})"
    return line


def _git(*args: str) -> str:
    try:
        done = subprocess.run(["git", "-C", str(_ROOT), *args], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


class VersionAction(argparse.Action):
    """`--version`: print `version_line()` and exit 0."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest, nargs=0, default=default, help=help or "print the version and exit")

    def __call__(self, parser, namespace, values, option_string=None):
        print(version_line())
        parser.exit()
