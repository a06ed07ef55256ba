"""Player specs: registered bots, labels, pinned files and git revisions, command lines, sources built."""

import hashlib
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from arena.builds import languages
from arena.games.volcanoes.game import VolcanoesGame
from arena.players import registry as arena_players
from arena.players.base import PlayerError
from arena.play.store import Store
from referee.platform.bot_commands import warm_up_command

ROOT = Path(__file__).resolve().parents[2]
VOLCANOES = VolcanoesGame()


def resolve(text, cache=None):
    return arena_players.resolve(text, VOLCANOES, cache)


def resolve_all(texts, cache=None):
    return arena_players.resolve_all(texts, VOLCANOES, cache)


def changed_since(player):
    return arena_players.changed_since(player, VOLCANOES)


def test_registered_bots_and_labels(tmp_path):
    greedy = resolve("greedy", tmp_path)
    assert (greedy.label, greedy.kind, greedy.target) == ("greedy", "bot", "greedy")
    assert len(greedy.version) == 12 and changed_since(greedy) is None
    other = resolve("old=greedy", tmp_path)
    assert (other.label, other.spec, other.version) == ("old", "greedy", greedy.version)
    with pytest.raises(PlayerError, match=r"name them apart with LABEL=SPEC \(e.g. new=greedy\)"):
        resolve_all(["greedy", "greedy"], tmp_path)
    with pytest.raises(PlayerError, match="two players are called 'a': give them different labels$"):
        resolve_all(["a=greedy", "a=random"], tmp_path)  # (labelled already: `new=a` was no help)
    with pytest.raises(PlayerError, match="unknown player 'nosuchbot'"):
        resolve("nosuchbot", tmp_path)
    assert arena_players.default_lineup(VOLCANOES) == [
        "mcts",
        "alphabeta",
        "uct",
        "pure-mcts",
        "greedy",
        "boss",
        "random",
    ]


def test_a_bot_s_version_covers_every_module_it_plays_with(tmp_path, monkeypatch):
    """An edit to the search kernels `mcts` imports (not to mcts.py) is a new version of `mcts`,
    and one that the run it was resolved in notices; `greedy`, which never imports them, keeps its
    version."""
    import arena.players.volcanoes as volcanoes_players

    before = {name: resolve(name, tmp_path) for name in ("mcts", "greedy")}
    collect = volcanoes_players.collect

    def edited(entry):
        modules, external = collect(entry)
        if "bots.volcanoes.search.tree" in modules:
            is_package, source = modules["bots.volcanoes.search.tree"]
            modules["bots.volcanoes.search.tree"] = (is_package, source + "\n# an edit\n")
        return modules, external

    monkeypatch.setattr(volcanoes_players, "collect", edited)
    assert resolve("mcts", tmp_path).version != before["mcts"].version
    assert "its code changed" in changed_since(before["mcts"])
    assert resolve("greedy", tmp_path).version == before["greedy"].version


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


def test_a_copy_that_cannot_be_kept_leaves_no_partial_copy(tmp_path):
    """On a full disk the partial copy (`.binbot2.py.part21205`) stayed in the cache for good."""
    source = tmp_path / "mybot.py"
    source.write_text("print('v1')\n")
    version = hashlib.sha256(source.read_bytes()).hexdigest()[:12]
    pins = tmp_path / "cache" / "pins" / f"file-{version}"
    (pins / "mybot.py").mkdir(parents=True)  # where the copy goes, taken: the copy fails once written
    with pytest.raises(PlayerError, match="^cannot keep a copy of a player in"):
        resolve(str(source), tmp_path / "cache")
    assert [path.name for path in pins.iterdir()] == ["mybot.py"]


def test_a_command_line_and_its_changes(tmp_path):
    script = tmp_path / "bot.py"
    script.write_text("print('RANDOM')\n")
    player = resolve(f"mine={sys.executable} {script}", tmp_path)
    assert (player.label, player.kind) == ("mine", "command")
    assert changed_since(player) is None
    script.write_text("print('N01')\n")
    assert "changed" in changed_since(player)


def test_a_command_s_files_are_named_from_the_folder_it_runs_in(tmp_path, monkeypatch):
    """`env -C sub python3 bot.py` runs sub/bot.py, and `python3 -m sub.bot` runs it too: each is
    labelled by it, and an edit to it is a change the run notices (a resumed run refuses it)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    script = tmp_path / "sub" / "bot.py"
    script.write_text("print('RANDOM')\n")
    for spec in (f"env -C sub {sys.executable} bot.py", f"{sys.executable} -m sub.bot"):
        player = resolve(spec, tmp_path / "cache")
        assert (player.label, player.kind) == ("bot", "command")
        assert changed_since(player) is None
        script.write_text(script.read_text() + "# edited\n")
        assert "its program changed" in changed_since(player)


def test_a_git_revision_is_an_extracted_tree(tmp_path, monkeypatch):
    if subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True).returncode:
        pytest.skip("not a git checkout")
    player = resolve("random@HEAD", tmp_path)
    head = subprocess.check_output(["git", "-C", str(ROOT), "rev-parse", "HEAD"], text=True).strip()
    assert (player.kind, player.version) == ("git", head[:12])
    tree = Path(player.cwd)
    committed = subprocess.check_output(["git", "-C", str(ROOT), "show", "HEAD:bots/volcanoes/random.py"])
    assert (tree / "bots" / "volcanoes" / "random.py").read_bytes() == committed
    assert shlex.split(player.target) == [sys.executable, "-m", "bots.volcanoes.random"]
    with pytest.raises(PlayerError, match=r"^random@no-such-revision: no commit no-such-revision in .*\(git "):
        resolve("random@no-such-revision", tmp_path)


def test_registered_module_commands_have_a_warm_up_and_other_commands_none(tmp_path):
    assert warm_up_command(f"{sys.executable} -m bots.volcanoes.mcts", str(ROOT)) == [
        sys.executable,
        "-m",
        "bots.volcanoes.warmup",
        "mcts",
    ]
    (tmp_path / "bots").mkdir()  # a tree of the package without the warm-up (an old commit's)
    assert warm_up_command(f"{sys.executable} -m bots.volcanoes.mcts", str(tmp_path)) is None
    elsewhere = tmp_path / "elsewhere"  # none of the package here: this Python finds it (installed)
    elsewhere.mkdir()
    assert warm_up_command(f"{sys.executable} -u -m bots.volcanoes.mcts", str(elsewhere)) == [
        sys.executable,
        "-u",
        "-m",
        "bots.volcanoes.warmup",
        "mcts",
    ]
    assert warm_up_command(f"{sys.executable} my_bot.py", str(ROOT)) is None
    assert warm_up_command("java -jar bot.jar", str(ROOT)) is None


def test_a_git_pin_is_prepared_at_its_final_path_and_plays_from_an_empty_cache(tmp_path):
    """numba's cache is keyed by a kernel's source path: the pinned tree is warmed where it runs."""
    if subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True).returncode:
        pytest.skip("not a git checkout")
    numba_cache = tmp_path / "numba"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(numba_cache), XDG_CACHE_HOME=str(tmp_path / "xdg"))
    db = tmp_path / "pin.sqlite"
    done = subprocess.run(
        # 1000 ms a turn: the cache is tested here, not the clock. The opponent is pure Python: only
        # the pinned tree's kernels are compiled.
        [sys.executable, *"-m arena.cli match random@HEAD pure-random --pairs 1 --workers 1 --seed 2".split()]
        + ["--db", str(db), "--quiet", "--turn-ms", "1000"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert "preparing random@HEAD" in done.stderr
    store = Store.open(db)
    try:
        games, (pinned,) = store.games(), [p for p in store.players() if p.kind == "git"]
    finally:
        store.close()
    assert len(games) == 2 and not any(any(g["errors"]) for g in games)
    # numba keeps a file's kernels in DIRNAME_SHA1(DIRECTORY) under NUMBA_CACHE_DIR
    directory = str(Path(pinned.cwd) / "bots" / "volcanoes")
    kernels = numba_cache / f"volcanoes_{hashlib.sha1(directory.encode()).hexdigest()}"
    assert list(kernels.glob("tracking.*.nbi")), "the pinned tree's kernels were not cached at its path"


CPP_BOT = "#include <iostream>\nint main() {{ int n; while (std::cin >> n) std::cout << n + {k} << std::endl; }}\n"


def prepare(player) -> str:
    """Prepare `player` as a run does; what it said."""
    said = io.StringIO()
    arena_players.prepare([player], VOLCANOES, said)
    return said.getvalue()


def answer(player, given: str = "41\n") -> str:
    done = subprocess.run(
        shlex.split(player.target), input=given, capture_output=True, text=True, cwd=player.cwd, timeout=60
    )
    return done.stdout


def test_a_source_file_is_built_when_prepared_and_an_edit_is_a_new_version(tmp_path):
    if languages.missing(languages.BY_KEY["cpp"]):
        pytest.skip(languages.missing(languages.BY_KEY["cpp"]))
    cache = tmp_path / "cache"
    source = tmp_path / "bot.cpp"
    source.write_text(CPP_BOT.format(k=1))
    first = resolve(str(source), cache)
    assert (first.label, first.kind, first.cwd) == ("bot", "source", str(Path(first.cwd).parent / "src"))
    assert not Path(first.cwd).parent.exists(), "nothing built before it is prepared"
    assert "built in" in prepare(first) and answer(first) == "42\n"
    source.write_text(CPP_BOT.format(k=2))  # what plays in first's run does not change
    assert changed_since(first) is None and answer(first) == "42\n"
    second = resolve(str(source), cache)
    assert second.version != first.version and "built in" in prepare(second) and answer(second) == "43\n"
    source.write_text(CPP_BOT.format(k=1))
    again = resolve(str(source), cache)
    assert again == first and prepare(again) == "", "the old build is reused, not made again"


def test_a_resumed_run_builds_from_what_the_cache_kept(tmp_path):
    """The source is gone; what went into its build was kept when the spec was resolved."""
    if languages.missing(languages.BY_KEY["cpp"]):
        pytest.skip(languages.missing(languages.BY_KEY["cpp"]))
    source = tmp_path / "bot.cpp"
    source.write_text(CPP_BOT.format(k=1))
    player = resolve(str(source), tmp_path / "cache")
    source.unlink()
    assert changed_since(player) is None and "built in" in prepare(player) and answer(player) == "42\n"
    build = Path(player.cwd).parent
    for folder in (build, build.parent / "inputs" / build.name):
        shutil.rmtree(folder)
    assert f"gone from the cache ({build}), and cannot be taken again from {source} in " in changed_since(player)


def test_sources_at_a_commit_are_built_again_once_the_cache_is_deleted(tmp_path, monkeypatch):
    """A league or a resume after `rm -rf ~/.cache/caldera/builds` paused its players at commits:
    their build and sources were gone from the cache, though their repository has them."""
    for who in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{who}_NAME", "Test")
        monkeypatch.setenv(f"GIT_{who}_EMAIL", "test@example.com")
    repo, cache = tmp_path / "repo", tmp_path / "cache"
    repo.mkdir()
    monkeypatch.chdir(repo)

    def commit(k: int) -> None:
        (repo / "bot.sh").write_text(f"read n\necho $((n + {k}))\n")
        for args in (["init", "-q"], ["add", "bot.sh"], ["commit", "-q", "-m", f"k={k}"]):
            subprocess.run(["git", *args], check=True, capture_output=True)

    commit(1)
    subprocess.run(["git", "tag", "v1"], check=True)
    at_tag = resolve("bot.sh@v1", cache)
    commit(3)
    at_head = resolve("bot.sh@HEAD", cache)
    (repo / "bot.sh").write_text("read n\necho $((n + 5))\n")
    uncommitted = resolve("bot.sh", cache)
    assert uncommitted.version.endswith("+dirty")
    commit(2)  # HEAD names other sources now, v1 the same
    shutil.rmtree(cache / "builds")
    assert changed_since(at_tag) is None and "built in" in prepare(at_tag) and answer(at_tag) == "42\n"
    assert "bot.sh@HEAD names other sources now (version" in changed_since(at_head)
    assert "they were uncommitted changes to bot.sh, which its working tree no longer holds" in changed_since(
        uncommitted
    )


def test_which_files_are_sources_and_which_are_pinned(tmp_path):
    cache = tmp_path / "cache"
    script = tmp_path / "bot.py"
    script.write_text("print('RANDOM')\n")
    assert resolve(str(script), cache).kind == "file"  # a Python file runs as it is
    shell = tmp_path / "bot.sh"
    shell.write_text("#!/bin/sh\necho RANDOM\n")
    assert resolve(str(shell), cache).kind == "source"  # not executable: bash runs it
    shell.chmod(0o755)
    assert resolve(str(shell), cache).kind == "file"  # a program as it is
    folder = tmp_path / "mine"
    (folder / "lib").mkdir(parents=True)
    (folder / "main.py").write_text("from lib import x\n")
    (folder / "lib" / "x.py").write_text("print('RANDOM')\n")
    player = resolve(str(folder), cache)
    assert (player.label, player.kind) == ("mine", "source")
    with pytest.raises(PlayerError, match="no source file of a language CodinGame runs"):
        resolve(str(_empty(tmp_path)), cache)


def _empty(tmp_path: Path) -> Path:
    folder = tmp_path / "empty"
    folder.mkdir()
    (folder / "notes.txt").write_text("no bot here\n")
    return folder


def test_a_source_player_takes_its_values_through_its_environment(tmp_path):
    cache = tmp_path / "cache"
    shell = tmp_path / "bot.sh"
    shell.write_text('echo "$K"\n')
    player = resolve(f"env K=3 {shell}", cache)
    provider = arena_players.provider_of(player, VOLCANOES)
    assert provider.values(player) == {"K": 3.0} and player.version.endswith(":K=3")
    tuned = resolve(provider.with_values(player.spec, {"K": 5}), cache)
    assert tuned.kind == "source" and provider.values(tuned) == {"K": 5.0}
    assert tuned.cwd == player.cwd, "other values, the same build"
    shell.write_text('echo "edited: $K"\n')  # a tune's iterations play what its run kept
    plus = arena_players.varied(player, {"K": 4}, VOLCANOES, "plus")
    assert (plus.label, plus.cwd, provider.values(plus)) == ("plus", player.cwd, {"K": 4.0})
    assert plus.version == player.version.replace(":K=3", ":K=4") and plus.spec == f"env K=4 {shell}"


@pytest.mark.parametrize(
    "table, says",
    [
        ('source = "bot.sh"\nbulid = "make"', "[players.mine] has no key bulid (its keys: source, build, run, env)"),
        ('source = "bot.sh"\nbuild = "make"', "[players.mine]: a build command needs its run command"),
        ('source = "bot.sh"\nenv = { K = true }', "[players.mine] env.K = true: input should be a string or a number"),
        ('source = "bot.sh"\nenv = 3', "[players.mine] env = 3: input should be an object"),
        ('source = "bot.sh"\nenv = { "1K" = 1 }', "[players.mine] env: '1K' is no environment variable's name"),
        ("build = 'make'\nrun = './bot'", "[players.mine] source: field required"),
        ('source = "no-such-file.sh"', "player mine: no such file or folder: no-such-file.sh"),
    ],
)
def test_a_declared_player_s_mistake_is_one_line_naming_its_key(table, says, tmp_path):
    config = tmp_path / "arena.toml"
    config.write_text(f"[players.mine]\n{table}\n")
    (tmp_path / "bot.sh").write_text("echo RANDOM\n")
    with pytest.raises(PlayerError) as caught:
        arena_players.resolve("mine", VOLCANOES, tmp_path / "cache", config=str(config))
    assert says in str(caught.value) and "\n" not in str(caught.value), str(caught.value)


def test_a_declared_player_by_its_name_and_at_a_revision(tmp_path):
    config = tmp_path / "arena.toml"
    config.write_text('[players.mine]\nsource = "bot.sh"\nenv = { K = 2 }\n')
    (tmp_path / "bot.sh").write_text('read line\necho "$K"\n')
    player = arena_players.resolve("mine", VOLCANOES, tmp_path / "cache", config=str(config))
    assert (player.label, player.spec, player.kind) == ("mine", "mine", "source")
    assert "built in" in prepare(player) and answer(player) == "2\n" and player.version.endswith(":K=2")
    with pytest.raises(PlayerError, match="in no git repository"):
        arena_players.resolve("mine@HEAD~1", VOLCANOES, tmp_path / "cache", config=str(config))


def test_a_file_or_folder_whose_path_has_spaces_is_that_path_quoted_or_not(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "my bots"
    folder.mkdir()
    (folder / "v2.py").write_text("print('RANDOM')\n")
    for spec in ("my bots/v2.py", "'my bots/v2.py'"):
        player = resolve(spec, tmp_path / "cache")
        assert (player.kind, player.label) == ("file", "v2")
        assert shlex.split(player.target)[-1].endswith("/v2.py") and Path(shlex.split(player.target)[-1]).is_file()
    if languages.missing(languages.BY_KEY["c"]) is None:
        (folder / "bot.c").write_text("int main(void) { return 0; }\n")
        for spec in ("my bots/bot.c", "'my bots/bot.c'"):
            assert resolve(spec, tmp_path / "cache").kind == "source"
    with pytest.raises(PlayerError, match="unknown player 'my bots/v3.py'"):
        resolve("my bots/v3.py", tmp_path / "cache")  # a path that is nowhere is still no player


@pytest.mark.parametrize("program", ["python", "pyhton"])
def test_a_command_whose_program_is_not_found_is_said_so(program, tmp_path, monkeypatch):
    """Under a cron-like PATH (no python) or with a typo, `python binbot.py` was an 'unknown player'
    (not a registered bot, ...), where the referee says that python is not on PATH."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "binbot.py").write_text("print('RANDOM')\n")
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    with pytest.raises(
        PlayerError, match=rf"^player '{program} binbot.py': {program}: no such command \(not on PATH\)$"
    ):
        resolve(f"{program} binbot.py", tmp_path / "cache")
    with pytest.raises(PlayerError, match="^unknown player 'pyhton'"):  # one word: perhaps a misspelt bot
        resolve("pyhton", tmp_path / "cache")


def test_a_command_is_labelled_by_the_file_it_names_even_where_the_file_is_not():
    """Two Pebbles bots run from outside the checkout were both 'python', and the user was told to
    label them apart rather than that their files are missing (which the start check says)."""
    from arena.players.processes import command_label

    assert command_label(["python", "no/such/greedy.py"]) == "greedy"
    assert command_label(["python", "-u", "first.py", "--depth", "3"]) == "first"
    assert command_label(["./bot"]) == "bot"
    assert command_label(["python", "-m", "bots.volcanoes.greedy"]) == "greedy"


@pytest.mark.parametrize("label", ["ünï", "a b", "a:b"])
def test_a_label_that_cannot_be_one_is_said_to_be_the_label(label):
    """`ünï=greedy` was 'unknown player', though greedy is known: its label was what was wrong."""
    with pytest.raises(PlayerError, match=f"^'{label}' cannot be a label: a label"):
        arena_players.resolve(f"{label}=greedy", VolcanoesGame())
    with pytest.raises(PlayerError, match="^unknown player 'mctz:c=0.3'"):  # a misspelt bot stays unknown
        arena_players.resolve("mctz:c=0.3", VolcanoesGame())


@pytest.mark.parametrize("label", ["a,b", "über", "<b>h</b>", "", "x=y"])
def test_a_label_is_checked_before_its_spec_s_revision(label, tmp_path):
    """`a,b=bot.cpp@v3` was said to be in no git repository, so without a revision v3 (the whole text
    read as a path), and `x=y=bot.cpp@v3` was the path `y=bot.cpp`."""
    bot = tmp_path / "bot.sh"
    bot.write_text("echo RANDOM\n")
    for revision in ("v3", "no-such-commit"):
        with pytest.raises(PlayerError, match=f"^{re.escape(repr(label))} cannot be a label: a label"):
            resolve(f"{label}={bot}@{revision}", tmp_path / "cache")


def test_an_at_sign_with_no_revision_after_it_is_no_player(tmp_path):
    """`league add f=bot.cpp@` played the working tree, unsaid; `greedy@` was 'no commit  in ...'."""
    bot = tmp_path / "bot.sh"
    bot.write_text("echo RANDOM\n")
    for spec in (f"f={bot}@", "greedy@"):
        with pytest.raises(PlayerError, match="nothing after its @: give a revision"):
            resolve(spec, tmp_path / "cache")


def test_what_the_arena_wrote_in_a_bots_folder_is_no_part_of_the_bot(tmp_path):
    """A report, a replay or a C++ bundle written in a folder bot's own folder made it `+dirty`, a
    new version, and the bundle (a second `main`) broke its build."""
    from arena.builds.build import _folder_files
    from arena.bundle import cpp
    from arena.play.parcels import contents
    from arena.project import mark_output_folder

    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "main.cpp").write_text('#include "util.h"\nint main() { return helper(); }\n')
    (bot / "util.h").write_text("inline int helper() { return 0; }\n")
    mine = _folder_files(bot, "bot/")
    (bot / "submission.cpp").write_text(cpp.merge(bot / "main.cpp", (bot,)).text)
    (bot / "lost1").mkdir()  # an `arena replay -o` folder
    mark_output_folder(bot / "lost1")
    (bot / "lost1" / "index.html").write_text("<!DOCTYPE html>")
    from arena.cli import main

    db = tmp_path / "run.sqlite"
    assert main(["match", "greedy", "random", "--pairs", "1", "--workers", "1", "--quiet", "--db", str(db)]) == 0
    assert main(["report", str(db), "-o", str(bot / "report.html")]) == 0  # and its report_games/
    assert (bot / "report_games").is_dir()
    assert _folder_files(bot, "bot/") == mine
    assert [name for name, _ in contents(bot)] == ["main.cpp", "util.h"]
