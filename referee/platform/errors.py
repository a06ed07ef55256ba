"""Errors about what a person or a bot gave: what is wrong, and where; and how every command of the
project reports them (`referee`, `arena`, `python -m bots...`): one line, `PROG: message`, PROG
being the command as its usage names it (`referee coroutine judge`, `arena match`), and exit status
2. Any other exception is a bug of ours and shows its traceback."""

from __future__ import annotations

import argparse
import os
import sys


class UserError(Exception):
    """A user's mistake (an option, a file, a command that cannot start): the message says what to
    fix, and the command prints it as one line, `PROG: message`, and exits with status 2."""


class InputFormatError(UserError, ValueError):
    """Malformed puzzle, board or answer text. `where` locates it ("line 2, cell 3", "turn 7")."""

    def __init__(self, what: str, where: str | None = None):
        self.what = what
        self.where = where
        super().__init__(f"{where}: {what}" if where else what)

    def within(self, where: str | None) -> InputFormatError:
        """The same error, located inside `where` too ("file.txt, line 4" before "character 3")."""
        if not where:
            return self
        return InputFormatError(self.what, f"{where}, {self.where}" if self.where else where)


def counted(number: int, noun: str, plural: str = "") -> str:
    """`1 turn`, `2 turns`: a count and its noun, singular where one (`plural` where not NOUNs)."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def shorten(text: str, limit: int = 60) -> str:
    """`text` quoted for a message, cut to about `limit` characters (input can be megabytes)."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text):,} characters)"


class CommandParser(argparse.ArgumentParser):
    """An argument parser (and, through `add_subparsers`, each of its subcommands' parsers) whose
    mistakes are one line, `PROG: message`, with exit status 2, and whose parsed arguments hold
    `prog`, the prefix of the chosen command's own messages (`report`). Descriptions are shown as
    written (they are the commands' docstrings, wrapped by hand). Arguments no command takes are
    said by the command they were given to (`referee iqtwist check: unrecognized arguments: ...`),
    not by the top one, whose help does not list the command's."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(*args, **kwargs)
        self.set_defaults(prog=self.prog, command_parser=self)  # a subcommand's defaults override its parent's

    def parse_args(self, args=None, namespace=None):
        parsed, unknown = self.parse_known_args(args, namespace)
        if unknown:
            parsed.command_parser.error(f"unrecognized arguments: {' '.join(unknown)}")
        return parsed

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def report(args: argparse.Namespace, error: UserError) -> int:
    """Print a user's mistake as its command's one line; the exit status, 2."""
    print(f"{args.prog}: {error}", file=sys.stderr)
    return 2


def reader_gone() -> int:
    """What a command does when the reader of its output left (`... | head` raised BrokenPipeError):
    stop quietly, its stdout pointed at /dev/null so that Python's own flush at exit cannot fail on
    the closed pipe again. The exit status, 0: the reader has what it wanted."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0
