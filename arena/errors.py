"""The arena's user errors: what the arena command prints as one line before exiting with status 2.

Any other exception is a bug of ours, and shows its traceback."""
from __future__ import annotations


class UsageError(Exception):
    """A mistake in what the user gave (an option, a file, a database): the message says what to fix."""
