"""One file to submit for C++: a bot's local includes merged into its main file, compiled with
CodinGame's flags, playing as the bot of several files does (`arena bundle main.cpp --check`)."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from arena.builds.build import BuildError, build
from arena.bundle import cpp
from arena.bundle.cpp import local_includes, merge
from arena.cli import main
from arena.bundle.python import BundleError
from tests.builds.helpers import answers, needs, write

MAIN = """\
#pragma GCC optimize("O3")
#include <iostream>
#include "geometry.h"
#include "moves.h"
#include "moves.h"

int main() {
    int n;
    while (std::cin >> n) std::cout << best_move(n) << ' ' << manhattan(Point{n, 2 * n}, Point{0, 0}) << std::endl;
}
"""
GEOMETRY = """\
// Points on the board.
#ifndef GEOMETRY_H
#define GEOMETRY_H
#include <cstdlib>
#include "moves.h"
struct Point { int x, y; };
inline int manhattan(Point a, Point b) { return std::abs(a.x - b.x) + std::abs(a.y - b.y); }
#endif  // GEOMETRY_H
"""
MOVES = """\
#pragma once
/* #include "geometry.h" would be a cycle: a comment is no include */
inline int best_move(int n) { return (n * 7 + 3) % 11; }
"""
RECORDED = "".join(f"{n}\n" for n in (0, 1, 5, 17, 42, 99, 1000, -3))


@pytest.fixture
def bot(tmp_path):
    write(tmp_path / "bot", "main.cpp", MAIN)
    write(tmp_path / "bot", "geometry.h", GEOMETRY)
    write(tmp_path / "bot", "moves.h", MOVES)
    return tmp_path / "bot" / "main.cpp"


def test_three_files_make_one_that_compiles_with_codingame_s_flags_and_plays_the_same(bot, tmp_path):
    needs("cpp")
    merged = merge(bot)
    assert [path.name for path in merged.files] == ["main.cpp", "geometry.h", "moves.h"]
    assert merged.text.count("inline int best_move") == 1 and merged.text.count("inline int manhattan") == 1
    assert not re.search(r'^\s*#\s*include\s*"', merged.text, re.MULTILINE), "no local include is left"
    assert merged.text.count("#include <iostream>") == 1 and "#include <cstdlib>" in merged.text
    assert "#pragma once" not in merged.text and merged.text.index('#pragma GCC optimize("O3")') < merged.text.index(
        "#include <iostream>"
    )
    assert 0 < merged.size < 100_000 and merged.unresolved == []
    one_file = write(tmp_path / "submission", "main.cpp", merged.text)
    several = build(bot.parent, cache=tmp_path / "cache")
    single = build(one_file, cache=tmp_path / "cache")
    assert "-std=gnu++20" in (single.folder / "build.json").read_text(), "built with CodinGame's flags"
    expected = answers(several, RECORDED)
    assert answers(single, RECORDED) == expected and len(expected.splitlines()) == 8


def test_local_includes_are_what_a_build_reads(bot):
    found = [path.name for path in local_includes(bot)]
    assert found[0] == "main.cpp" and sorted(found) == ["geometry.h", "main.cpp", "moves.h"]


def test_line_markers_name_the_original_file_in_the_compiler_s_messages(bot, tmp_path):
    needs("cpp")
    write(bot.parent, "moves.h", MOVES.replace("return (n * 7 + 3) % 11;", "return undefined_name;"))
    marked = write(tmp_path / "submission", "main.cpp", merge(bot, line_markers=True).text)
    with pytest.raises(BuildError, match=r"moves\.h:3:\d+: error: .undefined_name. was not declared"):
        build(marked, cache=tmp_path / "cache")


def test_a_header_first_included_where_it_may_be_compiled_out_is_included_again(tmp_path):
    needs("cpp")
    write(tmp_path / "bot", "moves.h", MOVES)
    main = write(
        tmp_path / "bot",
        "main.cpp",
        '#include <iostream>\n#ifdef NEVER_DEFINED\n#include "moves.h"\n#endif\n#include "moves.h"\n'
        "int main() { std::cout << best_move(1) << std::endl; }\n",
    )
    merged = merge(main)
    assert merged.text.count("inline int best_move") == 2 and "#ifndef CALDERA_ONCE_MOVES_H" in merged.text
    assert answers(build(write(tmp_path / "one", "main.cpp", merged.text), cache=tmp_path / "cache"), "") == "10\n"


def test_a_header_without_a_guard_goes_in_at_each_inclusion(tmp_path):
    """As the preprocessor reads it: an X-macro list, included twice with two meanings."""
    needs("cpp")
    write(tmp_path / "bot", "colours.def", "COLOUR(red)\nCOLOUR(green)\n")
    main = write(
        tmp_path / "bot",
        "main.cpp",
        '#include <iostream>\n#define COLOUR(c) +1\nconst int count = 0\n#include "colours.def"\n;\n#undef COLOUR\n'
        '#define COLOUR(c) #c " "\nconst char *names = ""\n#include "colours.def"\n;\n'
        "int main() { std::cout << count << ' ' << names << std::endl; }\n",
    )
    merged = merge(main)
    assert merged.text.count("COLOUR(green)") == 2
    one = build(write(tmp_path / "one", "main.cpp", merged.text), cache=tmp_path / "cache")
    assert answers(one, "") == answers(build(main, cache=tmp_path / "cache"), "") == "2 red green \n"


def test_what_cannot_be_merged_says_why(tmp_path):
    write(tmp_path, "loop.h", '#include "loop.h"\nint x;\n')
    with pytest.raises(BundleError, match=r"loop\.h includes itself \(through loop\.h\) without a guard"):
        merge(write(tmp_path, "main.cpp", '#include "loop.h"\nint main() {}\n'))
    big = write(tmp_path, "big.cpp", '#include "loop.h"\n'.replace("loop", "none") + "int main() {}\n")
    with pytest.raises(
        BundleError, match=r"big\.cpp merged with its includes is \d+ UTF-16 units, over CodinGame's limit of 10"
    ):
        merge(big, limit=10)
    assert merge(big).unresolved == ["none.h"], "a quoted include found nowhere is left to the compiler"


PEBBLES_SPLIT = Path(__file__).resolve().parents[1] / "games" / "pebbles" / "sources" / "split"
SDK_REFEREE = ["--referee", f"{sys.executable} -m tests.games.pebbles.sdk_referee", "--protocol", "sdk"]


@pytest.fixture
def at_the_root(monkeypatch, tmp_path):
    """The referee runs as `python -m tests.games.pebbles...`; builds go to a cache of the test's own."""
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def test_arena_bundle_checks_the_one_file_against_the_three_on_recorded_turns(at_the_root, tmp_path, capsys):
    """Pebbles' bot of three files (main.cpp, choice.h, turn.h): the one file, built with CodinGame's
    flags, answers every turn of two recorded games as the build of the three does."""
    needs("cpp")
    output = tmp_path / "submission.cpp"
    argv = ["bundle", str(PEBBLES_SPLIT / "main.cpp"), "-o", str(output), "--check", "2", *SDK_REFEREE]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "main.cpp and 2 local includes" in out
    assert not re.search(r"^\s*#\s*include\s*\"", output.read_text(), re.M), "every local include merged"
    assert re.search(r"the bundle \(built with CodinGame's flags\) answered all \d+ turns of 4 transcript", out)


def test_arena_bundle_s_check_finds_a_bundle_that_plays_otherwise(at_the_root, tmp_path, capsys, monkeypatch):
    needs("cpp")
    merge = cpp.merge

    def wrong(*args, **kwargs):  # a merge that changed what the bot plays
        merged = merge(*args, **kwargs)
        merged.text = merged.text.replace('std::getenv("K")', '"1"')
        return merged

    monkeypatch.setattr(cpp, "merge", wrong)
    argv = ["bundle", str(PEBBLES_SPLIT / "main.cpp"), "-o", str(tmp_path / "s.cpp"), "--check", "1", *SDK_REFEREE]
    assert main(argv) == 1
    assert "the bundle answered" in capsys.readouterr().out


def test_arena_bundle_refuses_to_write_over_a_file_of_the_bot(tmp_path, capsys):
    header = write(tmp_path, "step.h", "#pragma once\nint step() { return 1; }\n")
    main_file = write(tmp_path, "main.cpp", '#include "step.h"\nint main() { return step() - 1; }\n')
    assert main(["bundle", str(main_file), "-o", str(header)]) == 2
    assert "is an input of this command" in capsys.readouterr().err
    assert main(["bundle", str(main_file), "-o", str(tmp_path / "one.cpp"), "--compress", "always"]) == 2


def test_a_source_file_beside_the_entry_that_it_does_not_include_is_named(tmp_path, capsys, monkeypatch):
    """Only what the entry includes is merged: a function defined in util.cpp is not in the file (it
    was written, exit 0, with no word of it; only --check saw it not link)."""
    bot = tmp_path / "bot"
    write(bot, "main.cpp", '#include "util.h"\nint main() { return f(); }\n')
    write(bot, "util.h", "int f();\n")
    write(bot, "util.cpp", "int f() { return 0; }\n")
    assert main(["bundle", str(bot / "main.cpp"), "-o", str(tmp_path / "s.cpp")]) == 0
    assert "warning: not in the file, for only what main.cpp includes is merged: util.cpp" in capsys.readouterr().out
    for _ in range(2):  # written in the bot's folder: neither it nor an earlier bundle is named
        assert main(["bundle", str(bot / "main.cpp"), "-o", str(bot / "submission.cpp")]) == 0
        assert "is merged: util.cpp (a function" in capsys.readouterr().out


CRASHING = """#include <iostream>
#include <string>
int main() {
    std::string line;
    int n;
    std::cin >> n;
    std::getline(std::cin, line);
    for (int i = 0; i < n; i++) std::getline(std::cin, line);
    for (int turn = 0;; turn++) {
        if (!std::getline(std::cin, line)) return 0;
        std::getline(std::cin, line);
        if (turn == 2) return 3;  // a bug
        std::cout << "RANDOM" << std::endl;
    }
}
"""


def test_a_check_whose_original_forfeits_its_recorded_games_fails(tmp_path, capsys):
    """Every recorded game lost to a crash, yet the check said the bundle answered all its turns as
    the original did, exit 0: the turn that crashed was never compared."""
    needs("cpp")
    write(tmp_path, "bot.cpp", CRASHING)
    assert main(["bundle", str(tmp_path / "bot.cpp"), "-o", str(tmp_path / "s.cpp"), "--check", "1"]) == 1
    out = capsys.readouterr().out
    assert re.search(r"check: but the original forfeited \d of its recorded games \(crash\): the turn each lost", out)


def test_a_bot_file_of_another_language_is_told_what_can_be_bundled(tmp_path, capsys, monkeypatch):
    """`arena bundle Player.java` looked for a project bot named so, or said only "a Python file"."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "Player.java", "class Player {}\n")
    assert main(["bundle", "Player.java", "-o", "x"]) == 2
    assert "or a C or C++ file (main.cpp)" in capsys.readouterr().err


def test_a_bot_at_a_commit_is_bundled_as_the_commit_holds_it(tmp_path, capsys, monkeypatch):
    """`arena bundle main.cpp@HEAD~1`, as the arena plays it, was refused: "neither a bot name nor a
    dotted module path". The commit's files are merged, not the working tree's."""
    for who in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{who}_NAME", "Test")
        monkeypatch.setenv(f"GIT_{who}_EMAIL", "test@example.com")
    repo = tmp_path / "mybot"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)

    def commit(step: int) -> None:
        write(repo, "step.h", f"#pragma once\nint step() {{ return {step}; }}\n")
        write(repo, "main.cpp", '#include "step.h"\nint main() { return step(); }\n')
        for args in (["add", "."], ["commit", "-q", "-m", f"step {step}"]):
            subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)

    commit(1)
    commit(2)
    write(repo, "step.h", "#pragma once\nint step() { return 3; }\n")  # not committed
    monkeypatch.chdir(repo)
    for spec, step in (("main.cpp@HEAD~1", 1), ("main.cpp@HEAD", 2), ("main.cpp", 3)):
        assert main(["bundle", spec, "-o", str(tmp_path / "s.cpp")]) == 0
        assert f"wrote {tmp_path / 's.cpp'}: {spec} and 1 local includes" in capsys.readouterr().out
        assert f"return {step};" in (tmp_path / "s.cpp").read_text()
    assert main(["bundle", "main.cpp@HEAD~5", "-o", str(tmp_path / "s.cpp")]) == 2
    assert "main.cpp@HEAD~5: no commit HEAD~5 in" in capsys.readouterr().err


def test_a_check_at_a_commit_that_does_not_build_names_the_user_s_spec(tmp_path, capsys, monkeypatch):
    """`arena bundle main.cpp@broken --check` said `cannot build ~/.cache/caldera/trees/.../main.cpp:
    ../../../.cache/caldera/trees/.../main.cpp:3:13: error`, where league and match name main.cpp@broken."""
    needs("cpp")
    for who in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{who}_NAME", "Test")
        monkeypatch.setenv(f"GIT_{who}_EMAIL", "test@example.com")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    repo = tmp_path / "mybot"
    write(repo, "main.cpp", "int main() {\n    return 0\n}\n")  # (no ';')
    for args in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "broken"]):
        subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)
    monkeypatch.chdir(tmp_path)
    assert main(["bundle", "mybot/main.cpp@HEAD", "-o", "s.cpp", "--check", "1"]) == 2
    said = capsys.readouterr().err.splitlines()[-1]  # (on a line of its own, not after "building ... (C++) ...")
    assert re.match(r"arena bundle: cannot build mybot/main\.cpp@HEAD: mybot/main\.cpp@[0-9a-f]{12}:2:", said)
    assert "trees" not in said.partition("(the whole log")[0], said


def test_a_program_of_its_own_beside_the_entry_is_not_named(tmp_path, capsys):
    """A tool or test beside the bot (its own `main`) was named as a file whose definitions do not
    link, though the bot needs none of them."""
    bot = tmp_path / "bot"
    write(bot, "main.cpp", "int main() { return 0; }\n")
    write(bot, "tool.cpp", "#include <cstdio>\nint main(int argc, char** argv) { return 0; }\n")
    write(bot, "util.cpp", "int f() { return 0; }\n")
    assert main(["bundle", str(bot / "main.cpp"), "-o", str(tmp_path / "s.cpp")]) == 0
    out = capsys.readouterr().out
    assert "is merged: util.cpp (a function" in out and "tool.cpp" not in out
