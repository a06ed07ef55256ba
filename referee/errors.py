"""Errors about text a person or a bot wrote: what is wrong, and where."""
from __future__ import annotations


class InputFormatError(ValueError):
    """Malformed puzzle, board or answer text. `where` locates it ("line 2, cell 3", "turn 7")."""

    def __init__(self, what: str, where: str | None = None):
        self.what = what
        self.where = where
        super().__init__(f"{where}: {what}" if where else what)
