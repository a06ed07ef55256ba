"""Errors about what a person or a bot gave: what is wrong, and where, and the words of their
messages (`shorten`, `counted`). How every command reports them is `commands` (one line, `PROG:
message`, exit status 2); this module stays small, for the submission carries it (a bot's input
that is not CodinGame's is an InputFormatError)."""

from __future__ import annotations


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
