"""Errors about text a person or a bot wrote: what is wrong, and where."""
from __future__ import annotations

import sys


class InputFormatError(ValueError):
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


def shorten(text: str, limit: int = 60) -> str:
    """`text` quoted for a message, cut to about `limit` characters (input can be megabytes)."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text):,} characters)"


def refuse(args, message: str) -> int:
    """A puzzle command's one line for a user's mistake, `GAME COMMAND: message` on stderr (the
    judge's too), and its exit status, 2."""
    print(f"{args.game} {args.command}: {message}", file=sys.stderr)
    return 2
