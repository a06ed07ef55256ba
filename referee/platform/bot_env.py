"""What a bot process finds in its environment from whoever runs it (the referee, the arena): the
one place these names are written. Standard library only, and tiny: the bundled submission reads it.

- `CALDERA_BOT_SEED`: the seed a bot should seed its randomness with in this game, where the runner
  gives one (the arena does, so that a bot run as a process plays a seed's game as the same bot in
  process would; a bot is free to ignore it).
- `CALDERA_BOT_TOKEN`: marks every process a bot started, so all of them are ended with the game.
"""

from __future__ import annotations

import os

SEED_VARIABLE = "CALDERA_BOT_SEED"
TOKEN_VARIABLE = "CALDERA_BOT_TOKEN"


def given_seed() -> int | None:
    """The seed this process was given (None if none, or not an integer)."""
    text = os.environ.get(SEED_VARIABLE, "")
    digits = text.lstrip("-")
    return int(text) if digits.isascii() and digits.isdigit() else None
