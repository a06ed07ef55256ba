"""How the bot picks a pebble."""

from .pick import choose

__all__ = ["choose"]
