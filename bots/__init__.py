"""Bots and solvers; a `bots` folder elsewhere on the path adds its solvers."""

from pkgutil import extend_path

__path__ = extend_path(__path__, __name__)
