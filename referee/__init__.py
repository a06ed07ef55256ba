"""Referees and judges; a `referee` folder elsewhere on the path adds its puzzles."""

from pkgutil import extend_path

__path__ = extend_path(__path__, __name__)
