"""Kept only because arena/play/players.py imports it; delete once players.py opens every seat with
`bots.volcanoes.seat.open_seat`, which it is."""

from bots.volcanoes.seat import open_seat as PureSeat  # noqa: F401
