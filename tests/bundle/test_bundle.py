"""`arena bundle`: which modules go in, the size as CodinGame counts it, compression, and bundles
that run and play as processes where neither numba, NumPy nor the project can be imported (the
submission needs CodinGame's Python alone: its standard library)."""

import ast
import io
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

from arena.bundle import python as bundler
from arena.cli import main
from referee.platform.limits import CODE_UNITS
from bots.volcanoes.pure import rules as pure
from referee.volcanoes.board import NAMES, init_block
from referee.volcanoes.protocol import position_line, valid_line

PURE_MCTS_MODULES = [
    "bots",
    "bots.volcanoes",
    "bots.volcanoes.bot",
    "bots.volcanoes.pure",
    "bots.volcanoes.pure.book",
    "bots.volcanoes.pure.decisive",
    "bots.volcanoes.pure.mcts",
    "bots.volcanoes.pure.opening_book",
    "bots.volcanoes.pure.prior",
    "bots.volcanoes.pure.prior_weights",
    "bots.volcanoes.pure.race",
    "bots.volcanoes.pure.rules",
    "bots.volcanoes.pure.tactics",
    "referee",
    "referee.platform",
    "referee.platform.bot_env",
    "referee.platform.clock",
    "referee.platform.errors",
    "referee.platform.limits",
    "referee.volcanoes",
    "referee.volcanoes.board",
    "referee.volcanoes.constants",
]
BLOCKED = ("numba", "numpy", "bots", "referee", "arena")


@pytest.fixture(scope="module")
def blocked_path(tmp_path_factory) -> Path:
    """A directory for PYTHONPATH from which importing numba, NumPy or the project raises ImportError."""
    directory = tmp_path_factory.mktemp("blocked")
    for name in BLOCKED:
        (directory / name).mkdir()
        (directory / name / "__init__.py").write_text(f"raise ImportError('no {name} here')\n")
    return directory


@pytest.fixture(scope="module")
def submissions(tmp_path_factory) -> dict[str, Path]:
    directory = tmp_path_factory.mktemp("submissions")
    files = {}
    for name, compress in (("plain", "never"), ("compressed", "always")):
        files[name] = directory / f"{name}.py"
        files[name].write_text(bundler.build("mcts", compress=compress).text, encoding="utf-8")
    return files


def _run(path: Path, blocked: Path, lines: list[str], timeout: float = 60) -> subprocess.CompletedProcess:
    """Run a submission from an empty directory with only the blocking path added."""
    return subprocess.run(
        [sys.executable, str(path)],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=blocked,
        env={"PYTHONPATH": str(blocked), "PATH": "/usr/bin:/bin"},
    )


def _first_turn(levels, player):
    board = pure.from_levels(levels)
    legal = pure.legal_moves(board, player)
    return init_block() + [position_line(levels, player), valid_line(legal)], {NAMES[t] for t in legal}


def test_bot_names_resolve_to_modules():
    assert bundler.resolve_bot("mcts") == "bots.volcanoes.pure.mcts"  # the pure version first
    assert bundler.resolve_bot("boss") == "bots.volcanoes.boss"  # no pure version: the numba bot
    assert bundler.resolve_bot("bots.volcanoes.random") == "bots.volcanoes.random"
    # Names `arena bots` lists though no module has them (refused as "neither a bot name nor ...").
    assert bundler.resolve_bot("pure-mcts") == "bots.volcanoes.pure.mcts"
    assert bundler.resolve_bot("pure-random") == "bots.volcanoes.pure.random"
    with pytest.raises(bundler.BundleError, match="no bot module"):
        bundler.resolve_bot("nobody")


def test_pure_mcts_bundles_its_modules_and_no_numba():
    modules, external = bundler.collect("bots.volcanoes.pure.mcts")
    assert list(modules) == PURE_MCTS_MODULES
    assert external == []  # the pure engine needs nothing outside the standard library
    assert modules["bots.volcanoes.pure.rules"][1] == Path("bots/volcanoes/pure/rules.py").read_text()
    assert modules["bots.volcanoes.pure"][0] and not modules["bots.volcanoes.pure.rules"][0]


def test_a_numba_bot_gets_the_stand_in():
    built = bundler.build("greedy")
    assert "numba" in built.modules and "numba" not in built.external
    assert {"referee.volcanoes.rules", "bots.volcanoes.tracking", "bots.volcanoes.search.distance"} <= set(
        built.modules
    )
    # its pure stand-in comes without the opening book's tables (they are the pure bot's alone)
    assert "bots.volcanoes.pure.book" in built.modules and "bots.volcanoes.pure.opening_book" not in built.modules


def test_size_is_counted_in_utf16_code_units():
    assert bundler.utf16_units("ab") == 2
    assert bundler.utf16_units("é") == 1
    assert bundler.utf16_units("\N{GRINNING FACE}") == 2  # outside the BMP: a surrogate pair


def test_prose_is_left_out_and_every_line_kept():
    source = 'def f():\n    """Doc\n    string."""\n    # a comment\n    return "a # b"  # c\n'
    assert bundler.without_prose(source) == 'def f():\n    ""\n\n\n    return "a # b"\n'


def _docstrings_blank(tree: ast.AST) -> str:
    for docstring in bundler.docstrings(tree):
        docstring.value = ""
    return ast.dump(tree)


def test_the_bundled_modules_are_their_code_to_the_letter_without_prose():
    modules, _ = bundler.collect("bots.volcanoes.pure.mcts")
    for name, (_, source) in modules.items():
        bare = bundler.without_prose(source)
        assert bare.count("\n") == source.count("\n"), name  # a traceback names the original line
        assert _docstrings_blank(ast.parse(bare)) == _docstrings_blank(ast.parse(source)), name
        tokens = tokenize.generate_tokens(io.StringIO(bare).readline)
        assert not [t for t in tokens if t.type == tokenize.COMMENT], name


def test_compression_when_over_the_limit_and_an_error_when_still_over():
    plain = bundler.build("mcts")
    assert not plain.compressed and plain.size <= CODE_UNITS
    squeezed = bundler.build("mcts", limit=plain.size - 1)
    assert squeezed.compressed and squeezed.size < plain.size
    with pytest.raises(bundler.BundleError, match="over the limit"):
        bundler.build("mcts", compress="never", limit=plain.size - 1)
    with pytest.raises(bundler.BundleError, match="over the limit"):
        bundler.build("mcts", limit=1000)


@pytest.mark.parametrize("kind", ["plain", "compressed"])
def test_the_bundle_answers_without_numba_numpy_or_the_project(submissions, blocked_path, kind):
    lines, legal = _first_turn([0] * 80, pure.BLUE)
    done = _run(submissions[kind], blocked_path, lines)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() in legal


def test_a_bundled_numba_bot_runs_on_the_stand_in(tmp_path, blocked_path):
    """greedy's kernels run as plain Python (slowly: the stand-in is for correctness, not speed)."""
    path = tmp_path / "greedy.py"
    path.write_text(bundler.build("greedy").text)
    levels = [0] * 80
    levels[5] = 1
    lines, legal = _first_turn(levels, pure.ORANGE)
    done = _run(path, blocked_path, lines, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() in legal


def test_the_bundle_plays_a_game_through_the_referee(submissions, blocked_path, referee_game):
    bundle_command = f"env PYTHONPATH={blocked_path} {sys.executable} {submissions['compressed']}"
    opponent = f"{sys.executable} -m bots.volcanoes.random"
    # CodinGame's 100 ms a turn for the bundle; a long first turn for the random bot's numba cold start.
    result = referee_game(bundle_command, opponent, seed=5, turn_ms=100, timeout=120).result
    lost = result["winner"] == "orange" and result["reason"] in ("timeout", "crash", "invalid")
    assert not (lost and not result["late"]), result  # a timeout the machine caused is not the bundle's


def test_the_command_writes_the_file_and_reports_the_size(tmp_path):
    out = tmp_path / "submission.py"
    done = subprocess.run(
        [sys.executable, "-m", "arena.cli", "bundle", "mcts", "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert f"{bundler.utf16_units(out.read_text()):,} UTF-16 units" in done.stdout
    done = subprocess.run(
        [sys.executable, "-m", "arena.cli", "bundle", "nobody", "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("arena bundle: no bot module") and "Traceback" not in done.stderr


def test_the_bundle_command_compresses_when_asked(tmp_path):
    out = tmp_path / "s.py"
    assert main(["bundle", "mcts", "-o", str(out), "--compress", "always"]) == 0
    assert out.read_text().startswith("# A CodinGame submission made by `arena bundle`, compressed")


def test_the_bundled_file_and_the_in_process_pure_bot_are_one_program(submissions, blocked_path):
    """With the same seed and a fixed number of iterations a turn, the submission run by `python -S`
    and `pure-mcts` in this process answer every turn of a game alike."""
    from bots.volcanoes.bot import Player
    from bots.volcanoes.pure.mcts import MCTSBot
    from bots.volcanoes.pure.random import RandomBot as PureRandom
    from bots.volcanoes.seat import open_seat
    from referee.platform.process import BotProcess
    from referee.volcanoes.match import Settings, play_game

    command = [sys.executable, "-S", str(submissions["compressed"]), "--seed", "5", "--iterations", "150"]
    with BotProcess(command, cwd=str(blocked_path)) as submission:
        result = play_game(
            submission, open_seat(PureRandom(seed=1)), seed=2, settings=Settings(turn_ms=10_000, first_turn_ms=10_000)
        )
    ours = [t for t in result.turn_log if t.actor == "blue"]
    assert len(ours) >= 4
    in_process = Player(MCTSBot(seed=5, iterations=150))
    assert [in_process.answer(t.sent) for t in ours] == [t.received for t in ours]
