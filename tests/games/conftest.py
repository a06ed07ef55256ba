"""Fixtures of the tests of games run by external referees."""

from tests.games.pebbles.harness import leftovers  # noqa: F401
