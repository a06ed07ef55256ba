"""Builds: a bot in each language this machine has builds and answers; a compile error is one line
with its file and line; a build is made once, under the hash of what went into it, and kept."""

import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.builds import build as build_module
from arena.builds import languages
from arena.builds.build import BuildError, build, changed, make, plan
from arena.builds.revisions import SourceError
from tests.builds.helpers import CPP_BOT, answers, needs, write
from tests.builds.sources import BROKEN, HELLO


@pytest.mark.parametrize("key", sorted(HELLO))
def test_a_bot_in_each_language_builds_and_answers(key, tmp_path):
    needs(key)
    name, text = HELLO[key]
    built = build(write(tmp_path / "bot", name, text), cache=tmp_path / "cache")
    assert built.language == key and not built.reused
    assert answers(built, "41\n") == "42\n"
    assert built.folder.parent == tmp_path / "cache" / "builds" and re.fullmatch(r"[0-9a-f]{12}", built.version)
    again = build(tmp_path / "bot" / name, cache=tmp_path / "cache")
    assert again.reused and again.version == built.version and again.command == built.command


@pytest.mark.parametrize("key", sorted(BROKEN))
def test_a_compile_error_is_one_line_with_its_file_and_line(key, tmp_path, monkeypatch):
    needs(key)
    name = HELLO[key][0]
    write(tmp_path / "src", name, BROKEN[key])
    monkeypatch.chdir(tmp_path)
    with pytest.raises(BuildError) as caught:
        build(f"src/{name}", cache=tmp_path / "cache")
    message = str(caught.value)
    assert "\n" not in message and message.startswith(f"cannot build src/{name}: ")
    assert re.search(rf"src/{re.escape(name)}:3\b", message), message  # bot.cpp:3:13: error: ...
    assert caught.value.log.is_file() and str(caught.value.log) in message
    assert not list((tmp_path / "cache" / "builds").glob(f"{key}-*")), "a failed build leaves no build"


def test_an_edit_is_a_new_version_and_the_old_build_stays(tmp_path):
    needs("cpp")
    bot = write(tmp_path, "bot.cpp", CPP_BOT.replace("{k}", "1"))
    first = build(bot, cache=tmp_path / "cache")
    bot.write_text(CPP_BOT.replace("{k}", "2"))
    second = build(bot, cache=tmp_path / "cache")
    assert second.version != first.version and not second.reused and answers(second) == "43\n"
    assert answers(first) == "42\n", "the first build is still there and runs"
    bot.write_text(CPP_BOT.replace("{k}", "1"))
    back = build(bot, cache=tmp_path / "cache")
    assert back.reused and back.version == first.version and back.folder == first.folder


def test_a_header_is_part_of_what_is_built(tmp_path):
    needs("cpp")
    write(tmp_path, "step.h", "#pragma once\nconstexpr int STEP = 1;\n")
    bot = write(tmp_path, "bot.cpp", '#include "step.h"\n' + CPP_BOT.replace("{k}", "STEP"))
    first = build(bot, cache=tmp_path / "cache")
    write(tmp_path, "step.h", "#pragma once\nconstexpr int STEP = 5;\n")
    second = build(bot, cache=tmp_path / "cache")
    assert first.version != second.version and answers(second) == "46\n"
    record = json.loads((second.folder / "build.json").read_text())
    assert record["files"] == ["bot.cpp", "step.h"] and "g++" in record["versions"]


def test_a_missing_compiler_is_refused_naming_what_to_install(tmp_path, monkeypatch):
    bot = write(tmp_path, "Player.cs", HELLO["csharp"][1])
    monkeypatch.setattr(languages, "program", lambda tool: None)
    with pytest.raises(
        SourceError,
        match=r"C# needs mcs and mono, which this machine lacks \(on Debian: apt-get install mono-mcs mono-runtime\)",
    ):
        build(bot, cache=tmp_path / "cache")
    with pytest.raises(SourceError, match="does not build Haskell itself: declare its build and run commands"):
        build(write(tmp_path, "bot.hs", "main = return ()\n"), cache=tmp_path / "cache")
    with pytest.raises(SourceError, match="no language CodinGame runs"):
        build(write(tmp_path, "bot.txt", "hello\n"), cache=tmp_path / "cache")


def test_a_folder_of_several_files(tmp_path):
    needs("cpp")
    write(tmp_path / "bot", "main.cpp", '#include "lib/step.h"\n' + CPP_BOT.replace("{k}", "step()"))
    write(tmp_path / "bot", "lib/step.h", "int step();\n")
    write(tmp_path / "bot", "lib/step.cpp", '#include "step.h"\nint step() { return 3; }\n')
    write(tmp_path / "bot", "build/junk.o", "not a source")  # a build output: left out
    built = build(tmp_path / "bot", cache=tmp_path / "cache")
    assert answers(built) == "44\n"
    assert json.loads((built.folder / "build.json").read_text())["files"] == ["lib/step.cpp", "lib/step.h", "main.cpp"]


def test_a_java_package_runs_its_main_class(tmp_path):
    needs("java")
    write(
        tmp_path / "bot",
        "game/Step.java",
        "package game;\n\npublic class Step { public static int of(int n) { return n + 7; } }\n",
    )
    write(
        tmp_path / "bot",
        "game/Player.java",
        "package game;\n\nimport java.util.Scanner;\n\nclass Player {\n    public static void main(String[] args) {\n"
        "        Scanner in = new Scanner(System.in);\n        System.out.println(Step.of(in.nextInt()));\n    }\n}\n",
    )
    built = build(tmp_path / "bot", cache=tmp_path / "cache")
    assert built.command.endswith(" game.Player") and answers(built) == "48\n"


def test_a_cargo_project_and_a_cmake_project(tmp_path):
    if languages.program("cargo"):
        write(tmp_path / "rs", "Cargo.toml", '[package]\nname = "mybot"\nversion = "0.1.0"\nedition = "2021"\n')
        write(tmp_path / "rs", "src/main.rs", HELLO["rust"][1])
        assert answers(build(tmp_path / "rs", cache=tmp_path / "cache")) == "42\n"
    if languages.program("cmake") and languages.program("g++"):
        write(
            tmp_path / "cm",
            "CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.10)\nproject(bot CXX)\nadd_executable(mybot main.cpp)\n",
        )
        write(tmp_path / "cm", "main.cpp", CPP_BOT.replace("{k}", "1"))
        built = build(tmp_path / "cm", cache=tmp_path / "cache")
        # Its one program, linked where the run command finds it.
        assert built.command.endswith("/out/bot") and (built.folder / "out" / "bot").resolve().name == "mybot"
        assert answers(built) == "42\n"


def test_declared_build_and_run_commands(tmp_path):
    write(tmp_path / "bot", "make.sh", "printf 'while read -r n; do echo $((n * 2)); done\\n' > double.sh\n")
    built = build(tmp_path / "bot", build_command="sh make.sh", run_command="sh double.sh", cache=tmp_path / "cache")
    assert built.language == "custom" and built.command == "sh double.sh" and built.cwd == built.folder / "src"
    assert answers(built, "21\n") == "42\n"
    other = build(tmp_path / "bot", build_command="sh make.sh", run_command="sh double.sh ", cache=tmp_path / "cache")
    assert other.version != built.version, "the commands are part of what went in"
    with pytest.raises(
        BuildError,
        match=r"cannot build .*/bot: the build command exited with status 1; its output ends: about to fail \(the whole log: ",
    ):
        build(
            tmp_path / "bot", build_command="echo about to fail && exit 1", run_command="true", cache=tmp_path / "cache"
        )
    with pytest.raises(SourceError, match="needs a run command too"):
        build(tmp_path / "bot", build_command="sh make.sh", cache=tmp_path / "cache")


def test_a_declared_run_command_alone_runs_the_language_s_build(tmp_path):
    """`run` without `build` skipped the build (built in 0.0 s, then no program), though `build`
    defaults to the language's: the language builds it, and the run command runs what it made."""
    needs("cpp")
    bot = write(tmp_path / "bot", "bot.cpp", CPP_BOT.replace("{k}", "1"))
    built = build(bot, run_command="../out/bot", cache=tmp_path / "cache")
    assert built.language == "cpp" and built.command == "../out/bot" and answers(built) == "42\n"
    default = build(bot, cache=tmp_path / "cache")
    assert default.version != built.version, "the run command is part of what went in"
    # A language the arena does not build: run alone runs the sources as they are.
    script = write(tmp_path / "hs", "bot.hs", "main = interact id\n")
    assert build(script, run_command="cat bot.hs", cache=tmp_path / "cache").language == "custom"


def test_a_build_that_floods_its_output_is_stopped_and_its_log_cut(tmp_path, monkeypatch):
    """A build command in a loop that prints is ended at the limit of its log, not at its timeout
    with the disk full."""
    monkeypatch.setattr(build_module, "BUILD_LOG_BYTES", 1_000_000)
    write(tmp_path / "bot", "make.sh", "yes 'a line of a build that never ends'\n")
    with pytest.raises(
        BuildError, match=r"the build command wrote more than 1 MB of output \(the whole log: "
    ) as failed:
        build(tmp_path / "bot", build_command="sh make.sh", run_command="true", cache=tmp_path / "cache")
    assert failed.value.log.stat().st_size == 1_000_000
    # A step that leaves a printing loop behind in its group: the loop ends with the step.
    write(tmp_path / "bot", "make.sh", "(while :; do echo still printing; sleep 0.01; done) &\n")
    built = build(tmp_path / "bot", build_command="sh make.sh", run_command="true", cache=tmp_path / "cache")
    log = built.log
    size = log.stat().st_size
    time.sleep(0.3)
    assert log.stat().st_size == size


def test_a_build_ended_midway_leaves_no_temporary_file(tmp_path, monkeypatch):
    """A build killed with its process group (an interrupt, a timeout) left its compiler's temporary
    files (gcc's cc*.s, megabytes each) in TMPDIR: each build has a TMPDIR of its own, removed."""
    monkeypatch.setenv("TMPDIR", str(tmp_path / "mytmp"))
    (tmp_path / "mytmp").mkdir()
    write(tmp_path / "bot", "make.sh", 'echo assembly > "$TMPDIR/cc4bN8gJ.s"\nsleep 30\n')
    with pytest.raises(BuildError, match="the build took longer than 1 s"):
        build(tmp_path / "bot", build_command="sh make.sh", run_command="true", cache=tmp_path / "cache", timeout_s=1)
    assert list((tmp_path / "mytmp").iterdir()) == []
    assert sorted(path.name for path in (tmp_path / "cache" / "builds").iterdir()) == ["failed", "inputs"]


def test_builds_of_the_same_source_at_once_make_one_build(tmp_path):
    """Two processes that build the same bot at once (two workers of a run) both get it, and the
    cache holds one build of it."""
    needs("cpp")
    write(tmp_path, "bot.cpp", CPP_BOT.replace("{k}", "1"))
    script = (
        "import sys; from pathlib import Path; from arena.builds.build import build; "
        "print(build(Path(sys.argv[1]), cache=Path(sys.argv[2])).command)"
    )
    command = [sys.executable, "-c", script, str(tmp_path / "bot.cpp"), str(tmp_path / "cache")]
    processes = [subprocess.Popen(command, stdout=subprocess.PIPE, text=True) for _ in range(2)]
    said = {process.communicate(timeout=120)[0].strip() for process in processes}
    assert all(process.returncode == 0 for process in processes)
    name = Path(said.pop()).parts[-3]
    assert not said and sorted(p.name for p in (tmp_path / "cache" / "builds").iterdir()) == [name, "inputs"]
    assert [p.name for p in (tmp_path / "cache" / "builds" / "inputs").iterdir()] == [name]


def test_a_build_is_named_before_it_is_made_and_made_from_what_was_kept(tmp_path):
    """`plan` says the version, the folder and the command, and keeps the inputs; `make` builds from
    them alone (the source may be gone); `changed` finds kept inputs that no longer match the name."""
    needs("cpp")
    bot = write(tmp_path, "bot.cpp", CPP_BOT.replace("{k}", "1"))
    named = plan(bot, cache=tmp_path / "cache")
    assert not named.made and not named.folder.exists() and named.version in named.folder.name
    assert changed(named.folder) is None
    bot.unlink()
    assert make(named) is False and named.made and answers(named) == "42\n"
    assert make(named) is True, "found made"
    other = plan(write(tmp_path, "bot.cpp", CPP_BOT.replace("{k}", "2")), cache=tmp_path / "cache")
    kept = tmp_path / "cache" / "builds" / "inputs" / other.folder.name / "src" / "bot.cpp"
    kept.write_text(CPP_BOT.replace("{k}", "3"))
    assert "changed" in changed(other.folder)


@pytest.mark.parametrize("deleted", ["build.json", "src", "out", "out/bot", "inputs"])
def test_a_build_with_a_part_deleted_is_made_again(tmp_path, deleted):
    """A part of a build deleted between runs (its record, its sources, what was made, the inputs
    kept) is made again, whole: the record left alone was a traceback (a folder renamed onto a
    folder not empty), its sources or its program alone a bot that could not start."""
    needs("cpp")
    bot = write(tmp_path, "bot.cpp", CPP_BOT.replace("{k}", "1"))
    first = build(bot, cache=tmp_path / "cache")
    part = first.folder / deleted
    if deleted == "inputs":
        part = first.folder.parent / "inputs" / first.folder.name / "src"
    shutil.rmtree(part) if part.is_dir() else part.unlink()
    again = build(bot, cache=tmp_path / "cache")
    assert again.reused == (deleted == "inputs") and again.folder == first.folder and answers(again) == "42\n"
    assert (again.folder / "src" / "bot.cpp").is_file() and (part / "bot.cpp" if deleted == "inputs" else part).exists()
    assert [p.name for p in again.folder.parent.iterdir() if p.name.startswith(".")] == [], "nothing left aside"


def test_build_outputs_are_left_out_at_the_folder_s_top_only(tmp_path):
    """`build`, `bin`, `obj`, `target` are build outputs at a folder's top, where the tools write
    them; deeper they are sources (a Java package game.build, Cargo's src/bin/), which were left out."""
    write(tmp_path / "bot", "bot.py", "from game.build import pick\n\nprint(pick.STEP)\n")
    write(tmp_path / "bot", "game/build/pick.py", "STEP = 1\n")
    write(tmp_path / "bot", "game/bin/tool.py", "")
    write(tmp_path / "bot", "build/junk.py", "")
    write(tmp_path / "bot", "game/__pycache__/pick.py", "")
    built = build(tmp_path / "bot", cache=tmp_path / "cache")
    files = json.loads((built.folder / "build.json").read_text())["files"]
    assert files == ["bot.py", "game/bin/tool.py", "game/build/pick.py"]
    assert answers(built, "") == "1\n"


def test_a_cargo_program_in_src_bin(tmp_path):
    """Cargo's programs in src/bin/ were left out (a folder named bin), and the package's name run."""
    if not languages.program("cargo"):
        pytest.skip("Rust needs cargo, which this machine lacks (on Debian: apt-get install cargo)")
    write(tmp_path / "rs", "Cargo.toml", '[package]\nname = "mybot"\nversion = "0.1.0"\nedition = "2021"\n')
    write(tmp_path / "rs", "src/bin/bot.rs", HELLO["rust"][1])
    built = build(tmp_path / "rs", cache=tmp_path / "cache")
    assert built.command.endswith("/release/bot") and answers(built) == "42\n"
    write(tmp_path / "rs", "src/bin/other.rs", HELLO["rust"][1])
    with pytest.raises(SourceError, match=r"makes several programs \(bot, other\): say which to run"):
        build(tmp_path / "rs", cache=tmp_path / "cache")


def test_a_go_bot_is_a_main_package_at_the_top_of_its_folder(tmp_path):
    """Another package built (go build makes an archive of it) and was cached as a bot that could not
    run; a module with its program in cmd/bot/ failed with 'no Go files in src', the arena's folder."""
    needs("go")
    util = write(tmp_path / "nm", "bot.go", "package util\n\nfunc F() int { return 1 }\n")
    for given in (util, util.parent):
        with pytest.raises(SourceError, match="bot.go is package util, .*a Go bot is package main, with func main"):
            build(given, cache=tmp_path / "cache")
    write(tmp_path / "gm", "go.mod", "module example.com/gm\n\ngo 1.18\n")
    write(tmp_path / "gm", "cmd/bot/main.go", HELLO["go"][1])
    with pytest.raises(SourceError, match=r"no Go file at its top: .*build = \"go build -o bot ./cmd/NAME\""):
        build(tmp_path / "gm", cache=tmp_path / "cache")
    assert not (tmp_path / "cache" / "builds").exists() or not list((tmp_path / "cache" / "builds").glob("go-*"))


def test_a_typescript_folder_compiles_its_entry_and_what_it_imports(tmp_path):
    """Every .ts file of the folder was compiled, so a script the bot never imports failed its build
    (scripts/gen.ts: Cannot find module 'fs')."""
    needs("typescript")
    write(tmp_path / "ts", "lib/step.ts", "export function step(n: number): number { return n + 1; }\n")
    write(
        tmp_path / "ts",
        "bot.ts",
        'import { step } from "./lib/step";\n\nlet line: string | null;\n'
        "while ((line = readline()) !== null) console.log(step(parseInt(line)));\n",
    )
    write(tmp_path / "ts", "scripts/gen.ts", 'import * as fs from "fs";\nfs.writeFileSync("x", "y");\n')
    assert answers(build(tmp_path / "ts", cache=tmp_path / "cache")) == "42\n"
