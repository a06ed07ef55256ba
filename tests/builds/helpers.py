"""What the tests of builds share: a C++ bot, running a build, skipping where a compiler is missing."""

import subprocess
from pathlib import Path

import pytest

from arena.builds import languages
from arena.builds.build import Build

CPP_BOT = (
    "#include <iostream>\nint main() {\n    int n;\n    while (std::cin >> n) std::cout << n + {k} << std::endl;\n}\n"
)


def needs(key: str) -> None:
    """Skip, saying what to install, where this machine cannot build `key`."""
    why = languages.missing(languages.BY_KEY[key])
    if why:
        pytest.skip(why)


def answers(built: Build, given: str = "41\n") -> str:
    done = subprocess.run(
        built.command, shell=True, input=given, capture_output=True, text=True, cwd=built.cwd, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path
