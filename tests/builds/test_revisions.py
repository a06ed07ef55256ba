"""A bot's file in any git repository at a revision (`bot.cpp@HEAD~1`) and as it is now."""

import re
import subprocess

import pytest

from arena.builds import revisions
from arena.builds.build import BuildError, build
from arena.builds.revisions import SourceError, resolve_source
from tests.builds.helpers import CPP_BOT, answers, needs, write


@pytest.fixture
def repository(tmp_path, monkeypatch):
    """A repository of two commits: src/bot.cpp answers n + 1, then n + 2 (and src/later.cpp is
    added); the test runs in it."""
    for who in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{who}_NAME", "Test")
        monkeypatch.setenv(f"GIT_{who}_EMAIL", "test@example.com")
    repo = tmp_path / "repo"
    repo.mkdir()

    def git(*args):
        return subprocess.run(
            ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True
        ).stdout.strip()

    git("init", "-q")
    write(repo, "src/bot.cpp", CPP_BOT.replace("{k}", "1"))
    git("add", ".")
    git("commit", "-q", "-m", "first")
    write(repo, "src/bot.cpp", CPP_BOT.replace("{k}", "2"))
    write(repo, "src/later.cpp", CPP_BOT.replace("{k}", "3"))
    git("add", ".")
    git("commit", "-q", "-m", "second")
    monkeypatch.chdir(repo)
    return repo, git


def test_a_file_at_the_last_commit_and_now_are_two_versions(repository, tmp_path):
    needs("cpp")
    repo, git = repository
    cache = tmp_path / "cache"
    old = build("src/bot.cpp@HEAD~1", cache=cache)
    new = build("src/bot.cpp", cache=cache)
    assert old.version != new.version and answers(old) == "42\n" and answers(new) == "43\n"
    assert old.revision == git("rev-parse", "HEAD~1")[:12] and new.revision == git("rev-parse", "HEAD")[:12]
    assert (cache / "trees" / git("rev-parse", "HEAD~1") / "src" / "bot.cpp").is_file()
    # The pinned HEAD is the working tree's file, unchanged: the same build.
    assert build("src/bot.cpp@HEAD", cache=cache).folder == new.folder


def test_a_tree_is_extracted_once(repository, tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    first = resolve_source("src/bot.cpp@HEAD~1", cache)
    monkeypatch.setattr(revisions, "extract", lambda *args: pytest.fail("extracted again"))
    again = resolve_source("src/bot.cpp@HEAD~1", cache)
    assert again.path == first.path and again.commit == first.commit and first.pinned


def test_uncommitted_changes_are_named_in_the_version(repository, tmp_path):
    needs("cpp")
    repo, git = repository
    clean = build("src/bot.cpp", cache=tmp_path / "cache")
    assert not clean.version.endswith("+dirty")
    write(repo, "src/bot.cpp", CPP_BOT.replace("{k}", "5"))
    edited = build("src/bot.cpp", cache=tmp_path / "cache")
    assert edited.version.endswith("+dirty") and edited.revision == git("rev-parse", "HEAD")[:12] + "+dirty"
    assert answers(edited) == "46\n"
    assert not build("src/bot.cpp@HEAD", cache=tmp_path / "cache").version.endswith("+dirty")


def test_the_arena_s_own_databases_in_a_bot_s_folder_are_no_part_of_it(repository, tmp_path):
    """`arena match ./ random` from inside the bot's folder makes arena-runs/ there: it was hashed
    with the bot's sources, each run a new version, `+dirty`, built again."""
    needs("cpp")
    repo, git = repository
    write(repo, "solo/bot.cpp", CPP_BOT.replace("{k}", "1"))
    git("add", ".")
    git("commit", "-q", "-m", "solo")
    clean = build("solo/", cache=tmp_path / "cache")
    for name in ("arena-runs/match-20260101-120000.sqlite", "arena-runs/league.sqlite-wal", "mine.sqlite"):
        write(repo, f"solo/{name}", "SQLite format 3")
    again = build("solo/", cache=tmp_path / "cache")
    assert (again.version, again.folder) == (clean.version, clean.folder) and not again.version.endswith("+dirty")


def test_a_file_gone_from_the_working_tree_is_still_there_at_its_revision(repository, tmp_path):
    needs("cpp")
    repo, _ = repository
    (repo / "src" / "bot.cpp").unlink()
    assert answers(build("src/bot.cpp@HEAD~1", cache=tmp_path / "cache")) == "42\n"


def test_what_cannot_be_found_at_a_revision_says_why(repository, tmp_path):
    cache = tmp_path / "cache"
    with pytest.raises(SourceError, match=r"src/later\.cpp does not exist at HEAD~1 \([0-9a-f]{12}\)"):
        resolve_source("src/later.cpp@HEAD~1", cache)
    with pytest.raises(
        SourceError, match=r"^src/bot\.cpp@nosuchtag: no commit nosuchtag in .*\(git rev-parse .*fatal: "
    ):
        resolve_source("src/bot.cpp@nosuchtag", cache)
    with pytest.raises(SourceError, match="no such file or folder: src/nothing.cpp"):
        resolve_source("src/nothing.cpp", cache)
    outside = write(tmp_path / "loose", "bot.cpp", "int main() {}\n")
    with pytest.raises(SourceError, match="is in no git repository"):
        resolve_source(f"{outside}@HEAD", cache)


def test_an_at_sign_with_no_revision_after_it_is_refused(repository, tmp_path):
    """`src/bot.cpp@` played the working tree, unsaid."""
    for spec in ("src/bot.cpp@", "src/gone.cpp@", f"{write(tmp_path / 'loose', 'bot.cpp', 'x')}@"):
        with pytest.raises(SourceError, match=f"^{re.escape(spec)}: nothing after its @: give a revision"):
            resolve_source(spec, tmp_path / "cache")
    with pytest.raises(SourceError, match="^nothing after its @"):
        revisions.tree_at(repository[0], "", tmp_path / "cache")


def test_a_path_with_an_at_sign_that_exists_is_a_path(tmp_path):
    write(tmp_path, "me@home/bot.py", "print(1)\n")
    source = resolve_source("me@home/bot.py", tmp_path / "cache", cwd=tmp_path)
    assert source.path == (tmp_path / "me@home" / "bot.py").resolve() and not source.pinned


def test_a_revision_may_hold_an_at_sign(repository, tmp_path):
    """`src/bot.cpp@HEAD@{1}` was split at its last `@`: "no commit {1}"."""
    repo, git = repository
    source = resolve_source("src/bot.cpp@HEAD@{1}", tmp_path / "cache")
    assert source.commit == git("rev-parse", "HEAD@{1}")
    assert revisions.split_revision("gone.cpp@main@{1}", repo) == ("gone.cpp", "main@{1}")
    write(repo, "me@home/bot.cpp", "x")
    assert revisions.split_revision("me@home/bot.cpp@HEAD", repo) == ("me@home/bot.cpp", "HEAD")


def test_a_symbolic_link_to_a_file_of_a_repository_has_its_revisions(repository, tmp_path):
    """`link.c@HEAD` said "link.c is in no git repository", where a link to a folder worked."""
    repo, git = repository
    link = tmp_path / "link.cpp"
    link.symlink_to(repo / "src" / "bot.cpp")
    source = resolve_source(f"{link}@HEAD~1", tmp_path / "cache")
    assert source.commit == git("rev-parse", "HEAD~1") and source.path.read_text() == CPP_BOT.replace("{k}", "1")
    assert resolve_source(str(link), tmp_path / "cache").repository == repo


def test_a_file_that_gitattributes_keeps_out_of_archives_is_at_its_revision(repository, tmp_path):
    """`git archive` leaves out what .gitattributes marks export-ignore: a header the bot includes."""
    repo, git = repository
    write(repo, "src/pick.h", "int pick();\n")
    write(repo, ".gitattributes", "src/pick.h export-ignore\n")
    git("add", ".")
    git("commit", "-q", "-m", "a header kept out of archives")
    assert (resolve_source("src/pick.h@HEAD", tmp_path / "cache").path).read_text() == "int pick();\n"


def test_a_commit_that_does_not_build_names_its_file_at_the_commit(repository, tmp_path):
    """`cannot build bot.cpp@HEAD at 186b1cfdd7a0: bot.cpp:33:20: error` named the working tree's
    file, whose line 33 may be another: the compiler read the commit's."""
    needs("cpp")
    repo, git = repository
    write(repo, "src/bot.cpp", "int main() {\n    return 0\n}\n")  # (no ';')
    git("commit", "-q", "-am", "broken")
    with pytest.raises(BuildError) as failed:
        build("src/bot.cpp@HEAD", cache=tmp_path / "cache")
    commit = git("rev-parse", "HEAD")[:12]
    assert str(failed.value).startswith(f"cannot build src/bot.cpp@HEAD: src/bot.cpp@{commit}:2:"), failed.value
