"""Every command in the README and the guides (docs/*.md) runs as written, so that no guide goes stale.

How a guide marks its code blocks (a fenced block's info string):
- ```sh: commands to run. The test runs each such block as one bash script (`set -euo pipefail`:
  every line must succeed) in a temporary folder holding a symbolic link to each top-level entry of
  this checkout, so that paths such as `tests/games/pebbles/...` and `python -m bots...` resolve as
  from the checkout's root, while what the commands write (`arena-runs/`, `game.json`) lands in the
  temporary folder. `arena`, `referee` and `python` on its PATH run THIS checkout's code (an
  editable install may point at another checkout), and the players' cache (XDG_CACHE_HOME) is the
  block's own. Each block has a timeout (`sh timeout=300` in its info string, else
  DEFAULT_TIMEOUT_S), after which its every process is killed, as they are when it ends; and no
  file of the checkout may change while it runs. Commands in the guides are small (`--pairs 1`); the
  prose says what a real measurement uses.
- ```text: a command that is not run here: `pip install`, a jar or a network the tests do not
  have, a run of minutes or hours. Its `arena` and `referee` command lines are still parsed by the
  commands' own parsers, so an option renamed or removed fails here too.
- ```output: what a command printed (shown, not checked); ```python, ```toml: a file's content;
  ```floors: docs/architecture.md's floors, which tests/contracts/test_layers.py reads and checks.
A block without a tag, or with another, fails (each block says whether it runs), as does a command
line outside any block (an indented block). Each guide has at least one block that runs; the README
stays under README_LINES lines, and every relative link of the guides leads to a file that exists.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUIDES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
README_LINES = 150
DEFAULT_TIMEOUT_S = 240
TAGS = {"sh", "text", "output", "python", "toml", "floors"}
PARSED = {"arena": "arena.cli", "referee": "referee.cli"}  # the commands whose lines `text` blocks parse
FENCE = re.compile(r"^```(.*)$")
# A command line left outside a fence: an indented code block.
INDENTED_COMMAND = re.compile(r"^(?: {4,}|\t)(?:arena|referee|python|pip|printf|echo)\b")
LINK = re.compile(r"\]\(([^)\s]+)\)")


@dataclass(frozen=True)
class Block:
    path: Path
    line: int  # of the opening fence, 1-based
    tag: str
    options: dict
    text: str

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def blocks(path: Path) -> list[Block]:
    """The fenced blocks of a guide, each with its tag and options (`sh timeout=300`)."""
    found, lines, i = [], path.read_text(encoding="utf-8").splitlines(), 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        words = match.group(1).split()
        end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("```")), None)
        assert end is not None, f"{path.relative_to(ROOT)}:{i + 1}: a fence that is never closed"
        # (Markdown closes a fence only with a line of backticks alone: text after them leaves the
        # block open, and the page below shows as code.)
        assert not lines[end].strip("`").strip(), f"{path.relative_to(ROOT)}:{end + 1}: text after a closing fence"
        options = dict(word.split("=", 1) for word in words[1:] if "=" in word)
        found.append(Block(path, i + 1, words[0] if words else "", options, "\n".join(lines[i + 1 : end]) + "\n"))
        i = end + 1
    return found


ALL = [block for guide in GUIDES for block in blocks(guide)]
RUN = [block for block in ALL if block.tag == "sh"]


# ---------------------------------------------------------------- the guides' shape


@pytest.mark.parametrize("guide", GUIDES, ids=lambda p: str(p.relative_to(ROOT)))
def test_each_guide_has_a_block_that_runs_and_no_command_outside_a_block(guide):
    found = blocks(guide)
    assert any(block.tag == "sh" for block in found), f"{guide.name} has no ```sh block: nothing of it is run"
    for block in found:
        assert block.tag in TAGS, f"{block.where}: a block tagged {block.tag!r}: tag it one of {sorted(TAGS)}"
    inside, stray = False, []
    for number, line in enumerate(guide.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("```"):
            inside = not inside
        elif not inside and INDENTED_COMMAND.match(line):
            stray.append(f"{guide.name}:{number}: {line.strip()}")
    assert not stray, (
        "commands outside a fenced block (put them in ```sh, or ```text if they cannot run):\n" + "\n".join(stray)
    )


def test_the_readme_is_a_map():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < README_LINES
    for guide in GUIDES[1:]:
        assert f"docs/{guide.name}" in readme, f"the README does not say where docs/{guide.name} is"


def anchors(path: Path) -> set[str]:
    """The anchors of a guide's headings (outside its code blocks), as GitHub makes them."""
    found, inside = set(), False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            inside = not inside
        elif line.startswith("#") and not inside:
            found.add(re.sub(r"[^\w\- ]", "", line.lstrip("#").strip().lower()).replace(" ", "-"))
    return found


@pytest.mark.parametrize("guide", GUIDES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_and_its_heading(guide):
    broken = []
    for target in LINK.findall(guide.read_text(encoding="utf-8")):
        if "://" in target or target.startswith("mailto:"):
            continue
        name, _, anchor = target.partition("#")
        path = (guide.parent / name) if name else guide
        if not path.exists() or (anchor and path.suffix == ".md" and anchor not in anchors(path)):
            broken.append(target)
    assert not broken, f"{guide.name} links to what does not exist: {broken}"


# ---------------------------------------------------------------- blocks not run: their command lines parse


def command_lines(text: str) -> list[list[str]]:
    """Each simple command of a block's lines (continued lines joined, comments dropped), as words,
    with leading `VAR=value` assignments dropped."""
    commands = []
    for line in text.replace("\\\n", " ").splitlines():
        lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
        lexer.whitespace_split, lexer.commenters = True, "#"
        words = []
        for token in [*lexer, ";"]:
            if token and set(token) <= set(";&|()<>"):
                while words and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", words[0]):
                    words.pop(0)
                if words:
                    commands.append(words)
                words = []
            else:
                words.append(token)
    return commands


TEXT_COMMANDS = [
    pytest.param(words, id=f"{block.where}:{' '.join(words)[:60]}")
    for block in ALL
    if block.tag == "text"
    for words in command_lines(block.text)
    if words[0] in PARSED
]


@pytest.mark.parametrize("words", TEXT_COMMANDS)
def test_a_command_not_run_still_parses(words, capsys):
    import importlib

    parser = importlib.import_module(PARSED[words[0]]).build_parser()
    try:
        parser.parse_args(words[1:])
    except SystemExit as exc:
        pytest.fail(f"{shlex.join(words)}: {capsys.readouterr().err.strip() or exc}")


# ---------------------------------------------------------------- blocks run


@pytest.fixture(scope="module")
def bin_dir(tmp_path_factory) -> Path:
    """`arena`, `referee` and `python` that run this checkout's code with this test's Python."""
    folder = tmp_path_factory.mktemp("bin")
    for name, module in PARSED.items():
        script = folder / name
        script.write_text(
            "#!/bin/sh\n"
            f"PYTHONPATH={shlex.quote(str(ROOT))}${{PYTHONPATH:+:$PYTHONPATH}} "
            f'exec {shlex.quote(sys.executable)} -m {module} "$@"\n'
        )
        script.chmod(0o755)
    python = folder / "python"  # a script, not a link: a virtual environment's Python finds its own by its path
    python.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} "$@"\n')
    python.chmod(0o755)
    return folder


def checkout_entries() -> list[Path]:
    """The checkout's top-level entries that git tracks (or, without git, those not hidden): never an
    `arena-runs/` of someone's own runs, which a block must not write into."""
    try:
        done = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    except OSError:
        done = None
    if done is None or done.returncode or not done.stdout:
        return [entry for entry in ROOT.iterdir() if not entry.name.startswith(".")]
    return sorted({ROOT / line.split("/", 1)[0] for line in done.stdout.splitlines() if not line.startswith(".")})


def checkout_state() -> str | None:
    """What git says of the checkout's files (None where git cannot say)."""
    try:
        done = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=all"], cwd=ROOT, capture_output=True, text=True
        )
    except OSError:
        return None
    return done.stdout if done.returncode == 0 else None


@pytest.mark.parametrize("block", RUN, ids=lambda b: b.where)
def test_a_block_runs_as_written(block, bin_dir, tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    for entry in checkout_entries():
        (work / entry.name).symlink_to(entry)
    env = dict(
        os.environ,
        PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        PYTHONPATH=str(ROOT),  # as an editable install of this checkout would
        XDG_CACHE_HOME=str(tmp_path / "cache"),
    )
    timeout = float(block.options.get("timeout", DEFAULT_TIMEOUT_S))
    before = checkout_state()
    process = subprocess.Popen(
        ["bash", "-euo", "pipefail", "-c", block.text],
        cwd=work,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        pytest.fail(f"{block.where}: still running after {timeout:g} s:\n{block.text}\n{output[-3000:]}")
    finally:
        try:  # what the block left running in the background goes too
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert process.returncode == 0, f"{block.where}: exit status {process.returncode}:\n{block.text}\n{output[-3000:]}"
    assert checkout_state() == before, f"{block.where} changed files of the checkout (write into the work folder)"
