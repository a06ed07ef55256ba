"""CodinGame's languages: how a bot's file or folder is recognised, the JavaScript prelude's
readline(), and the guide's table, which shows every language of the code's table."""

import re
import subprocess
from pathlib import Path

import pytest

from arena.builds import languages
from arena.builds.languages import LanguageError, detect
from arena.builds.recipes import HERE, PRELUDE
from tests.builds.helpers import write

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "languages.md"


@pytest.mark.parametrize(
    "name, key",
    [("bot.cpp", "cpp"), ("bot.cc", "cpp"), ("bot.C", "cpp"), ("bot.c", "c"), ("Player.java", "java"), ("main.rs", "rust"),
     ("Program.cs", "csharp"), ("bot.go", "go"), ("bot.ts", "typescript"), ("bot.js", "javascript"), ("bot.py", "python"),
     ("bot.hs", "haskell")],
)  # fmt: skip
def test_a_file_s_language_is_its_suffix_s(name, key, tmp_path):
    assert detect(write(tmp_path, name, "")).key == key


def test_a_folder_s_language(tmp_path):
    assert detect(write(tmp_path / "rs", "Cargo.toml", "").parent).key == "rust"
    assert detect(write(tmp_path / "cm", "CMakeLists.txt", "").parent).key == "cpp"
    assert detect(write(tmp_path / "go", "go.mod", "").parent).key == "go"
    assert detect(tmp_path, [Path("main.c"), Path("lib/board.h")]).key == "c"
    assert detect(tmp_path, [Path("main.cpp"), Path("lib/fast.c"), Path("lib/board.h")]).key == "cpp"
    assert detect(tmp_path, [Path("game/Player.java"), Path("README.md")]).key == "java"
    with pytest.raises(LanguageError, match=r"holds sources of several languages \(Java, Python 3\)"):
        detect(tmp_path, [Path("Player.java"), Path("tools/plot.py")])
    with pytest.raises(LanguageError, match="no source file of a language CodinGame runs"):
        detect(tmp_path, [Path("README.md")])


def test_the_guide_shows_every_language_with_what_codingame_states_and_every_source():
    guide = GUIDE.read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip(): line for line in guide.splitlines() if line.startswith("| ")}
    for language in languages.LANGUAGES:
        assert language.name in rows, f"{language.name} is missing from {GUIDE.name}'s table"
        assert language.codingame in rows[language.name], f"{GUIDE.name}: {language.name} is not {language.codingame}"
    for text in languages.SOURCES.values():
        for place in re.findall(r"github\.com/[\w.-]+/[\w.-]+", text):
            assert place in guide, f"{GUIDE.name} does not cite {place}"


def test_the_prelude_reads_lines_as_codingame_s_readline_does(tmp_path):
    if languages.program("node") is None:
        pytest.skip("the JavaScript prelude needs node, which this machine lacks (on Debian: apt-get install nodejs)")
    script = write(
        tmp_path,
        "echo.js",
        "let line;\nwhile ((line = readline()) !== null) print(JSON.stringify(line));\nprintErr('done');\n",
    )
    long = "é" * 70_000  # a character of two bytes across the prelude's 64 KiB reads
    given = f"first\r\nsecond\n\n{long}\nlast without a newline".encode()
    done = subprocess.run(
        ["node", "--require", str(HERE / PRELUDE), str(script)], input=given, capture_output=True, timeout=60
    )
    assert done.returncode == 0 and done.stderr == b"done\n"
    assert done.stdout.decode().splitlines() == ['"first"', '"second"', '""', f'"{long}"', '"last without a newline"']
