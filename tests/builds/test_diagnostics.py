"""A failed build's first error, in one line with its file and line, whatever the compiler's way of
saying it (these logs are as each compiler writes them)."""

import pytest

from arena.builds.diagnostics import first_error, last_words

LOGS = [
    (
        "$ g++ -std=gnu++20 -Werror=return-type bot.cpp\nbot.cpp: In function 'int main()':\n"
        "bot.cpp:3:13: error: expected primary-expression before ';' token\nbot.cpp:4:5: error: second\n",
        "bot.cpp:3:13: error: expected primary-expression before ';' token",
    ),
    (
        "Player.java:3: error: ';' expected\n        int x = 1\n                 ^\n1 error\n",
        "Player.java:3: error: ';' expected",
    ),
    (
        "warning: unused variable: `x`\n --> main.rs:2:9\nerror: expected expression, found `;`\n --> main.rs:3:13\n"
        "  |\n3 |     let y = ;\n",
        "main.rs:3:13: error: expected expression, found `;`",
    ),
    (
        "Player.cs(3,16): error CS1525: Unexpected symbol `;'\nCompilation failed: 1 error(s)\n",
        "Player.cs:3:16: error CS1525: Unexpected symbol `;'",
    ),
    ("bot.ts(3,17): error TS1109: Expression expected.\n", "bot.ts:3:17: error TS1109: Expression expected."),
    ("# command-line-arguments\n./bot.go:5:2: undefined: foo\n", "./bot.go:5:2: error: undefined: foo"),
    (
        "/tmp/b/src/bot.js:3\nlet c = ;\n        ^\n\nSyntaxError: Unexpected token ';'\n",
        "/tmp/b/src/bot.js:3: SyntaxError: Unexpected token ';'",
    ),
    (
        "bot.sh: line 3: syntax error near unexpected token `then'\n",
        "bot.sh:3: syntax error near unexpected token `then'",
    ),
    (
        'syntax error at bot.pl line 3, near "= ;"\nbot.pl had compilation errors.\n',
        'bot.pl:3: syntax error, near "= ;"',
    ),
    (
        'PHP Parse error:  syntax error, unexpected token ";" in bot.php on line 3\n',
        'bot.php:3: Parse error:  syntax error, unexpected token ";"',
    ),
    ("bot.rb:3: syntax error, unexpected ')'\n", "bot.rb:3: syntax error, unexpected ')'"),
    ("Player.kt:3:12: error: expecting an element\n", "Player.kt:3:12: error: expecting an element"),
    (
        "/usr/bin/ld: /tmp/ccX.o: in function `main':\nbot.cpp:(.text+0x9): undefined reference to `step()'\n"
        "collect2: error: ld returned 1 exit status\n",
        "bot.cpp:(.text+0x9): undefined reference to `step()'",
    ),
    (  # (it said only collect2's line: two files of a folder bot each defining main)
        "/usr/bin/ld: /tmp/ccV.o: in function `main':\nother.cpp:(.text+0x0): multiple definition of `main'; "
        "/tmp/ccL.o:main.cpp:(.text+0x0): first defined here\ncollect2: error: ld returned 1 exit status\n",
        "other.cpp:(.text+0x0): multiple definition of `main'; /tmp/ccL.o:main.cpp:(.text+0x0): first defined here",
    ),
]


@pytest.mark.parametrize("log, said", LOGS)
def test_the_first_error_with_its_place(log, said):
    assert first_error(log) == said


def test_a_log_without_an_error_says_so():
    assert first_error("$ make -Werror\nsomething went wrong\nand stopped\n") is None
    assert last_words("$ make\nsomething went wrong\nand stopped\n\n") == "and stopped"
