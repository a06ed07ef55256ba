"""`arena --version` and `referee --version` say what runs: the installed version and, in a git
checkout, the commit (with a word where the checkout has changes not committed)."""

from __future__ import annotations

import re
import subprocess

import pytest

from referee.platform import version
from tests.reliability.commands import ROOT, run


@pytest.mark.parametrize("module", ["arena.cli", "referee.cli"])
def test_version_names_the_package_and_the_commit(module):
    done = run(module, "--version")
    assert done.returncode == 0 and not done.stderr, done.stderr
    assert done.stdout == version.version_line() + "\n"
    assert done.stdout.startswith("caldera ")
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True)
    if head.returncode == 0:  # (a checkout; an unpacked copy has no commit to name)
        assert re.search(rf"\(commit {head.stdout.strip()}(, with uncommitted changes)?\)$", done.stdout.strip())
