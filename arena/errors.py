"""The arena's user errors: what the arena command prints as one line, `arena COMMAND: message`,
before exiting with status 2 (the project's convention: referee/platform/errors.py).

Any other exception is a bug of ours, and shows its traceback."""

from __future__ import annotations

from referee.platform.errors import UserError


class UsageError(UserError):
    """A mistake in what the user gave (an option, a file, a database): the message says what to fix."""
