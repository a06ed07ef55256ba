"""Player specs: registered bots, labels, pinned files and git revisions, command lines."""
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from arena.players import REGISTRY, PlayerError, changed_since, default_tournament, resolve, resolve_all

ROOT = Path(__file__).resolve().parents[2]


def test_registered_bots_and_labels(tmp_path):
    greedy = resolve("greedy", tmp_path)
    assert (greedy.label, greedy.kind, greedy.target) == ("greedy", "bot", REGISTRY["greedy"])
    assert len(greedy.version) == 12 and changed_since(greedy) is None
    other = resolve("old=greedy", tmp_path)
    assert (other.label, other.spec, other.version) == ("old", "greedy", greedy.version)
    with pytest.raises(PlayerError, match="name them apart"):
        resolve_all(["greedy", "greedy"], tmp_path)
    with pytest.raises(PlayerError, match="unknown player 'nosuchbot'"):
        resolve("nosuchbot", tmp_path)
    assert default_tournament()[:3] == ["random", "boss", "greedy"]


def test_a_file_is_pinned_by_a_copy(tmp_path):
    source = tmp_path / "mybot.py"
    source.write_text("print('v1')\n")
    player = resolve(str(source), tmp_path / "cache")
    copy = Path(shlex.split(player.target)[-1])
    assert (player.label, player.kind) == ("mybot", "file")
    assert copy != source and copy.read_text() == "print('v1')\n"
    source.write_text("print('v2')\n")  # editing the original does not change what plays
    assert changed_since(player) is None
    assert resolve(str(source), tmp_path / "cache").version != player.version


def test_a_command_line_and_its_changes(tmp_path):
    script = tmp_path / "bot.py"
    script.write_text("print('RANDOM')\n")
    player = resolve(f"mine={sys.executable} {script}", tmp_path)
    assert (player.label, player.kind) == ("mine", "command")
    assert changed_since(player) is None
    script.write_text("print('N01')\n")
    assert "changed" in changed_since(player)


def test_a_git_revision_is_an_extracted_tree(tmp_path, monkeypatch):
    if subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True).returncode:
        pytest.skip("not a git checkout")
    monkeypatch.setattr(subprocess, "run", _no_warm_up(subprocess.run))  # warming numba takes long
    player = resolve("random@HEAD", tmp_path)
    head = subprocess.check_output(["git", "-C", str(ROOT), "rev-parse", "HEAD"], text=True).strip()
    assert (player.kind, player.version) == ("git", head[:12])
    tree = Path(player.cwd)
    committed = subprocess.check_output(["git", "-C", str(ROOT), "show", "HEAD:bots/volcanoes/random.py"])
    assert (tree / "bots" / "volcanoes" / "random.py").read_bytes() == committed
    assert shlex.split(player.target) == [sys.executable, "-m", "bots.volcanoes.random"]
    with pytest.raises(PlayerError, match="git"):
        resolve("random@no-such-revision", tmp_path)


def _no_warm_up(run):
    def fake(args, *rest, **kwargs):
        if args[:2] == [sys.executable, "-c"]:
            return subprocess.CompletedProcess(args, 0)
        return run(args, *rest, **kwargs)

    return fake
